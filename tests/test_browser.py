"""The browser pages in a real headless Chromium (Debian's ``chromium`` driven by
Playwright with ``executable_path``; ``.ci/run`` installs it): the play page loads without
console errors, a click plays a legal action and the teammate answers on its own, the
replay viewer steps through a game, and both show a card's rules text on hover and in a
panel on click."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from hon_env import load_scenario
from hon_env.play import cards
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


def _panel(page) -> tuple[str, str]:
    """The card panel's name and text once it is open."""
    page.wait_for_selector("#card-panel:not([hidden])", timeout=5_000)
    return page.inner_text("#card-name"), page.inner_text("#card-text")


def test_hand_cards_show_their_text_on_hover_and_click(browser, served):
    """Each hand card carries its rules text as a tooltip and opens it in the panel on
    click; the "?" beside an action opens that action's card without answering; Esc
    closes the panel; the cards in play (the Hero card) read the same way."""
    match, url = served
    page, errors = _page(browser)
    page.goto(url)
    page.wait_for_selector("button.action", timeout=20_000)
    assert match.human_to_move  # the page waits for the human: the hand stays put
    hand = cards.hand(match.game, match.game.current_seat)
    chips = page.locator("#hand .card")
    assert [chips.nth(k).inner_text() for k in range(chips.count())] == [c.name for c in hand]
    last = chips.nth(len(hand) - 1)
    last.hover()
    assert last.get_attribute("title") == f"{hand[-1].name}: {hand[-1].text}"
    assert page.locator("#card-panel").is_hidden()
    last.click()
    assert _panel(page) == (hand[-1].name, hand[-1].text)
    page.keyboard.press("Escape")
    page.wait_for_selector("#card-panel", state="hidden", timeout=5_000)
    before = len(match.actions)
    info = page.locator("button.card-info").first
    action = int(info.locator("xpath=..").locator("button.action").get_attribute("data-action"))
    named = cards.action_card(match.game, action)
    assert named is not None
    info.click()
    assert _panel(page) == (named.name, named.text)
    assert len(match.actions) == before  # reading a card answers nothing
    hero = page.locator("#in-play .card", has_text=match.scenario.hero_names[0]).first
    assert "Regal Bearing (exhaust)" in hero.get_attribute("title")
    hero.click()
    assert "Regal Bearing (exhaust)" in _panel(page)[1]
    assert errors == []
    page.close()


def test_replay_viewer_shows_card_text(browser, tmp_path):
    """The replay page lists each position's cards with their text on hover and click,
    and a log line that names a card has its text as a tooltip."""
    replay = Replay.load(ROOT / "tests" / "golden" / "origin_seed0.json")
    html = write_viewer(replay, tmp_path / "game.html")
    game = replay.play(upto=3)
    hand = cards.hand(game, 0)
    page, errors = _page(browser)
    page.goto(html.as_uri())
    for _ in range(3):
        page.click("#next")
    assert page.get_attribute("body", "data-position") == "3"
    area = page.locator("#cards .area", has_text="1 Majesty: hand")
    chips = area.locator(".card")
    assert [chips.nth(k).inner_text() for k in range(chips.count())] == [c.name for c in hand]
    assert chips.first.get_attribute("title") == f"{hand[0].name}: {hand[0].text}"
    chips.first.click()
    assert _panel(page) == (hand[0].name, hand[0].text)
    page.click("#card-close")
    page.wait_for_selector("#card-panel", state="hidden", timeout=5_000)
    game = replay.new_game()
    for k, a in enumerate(replay.actions):
        named = cards.action_card(game, a)
        if named is not None:
            line = page.locator("#log div").nth(k)
            assert line.get_attribute("title") == f"{named.name}: {named.text}"
            break
        game.apply(a)
    else:
        pytest.fail("no decision of the replay names a card")
    assert errors == []
    page.close()
