"""Two Fronts variant: which villain each hero faces, and what facing changes.

Read-only queries over the state (``docs/variants.md``, Two Fronts; engine.md #46-#49).
With one villain (``CFG_N_VILLAINS`` < 2) each returns the rulebook's answer: every hero
may affect every card, per-hero values count every hero, no blindside. Kept apart from
``core/two_fronts.py`` (setup and the facing choice) so that ``queries.py`` can use them.

A target's villain: the first villain's deck cards (``T_V0 + i``) and Villain card
(``T_VILLAIN``) belong to villain 0, the second's (``T_W0 + i``, ``T_VILLAIN2``) to
villain 1; every other target (issue cards, nemeses, minions, captives, allies, crisis
cards) is shared (-1).
"""

from __future__ import annotations

from numba import njit

from hon_env.spec import layout as L
from hon_env.spec import tables as TB


@njit(cache=True)
def two_villains(T):
    """True in a Two Fronts game."""
    return T.cfg[TB.CFG_N_VILLAINS] >= 2


@njit(cache=True, inline="always")
def vcard_slots(T):
    """Villain card slots a game can hold cards in: the second villain's half (every card
    removed in a one-villain game, ``core/validate.py``) only with two villains. Loops over
    the cards in play stop here rather than at ``VCARDS``: half the work in the rulebook's
    game, the same result."""
    return TB.VCARDS if two_villains(T) else TB.VDECK


@njit(cache=True)
def vil_col(field, v):
    """Column of villain ``v``'s copy of a Villain-card field (``L.VIL_SIDE``...)."""
    return field + v * L.VIL_STRIDE


@njit(cache=True)
def villain_active(s, b, T, v):
    """Is villain ``v`` in the game: the first always, the second in a Two Fronts game;
    neither once defeated (``VIL_OUT``)."""
    return (v == 0 or two_villains(T)) and s[b, L.VIL_OUT + v] == 0


@njit(cache=True)
def source_villain(s, b, T, src, h):
    """"The villain" of an effect with source target ``src`` resolving for hero ``h``
    (docs/variants.md, Two Fronts): a villain's own card or Villain card names its own
    villain; any other source (issue and panel cards, crises) the villain ``h`` faces, or
    the first villain without a hero. A defeated villain's part passes to the other."""
    if not two_villains(T):
        return 0
    v = target_villain(src)
    if v < 0:
        v = s[b, L.HFACE + h] if 0 <= h < T.cfg[TB.CFG_N_HEROES] else 0
    if s[b, L.VIL_OUT + v] == 1:
        v = 1 - v
    return v


@njit(cache=True)
def def_bonus_col(v):
    """Column of villain ``v``'s fortify bonuses (+0 the Villain card, +1 its lackeys)."""
    return L.DEF_BONUS if v == 0 else L.DEF_BONUS2


@njit(cache=True)
def card_villain(c):
    """Villain (0 or 1) whose deck villain card slot ``c`` belongs to."""
    return c // TB.VDECK


@njit(cache=True)
def target_villain(t):
    """Villain whose card target ``t`` is, or -1 for a shared target (see module doc)."""
    if L.is_vcard_target(t):
        return card_villain(L.vcard_of(t))
    if t == L.T_VILLAIN:
        return 0
    if t == L.T_VILLAIN2:
        return 1
    return -1


@njit(cache=True)
def facing_count(s, b, v, n_seats):
    """Heroes among seats ``[0, n_seats)`` facing villain ``v`` (defeated ones included)."""
    n = 0
    for h in range(n_seats):
        if s[b, L.HFACE + h] == v:
            n += 1
    return n


@njit(cache=True)
def hero_count_for(s, b, T, v):
    """The hero count of villain ``v``'s per-hero values (003 §THE H ICON).

    The heroes facing it, at least ``CFG_TF_FLOOR``; every hero once the other villain is
    defeated, for a shared target (``v`` < 0), and always with one villain.
    """
    nh = T.cfg[TB.CFG_N_HEROES]
    if not two_villains(T) or v < 0 or s[b, L.VIL_OUT + 1 - v] == 1:
        return nh
    return max(T.cfg[TB.CFG_TF_FLOOR], facing_count(s, b, v, nh))


@njit(cache=True)
def hero_count_of_target(s, b, T, t):
    """The hero count of target ``t``'s per-hero values (its villain's, else all heroes)."""
    return hero_count_for(s, b, T, target_villain(t))


@njit(cache=True)
def can_turn(s, b, T, h):
    """May hero ``h`` turn around (003 §TURN SEQUENCE)? Only with two villains both
    undefeated, and only when another hero still faces the villain ``h`` faces, so that
    each villain keeps a hero facing it (003 §GAME SETUP; engine.md #49). The action
    itself is checked by the caller."""
    if not two_villains(T) or s[b, L.VIL_OUT] == 1 or s[b, L.VIL_OUT + 1] == 1:
        return False
    return facing_count(s, b, s[b, L.HFACE + h], T.cfg[TB.CFG_N_HEROES]) >= 2


@njit(cache=True)
def may_affect(s, b, T, h, t):
    """May hero ``h``'s actions and effects reach target ``t``? Not a card of the villain
    ``h`` does not face (003 §FACING A VILLAIN, §BATTLE); shared targets always. ``h`` < 0
    (no hero) and one-villain games: always."""
    if h < 0 or not two_villains(T):
        return True
    v = target_villain(t)
    return v < 0 or s[b, L.HFACE + h] == v


@njit(cache=True)
def blindside(s, b, T, h, src):
    """Damage added to an instance hero ``h`` suffers from source target ``src``: the
    blindside bonus when the source is a card of the villain ``h`` does not face
    (003 §BLINDSIDE), else 0."""
    if h < 0 or src < 0 or not two_villains(T):
        return 0
    v = target_villain(src)
    if v < 0 or s[b, L.HFACE + h] == v:
        return 0
    return T.cfg[TB.CFG_TF_BLINDSIDE]
