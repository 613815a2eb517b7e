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

Die faces are forced with ``force_dice(g, [...])`` using face indices of the scenario's
``dice_faces`` rule (default: 0 blank, 1 success, 2 success, 3 success+focus, 4 focus,
5 burst).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hon_env.content.tables import (
    CFG_N_PANELS,
    HERO_DECK,
    SP_SCHEME,
    VC_TYPE,
    VT_LACKEY,
    VT_PERIL,
)
from hon_env.core import layout as L
from hon_env.core.positions import (
    JUMP_HERO_TURN,
    JUMP_ISSUE_TURN,
    JUMP_VILLAIN_TURN,
    jump_to,
)
from hon_env.game import Game

FACE_BLANK, FACE_SUCCESS, FACE_SUCCESS_FOCUS, FACE_FOCUS, FACE_BURST = 0, 1, 3, 4, 5
_JUMPS = {"villain_turn": JUMP_VILLAIN_TURN, "hero_turn": JUMP_HERO_TURN,
          "issue_turn": JUMP_ISSUE_TURN}


def space(g: Game, where: str | int) -> int:
    """Space index from an index, a label like ``"D4"`` or ``"panel K"``."""
    sc = g.scenario
    if isinstance(where, (int, np.integer)):
        return int(where)
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


def jump(g: Game, where: str) -> None:
    """Restart the flow at ``"villain_turn"``, ``"hero_turn"`` or ``"issue_turn"``.

    Setup steps still pending are dropped: jumping from a fresh game skips the mulligans,
    the issue's Setup effect and the nemesis step, so place nemesis figures with
    ``set_nemesis`` (a dealt nemesis has no figure until the nemesis step).
    """
    if where not in _JUMPS:
        raise ValueError(f"jump target must be one of {sorted(_JUMPS)}, got {where!r}")
    jump_to(g.state, 0, g.scenario.tables, _JUMPS[where], g._mask[0])


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


def _villain_card_to_deck(g: Game, i: int) -> None:
    f = g.field
    n = int(f("vdeck_n"))
    f("vloc")[i] = L.L_DECK
    f("vowner")[i] = -1
    f("vpos")[i] = -1
    f("vattach")[i] = -1
    f("vdmg")[i] = 0
    f("vjust")[i] = 0
    f("vdeck_order")[n] = i
    f("vdeck_n")[...] = n + 1


def _take_from_deck(order: np.ndarray, n_field: np.ndarray, card: int) -> None:
    n = int(n_field)
    idx = list(order[:n]).index(card)
    order[idx:n - 1] = order[idx + 1:n].copy()
    n_field[...] = n - 1


def place_hero(g: Game, seat: int, where: str | int) -> None:
    """Put hero ``seat`` in a space (a scheme space puts them in its panel)."""
    g.field("hloc")[seat] = space(g, where)


def place_ally(g: Game, seat: int, where: str | int, damage: int = 0) -> None:
    """Put seat ``seat``'s ally figure (Allies rule) in a map space with ``damage`` on it."""
    if not g.scenario.tables.ally[seat, 0]:
        raise ValueError(f"seat {seat} has no Ally card (rules={{'allies': [...]}})")
    g.field("ally_loc")[seat] = space(g, where)
    g.field("ally_dmg")[seat] = damage


def set_hero(g: Game, seat: int, *, damage: int | None = None, focus: int | None = None,
             focused: bool | None = None, actions: int | None = None,
             pilot_damage: int | None = None) -> None:
    """Edit hero ``seat``. For a hero with forms ``focused=True`` means in the mech and
    ``pilot_damage`` is the pilot's damage set aside meanwhile (``damage`` is the mech's)."""
    f = g.field
    if damage is not None:
        f("hdmg")[seat] = damage
    if pilot_damage is not None:
        f("hpilot_dmg")[seat] = pilot_damage
    if focus is not None:
        f("hfocus")[seat] = focus
    if focused is not None:
        f("hside")[seat] = int(focused)
    if actions is not None:
        f("hactions")[seat] = actions


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


def empty_hand(g: Game, seat: int) -> None:
    """Discard hero ``seat``'s hand."""
    zones = g.field("hcloc")[seat]
    zones[zones == L.L_HAND] = L.L_DISCARD


def give_clue(g: Game, seat: int, name: str) -> int:
    """Give hero ``seat`` a clue card from the clue deck; returns its index."""
    f = g.field
    in_deck = [i for i in range(len(g.scenario.clue_names)) if f("clue_loc")[i] == -1]
    i = _index(g.scenario.clue_names, name, "clue card in the deck",
               set(range(len(g.scenario.clue_names))) - set(in_deck))
    _take_from_deck(f("clue_order"), f("clue_n"), i)
    f("clue_loc")[i] = seat
    return i


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
    _take_from_deck(f("vdeck_order"), f("vdeck_n"), i)
    color = int(sc.tables.vcard[i, 3])
    default = sc.tables.lackey_space[color] if typ == VT_LACKEY else sc.tables.peril_space[color]
    f("vloc")[i] = L.L_THREAT
    f("vowner")[i] = seat
    f("vpos")[i] = space(g, where) if where is not None else int(default)
    f("vdmg")[i] = 0
    f("vjust")[i] = 0
    f("vexh")[i] = 0
    return i


def stack_villain_deck(g: Game, names: Sequence[str]) -> list[int]:
    """Put the named villain-deck cards on top, ``names[0]`` drawn first."""
    return _stack(g, g.scenario.villain_card_names, "vdeck_order", "vdeck_n", names)


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


def force_dice(g: Game, faces: Sequence[int]) -> None:
    """Queue die faces used by the next rolls before the random generator."""
    if len(faces) > g.field("dice_queue").shape[0]:
        raise ValueError("at most 32 forced faces")
    q = g.field("dice_queue")
    q[:len(faces)] = faces
    g.field("dice_n")[...] = len(faces)


def set_villain(g: Game, *, side: str | None = None, hidden: int | None = None,
                where: str | int | None = None, damage: int | None = None,
                justice: int | None = None, owner: int | None = None) -> None:
    """Edit the villain: ``side`` ``"scheming"`` (in a panel) or ``"showdown"`` (on the map)."""
    f = g.field
    if side is not None:
        f("vil_side")[...] = 1 if side == "showdown" else 0
        f("vil_in_panel")[...] = 0 if side == "showdown" else 1
        if side == "showdown" and owner is None and int(f("vil_owner")) < 0:
            owner = 0
    if owner is not None:
        f("vil_owner")[...] = owner
    if hidden is not None:
        f("vil_hidden")[...] = hidden
    if where is not None:
        f("vil_loc")[...] = space(g, where)
    if damage is not None:
        f("vil_damage")[...] = damage
    if justice is not None:
        f("vil_justice")[...] = justice


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
    if where is not None:
        f("nem_pos")[slot] = space(g, where)
    if damage is not None:
        f("nem_dmg")[slot] = damage
    if justice is not None:
        f("nem_just")[slot] = justice
    if exhausted is not None:
        f("nem_exh")[slot] = int(exhausted)
    if defeated:
        f("nem_owner")[slot] = -1
        f("nem_pos")[slot] = -1


def hero_card_index(g: Game, seat: int, name: str) -> int:
    return _index(g.scenario.hero_card_names[seat], name, "hero card")


__all__ = [
    "FACE_BLANK", "FACE_BURST", "FACE_FOCUS", "FACE_SUCCESS", "FACE_SUCCESS_FOCUS", "HERO_DECK",
    "add_villain_card", "clear_board", "empty_hand", "force_dice", "give_cards", "give_clue",
    "hero_card_index", "jump", "place_hero", "put_special_bystander", "put_special_minions",
    "set_hero", "set_nemesis", "set_villain", "space", "stack_issue_deck", "stack_villain_deck",
]
