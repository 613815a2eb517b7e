"""Legal-action masks: what the pending decision allows, and nothing else.

The contract (tested in tests/test_conformance.py): in every non-terminal state the mask
of the deciding hero is non-empty, ``apply`` accepts exactly the actions it allows, and a
finished game has an all-zero mask. Each decision kind's mask is written in one branch
below; ``DEC_A``/``DEC_B`` carry the context named in layout.py.
"""

from __future__ import annotations

from numba import njit

from hon_env.content.ops import OP_PREVENT
from hon_env.content.tables import (
    ABIL_ACTION,
    ABIL_EXHAUST,
    AL_ABILITY,
    AL_ABILITY_PROG,
    CFG_FOCUS_TO_FLIP,
    CFG_MAX_YIELDS,
    CFG_N_HEROES,
    CFG_N_SPACES,
    CL_ATTACK_DICE,
    CL_PROG,
    CL_SOLVE_DICE,
    CLUE_LIST,
    FEAT_DEDUCTION,
    FEAT_MOBILITY,
    FEAT_STRENGTH,
    FEAT_TOUGHNESS,
    HC_ABILITY,
    HC_ABILITY_PROG,
    HC_ACTION,
    HC_FEATS,
    HERO_DECK,
    HS_ABILITY,
    HS_ABILITY_PROG,
    MAX_HEROES,
    SP_NONE,
    SP_SCHEME,
)
from hon_env.core import layout as L
from hon_env.core.geometry import bystander_at, captives, is_empty
from hon_env.core.layout import (
    A_ATTACK,
    A_CARD,
    A_CLUE,
    A_DRAW,
    A_FEAT,
    A_FOCUS,
    A_HERO,
    A_OPTION,
    A_PASS,
    A_PLAY,
    A_SOLVE,
    A_SPACE,
    A_TARGET,
    A_USE,
    ALLY_BIT,
    ALLY_EXH,
    ALLY_LOC,
    D_ASSIGN,
    D_ATTACK_SPACE,
    D_CLUE_DICE,
    D_CUNNING,
    D_DAMAGE,
    D_DISCARD_OR_DAMAGE,
    D_FOCUS_SPEND,
    D_MAIN,
    D_MOVE,
    D_MULLIGAN,
    D_PICK_HERO,
    D_PICK_TARGET,
    D_PLACE,
    D_RESCUE,
    D_SOLVE_SPACE,
    DEC_A,
    DEC_B,
    DEC_HERO,
    DEC_KIND,
    HACTIONS,
    HCEXH,
    HCLOC,
    HEXH,
    HFOCUS,
    HLOC,
    HSIDE,
    HTHREAT_DONE,
    HYIELDS,
    IEXH,
    ILOC,
    IOWNER,
    L_HAND,
    L_PLAY,
    L_THREAT,
    N_OPTIONS,
    N_TARGETS,
    N_USE,
    NEM_EXH,
    NEM_OWNER,
    ROLL_FOCUS,
    ROLL_KIND,
    ROLL_SPACE,
    T_ALLY0,
    T_CAPTURED,
    T_I0,
    T_MINION,
    T_NEM0,
    T_VILLAIN,
    TURN,
    TURN_HERO,
    USE_ALLY_CARD,
    USE_HERO_CARD,
    VEXH,
    VIL_EXH,
    VIL_OWNER,
    VLOC,
    VOWNER,
)
from hon_env.core.mastermind import hero_origin, vplay_mask
from hon_env.core.queries import (
    any_enemy_in_space,
    any_problem_in_space,
    enemy_in_space,
    is_enemy_card,
    is_problem_card,
    nem_in_play,
    problem_in_space,
    roll_solver,
    target_space,
)
from hon_env.core.zones import held_clue


@njit(cache=True)
def near_space(T, here, k):
    """The k-th space near ``here``: neighbours for k < 6, ``here`` itself for k == 6.

    Returns -1 for a missing neighbour or when ``here`` is off the board.
    """
    if here < 0:
        return -1
    return here if k == 6 else T.adj[here, k]


@njit(cache=True)
def can_step(s, b, T, h, sp):
    """May hero ``h`` step from their space into adjacent space ``sp`` during a Move?"""
    here = s[b, HLOC + h]
    if here < 0 or sp == here or T.space_kind[sp] == SP_NONE or T.dist[here, sp] != 1:
        return False
    return T.space_kind[sp] == SP_SCHEME or is_empty(s, b, T, sp)


@njit(cache=True)
def can_place(s, b, T, h, sp, rng):
    """May hero ``h`` be placed in ``sp`` (within ``rng`` spaces; 0 means anywhere)?"""
    here = s[b, HLOC + h]
    if T.space_kind[sp] == SP_NONE:
        return False
    if sp == here:
        return True
    if rng > 0 and (here < 0 or T.dist[here, sp] > rng):
        return False
    return T.space_kind[sp] == SP_SCHEME or is_empty(s, b, T, sp)


@njit(cache=True)
def attack_from(s, b, T, here, sp, rng):
    """Is there an enemy to Attack in ``sp``, within ``rng`` of a figure at ``here``?"""
    return here >= 0 and T.dist[here, sp] <= rng and any_enemy_in_space(s, b, T, sp)


@njit(cache=True)
def solve_from(s, b, T, here, sp, rng, h):
    """Is there a problem in ``sp`` that solver ``h`` (-1: an ally) can Solve from a figure
    at ``here``, within ``rng``?"""
    return here >= 0 and T.dist[here, sp] <= rng and any_problem_in_space(s, b, T, sp, h)


@njit(cache=True)
def can_attack_at(s, b, T, h, sp, rng):
    """May hero ``h`` attack space ``sp`` (within ``rng`` spaces, 1 = nearby)?"""
    return attack_from(s, b, T, s[b, HLOC + h], sp, rng)


@njit(cache=True)
def can_solve_at(s, b, T, h, sp, rng):
    """May hero ``h`` solve at space ``sp`` (within ``rng`` spaces, 1 = nearby)?"""
    return solve_from(s, b, T, s[b, HLOC + h], sp, rng, h)


@njit(cache=True)
def ally_can_place(s, b, T, h, sp, rng):
    """May seat ``h``'s ally figure move to ``sp``: an empty map space (or its own) within
    ``rng`` of it? Ally figures stay out of scheme panels."""
    here = s[b, ALLY_LOC + h]
    if here < 0 or T.space_kind[sp] == SP_NONE or T.space_kind[sp] == SP_SCHEME:
        return False
    if sp == here:
        return True
    return T.dist[here, sp] <= rng and is_empty(s, b, T, sp)


@njit(cache=True)
def ally_can_attack_at(s, b, T, h, sp, rng):
    """May seat ``h``'s ally Attack space ``sp`` (within ``rng`` of its figure)?"""
    return attack_from(s, b, T, s[b, ALLY_LOC + h], sp, rng)


@njit(cache=True)
def ally_can_solve_at(s, b, T, h, sp, rng):
    """May seat ``h``'s ally Solve at space ``sp``? Problems that need a hero in their
    panel are out of its reach; captives are not."""
    return solve_from(s, b, T, s[b, ALLY_LOC + h], sp, rng, -1)


@njit(cache=True)
def is_prevent_prog(T, pid):
    return pid >= 0 and T.prog[pid, 0, 0] == OP_PREVENT


@njit(cache=True)
def ability_usable(s, b, T, h, i, need_prevent, actions_left):
    """Can hero ``h`` use the ability of USE slot ``i`` (a card in play, USE_HERO_CARD, or
    USE_ALLY_CARD while the ally's figure is on the map) now?

    ``need_prevent`` selects damage-window use (only Exhaust ``prevent`` abilities);
    otherwise prevent abilities are excluded and Action abilities need an action token.
    """
    if i == USE_HERO_CARD:
        side = s[b, HSIDE + h]
        kind = T.hero_stat[h, side, HS_ABILITY]
        pid = T.hero_stat[h, side, HS_ABILITY_PROG]
        exhausted = s[b, HEXH + h]
    elif i == USE_ALLY_CARD:
        if s[b, ALLY_LOC + h] < 0:
            return False
        kind = T.ally[h, AL_ABILITY]
        pid = T.ally[h, AL_ABILITY_PROG]
        exhausted = s[b, ALLY_EXH + h]
    else:
        if s[b, HCLOC + h * HERO_DECK + i] != L_PLAY:
            return False
        kind = T.hcard[h, i, HC_ABILITY]
        pid = T.hcard[h, i, HC_ABILITY_PROG]
        exhausted = s[b, HCEXH + h * HERO_DECK + i]
    if pid < 0:
        return False
    if need_prevent:
        return kind == ABIL_EXHAUST and exhausted == 0 and is_prevent_prog(T, pid)
    if kind == ABIL_ACTION:
        return actions_left > 0
    if kind == ABIL_EXHAUST:
        return exhausted == 0 and not is_prevent_prog(T, pid)
    return False


@njit(cache=True)
def yield_target(s, b, T, h):
    """Next seat after ``h`` that still has actions or a threat phase to take, or -1."""
    n = T.cfg[CFG_N_HEROES]
    for k in range(1, n):
        o = (h + k) % n
        if s[b, HACTIONS + o] > 0 or s[b, HTHREAT_DONE + o] == 0:
            return o
    return -1


@njit(cache=True)
def pick_target_ok(s, b, T, h, t, kind, rng):
    """Target filter of D_PICK_TARGET: kind 0 enemy, 1 problem, 2 own ready threat card."""
    if kind == 2:
        if t < T_I0:
            return s[b, VLOC + t] == L_THREAT and s[b, VOWNER + t] == h and s[b, VEXH + t] == 0
        if t < T_VILLAIN:
            i = t - T_I0
            return s[b, ILOC + i] == L_THREAT and s[b, IOWNER + i] == h and s[b, IEXH + i] == 0
        if t == T_VILLAIN:
            return s[b, VIL_OWNER] == h and s[b, VIL_EXH] == 0
        if t < T_MINION:
            k = t - T_NEM0
            return nem_in_play(s, b, k) and s[b, NEM_OWNER + k] == h and s[b, NEM_EXH + k] == 0
        return False
    if t == T_MINION or t == T_CAPTURED:
        return False
    if kind == 0:
        ok = is_enemy_card(s, b, T, t)
    else:
        ok = is_problem_card(s, b, T, t, h)
    if not ok:
        return False
    sp = target_space(s, b, T, t)
    here = s[b, HLOC + h]
    return sp >= 0 and here >= 0 and T.dist[here, sp] <= rng


@njit(cache=True)
def _set(out, a, count, last):
    out[a] = 1
    return count + 1, a


@njit(cache=True)
def legal_mask(s, b, T, out):
    """Write the legal actions of game ``b``'s pending decision into ``out`` (int8 [N]).

    Reads the decision fields and the state; writes only ``out``.
    Returns (number of legal actions, the last legal action or -1).
    """
    out[:] = 0
    kind = s[b, DEC_KIND]
    h = s[b, DEC_HERO]
    n = 0
    last = -1
    n_spaces = T.cfg[CFG_N_SPACES]
    hbase = h * HERO_DECK
    if kind == D_MULLIGAN:
        n, last = _set(out, A_PASS, n, last)
        for c in range(HERO_DECK):
            if s[b, HCLOC + hbase + c] == L_HAND:
                n, last = _set(out, A_CARD + c, n, last)
    elif kind == D_MAIN:
        acts = s[b, HACTIONS + h]
        if acts == 0:
            n, last = _set(out, A_PASS, n, last)
        elif s[b, HYIELDS + h] < T.cfg[CFG_MAX_YIELDS] and yield_target(s, b, T, h) >= 0:
            n, last = _set(out, A_PASS, n, last)
        can_atk = False
        can_slv = False
        if acts > 0:
            n, last = _set(out, A_DRAW, n, last)
        here = s[b, HLOC + h]
        for k in range(7):
            sp = near_space(T, here, k)
            if sp < 0:
                continue
            if acts > 0 and can_step(s, b, T, h, sp):
                n, last = _set(out, A_SPACE + sp, n, last)
            if can_attack_at(s, b, T, h, sp, 1):
                can_atk = True
                if acts > 0:
                    n, last = _set(out, A_ATTACK + sp, n, last)
            if can_solve_at(s, b, T, h, sp, 1):
                can_slv = True
                if acts > 0:
                    n, last = _set(out, A_SOLVE + sp, n, last)
        for c in range(HERO_DECK):
            if s[b, HCLOC + hbase + c] == L_HAND:
                if acts > 0 or T.hcard[h, c, HC_ACTION] == 0:
                    n, last = _set(out, A_PLAY + c, n, last)
                feats = T.hcard[h, c, HC_FEATS]
                if feats & FEAT_MOBILITY:
                    n, last = _set(out, A_FEAT + 3 * c, n, last)
                if feats & FEAT_STRENGTH and can_atk:
                    n, last = _set(out, A_FEAT + 3 * c + 1, n, last)
                if feats & FEAT_DEDUCTION and can_slv:
                    n, last = _set(out, A_FEAT + 3 * c + 2, n, last)
        for i in range(N_USE):
            if ability_usable(s, b, T, h, i, False, acts):
                n, last = _set(out, A_USE + i, n, last)
        for k in range(CLUE_LIST):
            i = held_clue(s, b, h, k)
            if i >= 0 and T.clue[i, CL_PROG] >= 0:
                n, last = _set(out, A_CLUE + k, n, last)
        if s[b, HFOCUS + h] >= T.cfg[CFG_FOCUS_TO_FLIP] and s[b, HSIDE + h] == 0:
            n, last = _set(out, A_FOCUS, n, last)
    elif kind == D_MOVE:
        n, last = _set(out, A_PASS, n, last)
        for k in range(6):
            sp = near_space(T, s[b, HLOC + h], k)
            if sp >= 0 and can_step(s, b, T, h, sp):
                n, last = _set(out, A_SPACE + sp, n, last)
    elif kind == D_PLACE:
        ally = s[b, DEC_B] == 1
        for sp in range(n_spaces):
            if ally:
                ok = ally_can_place(s, b, T, h, sp, s[b, DEC_A])
            else:
                ok = can_place(s, b, T, h, sp, s[b, DEC_A])
            if ok:
                n, last = _set(out, A_SPACE + sp, n, last)
    elif kind == D_CUNNING:
        n, last = _set(out, A_OPTION, n, last)
        n, last = _set(out, A_OPTION + 1, n, last)
    elif kind == D_CLUE_DICE:
        n, last = _set(out, A_PASS, n, last)
        col = CL_ATTACK_DICE if s[b, ROLL_KIND] == 1 else CL_SOLVE_DICE
        for k in range(CLUE_LIST):
            i = held_clue(s, b, h, k)
            if i >= 0 and T.clue[i, col] > 0:
                n, last = _set(out, A_CLUE + k, n, last)
    elif kind == D_FOCUS_SPEND:
        top = min(s[b, HFOCUS + h], s[b, ROLL_FOCUS], N_OPTIONS - 1)
        for k in range(top + 1):
            n, last = _set(out, A_OPTION + k, n, last)
    elif kind == D_ASSIGN:
        sp = s[b, ROLL_SPACE]
        rh = roll_solver(s, b)
        for t in range(N_TARGETS):
            if s[b, ROLL_KIND] == 1:
                ok = enemy_in_space(s, b, T, t, sp)
            else:
                ok = problem_in_space(s, b, T, t, sp, rh)
            if ok:
                n, last = _set(out, A_TARGET + t, n, last)
    elif kind == D_DAMAGE:
        n, last = _set(out, A_PASS, n, last)
        for c in range(HERO_DECK):
            if s[b, HCLOC + hbase + c] == L_HAND and T.hcard[h, c, HC_FEATS] & FEAT_TOUGHNESS:
                n, last = _set(out, A_CARD + c, n, last)
        for i in range(N_USE):
            if ability_usable(s, b, T, h, i, True, 0):
                n, last = _set(out, A_USE + i, n, last)
        # any hero may become Focused during the hero turn, initiative or not (#14)
        if (s[b, TURN] == TURN_HERO and s[b, HFOCUS + h] >= T.cfg[CFG_FOCUS_TO_FLIP]
                and s[b, HSIDE + h] == 0):
            n, last = _set(out, A_FOCUS, n, last)
    elif kind == D_DISCARD_OR_DAMAGE:
        n, last = _set(out, A_PASS, n, last)
        for c in range(HERO_DECK):
            if s[b, HCLOC + hbase + c] == L_HAND:
                n, last = _set(out, A_CARD + c, n, last)
    elif kind == D_PICK_HERO:
        seats = s[b, DEC_A]
        nh = T.cfg[CFG_N_HEROES]
        origin = hero_origin(h)
        for k in range(MAX_HEROES):
            if k < nh and (seats >> ((origin + k) % nh)) & 1:
                n, last = _set(out, A_HERO + k, n, last)
        for o in range(nh):
            if (seats >> (ALLY_BIT + o)) & 1:
                n, last = _set(out, A_TARGET + T_ALLY0 + o, n, last)
    elif kind == D_PICK_TARGET:
        for t in range(N_TARGETS):
            if pick_target_ok(s, b, T, h, t, s[b, DEC_A], s[b, DEC_B]):
                n, last = _set(out, A_TARGET + t, n, last)
    elif (kind == D_ATTACK_SPACE or kind == D_SOLVE_SPACE) and s[b, DEC_B] == 1:
        rng = s[b, DEC_A]  # the ally's Attack or Solve, from its figure
        for sp in range(n_spaces):
            if kind == D_ATTACK_SPACE and ally_can_attack_at(s, b, T, h, sp, rng):
                n, last = _set(out, A_ATTACK + sp, n, last)
            if kind == D_SOLVE_SPACE and ally_can_solve_at(s, b, T, h, sp, rng):
                n, last = _set(out, A_SOLVE + sp, n, last)
    elif kind == D_ATTACK_SPACE or kind == D_SOLVE_SPACE:
        rng = s[b, DEC_A]
        for k in range(n_spaces if rng > 1 else 7):
            sp = k if rng > 1 else near_space(T, s[b, HLOC + h], k)
            if sp < 0:
                continue
            if kind == D_ATTACK_SPACE and can_attack_at(s, b, T, h, sp, rng):
                n, last = _set(out, A_ATTACK + sp, n, last)
            if kind == D_SOLVE_SPACE and can_solve_at(s, b, T, h, sp, rng):
                n, last = _set(out, A_SOLVE + sp, n, last)
    elif kind == L.D_VPLAY:
        n, last = vplay_mask(s, b, out)
    elif kind == D_RESCUE:
        here = s[b, HLOC + h]
        for sp in range(n_spaces):
            if here >= 0 and T.dist[here, sp] <= s[b, DEC_A] and rescuable_at(s, b, T, sp):
                n, last = _set(out, A_SPACE + sp, n, last)
    return n, last


@njit(cache=True)
def rescuable_at(s, b, T, sp):
    """A bystander token on ``sp``, or captured bystanders in the panel of ``sp``."""
    if bystander_at(s, b, T, sp):
        return True
    return T.space_kind[sp] == SP_SCHEME and captives(s, b, T, T.space_arg[sp]) > 0
