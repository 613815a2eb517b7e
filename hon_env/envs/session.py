"""One episode at a time on the engine: options, seeding, rewards, illegal actions, infos.

The PettingZoo AEC and Parallel environments and the Gymnasium adapter are thin
translations of this one class, so they agree on every number they report:

- **Options** (``hon_env.options.EnvOptions``): the keyword arguments every front end
  takes, validated once, before any game starts (unknown reward events, bad modes,
  conflicting hero counts).
- **Seeds**: ``reset(seed=s)`` plays ``Game(scenario, seed=s)``; each later ``reset()``
  without a seed plays the next seed, ``s + 1``, ``s + 2``... A fresh session's first
  unseeded reset uses ``DEFAULT_SEED`` (0). Episode k after a seeded reset therefore plays
  the same game as game 0, episode k of ``vector_env(num_envs=1, seed=s)``.
- **Rewards and episode ends**: the episode rules of ``hon_env/core/episode.py``, the same
  kernel the vector env scores with: ``+1`` on a win, ``-1`` on a loss, ``0`` on a
  truncation, plus ``sum(weight[e] * increase of event counter e)`` for the shaping weights
  of ``reward_shaping``; the same team reward goes to every hero (unless the Fame
  variant's reward mode gives each hero its own, ``docs/variants.md``), and the villain
  agent (Mastermind variant) gets minus the win/loss part plus its own shaping
  (``villain_reward_shaping``; ``agent_rewards``).
- **Replays**: every episode is recorded (seed and actions); ``replay(players)`` returns it
  as a ``hon_env.replay.Replay`` (``save_replay(path)`` on every front end).
- **Illegal actions**: ``"raise"`` raises ``IllegalActionError`` naming the action and the
  legal ones (nothing changes); ``"penalize"`` ends the episode, terminated, with reward
  ``-1`` for every hero and ``loss_reason == "illegal_action"`` (the game itself is left
  as it was, so it can still be observed and rendered).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from hon_env.checks import SEED_LIMIT, IllegalActionError, as_action, check_seed
from hon_env.content import Scenario
from hon_env.content.villain_agent import VILLAIN_AGENT
from hon_env.core.episode import ILLEGAL_PENALTY, N_PREV, is_terminated, is_truncated, remember
from hon_env.core.kernels import game_observe, game_rewards
from hon_env.core.observe import OBS_DIM
from hon_env.describe import action_to_string
from hon_env.game import Game
from hon_env.options import RENDER_MODES, EnvOptions
from hon_env.replay import Replay
from hon_env.spec import layout as L

DEFAULT_SEED = 0
__all__ = ["DEFAULT_SEED", "RENDER_MODES", "EnvOptions", "Session", "SessionViews"]
_NAMED_EVENTS = slice(L.EVENTS, L.EVENTS + len(L.EVENT_NAMES))  # state columns of info["events"]


class Session:
    """The running episode of one front end (see the module documentation)."""

    def __init__(self, options: EnvOptions) -> None:
        self.options = options
        self.scenario = options.scenario
        self.agents: list[str] = list(self.scenario.possible_agents)
        # agent name by deciding seat (DEC_HERO), the villain agent's at VILLAIN_SEAT
        self._agent_at: list[str | None] = [None] * (L.VILLAIN_SEAT + 1)
        for agent in self.agents:
            for seat in self.scenario.agent_seats(agent):
                self._agent_at[seat] = agent
        self.game: Game | None = None
        self.seed: int | None = None  # seed of the running episode
        self.penalized = False  # the episode ended on an illegal action ("penalize")
        self.last_seat = 0  # seat that answered the latest decision
        self.actions: list[int] = []  # this episode's actions, for replays
        self._before: np.ndarray | None = None  # state before the latest action (renders)
        self._prev = np.zeros(N_PREV, np.int32)  # event counters and fame at the last step
        self._hero_rewards = np.zeros(L.MAX_HEROES, np.float64)  # of the latest step
        self._villain_agent = self.scenario.villain_agent  # read on every step
        # each agent's state columns of its own counters and fame (``_own_info``, every step)
        self._own_cols = {agent: self._own_columns(agent) for agent in self.agents}
        # observations encoded for one state of one game, by seat (see ``observation``)
        self._observed: dict[int, np.ndarray] = {}
        self._observed_at: tuple[Game | None, int] = (None, -1)

    # --- episodes -----------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Start the next episode: ``seed`` if given, else the one after the last episode's."""
        if seed is not None:
            self.seed = check_seed(seed)
        elif self.seed is None:
            self.seed = DEFAULT_SEED
        else:
            self.seed = (self.seed + 1) % SEED_LIMIT
        self.game = Game(self.scenario, seed=self.seed)
        self.actions = []
        self._before = None
        self.penalized = False
        self.last_seat = max(self.game.current_seat, 0)
        remember(self.game.state, 0, self._prev)
        self._hero_rewards[:] = 0.0
        self._villain_reward = 0.0  # the villain agent's reward of the last step

    def require_game(self) -> Game:
        """The running game; ``RuntimeError`` before the first ``reset``."""
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    @property
    def over(self) -> bool:
        """The episode has ended (win, loss, truncation or a penalized illegal action)."""
        # read on every step and observation: the state field, not Game's properties
        return self.penalized or self._outcome() != L.OUT_ONGOING

    @property
    def terminated(self) -> bool:
        return self.penalized or is_terminated(self._outcome())

    @property
    def truncated(self) -> bool:
        return not self.penalized and is_truncated(self._outcome())

    def _outcome(self) -> int:
        return int(self.require_game().state[0, L.OUTCOME])

    @property
    def current_agent(self) -> str | None:
        """The agent who decides now; None once the episode is over."""
        if self.over:
            return None
        return self._agent_at[int(self.require_game().state[0, L.DEC_HERO])]

    def legal_mask(self) -> np.ndarray:
        """int8 [N_ACTIONS] mask of the deciding hero (all zeros once the episode is over)."""
        if self.over:
            return np.zeros(L.N_ACTIONS, np.int8)
        return self.require_game().legal_mask()

    # --- stepping -----------------------------------------------------------------------
    def step(self, action: Any) -> float:
        """Answer the pending decision with ``action``; returns the team reward of the step
        (each hero's own reward, in every reward mode: ``agent_rewards``).

        Raises:
            TypeError: ``action`` is not an integer.
            IllegalActionError: the action is not legal and ``illegal_action == "raise"``.
            RuntimeError: the episode is over (or never started).
        """
        game = self.require_game()
        if self.over:
            raise RuntimeError("the episode is over; call reset() to start the next one")
        a = as_action(action)
        seat = game.current_seat
        in_space = 0 <= a < L.N_ACTIONS
        legal = in_space and bool(game.legal_mask()[a])
        if not legal:
            # "penalize" ends the episode on a masked action of the space; an integer
            # outside the space is no action at all and is refused in every mode
            if self.options.illegal_action == "raise" or not in_space:
                game.apply(a)  # raises IllegalActionError with the legal actions listed
                raise AssertionError("unreachable: Game.apply accepted a masked action")
            return self.penalize()
        if self.options.render_mode is not None:  # only renders describe the last action
            self._before = game.state[0].copy()
        drafting = bool(game.state[0, L.DRAFTING])
        game.apply(a)
        self.actions.append(a)
        self.last_seat = seat
        if drafting and not game.state[0, L.DRAFTING]:  # the draft set the game up
            remember(game.state, 0, self._prev)
        state, tables = game.engine
        team, self._villain_reward = game_rewards(state, tables, self.options.weights,
                                                  self._prev, self._hero_rewards)
        return float(team)

    def agent_rewards(self, team: float) -> dict[str, float]:
        """Every agent's reward for the step whose team reward (``step``/``penalize``) is
        ``team``: the heroes share it (in the Fame variant's ``fame`` and ``rank`` modes each
        hero gets its own, from the same step); the villain agent gets its own reward of
        that step (minus the heroes' result plus ``villain_reward_shaping``: zero-sum with
        shaping off). A penalized illegal action costs only the side that made it."""
        out = dict.fromkeys(self.scenario.agent_names, team)
        if self.scenario.fame_mode != "team" and not self.penalized:
            for agent in self.scenario.agent_names:  # an agent of two heroes gets both's
                out[agent] = float(sum(self._hero_rewards[h]
                                       for h in self.scenario.agent_seats(agent)))
        if not self._villain_agent:
            return out
        if self.penalized:
            villain_fault = self.last_seat == L.VILLAIN_SEAT
            out = dict.fromkeys(self.scenario.agent_names, 0.0 if villain_fault else team)
            out[VILLAIN_AGENT] = team if villain_fault else 0.0
            return out
        out[VILLAIN_AGENT] = float(self._villain_reward)
        return out

    def penalize(self, seat: int | None = None) -> float:
        """End the episode for an illegal action ("penalize" mode) by ``seat`` (default:
        the one deciding); returns the penalty."""
        self.last_seat = max(self.require_game().current_seat, 0) if seat is None else seat
        self.penalized = True
        return ILLEGAL_PENALTY

    def illegal(self, message: str, seat: int | None = None) -> float:
        """An illegal answer by ``seat`` (default: the decider) found by a front end: raise
        ``message`` or penalize."""
        if self.options.illegal_action == "raise":
            raise IllegalActionError(message)
        return self.penalize(seat)

    # --- views --------------------------------------------------------------------------
    def view_seat(self, agent: str) -> int:
        """The seat whose observation ``agent`` gets: the deciding seat when it is one of
        the agent's (an agent of two heroes sees as the hero it moves), else its first."""
        seats = self.scenario.agent_seats(agent)
        if len(seats) > 1 and not self.over:
            seat = int(self.require_game().state[0, L.DEC_HERO])
            if seat in seats:
                return seat
        return seats[0]

    def observation(self, seat: int) -> np.ndarray:
        """float32 [OBS_DIM] observation of ``seat`` (a seat of this scenario: unchecked),
        a new array on every call. Encoded on the first call for the game's current state
        and kept until the state changes (``Game._version``): ``observe`` and ``last`` for
        one decision encode once."""
        game = self.require_game()
        at = self._observed_at
        if at[0] is not game or at[1] != game._version:  # another game, or its state moved
            self._observed.clear()
            self._observed_at = (game, game._version)
        kept = self._observed.get(seat)
        if kept is None:
            state, tables = game.engine
            kept = np.zeros(OBS_DIM, np.float32)
            game_observe(state, tables, seat, kept)
            self._observed[seat] = kept
        return kept.copy()

    def info(self, agent: str | None = None) -> dict[str, Any]:
        """A fresh info dict: event counters, each hero's fame, who decides now and, at the
        end, the outcome; for a hero ``agent`` also its own fame and counters.

        ``fames``: each hero's fame by seat name (kept in every game, Fame variant or not);
        ``fame`` and ``hero_events`` (``layout.HERO_COUNTER_NAMES``): ``agent``'s own,
        summed over its heroes (0 for the villain agent; absent when ``agent`` is None).
        With ``numeric_info`` every entry is a number and the keys never change:
        ``events`` (int64 ``[len(EVENT_NAMES)]``), ``acting_seat`` (-1 at the end),
        ``decision`` (``layout.D_*``), ``outcome`` (``layout.OUT_*``, ``OUT_ONGOING``
        until the end), ``loss_reason`` (``layout.LOSS_*``, ``LOSS_NONE`` unless lost
        or truncated; ``LOSS_ILLEGAL`` for a penalized illegal action), ``fames`` (int64
        ``[n_heroes]``) and, with ``agent``, ``fame`` and ``hero_events`` (int64).
        """
        game = self.require_game()
        info = self._numeric_info(game) if self.options.numeric_info else self._named_info(game)
        if agent is not None:
            info.update(self._own_info(game, agent))
        return info

    def agent_infos(self, agents: Sequence[str]) -> dict[str, dict[str, Any]]:
        """``info(agent)`` for each of ``agents``, the shared part built once."""
        game = self.require_game()
        shared = self.info()
        return {a: {**shared, **self._own_info(game, a)} for a in agents}

    def _own_columns(self, agent: str) -> tuple[list[int], np.ndarray, np.ndarray]:
        """``agent``'s hero seats and the state columns of their counters
        (``[seats, HERO_COUNTER_COLS]``) and fame; KeyError for an unknown agent."""
        seats = [h for h in self.scenario.agent_seats(agent) if h < self.scenario.n_heroes]
        start, (_, width) = L.FIELDS["hev"]
        cols = [[start + seat * width + c for c in L.HERO_COUNTER_COLS] for seat in seats]
        hev = np.array(cols, np.int64).reshape(len(seats), len(L.HERO_COUNTER_COLS))
        return seats, hev, np.array([L.FAME + seat for seat in seats], np.int64)

    def _own_info(self, game: Game, agent: str) -> dict[str, Any]:
        """``agent``'s own fame and per-hero counters, summed over its heroes (zeros for
        the villain agent)."""
        cols = self._own_cols.get(agent)
        seats, hev, fame_cols = self._own_columns(agent) if cols is None else cols
        row = game.state[0]
        counters = row[hev].sum(axis=0, dtype=np.int64)
        fame = int(row[fame_cols].sum())
        own: dict[str, Any] = {}
        if self.scenario.drafted:  # the Draft variant: the hero(es) drafted, if any
            drafted = not game.state[0, L.DRAFTING]
            heroes = [game.scenario.hero_ids[h] if drafted else None for h in seats]
            if self.options.numeric_info:
                heroes = [-1 if h is None else self.scenario.hero_roster.index(h)
                          for h in heroes]
            if self.scenario.seats_per_agent > 1:  # mode pass: a player's two heroes
                own["heroes"] = heroes
            elif heroes:
                own["hero"] = heroes[0]
            else:  # the villain agent
                own["hero"] = -1 if self.options.numeric_info else None
        if self.options.numeric_info:
            return {"fame": fame, "hero_events": counters, **own}
        return {"fame": fame,
                "hero_events": dict(zip(L.HERO_COUNTER_NAMES, counters.tolist(), strict=True)),
                **own}

    def _named_info(self, game: Game) -> dict[str, Any]:
        row = game.state[0]
        over = self.over
        fames = row[L.FAME:L.FAME + self.scenario.n_heroes].tolist()
        info: dict[str, Any] = {
            "events": dict(zip(L.EVENT_NAMES, row[_NAMED_EVENTS].tolist(), strict=True)),
            "fames": dict(zip(self.scenario.seat_names, fames, strict=True)),
            "acting_hero": None if over else self._agent_at[int(row[L.DEC_HERO])],
            "decision": "none" if over else L.DECISION_NAMES[int(row[L.DEC_KIND])],
        }
        if self.penalized:
            info["outcome"], info["loss_reason"] = "loss", "illegal_action"
        elif over:
            info["outcome"], info["loss_reason"] = game.outcome, game.loss_reason
        return info

    def _numeric_info(self, game: Game) -> dict[str, Any]:
        over = self.over
        if self.penalized:
            outcome, reason = L.OUT_LOSS, L.LOSS_ILLEGAL
        else:
            outcome, reason = int(game.state[0, L.OUTCOME]), int(game.state[0, L.LOSS_REASON])
        return {
            "events": game.state[0, _NAMED_EVENTS].astype(np.int64),
            "acting_seat": -1 if over else int(game.current_seat),
            "decision": L.D_NONE if over else int(game.state[0, L.DEC_KIND]),
            "outcome": outcome, "loss_reason": reason,
            "fames": game.state[0, L.FAME:L.FAME + self.scenario.n_heroes].astype(np.int64),
        }

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
        from hon_env.views import render_ansi, render_rgb  # Pillow only when asked

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


class SessionViews:
    """What every front end that keeps its ``Session`` in ``_session`` answers from it
    (the Gymnasium, villain, PettingZoo and RLlib envs): the scenario, the running game,
    the replay and the rendering (per ``render_mode``)."""

    _session: Session
    render_mode: str | None

    @property
    def scenario(self) -> Scenario:
        """The compiled ``Scenario`` every episode plays."""
        return self._session.scenario

    @property
    def game(self) -> Game:
        """The running ``Game`` (for inspection: ``snapshot()``, ``action_to_string``...).

        Changing it changes the episode; the env's rewards and infos assume you do not.
        """
        return self._session.require_game()

    def replay(self, players: Sequence[str] | None = None) -> Replay:
        """The episode so far as a ``hon_env.replay.Replay`` (seed, scenario, actions;
        ``players``: who played each seat, e.g. ``["human", "heuristic"]``)."""
        return self._session.replay(players)

    def save_replay(self, path: str | Path, players: Sequence[str] | None = None) -> Path:
        """Write the episode so far as replay JSON (``hon-replay FILE`` shows it)."""
        return self.replay(players).save(path)

    def render(self) -> str | np.ndarray | None:
        """``"ansi"``: the text board; ``"rgb_array"``: an image; ``"human"``: print the
        text board (``render_mode``)."""
        return self._session.render(self.render_mode)

    def close(self) -> None:
        """Nothing to release: rendering opens no windows and keeps no figures."""
