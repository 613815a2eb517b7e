"""The text board of one game (``render_ansi``, the environments' ``render_mode="ansi"``)
and the text of a game whose seats are still drafting (``render_draft``).

The markers on the map are those of ``hon_env.views.board`` (its module documentation has
the legend). Both read the game through ``Game.field``/``Game.snapshot`` only.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from hon_env.spec import layout as L
from hon_env.spec.tables import CFG_LOSS_AT_LEAST, CFG_LOSS_COUNTER, SP_SCHEME
from hon_env.views import board

if TYPE_CHECKING:
    from hon_env.content.compile import Scenario
    from hon_env.game import Game

_CELL = 6  # characters inside a text hex cell


def _text_map(game: Game, spaces: list[board.Space]) -> list[str]:
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
            head = f"{sc.space_labels[sp]} {board.kind_tag(sc, sp)}".strip()
            marks = spaces[sp].markers()
            if len(marks) > _CELL:
                marks = marks[:_CELL - 1] + "+"
            top.append(f"/{head:<{_CELL}}\\")
            bottom.append(f"\\{marks:<{_CELL}}/")
        pad = " " * half if r % 2 else ""
        lines.append((pad + "".join(top)).rstrip())
        lines.append((pad + "".join(bottom)).rstrip())
    return lines


def render_draft(game: Game) -> str:
    """The text view of a game whose seats are still drafting (the Draft variant): the
    pool, who took what (every pick and offer shown: the whole position, not one seat's
    view) and the pending decision."""
    sc = game.scenario
    pool = sc.draft_heroes
    offer, owner = game.field("draft_offer"), game.field("draft_owner")
    mode = sc.draft_rule.mode if sc.draft_rule is not None else "off"
    out = [f"{sc.issue_name} vs {sc.villain_name}  |  draft ({mode}), "
           f"{int(game.field('draft_step'))} of {sc.n_heroes} seats have picked", ""]
    for i, hero in enumerate(pool):
        where = (f"taken by {sc.seat_names[owner[i] - 1]}" if owner[i]
                 else f"dealt to {sc.seat_names[offer[i] - 1]}" if offer[i] else "open")
        out.append(f"  {i:2d} {hero:<12} {where}")
    out += ["", f"{game.current_agent} decides ({game.decision}):"]
    out += [f"  {a:4d}  {game.action_to_string(a)}" for a in game.legal_actions()]
    return "\n".join(out)


def _board_lines(sc: Scenario, spaces: list, panels: list) -> list[str]:
    """The scheme panels, then every figure and token on the map by name."""
    T = sc.tables
    out = ["Panels:"]
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
    return out


def _threat_lines(sc: Scenario, snap: dict) -> list[str]:
    """The villains, nemeses, issue, crisis cards, supplies and special bystanders."""
    T = sc.tables
    out = []
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
        out.append(f"Crisis card: {c['name']} ({board.crisis_status(c)}). {c['text']}")
    for name in snap["issue"]["crisis_area"]:
        out.append(f"Crisis card: {name} (from the decks, stays in play)")
    s = snap["supplies"]
    minions = f"minions {s['minions']}"
    if snap["special_minions"]:
        minions += " (of them " + ", ".join(f"{m['supply']} {m['name']}"
                                            for m in snap["special_minions"]) + ")"
    out.append(f"Supplies: {minions}, bystanders {s['bystanders']} "
               f"(defeated {s['bystanders_defeated']}), clue deck {s['clue_deck']}")
    for mark, sb in zip(board.SPECIAL_MARKS, snap["special_bystanders"], strict=False):
        held = ", ".join(f"{n} in {panel}" for panel, n in sb["captured"].items())
        out.append(f"Special bystanders {mark}: {sb['name']}: on the map "
                   f"{', '.join(sb['on_map']) or '-'}; captured {held or '-'}; supply "
                   f"{sb['supply']}; defeated {sb['defeated']}")
    return out


def _hero_lines(game: Game, snap: dict) -> list[str]:
    """Every hero: status, hand, play area, clues, threat area and ally."""
    out = []
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
            out.append("     threats: " + ", ".join(board.threat_text(t) for t in h["threat_area"]))
        if h["ally"]:
            out.append("     ally: " + _ally(h["ally"]))
    return out


def render_ansi(game: Game) -> str:
    """A readable text board of ``game``.

    Contains the title line (scenario, round, turn, decisions), the hex map with markers,
    the scheme panels (minions, captives, Scheme cards), figures and tokens by name, the
    villain, issue and supplies, every hero (status, hand, play area, clues, threat area)
    and the pending decision with each legal action as ``index  action_to_string``.
    """
    if game.state[0, L.DRAFTING]:
        return render_draft(game)
    snap = game.snapshot()
    sc = game.scenario
    spaces, panels = board.read_board(game, snap)
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
    out += _board_lines(sc, spaces, panels)
    out += _threat_lines(sc, snap)
    out.append("")
    out += _hero_lines(game, snap)
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
