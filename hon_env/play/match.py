"""A game between people and policies, with undo, a log and a replay: what ``hon-play``
(terminal and browser) runs.

``players[seat]`` is ``"human"`` or a policy spec of ``agents.registry.load_policy``
(``"heuristic"``, ``"random"``, a checkpoint path). ``advance()`` lets the policies answer
until a human decides or the game ends; ``act(a)`` is a human's answer; ``undo()`` takes
back the latest human answer and the policies' answers after it (the game is replayed from
its seed, which reproduces it exactly).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from hon_env.content import Scenario
from hon_env.game import Game, IllegalActionError
from hon_env.play.gamelog import apply_logged, replay_log
from hon_env.play.replay import Replay

HUMAN = "human"


class Match:
    """One game with a player per seat (see the module documentation)."""

    def __init__(self, scenario: Scenario, seed: int, players: Sequence[str],
                 policy_seed: int | None = None) -> None:
        if scenario.villain_agent:
            raise ValueError(f"scenario {scenario.id!r} has a villain agent (Mastermind "
                             "variant), which hon-play cannot seat yet; play it through the "
                             "PettingZoo env (docs/mastermind.md)")
        if len(players) != scenario.n_heroes:
            raise ValueError(f"players must name one player per seat ({scenario.n_heroes} "
                             f"seats: {list(scenario.hero_ids)}), got {list(players)}")
        self.scenario = scenario
        self.seed = int(seed)
        self.players = [str(p) for p in players]
        self._policies: dict[str, Any] = {}
        for spec in set(self.players) - {HUMAN}:
            from agents.registry import load_policy  # the agents package only when needed

            self._policies[spec] = load_policy(
                spec, seed=self.seed if policy_seed is None else policy_seed)
        self.game = Game(scenario, seed=self.seed)
        self.actions: list[int] = []
        self.log: list[dict[str, Any]] = []

    # --- whose turn ---------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.game.is_over

    @property
    def human_to_move(self) -> bool:
        """A human seat owns the pending decision."""
        return not self.over and self.players[self.game.current_seat] == HUMAN

    @property
    def human_seats(self) -> list[int]:
        return [s for s, p in enumerate(self.players) if p == HUMAN]

    @property
    def last_action(self) -> str | None:
        """The latest answer in words, or None before the first."""
        return self.log[-1]["text"] if self.log else None

    # --- moves --------------------------------------------------------------------------
    def act(self, action: int) -> dict[str, Any]:
        """A human's answer to the pending decision; returns its log entry.

        Raises:
            RuntimeError: the game is over or a policy owns the decision.
            IllegalActionError: ``action`` is not legal (nothing changes).
        """
        if self.over:
            raise RuntimeError(f"the game is over ({self.game.outcome})")
        if not self.human_to_move:
            raise RuntimeError(f"seat {self.game.current_seat + 1} is played by "
                               f"{self.players[self.game.current_seat]}, not by a human")
        a = int(action)
        if not (0 <= a < len(self.game.legal_mask())) or not self.game.legal_mask()[a]:
            self.game.apply(a)  # raises IllegalActionError naming the legal actions
            raise IllegalActionError(f"action {a} is not legal")  # pragma: no cover
        return self._apply(a)

    def bot_step(self) -> dict[str, Any]:
        """Let the policy of the deciding seat answer; returns its log entry."""
        if self.over or self.human_to_move:
            raise RuntimeError("no policy owns the pending decision")
        g = self.game
        seat = g.current_seat
        policy = self._policies[self.players[seat]]
        action = policy.act(g.observation(seat)[None], g.legal_mask()[None],
                            np.array([seat], np.int64), engine=g.engine)
        return self._apply(int(action[0]))

    def advance(self, max_steps: int | None = None) -> list[dict[str, Any]]:
        """Policies answer until a human decides, the game ends or ``max_steps`` answers."""
        out = []
        while not self.over and not self.human_to_move:
            if max_steps is not None and len(out) >= max_steps:
                break
            out.append(self.bot_step())
        return out

    def undo(self) -> bool:
        """Take back the latest human answer and every answer after it; False if none."""
        seats = [e["seat"] for e in self.log]
        humans = [i for i, s in enumerate(seats) if self.players[s] == HUMAN]
        if not humans:
            return False
        keep = humans[-1]
        self.game = Game(self.scenario, seed=self.seed)
        self.actions = self.actions[:keep]
        self.log = replay_log(self.game, self.actions, self.players)
        return True

    def _apply(self, action: int) -> dict[str, Any]:
        seat = self.game.current_seat
        entry = apply_logged(self.game, action, self.players[seat], len(self.actions))
        self.actions.append(action)
        self.log.append(entry)
        return entry

    # --- records ------------------------------------------------------------------------
    def replay(self) -> Replay:
        """The game so far as a ``Replay`` (players as given)."""
        return Replay.from_actions(self.scenario, self.seed, self.actions, self.players)

    def legal_moves(self) -> list[tuple[int, str]]:
        """``(action, words)`` for every legal answer now (empty once over)."""
        if self.over:
            return []
        return [(int(a), self.game.action_to_string(int(a))) for a in self.game.legal_actions()]


def parse_players(n_seats: int, humans: Sequence[int], team: str | Sequence[str]
                  ) -> list[str]:
    """Players per seat: ``humans`` are 1-based human seats; the rest get ``team`` (one spec
    for all, or one per non-human seat in seat order)."""
    for s in humans:
        if not 1 <= s <= n_seats:
            raise ValueError(f"seat {s} does not exist: seats are 1..{n_seats}")
    others = [s for s in range(n_seats) if s + 1 not in set(humans)]
    specs = [team] * len(others) if isinstance(team, str) else list(team)
    if len(specs) != len(others):
        raise ValueError(f"{len(specs)} team players given for {len(others)} seats")
    players = [HUMAN] * n_seats
    for s, spec in zip(others, specs, strict=True):
        players[s] = spec
    return players
