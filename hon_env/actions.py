"""Named constructors for the flat action space: ``move("D4", g)`` instead of offsets.

Each function returns the action index (an ``int`` for ``Game.apply`` or a batch array)
of one segment of ``hon_env.spec.layout``'s action space; ``describe.segment_of`` turns an
index back into (segment, index inside it). Indices can always be given as numbers; names
(space labels like ``"D4"`` or ``"panel 2"``, card names, target names, agent names) need
the game they refer to, passed as ``game``.

    >>> from hon_env import Game, actions as A
    >>> g = Game("origin_story", seed=0)
    >>> A.move("D4", g) == A.move(g.scenario.space_labels.index("D4"))
    True
    >>> A.segment(A.target("minions"))
    ('target', 53)

Which of them is legal depends on the pending decision (``g.legal_actions()``); the same
segment answers several decisions (``space`` is a Move step, a placement or a rescue; the
one ``PASS`` index yields the initiative, stops a Move, keeps a hand, suffers damage...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from hon_env.describe import FEAT_KIND_NAMES, segment_of
from hon_env.spec import layout as L

if TYPE_CHECKING:
    from hon_env.game import Game

PASS = L.A_PASS


def segment(action: int) -> tuple[str, int]:
    """(segment name, index inside the segment) of an action (``describe.segment_of``)."""
    return segment_of(int(action))


def _in(seg: str, k: int) -> int:
    """Action ``k`` of segment ``seg``, range-checked."""
    for name, start, size in L.SEGMENTS:
        if name == seg:
            if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
                raise TypeError(f"{seg} index must be an int, got {k!r}")
            if not 0 <= k < size:
                raise ValueError(f"{seg} index {k} is outside [0, {size})")
            return start + int(k)
    raise AssertionError(seg)


def _need(game: Game | None, what: object) -> Game:
    if game is None:
        raise ValueError(f"{what!r} is a name: pass the game it refers to (game=g)")
    return game


def _space(where: int | str, game: Game | None) -> int:
    if isinstance(where, str):
        from hon_env.positions import space

        return space(_need(game, where), where)
    return where


# --- answers without an argument -----------------------------------------------------------

def pass_() -> int:
    """PASS: yield the initiative / end actions (main menu), stop moving, keep the hand
    (mulligan), roll (clue dice), suffer the damage, decline."""
    return PASS


yield_initiative = end_actions = stop = keep_hand = roll = suffer = pass_


def draw() -> int:
    """The Draw 1 Card action."""
    return L.A_DRAW


def focus() -> int:
    """Discard focus to become Focused (or board the mech)."""
    return L.A_FOCUS


# --- spaces ------------------------------------------------------------------------------------

def move(where: int | str, game: Game | None = None) -> int:
    """SPACE: move to / step to / place a figure in / rescue at a space (index, label such
    as ``"D4"``, or ``"panel K"``)."""
    return _in("space", _space(where, game))


place = rescue = move


def _target_space(target: int | str, game: Game | None) -> int:
    """A space, or the space of the named card's figure or token (a lackey, a flipped
    Scheme enemy, a problem card, the villain, a nemesis)."""
    if not isinstance(target, str):
        return target
    g = _need(game, target)
    from hon_env.positions import _target, space

    try:
        return space(g, target)
    except ValueError:
        pass
    t = _target(g, target)
    f = g.field
    if L.is_vcard_target(t):
        sp = int(f("vpos")[L.vcard_of(t)])
    elif L.is_villain_target(t):
        sp = int(f("vil_loc" if t == L.T_VILLAIN else "vil2_loc"))
    elif t < L.T_VILLAIN:
        sp = int(f("ipos")[t - L.T_I0])
    elif t < L.T_MINION:
        sp = int(f("nem_pos")[t - L.T_NEM0])
    else:
        sp = -1
    if sp < 0:
        raise ValueError(f"{target!r} stands on no space")
    return sp


def attack(target: int | str, game: Game | None = None) -> int:
    """ATTACK the enemies at a space: a space, or the name of an enemy standing there."""
    return _in("attack", _target_space(target, game))


def solve(target: int | str, game: Game | None = None) -> int:
    """SOLVE at a space: a space, or the name of a problem card whose token is there."""
    return _in("solve", _target_space(target, game))


# --- cards -------------------------------------------------------------------------------------

def _hero_card(card: int | str, game: Game | None, zone: int | None, seat: int | None) -> int:
    """A hero card index; a name is looked up among ``seat``'s cards (default: the deciding
    hero) in ``zone`` (any zone when None)."""
    if not isinstance(card, str):
        return card
    g = _need(game, card)
    seat = g.current_seat if seat is None else seat
    if not 0 <= seat < g.scenario.n_heroes:
        raise ValueError(f"no seat {seat} to look {card!r} up for")
    names = g.scenario.hero_card_names[seat]
    zones = g.field("hcloc")[seat]
    for c, n in enumerate(names):
        if n == card and (zone is None or zones[c] == zone):
            return c
    where = "" if zone is None else f" in {L.ZONE_NAMES[zone]}"
    raise ValueError(f"seat {seat} has no card {card!r}{where}")


def play(card: int | str, game: Game | None = None, seat: int | None = None) -> int:
    """PLAY a hero card from the hand (an index or a name)."""
    return _in("play", _hero_card(card, game, L.L_HAND, seat))


def use(card: int | str = "hero", game: Game | None = None, seat: int | None = None) -> int:
    """USE an ability: ``"hero"`` (the Hero card), ``"ally"`` (the Ally card), or a card in
    the play area (an index or a name)."""
    if card == "hero":
        return _in("use", L.USE_HERO_CARD)
    if card == "ally":
        return _in("use", L.USE_ALLY_CARD)
    return _in("use", _hero_card(card, game, L.L_PLAY, seat))


def feat(card: int | str, kind: str, game: Game | None = None, seat: int | None = None) -> int:
    """FEAT: discard a hand card for its heroic feat icon ``kind`` (``"mobility"``,
    ``"strength"`` or ``"deduction"``)."""
    if kind not in FEAT_KIND_NAMES:
        raise ValueError(f"feat kind must be one of {list(FEAT_KIND_NAMES)}, got {kind!r}")
    c = _hero_card(card, game, L.L_HAND, seat)
    _in("card", c)
    return _in("feat", c * L.N_FEAT_KINDS + FEAT_KIND_NAMES.index(kind))


def card(card: int | str, game: Game | None = None, seat: int | None = None) -> int:
    """CARD: choose a card of the hand (send back in a mulligan, discard, toughness)."""
    return _in("card", _hero_card(card, game, L.L_HAND, seat))


def clue(entry: int | str, game: Game | None = None) -> int:
    """CLUE: use a clue card (its clue-list entry, or its name)."""
    if isinstance(entry, str):
        names = _need(game, entry).scenario.clue_names
        if entry not in names:
            known = sorted(set(n for n in names if n))
            raise ValueError(f"no clue card {entry!r} (clues: {known})")
        entry = names.index(entry)
    return _in("clue", entry)


# --- choices -----------------------------------------------------------------------------------

def option(k: int) -> int:
    """OPTION k (cunning: 0 the villain schemes, 1 it inflicts; focus spend: k tokens)."""
    return _in("option", k)


choose = option

_TARGET_WORDS = {"minions": L.T_MINION, "captured bystanders": L.T_CAPTURED,
                 "captured": L.T_CAPTURED}


def target(t: int | str, game: Game | None = None) -> int:
    """TARGET: a ``T_*`` index, ``"minions"``, ``"captured bystanders"``, or the name of a
    card in a threat area, the villain, a nemesis or a crisis card (with ``game``)."""
    if isinstance(t, str):
        if t in _TARGET_WORDS:
            t = _TARGET_WORDS[t]
        else:
            g = _need(game, t)
            if t in g.scenario.crisis_card_names:
                t = L.T_CRISIS0 + g.scenario.crisis_card_names.index(t)
            else:
                from hon_env.positions import _target

                t = _target(g, t)
    return _in("target", t)


def hero(who: int | str, game: Game | None = None) -> int:
    """HERO: a hero counted in seats after the deciding one (0 = yourself), or a seat's
    name (``"majesty_2"``, ``Scenario.seat_names``) with ``game``."""
    if isinstance(who, str):
        g = _need(game, who)
        names = list(g.scenario.seat_names)
        if who not in names:
            raise ValueError(f"no seat named {who!r} (seats: {names})")
        who = (names.index(who) - max(g.current_seat, 0)) % len(names)
    return _in("hero", who)


def draft(who: int | str, game: Game | None = None) -> int:
    """DRAFT (the Draft variant): take hero ``who`` of the draft pool, its pool index or its
    hero id (with ``game``)."""
    if isinstance(who, str):
        pool = list(_need(game, who).draft_scenario.draft_heroes)
        if who not in pool:
            raise ValueError(f"no hero {who!r} in the draft pool (pool: {pool})")
        who = pool.index(who)
    return _in("draft", who)


__all__ = [
    "PASS", "attack", "card", "choose", "clue", "draft", "draw", "end_actions", "feat", "focus",
    "hero", "keep_hand", "move", "option", "pass_", "place", "play", "rescue", "roll", "segment",
    "solve", "stop", "suffer", "target", "use", "yield_initiative",
]
