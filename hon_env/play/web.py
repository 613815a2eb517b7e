"""Playing in the browser (``hon-play --web``): a local server on 127.0.0.1 only.

Standard library only (``http.server``). The page shows the SVG board, the legal actions
as buttons, the teammates' answers one by one (the page asks the server for the next
policy move every ``BOT_DELAY_MS``), the game's log, undo and the replay download. Every
card shown (a human's hand, an action's card, the cards in play) carries its rules text
(``hon_env.play.cards``): as a tooltip on hover, and in a small panel on click or tap (the
``?`` beside an action button, since clicking the button itself answers).

JSON endpoints (all answer the state below, or ``{"error": ...}`` with status 400):

    GET  /api/state            the state
    POST /api/act   {"action": a}   a human's answer (a legal action index)
    POST /api/step             one policy answer (when a policy owns the decision)
    POST /api/undo             take back the latest human decision
    GET  /api/replay           the replay JSON so far

The state: ``svg`` (the board), ``legal`` (``[{"action", "text", "card"}]``, for a human
decision only; ``card`` is the card the action names or null), ``hand`` (``{"title",
"cards"}``: the deciding human's hand, else the first human seat's; null without one or
during a draft), ``in_play`` (``[{"title", "cards"}]``, ``cards.in_play``),
``human_to_move``, ``over``, ``outcome``, ``deciding``, ``decision``, ``players``, ``log``
(lines) and ``actions`` (how many answers so far). A card is ``{"key", "name", "text"}``.
"""

from __future__ import annotations

import json
import threading
import webbrowser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from hon_env.game import IllegalActionError
from hon_env.play import cardhtml, cards
from hon_env.play.gamelog import format_entry
from hon_env.play.match import Match
from hon_env.spec import layout as L
from hon_env.views.svg import render_svg

HOST = "127.0.0.1"
BOT_DELAY_MS = 350
MAX_BODY = 4096  # bytes of a POST body: the API takes {"action": N} or nothing


def game_state(match: Match) -> dict[str, Any]:
    """What the page shows (see the module documentation)."""
    g = match.game
    human = match.human_to_move
    legal = []
    for a, t in match.legal_moves() if human else []:
        c = cards.action_card(g, a)
        legal.append({"action": a, "text": t, "card": c.to_dict() if c else None})
    return {
        "svg": render_svg(g, match.last_action),
        "legal": legal,
        "hand": _hand(match),
        "in_play": [{"title": title, "cards": [c.to_dict() for c in area]}
                    for title, area in cards.in_play(g)],
        "human_to_move": human, "over": match.over, "outcome": g.outcome,
        "loss_reason": g.loss_reason, "deciding": g.current_agent, "decision": g.decision,
        "players": match.seat_labels(),
        "log": [format_entry(e) for e in match.log], "actions": len(match.actions),
        "can_undo": any(match.player(e["seat"]) == "human" for e in match.log),
    }


def _hand(match: Match) -> dict[str, Any] | None:
    """The hand a human looks at: the deciding human seat's, else the first human seat's
    (None when no human plays, while the heroes are drafted and after the game)."""
    seats = match.human_seats
    if match.over or not seats or match.game.state[0, L.DRAFTING]:
        return None
    seat = match.game.current_seat if match.human_to_move else seats[0]
    return {"title": cards.hand_title(match.game, seat),
            "cards": [c.to_dict() for c in cards.hand(match.game, seat)]}


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Quiet: the terminal stays readable."""

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, data: Any) -> None:
        self._send(status, json.dumps(data).encode(), "application/json")

    def do_GET(self) -> None:  # noqa: N802
        match = self.server.match
        with self.server.lock:
            if self.path in ("/", "/index.html"):
                self._send(200, PAGE.encode(), "text/html; charset=utf-8")
            elif self.path == "/api/state":
                self._json(200, game_state(match))
            elif self.path == "/api/replay":
                self._json(200, match.replay().to_dict())
            elif self.path == "/favicon.ico":
                self._send(204, b"", "image/x-icon")
            else:
                self._json(404, {"error": f"no page {self.path}"})

    def do_POST(self) -> None:  # noqa: N802
        match = self.server.match
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:  # read nothing that is not a small JSON request
            self._json(400, {"error": f"Content-Length must be an integer in [0, {MAX_BODY}]"})
            return
        raw = self.rfile.read(length) if length else b""
        with self.server.lock:
            try:
                body = json.loads(raw or b"{}")
                if self.path == "/api/act":
                    action = body.get("action") if isinstance(body, dict) else None
                    if isinstance(action, bool) or not isinstance(action, int):
                        raise ValueError(f"'action' must be an integer, got {action!r}")
                    match.act(action)
                elif self.path == "/api/step":
                    if not match.over and not match.human_to_move:
                        match.bot_step()
                elif self.path == "/api/undo":
                    if not match.undo():
                        raise ValueError("nothing to undo: no human decision yet")
                else:
                    self._json(404, {"error": f"no endpoint {self.path}"})
                    return
            except (ValueError, RuntimeError, IllegalActionError) as e:
                self._json(400, {"error": str(e)})
                return
            self._json(200, game_state(match))


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, match: Match, port: int) -> None:
        super().__init__((HOST, port), _Handler)
        self.match = match
        self.lock = threading.Lock()


def make_server(match: Match, port: int = 0) -> tuple[_Server, str]:
    """A server for ``match`` on 127.0.0.1 (``port`` 0: any free port) and its URL; run it
    with ``serve_forever()`` (e.g. in a thread) and stop it with ``shutdown()``."""
    server = _Server(match, port)
    return server, f"http://{HOST}:{server.server_address[1]}/"


def serve(match: Match, port: int = 8765, open_browser: bool = True) -> None:
    """Serve ``match`` until Ctrl-C (then return, so the caller saves the replay)."""
    server, url = make_server(match, port)
    print(f"Hour of Need at {url} (Ctrl-C to stop)", flush=True)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hour of Need</title>
<style>
body { font-family: DejaVu Sans, Verdana, sans-serif; margin: 12px; background: #fafafa; }
#wrap { display: flex; gap: 14px; align-items: flex-start; }
#board svg { width: 100%; height: auto; background: white; border: 1px solid #ccc; }
#board { flex: 1 1 auto; min-width: 700px; }
#side { width: 360px; flex: 0 0 360px; }
#actions .move { display: flex; gap: 4px; margin: 2px 0; }
#actions button { padding: 4px 6px; font-size: 13px; cursor: pointer; }
#actions button.action { flex: 1 1 auto; text-align: left; }
#actions button.card-info { flex: 0 0 28px; }
#log { height: 260px; overflow-y: auto; font-size: 12px; background: white;
  border: 1px solid #ccc; padding: 4px; white-space: pre-wrap; }
#status { font-weight: bold; margin: 6px 0; }
#error { color: #b00020; min-height: 1em; }
%CARD_CSS%</style></head>
<body>
<div id="wrap">
  <div id="board"></div>
  <div id="side">
    <div id="players"></div>
    <div id="status">loading...</div>
    <div id="error"></div>
    <div id="actions"></div>
    <div id="hand"></div>
    <details id="in-play-box" open><summary>Cards in play (click one to read it)</summary>
      <div id="in-play"></div></details>
    <p><button id="undo">Undo my last decision</button>
       <a id="download" href="/api/replay" download="replay.json">Download replay</a></p>
    <h4>Log</h4>
    <div id="log"></div>
  </div>
</div>
%CARD_PANEL%
<script>
"use strict";
const BOT_DELAY_MS = %BOT_DELAY_MS%;
%CARD_JS%
let busy = false;

async function call(path, body) {
  const opts = body === undefined ? {} : {method: "POST", body: JSON.stringify(body),
    headers: {"Content-Type": "application/json"}};
  const response = await fetch(path, opts);
  const data = await response.json();
  if (!response.ok) { throw new Error(data.error || response.statusText); }
  return data;
}

function show(state) {
  document.getElementById("board").innerHTML = state.svg;
  document.getElementById("players").textContent = "Seats: " + state.players.join(", ");
  const status = document.getElementById("status");
  if (state.over) {
    status.textContent = "Game over: " + state.outcome +
      (state.loss_reason ? " (" + state.loss_reason + ")" : "");
  } else if (state.human_to_move) {
    status.textContent = "Your decision (" + state.deciding + ", " + state.decision + ")";
  } else {
    status.textContent = state.deciding + " is thinking...";
  }
  const actions = document.getElementById("actions");
  actions.replaceChildren();
  for (const move of state.legal) {
    const row = document.createElement("div");
    row.className = "move";
    const b = document.createElement("button");
    b.className = "action";
    b.dataset.action = move.action;
    b.textContent = move.text;
    b.addEventListener("click", () => post("/api/act", {action: move.action}));
    row.appendChild(b);
    if (move.card) {  // hover: the card's text; "?": the panel (a click on b answers)
      b.title = cardTitle(move.card);
      const info = document.createElement("button");
      info.className = "card-info";
      info.textContent = "?";
      info.title = "read " + move.card.name;
      info.dataset.key = move.card.key;
      info.addEventListener("click", () => showCard(move.card));
      row.appendChild(info);
    }
    actions.appendChild(row);
  }
  cardAreas(document.getElementById("hand"), state.hand ? [state.hand] : []);
  cardAreas(document.getElementById("in-play"), state.in_play);
  document.getElementById("undo").disabled = !state.can_undo;
  const log = document.getElementById("log");
  log.textContent = state.log.join("\\n");
  log.scrollTop = log.scrollHeight;
  document.body.dataset.actions = state.actions;
  if (!state.over && !state.human_to_move) {
    setTimeout(() => post("/api/step", {}), BOT_DELAY_MS);
  }
}

async function post(path, body) {
  if (busy) { return; }
  busy = true;
  try {
    document.getElementById("error").textContent = "";
    show(await call(path, body));
  } catch (e) {
    document.getElementById("error").textContent = e.message;
  } finally {
    busy = false;
  }
}

document.getElementById("undo").addEventListener("click", () => post("/api/undo", {}));
call("/api/state").then(show).catch(e => {
  document.getElementById("error").textContent = e.message;
});
</script>
</body></html>
""".replace("%BOT_DELAY_MS%", str(BOT_DELAY_MS)).replace("%CARD_CSS%", cardhtml.CSS).replace(
    "%CARD_PANEL%", cardhtml.PANEL).replace("%CARD_JS%", cardhtml.JS)
