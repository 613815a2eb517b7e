"""The cards a person at the table can see, each with its name and rules text: what the
front ends (``hon-play`` in the terminal and browser, ``hon-replay``) show beside a card.

The text is ``hon_env.content.card_text.card_text``; this module only finds the cards:
a hand (``hand``), the card an action names (``action_card``) and the cards in play
(``in_play``: every hero's Hero card, threat area, play area, clues and ally; the Villain
card; crisis cards and special Minion and Bystander cards). Nothing hidden from the heroes
is listed here except the villain agent's hand, asked for by seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from hon_env.content import Scenario
from hon_env.content.card_text import CardRef, card_name, card_text
from hon_env.describe import action_card as _action_ref
from hon_env.describe import target_card, target_name
from hon_env.game import Game
from hon_env.spec import layout as L
from hon_env.spec.tables import HERO_DECK, IDECK, VDECK


@dataclass(frozen=True)
class Card:
    """One card as a person sees it."""

    name: str
    text: str  # its rules text in one line (``card_text``)
    ref: CardRef

    @property
    def key(self) -> str:
        """A stable id within one scenario, e.g. ``hero_card:0:7`` (kind:seat:index)."""
        return f"{self.ref.kind}:{self.ref.seat}:{self.ref.index}"

    def to_dict(self) -> dict[str, str]:
        """``{"key", "name", "text"}`` for the browser pages."""
        return {"key": self.key, "name": self.name, "text": self.text}


_MADE: dict[tuple[int, CardRef], tuple[Scenario, Card]] = {}  # by (id(scenario), ref)
MAX_MADE = 4096  # cards kept; a replay page asks for the same few dozen at every position


def card(game: Game, ref: CardRef, name: str | None = None) -> Card:
    """The card ``ref`` of ``game``'s scenario with its name (``name``: as shown instead,
    e.g. a nemesis by its side) and text (kept per scenario object: scenarios are
    immutable)."""
    sc = game.scenario
    hit = _MADE.get((id(sc), ref))
    if hit is None or hit[0] is not sc:
        if len(_MADE) >= MAX_MADE:
            _MADE.clear()
        hit = _MADE[id(sc), ref] = (sc, Card(card_name(sc, *ref), card_text(sc, *ref), ref))
    made = hit[1]
    return made if name is None or name == made.name else Card(name, made.text, ref)


def short(text: str, width: int = 70) -> str:
    """``text`` cut to ``width`` characters with an ellipsis (the terminal's hand table)."""
    return text if len(text) <= width else text[:width - 1].rstrip() + "\u2026"


def hand_title(game: Game, seat: int) -> str:
    """How a human's hand is headed: ``Your hand (Majesty, seat 1)``, or for the villain
    agent's seat ``Your hand (the villain, hidden from the heroes)``."""
    if seat == L.VILLAIN_SEAT:
        return "Your hand (the villain, hidden from the heroes)"
    if game.state[0, L.DRAFTING]:  # the scenario's heroes are placeholders until then
        return f"Your hand (seat {seat + 1}: no hero yet, the draft is on)"
    return f"Your hand ({game.scenario.hero_names[seat]}, seat {seat + 1})"


def hand(game: Game, seat: int) -> list[Card]:
    """The hand of a hero seat, in deck order (as ``Game.snapshot``); for
    ``layout.VILLAIN_SEAT`` the villain agent's hidden hand (Mastermind variant)."""
    if seat == L.VILLAIN_SEAT:
        zones = game.field("vloc")
        return [card(game, CardRef("villain_card", c)) for c in range(VDECK)
                if zones[c] == L.L_HAND]
    if not 0 <= seat < game.scenario.n_heroes or game.state[0, L.DRAFTING]:
        return []
    zones = game.field("hcloc")[seat]  # (read each field once: a view is built per call)
    return [card(game, CardRef("hero_card", c, seat)) for c in range(HERO_DECK)
            if zones[c] == L.L_HAND]


def action_card(game: Game, action: int) -> Card | None:
    """The card ``action`` names in the pending decision (``describe.action_card``)."""
    ref = _action_ref(game.scenario, game.state[0], int(action))
    return card(game, ref) if ref is not None else None


def in_play(game: Game) -> list[tuple[str, list[Card]]]:
    """The public cards in play, as ``(area title, cards)`` with empty areas left out:
    the Villain card(s), crisis cards and special cards, then per hero its Hero card,
    threat area, play area, clues and Ally card. Empty while the seats draft."""
    if game.state[0, L.DRAFTING]:
        return []
    sc = game.scenario
    row = game.state[0]
    # each field read once (Game.field builds a view per call)
    vloc, hcloc, clue_loc = game.field("vloc"), game.field("hcloc"), game.field("clue_loc")
    crisis_area = game.field("crisis_area")[:int(game.field("crisis_area_n"))]
    refs: list[tuple[str, list[CardRef | Card]]] = [
        ("Villain", [CardRef("villain", v) for v in range(sc.n_villains)]),
        ("Crisis cards", [CardRef("crisis", k) for k in range(len(sc.crisis_card_names))]
         + [r for t in crisis_area if (r := target_card(sc, int(t), row)) is not None]),
        ("Special cards", [CardRef("special_minion", j)
                           for j in range(len(sc.special_minion_names))]
         + [CardRef("special_bystander", j) for j in range(len(sc.special_bystander_names))]),
        ("Attached", [CardRef("villain_card", i)
                      for i in range(VDECK * sc.n_villains) if vloc[i] == L.L_ATTACHED]),
    ]
    threats = _threat_areas(game)
    for h in range(sc.n_heroes):
        who = f"{h + 1} {sc.hero_names[h]}"
        refs += [
            (f"{who}: Hero card", [CardRef("hero", h)]),
            (f"{who}: threat area", threats[h]),
            (f"{who}: play area", [CardRef("hero_card", c, h) for c in range(HERO_DECK)
                                   if hcloc[h][c] == L.L_PLAY]),
            (f"{who}: clues", [CardRef("clue", i) for i in range(len(sc.clue_names))
                               if clue_loc[i] == h]),
            (f"{who}: ally", [CardRef("ally", h)] if sc.ally_names[h] else []),
        ]
    return [(title, [r if isinstance(r, Card) else card(game, r) for r in area])
            for title, area in refs if area]


def _threat_areas(game: Game) -> list[list[CardRef | Card]]:
    """Every seat's threat area in the order of ``Game.snapshot``: villain cards, issue
    cards, nemeses (named by the side they show), then the Villain card(s) in showdown."""
    sc = game.scenario
    f = game.field
    row = game.state[0]
    out: list[list[CardRef | Card]] = [[] for _ in range(sc.n_heroes)]

    def add(owner: int, ref: CardRef | Card | None) -> None:
        if 0 <= owner < sc.n_heroes and ref is not None:
            out[owner].append(ref)

    vloc, vowner = f("vloc"), f("vowner")
    for i in range(VDECK * sc.n_villains):
        if vloc[i] == L.L_THREAT:
            add(int(vowner[i]), CardRef("villain_card", i))
    iloc, iowner = f("iloc"), f("iowner")
    for i in range(IDECK):
        if iloc[i] == L.L_THREAT:
            add(int(iowner[i]), CardRef("issue_card", i))
    nem_card, nem_owner = f("nem_card"), f("nem_owner")
    for k in range(len(nem_card)):
        ref = target_card(sc, L.T_NEM0 + k, row)
        if ref is not None:
            add(int(nem_owner[k]), card(game, ref, target_name(sc, L.T_NEM0 + k, row)))
    add(int(f("vil_owner")), CardRef("villain", 0))
    if sc.two_fronts:
        add(int(f("vil2_owner")), CardRef("villain", 1))
    return out
