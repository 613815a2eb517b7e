"""The browser pages in a real headless Chromium (Debian's ``chromium`` driven by
Playwright with ``executable_path``; ``.ci/run`` installs it): the play page loads without
console errors, a click plays a legal action and the teammate answers on its own, the
replay viewer steps through a game."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from hon_env import load_scenario
from hon_env.play.match import Match, parse_players
from hon_env.play.replay import Replay
from hon_env.play.viewer import write_viewer
from hon_env.play.web import make_server

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("HON_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (pip install -e '.[dev]')")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                              args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def _page(browser):
    """A new page and the list its console errors and uncaught exceptions go to."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


@pytest.fixture
def served():
    """A two-seat game on a local server: seat 1 human, seat 2 the scripted team."""
    sc = load_scenario("origin_story", heroes=["majesty", "stride"])
    match = Match(sc, seed=4, players=parse_players(2, [1], "heuristic"))
    server, url = make_server(match, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield match, url
    server.shutdown()
    server.server_close()


def test_play_page_loads_without_console_errors(browser, served):
    match, url = served
    page, errors = _page(browser)
    page.goto(url)
    page.wait_for_selector("button.action", timeout=20_000)
    assert page.locator("#board svg polygon").count() >= len(match.scenario.space_labels)
    n = page.locator("button.action").count()
    assert n == len(match.legal_moves()) > 0
    assert errors == []
    page.close()


def test_a_click_plays_a_legal_action_and_the_team_moves(browser, served):
    """Clicking a button applies that action on the server's game; the scripted teammate
    then answers on its own until the human decides again."""
    match, url = served
    page, errors = _page(browser)
    page.goto(url)
    clicked = []
    for _ in range(40):  # click until a teammate has had a decision
        page.wait_for_selector("button.action", timeout=30_000)
        before = len(match.actions)
        button = page.locator("button.action").last
        action = int(button.get_attribute("data-action"))
        assert match.game.legal_mask()[action]
        button.click()
        page.wait_for_function(f"Number(document.body.dataset.actions) > {before}",
                               timeout=20_000)
        assert match.actions[before] == action and match.log[before]["player"] == "human"
        clicked.append(action)
        if any(e["player"] == "heuristic" for e in match.log) or match.over:
            break
    page.wait_for_function("document.querySelector('button.action') !== null || "
                           "document.getElementById('status').textContent.startsWith('Game')",
                           timeout=30_000)
    assert any(e["player"] == "heuristic" for e in match.log), "the teammate never moved"
    assert "(heuristic)" in page.inner_text("#log")
    assert errors == []
    page.close()


def test_replay_viewer_steps_through_the_game(browser, tmp_path):
    replay = Replay.load(ROOT / "tests" / "golden" / "duo_seed5.json")
    html = write_viewer(replay, tmp_path / "game.html")
    page, errors = _page(browser)
    page.goto(html.as_uri())
    first = page.inner_html("#dynamic")
    assert page.locator("#static polygon").count() >= 40
    page.click("#next")
    assert page.get_attribute("body", "data-position") == "1"
    assert page.inner_html("#dynamic") != first
    page.keyboard.press("End")
    assert page.get_attribute("body", "data-position") == str(len(replay.actions))
    assert "GAME OVER" in page.text_content("#dynamic")
    page.keyboard.press("Home")
    assert page.inner_html("#dynamic") == first
    assert errors == []
    page.close()
