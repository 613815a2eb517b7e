"""The game's log in words: one entry per decision, with what changed on the board.

An entry names the round, the hero who decided, who played that seat, the answer in
words (``Game.action_to_string``) and the event counters it moved (``layout.EVENT_NAMES``:
damage dealt, rescues, captures, a villain advance...), including those of the villain and
issue turns that ran before the next decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from hon_env.content import Scenario
from hon_env.content.villain_agent import VILLAIN_AGENT
from hon_env.game import Game
from hon_env.spec import layout as L

_N_EVENTS = len(L.EVENT_NAMES)
_TURNS = ("setup", "villain", "hero", "issue", "over")


def seat_player(players: Sequence[str] | None, seat: int, n_heroes: int) -> str:
    """Who plays ``seat``: ``players`` names one player per hero seat, then the villain
    agent's player (Mastermind variant, at index ``n_heroes``); "" when unknown."""
    if players is None:
        return ""
    index = n_heroes if seat == L.VILLAIN_SEAT else seat
    return players[index] if 0 <= index < len(players) and 0 <= seat else ""


def seat_labels(scenario: Scenario, players: Sequence[str]) -> list[str]:
    """One line per seat's player: ``"1 majesty: human"``, ..., ``"villain: scripted"``
    (seats by ``Scenario.seat_names``: one agent may play two seats)."""
    names = list(scenario.seat_names) + ([VILLAIN_AGENT] if scenario.villain_agent else [])
    n = scenario.n_heroes
    return [f"{name}: {p}" if s == n else f"{s + 1} {name}: {p}"
            for s, (name, p) in enumerate(zip(names, players, strict=False))]


def apply_logged(game: Game, action: int, player: str = "", index: int = 0) -> dict[str, Any]:
    """Apply ``action`` to ``game`` and return its log entry (JSON-ready)."""
    seat = game.current_seat
    agent = game.current_agent
    decision = game.decision
    text = game.action_to_string(action)
    rnd = int(game.field("round"))
    turn = _TURNS[int(game.field("turn"))]
    before = np.array(game.field("events")[:_N_EVENTS], np.int64)
    game.apply(action)
    delta = np.array(game.field("events")[:_N_EVENTS], np.int64) - before
    return {"index": index, "round": rnd, "turn": turn, "seat": seat, "agent": agent,
            "player": player, "decision": decision, "action": int(action), "text": text,
            "events": {L.EVENT_NAMES[k]: int(delta[k]) for k in np.flatnonzero(delta)},
            "outcome": game.outcome}


def format_entry(entry: dict[str, Any]) -> str:
    """One line: ``#12 R2 Majesty: move to C5 (human)  [rescues +1]``."""
    line = f"#{entry['index'] + 1} R{entry['round']} {entry['text']}"
    if entry["player"]:
        line += f" ({entry['player']})"
    if entry["events"]:
        line += "  [" + ", ".join(f"{k.replace('_', ' ')} {v:+d}"
                                  for k, v in entry["events"].items()) + "]"
    if entry["outcome"]:
        line += f"  -> game over: {entry['outcome']}"
    return line


def replay_log(game: Game, actions: Sequence[int], players: Sequence[str] | None = None
               ) -> list[dict[str, Any]]:
    """Apply ``actions`` to ``game`` (advanced in place) and return their log entries."""
    out = []
    n = game.scenario.n_heroes
    for i, a in enumerate(actions):
        out.append(apply_logged(game, int(a), seat_player(players, game.current_seat, n), i))
    return out
