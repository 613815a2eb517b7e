"""Batched entry points: reset and step many games at once.

Each game touches only its own state row, so the batch loop parallelises with ``prange``
and results never depend on the batch size or the thread count. The ``_serial`` variants
serve batch size 1, where thread start-up would cost more than the work.

``tabs`` is the scenario's tables array (``Scenario.engine_tables``: the packed record's
one-element array, or a draft's stacked rows); the loops index it inside the loop body:
numba cannot hand a record captured from outside a ``prange`` body to the worker threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from hon_env.core.draft import refresh_episode, start_episode, step_episode
from hon_env.core.episode import step_rewards
from hon_env.core.observe import encode_obs, encode_state
from hon_env.core.setup import init_game
from hon_env.spec import layout as L


@njit(cache=True, parallel=True)
def _reset_parallel(s, tabs, seeds, masks):
    for j in prange(s.shape[0]):
        i = np.int64(j)  # prange counts in uint64; the engine's kernels are typed for an int64 row
        start_episode(s, i, tabs, seeds[i], masks[i])


@njit(cache=True, parallel=True)
def _step_parallel(s, tabs, actions, masks, status):
    for j in prange(s.shape[0]):
        i = np.int64(j)  # prange counts in uint64; the engine's kernels are typed for an int64 row
        status[i] = step_episode(s, i, tabs, actions[i], masks[i])


@njit(cache=True)
def reset_serial(s, tabs, seeds, masks):
    """Start game i from ``seeds[i]``; writes ``s[i]`` and ``masks[i]`` (one thread)."""
    for i in range(s.shape[0]):
        start_episode(s, i, tabs, seeds[i], masks[i])


@njit(cache=True)
def step_serial(s, tabs, actions, masks, status):
    """Apply ``actions[i]`` to game i; ``status[i]`` gets apply_action's code (one thread)."""
    for i in range(s.shape[0]):
        status[i] = step_episode(s, i, tabs, actions[i], masks[i])


def _as_tabs(tabs: np.ndarray | np.record) -> np.ndarray:
    """A tables array from ``Scenario.engine_tables`` or a packed record (``.tables``)."""
    return tabs.base if isinstance(tabs, np.record) else tabs


def reset_batch(s: np.ndarray, tabs: np.ndarray | np.record, seeds: np.ndarray,
                masks: np.ndarray) -> None:
    """Start game i of the batch from ``seeds[i]``; writes ``s[i]`` and ``masks[i]``.
    ``tabs``: ``Scenario.engine_tables`` (or, without a draft, ``Scenario.tables``)."""
    _reset_parallel(s, _as_tabs(tabs), seeds, masks)


def step_batch(s: np.ndarray, tabs: np.ndarray | np.record, actions: np.ndarray,
               masks: np.ndarray, status: np.ndarray) -> None:
    """Apply ``actions[i]`` to game i in parallel; ``status[i]`` gets apply_action's code."""
    _step_parallel(s, _as_tabs(tabs), actions, masks, status)


# The single-game entry point for ``Game``: one kernel for every way a game moves on
# (``GAME_*`` below), because each entry kernel has numba optimise and generate the code of
# the whole interpreter linked into it, about 4 s of a first compile each. It takes the
# tables array (not a record): numba types an ndarray argument in C, a record in Python
# (~3.5 us per call). The array holds one element, or every ordered team's row with the
# draft rule; the game plays row ``team``. The game index is ``np.int64(0)``, the type the
# batch kernels pass too (their ``prange`` index made int64), so both share one compiled
# interpreter; ``hon_env/numba_calls.py`` would widen a literal 0 the same way, but the
# index says so where it is written.
GAME_INIT = 0  # start the episode from seed ``arg`` (a draft when the tables have one)
GAME_APPLY = 1  # answer the pending decision with action ``arg``: apply_action's code
GAME_REFRESH = 2  # recompute the mask from the state (``arg`` unused)
GAME_SETUP = 3  # set a game up on ``tabs[0]`` from seed ``arg``, without a draft


@njit(cache=True)
def game_run(s, tabs, how, arg, mask):
    """Move game 0 of ``s`` on by ``how`` (``GAME_*``) with ``arg``; writes row 0 and the
    legal ``mask``. Returns apply_action's code for ``GAME_APPLY``, else 0."""
    b = np.int64(0)
    if how == GAME_APPLY:
        return step_episode(s, b, tabs, arg, mask)
    if how == GAME_INIT:
        start_episode(s, b, tabs, arg, mask)
    elif how == GAME_REFRESH:
        refresh_episode(s, b, tabs, mask)
    else:
        init_game(s, b, tabs[0], arg, mask)
    return 0


@njit(cache=True)
def game_rewards(s, tabs, params, prev, out):
    """``episode.step_rewards`` of game 0 on its team's tables row, as the vector env
    scores: a front end of one game hands numba the tables array, not a record (see
    ``game_run``). Writes ``out`` and ``prev``; returns (team reward, villain reward)."""
    return step_rewards(s, np.int64(0), tabs[s[0, L.TEAM]], params, prev, out)


@njit(cache=True)
def game_observe(s, tabs, seat, out):
    encode_obs(s, np.int64(0), tabs[s[0, L.TEAM]], seat, out)


@njit(cache=True)
def game_state(s, tabs, out):
    encode_state(s, np.int64(0), tabs[s[0, L.TEAM]], out)
