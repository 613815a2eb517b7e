"""The resumable interpreter: game flow and card effects as ops on a per-game stack.

Each game owns a stack of entries ``(op, a, b, c, hero, src)``. ``run`` executes the top
entry until a decision is needed; an op that needs an answer *parks* (writes DEC_* and
returns without popping) and runs again once ``apply_action`` stores the answer in
CHOICE. A decision with a single legal answer is answered automatically, so every
decision a hero sees has a real choice.

Op codes 1..37 are the content ops of ``spec/ops.py``; codes from 64 are flow ops::

    F_ROUND -> F_VDRAW(h).. -> F_RETURN -> F_HERO_TURN -> F_MAIN <-> actions
            -> F_THREAT(h) -> F_AFTER_THREAT -> ... -> F_HERO_TURN_END -> F_RETURN
            -> F_ISSUE_TURN -> F_RETURN -> F_ROUND

This module is the loop (``run``, ``apply_action``) and the dispatch of every op to its
family; the families live along the interpreter's seams, each importing only those
before it: ``core/stack.py`` (flow op codes, stack primitives, rule helpers that push
ops), ``core/round_flow.py`` (the round), ``core/hero_turn.py`` (the action menu, dice
rolls, damage to heroes) and ``core/content_ops.py`` (the content ops).
"""

from __future__ import annotations

import importlib
from typing import Any

from numba import njit

from hon_env.core import hero_turn, round_flow, stack
from hon_env.core.content_ops import op_content, op_enemy_move
from hon_env.core.effects import end_game
from hon_env.core.episode import at_decision_cap
from hon_env.core.failure import fail
from hon_env.core.masks import legal_mask
from hon_env.spec import layout as L
from hon_env.spec import ops
from hon_env.spec import tables as TB

# --- the interpreter loop ---------------------------------------------------------------

@njit(cache=True)
def step_op(state, game, tables):
    """Execute (part of) the top stack entry: a content op, or a flow op of the round,
    of a dice roll, of damage to heroes or of an effect's bookkeeping."""
    op = stack.top(state, game, 0)
    a = stack.top(state, game, 1)
    bb = stack.top(state, game, 2)
    c = stack.top(state, game, 3)
    h = stack.top(state, game, 4)
    src = stack.top(state, game, 5)
    if 0 < op < ops.N_CONTENT_OPS:
        op_content(state, game, tables, op, a, bb, c, h, src)
    elif not step_turn_op(state, game, tables, op, a, bb, h):
        if not step_roll_op(state, game, tables, op, a, bb, c, h):
            if not step_damage_op(state, game, tables, op, a, bb, h):
                if not step_effect_op(state, game, tables, op, a):
                    fail(state, game, L.ERR_UNKNOWN_OP)


@njit(cache=True, inline="always")
def step_turn_op(state, game, tables, op, a, bb, hero):
    """Flow ops of the round: villain, hero and issue turns, their cards and phases.
    Returns False for an op of another family."""
    if op == stack.F_ROUND:
        round_flow.op_round(state, game, tables)
    elif op == stack.F_VDRAW:
        round_flow.op_vdraw(state, game, tables, a)
    elif op == stack.F_PLOY:
        round_flow.op_ploy(state, game, tables, a, bb, hero)
    elif op == stack.F_VCARD_END:
        round_flow.op_vcard_end(state, game, tables, a)
    elif op == stack.F_SCHEME_ONCE:
        round_flow.op_scheme_once(state, game, tables, a)
    elif op == stack.F_HERO_TURN:
        round_flow.op_hero_turn(state, game, tables)
    elif op == stack.F_MAIN:
        hero_turn.op_main(state, game, tables)
    elif op == stack.F_MOVE:
        hero_turn.op_move(state, game, tables, a, hero)
    elif op == stack.F_PLAY_END:
        stack.pop(state, game)
        base = L.HCLOC + hero * TB.HERO_DECK + a
        if state[game, base] == L.L_PENDING:
            state[game, base] = L.L_DISCARD
    elif op == stack.F_AFTER_THREAT:
        round_flow.op_after_threat(state, game, tables)
    elif op == stack.F_THREAT:
        round_flow.op_threat(state, game, tables, a)
    elif op == stack.F_ACTIVATE:
        round_flow.op_activate(state, game, tables, a, hero)
    elif op == stack.F_HERO_TURN_END:
        round_flow.op_hero_turn_end(state, game, tables)
    elif op == stack.F_ISSUE_TURN:
        round_flow.op_issue_turn(state, game, tables)
    elif op == stack.F_ICARD_END:
        round_flow.op_icard_end(state, game, tables, a, hero)
    elif op == stack.F_RETURN:
        round_flow.op_return(state, game, tables)
    elif op == stack.F_MULLIGAN:
        round_flow.op_mulligan(state, game, tables, hero)
    elif op == stack.F_NEMESIS_SETUP:
        hero_turn.op_nemesis_setup(state, game, tables)
    elif op == stack.F_ENEMY_MOVE:
        op_enemy_move(state, game, tables, a, bb, stack.top(state, game, 3), hero,
                      stack.top(state, game, 5))
    elif op == stack.F_FACE:
        round_flow.op_face(state, game, tables, hero)
    else:
        return False
    return True


@njit(cache=True, inline="always")
def step_roll_op(state, game, tables, op, a, bb, c, hero):
    """Flow ops of an Attack or Solve dice roll, from its start to what follows a solve.
    Returns False for an op of another family."""
    if op == stack.F_ROLL_BEGIN:
        hero_turn.op_roll_begin(state, game, tables, a, bb, c, hero)
    elif op == stack.F_ALLY_STRIKE:
        hero_turn.op_ally_strike(state, game, tables, a, bb, hero)
    elif op == stack.F_CLUE_DICE:
        hero_turn.op_clue_dice(state, game, tables, hero)
    elif op == stack.F_ROLL:
        hero_turn.op_roll(state, game, tables)
    elif op == stack.F_SHOWDOWN:
        hero_turn.op_showdown(state, game, tables, hero)
    elif op == stack.F_FOCUS:
        hero_turn.op_focus(state, game, hero)
    elif op == stack.F_ASSIGN:
        hero_turn.op_assign(state, game, tables, hero)
    elif op == stack.F_ROLL_END:
        hero_turn.op_roll_end(state, game, tables, hero)
    elif op == stack.F_POST_SOLVE:
        hero_turn.op_post_solve(state, game, tables, hero)
    else:
        return False
    return True


@njit(cache=True, inline="always")
def step_damage_op(state, game, tables, op, a, bb, hero):
    """Flow ops that deal damage to heroes and let them answer it.
    Returns False for an op of another family."""
    if op == stack.F_HERO_DAMAGE:
        hero_turn.op_hero_damage(state, game, tables, a, bb)
    elif op == stack.F_DISCARD_OR_DAMAGE:
        hero_turn.op_discard_or_damage(state, game, a, bb)
    elif op == stack.F_INFLICT:
        hero_turn.op_inflict_choice(state, game, tables, a, bb, hero)
    else:
        return False
    return True


@njit(cache=True, inline="always")
def step_effect_op(state, game, tables, op, a):
    """Flow ops that bracket an effect: crises it causes and what is owed when it ends.
    Returns False for an op of another family."""
    if op == stack.F_CRISIS:
        hero_turn.op_crisis(state, game, tables)
    elif op == stack.F_CRISIS_END:
        stack.pop(state, game)
        state[game, L.CRISIS_DEPTH] = 0
    elif op == stack.F_EFFECT_BEGIN:
        stack.op_effect_begin(state, game, a)
    elif op == stack.F_EFFECT_END:
        stack.pop(state, game)
        state[game, L.CRISIS_LATCH] = a
        stack.push_owed_threat_phases(state, game, tables)
    else:
        return False
    return True


@njit(cache=True)
def push_special_bystander_effects(s, b, T):
    """Push the special Bystander card effects queued by rescues, captures and defeats
    (core/bystanders.py), first queued on top, so they resolve in order before the op that
    was next (engine.md #41). Called only between ops, never while a decision is
    pending."""
    n = s[b, L.SBY_QN]
    s[b, L.SBY_QN] = 0
    for k in range(n - 1, -1, -1):
        stack.push_prog(s, b, T, s[b, L.SBY_QUEUE + 2 * k], s[b, L.SBY_QUEUE + 2 * k + 1], -1)


@njit(cache=True, inline="always")
def run(s, b, T, mask):
    """Run game ``b`` until a hero must decide or the game ends.

    Reads and writes row ``b`` of the state; writes the legal mask of the pending
    decision into ``mask`` (all zeros once the game is over or stopped by an engine error,
    core/failure.py). Runs at most STEP_BUDGET ops: a longer run is a loop and stops the
    game with ERR_STEP_BUDGET.
    """
    for _ in range(L.STEP_BUDGET):
        if s[b, L.ERROR] != 0:
            mask[:] = 0
            return
        if s[b, L.OUTCOME] != L.OUT_ONGOING:
            s[b, L.DEC_KIND] = L.D_NONE
            mask[:] = 0
            return
        if s[b, L.SBY_QN] > 0 and s[b, L.DEC_KIND] == L.D_NONE:
            push_special_bystander_effects(s, b, T)
        if s[b, L.DEC_KIND] != L.D_NONE and s[b, L.CHOICE] < 0:
            n, last = legal_mask(s, b, T, mask)
            if n == 0:
                fail(s, b, L.ERR_NO_LEGAL_ACTION)
                continue
            if n > 1:
                return
            s[b, L.CHOICE] = last
        if s[b, L.SP] <= 0:
            fail(s, b, L.ERR_STACK_EMPTY)
            continue
        step_op(s, b, T)
    fail(s, b, L.ERR_STEP_BUDGET)
    mask[:] = 0


@njit(cache=True, inline="always")
def apply_action(s, b, T, action, mask):
    """Answer game ``b``'s pending decision with ``action`` and run to the next decision.

    ``mask`` must hold the current legal mask (as left by ``run``). Returns 0 when the
    action was applied, 1 when it is illegal (nothing changes), 2 when the game is over,
    3 when the game stopped on an engine error (now or before; ``error_*`` fields say what
    and where, the mask is all zeros).
    """
    if s[b, L.ERROR] != 0:
        return 3
    if s[b, L.OUTCOME] != L.OUT_ONGOING:
        return 2
    if action < 0 or action >= L.N_ACTIONS or mask[action] == 0:
        return 1
    kind = s[b, L.DEC_KIND]
    seat = s[b, L.DEC_HERO]
    s[b, L.CHOICE] = action
    s[b, L.DECISIONS] += 1
    run(s, b, T, mask)
    if s[b, L.ERROR] != 0:
        s[b, L.ERROR_DEC] = kind
        s[b, L.ERROR_SEAT] = seat
        s[b, L.ERROR_ACTION] = action
        return 3
    if at_decision_cap(s, b, T):
        end_game(s, b, T, L.OUT_TRUNCATED, L.LOSS_CAP_DECISIONS)
        s[b, L.DEC_KIND] = L.D_NONE
        mask[:] = 0
    return 0


_FAMILIES = ("stack", "round_flow", "hero_turn", "content_ops")


def __getattr__(name: str) -> Any:
    """The names this module held before the families moved out (``interp.push``,
    ``interp.F_ROUND``, ``from hon_env.core.interp import defeat_hero``...) still resolve
    here, from the family that has them."""
    for family in _FAMILIES:
        module = importlib.import_module(f"hon_env.core.{family}")
        if hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
