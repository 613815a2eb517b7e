"""The board as drawing primitives, shared by the SVG board and the raster image.

A scene is a list of primitives in pixel coordinates on a ``WIDTH`` x ``HEIGHT`` canvas:

    ("poly", points, fill, stroke, stroke_width)       points: flat (x0, y0, x1, y1, ...)
    ("circle", cx, cy, r, fill, stroke, stroke_width)
    ("rect", x, y, w, h, fill, stroke, stroke_width)
    ("text", x, y, text, size, fill, bold, anchor)     anchor "start" or "middle"; y is
                                                       the text's vertical centre

``static_layer(scenario)`` is what never moves (the hexes, their labels and kinds) and is
cached per scenario; ``dynamic_layer(game, last_action)`` is everything else: figures and
tokens on the map (the board model and markers of ``hon_env.views.board``), the spaces the
pending decision can pick (outlined in gold), the scheme panels, the villain, issue and
supplies, every hero with hand and play area, the pending decision with its legal actions,
and the last action.
Colour ``None`` means no fill / no stroke.
"""

from __future__ import annotations

import math
import textwrap
from typing import TYPE_CHECKING, Any

import numpy as np

from hon_env.spec import layout as L
from hon_env.spec.tables import COLOR_NAMES, SP_BYSTANDER, SP_PERIL, SP_SCHEME, SP_START
from hon_env.views.board import (
    SPECIAL_MARKS,
    Space,
    crisis_status,
    kind_tag,
    read_board,
    threat_text,
)
from hon_env.views.text import render_draft

if TYPE_CHECKING:
    from hon_env.content import Scenario
    from hon_env.game import Game

WIDTH, HEIGHT = 1300, 750
MAP_BOX = (10.0, 58.0, 780.0, 500.0)  # x, y, w, h of the map area
PANEL_Y, PANEL_H = 572.0, 170.0  # scheme panel boxes along the bottom
SIDE_X = 805.0  # left edge of the side panel
LINE = 14.0  # side panel line height (font size 11)
HERO_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#17becf", "#8c564b")
KIND_FACE = {SP_START: "#d9e8f5", SP_BYSTANDER: "#f1e4c8"}
PLAIN_FACE = "#eeeeee"
PERIL_FACE = {"red": "#f4b6b0", "green": "#bfe3b4", "blue": "#b7cdef", "yellow": "#f6e7a1"}
PANEL_FACE = {"red": "#d9534f", "green": "#4cae4c", "blue": "#3f78c9", "yellow": "#e0b020"}
HIGHLIGHT = "#f5b800"

Prim = tuple[Any, ...]

_static_cache: dict[int, tuple[Scenario, list[Prim]]] = {}


# --------------------------------------------------------------------------- geometry

def geometry(scenario: Scenario) -> tuple[list[tuple[float, float]], float]:
    """Centre of every space's hex in pixels and the hex circumradius (pointy-top hexes,
    odd map rows shifted half a hex right, scaled to fit ``MAP_BOX``)."""
    rowcol = scenario.space_rowcol
    n_rows = max(r for r, _ in rowcol) + 1
    n_cols = max(c for _, c in rowcol) + 1
    x0, y0, w, h = MAP_BOX
    s3 = math.sqrt(3.0)
    radius = min(w / ((n_cols + 0.5) * s3), h / (1.5 * (n_rows - 1) + 2.0))
    width = (n_cols + 0.5) * s3 * radius
    left = x0 + (w - width) / 2 + s3 * radius / 2
    centres = [(left + c * s3 * radius + (s3 * radius / 2 if r % 2 else 0.0),
                y0 + radius + r * 1.5 * radius) for r, c in rowcol]
    return centres, radius


def _hexagon(x: float, y: float, r: float) -> tuple[float, ...]:
    pts: list[float] = []
    for k in range(6):
        a = math.pi / 6 + k * math.pi / 3  # pointy-top: vertices at 30, 90, ... degrees
        pts += [x + r * math.cos(a), y + r * math.sin(a)]
    return tuple(pts)


def _star(x: float, y: float, r: float) -> tuple[float, ...]:
    pts: list[float] = []
    for k in range(10):
        a = -math.pi / 2 + k * math.pi / 5
        rr = r if k % 2 == 0 else r * 0.45
        pts += [x + rr * math.cos(a), y + rr * math.sin(a)]
    return tuple(pts)


def _panel_colors(scenario: Scenario) -> dict[int, str]:
    """Colour name of each scheme space's panel (the lackey space of that colour)."""
    T = scenario.tables
    out = {}
    for sp in range(len(scenario.space_labels)):
        if T.space_kind[sp] == SP_SCHEME:
            colors = np.flatnonzero(T.lackey_space == sp)
            out[sp] = COLOR_NAMES[int(colors[0])] if len(colors) else ""
    return out


# --------------------------------------------------------------------------- layers

def static_layer(scenario: Scenario) -> list[Prim]:
    """The hex map without anything on it (cached per scenario object)."""
    hit = _static_cache.get(id(scenario))
    if hit is not None and hit[0] is scenario:
        return hit[1]
    T = scenario.tables
    centres, radius = geometry(scenario)
    colors = _panel_colors(scenario)
    out: list[Prim] = [("rect", 0.0, 0.0, float(WIDTH), float(HEIGHT), "#ffffff", None, 0)]
    small = max(8, round(radius * 0.26))
    for sp, (x, y) in enumerate(centres):
        kind = int(T.space_kind[sp])
        face = KIND_FACE.get(kind, PLAIN_FACE)
        if kind == SP_PERIL:
            face = PERIL_FACE[COLOR_NAMES[int(T.space_arg[sp])]]
        elif kind == SP_SCHEME:
            face = PANEL_FACE.get(colors.get(sp, ""), "#999999")
        out.append(("poly", _hexagon(x, y, radius * 0.97), face, "#555555", 1))
        out.append(("text", x, y - radius * 0.62, scenario.space_labels[sp], small, "#333333",
                    False, "middle"))
        tag = kind_tag(scenario, sp)
        if tag and kind != SP_BYSTANDER:
            out.append(("text", x, y + radius * 0.66, tag, small,
                        "#ffffff" if kind == SP_SCHEME else "#333333", True, "middle"))
    if len(_static_cache) > 32:
        _static_cache.clear()
    _static_cache[id(scenario)] = (scenario, out)
    return out


def dynamic_layer(game: Game, last_action: str | None = None) -> list[Prim]:
    """Everything that changes during a game (see the module documentation); while the
    seats draft (the Draft variant) no board is set up yet, so the draft is drawn instead."""
    if game.state[0, L.DRAFTING]:
        return _draft_sheet(game, last_action)
    sc = game.scenario
    snap = game.snapshot()
    spaces, panels = read_board(game, snap)
    centres, radius = geometry(sc)
    out: list[Prim] = []
    _title(out, game, snap, last_action)
    legal = [] if game.is_over else [int(a) for a in game.legal_actions()]
    for sp in _decision_spaces(legal, len(centres)):
        x, y = centres[sp]
        out.append(("poly", _hexagon(x, y, radius * 0.9), None, HIGHLIGHT, 3))
    deciding = game.current_seat
    if 0 <= deciding < game.scenario.n_heroes:  # not the villain agent's seat
        loc = int(game.field("hloc")[deciding])
        if 0 <= loc < len(centres):
            x, y = centres[loc]
            out.append(("circle", x, y, radius * 0.93, None, HERO_COLORS[deciding % 6], 2))
    for sp, space in enumerate(spaces):
        _pieces(out, *centres[sp], radius, space)
    _panels(out, game, spaces, panels)
    _side_panel(out, game, snap, legal)
    return out


def _draft_sheet(game: Game, last_action: str | None) -> list[Prim]:
    """The draft on a blank sheet over the map: the text view's lines (the pool, every
    offer and pick, the pending decision with its legal picks) and the last action."""
    out: list[Prim] = [("rect", 0.0, 0.0, float(WIDTH), float(HEIGHT), "#ffffff", None, 0)]
    title, *rest = render_draft(game).split("\n")
    out.append(("text", 12.0, 20.0, _short(title, 120), 16, "#000000", True, "start"))
    last = "Last action: " + (last_action or "-")
    out.append(("text", 12.0, 44.0, _short(last, 120), 12, "#7a4a00", False, "start"))
    y = 70.0
    for text in rest:
        if y > HEIGHT - 10:
            break
        out.append(("text", 24.0, y, _short(text, 150), 12, "#000000", False, "start"))
        y += 16.0
    return out


def scene(game: Game, last_action: str | None = None) -> list[Prim]:
    """The whole picture: ``static_layer`` then ``dynamic_layer``."""
    return static_layer(game.scenario) + dynamic_layer(game, last_action)


def _decision_spaces(legal: list[int], n_spaces: int) -> list[int]:
    """Map spaces named by the legal actions (move, place, attack or solve there)."""
    out = set()
    for a in legal:
        for base in (L.A_SPACE, L.A_ATTACK, L.A_SOLVE):
            if base <= a < base + n_spaces:
                out.add(a - base)
    return sorted(out)


# --------------------------------------------------------------------------- pieces

def _pieces(out: list[Prim], x: float, y: float, radius: float, s: Space) -> None:
    """Figures and tokens of one space, three to a row inside its hex."""
    items: list[tuple[str, str]] = [(f"h{h}:{form}", str(h + 1))
                                    for h, form in zip(s.heroes, s.hero_forms, strict=True)]
    items += [("ally", str(h + 1)) for h in s.allies]
    items += [("villain", "V")] if s.villain else []
    items += [("villain2", "W")] if s.villain2 else []  # Two Fronts: the second villain
    items += [("nemesis", "N") for _ in s.nemeses]
    items += [("lackey", "L") for _ in s.lackeys] + [("peril", "p") for _ in s.perils]
    items += [("issue", "e") for _ in s.issue_cards] + [("crisis", "c") for _ in s.crises]
    if s.bystander:
        items.append(("bystander", SPECIAL_MARKS[s.special] if s.special >= 0 else "b"))
    shown = items[:6]
    u = radius * 0.24  # a piece's half size
    fs = max(8, round(u * 1.25))
    for k, (kind, letter) in enumerate(shown):
        row, col = divmod(k, 3)
        n_in_row = min(3, len(shown) - row * 3)
        px = x + (col - (n_in_row - 1) / 2) * u * 2.2
        py = y - radius * 0.12 + row * u * 2.1
        if kind.startswith("h"):
            seat, form = kind[1:].split(":")
            color = HERO_COLORS[int(seat) % 6]
            if form == "pilot":  # a token, not a figure: a smaller ring
                out.append(("circle", px, py, u * 0.8, color, "#ffffff", 2))
            elif form == "mech":  # the mech figure: a larger square
                out.append(("rect", px - u * 1.05, py - u * 1.05, u * 2.1, u * 2.1, color,
                            "#000000", 1))
            else:
                out.append(("circle", px, py, u, color, "#000000", 1))
            out.append(("text", px, py, letter, fs, "#ffffff", True, "middle"))
        elif kind == "ally":
            color = HERO_COLORS[(int(letter) - 1) % 6]
            out.append(("poly", _hexagon(px, py, u), "#ffffff", color, 2))
            out.append(("text", px, py, letter, fs - 1, color, True, "middle"))
        elif kind in ("villain", "villain2", "nemesis"):
            d = u * 1.1
            fill = {"villain": "#000000", "villain2": "#4e342e"}.get(kind, "#6a1b9a")
            out.append(("poly", (px, py - d, px + d, py, px, py + d, px - d, py),
                        fill, None, 0))
            out.append(("text", px, py, letter, fs - 1, "#ffffff", True, "middle"))
        elif kind == "lackey":
            out.append(("poly", (px, py - u, px + u, py + u * 0.8, px - u, py + u * 0.8),
                        "#c62828", "#000000", 1))
            out.append(("text", px, py + u * 0.2, "L", fs - 2, "#ffffff", True, "middle"))
        elif kind == "peril":
            out.append(("poly", _star(px, py, u * 1.1), "#ff8f00", "#000000", 1))
        elif kind == "issue":
            out.append(("rect", px - u * 0.8, py - u * 0.8, u * 1.6, u * 1.6, "#757575",
                        "#000000", 1))
            out.append(("text", px, py, "e", fs - 1, "#ffffff", False, "middle"))
        elif kind == "crisis":
            out.append(("poly", _hexagon(px, py, u), "#b71c1c", "#000000", 1))
            out.append(("text", px, py, "c", fs - 1, "#ffffff", True, "middle"))
        else:  # a bystander: white disc; a special one gold with its card's letter
            out.append(("circle", px, py, u * 0.7, "#ffffff" if letter == "b" else "#ffd54f",
                        "#000000", 1))
            out.append(("text", px, py, letter, fs - 2, "#000000", False, "middle"))
    if len(items) > 6:
        out.append(("text", x + radius * 0.55, y + radius * 0.45, f"+{len(items) - 6}", fs - 1,
                    "#000000", True, "middle"))


# --------------------------------------------------------------------------- text blocks

def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[:n - 1] + "\u2026"


def _title(out: list[Prim], game: Game, snap: dict, last_action: str | None) -> None:
    sc = game.scenario
    title = f"{sc.issue_name} vs {' and '.join(sc.villain_names)}   round {snap['round']}"
    if game.is_over:
        reason = f" ({game.loss_reason})" if game.loss_reason else ""
        title += f"   GAME OVER: {game.outcome}{reason}"
    else:
        title += f", {snap['turn']} turn   decision: {game.decision} ({game.current_agent})"
    out.append(("text", 12.0, 20.0, _short(title, 120), 16, "#000000", True, "start"))
    last = "Last action: " + (last_action or "-")
    out.append(("text", 12.0, 44.0, _short(last, 120), 12, "#7a4a00", False, "start"))


def _panels(out: list[Prim], game: Game, spaces: list[Space], panels: list) -> None:
    sc = game.scenario
    n = max(len(panels), 1)
    x0, _, w, _ = MAP_BOX
    width = w / n
    chars = max(14, int((width - 14) / 6.3))
    for i, p in enumerate(panels):
        bx = x0 + i * width + 2
        color = PANEL_FACE.get(p.color, "#999999")
        out.append(("rect", bx, PANEL_Y, width - 6, PANEL_H, _pale(color), color, 2))
        lines = [f"P{p.number} {p.name}", f"at {sc.space_labels[p.space]} ({p.color})",
                 f"minions {p.minions}   captives {p.captives}"]
        lines += [f"{name} (justice {j})" for name, j in p.schemes] or ["no Scheme card"]
        lines += [f"\u25b2{count} {name}" + (f", {dmg} dmg" if dmg else "")
                  for name, count, dmg in p.special_counts]
        if p.special_captives:
            lines.append(f"captives{p.special_captives}")
        who = spaces[p.space].in_panel()
        if who:
            lines.append("here: " + ", ".join(who))
        wrapped = [part for line in lines
                   for part in textwrap.wrap(line, chars, subsequent_indent="  ")]
        for k, line in enumerate(wrapped[:11]):
            out.append(("text", bx + 6, PANEL_Y + 12 + k * 14.5, _short(line, chars), 11,
                        "#000000", k == 0, "start"))


def _pale(color: str) -> str:
    """``color`` mixed three quarters with white (the panel boxes' fill)."""
    r, g, b = (int(color[k:k + 2], 16) for k in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*(round(v + (255 - v) * 0.75) for v in (r, g, b)))


class _Column:
    """The side panel's text column: lines written top down from ``y``."""

    def __init__(self, out: list[Prim], x: float, y: float) -> None:
        self.out, self.x, self.y = out, x, y

    def line(self, text: str, color: str = "#000000", bold: bool = False,
             indent: float = 0.0, wrap: bool = False) -> None:
        width = 76 - int(indent / 6)
        parts = textwrap.wrap(text, width, subsequent_indent="    ")[:3] if wrap else [text]
        for part in parts:
            self.out.append(("text", self.x + indent, self.y, _short(part, width), 11, color,
                             bold, "start"))
            self.y += LINE


def _table_lines(col: _Column, snap: dict) -> None:
    """The villains, the issue, the supplies, special minions, crises and nemeses."""
    for label, key in (("Villain", "villain"), ("Villain 2 (W)", "villain2")):
        if key not in snap:  # the second villain: Two Fronts only
            continue
        v = snap[key]
        status = (f"justice {v['justice']}/{v['danger']}" if v["side"] == "scheming"
                  else f"damage {v['damage']}/{v['health']}")
        col.line(f"{label}: {v['name']} ({v['side']}), {status}", bold=True)
        col.line(f"hidden tokens {v['hidden_tokens']}, villain deck {v['deck_size']}",
                 indent=12)
    counters = ", ".join(f"{k} {n}" for k, n in snap["issue"]["counters"].items())
    col.line(f"Issue: {snap['issue']['name']}, deck {snap['issue']['deck_size']}; {counters}")
    s = snap["supplies"]
    col.line(f"Supply: minions {s['minions']}, bystanders {s['bystanders']}, defeated "
             f"{s['bystanders_defeated']}, clue deck {s['clue_deck']}")
    for m in snap["special_minions"]:
        col.line(f"{m['supply']} of them {m['name']} (health {m['health']}, inflict "
                 f"{m['inflict']})", indent=12)
    for c in snap["crisis_cards"]:
        col.line(f"Crisis: {c['name']}: {crisis_status(c)}")
    for name in snap["issue"]["crisis_area"]:
        col.line(f"Crisis: {name} (stays in play)")
    for nem in snap["nemeses"]:
        state = "defeated" if nem["defeated"] else f"{nem['side']} side at {nem['location']}"
        col.line(f"Nemesis: {nem['name']} ({state})")


def _hero_lines(col: _Column, game: Game, snap: dict) -> None:
    """Each hero: a seat marker, where it stands, its state and its cards."""
    for seat, h in enumerate(snap["heroes"]):
        deciding = game.current_seat == seat
        col.out.append(("circle", col.x - 10, col.y, 6.0, HERO_COLORS[seat % 6], "#000000",
                        2 if deciding else 1))
        where = h["location"] or "-"
        faces = f", faces {h['facing']}" if "facing" in h else ""
        col.line(f"{seat + 1} {h['name']} ({h['form']}) at {where}{faces}"
                 + ("   <- deciding" if deciding else ""), bold=True)
        col.line(f"damage {h['damage']}/{h['health']}, focus {h['focus']}, actions "
                 f"{h['actions_left']}, deck {h['deck_size']}, discard {h['discard_size']}",
                 indent=12)
        col.line("hand: " + (", ".join(h["hand"]) or "-"), indent=12, wrap=True)
        if h["play_area"]:
            col.line("play: " + ", ".join(h["play_area"]), indent=12, wrap=True)
        if h["clues"]:
            col.line("clues: " + ", ".join(h["clues"]), indent=12, wrap=True)
        if h["threat_area"]:
            col.line("threats: " + ", ".join(threat_text(t) for t in h["threat_area"]),
                     indent=12, wrap=True)
        if h["ally"]:
            a = h["ally"]
            col.line(f"ally: {a['name']} at {a['location'] or '-'}, damage {a['damage']}/"
                     f"{a['health']}", indent=12)
        col.y += 3


def _decision_lines(col: _Column, game: Game, legal: list[int]) -> None:
    """The pending decision and as many of its legal actions as the column holds."""
    # many heroes with long threat areas can fill the column: keep two decision lines
    col.y = min(col.y + 4, HEIGHT - 2.5 * LINE)
    x, y = col.x, col.y
    col.out.append(("rect", x - 16, y - LINE / 2 - 2, WIDTH - x + 10, HEIGHT - y + 2,
                    "#fff8e1", HIGHLIGHT, 1))
    col.line(f"Decision: {game.decision} ({game.current_agent}), {len(legal)} legal",
             bold=True)
    room = max(1, int((HEIGHT - 8 - col.y) / LINE))
    shown = legal if len(legal) <= room else legal[:room - 1]
    for a in shown:
        col.line(f"{a:>3}  " + game.action_to_string(a), "#333333", indent=4)
    if len(shown) < len(legal):
        col.line(f"... {len(legal) - len(shown)} more", "#333333", indent=4)


def _side_panel(out: list[Prim], game: Game, snap: dict, legal: list[int]) -> None:
    col = _Column(out, SIDE_X + 18, 70.0)
    _table_lines(col, snap)
    col.y += 4
    _hero_lines(col, game, snap)
    if not game.is_over:
        _decision_lines(col, game, legal)
