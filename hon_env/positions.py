"""Build positions by hand: for rule tests, tutorials and curricula.

Start from any ``Game``, edit it with these functions, then ``jump`` to a turn boundary
(or call ``game.refresh()`` to keep the pending decision). Cards are named as in the
content files; spaces by label (``"D4"``), by ``"panel 2"`` or by index.

    >>> from hon_env import Game, positions as P
    >>> g = Game("origin_story", seed=0)
    >>> P.clear_board(g)
    >>> P.place_hero(g, 0, "panel 1")
    >>> P.jump(g, "hero_turn")
    >>> g.decision
    'main'

The helpers for cards, figures, counters and decks keep the state consistent (the
invariants of ``hon_env.core.invariants`` hold after them: supplies conserved, one hidden
token per unsolved Scheme side, decks in order); ``set_hero``, ``set_villain`` and
``set_nemesis`` write the values they are given. Every helper recomputes the legal mask of
the pending decision without answering it, so a decision left with one legal action stays
pending until ``jump`` or ``game.refresh()``; a helper that raises changes nothing, and
every ``seat`` argument must be a seat of the game.
``run_to(g, "attack_space")`` plays on (random legal actions by default) until a decision
of that kind is pending.

Die faces are forced with ``force_dice(g, [...])`` using face indices of the scenario's
``dice_faces`` rule (default: 0 blank, 1 success, 2 success, 3 success+focus, 4 focus,
5 burst).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from types import EllipsisType
from typing import Any, TypeVar

import numpy as np

from hon_env.checks import check_int
from hon_env.core.positions import (
    JUMP_HERO_TURN,
    JUMP_ISSUE_TURN,
    JUMP_VILLAIN_TURN,
    game_remask,
    jump_to,
)
from hon_env.game import Game, card_values
from hon_env.spec import layout as L
from hon_env.spec.tables import (
    BACK_ENEMY,
    BACK_NONE,
    BACK_PROBLEM,
    CFG_N_PANELS,
    CFG_N_SPACES,
    HERO_DECK,
    IC_BACK,
    IC_LOCATION,
    IC_PANEL,
    IC_STAYS,
    IC_TYPE,
    IT_ISSUE,
    IT_SCHEME,
    SP_NONE,
    SP_SCHEME,
    VC_TYPE,
    VT_LACKEY,
    VT_PERIL,
)

FACE_BLANK, FACE_SUCCESS, FACE_SUCCESS_FOCUS, FACE_FOCUS, FACE_BURST = 0, 1, 3, 4, 5
_JUMPS = {"villain_turn": JUMP_VILLAIN_TURN, "hero_turn": JUMP_HERO_TURN,
          "issue_turn": JUMP_ISSUE_TURN}


def space(g: Game, where: str | int) -> int:
    """Space index from an index, a label like ``"D4"`` or ``"panel K"``."""
    sc = g.scenario
    if isinstance(where, (int, np.integer)) and not isinstance(where, bool):
        if not 0 <= int(where) < int(sc.tables.cfg[CFG_N_SPACES]):
            raise ValueError(f"space index {int(where)} is outside [0, "
                             f"{int(sc.tables.cfg[CFG_N_SPACES])})")
        return int(where)
    if not isinstance(where, str):
        raise TypeError(f"a space is an index, a label or 'panel K', got {where!r}")
    if where.startswith("panel "):
        k = int(where.split()[1])
        if not 1 <= k <= int(sc.tables.cfg[CFG_N_PANELS]):
            raise ValueError(f"no scheme panel {k} on this board")
        return int(sc.tables.scheme_space[k])
    if where not in sc.space_labels:
        raise ValueError(f"unknown space {where!r}; spaces are {', '.join(sc.space_labels)}")
    return sc.space_labels.index(where)


def _index(names: Sequence[str], name: str, what: str, used: set[int] | None = None) -> int:
    for i, n in enumerate(names):
        if n == name and (used is None or i not in used):
            return i
    raise ValueError(f"no {what} named {name!r} (available: {sorted(set(n for n in names if n))})")


# --- editing helpers and the legal mask -------------------------------------------------------

_F = TypeVar("_F", bound=Callable[..., Any])


def _edit(fn: _F) -> _F:
    """An editing helper: on success the legal mask is recomputed (``remask``); one that
    raises leaves the game exactly as it was (state and mask). No helper edits a game
    whose heroes are still being drafted (Draft variant): no board is set up yet. A
    ``seat`` argument must name one of the game's seats (the state has slots for six, so
    a seat past the team would be written without complaint)."""
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(g: Game, *args: Any, **kwargs: Any) -> Any:
        try:
            seat = signature.bind(g, *args, **kwargs).arguments.get("seat")
        except TypeError:
            seat = None  # the call itself raises Python's error below
        if seat is not None:
            _check_seat(g, seat)
        if int(g.state[0, L.DRAFTING]):
            raise ValueError(f"{fn.__name__}: the heroes are still being drafted (decision "
                             f"{g.decision!r}), so no board is set up to edit; play the "
                             "draft first, e.g. positions.run_to(g, 'mulligan')")
        state, mask = g.state.copy(), g._mask.copy()
        try:
            out = fn(g, *args, **kwargs)
        except Exception:
            g.state[...] = state
            g._mask[...] = mask
            raise
        remask(g)
        return out
    return wrapper  # type: ignore[return-value]


def _put(field: Callable[[str], np.ndarray], index: int | EllipsisType,
         values: dict[str, int | bool | None]) -> None:
    """Write each value that is not None into ``field(name)[index]`` (bools as 0/1): the
    keyword arguments a caller left out keep what the game holds."""
    for name, v in values.items():
        if v is not None:
            field(name)[index] = int(v)


def remask(g: Game) -> None:
    """Recompute the legal mask of the pending decision after hand edits, answering nothing
    (``game.refresh()`` also takes a decision left with a single legal action)."""
    game_remask(g.state, g._tabs, g._mask[0])
    g._version += 1  # the state was edited: views kept for it (observations) are stale


def jump(g: Game, where: str) -> None:
    """Restart the flow at ``"villain_turn"``, ``"hero_turn"`` or ``"issue_turn"``.

    Setup steps still pending are dropped: jumping from a fresh game skips the mulligans,
    the issue's Setup effect and the nemesis step, so place nemesis figures with
    ``set_nemesis`` (a dealt nemesis has no figure until the nemesis step).
    """
    if where not in _JUMPS:
        raise ValueError(f"jump target must be one of {sorted(_JUMPS)}, got {where!r}")
    jump_to(g.state, 0, g.scenario.tables, _JUMPS[where], g._mask[0])


@_edit
def clear_board(g: Game) -> None:
    """Return every bystander, minion and captive to the supplies; empty threat areas of
    villain cards (back into the villain deck)."""
    f = g.field
    f("bystander_supply")[...] += int(f("bystander_on").sum()) + int(f("captured").sum())
    f("bystander_on")[:] = 0
    f("captured")[:] = 0
    on = f("sby_on")
    for j in range(len(f("sby_supply"))):
        f("sby_supply")[j] += int((on == j).sum()) + int(f("sby_capt")[:, j].sum())
    on[:] = -1
    f("sby_capt")[:] = 0
    f("minion_supply")[...] += int(f("minions").sum())
    f("minions")[:] = 0
    f("smin_supply")[:] += f("smin").sum(axis=0)
    f("smin")[:] = 0
    f("smin_dmg")[:] = 0
    for i in np.flatnonzero((f("vloc") == L.L_THREAT) | (f("vloc") == L.L_ATTACHED)):
        _villain_card_to_deck(g, int(i))


@_edit
def put_special_minions(g: Game, card: int, panel: int, n: int, damage: int = 0) -> None:
    """Move ``n`` of special Minion card ``card``'s minions from the supply to ``panel``
    (Special Minions rule), with ``damage`` kept on the wounded one."""
    f = g.field
    if int(f("smin_supply")[card]) < n:
        raise ValueError(f"only {int(f('smin_supply')[card])} of special minion {card} "
                         f"in the supply, asked for {n}")
    f("smin_supply")[card] -= n
    f("minion_supply")[...] -= n
    f("smin")[panel, card] += n
    f("minions")[panel] += n
    f("smin_dmg")[panel, card] = damage


@_edit
def put_special_bystander(g: Game, card: int, where: str | int) -> None:
    """Take one of special Bystander card ``card``'s figures from the supply (Special
    Bystanders rule) and put it on a map space or, for ``"panel K"``, captive in panel K."""
    f = g.field
    if int(f("sby_supply")[card]) < 1:
        raise ValueError(f"no figure of special bystander {card} left in the supply")
    sp = space(g, where)
    f("sby_supply")[card] -= 1
    f("bystander_supply")[...] -= 1
    if g.scenario.tables.space_kind[sp] == SP_SCHEME:
        panel = int(g.scenario.tables.space_arg[sp])
        f("captured")[panel] += 1
        f("sby_capt")[panel, card] += 1
    else:
        if f("bystander_on")[sp]:
            raise ValueError(f"a bystander already stands on {g.scenario.space_labels[sp]}")
        f("bystander_on")[sp] = 1
        f("sby_on")[sp] = card


def _deck_of(i: int) -> tuple[str, str, int]:
    """The order and count fields of the deck villain card slot ``i`` belongs to, and its
    place in that deck's order (slots of the second villain, Two Fronts, come after the
    first villain's ``VDECK``)."""
    v = i // L.VDECK
    prefix = ("vdeck", "vdeck2")[v]
    return prefix + "_order", prefix + "_n", i - v * L.VDECK


def _villain_card_to_deck(g: Game, i: int) -> None:
    f = g.field
    order_name, n_name, local = _deck_of(i)
    n = int(f(n_name))
    f("vloc")[i] = L.L_DECK
    f("vowner")[i] = -1
    f("vpos")[i] = -1
    f("vattach")[i] = -1
    f("vdmg")[i] = 0
    f("vjust")[i] = 0
    f(order_name)[n] = local
    f(n_name)[...] = n + 1


def _take_from_deck(order: np.ndarray, n_field: np.ndarray, card: int) -> None:
    n = int(n_field)
    idx = list(order[:n]).index(card)
    order[idx:n - 1] = order[idx + 1:n].copy()
    n_field[...] = n - 1


@_edit
def place_hero(g: Game, seat: int, where: str | int) -> None:
    """Put hero ``seat`` in a space (a scheme space puts them in its panel)."""
    g.field("hloc")[seat] = space(g, where)


@_edit
def place_ally(g: Game, seat: int, where: str | int, damage: int = 0) -> None:
    """Put seat ``seat``'s ally figure (Allies rule) in a map space with ``damage`` on it."""
    if not g.scenario.tables.ally[seat, 0]:
        raise ValueError(f"seat {seat} has no Ally card (rules={{'allies': [...]}})")
    g.field("ally_loc")[seat] = space(g, where)
    g.field("ally_dmg")[seat] = damage


@_edit
def set_hero(g: Game, seat: int, *, damage: int | None = None, focus: int | None = None,
             focused: bool | None = None, actions: int | None = None,
             pilot_damage: int | None = None) -> None:
    """Edit hero ``seat``. For a hero with forms ``focused=True`` means in the mech and
    ``pilot_damage`` is the pilot's damage set aside meanwhile (``damage`` is the mech's)."""
    _put(g.field, seat, {"hdmg": damage, "hpilot_dmg": pilot_damage, "hfocus": focus,
                         "hside": focused, "hactions": actions})


@_edit
def give_cards(g: Game, seat: int, names: Sequence[str], zone: str = "hand") -> list[int]:
    """Move the named hero cards of ``seat`` into ``zone`` (``hand``, ``play``, ``discard``).

    Returns their card indices (the indices PLAY/CARD actions use).
    """
    zones = {"hand": L.L_HAND, "play": L.L_PLAY, "discard": L.L_DISCARD}
    f = g.field
    cards = g.scenario.hero_card_names[seat]
    taken: set[int] = set()
    out = []
    for name in names:
        c = _index(cards, name, "hero card", taken | set(
            int(x) for x in np.flatnonzero(f("hcloc")[seat] == zones[zone])))
        taken.add(c)
        if f("hcloc")[seat][c] == L.L_DECK:
            _take_from_deck(f("hdeck_order")[seat], f("hdeck_n")[seat:seat + 1].reshape(()), c)
        f("hcloc")[seat][c] = zones[zone]
        out.append(c)
    return out


@_edit
def empty_hand(g: Game, seat: int) -> None:
    """Discard hero ``seat``'s hand."""
    zones = g.field("hcloc")[seat]
    zones[zones == L.L_HAND] = L.L_DISCARD


@_edit
def give_clue(g: Game, seat: int, name: str) -> int:
    """Give hero ``seat`` a clue card from the clue deck; returns its index."""
    f = g.field
    in_deck = [i for i in range(len(g.scenario.clue_names)) if f("clue_loc")[i] == -1]
    i = _index(g.scenario.clue_names, name, "clue card in the deck",
               set(range(len(g.scenario.clue_names))) - set(in_deck))
    _take_from_deck(f("clue_order"), f("clue_n"), i)
    f("clue_loc")[i] = seat
    return i


@_edit
def add_villain_card(g: Game, name: str, seat: int, where: str | int | None = None) -> int:
    """Put a Lackey or Peril card from the villain deck into ``seat``'s threat area.

    Its figure/token goes to ``where`` (default: its colour's space). Returns the card index.
    """
    sc = g.scenario
    f = g.field
    i = _index(sc.villain_card_names, name, "villain card",
               set(int(x) for x in np.flatnonzero(f("vloc") != L.L_DECK)))
    typ = int(sc.tables.vcard[i, VC_TYPE])
    if typ not in (VT_LACKEY, VT_PERIL):
        raise ValueError(f"{name!r} is not a Lackey or Peril card")
    order_name, n_name, local = _deck_of(i)
    _take_from_deck(f(order_name), f(n_name), local)
    color = int(sc.tables.vcard[i, 3])
    default = sc.tables.lackey_space[color] if typ == VT_LACKEY else sc.tables.peril_space[color]
    f("vloc")[i] = L.L_THREAT
    f("vowner")[i] = seat
    f("vpos")[i] = space(g, where) if where is not None else int(default)
    f("vdmg")[i] = 0
    f("vjust")[i] = 0
    f("vexh")[i] = 0
    return i


@_edit
def stack_villain_deck(g: Game, names: Sequence[str], villain: int = 0) -> list[int]:
    """Put the named villain-deck cards on top, ``names[0]`` drawn first; ``villain`` 1 is
    the second villain's deck (Two Fronts). Returns their villain card slots."""
    _check_villain(g, villain)
    first = villain * L.VDECK
    own = g.scenario.villain_card_names[first:first + L.VDECK]
    prefix = ("vdeck", "vdeck2")[villain]
    return [first + c for c in _stack(g, own, prefix + "_order", prefix + "_n", names)]


def _check_villain(g: Game, villain: int) -> None:
    if villain not in (0, 1) or villain >= g.scenario.n_villains:
        raise ValueError(f"villain must be 0 or, with two villains, 1; got {villain!r}")


@_edit
def stack_issue_deck(g: Game, names: Sequence[str]) -> list[int]:
    """Put the named issue-deck cards on top, ``names[0]`` drawn first."""
    return _stack(g, g.scenario.issue_card_names, "ideck_order", "ideck_n", names)


def _stack(g: Game, all_names: Sequence[str], order_f: str, n_f: str,
           names: Sequence[str]) -> list[int]:
    f = g.field
    order = f(order_f)
    n = int(f(n_f))
    deck = [int(x) for x in order[:n]]
    picked = []
    for name in names:
        cands = [c for c in deck if all_names[c] == name and c not in picked]
        if not cands:
            raise ValueError(f"no card named {name!r} left in the deck")
        picked.append(cands[0])
    rest = [c for c in deck if c not in picked]
    order[:n] = rest + picked[::-1]
    return picked


@_edit
def force_dice(g: Game, faces: Sequence[int]) -> None:
    """Queue die faces used by the next rolls before the random generator."""
    if len(faces) > g.field("dice_queue").shape[0]:
        raise ValueError("at most 32 forced faces")
    q = g.field("dice_queue")
    q[:len(faces)] = faces
    g.field("dice_n")[...] = len(faces)


@_edit
def set_villain(g: Game, *, side: str | None = None, hidden: int | None = None,
                where: str | int | None = None, damage: int | None = None,
                justice: int | None = None, owner: int | None = None,
                villain: int = 0) -> None:
    """Edit the villain: ``side`` ``"scheming"`` (in a panel) or ``"showdown"`` (on the map);
    ``villain`` 1 edits the second villain (Two Fronts)."""
    _check_villain(g, villain)
    prefix = ("vil_", "vil2_")[villain]

    def f(name: str) -> np.ndarray:
        return g.field(prefix + name[len("vil_"):])

    if side is not None:
        f("vil_side")[...] = 1 if side == "showdown" else 0
        f("vil_in_panel")[...] = 0 if side == "showdown" else 1
        if side == "showdown" and owner is None and int(f("vil_owner")) < 0:
            owner = 0
    _put(f, ..., {"vil_owner": owner, "vil_hidden": hidden, "vil_damage": damage,
                 "vil_justice": justice,
                 "vil_loc": None if where is None else space(g, where)})


@_edit
def set_nemesis(g: Game, slot: int, nemesis: str | None = None, *, seat: int | None = None,
                side: str | None = None, where: str | int | None = None,
                damage: int | None = None, justice: int | None = None,
                exhausted: bool | None = None, defeated: bool = False) -> None:
    """Edit nemesis ``slot`` (0 or 1, target ``T_NEM0 + slot``).

    ``nemesis`` (an id or name from the scenario's pool) deals that card to the slot;
    ``seat`` puts it in that hero's threat area; ``side`` is ``"scheme"`` (the figure in a
    panel: give ``where`` as ``"panel K"``) or ``"enemy"`` (the figure on the map);
    ``defeated`` removes it from the game. Hidden tokens are not touched (``set_villain``).
    """
    sc = g.scenario
    f = g.field
    if not 0 <= slot < len(f("nem_card")):
        raise ValueError(f"nemesis slot must be 0 or 1, got {slot}")
    if nemesis is not None:
        names = list(sc.nemesis_ids) + list(sc.nemesis_names)
        if nemesis not in names:
            raise ValueError(f"no nemesis {nemesis!r} in the pool (pool: {sc.nemesis_ids})")
        f("nem_card")[slot] = names.index(nemesis) % len(sc.nemesis_ids)
        f("nem_dmg")[slot] = 0
        f("nem_just")[slot] = 0
        f("nem_exh")[slot] = 0
    if seat is not None:
        f("nem_owner")[slot] = seat
    if side is not None:
        if side not in ("scheme", "enemy"):
            raise ValueError(f"side must be 'scheme' or 'enemy', got {side!r}")
        f("nem_side")[slot] = int(side == "enemy")
    _put(f, slot, {"nem_dmg": damage, "nem_just": justice, "nem_exh": exhausted,
                   "nem_pos": None if where is None else space(g, where)})
    if defeated:
        f("nem_owner")[slot] = -1
        f("nem_pos")[slot] = -1


# --- Scheme and issue cards in threat areas ---------------------------------------------------

def _issue_card(g: Game, card: str | int) -> int:
    """Index of issue-deck card ``card`` (a name, the first copy, or an index)."""
    names = g.scenario.issue_card_names
    if isinstance(card, (int, np.integer)) and not isinstance(card, bool):
        if not 0 <= int(card) < len(names) or not names[int(card)]:
            raise ValueError(f"no issue card {int(card)} in this game")
        return int(card)
    return _index(names, card, "issue card")


def _is_scheme(g: Game, i: int) -> bool:
    return int(g.scenario.tables.icard[i, IC_TYPE]) == IT_SCHEME


def _unsolved_scheme(g: Game, i: int) -> bool:
    """Scheme card ``i`` shows its Scheme side in a threat area (it holds a hidden token)."""
    f = g.field
    return _is_scheme(g, i) and f("iloc")[i] == L.L_THREAT and f("iside")[i] == 0


def _move_hidden_token(g: Game, seat: int, change: int) -> None:
    """Add (``change`` 1) or take (-1) the hidden token of a Scheme card held by ``seat``:
    on the Villain card (Two Fronts: of the villain ``seat`` faces; a token taken from a
    villain with none left comes off the other, as ``core/two_fronts.take_hidden_token``)."""
    f = g.field
    v = int(f("hface")[seat]) if g.scenario.two_fronts and seat >= 0 else 0
    if change < 0 and g.scenario.two_fronts and int(f(("vil_hidden", "vil2_hidden")[v])) == 0:
        v = 1 - v
    f(("vil_hidden", "vil2_hidden")[v])[...] += change


def _issue_out_of_play(g: Game, i: int, zone: int) -> None:
    """Take issue card ``i`` out of wherever it is (deck, threat area, map) into ``zone``."""
    f = g.field
    if _unsolved_scheme(g, i):
        _move_hidden_token(g, int(f("iowner")[i]), -1)
    if f("iloc")[i] == L.L_DECK:
        _take_from_deck(f("ideck_order"), f("ideck_n"), i)
    f("iloc")[i] = zone
    f("iowner")[i] = -1
    f("ipos")[i] = -1
    f("ijust")[i] = 0
    f("idmg")[i] = 0
    f("iexh")[i] = 0
    f("iside")[i] = 0


@_edit
def remove_issue_card(g: Game, card: str | int) -> None:
    """Take issue-deck card ``card`` (a Scheme or an issue card) out of the game; an
    unsolved Scheme takes its hidden token off the Villain card with it."""
    i = _issue_card(g, card)
    _issue_out_of_play(g, i, L.L_REMOVED)


@_edit
def remove_schemes(g: Game, seat: int | None = None) -> None:
    """Take every Scheme card out of the threat areas (of ``seat`` only when given), out of
    the game, with their hidden tokens."""
    f = g.field
    for i in range(L.IDECK):
        if (g.scenario.issue_card_names[i] and _is_scheme(g, i) and f("iloc")[i] == L.L_THREAT
                and (seat is None or f("iowner")[i] == seat)):
            _issue_out_of_play(g, i, L.L_REMOVED)


@_edit
def put_issue_card(g: Game, card: str | int, seat: int, where: str | int | None = None, *,
                   flipped: bool = False, damage: int = 0, justice: int = 0) -> int:
    """Put issue-deck card ``card`` into ``seat``'s threat area, from wherever it is.

    A Scheme card stands at its panel's scheme space, Scheme side up (one more hidden token
    on the Villain card), or flipped (``flip_scheme``). A staying issue card stands at its
    printed location; ``where`` overrides either. Returns the card index.
    """
    i = _issue_card(g, card)
    T = g.scenario.tables
    scheme = _is_scheme(g, i)
    if not scheme and not (T.icard[i, IC_TYPE] == IT_ISSUE and T.icard[i, IC_STAYS] == 1):
        raise ValueError(f"{g.scenario.issue_card_names[i]!r} does not stay in a threat area "
                         "(neither a Scheme card nor a staying issue card)")
    _issue_out_of_play(g, i, L.L_THREAT)
    f = g.field
    f("iowner")[i] = seat
    if scheme:
        f("ipos")[i] = int(T.scheme_space[T.icard[i, IC_PANEL]])
        _move_hidden_token(g, seat, +1)
    else:
        loc = int(T.icard[i, IC_LOCATION])
        if where is None and loc < 0:
            raise ValueError(f"{g.scenario.issue_card_names[i]!r} has no printed location: "
                             "give where=")
        f("ipos")[i] = loc
    if where is not None:
        f("ipos")[i] = space(g, where)
    if scheme and flipped:
        flip_scheme(g, i, where)
    set_card(g, L.T_I0 + i, damage=damage, justice=justice)
    return i


@_edit
def flip_scheme(g: Game, card: str | int, where: str | int | None = None) -> int:
    """Turn Scheme card ``card`` in a threat area to its other side, as if solved (one
    hidden token leaves the Villain card; justice and damage are cleared). A problem side
    stands at its printed location (else its panel's scheme space), an enemy side at the
    scheme space; ``where`` overrides. Returns the card index."""
    i = _issue_card(g, card)
    T = g.scenario.tables
    f = g.field
    name = g.scenario.issue_card_names[i]
    if not _unsolved_scheme(g, i):
        raise ValueError(f"{name!r} is not a Scheme card Scheme side up in a threat area")
    back = int(T.icard[i, IC_BACK])
    if back == BACK_NONE:
        raise ValueError(f"{name!r} has no other side (solved, it leaves the game: "
                         "use remove_issue_card)")
    f("iside")[i] = 1
    f("ijust")[i] = 0
    f("idmg")[i] = 0
    _move_hidden_token(g, int(f("iowner")[i]), -1)
    loc = int(T.icard[i, IC_LOCATION])
    if where is not None:
        f("ipos")[i] = space(g, where)
    elif back == BACK_PROBLEM and loc >= 0:
        f("ipos")[i] = loc
    elif back in (BACK_PROBLEM, BACK_ENEMY):
        f("ipos")[i] = int(T.scheme_space[T.icard[i, IC_PANEL]])
    return i


# --- cards in threat areas and play areas ------------------------------------------------------

def _target(g: Game, card: str | int) -> int:
    """A threat-area card as a ``T_*`` target: a target index, or the name of a villain
    card or issue card in a threat area (the first such copy), of the villain or a nemesis."""
    sc = g.scenario
    f = g.field
    if isinstance(card, (int, np.integer)) and not isinstance(card, bool):
        return int(card)
    for i, n in enumerate(sc.villain_card_names):
        if n == card and f("vloc")[i] == L.L_THREAT:
            return L.vcard_target(i)
    for i, n in enumerate(sc.issue_card_names):
        if n == card and f("iloc")[i] == L.L_THREAT:
            return L.T_I0 + i
    if card == sc.villain_name:
        return L.T_VILLAIN
    if sc.two_fronts and card == sc.villain_names[1]:
        return L.T_VILLAIN2
    for k in range(len(f("nem_card"))):
        c = int(f("nem_card")[k])
        if c >= 0 and card in (sc.nemesis_names[c], *sc.nemesis_side_names[c]):
            return L.T_NEM0 + k
    raise ValueError(f"no card named {card!r} in a threat area")


@_edit
def set_card(g: Game, card: str | int, *, damage: int | None = None,
             justice: int | None = None, exhausted: bool | None = None) -> None:
    """Edit a villain or issue card in a threat area (a name or a ``T_*`` target index):
    damage (below its health), justice (below its danger) and whether it is exhausted."""
    t = _target(g, card)
    f = g.field
    if L.is_vcard_target(t):
        i, pre = L.vcard_of(t), "v"
        if f("vloc")[i] != L.L_THREAT:
            raise ValueError(f"villain card {g.scenario.villain_card_names[i]!r} is not in "
                             "a threat area")
    elif t < L.T_VILLAIN:
        i, pre = t - L.T_I0, "i"
        if f("iloc")[i] != L.L_THREAT:
            raise ValueError(f"issue card {g.scenario.issue_card_names[i]!r} is not in a "
                             "threat area")
    else:
        raise ValueError(f"set_card edits villain and issue cards; use set_villain or "
                         f"set_nemesis for target {t}")
    values = card_values(g.scenario, g.state[0], t)  # printed, scaled to the team
    for what, v, key in (("damage", damage, "health"), ("justice", justice, "danger")):
        if v is None:
            continue
        limit = values.get(key, 1)  # no such value: only 0 fits; None: a "-" value
        if v < 0 or (limit is not None and v >= limit):
            raise ValueError(f"{what} {v} on {_card_label(g, t)}: allowed 0.."
                             f"{limit - 1 if limit is not None else ''} (its {key}: "
                             f"{values.get(key, 'none')})")
        f(f"{pre}{'dmg' if what == 'damage' else 'just'}")[i] = v
    if exhausted is not None:
        f(f"{pre}exh")[i] = int(exhausted)


def _card_label(g: Game, t: int) -> str:
    from hon_env.describe import target_name

    return repr(target_name(g.scenario, t, g.state[0]))


@_edit
def exhaust(g: Game, card: str | int, seat: int = 0, exhausted: bool = True) -> None:
    """Exhaust (or ready) a card: ``"hero"`` (seat's Hero card), ``"ally"`` (seat's Ally
    card), a card in seat's hero play area by name, or a threat-area card, the villain or a
    nemesis by name or ``T_*`` target."""
    f = g.field
    if card == "hero":
        f("hexh")[seat] = int(exhausted)
    elif card == "ally":
        if not g.scenario.tables.ally[seat, 0]:
            raise ValueError(f"seat {seat} has no Ally card")
        f("ally_exh")[seat] = int(exhausted)
    elif isinstance(card, str) and card in g.scenario.hero_card_names[seat]:
        names = g.scenario.hero_card_names[seat]
        in_play = [c for c, n in enumerate(names) if n == card and f("hcloc")[seat][c] == L.L_PLAY]
        if not in_play:
            raise ValueError(f"{card!r} is not in seat {seat}'s play area")
        f("hcexh")[seat][in_play[0]] = int(exhausted)
    else:
        t = _target(g, card)
        if t == L.T_VILLAIN:
            if int(f("vil_owner")) < 0:
                raise ValueError("the Villain card is not in a threat area")
            f("vil_exh")[...] = int(exhausted)
        elif L.T_NEM0 <= t < L.T_MINION:
            f("nem_exh")[t - L.T_NEM0] = int(exhausted)
        else:
            set_card(g, t, exhausted=exhausted)


# --- figures: bystanders and minions ----------------------------------------------------------

def _check_seat(g: Game, seat: int) -> None:
    check_int(seat, "seat", f" in [0, {g.scenario.n_heroes})")
    if not 0 <= seat < g.scenario.n_heroes:
        raise ValueError(f"seat must be in [0, {g.scenario.n_heroes}), got {seat}")


def _panel(g: Game, panel: int) -> int:
    n = int(g.scenario.tables.cfg[CFG_N_PANELS])
    if not 1 <= panel <= n:
        raise ValueError(f"no scheme panel {panel} on this board (panels 1..{n})")
    return panel


@_edit
def put_bystander(g: Game, where: str | int, n: int = 1) -> None:
    """Take ``n`` normal bystanders from the supply: onto a map space (one at most), or,
    for ``"panel K"`` (its scheme space), captive in panel K."""
    f = g.field
    if int(f("bystander_supply")) - int(f("sby_supply").sum()) < n:
        raise ValueError(f"only {int(f('bystander_supply')) - int(f('sby_supply').sum())} "
                         f"normal bystanders in the supply, asked for {n}")
    sp = space(g, where)
    T = g.scenario.tables
    if T.space_kind[sp] == SP_SCHEME:
        f("captured")[int(T.space_arg[sp])] += n
    else:
        label = g.scenario.space_labels[sp]
        if T.space_kind[sp] == SP_NONE:
            raise ValueError(f"{label} is not a map space")
        if n != 1 or f("bystander_on")[sp]:
            raise ValueError(f"one bystander at most on a map space ({label})")
        f("bystander_on")[sp] = 1
    f("bystander_supply")[...] -= n


@_edit
def remove_bystander(g: Game, where: str | int, n: int = 1) -> None:
    """Return bystanders to the supply: the one on a map space, or ``n`` normal captives of
    panel K for ``"panel K"``."""
    f = g.field
    sp = space(g, where)
    T = g.scenario.tables
    if T.space_kind[sp] == SP_SCHEME:
        k = int(T.space_arg[sp])
        normal = int(f("captured")[k]) - int(f("sby_capt")[k].sum())
        if normal < n:
            raise ValueError(f"only {normal} normal captives in panel {k}, asked for {n}")
        f("captured")[k] -= n
    else:
        if not f("bystander_on")[sp]:
            raise ValueError(f"no bystander on {g.scenario.space_labels[sp]}")
        j = int(f("sby_on")[sp])
        if j >= 0:
            f("sby_supply")[j] += 1
            f("sby_on")[sp] = -1
        f("bystander_on")[sp] = 0
        n = 1
    f("bystander_supply")[...] += n


@_edit
def put_minions(g: Game, panel: int, n: int) -> None:
    """Move ``n`` normal minions from the supply to scheme panel ``panel``."""
    f = g.field
    normal = int(f("minion_supply")) - int(f("smin_supply").sum())
    if normal < n:
        raise ValueError(f"only {normal} normal minions in the supply, asked for {n}")
    f("minion_supply")[...] -= n
    f("minions")[_panel(g, panel)] += n


@_edit
def remove_minions(g: Game, panel: int, n: int) -> None:
    """Return ``n`` normal minions of panel ``panel`` to the supply."""
    f = g.field
    normal = int(f("minions")[_panel(g, panel)]) - int(f("smin")[panel].sum())
    if normal < n:
        raise ValueError(f"only {normal} normal minions in panel {panel}, asked for {n}")
    f("minions")[panel] -= n
    f("minion_supply")[...] += n


# --- issue counters and decks -----------------------------------------------------------------

@_edit
def set_counter(g: Game, name: str, value: int) -> None:
    """Set the issue counter ``name`` (e.g. ``"gold"``; ``scenario.counter_names``)."""
    names = g.scenario.counter_names
    if name not in names:
        raise ValueError(f"no issue counter {name!r} (counters: {list(names)})")
    if value < 0:
        raise ValueError(f"counter {name!r} must be >= 0, got {value}")
    g.field("counters")[names.index(name)] = value


_DECKS = ("hero", "villain", "issue", "clue")


@_edit
def discard_from_deck(g: Game, deck: str, n: int | None = None, seat: int = 0) -> list[int]:
    """Move the top ``n`` cards (all when None) of a deck to its discard pile: ``"hero"``
    (``seat``'s), ``"villain"``, ``"issue"`` or ``"clue"``. Returns the cards moved."""
    f = g.field
    if deck == "hero":
        order, n_f, zone, gone = (f("hdeck_order")[seat], f("hdeck_n")[seat:seat + 1].reshape(()),
                                  f("hcloc")[seat], L.L_DISCARD)
    elif deck == "villain":
        order, n_f, zone, gone = f("vdeck_order"), f("vdeck_n"), f("vloc"), L.L_DISCARD
    elif deck == "issue":
        order, n_f, zone, gone = f("ideck_order"), f("ideck_n"), f("iloc"), L.L_DISCARD
    elif deck == "clue":
        order, n_f, zone, gone = f("clue_order"), f("clue_n"), f("clue_loc"), -2
    else:
        raise ValueError(f"deck must be one of {list(_DECKS)}, got {deck!r}")
    size = int(n_f)
    n = size if n is None else n
    if not 0 <= n <= size:
        raise ValueError(f"the {deck} deck holds {size} cards, asked to discard {n}")
    moved = [int(c) for c in order[size - n:size][::-1]]  # the top is the last entry
    for c in moved:
        zone[c] = gone
    n_f[...] = size - n
    return moved


# --- playing on to a decision -----------------------------------------------------------------

def run_to(g: Game, decision: str, policy=None, *, seat: int | None = None, seed: int = 0,
           max_decisions: int = 10_000) -> bool:
    """Answer decisions with ``policy`` until one of kind ``decision`` (``DECISION_NAMES``,
    e.g. ``"attack_space"``) is pending, for ``seat`` when given.

    ``policy(g) -> action`` defaults to uniformly random legal actions drawn from
    ``seed``. Returns True when such a decision is pending (at once if it already is),
    False when the game ended first; raises after ``max_decisions`` answers.
    """
    if decision not in L.DECISION_NAMES:
        raise ValueError(f"unknown decision {decision!r}; decisions are "
                         f"{', '.join(L.DECISION_NAMES[1:])}")
    if policy is None:
        rng = np.random.default_rng(seed)

        def policy(game: Game) -> int:
            return int(rng.choice(game.legal_actions()))
    for answered in range(max_decisions + 1):
        if g.is_over:
            return False
        if g.decision == decision and (seat is None or g.current_seat == seat):
            return True
        if answered == max_decisions:
            break
        g.apply(policy(g))
    raise RuntimeError(f"no {decision!r} decision within {max_decisions} decisions")


def hero_card_index(g: Game, seat: int, name: str) -> int:
    return _index(g.scenario.hero_card_names[seat], name, "hero card")


__all__ = [
    "FACE_BLANK", "FACE_BURST", "FACE_FOCUS", "FACE_SUCCESS", "FACE_SUCCESS_FOCUS", "HERO_DECK",
    "add_villain_card", "clear_board", "discard_from_deck", "empty_hand", "exhaust",
    "flip_scheme", "force_dice", "give_cards", "give_clue", "hero_card_index", "jump",
    "place_hero", "put_bystander", "put_issue_card", "put_minions", "put_special_bystander",
    "put_special_minions", "remask", "remove_bystander", "remove_issue_card", "remove_minions",
    "remove_schemes", "run_to", "set_card", "set_counter", "set_hero", "set_nemesis",
    "set_villain", "space", "stack_issue_deck", "stack_villain_deck",
]
