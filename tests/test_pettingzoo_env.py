"""The PettingZoo AEC/Parallel envs and the Gymnasium adapter.

PettingZoo's own conformance tests (``api_test``, ``parallel_api_test``, ``seed_test``,
``parallel_seed_test``, ``max_cycles_test``, ``render_test``), then whole random episodes
with the invariants the module documentation promises, determinism over whole episodes,
illegal actions in both modes, option validation, and Gymnasium's ``check_env`` plus a
short MaskablePPO run on the single-agent adapter.
"""

from __future__ import annotations

import importlib
import pickle
import types
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)
from rules_helpers import BLANK, SUCCESS, remove_schemes, sp

import hon_env
from hon_env import Game, IllegalActionError, hour_of_need_v8
from hon_env import positions as P
from hon_env.core.observe import OBS_DIM, STATE_DIM
from hon_env.envs.gym_env import HourOfNeedEnv
from hon_env.spec import layout as L

N = L.N_ACTIONS
FINAL_REWARD = {"win": 1.0, "loss": -1.0, "truncated": 0.0}

# PettingZoo's generic tests warn about things that are deliberate here: dict observations
# of an env they do not list, hero names without a _<number> suffix.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action of ``mask``."""
    return int(rng.choice(np.flatnonzero(mask)))


class _LegalSampler(spaces.Discrete):
    """``Discrete(N)`` whose unmasked ``sample()`` draws from the env's current legal mask.

    ``max_cycles_test`` and ``parallel_seed_test`` call ``action_space(agent).sample()``
    without a mask, which in a 398-action masked game is almost always illegal. This
    sampler stands in for a masked random policy; every action still goes through the
    env's legality check unchanged.
    """

    def __init__(self, env: object, agent: str) -> None:
        super().__init__(N)
        self._env, self._agent = env, agent

    def sample(self, mask: np.ndarray | None = None, probability: np.ndarray | None = None
               ) -> np.int64:
        return super().sample(mask=self._env.action_mask(self._agent) if mask is None else mask)


def _with_legal_sampling(e: object) -> object:
    raw = e.unwrapped
    raw.action_spaces = {a: _LegalSampler(raw, a) for a in raw.possible_agents}
    return e


# --------------------------------------------------------------------------- PettingZoo tests

@pytest.mark.parametrize("n_heroes", [1, 2, 3])
def test_api_test(n_heroes):
    api_test(hour_of_need_v8.env(n_heroes=n_heroes), num_cycles=300)


def test_api_test_raw_env():
    api_test(hour_of_need_v8.raw_env(n_heroes=2), num_cycles=300)


@pytest.mark.parametrize("n_heroes", [1, 2])
def test_parallel_api_test(n_heroes):
    parallel_api_test(hour_of_need_v8.parallel_env(n_heroes=n_heroes), num_cycles=300)


@pytest.mark.parametrize("n_heroes", [1, 2])
def test_seed_test(n_heroes):
    seed_test(lambda: hour_of_need_v8.env(n_heroes=n_heroes), num_cycles=300)


def test_parallel_seed_test():
    # unmasked sampling: in "penalize" mode the illegal actions end both games identically
    parallel_seed_test(lambda: hour_of_need_v8.parallel_env(illegal_action="penalize"))
    parallel_seed_test(lambda: _with_legal_sampling(hour_of_need_v8.parallel_env(n_heroes=2)))


def test_max_cycles_test():
    """``max_cycles`` is an alias of ``caps.max_decisions``; with one hero a decision is a
    PettingZoo cycle, which is what ``max_cycles_test`` counts."""
    mod = types.SimpleNamespace(
        env=lambda **kw: _with_legal_sampling(hour_of_need_v8.env(**kw)),
        parallel_env=lambda **kw: _with_legal_sampling(hour_of_need_v8.parallel_env(**kw)))
    max_cycles_test(mod)


def test_render_test(capsys):
    render_test(lambda render_mode: hour_of_need_v8.env(render_mode=render_mode, n_heroes=2))
    assert "Decision:" in capsys.readouterr().out  # "human" prints the text board


# --------------------------------------------------------------------------- AEC episodes

def _check_obs(obs: dict, mask_expected: np.ndarray | None = None) -> None:
    assert set(obs) == {"observation", "action_mask"}
    o, m = obs["observation"], obs["action_mask"]
    assert o.dtype == np.float32 and o.shape == (OBS_DIM,) and (o >= 0).all()
    assert m.dtype == np.int8 and m.shape == (N,) and set(np.unique(m)) <= {0, 1}
    if mask_expected is not None:
        np.testing.assert_array_equal(m, mask_expected)


def test_aec_random_episodes():
    """30 whole episodes (1-3 heroes) of random legal play: masks, observations, team
    rewards, the end protocol and infos."""
    rng = np.random.default_rng(0)
    outcomes = []
    envs = {n: hour_of_need_v8.env(n_heroes=n) for n in (1, 2, 3)}  # reused across resets
    for ep in range(30):
        n_heroes = 1 + ep % 3
        e = envs[n_heroes]
        e.reset(seed=100 + ep)
        assert e.agents == e.possible_agents and len(e.agents) == n_heroes
        returns = dict.fromkeys(e.agents, 0.0)
        finished = []
        steps = 0
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            returns[agent] += reward
            if term or trunc:
                finished.append(agent)
                assert term != trunc
                assert info["outcome"] == ("truncated" if trunc else e.unwrapped.game.outcome)
                e.step(None)
                continue
            steps += 1
            assert agent == e.unwrapped.game.current_agent == info["acting_hero"]
            assert info["decision"] == e.unwrapped.game.decision
            assert set(info["events"]) == set(L.EVENT_NAMES)
            _check_obs(obs, e.unwrapped.game.legal_mask())
            assert obs["action_mask"].any()
            for other in e.agents:
                if other != agent:
                    assert not e.observe(other)["action_mask"].any()
            assert e.state().shape == (STATE_DIM,) and e.state().dtype == np.float32
            e.step(legal(obs["action_mask"], rng))
            assert len(set(e.rewards.values())) == 1  # one team reward
        assert sorted(finished) == sorted(e.possible_agents) and not e.agents
        outcome = e.unwrapped.game.outcome
        outcomes.append(outcome)
        # no shaping: the episode return is the final reward, the same for every hero
        assert set(returns.values()) == {FINAL_REWARD[outcome]}
        assert steps == int(e.unwrapped.game.field("decisions"))
    assert "loss" in outcomes


def test_aec_final_observation_and_protocol():
    e = hour_of_need_v8.env(n_heroes=2)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    while not any(e.terminations.values()):
        last = e.agent_selection
        e.step(legal(e.observe(last)["action_mask"], rng))
    # the hero who decided last takes the first step(None); every mask is empty now
    assert e.agent_selection == last
    for a in e.agents:
        _check_obs(e.observe(a), np.zeros(N, np.int8))
        assert e.infos[a]["acting_hero"] is None and e.infos[a]["decision"] == "none"
        assert e.infos[a]["loss_reason"] == e.unwrapped.game.loss_reason
    with pytest.raises(ValueError, match="only valid action is None"):
        e.unwrapped.step(0)
    e.step(None)
    e.step(None)
    assert e.agents == []


# --------------------------------------------------------------------------- Parallel episodes

def test_parallel_random_episodes():
    rng = np.random.default_rng(1)
    envs = {n: hour_of_need_v8.parallel_env(n_heroes=n) for n in (1, 2, 3)}
    for ep in range(30):
        n_heroes = 1 + ep % 3
        e = envs[n_heroes]
        obs, infos = e.reset(seed=200 + ep)
        total = 0.0
        while e.agents:
            decider = e.game.current_agent
            actions = {}
            for a in e.agents:
                assert infos[a]["acting_hero"] == decider
                if a == decider:
                    _check_obs(obs[a], e.game.legal_mask())
                    assert obs[a]["action_mask"].any()
                else:
                    only_pass = np.zeros(N, np.int8)
                    only_pass[L.A_PASS] = 1
                    _check_obs(obs[a], only_pass)
                actions[a] = legal(obs[a]["action_mask"], rng)
            assert e.state().shape == (STATE_DIM,)
            obs, rewards, terms, truncs, infos = e.step(actions)
            assert set(rewards) == set(terms) == set(truncs) == set(infos) == set(obs)
            assert len(set(rewards.values())) == 1
            total += next(iter(rewards.values()))
        outcome = e.game.outcome
        assert total == FINAL_REWARD[outcome]
        assert all(terms.values()) == (outcome != "truncated")
        assert all(truncs.values()) == (outcome == "truncated")
        for a in e.possible_agents:
            assert infos[a]["outcome"] == outcome
            assert not obs[a]["action_mask"].any()
        with pytest.raises(RuntimeError, match="reset"):
            e.step({})


def test_aec_parallel_and_game_agree():
    """Same seed and actions: the AEC env, the Parallel env and a bare Game see the same
    observations, masks, rewards and outcome at every step."""
    rng = np.random.default_rng(2)
    aec = hour_of_need_v8.raw_env(n_heroes=2)
    par = hour_of_need_v8.parallel_env(n_heroes=2)
    aec.reset(seed=9)
    par.reset(seed=9)
    g = Game("origin_story", seed=9, heroes=["majesty", "majesty"])
    while par.agents:
        agent = aec.agent_selection
        assert agent == g.current_agent
        a = legal(g.legal_mask(), rng)
        for seat, name in enumerate(g.agents):
            np.testing.assert_array_equal(aec.observe(name)["observation"],
                                          g.observation(seat))
        actions = {x: (a if x == agent else 0) for x in par.agents}
        aec.step(a)
        obs, rewards, *_ = par.step(actions)
        g.apply(a)
        for name in par.possible_agents:
            np.testing.assert_array_equal(obs[name]["observation"],
                                          aec.observe(name)["observation"])
            assert rewards[name] == aec.rewards[name]
    assert aec.unwrapped.game.outcome == g.outcome == par.game.outcome
    np.testing.assert_array_equal(aec.state(), g.global_state())


# --------------------------------------------------------------------------- seeds

def _aec_trajectory(seed: int | None, n_heroes: int = 2, policy_seed: int = 0,
                    e: object | None = None) -> list:
    """(agent, observation bytes, mask bytes, reward, action) for every step of an episode."""
    e = e or hour_of_need_v8.env(n_heroes=n_heroes)
    e.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    out = []
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        action = None if term or trunc else legal(obs["action_mask"], rng)
        out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(),
                    reward, action))
        e.step(action)
    return out


def test_same_seed_same_whole_episode():
    a, b = _aec_trajectory(7), _aec_trajectory(7)
    assert len(a) > 20 and a == b


def test_parallel_same_seed_same_whole_episode():
    def run() -> list:
        e = hour_of_need_v8.parallel_env(n_heroes=2)
        obs, _ = e.reset(seed=11)
        rng = np.random.default_rng(5)
        out = []
        while e.agents:
            actions = {a: legal(obs[a]["action_mask"], rng) for a in e.agents}
            obs, rewards, *_ = e.step(actions)
            out.append((sorted(actions.items()), sorted(rewards.items()),
                        [obs[a]["observation"].tobytes() for a in sorted(obs)]))
        return out
    a, b = run(), run()
    assert len(a) > 20 and a == b


def test_different_seeds_different_games():
    firsts = set()
    e = hour_of_need_v8.raw_env()
    for seed in range(10):
        e.reset(seed=seed)
        firsts.add(e.state().tobytes())
    assert len(firsts) == 10
    assert _aec_trajectory(1) != _aec_trajectory(2)


def test_unseeded_resets_follow_the_documented_seeds():
    """A fresh env starts at seed 0; each unseeded reset plays the next seed."""
    def first_state(e: object, seed: int | None) -> bytes:
        e.reset(seed=seed)
        return e.state().tobytes()

    def game_state(seed: int) -> bytes:
        return Game("origin_story", seed=seed).global_state().tobytes()

    e = hour_of_need_v8.raw_env()
    assert first_state(e, None) == game_state(0)
    assert first_state(e, None) == game_state(1)
    assert first_state(e, 41) == game_state(41)
    assert first_state(e, None) == game_state(42)
    p = hour_of_need_v8.parallel_env()
    obs, _ = p.reset()
    np.testing.assert_array_equal(obs["majesty"]["observation"],
                                  Game("origin_story", seed=0).observation(0))
    with pytest.raises(ValueError, match="seed"):
        e.reset(seed=-1)
    with pytest.raises(TypeError, match="seed"):
        e.reset(seed=1.5)


# --------------------------------------------------------------------------- rewards

def _near_win(e: object) -> int:
    """Edit ``e``'s game (one seat) so that attacking D3 defeats the villain; returns that
    action (the rule test ``test_defeating_villain_wins``, played through the env)."""
    g = e.unwrapped.game
    P.clear_board(g)
    remove_schemes(g)
    P.place_hero(g, 0, "C3")
    P.set_villain(g, side="showdown", where="D3", owner=0, damage=5)
    P.stack_villain_deck(g, ["Contested Will"])
    P.force_dice(g, [SUCCESS, SUCCESS, BLANK])
    P.jump(g, "hero_turn")
    return L.A_ATTACK + sp(g, "D3")


def test_win_gives_plus_one_to_every_agent():
    e = hour_of_need_v8.env()
    e.reset(seed=0)
    e.step(_near_win(e))
    assert e.terminations == {"majesty": True} and e.rewards == {"majesty": 1.0}
    obs, reward, term, trunc, info = e.last()
    assert (reward, term, trunc, info["outcome"], info["loss_reason"]) == \
        (1.0, True, False, "win", None)

    p = hour_of_need_v8.parallel_env()
    p.reset(seed=0)
    _, rewards, terms, truncs, infos = p.step({"majesty": _near_win(p)})
    assert rewards == {"majesty": 1.0} and terms == {"majesty": True}
    assert truncs == {"majesty": False} and infos["majesty"]["outcome"] == "win"


def test_truncation_at_the_decision_cap():
    rng = np.random.default_rng(3)
    e = hour_of_need_v8.parallel_env(n_heroes=2, caps={"max_decisions": 12})
    obs, _ = e.reset(seed=0)
    for _ in range(12):
        assert e.agents  # still running: the cap ends the episode at the 12th decision
        obs, rewards, terms, truncs, infos = e.step(
            {a: legal(obs[a]["action_mask"], rng) for a in e.agents})
    assert e.agents == []
    assert all(truncs.values()) and not any(terms.values())
    assert set(rewards.values()) == {0.0}
    assert infos["majesty"]["outcome"] == "truncated"
    assert infos["majesty"]["loss_reason"] == "decision_cap"
    with pytest.raises(ValueError, match="conflicts"):
        hour_of_need_v8.env(max_cycles=5, caps={"max_decisions": 6})


def test_reward_shaping_sums_to_the_weighted_event_counts():
    weights = {"captures": -0.25, "villain_advances": -0.5, "rescues": 1.0}
    e = hour_of_need_v8.env(n_heroes=2, reward_shaping=weights)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    returns = dict.fromkeys(e.agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        returns[agent] += reward
        e.step(None if term or trunc else legal(obs["action_mask"], rng))
    events = info["events"]
    start = Game("origin_story", seed=5, heroes=["majesty"] * 2).snapshot()["events"]
    shaped = sum(w * (events[k] - start[k]) for k, w in weights.items())
    expected = FINAL_REWARD[info["outcome"]] + shaped
    assert shaped != 0
    for r in returns.values():
        assert r == pytest.approx(expected)


# --------------------------------------------------------------------------- illegal actions

def test_illegal_action_raises_and_changes_nothing():
    e = hour_of_need_v8.env(n_heroes=2)
    e.reset(seed=0)
    agent = e.agent_selection
    before = (e.state().copy(), e.observe(agent)["action_mask"].copy(), dict(e.rewards))
    bad = int(np.flatnonzero(before[1] == 0)[5])
    with pytest.raises(IllegalActionError, match=rf"action {bad} .*not legal.*legal: "):
        e.step(bad)
    np.testing.assert_array_equal(e.state(), before[0])
    assert e.agent_selection == agent and e.rewards == before[2]
    with pytest.raises(IllegalActionError, match=rf"action {N} .*out of range.*\[0, {N}\)"):
        e.step(N)  # the project's check, not PettingZoo's bare assertion
    with pytest.raises(IllegalActionError, match="out of range"):
        e.unwrapped.step(N)
    with pytest.raises(TypeError, match="integer"):
        e.unwrapped.step(1.0)


def test_illegal_action_penalize_aec():
    e = hour_of_need_v8.env(n_heroes=2, illegal_action="penalize")
    e.reset(seed=0)
    agent = e.agent_selection
    bad = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    e.step(bad)
    assert e.rewards == dict.fromkeys(e.possible_agents, -1.0)
    assert all(e.terminations.values()) and not any(e.truncations.values())
    for a in e.agents:
        assert e.infos[a]["outcome"] == "loss"
        assert e.infos[a]["loss_reason"] == "illegal_action"
        assert not e.observe(a)["action_mask"].any()
    rewards = []
    for _ in e.agent_iter():
        rewards.append(e.last()[1])
        e.step(None)
    assert rewards == [-1.0, -1.0]


def test_parallel_illegal_actions():
    e = hour_of_need_v8.parallel_env(n_heroes=2)
    e.reset(seed=0)
    decider = e.game.current_agent
    waiting = next(a for a in e.agents if a != decider)
    ok = int(e.game.legal_actions()[0])
    with pytest.raises(IllegalActionError, match=rf"{waiting}.*does not decide.*got 5"):
        e.step({decider: ok, waiting: 5})
    bad = int(np.flatnonzero(e.game.legal_mask() == 0)[3])
    with pytest.raises(IllegalActionError, match=rf"action {bad} "):
        e.step({decider: bad, waiting: 0})
    with pytest.raises(ValueError, match="missing"):
        e.step({decider: ok})
    with pytest.raises(ValueError, match="unknown"):
        e.step({decider: ok, waiting: 0, "nobody": 0})
    with pytest.raises(TypeError, match="integer"):
        e.step({decider: "1", waiting: 0})
    assert e.agents == e.possible_agents  # nothing above changed the episode

    p = hour_of_need_v8.parallel_env(n_heroes=2, illegal_action="penalize")
    p.reset(seed=0)
    _, rewards, terms, truncs, infos = p.step({decider: ok, waiting: 5})
    assert rewards == dict.fromkeys(p.possible_agents, -1.0) and all(terms.values())
    assert infos[waiting]["loss_reason"] == "illegal_action" and p.agents == []


# --------------------------------------------------------------------------- options

def test_options_are_validated_early():
    with pytest.raises(TypeError, match="bogus"):
        hour_of_need_v8.env(bogus=1)
    with pytest.raises(TypeError, match="bogus"):
        hour_of_need_v8.parallel_env(bogus=1)
    with pytest.raises(ValueError, match="illegal_action"):
        hour_of_need_v8.env(illegal_action="ignore")
    with pytest.raises(ValueError, match="unknown reward_shaping event 'gold'"):
        hour_of_need_v8.parallel_env(reward_shaping={"gold": 1.0})
    with pytest.raises(ValueError, match="render_mode"):
        hour_of_need_v8.env(render_mode="video")
    with pytest.raises(ValueError, match="n_heroes"):
        hour_of_need_v8.env(n_heroes=7)
    with pytest.raises(ValueError, match="n_heroes=2 but 3 heroes"):
        hour_of_need_v8.env(n_heroes=2, heroes=["majesty"] * 3)
    with pytest.raises(hon_env.ContentError, match="nobody"):
        hour_of_need_v8.env(heroes=["nobody"])
    with pytest.raises(TypeError, match="max_cycles must be an integer"):
        HourOfNeedEnv(max_cycles=3.0)  # accepted as an int, like every front end
    e = hour_of_need_v8.raw_env(n_heroes=3)
    assert e.possible_agents == ["majesty", "majesty_2", "majesty_3"]
    assert e.metadata["name"] == "hour_of_need_v8" and e.metadata["is_parallelizable"]
    assert e.state_space.shape == (STATE_DIM,)
    assert e.observation_space("majesty") is e.observation_space("majesty")
    assert e.observation_space("majesty") is not e.observation_space("majesty_2")


def test_documentation_page_matches_the_engine():
    """The numbers in the module docstring (the env's documentation page) are current."""
    doc = hour_of_need_v8.__doc__
    assert f'{{"observation": ({OBS_DIM},), "action_mask": ({N},)}}' in doc
    assert f"`Discrete({N})`" in doc and f"`({STATE_DIM},)`" in doc
    assert f"float32 [{OBS_DIM}]" in doc and f"int8 [{N}]" in doc
    ranges = [f"({start})" if size == 1 else f"({start}-{start + size - 1})"
              for _, start, size in L.SEGMENTS]
    positions = [doc.find(r) for r in ranges]
    assert -1 not in positions and positions == sorted(positions), ranges


def test_env_pickles_by_constructor_arguments():
    e = pickle.loads(pickle.dumps(hour_of_need_v8.raw_env(n_heroes=2)))
    e.reset(seed=3)
    assert e.possible_agents == ["majesty", "majesty_2"]


def test_render_modes():
    e = hour_of_need_v8.parallel_env(n_heroes=2, render_mode="ansi")
    e.reset(seed=3)
    text = e.render()
    assert "Decision:" in text and "B7" in text and "majesty_2" in text
    e = hour_of_need_v8.parallel_env(render_mode="rgb_array")
    e.reset(seed=3)
    img = e.render()
    assert img.dtype == np.uint8 and img.shape == (750, 1300, 3)  # as documented
    assert img.std() > 10  # not a blank canvas
    with pytest.warns(UserWarning, match="render_mode"):
        none = hour_of_need_v8.raw_env()
        none.reset()
        assert none.render() is None


# --------------------------------------------------------------------------- Gymnasium

def test_gymnasium_check_env():
    # check_env steps with unmasked random actions: "penalize" turns them into a -1 ending
    env = gymnasium.make("hon_env/HourOfNeed-v8", illegal_action="penalize", n_heroes=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # infinite Box high; "human" prints
        check_env(env.unwrapped)


def test_gymnasium_make_and_reimport():
    importlib.reload(hon_env)  # registration is idempotent
    env = gymnasium.make("hon_env/HourOfNeed-v8", n_heroes=2)
    obs, info = env.reset(seed=3)
    assert obs.shape == (OBS_DIM,) and obs.dtype == np.float32
    seat = hon_env.Game("origin_story", seed=3, heroes=["majesty"] * 2).current_seat
    assert obs[58 + seat] == 1.0 and obs[58:64].sum() == 1.0  # the deciding seat, one-hot
    rng = np.random.default_rng(0)
    total, done = 0.0, False
    while not done:
        mask = env.unwrapped.action_masks()
        assert mask.dtype == bool and mask.any()
        np.testing.assert_array_equal(mask, info["action_mask"].astype(bool))
        obs, reward, term, trunc, info = env.step(legal(mask, rng))
        total += reward
        done = term or trunc
    assert total == FINAL_REWARD[info["outcome"]]
    assert not env.unwrapped.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.unwrapped.step(0)


def test_gymnasium_win():
    env = HourOfNeedEnv()
    env.reset(seed=0)
    _, reward, term, trunc, info = env.step(_near_win(env))
    assert (reward, term, trunc, info["outcome"]) == (1.0, True, False, "win")


def test_maskable_ppo_on_the_gymnasium_adapter(tmp_path, monkeypatch):
    sb3_contrib = pytest.importorskip("sb3_contrib")
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path))  # SB3's default log folder, not /tmp's
    env = gymnasium.make("hon_env/HourOfNeed-v8", n_heroes=2)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, n_epochs=1,
                                    seed=0, policy_kwargs={"net_arch": [32]}, device="cpu")
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    obs, _ = env.reset(seed=1)
    mask = env.unwrapped.action_masks()
    action, _ = model.predict(obs, action_masks=mask, deterministic=True)
    assert mask[int(action)]


def test_numeric_infos_keep_their_keys_and_types():
    """``numeric_info=True``: the same keys at every step, numbers only, and the outcome
    and loss reason as layout codes at the end."""
    from hon_env.spec import layout as L

    env = hour_of_need_v8.parallel_env(n_heroes=2, numeric_info=True, max_cycles=30)
    obs, infos = env.reset(seed=0)
    arrays = {"events": len(L.EVENT_NAMES), "fames": 2,
              "hero_events": len(L.HERO_COUNTER_NAMES)}
    keys = {"acting_seat", "decision", "outcome", "loss_reason", "fame"} | set(arrays)
    rng = np.random.default_rng(0)
    while env.agents:
        for info in infos.values():
            assert set(info) == keys
            for k, n in arrays.items():
                assert info[k].dtype == np.int64 and info[k].shape == (n,)
            assert all(isinstance(info[k], int) for k in keys - set(arrays))
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"])))
                   for a in env.agents}
        obs, _, _, _, infos = env.step(actions)
    last = next(iter(infos.values()))
    assert last["outcome"] in (L.OUT_WIN, L.OUT_LOSS, L.OUT_TRUNCATED)
    assert last["acting_seat"] == -1 and last["decision"] == L.D_NONE
    with pytest.raises(TypeError, match="numeric_info"):
        hour_of_need_v8.parallel_env(numeric_info="yes")


def test_observation_is_encoded_once_per_state_and_follows_edits():
    """``observe``/``last`` for one decision return equal, independent arrays (one encode,
    kept for that state); a step or an edit of the running game gives a new encoding."""
    env = hour_of_need_v8.env(heroes=["majesty", "stride"])
    env.reset(seed=3)
    agent = env.agent_selection
    first = env.observe(agent)["observation"]
    again = env.last()[0]["observation"]
    np.testing.assert_array_equal(first, again)
    first[:] = -1.0  # the caller's copy: the env's next answer is unchanged
    np.testing.assert_array_equal(env.observe(agent)["observation"], again)
    game = env.unwrapped.game
    damage = hon_env.feature_index("self.damage")
    P.set_hero(game, game.current_seat, damage=2)  # an edit through hon_env.positions
    edited = env.observe(agent)["observation"]
    assert edited[damage] != again[damage]
    np.testing.assert_array_equal(edited, game.observation(game.current_seat))
    legal = np.flatnonzero(env.action_mask(agent))
    env.step(int(legal[0]))
    now = env.agent_selection
    np.testing.assert_array_equal(env.observe(now)["observation"],
                                  game.observation(game.current_seat))
