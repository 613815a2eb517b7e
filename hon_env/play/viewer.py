"""``hon-replay``: a replay file as a self-contained HTML page to step through.

    hon-replay replays/game.json -o game.html      # then open game.html in a browser
    hon-replay tests/golden/origin_seed0.json -o golden.html

The replay is first verified on the engine (``Replay.verify``; ``--no-verify`` skips the
check). The page embeds the empty board once and, per position, the SVG of what changed
and the log entry of the answer given there: step with the buttons or the arrow keys, jump
with the slider or by clicking a log line, play it back with Play. Hands show as the
board shows them (Hour of Need is cooperative: the heroes talk about their cards).

Beside the board, the cards of each position (every hero's hand, then the cards in play,
``hon_env.play.cards``) show as chips with their rules text on hover and in a panel on
click; a log line that names a card has its text as a tooltip.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from html import escape
from pathlib import Path

from hon_env.game import Game
from hon_env.play import cardhtml, cards
from hon_env.play.gamelog import apply_logged, format_entry, seat_labels, seat_player
from hon_env.replay import Replay
from hon_env.views.scene import HEIGHT, WIDTH, dynamic_layer, static_layer
from hon_env.views.svg import FONT, primitives_to_svg


def replay_frames(replay: Replay) -> dict:
    """The viewer's data: the static board, per position its dynamic SVG, and the log.

    With the cards: ``cards`` (``{key: {"name", "text"}}``, every card shown), ``views``
    (distinct lists of ``[area title, [card keys]]``), ``frame_cards`` (per position, its
    index in ``views``) and ``log_cards`` (per log line, the key of the card its answer
    names, or None).
    """
    scenario = replay.load_scenario()
    game = replay.new_game(scenario)
    frames = [primitives_to_svg(dynamic_layer(game))]
    shown: dict[str, dict[str, str]] = {}
    views: dict[str, int] = {}  # a view as JSON -> its index
    frame_cards = [_view(game, shown, views)]
    log, log_cards = [], []
    for i, a in enumerate(replay.actions):
        player = seat_player(replay.players, game.current_seat, scenario.n_heroes)
        named = cards.action_card(game, a)
        log_cards.append(_keep(named, shown) if named else None)
        entry = apply_logged(game, a, player, i)
        log.append(format_entry(entry))
        frames.append(primitives_to_svg(dynamic_layer(game, entry["text"])))
        frame_cards.append(_view(game, shown, views))
    title = (f"{scenario.issue_name} vs {scenario.villain_name}, seed {replay.seed}: "
             f"{game.outcome or 'unfinished'}")
    seats = seat_labels(scenario, replay.players)
    return {"title": title, "seats": seats, "static": primitives_to_svg(static_layer(scenario)),
            "frames": frames, "log": log, "cards": shown, "views": [json.loads(v) for v in views],
            "frame_cards": frame_cards, "log_cards": log_cards}


def _keep(card: cards.Card, shown: dict[str, dict[str, str]]) -> str:
    """Note ``card`` among the cards shown; returns its key (``key/name`` when the card
    showed another name before: a nemesis shows the name of its side)."""
    key = card.key
    if shown.setdefault(key, {"name": card.name, "text": card.text})["name"] != card.name:
        key = f"{key}/{card.name}"
        shown.setdefault(key, {"name": card.name, "text": card.text})
    return key


def _view(game: Game, shown: dict[str, dict[str, str]], views: dict[str, int]) -> int:
    """The index of this position's cards (every hero's hand as the board shows it, then
    the cards in play) in ``views``, adding it when new: positions share their views."""
    sc = game.scenario
    areas = [(f"{h + 1} {sc.hero_names[h]}: hand", cards.hand(game, h))
             for h in range(sc.n_heroes)]
    areas += cards.in_play(game)
    view = json.dumps([[title, [_keep(c, shown) for c in area]] for title, area in areas
                       if area])
    return views.setdefault(view, len(views))


def viewer_html(replay: Replay) -> str:
    """The self-contained page (no network access needed to show it)."""
    data = replay_frames(replay)
    payload = json.dumps(data).replace("</", "<\\/")  # safe inside <script>
    return (PAGE.replace("%CARD_CSS%", cardhtml.CSS).replace("%CARD_PANEL%", cardhtml.PANEL)
            .replace("%CARD_JS%", cardhtml.JS).replace("%TITLE%", escape(data["title"]))
            .replace("%DATA%", payload)
            .replace("%SVG_OPEN%", f'<svg xmlns="http://www.w3.org/2000/svg" '
                     f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}">'))


def write_viewer(replay: Replay, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(viewer_html(replay), encoding="utf-8")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="hon-replay", description=__doc__.split("\n")[0])
    p.add_argument("replay", type=Path, help="replay JSON (hon-play, env.save_replay, "
                   "tests/golden/*.json)")
    p.add_argument("-o", "--out", type=Path, default=None,
                   help="HTML file to write (default: the replay's name with .html)")
    p.add_argument("--no-verify", action="store_true", help="skip the engine check")
    args = p.parse_args(argv)
    try:
        replay = Replay.load(args.replay)
        if not args.no_verify:
            replay.verify()
    except (OSError, ValueError) as e:
        p.error(f"{args.replay}: {e}")
    out = write_viewer(replay, args.out or args.replay.with_suffix(".html"))
    print(f"wrote {out} ({len(replay.actions)} decisions)")
    return 0


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>%TITLE%</title>
<style>
body { font-family: DejaVu Sans, Verdana, sans-serif; margin: 12px; background: #fafafa; }
#wrap { display: flex; gap: 14px; align-items: flex-start; }
#board { flex: 1 1 auto; min-width: 700px; }
#board svg { width: 100%; height: auto; background: white; border: 1px solid #ccc; }
#side { width: 380px; flex: 0 0 380px; }
#log { height: 560px; overflow-y: auto; font-size: 12px; background: white;
  border: 1px solid #ccc; }
#log div { padding: 1px 4px; cursor: pointer; }
#log div.current { background: #fff3c4; font-weight: bold; }
#controls button { min-width: 44px; }
#pos { width: 100%; }
#cards { max-height: 300px; overflow-y: auto; margin-top: 6px; }
%CARD_CSS%</style></head>
<body>
<h3>%TITLE%</h3>
<div id="wrap">
  <div id="board">%SVG_OPEN%<g id="static"></g><g id="dynamic"></g></svg></div>
  <div id="side">
    <div id="seats"></div>
    <div id="controls">
      <button id="first" title="first (Home)">|&lt;</button>
      <button id="prev" title="back (Left)">&lt;</button>
      <button id="play">Play</button>
      <button id="next" title="forward (Right)">&gt;</button>
      <button id="last" title="last (End)">&gt;|</button>
      <span id="where"></span>
    </div>
    <input id="pos" type="range" min="0" value="0">
    <div id="log"></div>
    <div id="cards"></div>
  </div>
</div>
%CARD_PANEL%
<script>
"use strict";
const DATA = %DATA%;
%CARD_JS%
function cardOf(key) { return {key: key, name: DATA.cards[key].name, text: DATA.cards[key].text}; }
const n = DATA.frames.length - 1;
let pos = 0;
let timer = null;
document.getElementById("static").innerHTML = DATA.static;
document.getElementById("seats").textContent = "Seats: " + DATA.seats.join(", ");
const slider = document.getElementById("pos");
slider.max = n;
const log = document.getElementById("log");
DATA.log.forEach((line, i) => {
  const div = document.createElement("div");
  div.textContent = line;
  if (DATA.log_cards[i]) { div.title = cardTitle(cardOf(DATA.log_cards[i])); }
  div.addEventListener("click", () => go(i + 1));
  log.appendChild(div);
});

function go(k) {
  pos = Math.max(0, Math.min(n, k));
  document.getElementById("dynamic").innerHTML = DATA.frames[pos];
  cardAreas(document.getElementById("cards"), DATA.views[DATA.frame_cards[pos]].map(
    ([title, keys]) => ({title: title, cards: keys.map(cardOf)})));
  slider.value = pos;
  document.getElementById("where").textContent = "position " + pos + " / " + n;
  document.body.dataset.position = pos;
  const rows = log.children;
  for (let i = 0; i < rows.length; i++) {
    rows[i].classList.toggle("current", i === pos - 1);
  }
  if (pos > 0) { rows[pos - 1].scrollIntoView({block: "nearest"}); }
  if (pos === n) { stop(); }
}
function stop() { if (timer) { clearInterval(timer); timer = null; }
  document.getElementById("play").textContent = "Play"; }
document.getElementById("first").addEventListener("click", () => go(0));
document.getElementById("prev").addEventListener("click", () => go(pos - 1));
document.getElementById("next").addEventListener("click", () => go(pos + 1));
document.getElementById("last").addEventListener("click", () => go(n));
document.getElementById("play").addEventListener("click", () => {
  if (timer) { stop(); return; }
  if (pos === n) { go(0); }
  document.getElementById("play").textContent = "Pause";
  timer = setInterval(() => go(pos + 1), 500);
});
slider.addEventListener("input", () => go(parseInt(slider.value, 10)));
document.addEventListener("keydown", e => {
  if (e.key === "ArrowRight") { go(pos + 1); }
  else if (e.key === "ArrowLeft") { go(pos - 1); }
  else if (e.key === "Home") { go(0); }
  else if (e.key === "End") { go(n); }
});
go(0);
</script>
</body></html>
"""

if __name__ == "__main__":
    sys.exit(main())
