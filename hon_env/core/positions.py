"""Jumping a game to a turn boundary, for hand-built positions (tests, curricula).

A position is built by editing state fields (see ``hon_env.positions``) and then
restarting the game's flow at a chosen point of the current round with ``jump_to``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hon_env.core.interp import run
from hon_env.core.masks import legal_mask
from hon_env.core.stack import F_HERO_TURN, F_ISSUE_TURN, F_RETURN, F_ROUND, F_VDRAW, push
from hon_env.spec import layout as L
from hon_env.spec import tables as TB

JUMP_VILLAIN_TURN = 0
JUMP_HERO_TURN = 1
JUMP_ISSUE_TURN = 2


@njit(cache=True)
def jump_to(s, b, T, where, mask):
    """Drop game ``b``'s pending flow and restart it at the start of a turn.

    ``where`` is JUMP_VILLAIN_TURN, JUMP_HERO_TURN or JUMP_ISSUE_TURN of the current round
    (round 1 if the game has not started a round yet); the rounds after it follow as usual.
    Writes row ``b`` and the legal ``mask`` of the first decision reached.
    """
    s[b, L.SP] = 0
    s[b, L.DEC_KIND] = L.D_NONE
    s[b, L.CHOICE] = -1
    s[b, L.ROLL_KIND] = 0
    s[b, L.SBY_QN] = 0
    s[b, L.CRISIS_LATCH] = 0  # no effect is resolving any more
    if s[b, L.ROUND] == 0:
        s[b, L.ROUND] = 1
    push(s, b, F_ROUND, 0, 0, 0, -1, -1)
    push(s, b, F_RETURN, 0, 0, 0, -1, -1)
    push(s, b, F_ISSUE_TURN, 0, 0, 0, -1, -1)
    s[b, L.TURN] = L.TURN_ISSUE
    if where <= JUMP_HERO_TURN:
        push(s, b, F_RETURN, 0, 0, 0, -1, -1)
        push(s, b, F_HERO_TURN, 0, 0, 0, -1, -1)
        s[b, L.TURN] = L.TURN_HERO
    if where == JUMP_VILLAIN_TURN:
        push(s, b, F_RETURN, 0, 0, 0, -1, -1)
        for h in range(T.cfg[TB.CFG_N_HEROES] - 1, -1, -1):
            push(s, b, F_VDRAW, h, 0, 0, h, -1)
        s[b, L.TURN] = L.TURN_VILLAIN
    run(s, b, T, mask)


@njit(cache=True, inline="always")
def refresh(s, b, T, mask):
    """Recompute the pending decision's mask after fields were edited by hand."""
    run(s, b, T, mask)


@njit(cache=True)
def remask(s, b, T, mask):
    """Rewrite ``mask`` for game ``b``'s pending decision after fields were edited by hand.

    Unlike ``refresh`` it answers nothing: a decision left with a single legal action stays
    pending (``refresh`` would take it and run on). Reads row ``b``; writes only ``mask``.
    Returns the number of legal actions (0 once the game is over or nothing is pending).
    """
    if s[b, L.OUTCOME] != L.OUT_ONGOING or s[b, L.DEC_KIND] == L.D_NONE or s[b, L.CHOICE] >= 0:
        mask[:] = 0
        return 0
    n, _last = legal_mask(s, b, T, mask)
    return n


@njit(cache=True)
def game_remask(s, tabs, mask):
    """``remask`` of a one-game state with the tables as a one-element record array."""
    return remask(s, np.int64(0), tabs[0], mask)  # int64 like the batch index (kernels.py)
