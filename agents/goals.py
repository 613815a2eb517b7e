"""The goals a scripted hero may head for: every target on the board, listed once for
every style (``agents.heuristic.goal_of``, ``agents.coordinated.team_goal``) and weighed
by the style's target weights (``agents.target_weights.weigh``)."""

from __future__ import annotations

from numba import njit

from agents.target_weights import KIND_ATTACK, KIND_SOLVE, solve_weight, weigh
from hon_env.core.facing import may_affect, vil_col, villain_active
from hon_env.core.geometry import bystander_at, captives, panel_of_space
from hon_env.core.queries import is_enemy_card, nem_in_play
from hon_env.spec import layout as L
from hon_env.spec import tables as TB

T_BYSTANDER = -1  # goal code: a bystander token on the map (walking through rescues it)
# every target that can stand on the map at once, so a list never drops one
MAX_GOALS = (TB.VCARDS + TB.IDECK + TB.NEMESES + TB.VILLAINS + TB.MAX_CRISES
             + TB.MAX_PANELS + TB.MAX_SPACES)
# goal rows: (space, inside, target, kind)
G_SP, G_IN, G_T, G_KIND = 0, 1, 2, 3


@njit(cache=True)
def add_goal(g, n, sp, inside, t, kind):
    if sp < 0 or n >= MAX_GOALS:
        return n
    g[n, G_SP], g[n, G_IN], g[n, G_T], g[n, G_KIND] = sp, inside, t, kind
    return n + 1


@njit(cache=True)
def list_goals(s, b, T, g):
    """Every goal on the board into ``g`` [MAX_GOALS, 4], in a fixed order (villain cards,
    issue cards, nemeses, villains, crisis cards, captives, bystander tokens); returns how
    many."""
    n = 0
    for i in range(TB.VCARDS):  # both villains' decks (Two Fronts)
        if s[b, L.VLOC + i] != L.L_THREAT or s[b, L.VPOS + i] < 0:
            continue
        if T.vcard[i, TB.VC_TYPE] == TB.VT_LACKEY:
            n = add_goal(g, n, s[b, L.VPOS + i], 0, L.vcard_target(i), KIND_ATTACK)
        elif T.vcard[i, TB.VC_TYPE] == TB.VT_PERIL:
            n = add_goal(g, n, s[b, L.VPOS + i], 0, L.vcard_target(i), KIND_SOLVE)
    for i in range(TB.IDECK):
        t = L.T_I0 + i
        pos = s[b, L.IPOS + i]
        if s[b, L.ILOC + i] != L.L_THREAT or pos < 0:
            continue
        inside = 1 if panel_of_space(T, pos) > 0 else 0
        if is_enemy_card(s, b, T, t):
            n = add_goal(g, n, pos, 0, t, KIND_ATTACK)
        elif T.icard[i, TB.IC_TYPE] == TB.IT_SCHEME:
            if s[b, L.ISIDE + i] == 0:
                n = add_goal(g, n, pos, 1, t, KIND_SOLVE)
            elif T.icard[i, TB.IC_BACK] == TB.BACK_PROBLEM:
                n = add_goal(g, n, pos, inside, t, KIND_SOLVE)
        elif T.icard[i, TB.IC_TYPE] == TB.IT_ISSUE and T.icard[i, TB.IC_STAYS] == 1:
            n = add_goal(g, n, pos, inside, t, KIND_SOLVE)
    for k in range(TB.NEMESES):
        t = L.T_NEM0 + k
        pos = s[b, L.NEM_POS + k]
        if not nem_in_play(s, b, k) or pos < 0:
            continue
        if s[b, L.NEM_SIDE + k] == 1:
            n = add_goal(g, n, pos, 0, t, KIND_ATTACK)
        else:
            n = add_goal(g, n, pos, 1, t, KIND_SOLVE)
    for v in range(TB.VILLAINS):
        if not villain_active(s, b, T, v):
            continue
        vloc = s[b, vil_col(L.VIL_LOC, v)]
        t = L.villain_target(v)
        if vloc >= 0:
            if s[b, vil_col(L.VIL_SIDE, v)] == 1:
                n = add_goal(g, n, vloc, 0, t, KIND_ATTACK)
            elif (s[b, vil_col(L.VIL_HIDDEN, v)] == 0
                  and s[b, vil_col(L.VIL_IN_PANEL, v)] == 1):
                n = add_goal(g, n, vloc, 1, t, KIND_SOLVE)
    for k in range(TB.MAX_CRISES):
        pos = s[b, L.CRISIS_POS + k]
        if pos >= 0:
            n = add_goal(g, n, pos, 1 if panel_of_space(T, pos) > 0 else 0, L.T_CRISIS0 + k,
                         KIND_SOLVE)
    for p in range(1, T.cfg[TB.CFG_N_PANELS] + 1):
        if captives(s, b, T, p) > 0:
            n = add_goal(g, n, T.scheme_space[p], 1, L.T_CAPTURED, KIND_SOLVE)
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        if T.space_kind[sp] != TB.SP_NONE and bystander_at(s, b, T, sp):
            n = add_goal(g, n, sp, 1, T_BYSTANDER, KIND_SOLVE)
    return n


@njit(cache=True)
def goal_weight(style, s, b, T, g, j, h):
    """How much hero ``h`` of ``style`` wants goal row ``j`` (0 for another villain's card:
    Two Fronts heroes only reach the villain they face)."""
    sp, t, kind = g[j, G_SP], g[j, G_T], g[j, G_KIND]
    if not may_affect(s, b, T, h, t):
        return 0
    if t == T_BYSTANDER:
        return 2
    if t == L.T_CAPTURED:
        return solve_weight(s, b, T, t, h) * captives(s, b, T, panel_of_space(T, sp))
    return weigh(style, s, b, T, t, h, kind, sp)
