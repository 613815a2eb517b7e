"""How the scripted teams weigh targets: the per-hero weights, the team's and the glory
seeker's, behind one ``weigh(style, ...)`` that the shared menu (``agents.scripted``) reads.

A style is a small integer: ``SOLO`` (every hero on its own, ``agents.heuristic``),
``TEAM`` (the coordinated team, ``agents.coordinated``: the per-hero weights plus enemies
that threaten a wounded teammate, and minions in the villain's panel on a roll) and
``GLORY`` (the fame each target pays the hero, ``agents.glory``). Every weight reads only
public state.
"""

from __future__ import annotations

from numba import njit

from hon_env.core.facing import may_affect
from hon_env.core.geometry import captives, panel_of_space
from hon_env.core.queries import (
    enemy_health,
    enemy_in_space,
    enemy_inflict,
    hero_health,
    is_enemy_card,
    problem_danger,
    problem_in_space,
)
from hon_env.spec import layout as L
from hon_env.spec import tables as TB

SOLO, TEAM, GLORY = 0, 1, 2  # the scripted styles
KIND_ATTACK, KIND_SOLVE = 1, 2
FINISH_BONUS = 3  # a success that finishes a target is worth this much more
CRISIS_WEIGHT = 4  # a crisis card with a danger value: its Crisis effect hits at every crisis
BIG = 1 << 20
# the team's weights
MINION_THREAT = 2  # a minion in the villain's panel: it brings the villain's advance nearer
PROTECT_BONUS = 3  # an enemy in a wounded teammate's threat area
WOUNDED_LEFT = 2  # health left at or below which a hero counts as wounded
# the glory seeker's weights are fame x GLORY_SCALE, so that half-weights stay integers
GLORY_SCALE = 2


# --- the per-hero weights -----------------------------------------------------------------

@njit(cache=True)
def owned_by(s, b, t, h):
    """Is target ``t`` a card in hero ``h``'s threat area?"""
    if L.is_vcard_target(t):
        return s[b, L.VOWNER + L.vcard_of(t)] == h
    if t == L.T_VILLAIN:
        return s[b, L.VIL_OWNER] == h
    if t == L.T_VILLAIN2:
        return s[b, L.VIL2_OWNER] == h
    if t < L.T_VILLAIN:
        return s[b, L.IOWNER + t - L.T_I0] == h
    if t < L.T_MINION:
        return s[b, L.NEM_OWNER + t - L.T_NEM0] == h
    return False


@njit(cache=True)
def attack_weight(s, b, T, t, h):
    """How much hero ``h`` wants to damage enemy target ``t``."""
    if t == L.T_MINION:
        return 1
    if L.is_villain_target(t):
        w = 10
    elif t > L.T_VILLAIN and not L.is_vcard_target(t):
        w = 6  # a nemesis: the villain cannot fall while one stands
    else:
        w = 3 + enemy_inflict(s, b, T, t)
    if owned_by(s, b, t, h):
        w += 2
    return w


@njit(cache=True)
def solve_weight(s, b, T, t, h):
    """How much hero ``h`` wants to place justice on problem target ``t``."""
    if L.is_villain_target(t):
        return 10
    if t == L.T_CAPTURED:
        return 2
    w = 3
    if L.is_vcard_target(t):
        pass
    elif t >= L.T_CRISIS0:
        return CRISIS_WEIGHT
    elif t > L.T_VILLAIN:
        w = 6  # a nemesis Scheme side holds a hidden token, like a Scheme card
    elif t >= L.T_I0:
        i = t - L.T_I0
        if T.icard[i, TB.IC_TYPE] == TB.IT_SCHEME and s[b, L.ISIDE + i] == 0:
            w = 6
        elif T.icard[i, TB.IC_TYPE] == TB.IT_ISSUE:
            w = 4
    if owned_by(s, b, t, h):
        w += 2
    return w


@njit(cache=True)
def left_to_finish(s, b, T, t, kind):
    """Damage (kind 1) or justice (kind 2) still needed to overcome target ``t``."""
    n = T.cfg[TB.CFG_N_HEROES]
    if t == L.T_MINION or t == L.T_CAPTURED:
        return 1
    if kind == KIND_ATTACK:
        if L.is_villain_target(t):
            return BIG  # the villain's health is large; never a quick finish
        hp = enemy_health(s, b, T, t, n)
        if L.is_vcard_target(t):
            dmg = s[b, L.VDMG + L.vcard_of(t)]
        elif t < L.T_VILLAIN:
            dmg = s[b, L.IDMG + t - L.T_I0]
        else:
            dmg = s[b, L.NEM_DMG + t - L.T_NEM0]
        return BIG if hp == TB.DASH else hp - dmg
    if L.is_villain_target(t):
        return BIG
    danger = problem_danger(s, b, T, t, n)
    if L.is_vcard_target(t):
        just = s[b, L.VJUST + L.vcard_of(t)]
    elif t >= L.T_CRISIS0:
        just = s[b, L.CRISIS_JUST + t - L.T_CRISIS0]
    elif t < L.T_VILLAIN:
        just = s[b, L.IJUST + t - L.T_I0]
    else:
        just = s[b, L.NEM_JUST + t - L.T_NEM0]
    return BIG if danger == TB.DASH else danger - just


@njit(cache=True)
def health_left(s, b, T, h):
    """Damage hero ``h`` can still take before being defeated (current side's health)."""
    return hero_health(s, b, T, h) - s[b, L.HDMG + h]


# --- the team's weights -------------------------------------------------------------------

@njit(cache=True)
def villain_panel(s, b, T):
    """The scheme panel the villain stands in or schemes from, or 0 off the panels."""
    loc = s[b, L.VIL_LOC]
    return panel_of_space(T, loc) if loc >= 0 else 0


@njit(cache=True)
def wounded(s, b, T, o):
    """Is hero ``o`` wounded (at most WOUNDED_LEFT or half their health left)?"""
    if s[b, L.HLOC + o] < 0:
        return False
    left = health_left(s, b, T, o)
    return left <= WOUNDED_LEFT or 2 * left <= hero_health(s, b, T, o)


@njit(cache=True)
def protect_bonus(s, b, T, t, h):
    """Extra weight of enemy ``t`` for hero ``h`` when it threatens a wounded teammate."""
    n = T.cfg[TB.CFG_N_HEROES]
    for o in range(n):
        if o != h and owned_by(s, b, t, o) and wounded(s, b, T, o):
            return PROTECT_BONUS
    return 0


@njit(cache=True)
def co_attack_weight(s, b, T, t, h, sp):
    """How much hero ``h`` wants to damage target ``t`` (a minion: one in space ``sp``)."""
    if t == L.T_MINION:
        p = panel_of_space(T, sp) if sp >= 0 else 0
        return MINION_THREAT if p > 0 and p == villain_panel(s, b, T) else 1
    return attack_weight(s, b, T, t, h) + protect_bonus(s, b, T, t, h)


# --- the glory seeker's weights ------------------------------------------------------------

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


# --- one entry for every style ----------------------------------------------------------

@njit(cache=True)
def weigh(style, s, b, T, t, h, kind, sp):
    """How much hero ``h`` of ``style`` wants to damage (``kind`` KIND_ATTACK) or place
    justice on (KIND_SOLVE) target ``t``; ``sp``: the rolled space (-1 off a roll), where
    the team weighs a minion of the villain's panel more."""
    if kind == KIND_ATTACK:
        if style == GLORY:
            return glory_attack_weight(s, b, T, t, h)
        if style == TEAM:
            return co_attack_weight(s, b, T, t, h, sp)
        return attack_weight(s, b, T, t, h)
    if style == GLORY:
        return glory_solve_weight(s, b, T, t, h)
    return solve_weight(s, b, T, t, h)


@njit(cache=True)
def space_worth(style, s, b, T, h, sp, kind):
    """Total weight of what hero ``h`` could attack (1) or solve (2) in space ``sp`` now.
    The glory seeker counts every target there (it never looks at which villain a Two
    Fronts hero faces; kept as it plays); the others only those they may affect."""
    v = 0
    for t in range(L.N_TARGETS):
        if style != GLORY and not may_affect(s, b, T, h, t):  # the other villain's
            continue
        if kind == KIND_ATTACK:
            if enemy_in_space(s, b, T, t, sp):
                v += weigh(style, s, b, T, t, h, kind, -1)
        elif problem_in_space(s, b, T, t, sp, h):
            w = weigh(style, s, b, T, t, h, kind, -1)
            if t == L.T_CAPTURED:
                w *= captives(s, b, T, panel_of_space(T, sp))
            v += w
    p = panel_of_space(T, sp)
    if kind == KIND_ATTACK and p > 0 and s[b, L.MINIONS + p] > 1:
        # every minion of the panel is a target (each pays its fame)
        v += (s[b, L.MINIONS + p] - 1) * (GLORY_SCALE if style == GLORY else 1)
    return v


@njit(cache=True)
def target_score(style, s, b, T, t, h, kind, succ, sp, roll):
    """What putting work on target ``t`` is worth to hero ``h``: a roll's next success
    (``roll``; ``succ`` successes left, ``sp`` the rolled space) or an effect's damage
    (``kind`` KIND_ATTACK) or justice (KIND_SOLVE); kind 0: exhausting a threat card, which
    stops the enemy that inflicts most (worth no fame). A target the work finishes weighs
    FINISH_BONUS more on a roll; the glory seeker weighs work that does not finish a
    target half (someone else may land the last point and its fame)."""
    if kind == 0:
        if style == GLORY:
            return 0
        return enemy_inflict(s, b, T, t) if is_enemy_card(s, b, T, t) else 0
    w = weigh(style, s, b, T, t, h, kind, sp)
    finishes = left_to_finish(s, b, T, t, kind) <= succ
    if style == GLORY:
        return w + FINISH_BONUS * GLORY_SCALE if finishes else w // 2
    return w + FINISH_BONUS if roll and finishes else w
