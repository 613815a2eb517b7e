"""Read-only rule queries: hero values, enemies and problems, where things are.

Targets use the ``T_*`` numbering of layout.py: villain deck cards, issue deck cards, the
Villain card, nemeses (slot k is ``T_NEM0 + k``), "the minions here", "the captured
bystanders here" and crisis cards with a danger value (slot k is ``T_CRISIS0 + k``).
"""

from __future__ import annotations

from numba import njit

from hon_env.content.tables import (
    ATTACH_LACKEY,
    ATTACH_VILLAIN,
    BACK_ENEMY,
    BACK_PROBLEM,
    CFG_N_PANELS,
    CR_DANGER,
    CR_DANGER_PH,
    DASH,
    HC_ARMOR,
    HC_ATTACK_DICE,
    HC_FORM,
    HC_MOVE,
    HC_PIERCE,
    HC_SOLVE_DICE,
    HERO_DECK,
    HS_ARMOR,
    HS_ATTACK,
    HS_ATTACK_DICE,
    HS_FORM,
    HS_HEALTH,
    HS_MOVE,
    HS_PIERCE,
    HS_SOLVE,
    HS_SOLVE_DICE,
    IC_BACK,
    IC_BACK_DANGER,
    IC_BACK_DANGER_PH,
    IC_BACK_DEFENSE,
    IC_BACK_HEALTH,
    IC_BACK_HEALTH_PH,
    IC_BACK_INFLICT,
    IC_DANGER,
    IC_DANGER_PH,
    IC_STAYS,
    IC_TYPE,
    IT_ISSUE,
    IT_SCHEME,
    MAX_CRISES,
    NEMESES,
    NM_DANGER,
    NM_DANGER_PH,
    NM_DEFENSE,
    NM_HEALTH,
    NM_HEALTH_PH,
    NM_INFLICT,
    VC_ATTACH_DEFENSE,
    VC_DANGER,
    VC_DANGER_PH,
    VC_DEFENSE,
    VC_HEALTH,
    VC_HEALTH_PH,
    VC_INFLICT,
    VC_TYPE,
    VS_DEFENSE,
    VS_SCHEMING_INFLICT,
    VS_SHOWDOWN_INFLICT,
    VT_LACKEY,
    VT_PERIL,
)
from hon_env.core.geometry import captives, nearest_panel, panel_of_space
from hon_env.core.layout import (
    CRISIS_POS,
    DEF_BONUS,
    HCLOC,
    HLOC,
    HSIDE,
    IDECK,
    ILOC,
    IPOS,
    ISIDE,
    L_ATTACHED,
    L_PLAY,
    L_THREAT,
    MINIONS,
    NEM_CARD,
    NEM_OWNER,
    NEM_POS,
    NEM_SIDE,
    ROLL_ALLY,
    ROLL_HERO,
    T_CAPTURED,
    T_CRISIS0,
    T_I0,
    T_MINION,
    T_NEM0,
    T_VILLAIN,
    VATTACH,
    VDECK,
    VIL_HIDDEN,
    VIL_IN_PANEL,
    VIL_LOC,
    VIL_SIDE,
    VLOC,
    VPOS,
)


@njit(cache=True)
def scaled(value, per_hero, n_heroes):
    """A printed value, multiplied by the hero count when it carries the per-hero icon."""
    if value == DASH:
        return DASH
    return value * n_heroes if per_hero else value


@njit(cache=True)
def hero_value(s, b, T, h, col):
    """Hero ``h``'s current Hero-card value ``col`` (HS_HEALTH, HS_ATTACK, HS_SOLVE)."""
    return T.hero_stat[h, s[b, HSIDE + h], col]


@njit(cache=True)
def hero_form(s, b, T, h):
    """FORM_* of hero ``h``'s current side: figure, pilot token or mech."""
    return T.hero_stat[h, s[b, HSIDE + h], HS_FORM]


@njit(cache=True)
def hero_passive(s, b, T, h, hs_col, hc_col):
    """Sum of a passive bonus over the Hero card's side and the Constants in play.

    A Constant whose passive names a form (pilot or mech) counts only in that form.
    """
    side = s[b, HSIDE + h]
    total = T.hero_stat[h, side, hs_col]
    form = T.hero_stat[h, side, HS_FORM]
    for c in range(HERO_DECK):
        if s[b, HCLOC + h * HERO_DECK + c] == L_PLAY:
            need = T.hcard[h, c, HC_FORM]
            if need == 0 or need == form:
                total += T.hcard[h, c, hc_col]
    return total


@njit(cache=True)
def hero_health(s, b, T, h):
    return hero_value(s, b, T, h, HS_HEALTH)


@njit(cache=True)
def attack_dice(s, b, T, h):
    return hero_value(s, b, T, h, HS_ATTACK) + hero_passive(s, b, T, h, HS_ATTACK_DICE,
                                                            HC_ATTACK_DICE)


@njit(cache=True)
def solve_dice(s, b, T, h):
    return hero_value(s, b, T, h, HS_SOLVE) + hero_passive(s, b, T, h, HS_SOLVE_DICE,
                                                           HC_SOLVE_DICE)


@njit(cache=True)
def move_bonus(s, b, T, h):
    return hero_passive(s, b, T, h, HS_MOVE, HC_MOVE)


@njit(cache=True)
def armor(s, b, T, h):
    return hero_passive(s, b, T, h, HS_ARMOR, HC_ARMOR)


@njit(cache=True)
def villain_panel(s, b, T):
    """The panel the villain schemes in: its own, or the one nearest its figure."""
    p = panel_of_space(T, s[b, VIL_LOC])
    if p > 0:
        return p
    return nearest_panel(T, s[b, VIL_LOC])


@njit(cache=True)
def in_panel_of(s, b, T, h, sp):
    """True when hero ``h`` stands in the scheme panel whose scheme space is ``sp``
    (``h`` = -1, an ally, is never in a panel)."""
    return h >= 0 and s[b, HLOC + h] == sp and panel_of_space(T, sp) > 0


@njit(cache=True)
def roll_solver(s, b):
    """Who the Solve being resolved counts as standing where: its hero, or -1 for an ally
    (which solves no problem that needs a hero in its panel)."""
    return -1 if s[b, ROLL_ALLY] == 1 else s[b, ROLL_HERO]


@njit(cache=True)
def nem_in_play(s, b, k):
    """Nemesis slot ``k`` holds a card in a threat area (not unused, not defeated)."""
    return s[b, NEM_CARD + k] >= 0 and s[b, NEM_OWNER + k] >= 0


@njit(cache=True)
def nemeses_in_play(s, b):
    """Nemeses not yet defeated (on either side)."""
    n = 0
    for k in range(NEMESES):
        if nem_in_play(s, b, k):
            n += 1
    return n


@njit(cache=True)
def target_space(s, b, T, t):
    """Map space of a card target (its figure, token or panel), -1 if it has none."""
    if t < T_I0:
        return s[b, VPOS + t]
    if t < T_VILLAIN:
        return s[b, IPOS + t - T_I0]
    if t == T_VILLAIN:
        return s[b, VIL_LOC]
    if t < T_MINION:
        return s[b, NEM_POS + t - T_NEM0]
    if t >= T_CRISIS0:
        return s[b, CRISIS_POS + t - T_CRISIS0]
    return -1


@njit(cache=True)
def is_enemy_card(s, b, T, t):
    """True for a card target that is an enemy in play (lackey, revealed villain, issue enemy)."""
    if t < T_I0:
        return s[b, VLOC + t] == L_THREAT and T.vcard[t, VC_TYPE] == VT_LACKEY
    if t < T_VILLAIN:
        i = t - T_I0
        return (s[b, ILOC + i] == L_THREAT and s[b, ISIDE + i] == 1
                and T.icard[i, IC_BACK] == BACK_ENEMY)
    if t == T_VILLAIN:
        return s[b, VIL_SIDE] == 1
    if t < T_MINION:
        k = t - T_NEM0
        return nem_in_play(s, b, k) and s[b, NEM_SIDE + k] == 1
    return False


@njit(cache=True)
def is_problem_card(s, b, T, t, h):
    """True for a problem card that hero ``h`` may place justice on from where they stand."""
    if t < T_I0:
        return s[b, VLOC + t] == L_THREAT and T.vcard[t, VC_TYPE] == VT_PERIL
    if t < T_VILLAIN:
        i = t - T_I0
        if s[b, ILOC + i] != L_THREAT:
            return False
        if T.icard[i, IC_TYPE] == IT_SCHEME:
            if s[b, ISIDE + i] == 0:
                return in_panel_of(s, b, T, h, s[b, IPOS + i])
            ok = T.icard[i, IC_BACK] == BACK_PROBLEM
        else:
            ok = T.icard[i, IC_TYPE] == IT_ISSUE and T.icard[i, IC_STAYS] == 1
        # a problem located in a scheme panel is solved only from inside that panel
        pos = s[b, IPOS + i]
        return ok and (panel_of_space(T, pos) == 0 or in_panel_of(s, b, T, h, pos))
    if t == T_VILLAIN:
        return (s[b, VIL_SIDE] == 0 and s[b, VIL_HIDDEN] == 0 and s[b, VIL_IN_PANEL] == 1
                and in_panel_of(s, b, T, h, s[b, VIL_LOC]))
    if t < T_MINION:
        # a nemesis Scheme is solved only by heroes in its figure's panel (rulebook: Nemeses)
        k = t - T_NEM0
        return (nem_in_play(s, b, k) and s[b, NEM_SIDE + k] == 0
                and in_panel_of(s, b, T, h, s[b, NEM_POS + k]))
    if t >= T_CRISIS0:
        # solved where its crisis token stands; a token in a scheme panel, from inside it
        pos = s[b, CRISIS_POS + t - T_CRISIS0]
        return pos >= 0 and (panel_of_space(T, pos) == 0 or in_panel_of(s, b, T, h, pos))
    return False


@njit(cache=True)
def enemy_in_space(s, b, T, t, sp):
    """Is target ``t`` an enemy in map space ``sp`` (minions: in that space's panel)?"""
    if t == T_MINION:
        p = panel_of_space(T, sp)
        return p > 0 and s[b, MINIONS + p] > 0
    if t >= T_MINION:
        return False
    return is_enemy_card(s, b, T, t) and target_space(s, b, T, t) == sp


@njit(cache=True)
def problem_in_space(s, b, T, t, sp, h):
    """Is target ``t`` a problem hero ``h`` can solve in space ``sp`` (captives count)?"""
    if t == T_CAPTURED:
        p = panel_of_space(T, sp)
        return p > 0 and captives(s, b, T, p) > 0
    if t == T_MINION:
        return False
    return is_problem_card(s, b, T, t, h) and target_space(s, b, T, t) == sp


@njit(cache=True)
def any_enemy_in_space(s, b, T, sp):
    """Is any enemy (minions of its panel included) in map space ``sp``?

    Positions are compared first: they are plain state reads and rule out most cards.
    """
    p = panel_of_space(T, sp)
    if p > 0 and s[b, MINIONS + p] > 0:
        return True
    if s[b, VIL_LOC] == sp and s[b, VIL_SIDE] == 1:
        return True
    for i in range(VDECK):
        if s[b, VPOS + i] == sp and is_enemy_card(s, b, T, i):
            return True
    for i in range(IDECK):
        if s[b, IPOS + i] == sp and is_enemy_card(s, b, T, T_I0 + i):
            return True
    for k in range(NEMESES):
        if s[b, NEM_POS + k] == sp and is_enemy_card(s, b, T, T_NEM0 + k):
            return True
    return False


@njit(cache=True)
def any_problem_in_space(s, b, T, sp, h):
    """Can hero ``h`` solve anything in map space ``sp`` (captives of its panel included)?"""
    p = panel_of_space(T, sp)
    if p > 0 and captives(s, b, T, p) > 0:
        return True
    if s[b, VIL_LOC] == sp and is_problem_card(s, b, T, T_VILLAIN, h):
        return True
    for i in range(VDECK):
        if s[b, VPOS + i] == sp and is_problem_card(s, b, T, i, h):
            return True
    for i in range(IDECK):
        if s[b, IPOS + i] == sp and is_problem_card(s, b, T, T_I0 + i, h):
            return True
    for k in range(NEMESES):
        if s[b, NEM_POS + k] == sp and is_problem_card(s, b, T, T_NEM0 + k, h):
            return True
    for k in range(MAX_CRISES):
        if s[b, CRISIS_POS + k] == sp and is_problem_card(s, b, T, T_CRISIS0 + k, h):
            return True
    return False


@njit(cache=True)
def enemies_in_panel(s, b, T, p):
    """Enemies in scheme panel ``p``: its minions, the villain and nemeses scheming there,
    and enemy figures standing on its scheme space (5-6 players step 1a counts them)."""
    sp = T.scheme_space[p]
    n = s[b, MINIONS + p]
    if s[b, VIL_LOC] == sp:
        n += 1  # scheming in the panel, or its Showdown figure on the scheme space
    for k in range(NEMESES):
        if nem_in_play(s, b, k) and s[b, NEM_POS + k] == sp:
            n += 1
    for i in range(VDECK):
        if s[b, VPOS + i] == sp and is_enemy_card(s, b, T, i):
            n += 1
    for i in range(IDECK):
        if s[b, IPOS + i] == sp and is_enemy_card(s, b, T, T_I0 + i):
            n += 1
    return n


@njit(cache=True)
def enemy_health(s, b, T, t, n_heroes):
    if T_NEM0 <= t < T_MINION:
        c = s[b, NEM_CARD + t - T_NEM0]
        return scaled(T.nemesis[c, NM_HEALTH], T.nemesis[c, NM_HEALTH_PH], n_heroes)
    if t < T_I0:
        return scaled(T.vcard[t, VC_HEALTH], T.vcard[t, VC_HEALTH_PH], n_heroes)
    i = t - T_I0
    return scaled(T.icard[i, IC_BACK_HEALTH], T.icard[i, IC_BACK_HEALTH_PH], n_heroes)


@njit(cache=True)
def enemy_defense(s, b, T, t, attacker):
    """Defense of enemy ``t`` against ``attacker`` (rulebook: Defense Value).

    Positive modifications (fortify effects this round) apply before negative ones (the
    attacker's pierce), and defense never drops below 0.
    """
    if t < T_I0:
        base = T.vcard[t, VC_DEFENSE] + s[b, DEF_BONUS + 1]
    elif t < T_VILLAIN:
        base = T.icard[t - T_I0, IC_BACK_DEFENSE]
    elif t == T_VILLAIN:
        base = T.vil_stat[VS_DEFENSE] + s[b, DEF_BONUS]
    elif t < T_MINION:
        base = T.nemesis[s[b, NEM_CARD + t - T_NEM0], NM_DEFENSE]
    else:
        base = 0
    for i in range(VDECK):
        if s[b, VLOC + i] == L_ATTACHED and s[b, VATTACH + i] == t:
            base += T.vcard[i, VC_ATTACH_DEFENSE]
    pierce = hero_passive(s, b, T, attacker, HS_PIERCE, HC_PIERCE) if attacker >= 0 else 0
    return max(0, base - pierce)


@njit(cache=True)
def attach_host(s, b, T, kind):
    """The target an attaching card goes to: the lackey nearest the villain (lowest index on
    ties) or the Villain card; -1 when there is none (the card is then discarded)."""
    if kind == ATTACH_VILLAIN:
        return T_VILLAIN
    if kind != ATTACH_LACKEY:
        return -1
    best = -1
    best_d = 1 << 30
    for i in range(VDECK):
        if is_enemy_card(s, b, T, i) and s[b, VPOS + i] >= 0 and s[b, VIL_LOC] >= 0:
            d = T.dist[s[b, VIL_LOC], s[b, VPOS + i]]
            if d < best_d:
                best, best_d = i, d
    return best


@njit(cache=True)
def enemy_inflict(s, b, T, t):
    """Inflict value of an enemy card target (the villain's depends on its side)."""
    if t < T_I0:
        return T.vcard[t, VC_INFLICT]
    if t < T_VILLAIN:
        return T.icard[t - T_I0, IC_BACK_INFLICT]
    if t == T_VILLAIN:
        if s[b, VIL_SIDE] == 1:
            return T.vil_stat[VS_SHOWDOWN_INFLICT]
        return T.vil_stat[VS_SCHEMING_INFLICT]
    if t < T_MINION:
        # only the enemy side inflicts: a nemesis Scheme is a card, not an enemy
        k = t - T_NEM0
        if s[b, NEM_SIDE + k] == 1 and s[b, NEM_CARD + k] >= 0:
            return T.nemesis[s[b, NEM_CARD + k], NM_INFLICT]
    return 0


@njit(cache=True)
def problem_danger(s, b, T, t, n_heroes):
    """Danger value of a problem card target (DASH: can never be solved)."""
    if t >= T_CRISIS0:
        k = t - T_CRISIS0
        return scaled(T.crisis[k, CR_DANGER], T.crisis[k, CR_DANGER_PH], n_heroes)
    if T_NEM0 <= t < T_MINION:
        c = s[b, NEM_CARD + t - T_NEM0]
        return scaled(T.nemesis[c, NM_DANGER], T.nemesis[c, NM_DANGER_PH], n_heroes)
    if t < T_I0:
        return scaled(T.vcard[t, VC_DANGER], T.vcard[t, VC_DANGER_PH], n_heroes)
    i = t - T_I0
    if T.icard[i, IC_TYPE] == IT_SCHEME and s[b, ISIDE + i] == 1:
        return scaled(T.icard[i, IC_BACK_DANGER], T.icard[i, IC_BACK_DANGER_PH], n_heroes)
    return scaled(T.icard[i, IC_DANGER], T.icard[i, IC_DANGER_PH], n_heroes)


@njit(cache=True)
def n_panels(T):
    return T.cfg[CFG_N_PANELS]
