"""The glory seeker: a scripted hero who plays for its own fame (the Fame variant,
``docs/variants.md``), next to heroes who play the coordinated team's rules.

A glory seeker follows the per-hero menu of ``agents.heuristic`` (free things first, then
a roll on the best target in reach, a support card, a step toward a goal, a draw), but it
weighs every target by the fame it pays *this hero* (``content/fame.py``'s default table),
not by what the team needs to win:

- **Weights.** A minion is worth 1 (each one of a panel counts), a lackey, issue enemy or
  nemesis 2, the revealed villain 3 (the final blow) + 1 (its damage pays at the end and
  the most-damage award), a Scheme card 2, solving the villain card 2, a captive or a
  bystander 1, any other problem 1. Kills that it can finish this roll weigh
  ``FINISH_BONUS`` more (fame is paid to the hero who lands the last point); work that
  someone else will finish is worth nothing to it, so justice or damage that does not
  finish a target weighs half.
- **Goal.** The space with the most fame in reach per Move needed, attacking or solving.
- **Never a team player.** It does not yield the initiative and it gives heals to itself
  when it may (other decisions: as the per-hero team).

``GloryTeamPolicy(seats)`` plays the listed seats as glory seekers and every other seat as
the coordinated team (``agents.coordinated``): ``load_policy("glory_one")`` makes seat 0
the glory seeker, ``load_policy("glory_all")`` every hero. Like the scripted teams it
reads only public state (and its own hand), is deterministic and always legal.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit, prange

from agents.coordinated import co_decide
from agents.heuristic import (
    BIG,
    FINISH_BONUS,
    KIND_ATTACK,
    KIND_SOLVE,
    ScriptedTeamPolicy,
    consider,
    decide,
    first_legal,
    free_action,
    go_to,
    left_to_finish,
    roll_action,
    support_card,
    toward,
)
from hon_env.content import ops
from hon_env.content import tables as TB
from hon_env.core import layout as L
from hon_env.core.geometry import bystander_at, captives, panel_of_space
from hon_env.core.queries import enemy_in_space, move_bonus, problem_in_space

GLORY_SCALE = 2  # weights are fame x 2, so that half-weights stay integers


@njit(cache=True)
def glory_attack_weight(s, b, T, t, h):
    """Fame (x GLORY_SCALE) that damaging enemy target ``t`` may pay hero ``h``."""
    if t == L.T_MINION:
        return 1 * GLORY_SCALE
    if L.is_villain_target(t):
        return 4 * GLORY_SCALE
    return 2 * GLORY_SCALE


@njit(cache=True)
def glory_solve_weight(s, b, T, t, h):
    """Fame (x GLORY_SCALE) that placing justice on problem target ``t`` may pay ``h``."""
    if L.is_villain_target(t):
        return 2 * GLORY_SCALE
    if L.T_I0 <= t < L.T_VILLAIN:
        i = t - L.T_I0
        if T.icard[i, TB.IC_TYPE] == TB.IT_SCHEME and s[b, L.ISIDE + i] == 0:
            return 2 * GLORY_SCALE
    if L.T_NEM0 <= t < L.T_MINION:
        return 2 * GLORY_SCALE
    return 1 * GLORY_SCALE


@njit(cache=True)
def glory_space_value(s, b, T, h, sp, kind):
    """Fame hero ``h`` could collect attacking (1) or solving (2) in space ``sp`` now."""
    v = 0
    for t in range(L.N_TARGETS):
        if kind == KIND_ATTACK:
            if enemy_in_space(s, b, T, t, sp):
                v += glory_attack_weight(s, b, T, t, h)
        elif problem_in_space(s, b, T, t, sp, h):
            w = glory_solve_weight(s, b, T, t, h)
            if t == L.T_CAPTURED:
                w *= captives(s, b, T, panel_of_space(T, sp))
            v += w
    p = panel_of_space(T, sp)
    if kind == KIND_ATTACK and p > 0 and s[b, L.MINIONS + p] > 1:
        v += (s[b, L.MINIONS + p] - 1) * GLORY_SCALE  # each minion pays its fame
    return v


@njit(cache=True)
def glory_best_space(s, b, T, h, mask, base, kind):
    """Legal action ``base + sp`` whose space pays the most fame, and that fame."""
    best_a, best_v = -1, 0
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        if mask[base + sp]:
            v = glory_space_value(s, b, T, h, sp, kind)
            if best_a < 0 or v > best_v:
                best_a, best_v = base + sp, v
    return best_a, best_v


@njit(cache=True)
def glory_goal(s, b, T, h):
    """The space with the most fame per Move needed: (space, inside its panel), (-1, 0)."""
    here = s[b, L.HLOC + h]
    if here < 0:
        return -1, 0
    step = max(1, T.cfg[TB.CFG_MOVE] + move_bonus(s, b, T, h))
    best = (0, -1, 0)
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        best = consider(best, T, here, step, sp, 0, glory_space_value(s, b, T, h, sp,
                                                                      KIND_ATTACK))
        inside = 1 if panel_of_space(T, sp) > 0 else 0
        best = consider(best, T, here, step, sp, inside, glory_space_value(s, b, T, h, sp,
                                                                           KIND_SOLVE))
        if T.space_kind[sp] != TB.SP_NONE and bystander_at(s, b, T, sp):
            best = consider(best, T, here, step, sp, 1, GLORY_SCALE)
    return best[1], best[2]


@njit(cache=True)
def glory_main(s, b, T, h, mask):
    """The hero-turn menu of the per-hero team, on fame weights (never yields)."""
    a = free_action(s, b, T, mask)
    if a >= 0:
        return a
    atk_a, atk_v = glory_best_space(s, b, T, h, mask, L.A_ATTACK, KIND_ATTACK)
    slv_a, slv_v = glory_best_space(s, b, T, h, mask, L.A_SOLVE, KIND_SOLVE)
    a = roll_action(s, b, T, h, mask, atk_a, atk_v, slv_a, slv_v)
    if a >= 0:
        return a
    if s[b, L.HACTIONS + h] == 0:
        return L.A_PASS
    a = support_card(T, h, mask)
    if a >= 0:
        return a
    goal, inside = glory_goal(s, b, T, h)
    a = go_to(s, b, T, h, mask, goal, inside)
    if a >= 0:
        return a
    if mask[L.A_DRAW]:
        return L.A_DRAW
    return first_legal(mask)


@njit(cache=True)
def glory_target(s, b, T, h, mask, kind, succ):
    """The target of the next success (or effect): the most fame, finishing ones first;
    work that does not finish a target weighs half (someone else may finish it)."""
    best_a, best_v = -1, -BIG
    for t in range(L.N_TARGETS):
        if not mask[L.target_action(t)]:
            continue
        if kind == KIND_ATTACK:
            w = glory_attack_weight(s, b, T, t, h)
        elif kind == KIND_SOLVE:
            w = glory_solve_weight(s, b, T, t, h)
        else:
            w = 0
        if kind != 0 and left_to_finish(s, b, T, t, kind) <= succ:
            w += FINISH_BONUS * GLORY_SCALE
        else:
            w //= 2
        if w > best_v:
            best_a, best_v = L.target_action(t), w
    return best_a


@njit(cache=True)
def glory_decide(s, b, T, mask):
    """The glory seeker's action for game ``b`` (reads the state row and ``mask``)."""
    kind = s[b, L.DEC_KIND]
    h = s[b, L.DEC_HERO]
    if kind == L.D_MAIN:
        return glory_main(s, b, T, h, mask)
    if kind == L.D_MOVE or (kind == L.D_PLACE and s[b, L.DEC_B] != 1):
        goal, inside = glory_goal(s, b, T, h)
        if goal >= 0:
            a = toward(s, b, T, h, mask, L.A_SPACE, goal, inside, kind == L.D_MOVE)
            if a >= 0:
                return a
        return L.A_PASS if mask[L.A_PASS] else first_legal(mask)
    if kind == L.D_ATTACK_SPACE:
        return glory_best_space(s, b, T, h, mask, L.A_ATTACK, KIND_ATTACK)[0]
    if kind == L.D_SOLVE_SPACE:
        return glory_best_space(s, b, T, h, mask, L.A_SOLVE, KIND_SOLVE)[0]
    if kind == L.D_ASSIGN:
        return glory_target(s, b, T, h, mask, s[b, L.ROLL_KIND], s[b, L.ROLL_SUCC])
    if kind == L.D_PICK_TARGET:
        # DEC_A 0 damage, 1 justice (2: exhaust a threat card, worth no fame)
        effect = s[b, L.DEC_A]
        return glory_target(s, b, T, h, mask, 1 if effect == 0 else (2 if effect == 1 else 0),
                            0)
    if kind == L.D_PICK_HERO and mask[L.A_HERO]:
        top = s[b, L.SP] - 1
        if top >= 0 and s[b, L.STACK + top * L.STACK_W] == ops.OP_HEAL:
            return L.A_HERO  # a heal: itself
    return decide(s, b, T, mask)


@njit(cache=True, parallel=True)
def mixed_actions(state, tabs, masks, glory, out):
    """Actions of a team where seat h plays as a glory seeker when ``glory[h]`` and as the
    coordinated team otherwise. Reads ``state``, ``tabs``, ``masks``, ``glory`` (bool
    [MAX_HEROES]); writes ``out`` [B]."""
    for b in prange(state.shape[0]):
        T = tabs[state[b, L.TEAM]]
        h = state[b, L.DEC_HERO]
        if 0 <= h < glory.shape[0] and glory[h]:
            a = glory_decide(state, b, T, masks[b])
        else:
            a = co_decide(state, b, T, masks[b])
        out[b] = a if a >= 0 and masks[b, a] else first_legal(masks[b])


class GloryTeamPolicy(ScriptedTeamPolicy):
    """Glory seekers in ``seats``, the coordinated team in the other seats."""

    def __init__(self, seats: Sequence[int] | None = None, name: str = "glory") -> None:
        self.glory = np.zeros(TB.MAX_HEROES, np.bool_)
        self.glory[list(range(TB.MAX_HEROES)) if seats is None else list(seats)] = True
        self.name = name

    def _actions(self, state: np.ndarray, tabs: np.ndarray, masks: np.ndarray,
                 out: np.ndarray) -> None:
        mixed_actions(state, tabs, masks, self.glory, out)
