"""``hon-play`` in the terminal, driven by scripted keystrokes: a whole game, undo, the
log, bad input, quitting; the saved replay reproduces the game."""

from __future__ import annotations

import io

import numpy as np
import pytest
from rich.console import Console

from hon_env import Game, load_scenario
from hon_env.play.cli import main
from hon_env.play.match import Match, parse_players
from hon_env.play.replay import Replay
from hon_env.spec import layout as L


class Keys(io.StringIO):
    """Scripted lines first, then ``then`` forever (a player who always picks it)."""

    def __init__(self, lines: list[str], then: str | None = "1") -> None:
        super().__init__("".join(f"{x}\n" for x in lines))
        self.then = then

    def readline(self, *args) -> str:  # noqa: D401
        line = super().readline(*args)
        if not line and self.then is not None:
            return self.then + "\n"
        return line


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=120, color_system=None), out


def test_a_whole_game_with_a_scripted_teammate(tmp_path):
    """Seat 1 human (always the first action), seat 2 the scripted team, to the end; the
    log and bad input are answered; the replay file names the players and verifies."""
    console, out = _console()
    path = tmp_path / "game.json"
    rc = main(["--heroes", "majesty", "stride", "--seat", "1", "--seed", "5", "--save",
               str(path)], stdin=Keys(["l", "zz", "0", "b"]), console=console)
    text = out.getvalue()
    assert rc == 0 and "Game over:" in text
    assert "'zz' is not a choice" in text and "'0' is not a choice" in text
    assert "Your hand (Majesty, seat 1)" in text and "majesty decides" in text
    rep = Replay.load(path)
    assert rep.players == ["human", "heuristic"] and rep.seed == 5
    assert {0, 1} <= set(rep.seats)  # both seats decided
    assert rep.verify().is_over


def test_undo_goes_back_to_the_previous_human_decision():
    """``u`` takes back the human's answer and the team's answers after it: the game is
    the one before that answer, and answering again continues from there."""
    sc = load_scenario("origin_story", heroes=["majesty", "stride"])
    m = Match(sc, seed=2, players=parse_players(2, [1], "heuristic"))
    m.advance()
    while len(m.actions) < 12 and not m.over:  # a few human answers with team moves between
        m.act(m.legal_moves()[-1][0])
        m.advance()
    humans = [i for i, s in enumerate(m.replay().seats) if s == 0]
    before = Game(sc, seed=2)
    for a in m.actions[:humans[-1]]:
        before.apply(a)
    assert m.undo()
    assert len(m.actions) == humans[-1]
    np.testing.assert_array_equal(m.game.state, before.state)
    assert m.human_to_move and len(m.log) == len(m.actions)


def test_undo_from_the_keyboard_and_quit(tmp_path):
    console, out = _console()
    path = tmp_path / "g.json"
    main(["--seed", "1", "--save", str(path)], stdin=Keys(["1", "u", "u", "2", "q"], None),
         console=console)
    text = out.getvalue()
    assert "undone: back to your previous decision" in text and "nothing to undo" in text
    rep = Replay.load(path)
    assert len(rep.actions) == 1  # "1" undone, then "2"
    assert rep.actions[0] == int(Game("origin_story", seed=1).legal_actions()[1])


def test_bad_arguments_are_named():
    with pytest.raises(SystemExit):
        main(["--seat", "3"])  # origin_story has one seat
    with pytest.raises(ValueError, match="seat 3 does not exist"):
        parse_players(1, [3], "heuristic")
    with pytest.raises(ValueError, match="2 team players given for 1 seats"):
        parse_players(2, [1], ["heuristic", "random"])
    with pytest.raises(ValueError, match="one player per seat"):
        Match(load_scenario("origin_story"), 0, ["human", "human"])


def test_console_scripts_point_at_callables():
    """``hon-play`` and ``hon-replay`` in pyproject.toml name functions that exist."""
    import importlib
    from pathlib import Path

    tomllib = pytest.importorskip("tomllib", reason="tomllib needs Python 3.11")
    data = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    scripts = data["project"]["scripts"]
    for name in ("hon-play", "hon-replay"):
        module, func = scripts[name].split(":")
        assert callable(getattr(importlib.import_module(module), func))


def test_a_human_villain_in_the_mastermind_variant(tmp_path):
    """``--seat villain`` seats a human at the villain agent (seed 004: a player runs the
    opposition and picks the card that resolves against a hero): the scripted team plays
    both heroes, the human is shown the villain's hidden hand at each villain decision,
    and the replay names the villain's player last and verifies."""
    console, out = _console()
    path = tmp_path / "villain.json"
    rc = main(["--scenario", "mastermind", "--seat", "villain", "--seed", "3", "--save",
               str(path)], stdin=Keys([]), console=console)
    text = out.getvalue()
    assert rc == 0 and "Game over:" in text
    assert "villain: human" in text and "Your hand (the villain, hidden from the heroes)" in text
    assert "villain decides" in text
    rep = Replay.load(path)
    assert rep.players == ["heuristic", "heuristic", "human"]
    assert L.VILLAIN_SEAT in set(rep.seats) and {0, 1} <= set(rep.seats)
    assert rep.verify().is_over
    from hon_env.play.viewer import replay_frames

    frames = replay_frames(rep)  # the replay page names who played the villain
    assert frames["seats"][-1] == "villain: human"
    assert any(line.endswith("(human)") for line in frames["log"])


def test_villain_players_and_their_errors():
    """The villain agent's player: the scripted villain by default, any villain of
    ``agents.villains.load_villain``, never the rulebook's deck (a setting, not a player);
    a bot villain answers its own decisions and a human hero is asked only for its own."""
    sc = load_scenario("mastermind")
    m = Match(sc, seed=4, players=["human", "heuristic"])
    assert m.players == ["human", "heuristic", "scripted"]
    assert m.player(L.VILLAIN_SEAT) == "scripted" and m.human_seats == [0]
    while not m.over:
        m.advance()
        if m.over:
            break
        assert m.human_to_move and m.game.current_seat == 0  # only its own decisions
        m.act(m.legal_moves()[0][0])
    assert any(e["seat"] == L.VILLAIN_SEAT and e["player"] == "scripted" for e in m.log)
    played = Match(sc, seed=4, players=parse_players(2, [], "heuristic", "random"))
    played.advance()
    assert played.over and played.player(L.VILLAIN_SEAT) == "random"
    assert any(e["seat"] == L.VILLAIN_SEAT for e in played.log)
    with pytest.raises(ValueError, match="rulebook's deck"):
        Match(sc, 0, ["heuristic", "heuristic", "top_card"])
    with pytest.raises(ValueError, match="one for the villain agent"):
        Match(sc, 0, ["heuristic"])
    with pytest.raises(ValueError, match="needs a game with a villain agent"):
        parse_players(1, ["villain"], "heuristic")
    with pytest.raises(ValueError, match="is not a seat: 1..2 or villain"):
        parse_players(2, ["v"], "heuristic", "scripted")
    with pytest.raises(SystemExit):
        main(["--villain-player", "random"])  # origin_story has no villain agent


def _line_with(text: str, *parts: str) -> str:
    """The first output line holding every one of ``parts`` ("" if none does)."""
    return next((line for line in text.splitlines() if all(p in line for p in parts)), "")


def test_card_text_beside_the_hand_and_the_card_commands():
    """Each card of the hand shows its rules text beside its name; ``c N`` prints card N
    of the hand in full, ``c`` the whole hand, ``t`` the cards in play, ``?`` the
    commands; a bad ``c N`` is named. Seed 5 deals Majesty a Backhand."""
    from hon_env.content.card_text import card_text
    from hon_env.play.terminal import COMMANDS

    sc = load_scenario("origin_story", heroes=["majesty"])
    snap_hand = Game(sc, seed=5).snapshot()["heroes"][0]["hand"]
    assert "Backhand" in snap_hand and "Throne Breaker" in snap_hand
    backhand = "deal 1 damage to an enemy within 1 (instant; feats: toughness)"
    first = snap_hand[0]
    first_text = card_text(sc, "hero_card", sc.hero_card_names[0].index(first))
    console, out = _console()
    main(["--heroes", "majesty", "--seed", "5", "--no-save"],
         stdin=Keys(["c 1", "c", "c 9", "t", "?", "q"], None), console=console)
    text = out.getvalue()
    # the hand table: number, name, text on one line; the actions table names the card too
    hand_table = text.split("Your hand (Majesty, seat 1)", 1)[1].split("majesty decides", 1)[0]
    k = snap_hand.index("Backhand") + 1
    assert _line_with(hand_table, f"│ {k} ", "Backhand", backhand), hand_table
    assert _line_with(text, "send back Backhand", "deal 1 damage to an enemy within 1")
    # c 1: card 1 of the hand in full, then c: every card of the hand numbered
    after = text.split("?]: c 1\n", 1)[1]
    assert after.startswith(f"1 {first}: {first_text}\n")
    whole = after.split("?]: c\n", 1)[1].split("\nchoice [", 1)[0]
    assert [line.split(":")[0] for line in whole.splitlines()] == [
        f"{k} {name}" for k, name in enumerate(snap_hand, start=1)]
    assert f"no card '9' in your hand (1-{len(snap_hand)})" in text
    # t: the cards in play by area, with the Hero card and the Villain card read out
    in_play = text.split("?]: t\n", 1)[1].split("\nchoice [", 1)[0]
    assert "1 Majesty: Hero card" in in_play and "Regal Bearing (exhaust): prevent 1" in in_play
    assert "Villain\nDowager: scheming: danger" in in_play
    # ?: every command with what it does
    helped = text.split("?]: ?\n", 1)[1]
    for key, what in COMMANDS:
        assert _line_with(helped, key if key != "1..n" else "1..", what[:40]), key
