"""Generic conformance: random legal play, single and batched, with invariants every step.

Run on every scenario configuration we ship (more join as content grows). Thousands of
games finish with a win or a loss at the default caps; every decision has a non-empty
mask owned by one seated hero; the invariants of hon_env.core.invariants hold; and the
same seed and actions replay the same trajectory alone and inside a batch.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from hon_env import Game
from hon_env.core.invariants import violations
from hon_env.core.kernels import reset_batch, reset_serial, step_batch, step_serial
from hon_env.rollout import play_batch, random_policy
from hon_env.spec import layout as L


def _checker(sc):
    def check(state, masks):
        problems = violations(state, sc.tables, masks)
        assert not problems, problems
    return check


@pytest.mark.parametrize("batch,n_batches", [(256, 8), (1, 120)])
def test_random_play_finishes_with_invariants(origin, batch, n_batches):
    """Thousands of random-legal Origin Story games end in a win or loss, invariants hold."""
    rng = np.random.default_rng(batch)
    outcomes = []
    for k in range(n_batches):
        seeds = np.arange(k * batch, (k + 1) * batch, dtype=np.int64) + 10_000 * batch
        res = play_batch(origin, seeds, random_policy(rng), on_step=_checker(origin))
        outcomes.append(res.outcome)
    outcome = np.concatenate(outcomes)
    assert np.isin(outcome, [L.OUT_WIN, L.OUT_LOSS]).all(), np.unique(outcome)


def test_two_heroes_random_play(duo):
    """The same checks with two heroes: initiative, yields and threat phases interleave."""
    rng = np.random.default_rng(2)
    res = play_batch(duo, np.arange(512, dtype=np.int64), random_policy(rng),
                     on_step=_checker(duo))
    assert np.isin(res.outcome, [L.OUT_WIN, L.OUT_LOSS]).all()


def test_every_decision_has_one_owner_and_real_choice(origin):
    """Parked decisions always offer at least two actions (single answers are automatic)."""
    rng = np.random.default_rng(7)
    seen = set()

    def check(state, masks):
        running = L.field_view(state, "outcome") == L.OUT_ONGOING
        assert (masks[running].sum(axis=1) >= 2).all()
        seen.update(L.field_view(state, "dec_kind")[running].tolist())

    play_batch(origin, np.arange(256, dtype=np.int64), random_policy(rng), on_step=check)
    assert {L.D_MULLIGAN, L.D_MAIN, L.D_MOVE, L.D_CUNNING} <= seen


def _record(sc, seeds, rng):
    """Play a batch with random actions; return per-game action logs and final states."""
    B = len(seeds)
    state = np.zeros((B, L.STATE_LEN), np.int32)
    masks = np.zeros((B, L.N_ACTIONS), np.int8)
    status = np.zeros(B, np.int32)
    reset_batch(state, sc.tables, seeds, masks)
    logs = [[] for _ in range(B)]
    policy = random_policy(rng)
    outcome = L.field_view(state, "outcome")
    while (outcome == 0).any():
        acts = policy(state, masks).astype(np.int64)
        for i in np.flatnonzero(outcome == 0):
            logs[i].append(int(acts[i]))
        step_batch(state, sc.tables, acts, masks, status)
    return logs, state


def test_same_seed_same_trajectory_alone_and_in_batch(origin):
    """Game i of a batch of 64 equals the same seed and actions replayed at batch size 1."""
    seeds = np.arange(500, 564, dtype=np.int64)
    logs, final = _record(origin, seeds, np.random.default_rng(3))
    for i in range(0, 64, 7):
        s1 = np.zeros((1, L.STATE_LEN), np.int32)
        m1 = np.zeros((1, L.N_ACTIONS), np.int8)
        st = np.zeros(1, np.int32)
        reset_serial(s1, origin.engine_tables, seeds[i:i + 1], m1)
        for a in logs[i]:
            step_serial(s1, origin.engine_tables, np.array([a], np.int64), m1, st)
            assert st[0] == 0
        np.testing.assert_array_equal(s1[0], final[i])


def test_results_do_not_depend_on_thread_count(origin):
    """One thread or all threads: identical final states for the same seeds and actions."""
    seeds = np.arange(64, dtype=np.int64)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        _, one = _record(origin, seeds, np.random.default_rng(9))
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        _, many = _record(origin, seeds, np.random.default_rng(9))
    finally:
        numba.set_num_threads(before)
    np.testing.assert_array_equal(one, many)


def test_batch_game_equals_game_facade(origin):
    """The vectorised kernels and ``Game`` agree step by step for one seed."""
    logs, final = _record(origin, np.array([77], np.int64), np.random.default_rng(4))
    g = Game(origin, seed=77)
    for a in logs[0]:
        g.apply(a)
    np.testing.assert_array_equal(g.state[0], final[0])
    assert g.is_over


def test_different_seeds_give_different_games(origin):
    """Seeds change the shuffles: the opening hands or decks differ across seeds."""
    hands = {tuple(Game(origin, seed=s).field("hdeck_order")[0].tolist()) for s in range(20)}
    assert len(hands) > 15
