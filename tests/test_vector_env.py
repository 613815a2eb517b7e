"""The vector API: same trajectories as single games, auto-reset, rewards, errors."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from vector_helpers import lockstep

from hon_env import Game, vector_env
from hon_env.checks import legal_in_masks
from hon_env.core.vector import count_illegal
from hon_env.spec import layout as L


def test_vector_matches_single_games_across_auto_resets(origin):
    """Every step of every game equals a ``Game`` replay, episode after episode."""
    B, seed = 6, 100
    env = vector_env(B, seed=seed, scenario=origin)
    obs, _ = env.reset()
    games = [Game(origin, seed=seed + i) for i in range(B)]
    episodes = [0] * B
    finished = 0
    for obs, rewards, term, trunc, info in lockstep(env, games):
        for i in range(B):
            if info["_final"][i]:
                g = games[i]
                assert g.is_over
                assert info["final_outcome"][i] == int(g.state[0, L.OUTCOME])
                assert info["final_decisions"][i] == int(g.state[0, L.DECISIONS])
                assert info["final_loss_reason"][i] == int(g.state[0, L.LOSS_REASON])
                assert info["final_rounds"][i] == int(g.state[0, L.ROUND])
                np.testing.assert_array_equal(
                    info["final_fame"][i], L.field_view(g.state, "fame")[0, :env.n_heroes])
                expected = {"win": 1.0, "loss": -1.0, "truncated": 0.0}[g.outcome]
                assert rewards[i, 0] == expected
                assert term[i] == (g.outcome != "truncated")
                np.testing.assert_array_equal(info["final_observation"][i],
                                              g.observation(int(info["final_agent"][i])))
                episodes[i] += 1
                finished += 1
                games[i] = Game(origin, seed=seed + i + episodes[i] * B)
            else:
                assert rewards[i, 0] == 0.0 and not term[i] and not trunc[i]
            g = games[i]
            np.testing.assert_array_equal(env.state[i], g.state[0])
            np.testing.assert_array_equal(obs["action_mask"][i], g.legal_mask())
            assert obs["agent"][i] == g.current_seat
            np.testing.assert_array_equal(obs["observation"][i], g.observation())
            np.testing.assert_array_equal(obs["state"][i], g.global_state())
    assert finished >= B  # auto-reset exercised for every game at least once on average


def _first_episode_outcomes(B, threads, origin):
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        env = vector_env(B, seed=7, scenario=origin, observations=False)
        env.reset()
        rng = np.random.default_rng(3)
        out = {}
        seen = np.zeros(B, bool)
        while not seen.all():
            _, _, _, _, info = env.step(env.sample_actions(rng))
            for i in np.flatnonzero(info["_final"] & ~seen):
                out[int(i)] = (int(info["final_outcome"][i]), int(info["final_decisions"][i]))
                seen[i] = True
        return out
    finally:
        numba.set_num_threads(before)


def test_results_independent_of_threads(origin):
    """One thread or two: identical episodes for the same seeds and random stream."""
    assert _first_episode_outcomes(32, 1, origin) == _first_episode_outcomes(
        32, numba.config.NUMBA_NUM_THREADS, origin)


def test_game_i_is_the_same_in_any_batch_size(origin):
    """Game i's first episode does not depend on how many games share the batch."""
    rng = np.random.default_rng(0)
    small = vector_env(2, seed=40, scenario=origin, observations=False)
    big = vector_env(64, seed=40, scenario=origin, observations=False)
    small.reset()
    big.reset()
    np.testing.assert_array_equal(small.state, big.state[:2])
    for _ in range(30):
        a = big.sample_actions(rng)
        small.step(a[:2])
        big.step(a)
        np.testing.assert_array_equal(small.state, big.state[:2])


def test_observations_off_keeps_masks_and_rewards(origin):
    on = vector_env(8, seed=3, scenario=origin)
    off = vector_env(8, seed=3, scenario=origin, observations=False)
    on.reset()
    off.reset()
    rng = np.random.default_rng(5)
    for _ in range(200):
        a = on.sample_actions(rng)
        o1, r1, t1, _, _ = on.step(a)
        o2, r2, t2, _, _ = off.step(a)
        np.testing.assert_array_equal(o1["action_mask"], o2["action_mask"])
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(t1, t2)
    assert not o2["observation"].any() and o1["observation"].any()


def test_global_state_off_keeps_observations():
    """``global_state=False`` encodes the same observations, masks and rewards, and the
    views have no ``state`` (two heroes: both seats' observations are checked)."""
    on = vector_env(8, seed=9, heroes=["majesty", "stride"])
    off = vector_env(8, seed=9, heroes=["majesty", "stride"], global_state=False)
    o1, _ = on.reset()
    o2, _ = off.reset()
    assert "state" in o1 and "state" not in o2
    rng = np.random.default_rng(4)
    seats = set()
    for _ in range(150):
        a = on.sample_actions(rng)
        o1, r1, _, _, i1 = on.step(a)
        o2, r2, _, _, i2 = off.step(a)
        seats.update(o1["agent"].tolist())
        np.testing.assert_array_equal(o1["observation"], o2["observation"])
        np.testing.assert_array_equal(o1["action_mask"], o2["action_mask"])
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(i1["final_observation"][i1["_final"]],
                                      i2["final_observation"][i2["_final"]])
    assert seats == {0, 1}
    assert "state" not in o2
    with pytest.raises(TypeError, match="global_state must be a bool"):
        vector_env(2, global_state="no")
    with pytest.raises(TypeError, match="global_state must be a bool"):
        vector_env(2, global_state=1)


def test_global_state_tail_is_the_states_own_sections():
    """``global_state="tail"`` gives ``state[:, OBS_DIM:]`` of the full global state (every
    seat's hand, the villain agent's hand) and the same observations, whichever seat
    decides (three heroes: seats other than 0 decide too)."""
    from hon_env.core.observe import OBS_DIM, STATE_TAIL

    heroes = ["majesty", "stride", "guerilla"]
    full = vector_env(8, seed=3, heroes=heroes)
    tail = vector_env(8, seed=3, heroes=heroes, global_state="tail")
    assert tail.state_dim == STATE_TAIL and tail.global_state
    o1, _ = full.reset()
    o2, _ = tail.reset()
    rng = np.random.default_rng(5)
    seats = set()
    for _ in range(120):
        np.testing.assert_array_equal(o1["state"][:, OBS_DIM:], o2["state"])
        np.testing.assert_array_equal(o1["observation"], o2["observation"])
        seats.update(o1["agent"].tolist())
        a = full.sample_actions(rng)
        o1, _, _, _, _ = full.step(a)
        o2, _, _, _, _ = tail.step(a)
    assert seats == {0, 1, 2} and o2["state"].any()
    with pytest.raises(TypeError, match="global_state must be a bool or 'tail'"):
        vector_env(2, global_state="head")


def test_reward_shaping_counts_events(origin):
    """A shaping weight on an event adds weight x (increase of that counter) each step."""
    env = vector_env(16, seed=0, scenario=origin, reward_shaping={"crises": -0.5})
    env.reset()
    rng = np.random.default_rng(2)
    for _ in range(300):
        before = env.state[:, L.EVENTS + L.EV_CRISES].copy()
        _, r, term, trunc, info = env.step(env.sample_actions(rng))
        ended = info["_final"]
        live = ~ended
        delta = env.state[live, L.EVENTS + L.EV_CRISES] - before[live]
        np.testing.assert_allclose(r[live, 0], -0.5 * delta)


def test_bad_arguments_raise(origin):
    with pytest.raises(ValueError, match="num_envs"):
        vector_env(0, scenario=origin)
    with pytest.raises(ValueError, match="reward_shaping"):
        vector_env(2, scenario=origin, reward_shaping={"coffee": 1.0})
    env = vector_env(2, scenario=origin)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(2, np.int64))
    env.reset()
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros(3, np.int64))
    illegal = np.array([int(np.flatnonzero(env.masks[i] == 0)[0]) for i in range(2)])
    with pytest.raises(ValueError, match="illegal"):
        env.step(illegal)


def test_illegal_actions_are_counted_as_the_masks_say():
    """``count_illegal`` (the step's parallel check) counts exactly the actions that
    ``legal_in_masks`` refuses: out of range either way, or not allowed by the row."""
    rng = np.random.default_rng(0)
    masks = (rng.random((257, L.N_ACTIONS)) < 0.05).astype(np.int8)
    for _ in range(20):
        actions = rng.integers(-3, L.N_ACTIONS + 3, masks.shape[0])
        for i in range(100):  # legal ones too, so the count is neither 0 nor every game
            allowed = np.flatnonzero(masks[i])
            if allowed.size:
                actions[i] = rng.choice(allowed)
        expected = int((~legal_in_masks(actions, masks)).sum())
        assert 0 < expected < masks.shape[0]
        assert count_illegal(actions, masks) == expected
    ok = np.array([np.flatnonzero(row)[0] for row in masks if row.any()])
    assert count_illegal(ok, masks[masks.any(axis=1)]) == 0


def test_penalize_mode_ends_the_episode(origin):
    env = vector_env(2, seed=0, scenario=origin, illegal_action="penalize")
    env.reset()
    a = env.sample_actions(np.random.default_rng(0))
    a[1] = int(np.flatnonzero(env.masks[1] == 0)[0])
    _, r, term, _, info = env.step(a)
    assert term[1] and r[1, 0] == -1.0 and info["_final"][1]
    assert env.masks[1].any()  # restarted
    np.testing.assert_array_equal(env.state[1], Game(origin, seed=0 + 1 + 2).state[0])


@pytest.mark.parametrize("options", [{}, {"illegal_action": "penalize"}, {"heroes": "random"}],
                         ids=["plain", "penalize", "team-per-game"])
def test_info_reports_the_state_after_each_step(options):
    """The info's per-game fields (copied in the step kernel while each row is in the
    cache) equal the state's after reset and after every step, the games an illegal action
    ended and restarted from Python included."""
    env = vector_env(32, seed=5, scenario="origin_story", **options)
    rng = np.random.default_rng(2)
    cols = list(L.HERO_COUNTER_COLS)

    def check(info):
        nh = env.n_heroes
        np.testing.assert_array_equal(info["events"], L.field_view(env.state, "events"))
        np.testing.assert_array_equal(info["team"], env.state[:, L.TEAM])
        if "fame" in info:
            np.testing.assert_array_equal(info["fame"], L.field_view(env.state, "fame")[:, :nh])
            np.testing.assert_array_equal(info["hero_events"],
                                          L.field_view(env.state, "hev")[:, :nh][:, :, cols])

    _, info = env.reset()
    check(info)
    penalized = 0
    for k in range(200):
        actions = env.sample_actions(rng)
        if "illegal_action" in options and k % 9 == 0:
            bad = np.flatnonzero(env.masks[np.arange(32), L.N_ACTIONS - 1] == 0)[:3]
            actions[bad] = L.N_ACTIONS - 1
            penalized += bad.size
        *_, info = env.step(actions)
        check(info)
    assert "illegal_action" not in options or penalized > 0
