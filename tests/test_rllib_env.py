"""The RLlib adapter (``hon_env.envs.rllib_env``) and ``hon-train --algo rllib``.

Needs the optional extra ``hon_env[rllib]`` (ray[rllib] and the gymnasium it pins);
skipped without it.
"""

from __future__ import annotations

import csv

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="RLlib is the optional extra hon_env[rllib] "
                                        "(pip install -e '.[rllib]')")

from ray.rllib.env.multi_agent_episode import MultiAgentEpisode  # noqa: E402
from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

from hon_env import Game, hour_of_need_v8  # noqa: E402
from hon_env.checks import EPISODE_ROOM, IllegalActionError  # noqa: E402
from hon_env.core.observe import OBS_DIM  # noqa: E402
from hon_env.envs.rllib_env import HourOfNeedRLlibEnv  # noqa: E402
from hon_env.spec import layout as L  # noqa: E402

SHAPING = {"schemes_solved": 0.5, "damage_dealt": 0.1, "hero_defeats": -0.2}


def _play(env: HourOfNeedRLlibEnv, seed: int, rng: np.random.Generator):
    """One episode with random legal actions: (actions, per-step reward dicts, last step)."""
    obs, infos = env.reset(seed=seed)
    actions, rewards = [], []
    while True:
        assert len(obs) == 1  # turn-based: only the decider observes
        (hero,) = obs
        legal = np.flatnonzero(obs[hero]["action_mask"])
        a = int(rng.choice(legal))
        actions.append(a)
        obs, rew, term, trunc, infos = env.step({hero: a})
        rewards.append(rew)
        if term["__all__"] or trunc["__all__"]:
            return actions, rewards, (obs, rew, term, trunc, infos)


def test_passes_rllibs_env_check():
    """RLlib's own check: it samples each decider's action from the action space."""
    env = HourOfNeedRLlibEnv({"n_heroes": 3})
    check_multiagent_environments(env)
    assert env.possible_agents == ["majesty", "majesty_2", "majesty_3"]


def test_observations_use_the_action_masking_keys_and_sampling_is_legal():
    env = HourOfNeedRLlibEnv({"heroes": ["majesty", "stride"]})
    obs, infos = env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(60):
        (hero,) = obs
        o = obs[hero]
        assert set(o) == {"observations", "action_mask"}
        assert o["observations"].shape == (OBS_DIM,) and o["action_mask"].dtype == np.float32
        assert env.get_observation_space(hero).contains(o)
        assert hero == env.game.current_agent
        np.testing.assert_array_equal(o["action_mask"], env.game.legal_mask())
        for _ in range(5):
            assert o["action_mask"][env.get_action_space(hero).sample()] == 1.0
        for other in env.possible_agents:
            if other != hero:
                assert env.get_action_space(other).sample() == L.A_PASS
        assert set(infos) == {hero}
        obs, _, term, trunc, infos = env.step({hero: int(rng.choice(
            np.flatnonzero(o["action_mask"])))})
        if term["__all__"] or trunc["__all__"]:
            break


def test_a_player_of_two_heroes_observes_as_the_seat_it_moves():
    """The Draft variant's mode pass (002 §SET UP: each player controls two heroes): the
    RLlib agents are the players, and a player's observation is that of the seat it moves
    now, as in the PettingZoo env."""
    env = HourOfNeedRLlibEnv({"scenario": "draft_pass"})
    assert env.possible_agents == ["player_0", "player_1"]
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(30):
        (player,) = obs
        seat = env.game.current_seat
        assert player == f"player_{seat // 2}"
        np.testing.assert_array_equal(obs[player]["observations"], env.game.observation(seat))
        legal = np.flatnonzero(obs[player]["action_mask"])
        obs, _, term, trunc, _ = env.step({player: int(rng.choice(legal))})
        if term["__all__"] or trunc["__all__"]:
            break


def test_the_team_return_is_counted_once():
    """The rewards summed over heroes and steps equal the team return of the same game in
    the PettingZoo env (which gives the whole team reward to every hero)."""
    env = HourOfNeedRLlibEnv({"n_heroes": 2, "reward_shaping": SHAPING})
    rng = np.random.default_rng(1)
    for seed in (0, 1):
        actions, rewards, (obs, _, term, trunc, infos) = _play(env, seed, rng)
        pz = hour_of_need_v8.parallel_env(n_heroes=2, reward_shaping=SHAPING)
        pz.reset(seed=seed)
        team = 0.0
        for a in actions:
            decider = pz.game.current_agent
            _, rew, _, _, _ = pz.step({h: a if h == decider else 0 for h in pz.agents})
            team += rew[decider]
        assert sum(sum(r.values()) for r in rewards) == pytest.approx(team)
        # at the end every hero gets a last observation, flags and a numeric info
        assert set(obs) == set(env.possible_agents) == set(infos)
        assert term["__all__"] and all(term[h] for h in env.possible_agents)
        assert not any(o["action_mask"].any() for o in obs.values())
        info = infos["majesty"]
        assert info["outcome"] in (L.OUT_WIN, L.OUT_LOSS)
        assert all(isinstance(v, (int, np.ndarray)) for v in info.values())


def test_rllib_episodes_close_on_truncation_and_sum_to_the_team_return():
    """Fed into RLlib's ``MultiAgentEpisode``, a truncated game (the decision cap) closes
    every hero's trajectory and its return is the team's (here 0 plus shaping)."""
    env = HourOfNeedRLlibEnv({"n_heroes": 2, "max_cycles": 40, "reward_shaping": SHAPING})
    rng = np.random.default_rng(2)
    obs, infos = env.reset(seed=9)
    episode = MultiAgentEpisode(observations=[obs], infos=[infos],
                                agent_to_module_mapping_fn=lambda aid, eps: "hero")
    team = 0.0
    while not episode.is_done:
        (hero,) = obs
        action = {hero: int(rng.choice(np.flatnonzero(obs[hero]["action_mask"])))}
        obs, rew, term, trunc, infos = env.step(action)
        team += sum(rew.values())
        episode.add_env_step(obs, action, rew, infos, terminateds=term, truncateds=trunc)
    assert episode.is_truncated and trunc["__all__"]
    assert episode.get_return() == pytest.approx(team)
    assert set(episode.agent_episodes) == {"majesty", "majesty_2"}


def test_seeds_and_disjoint_streams():
    """reset(seed=s) plays Game(seed=s); unseeded resets follow each copy's own stream,
    so two copies (as RLlib's vector env makes) never play the same game."""
    a, b = HourOfNeedRLlibEnv({"seed": 7}), HourOfNeedRLlibEnv({"seed": 7})
    obs, _ = a.reset(seed=123)
    np.testing.assert_array_equal(obs["majesty"]["observations"],
                                  Game("origin_story", seed=123).observation(0))
    a.reset()
    b.reset()
    assert (b.seed - a.seed) % EPISODE_ROOM == 0 and b.seed != a.seed
    assert a.seed % EPISODE_ROOM == 7
    first = a.seed
    a.reset(seed=5)  # a seeded reset (RLlib's env check makes one) leaves the stream alone
    a.reset()
    assert a.seed == first + 1


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="numeric_info must be True"):
        HourOfNeedRLlibEnv({"numeric_info": False})
    with pytest.raises(ValueError, match="reward_shaping|unknown"):
        HourOfNeedRLlibEnv({"reward_shaping": {"no_such_event": 1.0}})
    env = HourOfNeedRLlibEnv({"n_heroes": 2})
    with pytest.raises(RuntimeError, match="reset"):
        env.step({"majesty": 0})
    obs, _ = env.reset(seed=0)
    (hero,) = obs
    other = next(h for h in env.possible_agents if h != hero)
    with pytest.raises(ValueError, match="decides now"):
        env.step({other: 0})
    with pytest.raises(ValueError, match="decides now"):
        env.step({hero: 1, other: 0})
    illegal = int(np.flatnonzero(obs[hero]["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step({hero: illegal})
    penal = HourOfNeedRLlibEnv({"illegal_action": "penalize"})
    penal.reset(seed=0)
    _, rew, term, _, infos = penal.step({"majesty": illegal})
    assert term["__all__"] and sum(rew.values()) == -1.0
    assert infos["majesty"]["loss_reason"] == L.LOSS_ILLEGAL


def test_train_rllib_two_iterations(tmp_path):
    """``hon-train --algo rllib``: two small PPO iterations on local Ray with one remote env
    runner; the usual run files, a team return of -1..1 per episode, checkpoints."""
    from agents.cli.train_rllib import Config, train

    run = tmp_path / "rllib"
    row = train(Config(run_dir=str(run), total_steps=400, train_batch_size=200,
                       minibatch_size=64, num_epochs=1, num_env_runners=1,
                       num_envs_per_env_runner=2, eval_every=400, eval_games=4,
                       checkpoint_every=400, hidden=[32], progress=False,
                       reward_shaping={"schemes_solved": 0.2}))
    with (run / "train.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    steps = [int(r["step"]) for r in rows]
    # RLlib may sample a few steps past a batch (it finishes the env runner's vector step)
    assert len(steps) == 2 and 200 <= steps[0] < 250 and 400 <= steps[1] < 450, steps
    for r in rows:
        assert float(r["episodes"]) >= 1
        assert -1.0 <= float(r["episode_return"]) <= 1.0 + 0.2 * 10
        assert float(r["episode_win_rate"]) + float(r["episode_loss_rate"]) <= 1.0
        assert np.isfinite(float(r["policy_loss"])) and float(r["entropy"]) > 0
    assert 0.0 <= row["trained_win_rate"] <= 1.0
    assert (run / "eval.csv").exists() and list((run / "tb").iterdir())
    assert (run / "checkpoints" / f"step_{steps[1]}" / "rllib_checkpoint.json").exists()
    assert (run / "checkpoints" / "final" / "rllib_checkpoint.json").exists()
