"""One episode at a time on the engine: options, seeding, rewards, illegal actions, infos.

The PettingZoo AEC and Parallel environments and the Gymnasium adapter are thin
translations of this one class, so they agree on every number they report:

- **Options** (``EnvOptions.build``): the keyword arguments every front end takes, validated
  once, before any game starts (unknown reward events, bad modes, conflicting hero counts).
- **Seeds**: ``reset(seed=s)`` plays ``Game(scenario, seed=s)``; each later ``reset()``
  without a seed plays the next seed, ``s + 1``, ``s + 2``... A fresh session's first
  unseeded reset uses ``DEFAULT_SEED`` (0). Episode k after a seeded reset therefore plays
  the same game as game 0, episode k of ``vector_env(num_envs=1, seed=s)``.
- **Rewards** (the vector env's rule): ``+1`` on a win, ``-1`` on a loss, ``0`` on a
  truncation, plus ``sum(weight[e] * increase of event counter e)`` for the shaping weights
  of ``reward_shaping``; the same team reward goes to every hero.
- **Replays**: every episode is recorded (seed and actions); ``replay(players)`` returns it
  as a ``hon_env.play.replay.Replay`` (``save_replay(path)`` on every front end).
- **Illegal actions**: ``"raise"`` raises ``IllegalActionError`` naming the action and the
  legal ones (nothing changes); ``"penalize"`` ends the episode, terminated, with reward
  ``-1`` for every hero and ``loss_reason == "illegal_action"`` (the game itself is left
  as it was, so it can still be observed and rendered).
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from hon_env.content import Scenario, load_scenario
from hon_env.content.loader import parse_scenario, scenario_path
from hon_env.content.tables import MAX_HEROES
from hon_env.core import layout as L
from hon_env.describe import action_to_string
from hon_env.envs.rewards import shaping_weights
from hon_env.game import Game, IllegalActionError
from hon_env.play.replay import Replay

DEFAULT_SEED = 0
ILLEGAL_ACTION_MODES = ("raise", "penalize")
RENDER_MODES = ("human", "ansi", "rgb_array")
_SEED_LIMIT = 2**63  # the engine seeds from a signed 64-bit integer
_N_NAMED_EVENTS = len(L.EVENT_NAMES)


@dataclass(frozen=True)
class EnvOptions:
    """Validated keyword arguments shared by every single-game front end."""

    scenario: Scenario
    weights: np.ndarray  # float64 [N_EVENTS] shaping weight per event counter
    illegal_action: str  # "raise" or "penalize"
    render_mode: str | None

    @classmethod
    def build(cls, *, scenario: str | Path | Scenario = "origin_story",
              heroes: Sequence[str] | None = None, villain: str | None = None,
              issue: str | None = None, n_heroes: int | None = None,
              nemeses: Sequence[str] | None = None,
              rules: Mapping[str, Any] | None = None, caps: Mapping[str, Any] | None = None,
              max_cycles: int | None = None,
              reward_shaping: Mapping[str, float] | None = None,
              illegal_action: str = "raise", render_mode: str | None = None,
              render_modes: Sequence[str] = RENDER_MODES) -> EnvOptions:
        """Check every option and compile the scenario; raises ``ValueError``/``TypeError``.

        Args:
            scenario: a scenario id, a YAML path or an already compiled ``Scenario``.
            heroes, villain, issue, nemeses, rules, caps: overrides for ``load_scenario``
                (``nemeses``: the pool of nemesis ids the game's nemeses come from).
            n_heroes: number of seats when ``heroes`` is not given: the scenario's hero list
                repeated (or cut) to this length; with ``heroes`` it must equal their number.
            max_cycles: alias of ``caps={"max_decisions": max_cycles}``.
            reward_shaping: event name -> weight (names: ``layout.EVENT_NAMES``).
            illegal_action: ``"raise"`` or ``"penalize"``.
            render_mode: None or one of ``render_modes``.
        """
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, got "
                             f"{illegal_action!r}")
        if render_mode is not None and render_mode not in render_modes:
            raise ValueError(f"render_mode must be None or one of {tuple(render_modes)}, got "
                             f"{render_mode!r}")
        weights = shaping_weights(reward_shaping)
        caps = _merge_max_cycles(caps, max_cycles)
        heroes = _seat_heroes(scenario, heroes, n_heroes)
        if isinstance(scenario, Scenario):
            if any(x is not None for x in (heroes, villain, issue, nemeses, rules, caps)):
                raise ValueError("heroes/villain/issue/nemeses/rules/caps/max_cycles/n_heroes "
                                 "go with a scenario id or path, not with a compiled Scenario")
            compiled = scenario
        else:
            if isinstance(nemeses, str):
                raise TypeError(f"nemeses must be a list of nemesis ids, got the string "
                                f"{nemeses!r}")
            compiled = load_scenario(scenario, heroes=heroes, villain=villain, issue=issue,
                                     nemeses=None if nemeses is None else list(nemeses),
                                     rules=None if rules is None else dict(rules),
                                     caps=None if caps is None else dict(caps))
        return cls(compiled, weights, illegal_action, render_mode)


def _merge_max_cycles(caps: Mapping[str, Any] | None, max_cycles: int | None
                      ) -> Mapping[str, Any] | None:
    """Fold the PettingZoo-style ``max_cycles`` into ``caps["max_decisions"]``."""
    if max_cycles is None:
        return caps
    if isinstance(max_cycles, bool) or not isinstance(max_cycles, (int, np.integer)):
        raise TypeError(f"max_cycles must be an int, got {max_cycles!r}")
    merged = dict(caps or {})
    if "max_decisions" in merged and merged["max_decisions"] != max_cycles:
        raise ValueError(f"max_cycles={max_cycles} conflicts with "
                         f"caps['max_decisions']={merged['max_decisions']}")
    merged["max_decisions"] = int(max_cycles)
    return merged


def _seat_heroes(scenario: str | Path | Scenario, heroes: Sequence[str] | None,
                 n_heroes: int | None) -> list[str] | None:
    """The ``heroes`` override implied by ``heroes`` and ``n_heroes`` (None: keep the file's)."""
    if isinstance(heroes, str):
        raise TypeError(f"heroes must be a list of hero ids, got the string {heroes!r}")
    if n_heroes is None:
        return None if heroes is None else list(heroes)
    if isinstance(n_heroes, bool) or not isinstance(n_heroes, (int, np.integer)):
        raise TypeError(f"n_heroes must be an int, got {n_heroes!r}")
    if not 1 <= n_heroes <= MAX_HEROES:
        raise ValueError(f"n_heroes must be in [1, {MAX_HEROES}], got {n_heroes}")
    if heroes is not None:
        if len(heroes) != n_heroes:
            raise ValueError(f"n_heroes={n_heroes} but {len(heroes)} heroes were given")
        return list(heroes)
    if isinstance(scenario, Scenario):
        base = list(scenario.hero_ids)
        if len(base) != n_heroes:
            raise ValueError(f"the compiled Scenario has {len(base)} heroes, not "
                             f"n_heroes={n_heroes}; pass a scenario id or path instead")
        return None
    base = list(parse_scenario(scenario_path(scenario)).heroes)
    return [base[i % len(base)] for i in range(n_heroes)]


def check_seed(seed: Any) -> int:
    """``seed`` as an int in [0, 2**63); raises ``TypeError``/``ValueError`` otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int, got {seed!r}")
    if not 0 <= int(seed) < _SEED_LIMIT:
        raise ValueError(f"seed must be in [0, 2**63), got {seed}")
    return int(seed)


def check_action(action: Any) -> int:
    """An action as a Python int; anything that is not an integer is a ``TypeError``."""
    if isinstance(action, (float, np.floating, bool, np.bool_)):
        # __index__ would accept bools; floats are always a caller bug worth naming
        raise TypeError(f"an action must be an integer in [0, {L.N_ACTIONS}), got {action!r}")
    try:
        return operator.index(action)
    except TypeError:
        raise TypeError(f"an action must be an integer in [0, {L.N_ACTIONS}), got "
                        f"{action!r}") from None


class Session:
    """The running episode of one front end (see the module documentation)."""

    def __init__(self, options: EnvOptions) -> None:
        self.options = options
        self.scenario = options.scenario
        # Game owns the naming of seats ("majesty", "majesty_2"...); a throwaway game asks it
        self.agents: list[str] = Game(self.scenario, seed=DEFAULT_SEED).agents
        self.game: Game | None = None
        self.seed: int | None = None  # seed of the running episode
        self.penalized = False  # the episode ended on an illegal action ("penalize")
        self.last_seat = 0  # seat that answered the latest decision
        self.actions: list[int] = []  # this episode's actions, for replays
        self._before: np.ndarray | None = None  # state before the latest action (renders)
        self._events = np.zeros(L.N_EVENTS, np.int64)

    # --- episodes -----------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Start the next episode: ``seed`` if given, else the one after the last episode's."""
        if seed is not None:
            self.seed = check_seed(seed)
        elif self.seed is None:
            self.seed = DEFAULT_SEED
        else:
            self.seed = (self.seed + 1) % _SEED_LIMIT
        self.game = Game(self.scenario, seed=self.seed)
        self.actions = []
        self._before = None
        self.penalized = False
        self.last_seat = max(self.game.current_seat, 0)
        self._events = self._event_counts()

    def require_game(self) -> Game:
        """The running game; ``RuntimeError`` before the first ``reset``."""
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    @property
    def over(self) -> bool:
        """The episode has ended (win, loss, truncation or a penalized illegal action)."""
        return self.penalized or self.require_game().is_over

    @property
    def terminated(self) -> bool:
        return self.penalized or self.require_game().outcome in ("win", "loss")

    @property
    def truncated(self) -> bool:
        return not self.penalized and self.require_game().outcome == "truncated"

    @property
    def current_agent(self) -> str | None:
        """The hero who decides now; None once the episode is over."""
        return None if self.over else self.require_game().current_agent

    def legal_mask(self) -> np.ndarray:
        """int8 [N_ACTIONS] mask of the deciding hero (all zeros once the episode is over)."""
        if self.over:
            return np.zeros(L.N_ACTIONS, np.int8)
        return self.require_game().legal_mask()

    # --- stepping -----------------------------------------------------------------------
    def step(self, action: Any) -> float:
        """Answer the pending decision with ``action``; returns the team reward of the step.

        Raises:
            TypeError: ``action`` is not an integer.
            IllegalActionError: the action is not legal and ``illegal_action == "raise"``.
            RuntimeError: the episode is over (or never started).
        """
        game = self.require_game()
        if self.over:
            raise RuntimeError("the episode is over; call reset() to start the next one")
        a = check_action(action)
        seat = game.current_seat
        legal = 0 <= a < L.N_ACTIONS and bool(game.legal_mask()[a])
        if not legal:
            if self.options.illegal_action == "raise":
                game.apply(a)  # raises IllegalActionError with the legal actions listed
                raise AssertionError("unreachable: Game.apply accepted a masked action")
            return self.penalize()
        if self.options.render_mode is not None:  # only renders describe the last action
            self._before = game.state[0].copy()
        game.apply(a)
        self.actions.append(a)
        self.last_seat = seat
        now = self._event_counts()
        reward = float(np.dot(self.options.weights, now - self._events))
        self._events = now
        outcome = game.outcome
        if outcome == "win":
            reward += 1.0
        elif outcome == "loss":
            reward -= 1.0
        return reward

    def penalize(self) -> float:
        """End the episode for an illegal action ("penalize" mode); returns the reward -1."""
        self.last_seat = max(self.require_game().current_seat, 0)
        self.penalized = True
        return -1.0

    def illegal(self, message: str) -> float:
        """An illegal answer found by a front end: raise ``message`` or penalize."""
        if self.options.illegal_action == "raise":
            raise IllegalActionError(message)
        return self.penalize()

    # --- views --------------------------------------------------------------------------
    def observation(self, seat: int) -> np.ndarray:
        """float32 [OBS_DIM] observation of ``seat``."""
        return self.require_game().observation(seat)

    def info(self) -> dict[str, Any]:
        """A fresh info dict: event counters, who decides now and, at the end, the outcome."""
        game = self.require_game()
        info: dict[str, Any] = {
            "events": dict(zip(L.EVENT_NAMES,
                               game.field("events")[:_N_NAMED_EVENTS].tolist(), strict=True)),
            "acting_hero": self.current_agent,
            "decision": "none" if self.over else game.decision,
        }
        if self.penalized:
            info["outcome"], info["loss_reason"] = "loss", "illegal_action"
        elif game.is_over:
            info["outcome"], info["loss_reason"] = game.outcome, game.loss_reason
        return info

    def replay(self, players: Sequence[str] | None = None) -> Replay:
        """This episode so far as a ``Replay`` (``players``: who played each seat)."""
        game = self.require_game()
        return Replay.from_actions(self.scenario, game.seed, self.actions, players)

    def last_action(self) -> str | None:
        """The latest answer in words (``"Majesty: move to C5"``), or None at the start.

        Recorded only with a render mode (the state before the action is kept for it).
        """
        if self._before is None or not self.actions:
            return None
        return action_to_string(self.scenario, self._before, self.actions[-1])

    def render(self, render_mode: str | None) -> str | np.ndarray | None:
        """The front ends' ``render()``: text for "ansi", an image for "rgb_array", printed
        text (returns None) for "human"; None with a warning when no mode was chosen."""
        if render_mode is None:
            gymnasium.logger.warn("You are calling render() without a render_mode; pass "
                                  "render_mode='ansi', 'rgb_array' or 'human'.")
            return None
        from hon_env.render import render_ansi, render_rgb  # Pillow only when asked

        game = self.require_game()
        if render_mode == "rgb_array":
            return render_rgb(game, last_action=self.last_action())
        text = render_ansi(game)
        last = self.last_action()
        if last is not None:
            text = f"Last action: {last}\n{text}"
        if render_mode == "ansi":
            return text
        print(text)
        return None

    def _event_counts(self) -> np.ndarray:
        return self.require_game().field("events").astype(np.int64)
