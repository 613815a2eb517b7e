"""Batched entry points: reset and step many games at once.

Each game touches only its own state row, so the batch loop parallelises with ``prange``
and results never depend on the batch size or the thread count. The ``_serial`` variants
serve batch size 1, where thread start-up would cost more than the work.
"""

from __future__ import annotations

from numba import njit, prange

from hon_env.core.interp import apply_action
from hon_env.core.setup import init_game


@njit(cache=True, parallel=True)
def reset_batch(s, T, seeds, masks):
    """Start game i of the batch from ``seeds[i]``; writes ``s[i]`` and ``masks[i]``."""
    for i in prange(s.shape[0]):
        init_game(s, i, T, seeds[i], masks[i])


@njit(cache=True)
def reset_serial(s, T, seeds, masks):
    for i in range(s.shape[0]):
        init_game(s, i, T, seeds[i], masks[i])


@njit(cache=True, parallel=True)
def step_batch(s, T, actions, masks, status):
    """Apply ``actions[i]`` to game i; ``status[i]`` gets apply_action's return code."""
    for i in prange(s.shape[0]):
        status[i] = apply_action(s, i, T, actions[i], masks[i])


@njit(cache=True)
def step_serial(s, T, actions, masks, status):
    for i in range(s.shape[0]):
        status[i] = apply_action(s, i, T, actions[i], masks[i])
