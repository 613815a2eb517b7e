"""The board model shared by every view: what stands on each map space and what each scheme
panel holds, read from a ``Game`` (``read_board``), plus the short labels the views share.

The text board (``hon_env.views.text``) and the drawn board (``hon_env.views.scene``,
behind the SVG and the raster image) both read the game through ``read_board``; none of them
changes the game (only ``Game.field``/``Game.snapshot`` are read).

The hex map follows the issue's ``board.map`` text: rows top to bottom, odd rows shifted
half a hex to the right. Markers, in text and image alike::

    1..6  hero in that seat (a pilot token is drawn as a small ring, a mech as a square)
    a     ally figure (Allies rule; the image writes its hero's seat on a pale hexagon)
    V     villain figure           L  lackey figure
    W     the second villain's figure (Two Fronts variant)
    p     peril token              b  bystander token       e  issue card (enemy/problem)
    B D   special bystander figure of the 1st / 2nd special Bystander card
    N     nemesis figure (in its panel while scheming)
    c     crisis token (a crisis card with a danger value, solved there)
    S     hero start space         !r !g !u !y  peril space (red/green/blue/yellow)
    P1..P6  scheme space of panel k (figures there are in the panel)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from hon_env.spec import layout as L
from hon_env.spec.tables import (
    CFG_N_PANELS,
    COLOR_NAMES,
    IC_TYPE,
    IDECK,
    IT_SCHEME,
    SP_BYSTANDER,
    SP_PERIL,
    SP_SCHEME,
    SP_START,
    VC_TYPE,
    VDECK,
    VT_LACKEY,
    VT_PERIL,
)

if TYPE_CHECKING:
    from hon_env.content import Scenario
    from hon_env.game import Game

PERIL_LETTERS = "rguy"  # peril colour letters in COLOR_NAMES order, as in the map files
SPECIAL_MARKS = "BD"  # marker of each special Bystander card's figures (Tables.sby row order)


@dataclass
class Space:
    """What stands on one map space."""

    heroes: list[int] = field(default_factory=list)  # seats
    hero_forms: list[str] = field(default_factory=list)  # per seat above: figure/pilot/mech
    allies: list[int] = field(default_factory=list)  # seats whose ally figure stands here
    villain: bool = False
    villain2: bool = False  # the second villain's figure (Two Fronts)
    nemeses: list[str] = field(default_factory=list)
    lackeys: list[str] = field(default_factory=list)
    perils: list[str] = field(default_factory=list)
    issue_cards: list[str] = field(default_factory=list)  # non-Scheme issue cards placed here
    crises: list[str] = field(default_factory=list)  # crisis cards whose token is here
    bystander: bool = False
    special: int = -1  # the bystander is a figure of special Bystander card ``special``

    def markers(self) -> str:
        """The space's figures and tokens as marker letters (see the module doc)."""
        out = "".join(str(h + 1) for h in self.heroes) + "a" * len(self.allies)
        out += "V" if self.villain else ""
        out += "W" if self.villain2 else ""
        out += "N" * len(self.nemeses)
        out += "L" * len(self.lackeys) + "p" * len(self.perils)
        out += "e" * len(self.issue_cards) + "c" * len(self.crises)
        if self.bystander:
            out += SPECIAL_MARKS[self.special] if self.special >= 0 else "b"
        return out

    def in_panel(self) -> list[str]:
        """Figures on a scheme space (they stand in its panel), for the panel summaries."""
        return ([f"hero {h + 1}" for h in self.heroes] + (["villain"] if self.villain else [])
                + (["villain 2"] if self.villain2 else [])
                + self.nemeses + self.lackeys + self.issue_cards + self.crises)


@dataclass
class Panel:
    """A scheme panel: its space, minions, captives and the Scheme card there."""

    number: int
    name: str
    color: str
    space: int
    minions: int
    captives: int
    schemes: list[tuple[str, int]]  # (name, justice) of the Scheme cards at this panel
    specials: str = ""  # which minions are special Minion cards' figures, e.g. " (2 X)"
    special_counts: list[tuple[str, int, int]] = field(default_factory=list)  # (card, n, dmg)
    special_captives: str = ""  # which captives are special Bystander figures, e.g. " (1 Y)"


def read_board(game: Game, snap: dict | None = None) -> tuple[list[Space], list[Panel]]:
    """Per-space contents and per-panel summaries of ``game`` (``snap``: its snapshot, when
    the caller has one)."""
    sc = game.scenario
    T = sc.tables
    f = game.field
    spaces = [Space() for _ in sc.space_labels]
    n = len(spaces)
    forms = [h["form"] for h in (snap or game.snapshot())["heroes"]]
    for h, loc in enumerate(f("hloc")[:sc.n_heroes]):
        if 0 <= loc < n:
            spaces[int(loc)].heroes.append(h)
            spaces[int(loc)].hero_forms.append(forms[h])
    for h, loc in enumerate(f("ally_loc")[:sc.n_heroes]):
        if 0 <= loc < n:
            spaces[int(loc)].allies.append(h)
    vil = int(f("vil_loc"))
    if 0 <= vil < n:
        spaces[vil].villain = True
    vil2 = int(f("vil2_loc"))
    if game.scenario.two_fronts and 0 <= vil2 < n:
        spaces[vil2].villain2 = True
    for sp in np.flatnonzero(f("bystander_on")[:n]):
        spaces[int(sp)].bystander = True
        spaces[int(sp)].special = int(f("sby_on")[sp])
    for nem in _nemesis_figures(game):
        if nem["pos"] >= 0:
            spaces[nem["pos"]].nemeses.append(nem["card"])
    for k, name in enumerate(sc.crisis_card_names):
        pos = int(f("crisis_pos")[k])
        if 0 <= pos < n:
            spaces[pos].crises.append(name)
    scheme_at: dict[int, list[tuple[str, int]]] = {}
    for i in range(VDECK):
        pos = int(f("vpos")[i])
        if f("vloc")[i] != L.L_THREAT or not 0 <= pos < n:
            continue
        kind = int(T.vcard[i, VC_TYPE])
        if kind == VT_LACKEY:
            spaces[pos].lackeys.append(sc.villain_card_names[i])
        elif kind == VT_PERIL:
            spaces[pos].perils.append(sc.villain_card_names[i])
    for i in range(IDECK):
        pos = int(f("ipos")[i])
        if f("iloc")[i] != L.L_THREAT or not 0 <= pos < n:
            continue
        name = sc.issue_card_names[i]
        if T.icard[i, IC_TYPE] == IT_SCHEME and not f("iside")[i]:
            # a Scheme card is the panel's problem, not a figure: listed with the panel
            scheme_at.setdefault(pos, []).append((name, int(f("ijust")[i])))
        else:
            spaces[pos].issue_cards.append(name)
    panels = []
    for k in range(1, int(T.cfg[CFG_N_PANELS]) + 1):
        sp = int(T.scheme_space[k])
        # lackey_space[colour] is the scheme space of the panel of that colour
        colors = np.flatnonzero(T.lackey_space == sp)
        color = int(colors[0]) if len(colors) else -1
        panels.append(Panel(k, sc.panel_names[k], COLOR_NAMES[color] if color >= 0 else "",
                             sp, int(f("minions")[k]), int(f("captured")[k]),
                             scheme_at.get(sp, []), _special_minions(game, k),
                             [(name, int(f("smin")[k, j]), int(f("smin_dmg")[k, j]))
                              for j, name in enumerate(sc.special_minion_names)
                              if f("smin")[k, j]],
                             _special_captives(game, k)))
    return spaces, panels


def _special_captives(game: Game, k: int) -> str:
    """The special bystanders among panel ``k``'s captives (Special Bystanders rule), e.g.
    ``" (1 Foreman's Crew)"``; empty when there are none."""
    f = game.field
    parts = [f"{int(f('sby_capt')[k, j])} {name}"
             for j, name in enumerate(game.scenario.special_bystander_names)
             if f("sby_capt")[k, j]]
    return f" ({'; '.join(parts)})" if parts else ""


def _special_minions(game: Game, k: int) -> str:
    """The special minions among panel ``k``'s minions (Special Minions rule), e.g.
    ``" (2 Phase II Brinkbots, 1 damage kept)"``; empty when there are none."""
    f = game.field
    parts = []
    for j, name in enumerate(game.scenario.special_minion_names):
        n = int(f("smin")[k, j])
        if n:
            dmg = int(f("smin_dmg")[k, j])
            parts.append(f"{n} {name}" + (f", {dmg} damage kept" if dmg else ""))
    return f" ({'; '.join(parts)})" if parts else ""


def _nemesis_figures(game: Game) -> list[dict]:
    """Nemeses in play: their card name (current side) and figure space."""
    f = game.field
    out = []
    for k in range(len(f("nem_card"))):
        if f("nem_card")[k] >= 0 and f("nem_owner")[k] >= 0:
            out.append({"card": game.scenario.nemesis_side_names[int(f("nem_card")[k])][
                int(f("nem_side")[k])], "pos": int(f("nem_pos")[k])})
    return out


def kind_tag(scenario: Scenario, sp: int) -> str:
    """Short tag of a space's kind: S, !r (peril), P3 (scheme panel), b (bystander space)."""
    T = scenario.tables
    kind = int(T.space_kind[sp])
    arg = int(T.space_arg[sp])
    if kind == SP_START:
        return "S"
    if kind == SP_PERIL:
        return "!" + PERIL_LETTERS[arg]
    if kind == SP_SCHEME:
        return f"P{arg}"
    if kind == SP_BYSTANDER:
        return "b"
    return ""


def threat_text(card: dict) -> str:
    """A threat-area card with its attached villain cards, if any."""
    attached = card.get("attached") or []
    return card["card"] + (f" [+{', '.join(attached)}]" if attached else "")


def crisis_status(card: dict) -> str:
    """A crisis card's state: in play without a danger value, justice at its token, solved."""
    if card["danger"] is None:
        return "stays in play"
    if card["solved"]:
        return "solved"
    return f"justice {card['justice']}/{card['danger']}, token at {card['token']}"

