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


def _raw_post(url: str, path: str, headers: dict[str, str], body: bytes = b"") -> int:
    """The status of a POST with hand-made headers (urllib would fix Content-Length)."""
    import http.client
    from urllib.parse import urlsplit

    where = urlsplit(url)
    conn = http.client.HTTPConnection(where.hostname, where.port, timeout=30)
    conn.putrequest("POST", path)
    for k, v in headers.items():
        conn.putheader(k, v)
    conn.endheaders(body)
    status = conn.getresponse().status
    conn.close()
    return status


def test_bad_request_bodies_get_an_answer(server):
    """A Content-Length that is not a small non-negative integer is a 400 at once (a
    negative one would have read until the client hung up), the game untouched."""
    match, url = server
    before = len(match.log)
    for length in ("abc", "-5", "100000000"):
        assert _raw_post(url, "/api/step", {"Content-Length": length}) == 400
    assert _raw_post(url, "/api/act", {"Content-Length": "3"}, b"{x}") == 400  # bad JSON
    assert len(match.log) == before
    assert _call(url, "/api/state")[0] == 200  # still serving


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
    from hon_env.play.web import game_state
    from hon_env.spec import layout as L

    match = Match(load_scenario("mastermind"), seed=3,
                  players=parse_players(2, ["villain"], "heuristic", "scripted"))
    match.advance()
    assert match.human_to_move and match.game.current_seat == L.VILLAIN_SEAT
    state = game_state(match)
    assert state["deciding"] == "villain" and state["legal"]
    assert state["players"][-1] == "villain: human" and state["svg"].startswith("<svg")


def test_the_page_state_gives_each_card_its_text():
    """The state names the human's hand with each card's text (the snapshot's hand, in
    order), the card of every legal action that names one, and the cards in play."""
    from hon_env.content.card_text import card_text
    from hon_env.play.web import game_state

    sc = load_scenario("origin_story", heroes=["majesty", "stride"])
    match = Match(sc, seed=6, players=parse_players(2, [1], "heuristic"))
    match.advance()
    while not any(m["text"].startswith("Majesty: play ") for m in game_state(match)["legal"]):
        match.act(match.legal_moves()[0][0])  # on to a decision with a card to play
        match.advance()
    state = game_state(match)
    snap = match.game.snapshot()["heroes"][0]
    assert state["hand"]["title"] == "Your hand (Majesty, seat 1)"
    assert [c["name"] for c in state["hand"]["cards"]] == snap["hand"]
    names = sc.hero_card_names[0]
    for c in state["hand"]["cards"]:
        assert c["text"] == card_text(sc, "hero_card", names.index(c["name"]))
    played = [m for m in state["legal"] if m["text"].startswith("Majesty: play ")]
    for m in played:
        assert m["card"]["name"] == m["text"].removeprefix("Majesty: play ")
        assert m["card"]["text"] in {c["text"] for c in state["hand"]["cards"]}
    assert all(m["card"] is None for m in state["legal"] if " move to " in m["text"])
    areas = {a["title"]: a["cards"] for a in state["in_play"]}
    assert "Regal Bearing (exhaust)" in areas["1 Majesty: Hero card"][0]["text"]
    assert areas["Villain"][0]["name"] == "Dowager"


@pytest.mark.parametrize("name", ["specials_seed3", "two_fronts_seed7", "duo_seed5"])
def test_the_replay_page_shows_the_cards_of_every_position(name):
    """``hon-replay``'s data: at every position every hero's hand and threat area as the
    snapshot has them, each card's text, and the card each log line names."""
    from hon_env.content.card_text import card_text
    from hon_env.play.viewer import replay_frames, viewer_html

    replay = Replay.load(ROOT / "tests" / "golden" / f"{name}.json")
    data = replay_frames(replay)
    sc = replay.load_scenario()
    assert len(data["frame_cards"]) == len(data["frames"]) == len(replay.actions) + 1
    assert len(data["log_cards"]) == len(data["log"])
    assert any(k and k.startswith("hero_card:") for k in data["log_cards"])
    for pos, (game, action) in enumerate(replay.positions(sc)):
        view = dict((t, [data["cards"][k]["name"] for k in keys])
                    for t, keys in data["views"][data["frame_cards"][pos]])
        for h, hero in enumerate(game.snapshot()["heroes"]):
            who = f"{h + 1} {sc.hero_names[h]}"
            assert view.get(f"{who}: hand", []) == hero["hand"], (pos, h)
            assert view.get(f"{who}: threat area", []) == [
                t["card"] for t in hero["threat_area"]], (pos, h)
            assert view.get(f"{who}: play area", []) == hero["play_area"], (pos, h)
        key = data["log_cards"][pos] if action is not None else None
        if key and key.startswith("hero_card:"):  # "play X", "send back X", "discard X"...
            named = data["cards"][key]["name"]
            assert named in data["log"][pos], (pos, named, data["log"][pos])
    for key, c in data["cards"].items():
        kind, seat, index = key.split("/")[0].split(":")  # "/name": a nemesis's other side
        assert c["text"] == card_text(sc, kind, int(index), int(seat))
    html = viewer_html(replay)
    assert 'id="card-panel"' in html and "function cardChip" in html


def test_cards_in_play_follow_the_snapshot_with_nemeses():
    """Random play with five heroes (nemeses dealt into threat areas): every hero's
    threat area, play area and clues in ``cards.in_play`` are the snapshot's, in order,
    a nemesis named by the side it shows."""
    import numpy as np

    from hon_env import Game
    from hon_env.play import cards

    sc = load_scenario("origin_story", heroes=["majesty", "stride", "cipher", "vigil",
                                               "guerilla"])
    assert sc.n_nemeses > 0
    g = Game(sc, seed=1)
    rng = np.random.default_rng(1)
    nemeses_seen = 0
    for _ in range(400):
        if g.is_over:
            break
        areas = {t: [c.name for c in area] for t, area in cards.in_play(g)}
        for h, hero in enumerate(g.snapshot()["heroes"]):
            who = f"{h + 1} {hero['name']}"
            assert areas.get(f"{who}: threat area", []) == [t["card"] for t in
                                                            hero["threat_area"]]
            assert areas.get(f"{who}: play area", []) == hero["play_area"]
            assert areas.get(f"{who}: clues", []) == hero["clues"]
            assert areas[f"{who}: Hero card"] == [hero["name"]]
        nemeses_seen += sum(n["card"] in sum(areas.values(), []) for n in
                            g.snapshot()["nemeses"] if not n["defeated"])
        g.apply(int(rng.choice(g.legal_actions())))
    assert nemeses_seen


def test_the_page_state_of_a_draft_reads_each_hero_on_offer():
    """While the seats draft (Draft variant) no hand is shown and each pick carries the
    Hero card text of the hero it takes."""
    from hon_env.content.card_text import card_text
    from hon_env.play.web import game_state

    sc = load_scenario("draft_pick")
    match = Match(sc, seed=2, players=parse_players(2, [1, 2], "heuristic"))
    state = game_state(match)
    assert state["hand"] is None and state["in_play"] == []
    pool = sc.rules["draft"]["pool"]
    assert [m["card"]["name"] for m in state["legal"]] == [
        m["text"].split("take ")[1].split(" (draft)")[0] for m in state["legal"]]
    for m in state["legal"]:
        k = pool.index(m["card"]["name"])
        assert m["card"]["text"] == card_text(sc, "draft", k)
        assert m["card"]["text"].startswith("normal")
