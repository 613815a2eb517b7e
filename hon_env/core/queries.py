"""Read-only rule queries: hero values, enemies and problems, where things are.

Targets use the ``T_*`` numbering of layout.py: villain deck cards, issue deck cards, the
Villain card, nemeses (slot k is ``T_NEM0 + k``), "the minions here", "the captured
bystanders here", crisis cards with a danger value (slot k is ``T_CRISIS0 + k``) and the
second villain's deck cards and Villain card (Two Fronts). Each query tests the villain
targets first (``is_vcard_target``, ``is_villain_target``), then the rest by order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hon_env.core import facing
from hon_env.core.geometry import captives, nearest_panel, panel_of_space
from hon_env.spec import layout as L
from hon_env.spec import tables as TB


@njit(cache=True)
def scaled(value, per_hero, n_heroes):
    """A printed value, multiplied by the hero count when it carries the per-hero icon."""
    if value == TB.DASH:
        return TB.DASH
    return value * n_heroes if per_hero else value


@njit(cache=True)
def hero_value(s, b, T, h, col):
    """Hero ``h``'s current Hero-card value ``col`` (HS_HEALTH, HS_ATTACK, HS_SOLVE)."""
    return T.hero_stat[h, s[b, L.HSIDE + h], col]


@njit(cache=True)
def hero_form(s, b, T, h):
    """FORM_* of hero ``h``'s current side: figure, pilot token or mech."""
    return T.hero_stat[h, s[b, L.HSIDE + h], TB.HS_FORM]


@njit(cache=True)
def hero_passive(s, b, T, h, hs_col, hc_col):
    """Sum of a passive bonus over the Hero card's side and the Constants in play.

    A Constant whose passive names a form (pilot or mech) counts only in that form.
    """
    side = s[b, L.HSIDE + h]
    total = T.hero_stat[h, side, hs_col]
    form = T.hero_stat[h, side, TB.HS_FORM]
    for c in range(TB.HERO_DECK):
        if _passive_counts(s, b, T, h, c, form):
            total += T.hcard[h, c, hc_col]
    return total


@njit(cache=True, inline="always")
def _passive_counts(s, b, T, h, c, form):
    """Whether hero ``h``'s card ``c`` adds its passive now: in play, and naming no form or
    the hero's current ``form``."""
    if s[b, L.HCLOC + h * TB.HERO_DECK + c] != L.L_PLAY:
        return False
    need = T.hcard[h, c, TB.HC_FORM]
    return need == 0 or need == form


@njit(cache=True)
def hero_numbers(s, b, T, h):
    """``(attack_dice, solve_dice, move_bonus, armor)`` of hero ``h`` in one pass over its
    deck, for a reader of all four (the observation): each equals its own query's answer
    (``tests/test_space_maps.py``)."""
    side = s[b, L.HSIDE + h]
    stat = T.hero_stat[h, side]
    attack = stat[TB.HS_ATTACK] + stat[TB.HS_ATTACK_DICE]
    solve = stat[TB.HS_SOLVE] + stat[TB.HS_SOLVE_DICE]
    move = stat[TB.HS_MOVE]
    arm = stat[TB.HS_ARMOR]
    form = stat[TB.HS_FORM]
    for c in range(TB.HERO_DECK):
        if _passive_counts(s, b, T, h, c, form):
            card = T.hcard[h, c]
            attack += card[TB.HC_ATTACK_DICE]
            solve += card[TB.HC_SOLVE_DICE]
            move += card[TB.HC_MOVE]
            arm += card[TB.HC_ARMOR]
    return attack, solve, move, arm


@njit(cache=True)
def hero_health(s, b, T, h):
    return hero_value(s, b, T, h, TB.HS_HEALTH)


@njit(cache=True)
def attack_dice(s, b, T, h):
    return hero_value(s, b, T, h, TB.HS_ATTACK) + hero_passive(s, b, T, h, TB.HS_ATTACK_DICE,
                                                            TB.HC_ATTACK_DICE)


@njit(cache=True)
def solve_dice(s, b, T, h):
    return hero_value(s, b, T, h, TB.HS_SOLVE) + hero_passive(s, b, T, h, TB.HS_SOLVE_DICE,
                                                           TB.HC_SOLVE_DICE)


@njit(cache=True)
def move_bonus(s, b, T, h):
    return hero_passive(s, b, T, h, TB.HS_MOVE, TB.HC_MOVE)


@njit(cache=True)
def armor(s, b, T, h):
    return hero_passive(s, b, T, h, TB.HS_ARMOR, TB.HC_ARMOR)


@njit(cache=True)
def villain_panel(s, b, T, v):
    """The panel villain ``v`` schemes in: its own, or the one nearest its figure."""
    loc = s[b, facing.vil_col(L.VIL_LOC, v)]
    p = panel_of_space(T, loc)
    if p > 0:
        return p
    return nearest_panel(T, loc)


@njit(cache=True)
def in_panel_of(s, b, T, h, sp):
    """True when hero ``h`` stands in the scheme panel whose scheme space is ``sp``
    (``h`` = -1, an ally, is never in a panel)."""
    return h >= 0 and s[b, L.HLOC + h] == sp and panel_of_space(T, sp) > 0


@njit(cache=True)
def roll_solver(s, b):
    """Who the Solve being resolved counts as standing where: its hero, or -1 for an ally
    (which solves no problem that needs a hero in its panel)."""
    return -1 if s[b, L.ROLL_ALLY] == 1 else s[b, L.ROLL_HERO]


@njit(cache=True)
def nem_in_play(s, b, k):
    """Nemesis slot ``k`` holds a card in a threat area (not unused, not defeated)."""
    return s[b, L.NEM_CARD + k] >= 0 and s[b, L.NEM_OWNER + k] >= 0


@njit(cache=True)
def nemeses_in_play(s, b):
    """Nemeses not yet defeated (on either side)."""
    n = 0
    for k in range(TB.NEMESES):
        if nem_in_play(s, b, k):
            n += 1
    return n


@njit(cache=True)
def target_space(s, b, T, t):
    """Map space of a card target (its figure, token or panel), -1 if it has none."""
    if L.is_vcard_target(t):
        return s[b, L.VPOS + L.vcard_of(t)]
    if L.is_villain_target(t):
        v = facing.target_villain(t)
        if s[b, L.VIL_OUT + v] == 1 or (v == 1 and not facing.two_villains(T)):
            return -1
        return s[b, facing.vil_col(L.VIL_LOC, v)]
    if t < L.T_VILLAIN:
        return s[b, L.IPOS + t - L.T_I0]
    if t < L.T_MINION:
        return s[b, L.NEM_POS + t - L.T_NEM0]
    if t >= L.T_CRISIS0:
        return s[b, L.CRISIS_POS + t - L.T_CRISIS0]
    return -1


@njit(cache=True)
def is_enemy_card(s, b, T, t):
    """True for a card target that is an enemy in play (lackey, revealed villain, issue enemy)."""
    if L.is_vcard_target(t):
        c = L.vcard_of(t)
        return s[b, L.VLOC + c] == L.L_THREAT and T.vcard[c, TB.VC_TYPE] == TB.VT_LACKEY
    if L.is_villain_target(t):
        v = facing.target_villain(t)
        return s[b, facing.vil_col(L.VIL_SIDE, v)] == 1 and s[b, L.VIL_OUT + v] == 0
    if t < L.T_VILLAIN:
        i = t - L.T_I0
        return (s[b, L.ILOC + i] == L.L_THREAT and s[b, L.ISIDE + i] == 1
                and T.icard[i, TB.IC_BACK] == TB.BACK_ENEMY)
    if t < L.T_MINION:
        k = t - L.T_NEM0
        return nem_in_play(s, b, k) and s[b, L.NEM_SIDE + k] == 1
    return False


@njit(cache=True)
def is_problem_card(s, b, T, t, h):
    """True for a problem card that hero ``h`` may place justice on from where they stand."""
    if L.is_vcard_target(t):
        c = L.vcard_of(t)
        return s[b, L.VLOC + c] == L.L_THREAT and T.vcard[c, TB.VC_TYPE] == TB.VT_PERIL
    if L.is_villain_target(t):
        v = facing.target_villain(t)
        return (s[b, facing.vil_col(L.VIL_SIDE, v)] == 0
                and s[b, facing.vil_col(L.VIL_HIDDEN, v)] == 0
                and s[b, facing.vil_col(L.VIL_IN_PANEL, v)] == 1 and s[b, L.VIL_OUT + v] == 0
                and in_panel_of(s, b, T, h, s[b, facing.vil_col(L.VIL_LOC, v)]))
    if t < L.T_VILLAIN:
        i = t - L.T_I0
        if s[b, L.ILOC + i] != L.L_THREAT:
            return False
        if T.icard[i, TB.IC_TYPE] == TB.IT_SCHEME:
            if s[b, L.ISIDE + i] == 0:
                return in_panel_of(s, b, T, h, s[b, L.IPOS + i])
            ok = T.icard[i, TB.IC_BACK] == TB.BACK_PROBLEM
        else:
            ok = T.icard[i, TB.IC_TYPE] == TB.IT_ISSUE and T.icard[i, TB.IC_STAYS] == 1
        # a problem located in a scheme panel is solved only from inside that panel
        pos = s[b, L.IPOS + i]
        return ok and (panel_of_space(T, pos) == 0 or in_panel_of(s, b, T, h, pos))
    if t < L.T_MINION:
        # a nemesis Scheme is solved only by heroes in its figure's panel (rulebook: Nemeses)
        k = t - L.T_NEM0
        return (nem_in_play(s, b, k) and s[b, L.NEM_SIDE + k] == 0
                and in_panel_of(s, b, T, h, s[b, L.NEM_POS + k]))
    if t >= L.T_CRISIS0:
        # solved where its crisis token stands; a token in a scheme panel, from inside it
        pos = s[b, L.CRISIS_POS + t - L.T_CRISIS0]
        return pos >= 0 and (panel_of_space(T, pos) == 0 or in_panel_of(s, b, T, h, pos))
    return False


@njit(cache=True)
def enemy_in_space(s, b, T, t, sp):
    """Is target ``t`` an enemy in map space ``sp`` (minions: in that space's panel)?"""
    if t == L.T_MINION:
        p = panel_of_space(T, sp)
        return p > 0 and s[b, L.MINIONS + p] > 0
    if t >= L.T_MINION and not L.is_vcard_target(t) and t != L.T_VILLAIN2:
        return False
    return is_enemy_card(s, b, T, t) and target_space(s, b, T, t) == sp


@njit(cache=True)
def problem_in_space(s, b, T, t, sp, h):
    """Is target ``t`` a problem hero ``h`` can solve in space ``sp`` (captives count)?"""
    if t == L.T_CAPTURED:
        p = panel_of_space(T, sp)
        return p > 0 and captives(s, b, T, p) > 0
    if t == L.T_MINION:
        return False
    return is_problem_card(s, b, T, t, h) and target_space(s, b, T, t) == sp


@njit(cache=True)
def enemy_spaces(s, b, T, h):
    """``out[sp]``: is any enemy (minions of its panel included) in map space ``sp`` that
    hero ``h`` may affect (``core/facing.may_affect``; every enemy with one villain or
    ``h`` < 0)? See ``target_spaces``."""
    return target_spaces(s, b, T, h, h, False)


@njit(cache=True)
def problem_spaces(s, b, T, h, face):
    """``out[sp]``: can hero ``h`` (-1: an ally) solve anything in map space ``sp``
    (captives of its panel included) that seat ``face`` may affect? See ``target_spaces``."""
    return target_spaces(s, b, T, h, face, True)


@njit(cache=True, inline="always")
def target_spaces(s, b, T, h, face, problem):
    """The map spaces holding an enemy (or, with ``problem``, a problem solver ``h`` may
    Solve) that seat ``face`` may affect: one pass over the positioned targets answers
    every space, where the masks ask it of each space in reach. Reads row ``b``; returns a
    new bool array of ``MAX_SPACES``. Inlined into ``enemy_spaces`` and ``problem_spaces``,
    where ``problem`` is a constant: no branch on it in the loops. Each loop tests a
    target's space before it calls ``_mark_target``: most cards are on no space, and with
    the test inside an inlined ``_mark_target`` the pass cost 2.7 times as much."""
    out = np.zeros(TB.MAX_SPACES, np.bool_)
    for p in range(1, T.cfg[TB.CFG_N_PANELS] + 1):  # minions and captives: their panel's space
        here = captives(s, b, T, p) if problem else s[b, L.MINIONS + p]
        out[T.scheme_space[p]] = here > 0
    for v in range(TB.VILLAINS):
        pos = s[b, facing.vil_col(L.VIL_LOC, v)]
        if pos >= 0:
            _mark_target(s, b, T, out, pos, L.villain_target(v), h, face, problem)
    for c in range(facing.vcard_slots(T)):
        pos = s[b, L.VPOS + c]
        if pos >= 0:
            _mark_target(s, b, T, out, pos, L.vcard_target(c), h, face, problem)
    for i in range(L.IDECK):
        pos = s[b, L.IPOS + i]
        if pos >= 0:
            _mark_target(s, b, T, out, pos, L.T_I0 + i, h, face, problem)
    for k in range(TB.NEMESES):
        pos = s[b, L.NEM_POS + k]
        if pos >= 0:
            _mark_target(s, b, T, out, pos, L.T_NEM0 + k, h, face, problem)
    if problem:  # crisis cards are problems only
        for k in range(TB.MAX_CRISES):
            pos = s[b, L.CRISIS_POS + k]
            if pos >= 0:
                _mark_target(s, b, T, out, pos, L.T_CRISIS0 + k, h, face, problem)
    return out


@njit(cache=True)
def _mark_target(s, b, T, out, pos, t, h, face, problem):
    """Mark ``pos`` (a map space) when target ``t`` counts for ``target_spaces``."""
    if not facing.may_affect(s, b, T, face, t):
        return
    if is_problem_card(s, b, T, t, h) if problem else is_enemy_card(s, b, T, t):
        out[pos] = True


@njit(cache=True)
def enemies_in_panel(s, b, T, p):
    """Enemies in scheme panel ``p``: its minions, the villain and nemeses scheming there,
    and enemy figures standing on its scheme space (5-6 players step 1a counts them)."""
    sp = T.scheme_space[p]
    n = s[b, L.MINIONS + p]
    for v in range(TB.VILLAINS):
        # scheming in the panel, or its Showdown figure on the scheme space
        if s[b, facing.vil_col(L.VIL_LOC, v)] == sp and facing.villain_active(s, b, T, v):
            n += 1
    for k in range(TB.NEMESES):
        if nem_in_play(s, b, k) and s[b, L.NEM_POS + k] == sp:
            n += 1
    for c in range(facing.vcard_slots(T)):
        if s[b, L.VPOS + c] == sp and is_enemy_card(s, b, T, L.vcard_target(c)):
            n += 1
    for i in range(L.IDECK):
        if s[b, L.IPOS + i] == sp and is_enemy_card(s, b, T, L.T_I0 + i):
            n += 1
    return n


@njit(cache=True)
def enemy_health(s, b, T, t, n_heroes):
    """Health of enemy card ``t`` for ``n_heroes`` heroes (with two villains, a villain
    card counts the heroes facing its villain: ``core/facing.py``)."""
    if facing.two_villains(T):
        n_heroes = facing.hero_count_of_target(s, b, T, t)
    if L.is_vcard_target(t):
        c = L.vcard_of(t)
        return scaled(T.vcard[c, TB.VC_HEALTH], T.vcard[c, TB.VC_HEALTH_PH], n_heroes)
    if L.T_NEM0 <= t < L.T_MINION:
        c = s[b, L.NEM_CARD + t - L.T_NEM0]
        return scaled(T.nemesis[c, TB.NM_HEALTH], T.nemesis[c, TB.NM_HEALTH_PH], n_heroes)
    i = t - L.T_I0
    return scaled(T.icard[i, TB.IC_BACK_HEALTH], T.icard[i, TB.IC_BACK_HEALTH_PH], n_heroes)


@njit(cache=True)
def enemy_defense(s, b, T, t, attacker):
    """Defense of enemy ``t`` against ``attacker`` (rulebook: Defense Value).

    Positive modifications (fortify effects this round) apply before negative ones (the
    attacker's pierce), and defense never drops below 0.
    """
    if L.is_vcard_target(t):
        c = L.vcard_of(t)
        base = T.vcard[c, TB.VC_DEFENSE] + s[b, facing.def_bonus_col(facing.card_villain(c)) + 1]
    elif L.is_villain_target(t):
        v = facing.target_villain(t)
        base = T.vil_stat[v, TB.VS_DEFENSE] + s[b, facing.def_bonus_col(v)]
    elif t < L.T_VILLAIN:
        base = T.icard[t - L.T_I0, TB.IC_BACK_DEFENSE]
    elif t < L.T_MINION:
        base = T.nemesis[s[b, L.NEM_CARD + t - L.T_NEM0], TB.NM_DEFENSE]
    else:
        base = 0
    for i in range(facing.vcard_slots(T)):
        if s[b, L.VLOC + i] == L.L_ATTACHED and s[b, L.VATTACH + i] == t:
            base += T.vcard[i, TB.VC_ATTACH_DEFENSE]
    pierce = hero_passive(s, b, T, attacker, TB.HS_PIERCE, TB.HC_PIERCE) if attacker >= 0 else 0
    return max(0, base - pierce)


@njit(cache=True)
def attach_host(s, b, T, kind):
    """The target an attaching card goes to: the lackey nearest the villain (lowest index on
    ties) or the Villain card; -1 when there is none (the card is then discarded)."""
    if kind == TB.ATTACH_VILLAIN:
        return L.T_VILLAIN
    if kind != TB.ATTACH_LACKEY:
        return -1
    best = -1
    best_d = 1 << 30
    for i in range(L.VDECK):
        if is_enemy_card(s, b, T, i) and s[b, L.VPOS + i] >= 0 and s[b, L.VIL_LOC] >= 0:
            d = T.dist[s[b, L.VIL_LOC], s[b, L.VPOS + i]]
            if d < best_d:
                best, best_d = i, d
    return best


@njit(cache=True)
def enemy_inflict(s, b, T, t):
    """Inflict value of an enemy card target (the villain's depends on its side)."""
    if L.is_vcard_target(t):
        return T.vcard[L.vcard_of(t), TB.VC_INFLICT]
    if L.is_villain_target(t):
        v = facing.target_villain(t)
        if s[b, facing.vil_col(L.VIL_SIDE, v)] == 1:
            return T.vil_stat[v, TB.VS_SHOWDOWN_INFLICT]
        return T.vil_stat[v, TB.VS_SCHEMING_INFLICT]
    if t < L.T_VILLAIN:
        return T.icard[t - L.T_I0, TB.IC_BACK_INFLICT]
    if t < L.T_MINION:
        # only the enemy side inflicts: a nemesis Scheme is a card, not an enemy
        k = t - L.T_NEM0
        if s[b, L.NEM_SIDE + k] == 1 and s[b, L.NEM_CARD + k] >= 0:
            return T.nemesis[s[b, L.NEM_CARD + k], TB.NM_INFLICT]
    return 0


@njit(cache=True)
def problem_danger(s, b, T, t, n_heroes):
    """Danger value of a problem card target (DASH: can never be solved); with two
    villains a villain card counts the heroes facing its villain (``core/facing.py``)."""
    if facing.two_villains(T):
        n_heroes = facing.hero_count_of_target(s, b, T, t)
    if L.is_vcard_target(t):
        c = L.vcard_of(t)
        return scaled(T.vcard[c, TB.VC_DANGER], T.vcard[c, TB.VC_DANGER_PH], n_heroes)
    if t >= L.T_CRISIS0:
        k = t - L.T_CRISIS0
        return scaled(T.crisis[k, TB.CR_DANGER], T.crisis[k, TB.CR_DANGER_PH], n_heroes)
    if L.T_NEM0 <= t < L.T_MINION:
        c = s[b, L.NEM_CARD + t - L.T_NEM0]
        return scaled(T.nemesis[c, TB.NM_DANGER], T.nemesis[c, TB.NM_DANGER_PH], n_heroes)
    i = t - L.T_I0
    if T.icard[i, TB.IC_TYPE] == TB.IT_SCHEME and s[b, L.ISIDE + i] == 1:
        return scaled(T.icard[i, TB.IC_BACK_DANGER], T.icard[i, TB.IC_BACK_DANGER_PH], n_heroes)
    return scaled(T.icard[i, TB.IC_DANGER], T.icard[i, TB.IC_DANGER_PH], n_heroes)


@njit(cache=True)
def n_panels(T):
    return T.cfg[TB.CFG_N_PANELS]


@njit(cache=True)
def enemy_pos(s, b, T, t):
    """Map space of an enemy card that has a figure (lackey, issue enemy, a villain on the
    map: either villain of the Two Fronts variant)."""
    if L.is_villain_target(t):
        v = facing.target_villain(t)
        if s[b, facing.vil_col(L.VIL_IN_PANEL, v)] == 1 or not facing.villain_active(s, b, T, v):
            return -1
        return s[b, facing.vil_col(L.VIL_LOC, v)]
    if (t >= 0 and (t < L.T_MINION or L.is_vcard_target(t))
            and is_enemy_card(s, b, T, t)):
        return target_space(s, b, T, t)
    return -1
