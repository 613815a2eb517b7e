"""A game between people and policies, with undo, a log and a replay: what ``hon-play``
(terminal and browser) runs.

``players[seat]`` is ``"human"`` or a policy spec of ``agents.registry.load_policy``
(``"heuristic"``, ``"random"``, a checkpoint path). With a villain agent (Mastermind
variant) one more entry, last, plays the villain: ``"human"`` or a villain of
``agents.villains.load_villain`` (``"scripted"``, the default when the entry is left out,
``"random"``, a checkpoint path). ``advance()`` lets the policies answer
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
from hon_env.play.gamelog import apply_logged, replay_log, seat_labels, seat_player
from hon_env.replay import Replay
from hon_env.spec import layout as L

HUMAN = "human"
VILLAIN = "villain"  # the villain agent's seat name in parse_players
DEFAULT_VILLAIN = "scripted"  # who plays a villain agent when the players leave it out


class Match:
    """One game with a player per seat (see the module documentation)."""

    def __init__(self, scenario: Scenario, seed: int, players: Sequence[str],
                 policy_seed: int | None = None) -> None:
        n = scenario.n_heroes
        players = [str(p) for p in players]
        if scenario.villain_agent and len(players) == n:
            players.append(DEFAULT_VILLAIN)
        if len(players) != n + scenario.villain_agent:
            villain = " and one for the villain agent" if scenario.villain_agent else ""
            raise ValueError(f"players must name one player per seat ({n} seats: "
                             f"{list(scenario.hero_ids)}){villain}, got {players}")
        self.scenario = scenario
        self.seed = int(seed)
        self.players = players
        seed_of = self.seed if policy_seed is None else policy_seed
        self._policies: dict[tuple[bool, str], Any] = {}
        for i, spec in enumerate(players):
            villain = i == n
            if spec == HUMAN or (villain, spec) in self._policies:
                continue
            self._policies[villain, spec] = _load(spec, villain, seed_of)
        self.game = Game(scenario, seed=self.seed)
        self.actions: list[int] = []
        self.log: list[dict[str, Any]] = []

    # --- whose turn ---------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.game.is_over

    def player(self, seat: int) -> str:
        """Who plays ``seat`` (``layout.VILLAIN_SEAT``: the villain agent)."""
        return seat_player(self.players, seat, self.scenario.n_heroes)

    def seat_labels(self) -> list[str]:
        """One line per player: ``"1 majesty: human"``, ..., ``"villain: scripted"``."""
        return seat_labels(self.scenario, self.players)

    @property
    def human_to_move(self) -> bool:
        """A human seat owns the pending decision."""
        return not self.over and self.player(self.game.current_seat) == HUMAN

    @property
    def human_seats(self) -> list[int]:
        """Seats a human plays (``layout.VILLAIN_SEAT`` for a human villain)."""
        n = self.scenario.n_heroes
        return [L.VILLAIN_SEAT if s == n else s for s, p in enumerate(self.players)
                if p == HUMAN]

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
            raise RuntimeError(f"{self.game.current_agent} is played by "
                               f"{self.player(self.game.current_seat)}, not by a human")
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
        policy = self._policies[seat == L.VILLAIN_SEAT, self.player(seat)]
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
        humans = [i for i, s in enumerate(seats) if self.player(s) == HUMAN]
        if not humans:
            return False
        keep = humans[-1]
        self.game = Game(self.scenario, seed=self.seed)
        self.actions = self.actions[:keep]
        self.log = replay_log(self.game, self.actions, self.players)
        return True

    def _apply(self, action: int) -> dict[str, Any]:
        seat = self.game.current_seat
        entry = apply_logged(self.game, action, self.player(seat), len(self.actions))
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


def _load(spec: str, villain: bool, seed: int) -> Any:
    """The policy of a seat's spec (the agents package is imported only when needed)."""
    if not villain:
        from agents.registry import load_policy

        return load_policy(spec, seed=seed)
    from agents.villains import TOP_CARD, load_villain

    if spec == TOP_CARD:
        raise ValueError(f"the villain player {TOP_CARD!r} is the rulebook's deck: play the "
                         "scenario without the villain_agent rule instead")
    return load_villain(spec, seed=seed)


def parse_players(n_seats: int, humans: Sequence[int | str], team: str | Sequence[str],
                  villain: str | None = None) -> list[str]:
    """Players per seat: ``humans`` are 1-based human seats (``"villain"``: a human plays
    the villain agent); the rest get ``team`` (one spec for all, or one per non-human seat
    in seat order). ``villain``, given for a game with a villain agent, plays the villain
    when no human does; the list then ends with the villain's player."""
    hero_seats = set()
    human_villain = False
    for s in humans:
        if s == VILLAIN:
            if villain is None:
                raise ValueError("seat 'villain' needs a game with a villain agent "
                                 "(rules villain_agent, e.g. --scenario mastermind)")
            human_villain = True
            continue
        try:
            seat = int(s)
        except (TypeError, ValueError):
            raise ValueError(f"seat {s!r} is not a seat: 1..{n_seats}"
                             + (" or villain" if villain is not None else "")) from None
        if not 1 <= seat <= n_seats:
            raise ValueError(f"seat {seat} does not exist: seats are 1..{n_seats}")
        hero_seats.add(seat)
    others = [s for s in range(n_seats) if s + 1 not in hero_seats]
    specs = [team] * len(others) if isinstance(team, str) else list(team)
    if len(specs) != len(others):
        raise ValueError(f"{len(specs)} team players given for {len(others)} seats")
    players = [HUMAN] * n_seats
    for s, spec in zip(others, specs, strict=True):
        players[s] = spec
    if villain is not None:
        players.append(HUMAN if human_villain else villain)
    return players
