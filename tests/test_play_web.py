"""The browser play server's JSON endpoints (without a browser) and ``hon-replay``."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from hon_env import load_scenario
from hon_env.play.match import Match, parse_players
from hon_env.play.replay import Replay
from hon_env.play.viewer import main as replay_main
from hon_env.play.web import make_server

ROOT = Path(__file__).resolve().parents[1]


def _call(url: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url.rstrip("/") + path, data=data, method="POST" if data
                                 is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.fixture
def server():
    sc = load_scenario("origin_story", heroes=["majesty", "stride"])
    match = Match(sc, seed=6, players=parse_players(2, [1], "heuristic"))
    srv, url = make_server(match, port=0)
    assert url.startswith("http://127.0.0.1:")  # loopback only
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield match, url
    srv.shutdown()
    srv.server_close()


def test_endpoints_play_undo_and_refuse_bad_input(server):
    match, url = server
    status, state = _call(url, "/api/state")
    assert status == 200 and state["svg"].startswith("<svg")
    while not state["human_to_move"]:  # seat 2 may open the game
        status, state = _call(url, "/api/step", {})
    assert state["legal"] and state["human_to_move"]
    action = state["legal"][0]["action"]
    status, after = _call(url, "/api/act", {"action": action})
    assert status == 200 and after["actions"] == state["actions"] + 1
    assert match.log[state["actions"]]["action"] == action
    while not after["human_to_move"] and not after["over"]:  # the teammate, one by one
        status, after = _call(url, "/api/step", {})
        assert status == 200
    status, err = _call(url, "/api/act", {"action": 100000})
    assert status == 400 and "not legal" in err["error"]
    status, err = _call(url, "/api/act", {"action": "1"})
    assert status == 400 and "'action' must be an integer" in err["error"]
    status, undone = _call(url, "/api/undo", {})
    assert status == 200 and undone["actions"] == state["actions"]
    status, rep = _call(url, "/api/replay")
    assert status == 200 and Replay.from_dict(rep).players == ["human", "heuristic"]
    status, err = _call(url, "/api/nothing", {})
    assert status == 404


def test_hon_replay_writes_a_self_contained_page(tmp_path, capsys):
    out = tmp_path / "v.html"
    assert replay_main([str(ROOT / "tests" / "golden" / "origin_seed0.json"), "-o",
                        str(out)]) == 0
    html = out.read_text()
    assert "<script" in html and "http://" not in html.replace("http://www.w3.org", "")
    n = len(Replay.load(ROOT / "tests" / "golden" / "origin_seed0.json").actions)
    assert html.count("Majesty: ") >= n  # one log line per decision at least
    bad = tmp_path / "bad.json"
    bad.write_text('{"scenario": "origin_story", "seed": 0, "actions": [99999]}')
    with pytest.raises(SystemExit):
        replay_main([str(bad), "-o", str(tmp_path / "x.html")])
    assert "not legal" in capsys.readouterr().err


def test_the_page_state_of_a_human_villain():
    """The page's state while a human plays the villain agent (Mastermind variant): the
    villain's card choice is offered as buttons, the board draws without a deciding hero
    figure to outline, and the players list names the villain's player."""
    from hon_env.core import layout as L
    from hon_env.play.web import game_state

    match = Match(load_scenario("mastermind"), seed=3,
                  players=parse_players(2, ["villain"], "heuristic", "scripted"))
    match.advance()
    assert match.human_to_move and match.game.current_seat == L.VILLAIN_SEAT
    state = game_state(match)
    assert state["deciding"] == "villain" and state["legal"]
    assert state["players"][-1] == "villain: human" and state["svg"].startswith("<svg")
