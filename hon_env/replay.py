"""Replays: a game as JSON (seed, scenario with its overrides, actions, players) and back.

A game depends only on its scenario, its seed and its actions (the engine is
deterministic), so a replay stores just those, plus what lets a reader check it: the
decision met before every action (``"agent:decision"``, as in ``tests/golden/``), the
outcome and the final ``Game.snapshot()``. ``Replay.verify()`` replays the actions on the
engine and raises ``ReplayMismatch`` naming the first difference.

    >>> from hon_env import Game
    >>> from hon_env.replay import Recorder
    >>> rec = Recorder(Game("origin_story", seed=3), players=["random"])
    >>> while not rec.game.is_over:
    ...     rec.apply(int(rec.game.legal_actions()[0]))
    >>> replay = rec.replay()
    >>> replay.verify().outcome == rec.game.outcome
    True

The golden records of ``tests/golden/`` (written by ``scripts/record_golden.py``) are
replays without the ``format`` header; ``Replay.from_dict`` reads them too.

A record every layer writes (the environments' ``replay()``, the applications' saved
games), so it sits under the environments, beside ``Game``; ``hon_env.play.replay`` names
the same objects for older imports.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from hon_env.content import Scenario, load_scenario
from hon_env.game import Game
from hon_env.spec import layout as L

FORMAT = "hon_env.replay"
VERSION = 1
# what "players" may say about a seat besides a policy spec or checkpoint path
PLAYER_WORDS = ("human", "unknown")


class ReplayMismatch(ValueError):
    """Replaying a record did not reproduce it (another engine or content version)."""


def scenario_overrides(scenario: Scenario) -> dict[str, Any]:
    """Everything ``load_scenario`` needs to rebuild ``scenario`` from its id, resolved.

    Two villains (Two Fronts) are written as the ``villain`` list, so the rule keeps no
    ``second_villain`` of its own (``load_scenario`` refuses a second villain named twice).
    """
    rules = _plain(scenario.rules)
    villain: str | list[str] = scenario.villain_id
    if scenario.two_fronts:
        villain = list(scenario.villain_ids)
        rules["two_fronts"] = {**rules["two_fronts"], "second_villain": None}
    out = {"heroes": list(scenario.hero_ids), "villain": villain,
           "issue": scenario.issue_id, "clues": scenario.clues_id,
           "nemeses": list(scenario.nemesis_ids), "rules": rules,
           "caps": _plain(scenario.caps)}
    if scenario.content_dir is not None:  # generated or user content: where to read it
        out["content_dir"] = scenario.content_dir
    return out


@dataclass
class Replay:
    """One recorded game (see the module documentation).

    ``players[seat]`` says who played that seat: ``"human"``, ``"heuristic"``, ``"random"``,
    a checkpoint path, or ``"unknown"`` (an environment does not know who called it); a
    game with a villain agent (Mastermind variant) names the villain's player last.
    """

    scenario: str
    seed: int
    # heroes, villain, issue, clues, nemeses, rules, caps; content_dir when not shipped
    overrides: dict[str, Any]
    players: list[str]
    actions: list[int] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)  # the seat that answered each action
    decisions: list[str] = field(default_factory=list)  # "agent:decision" before each action
    outcome: str | None = None
    final: dict[str, Any] | None = None  # Game.snapshot() after the last action
    meta: dict[str, Any] = field(default_factory=dict)  # free-form: created, names, notes

    # --- building -----------------------------------------------------------------------
    @classmethod
    def start(cls, scenario: Scenario, seed: int, players: Sequence[str] | None = None
              ) -> Replay:
        """An empty record of a game of ``scenario`` with ``seed``."""
        n = scenario.n_heroes + scenario.villain_agent  # the villain agent's player last
        players = ["unknown"] * n if players is None else [str(p) for p in players]
        if len(players) != n:
            raise ValueError(f"players must name one player per seat ({n}, the villain "
                             f"agent's last when there is one), got {players}")
        return cls(scenario=scenario.id, seed=int(seed), overrides=scenario_overrides(scenario),
                   players=players,
                   meta={"created": datetime.now(timezone.utc).isoformat(timespec="seconds")})

    @classmethod
    def from_actions(cls, scenario: Scenario, seed: int, actions: Sequence[int],
                     players: Sequence[str] | None = None) -> Replay:
        """The record of the game ``seed`` + ``actions`` (replayed to fill in the rest)."""
        rec = Recorder(Game(scenario, seed=seed), players=players)
        for a in actions:
            rec.apply(a)  # Game.apply checks it: "5" or 2.0 is a TypeError, not coerced
        return rec.replay()

    def load_scenario(self) -> Scenario:
        """The compiled scenario of this game."""
        o = self.overrides
        return load_scenario(self.scenario, heroes=o.get("heroes"), villain=o.get("villain"),
                             issue=o.get("issue"), clues=o.get("clues"),
                             nemeses=o.get("nemeses"), rules=o.get("rules"), caps=o.get("caps"),
                             content_dir=o.get("content_dir"))

    def new_game(self, scenario: Scenario | None = None) -> Game:
        """The game at its first decision (no action applied)."""
        return Game(scenario or self.load_scenario(), seed=self.seed)

    # --- replaying ----------------------------------------------------------------------
    def play(self, upto: int | None = None, scenario: Scenario | None = None) -> Game:
        """The game after the first ``upto`` actions (all by default)."""
        game = self.new_game(scenario)
        for a in self.actions[:upto]:
            game.apply(a)
        return game

    def positions(self, scenario: Scenario | None = None) -> Iterator[tuple[Game, int | None]]:
        """Each position with the action answered there; the last has ``None``.

        The same ``Game`` object is yielded every time, advanced in place: copy what you keep.
        """
        game = self.new_game(scenario)
        for a in self.actions:
            yield game, a
            game.apply(a)
        yield game, None

    def verify(self, scenario: Scenario | None = None) -> Game:
        """Replay every action and check decisions, seats, outcome and final snapshot.

        Returns the final game; raises ``ReplayMismatch`` at the first difference.
        """
        game = self.new_game(scenario)
        for i, a in enumerate(self.actions):
            met = f"{game.current_agent}:{game.decision}"
            if self.decisions and self.decisions[i] != met:
                raise ReplayMismatch(f"action {i}: the record met decision "
                                     f"{self.decisions[i]!r}, the engine {met!r}")
            if self.seats and self.seats[i] != game.current_seat:
                raise ReplayMismatch(f"action {i}: the record says seat {self.seats[i]} "
                                     f"answered, the engine asks seat {game.current_seat}")
            if game.is_over:
                raise ReplayMismatch(f"action {i}: the game is already over ({game.outcome})")
            try:
                game.apply(a)
            except ValueError as e:
                raise ReplayMismatch(f"action {i}: {e}") from None
        if self.outcome is not None and game.outcome != self.outcome:
            raise ReplayMismatch(f"the record ends {self.outcome!r}, the engine "
                                 f"{game.outcome!r}")
        if self.final is not None:
            got = game.snapshot()
            if got != self.final:
                diff = sorted(k for k in set(got) | set(self.final)
                              if got.get(k) != self.final.get(k))
                raise ReplayMismatch(f"the final snapshot differs in {diff}")
        return game

    # --- JSON ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The JSON form (golden-record keys plus the ``format`` header and the rest)."""
        return {"format": FORMAT, "version": VERSION, "scenario": self.scenario,
                "seed": self.seed, **self.overrides, "players": self.players,
                "actions": self.actions, "seats": self.seats, "decisions": self.decisions,
                "outcome": self.outcome, "final": self.final, "meta": self.meta}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Replay:
        """Read ``to_dict`` output, or a golden record of ``tests/golden/``."""
        if not isinstance(data, dict):
            raise ValueError(f"a replay is a JSON object, got {type(data).__name__}")
        fmt = data.get("format")
        if fmt is not None and fmt != FORMAT:
            raise ValueError(f"not a replay: format {fmt!r}, expected {FORMAT!r}")
        version = data.get("version", VERSION)
        if version != VERSION:
            raise ValueError(f"replay version {version} is not supported (this is version "
                             f"{VERSION})")
        for key in ("scenario", "seed", "actions"):
            if key not in data:
                raise ValueError(f"replay lacks {key!r} (keys: {sorted(data)})")
        actions = data["actions"]
        if not isinstance(actions, list) or not all(
                isinstance(a, int) and not isinstance(a, bool) for a in actions):
            raise ValueError("replay 'actions' must be a list of integers")
        overrides = {k: data.get(k) for k in ("heroes", "villain", "issue", "clues",
                                              "nemeses", "rules", "caps")}
        if data.get("content_dir") is not None:
            overrides["content_dir"] = str(data["content_dir"])
        final = data.get("final")
        n_seats = (len(overrides["heroes"]) if overrides["heroes"] is not None
                   else len(final["heroes"]) if final else None)
        players = data.get("players")
        if players is None:
            players = ["unknown"] * (n_seats or 1)
            if "policy" in data:  # a golden record: a seeded random policy played
                players = [f"random (seed {data['policy']})"] * len(players)
        outcome = data.get("outcome", final.get("outcome") if final else None)
        meta = dict(data.get("meta") or {})
        if "name" in data:
            meta.setdefault("name", data["name"])
        return cls(scenario=str(data["scenario"]), seed=int(data["seed"]), overrides=overrides,
                   players=[str(p) for p in players], actions=list(actions),
                   seats=list(data.get("seats") or []),
                   decisions=list(data.get("decisions") or []), outcome=outcome, final=final,
                   meta=meta)

    def save(self, path: str | Path) -> Path:
        """Write the replay as JSON to ``path`` (folders created); returns the path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_dict(), indent=1) + "\n")
        return path

    @classmethod
    def load(cls, path: str | Path) -> Replay:
        """Read a replay (or golden record) file."""
        path = Path(path)
        try:
            data = json.loads(path.read_text())
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}: not valid JSON ({e})") from None
        return cls.from_dict(data)


class Recorder:
    """Plays a ``Game`` and records it: ``apply`` is ``Game.apply`` plus the record.

    The game must be fresh (no action applied yet): a replay starts from the seed.
    """

    def __init__(self, game: Game, players: Sequence[str] | None = None) -> None:
        fresh = Game(game.scenario, seed=game.seed)
        if game.seed < 0 or not np.array_equal(fresh.state, game.state):
            raise ValueError("Recorder needs a fresh Game (created with a seed, no action "
                             "applied yet): a replay is the seed plus every action")
        self.game = game
        self.record = Replay.start(game.scenario, game.seed, players)

    def apply(self, action: int) -> None:
        """Apply ``action`` to the game and append it to the record (nothing on error)."""
        game = self.game
        met = f"{game.current_agent}:{game.decision}"
        seat = game.current_seat
        game.apply(action)  # raises before anything is recorded
        self.record.actions.append(int(action))
        self.record.seats.append(seat)
        self.record.decisions.append(met)

    def replay(self) -> Replay:
        """The record so far, with the outcome and final snapshot of the game now."""
        rec = self.record
        return Replay(scenario=rec.scenario, seed=rec.seed, overrides=dict(rec.overrides),
                      players=list(rec.players), actions=list(rec.actions),
                      seats=list(rec.seats), decisions=list(rec.decisions),
                      outcome=self.game.outcome, final=self.game.snapshot(),
                      meta=dict(rec.meta))


class VectorRecorder:
    """Records the episodes of a ``VectorEnv`` as replays: step through it instead of the
    env (``rec = VectorRecorder(vector_env(8)); rec.reset(); rec.step(actions)``). Each
    ended episode's ``Replay`` is appended to ``finished``, checked against the vector
    env's outcome. Opt-in: it keeps a Python list of actions per game and replays every
    ended episode once to fill in its record, so it is slower than the bare vector env.
    Episodes ended by a penalized illegal action are not games of the rules: skipped.
    """

    def __init__(self, env: Any, players: Sequence[str] | None = None) -> None:
        self.env = env
        self.players = players
        self.finished: list[Replay] = []
        self._actions: list[list[int]] = [[] for _ in range(env.num_envs)]

    def reset(self, seed: int | None = None) -> Any:
        out = self.env.reset(seed)
        self._actions = [[] for _ in range(self.env.num_envs)]
        return out

    def step(self, actions: np.ndarray) -> Any:
        acts = np.asarray(actions).tolist()
        out = self.env.step(actions)
        info = out[-1]
        ended = np.flatnonzero(info["_final"])
        for i, a in enumerate(acts):
            self._actions[i].append(int(a))
        for i in ended:
            i = int(i)
            episode = int(self.env._episodes[i]) - 1  # the episode that just ended
            seed = self.env.seed + i + episode * self.env.num_envs
            actions_i, self._actions[i] = self._actions[i], []
            if int(info["final_loss_reason"][i]) == L.LOSS_ILLEGAL:
                continue
            rep = Replay.from_actions(self.env.scenario, seed, actions_i, self.players)
            expected = L.OUTCOME_NAMES[int(info["final_outcome"][i])]
            if rep.outcome != expected:
                raise ReplayMismatch(f"game {i}, seed {seed}: the vector env ended "
                                     f"{expected!r}, the replay {rep.outcome!r}")
            self.finished.append(rep)
        return out


def _plain(value: Any) -> Any:
    """``value`` with mappings as dicts, tuples as lists and numpy scalars as Python
    numbers (JSON-ready; a compiled Scenario's ``rules``/``caps`` are read-only mappings)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value
