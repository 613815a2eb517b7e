"""Text and image rendering of one game, for people (the environments' ``render()``).

``render_ansi(game)`` returns a text board; ``render_rgb(game)`` an ``[H, W, 3]`` uint8
image drawn with Pillow (imported on first use only) from the primitives of
``hon_env.play.scene``, which also give the SVG board (``hon_env.play.svg``).

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

Both renderers read the game through ``Game.field``/``Game.snapshot`` only; they never
change it.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from hon_env.content.tables import (
    CFG_LOSS_AT_LEAST,
    CFG_LOSS_COUNTER,
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
from hon_env.core import layout as L

if TYPE_CHECKING:
    from hon_env.content import Scenario
    from hon_env.game import Game

PERIL_LETTERS = "rguy"  # peril colour letters in COLOR_NAMES order, as in the map files
SPECIAL_MARKS = "BD"  # marker of each special Bystander card's figures (Tables.sby row order)


@dataclass
class _Space:
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
class _Panel:
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


def _board(game: Game, snap: dict | None = None) -> tuple[list[_Space], list[_Panel]]:
    """Per-space contents and per-panel summaries of ``game`` (``snap``: its snapshot, when
    the caller has one)."""
    sc = game.scenario
    T = sc.tables
    f = game.field
    spaces = [_Space() for _ in sc.space_labels]
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
        panels.append(_Panel(k, sc.panel_names[k], COLOR_NAMES[color] if color >= 0 else "",
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


def _kind_tag(scenario: Scenario, sp: int) -> str:
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


# --------------------------------------------------------------------------- text

_CELL = 6  # characters inside a text hex cell


def _text_map(game: Game, spaces: list[_Space]) -> list[str]:
    """The hex map as text: two lines per map row, odd rows shifted half a cell."""
    sc = game.scenario
    rowcol = sc.space_rowcol
    n_rows = max(r for r, _ in rowcol) + 1
    n_cols = max(c for _, c in rowcol) + 1
    at = {rc: i for i, rc in enumerate(rowcol)}
    half = (_CELL + 2) // 2
    lines = []
    for r in range(n_rows):
        top, bottom = [], []
        for c in range(n_cols):
            sp = at.get((r, c))
            if sp is None:
                top.append(" " * (_CELL + 2))
                bottom.append(" " * (_CELL + 2))
                continue
            head = f"{sc.space_labels[sp]} {_kind_tag(sc, sp)}".strip()
            marks = spaces[sp].markers()
            if len(marks) > _CELL:
                marks = marks[:_CELL - 1] + "+"
            top.append(f"/{head:<{_CELL}}\\")
            bottom.append(f"\\{marks:<{_CELL}}/")
        pad = " " * half if r % 2 else ""
        lines.append((pad + "".join(top)).rstrip())
        lines.append((pad + "".join(bottom)).rstrip())
    return lines


def _render_draft(game: Game) -> str:
    """The text view of a game whose seats are still drafting (the Draft variant): the
    pool, who took what (every pick and offer shown: the whole position, not one seat's
    view) and the pending decision."""
    sc = game.scenario
    pool = sc.rules["draft"]["pool"]
    offer, owner = game.field("draft_offer"), game.field("draft_owner")
    out = [f"{sc.issue_name} vs {sc.villain_name}  |  draft ({sc.rules['draft']['mode']}), "
           f"{int(game.field('draft_step'))} of {sc.n_heroes} seats have picked", ""]
    for i, hero in enumerate(pool):
        where = (f"taken by {sc.seat_names[owner[i] - 1]}" if owner[i]
                 else f"dealt to {sc.seat_names[offer[i] - 1]}" if offer[i] else "open")
        out.append(f"  {i:2d} {hero:<12} {where}")
    out += ["", f"{game.current_agent} decides ({game.decision}):"]
    out += [f"  {a:4d}  {game.action_to_string(a)}" for a in game.legal_actions()]
    return "\n".join(out)


def render_ansi(game: Game) -> str:
    """A readable text board of ``game``.

    Contains the title line (scenario, round, turn, decisions), the hex map with markers,
    the scheme panels (minions, captives, Scheme cards), figures and tokens by name, the
    villain, issue and supplies, every hero (status, hand, play area, clues, threat area)
    and the pending decision with each legal action as ``index  action_to_string``.
    """
    if game.state[0, L.DRAFTING]:
        return _render_draft(game)
    snap = game.snapshot()
    sc = game.scenario
    T = sc.tables
    spaces, panels = _board(game, snap)
    turn = "" if game.is_over else f", {snap['turn']} turn"
    out = [f"{sc.issue_name} vs {' and '.join(sc.villain_names or (sc.villain_name,))}  |  "
           f"round {snap['round']}{turn}, "
           f"{int(game.field('decisions'))} decisions"]
    if game.is_over:
        reason = f" ({game.loss_reason})" if game.loss_reason else ""
        out.append(f"GAME OVER: {game.outcome}{reason}")
    out.append("")
    out += _text_map(game, spaces)
    out.append("  markers: 1-6 hero seat, a ally, V villain, N nemesis, L lackey, p peril "
               "token, b bystander, B/D special bystander, e issue card, c crisis token;")
    out.append("  spaces: S start, P1-P6 scheme panel, !r/!g/!u/!y peril space, b bystander "
               "space")
    out.append("")
    out.append("Panels:")
    for p in panels:
        here = spaces[p.space]
        who = "".join(f" {w}," for w in here.in_panel())
        schemes = ("; ".join(f"{n} (justice {j})" for n, j in p.schemes) if p.schemes
                   else "no Scheme card")
        out.append(f"  P{p.number} {p.name} ({p.color}) at {sc.space_labels[p.space]}: "
                   f"minions {p.minions}{p.specials}, captives {p.captives}{p.special_captives},"
                   f"{who} {schemes}")
    placed = []
    for sp, s in enumerate(spaces):
        label = sc.space_labels[sp]
        if T.space_kind[sp] != SP_SCHEME:
            placed += [f"{n} (nemesis) at {label}" for n in s.nemeses]
        placed += [f"{n} (lackey) at {label}" for n in s.lackeys]
        placed += [f"{n} (peril) at {label}" for n in s.perils]
        placed += [f"{n} (issue card) at {label}" for n in s.issue_cards]
        placed += [f"{n} (crisis token) at {label}" for n in s.crises]
    if placed:
        out.append("On the map: " + "; ".join(placed))
    for label, key in (("Villain", "villain"), ("Villain 2", "villain2")):
        if key not in snap:
            continue
        v = snap[key]
        status = (f"justice {v['justice']}/{v['danger']}" if v["side"] == "scheming"
                  else f"damage {v['damage']}/{v['health']}")
        out.append(f"{label}: {v['name']} ({v['side']}, {status}, hidden tokens "
                   f"{v['hidden_tokens']}) at {v['location']}; villain deck {v['deck_size']}")
    for nem in snap["nemeses"]:
        if nem["defeated"]:
            out.append(f"Nemesis: {nem['name']} (defeated)")
            continue
        status = (f"justice {nem['justice']}" if nem["side"] == "scheme"
                  else f"damage {nem['damage']}")
        out.append(f"Nemesis: {nem['name']} as {nem['card']} ({nem['side']} side, {status}) "
                   f"at {nem['location']}, threat area of hero {nem['owner'] + 1}")
    counters = ", ".join(f"{k} {n}" for k, n in snap["issue"]["counters"].items())
    loss = int(T.cfg[CFG_LOSS_COUNTER])
    if loss >= 0:
        counters += f" (lose at {int(T.cfg[CFG_LOSS_AT_LEAST])} {sc.counter_names[loss]})"
    out.append(f"Issue: {snap['issue']['name']}, issue deck {snap['issue']['deck_size']}; "
               f"{counters}")
    for c in snap["crisis_cards"]:
        out.append(f"Crisis card: {c['name']} ({_crisis_status(c)}). {c['text']}")
    for name in snap["issue"]["crisis_area"]:
        out.append(f"Crisis card: {name} (from the decks, stays in play)")
    s = snap["supplies"]
    minions = f"minions {s['minions']}"
    if snap["special_minions"]:
        minions += " (of them " + ", ".join(f"{m['supply']} {m['name']}"
                                            for m in snap["special_minions"]) + ")"
    out.append(f"Supplies: {minions}, bystanders {s['bystanders']} "
               f"(defeated {s['bystanders_defeated']}), clue deck {s['clue_deck']}")
    for mark, sb in zip(SPECIAL_MARKS, snap["special_bystanders"], strict=False):
        held = ", ".join(f"{n} in {panel}" for panel, n in sb["captured"].items())
        out.append(f"Special bystanders {mark}: {sb['name']}: on the map "
                   f"{', '.join(sb['on_map']) or '-'}; captured {held or '-'}; supply "
                   f"{sb['supply']}; defeated {sb['defeated']}")
    out.append("")
    for seat, h in enumerate(snap["heroes"]):
        mark = ">" if game.current_seat == seat else " "
        out.append(f"{mark}[{seat + 1}] {h['id']} ({h['name']}{_side(h)}) at {h['location']}: "
                   f"damage {h['damage']}/{h['health']}{_aside(h)}, focus {h['focus']}, "
                   f"actions {h['actions_left']}, deck {h['deck_size']}, discard "
                   f"{h['discard_size']}")
        if "facing" in h:  # Two Fronts
            out.append(f"     faces: {h['facing']}")
        out.append(f"     hand: {', '.join(h['hand']) or '-'}")
        out.append(f"     play: {', '.join(h['play_area']) or '-'}")
        if h["clues"]:
            out.append(f"     clues: {', '.join(h['clues'])}")
        if h["threat_area"]:
            out.append("     threats: " + ", ".join(_threat(t) for t in h["threat_area"]))
        if h["ally"]:
            out.append("     ally: " + _ally(h["ally"]))
    if not game.is_over:
        out.append("")
        out.append(f"Decision: {game.decision}, {game.current_agent} decides")
        for a in game.legal_actions():
            out.append(f"  {int(a):>4}  {game.action_to_string(int(a))}")
    return "\n".join(_wrap(line) for line in out) + "\n"


def _ally(ally: dict) -> str:
    """An ally's line under its hero: where it stands, damage, and its card's state."""
    if ally["location"] is None:
        return f"{ally['name']} (defeated, out of the game)"
    ready = "exhausted" if ally["exhausted"] else "ready"
    return (f"{ally['name']} at {ally['location']}: damage {ally['damage']}/{ally['health']}, "
            f"attack {ally['attack']}, solve {ally['solve']}, card {ready}")


def _threat(card: dict) -> str:
    """A threat-area card with its attached villain cards, if any."""
    attached = card.get("attached") or []
    return card["card"] + (f" [+{', '.join(attached)}]" if attached else "")


def _crisis_status(card: dict) -> str:
    """A crisis card's state: in play without a danger value, justice at its token, solved."""
    if card["danger"] is None:
        return "stays in play"
    if card["solved"]:
        return "solved"
    return f"justice {card['justice']}/{card['danger']}, token at {card['token']}"


def _side(hero: dict) -> str:
    """The Hero card's side as shown after the name: focused, pilot token or in the mech."""
    if hero["form"] == "pilot":
        return ", pilot token"
    if hero["form"] == "mech":
        return ", in the mech"
    return ", focused" if hero["focused"] else ""


def _aside(hero: dict) -> str:
    """The pilot's damage set aside while in the mech, when there is any."""
    return f" (pilot damage {hero['pilot_damage']})" if hero["pilot_damage"] else ""


def _wrap(line: str, width: int = 100) -> str:
    """Wrap a long text line, continuing under its own indent plus four spaces."""
    if len(line) <= width:
        return line
    indent = " " * (len(line) - len(line.lstrip()) + 4)
    return textwrap.fill(line, width, subsequent_indent=indent, break_long_words=False)


# --------------------------------------------------------------------------- image

def render_rgb(game: Game, dpi: int = 100, last_action: str | None = None) -> np.ndarray:
    """An image of ``game``: the hex map, the scheme panels, a side panel of the villain,
    issue and heroes, the pending decision with its legal actions and ``last_action``.

    Drawn with Pillow from the same primitives as the SVG board (``hon_env.play.scene``);
    the empty map is drawn once per scenario and reused.

    Args:
        game: the game to draw (not modified).
        dpi: resolution; 100 gives 1300 x 750 pixels, other values scale the image.
        last_action: the latest answer in words, shown under the title.

    Returns:
        uint8 ``[H, W, 3]`` RGB image.
    """
    from hon_env.play.raster import rasterize

    return rasterize(game, last_action=last_action, scale=dpi / 100.0)
