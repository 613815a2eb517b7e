"""``VectorEnv``: thousands of games per step as arrays with a leading batch axis.

    >>> import numpy as np
    >>> from hon_env import vector_env
    >>> env = vector_env(num_envs=4, seed=0)
    >>> obs, info = env.reset()
    >>> rng = np.random.default_rng(0)
    >>> for _ in range(10):
    ...     actions = env.sample_actions(rng)
    ...     obs, rewards, terminated, truncated, info = env.step(actions)

Each step takes one action per game (the deciding hero's) and returns:

- ``obs["observation"]`` float32 [B, OBS_DIM]: the deciding hero's observation,
- ``obs["action_mask"]`` int8 [B, N_ACTIONS], ``obs["agent"]`` int32 [B]: deciding seat
  (``layout.VILLAIN_SEAT`` where the villain agent decides, Mastermind variant),
- ``obs["state"]`` float32 [B, STATE_DIM]: global state for centralized critics,
- ``rewards`` float32 [B, n_heroes]: each hero's reward (``core/episode.py``): the team
  reward, the same for every hero, unless the Fame variant's reward mode is ``fame`` or
  ``rank`` (``docs/variants.md``); with the villain agent [B, n_heroes + 1], the last
  column the villain's (minus the heroes' win/loss reward),
- ``terminated`` / ``truncated`` bool [B],
- ``info``: ``events`` int32 [B, N_EVENTS] (counters of the running episode), ``fame``
  int32 [B, n_heroes] and ``hero_events`` int32 [B, n_heroes, len(HERO_COUNTER_NAMES)]
  (each hero's fame and own counters, ``layout.HERO_COUNTER_NAMES``; kept in every game)
  and, for games whose episode ended in this step, ``final_observation``,
  ``final_outcome`` (``layout.OUT_*``), ``final_loss_reason``, ``final_rounds``,
  ``final_decisions``, ``final_agent`` and ``final_fame`` [B, n_heroes], valid where
  ``info["_final"]`` is True; ``team`` int32 [B], the ``scenarios`` entry each game plays
  (0 without a pool).

Auto-reset (the Gymnasium/SB3 convention): a game that ends is restarted within the same
step; the observation returned for it is the new episode's first one, and the ended
episode's last observation is in ``info["final_observation"]``. Episode k of game i uses
seed ``seed + i + k * num_envs``, so game i's first episode is ``Game(scenario, seed + i)``.
The seed must leave room for ``2**32`` episodes per game below ``2**63``
(``seed <= 2**63 - num_envs * 2**32``, ``hon_env.checks.check_seed``); ``step`` refuses to
run more than ``2**32`` steps without a new ``reset(seed=...)``.

Arguments: ``num_envs`` (1 to ``2**24``), ``seed``, ``scenario``, ``observations`` and the
keyword arguments every front end takes (``hon_env.options``; ``render_mode`` stays None).
``heroes`` may also be a pool of teams (a list of teams, or ``"random"``) and ``scenario``
a list of scenarios: every game then draws its entry of ``scenarios`` from its episode seed
(``hon_env/envs/pool.py``, ``core/teams.py``), and ``info["team"]`` says which.
With the draft rule (``rules={"draft": ...}``, one scenario, no pool of teams) every
episode starts with its seats drafting (``core/draft.py``; an auto-reset starts a new
draft); ``scenarios`` is then the draft's ordered teams and ``info["team"]`` the row a game
plays once its draft is over (0 while it drafts).
Actions are an integer array of shape ``(num_envs,)``; anything else is refused before a
game steps (``hon_env.checks.check_actions``).

``observations=False`` skips the encoding (masks, agents, rewards and bookkeeping stay);
the ``observation``/``state`` arrays are then left at zero. ``global_state=False`` encodes
the observations but not the global state, and ``obs`` then has no ``"state"``: a learner
whose critic reads no global state (IPPO, a single-agent PPO) saves that work.
``global_state="tail"`` encodes only the state's own sections, the ``STATE_TAIL`` floats
past seat 0's observation (every seat's hand, the villain agent's hand): ``obs["state"]``
is then ``state[:, OBS_DIM:]`` of the full state, for a critic that reads the deciding
seat's observation already (MAPPO with a shared trunk), which saves encoding seat 0's
observation a second time in every game another seat decides.
``compact=True`` leaves out the observation's last sections where the games cannot write
them (Two Fronts, then Draft; ``hon_env/spec/compact.py``): ``obs["observation"]`` is then
the full observation's first ``observation_dim`` floats (3,481 without either rule, 3,999
with Two Fronts alone, all 4,450 with Draft) and ``obs["state"]`` the same cut of seat 0's
observation followed by the state's own sections; ``hon_env.spec.compact.expand_obs`` and
``expand_state`` give back the full vectors, bit for bit. Less memory is written per step.

Engine errors (engine.md, "Engine errors") stop only the game they happen in. With
``on_error="raise"`` (default) the step then raises ``hon_env.EngineError`` naming the
game index, its episode seed, the decision and the error; the other games have been
stepped. With ``on_error="reset"`` the game is restarted at its next episode's seed
instead: ``info["error"]`` (bool [B]) marks it and ``info["error_code"]`` (int32 [B],
``layout.ERROR_NAMES``) says why; its episode ends truncated with reward 0,
``final_loss_reason`` ``LOSS_ENGINE_ERROR`` and a zero final observation.

In debug mode (``HON_ENV_DEBUG=1``) every step also checks the invariants of
``core/invariants.py`` over the batch and raises ``EngineError`` on a violation.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit, prange

from hon_env.checks import (
    EPISODE_ROOM,
    IllegalActionError,
    check_actions,
    check_batch_memory,
    check_int,
    check_num_envs,
    check_seed,
    legal_in_masks,
    seed_span,
)
from hon_env.content import Scenario
from hon_env.core.episode import ILLEGAL_PENALTY, N_PREV
from hon_env.core.observe import OBS_DIM, STATE_TAIL
from hon_env.core.vector import (
    FINAL_FAME,
    INFO_HI,
    INFO_LO,
    N_FINAL_INFO,
    count_illegal,
    gather_info,
    vector_reset,
    vector_step,
)
from hon_env.envs.pool import build_pool, is_pool
from hon_env.errors import EngineError
from hon_env.game import Game
from hon_env.numba_cache import announce_compile, debug_mode
from hon_env.options import EnvOptions
from hon_env.rollout import engine_error
from hon_env.spec import layout as L
from hon_env.spec.compact import live_obs_dim
from hon_env.spec.compact import state_dim as compact_state_dim
from hon_env.spec.layout import HERO_COUNTER_COLS


class VectorEnv:
    """A batch of ``num_envs`` games of one scenario stepped together (see module doc)."""

    def __init__(self, num_envs: int, seed: int = 0,
                 scenario: str | Path | Scenario = "origin_story", *,
                 observations: bool = True, global_state: bool | str = True,
                 compact: bool = False,
                 on_error: str = "raise", **options: Any) -> None:
        """``options``: the keyword arguments of every front end (``hon_env.options``);
        ``render_mode`` must stay None (nothing renders a batch). ``observations`` and
        ``global_state`` (True, False or ``"tail"``): what each step encodes (module
        doc). ``compact``: observations and states without the sections of the Two Fronts
        and Draft rules when the games play without them (module doc). ``on_error``: what an
        engine error in one game does, ``"raise"`` (``EngineError``) or ``"reset"`` (the
        game is marked in ``info["error"]`` and restarted)."""
        num_envs = check_num_envs(num_envs)
        seed = check_seed(seed, seed_span(num_envs))
        tail = isinstance(global_state, str) and global_state == "tail"
        for name, flag in (("observations", observations), ("compact", compact)):
            if not isinstance(flag, (bool, np.bool_)):
                raise TypeError(f"{name} must be a bool, got {flag!r}")
        if not (tail or isinstance(global_state, (bool, np.bool_))):
            raise TypeError(f"global_state must be a bool or 'tail', got {global_state!r}")
        check_batch_memory(num_envs, observations, observations and global_state)
        if on_error not in ("raise", "reset"):
            raise ValueError(f"on_error must be 'raise' or 'reset', got {on_error!r}")
        self.on_error = on_error
        heroes = options.pop("heroes", None)
        if is_pool(scenario, heroes):
            pool = build_pool(scenario, heroes, options)
        else:
            pool = [EnvOptions.build(scenario, render_modes=(), heroes=heroes, **options)]
        opts = pool[0]
        if any(o.scenario.drafted for o in pool) and len(pool) > 1:
            raise ValueError("the draft rule chooses each game's heroes itself: pass one "
                             "scenario and no pool of teams (heroes= a list of teams or "
                             "'random') with it")
        if opts.scenario.drafted:
            # the games draft their teams (core/draft.py): row k is the k-th ordered team
            self.scenarios: list[Scenario] = list(opts.scenario.draft_pool)
            self.scenario = opts.scenario
            self._tables = opts.scenario.engine_tables
        else:
            # every game draws its scenario from the pool when an episode starts
            # (core/teams.py)
            self.scenarios = [o.scenario for o in pool]
            self.scenario = self.scenarios[0]
            self._tables = np.concatenate([s.tables.base for s in self.scenarios])
            # read-only like every scenario's tables: numba compiles a kernel once per
            # array type, and the flag is part of the type
            self._tables.flags.writeable = False
        self.num_envs = int(num_envs)
        self.seed = seed
        self._steps = 0  # steps since the seed was set: episodes per game stay below this
        self.observations = bool(observations)
        # the global state is encoded only with the observations; "tail": its own sections
        self.global_state = self.observations and bool(global_state)
        self.state_tail = self.global_state and tail
        # the last sections (Two Fronts, then Draft) stay zero in games without their rule
        self.compact = bool(compact)
        self._obs_dim = (live_obs_dim(any(sc.two_fronts for sc in self.scenarios),
                                      self.scenario.drafted) if self.compact else OBS_DIM)
        self._state_dim = STATE_TAIL if self.state_tail else compact_state_dim(self._obs_dim)
        self.illegal_action = opts.illegal_action
        self.n_heroes = self.scenario.n_heroes
        # the columns of ``_step_info`` behind info["hero_events"], seat by seat
        hev = L.FIELDS["hev"][0] - INFO_LO
        self._hev_cols = np.array([hev + h * L.N_HEV + c for h in range(self.n_heroes)
                                   for c in HERO_COUNTER_COLS], np.int64)
        self._info_cols = tuple(_info_column(name) for name in ("events", "team", "fame"))
        self.weights = opts.weights
        self.villain_agent = self.scenario.villain_agent
        self._allocate()
        self._started = False

    def _allocate(self) -> None:
        """The step's arrays, written in place by the kernels and returned as views."""
        B = self.num_envs
        self.state = np.zeros((B, L.STATE_LEN), np.int32)
        self.masks = np.zeros((B, L.N_ACTIONS), np.int8)
        self._status = np.zeros(B, np.int32)
        self._stopped = 0  # games stopped by an engine error after the last reset or step
        self._episodes = np.zeros(B, np.int64)
        self._ev_prev = np.zeros((B, N_PREV), np.int32)  # events and fame at the last step
        n_obs = B if self.observations else 1
        self._obs = np.zeros((n_obs, self._obs_dim), np.float32)
        self._states = np.zeros((B if self.global_state else 1, self._state_dim), np.float32)
        self._final_obs = np.zeros((n_obs, self._obs_dim), np.float32)
        self.agent = np.zeros(B, np.int32)
        # one column per hero seat, then the villain agent's (Mastermind variant)
        self.rewards = np.zeros((B, self.n_heroes + int(self.villain_agent)), np.float32)
        self.terminated = np.zeros(B, bool)
        self.truncated = np.zeros(B, bool)
        self._final_info = np.zeros((B, N_FINAL_INFO), np.int32)
        self._step_info = np.zeros((B, INFO_HI - INFO_LO), np.int32)  # the info's state columns
        self._error = np.zeros(B, bool)
        self._error_code = np.zeros(B, np.int32)

    @property
    def observation_dim(self) -> int:
        """Floats of an observation: ``OBS_DIM``, or the compact width (``compact=True``)."""
        return self._obs_dim

    @property
    def state_dim(self) -> int:
        """Floats of a global state: ``STATE_DIM``, the compact width, or ``STATE_TAIL``
        (``global_state="tail"``)."""
        return self._state_dim

    @property
    def n_actions(self) -> int:
        return L.N_ACTIONS

    @property
    def engine(self) -> tuple[np.ndarray, np.ndarray]:
        """``(state [B, STATE_LEN], tables)``: the live engine rows and the tables of the
        pool's scenarios (game b plays row ``state[b, layout.TEAM]``), for scripted
        policies (``agents.HeuristicPolicy``) that read the game directly."""
        return self.state, self._tables

    @property
    def teams(self) -> np.ndarray:
        """int32 [B]: the pool entry (``scenarios`` index) each game's episode plays."""
        return self.state[:, L.TEAM].copy()

    def reset(self, seed: int | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start every game; with ``seed`` the episode counters restart from that seed."""
        if seed is not None:
            self.seed = check_seed(seed, seed_span(self.num_envs))
            self._episodes[:] = 0
            self._steps = 0
        announce_compile("vector", "vector.vector_step")
        vector_reset(self.state, self._tables, self.masks, np.int64(self.seed),
                     self._episodes, self._ev_prev, self.observations, self.global_state,
                     self._obs, self._states, self.agent, self._step_info)
        self._started = True
        self._error[:] = False
        self._error_code[:] = 0
        self._handle_errors()
        info = {"events": self._info_field("events").copy(),
                "team": self._info_field("team").copy()}
        if self.on_error == "reset":
            info["error"], info["error_code"] = self._error.copy(), self._error_code.copy()
        return self._views(), info

    def step(self, actions: np.ndarray) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                                  np.ndarray, dict[str, Any]]:
        """Apply one action per game; returns (obs, rewards, terminated, truncated, info)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if self._stopped:  # a game stopped earlier: say so, not "illegal"
            self._handle_errors()
        actions = check_actions(actions, self.num_envs)
        if self._steps >= EPISODE_ROOM - 1:
            # game i, episode k plays seed + i + k * B: the seed check left room for this many
            raise RuntimeError(f"{self._steps} steps since the seed was set: call "
                               "reset(seed=...) to keep every episode's seed below 2**63")
        penalty = None
        if count_illegal(actions, self.masks):  # then find which
            bad = np.flatnonzero(~legal_in_masks(actions, self.masks))
            if self.illegal_action == "raise":
                raise IllegalActionError(
                    f"illegal actions in games {bad[:10].tolist()}: "
                    f"{actions[bad[:10]].tolist()} (actions are integers in "
                    f"[0, {L.N_ACTIONS}) allowed by obs['action_mask']); nothing was stepped")
            penalty = bad
        stopped = vector_step(self.state, self._tables, actions, self.masks, self._status,
                              np.int64(self.seed), self._episodes, self.weights,
                              self._ev_prev, self.observations, self.global_state, self._obs,
                              self._states, self.agent, self.rewards, self.terminated,
                              self.truncated, self._final_obs, self._final_info,
                              self._step_info)
        self._steps += 1
        if penalty is not None:
            self._penalize(penalty)
            stopped = None  # its restarts may have stopped a game too: look
        self._error[:] = False
        self._error_code[:] = 0
        self._handle_errors(stopped)
        return (self._views(), self.rewards, self.terminated, self.truncated, self._info())

    def episode_seed(self, i: int) -> int:
        """The seed of game ``i``'s running episode."""
        return self.seed + int(i) + int(self._episodes[i]) * self.num_envs

    def _handle_errors(self, count: int | None = None) -> None:
        """Raise for, or restart, games the engine stopped (``count``: how many the step
        kernel counted, None: look); check invariants in debug mode."""
        stopped = np.flatnonzero(self.state[:, L.ERROR]) if count is None or count else ()
        self._stopped = len(stopped)
        if self._stopped:
            if self.on_error == "raise":
                i = int(stopped[0])
                err = engine_error(self.state[i], i, self.episode_seed(i))
                if stopped.size > 1:
                    err.args = (err.args[0] + f" (games {stopped[:10].tolist()} stopped)",)
                raise err
            self._restart_stopped(stopped)
            self._stopped = int(np.count_nonzero(self.state[stopped, L.ERROR]))
        if debug_mode():
            from hon_env.core.invariants import violations

            found = []
            for k, sc in enumerate(self.scenarios):
                rows = np.flatnonzero((self.state[:, L.TEAM] == k)
                                      & (self.state[:, L.DRAFTING] == 0))
                if rows.size:
                    found += violations(self.state[rows], sc.tables, self.masks[rows])
            if found:
                raise EngineError("invariant violated: " + "; ".join(found[:5]),
                                  error="invariant")

    def _restart_stopped(self, games: np.ndarray) -> None:
        """'reset' mode: end the stopped games' episodes (truncated, reward 0) and restart
        them at their next episode's seed; ``info["error"]`` marks them."""
        for i in games:
            self._error[i] = True
            self._error_code[i] = self.state[i, L.ERROR]
            self._final_info[i, :FINAL_FAME] = (1, L.OUT_TRUNCATED, L.LOSS_ENGINE_ERROR,
                                                self.state[i, L.ROUND],
                                                self.state[i, L.DECISIONS], self.agent[i])
            self._final_info[i, FINAL_FAME:] = L.field_view(self.state[i:i + 1], "fame")[0]
            if self.observations:
                self._final_obs[i] = 0.0
            self.rewards[i, :] = 0.0
            self.terminated[i] = False
            self.truncated[i] = True
            self._episodes[i] += 1
        self._restart(games)

    def _penalize(self, games: np.ndarray) -> None:
        """'penalize' mode: an illegal action ends that game's episode with the penalty of
        the episode rules (``core/episode.py``)."""
        for i in games:
            self._final_info[i, :FINAL_FAME] = (1, L.OUT_LOSS, L.LOSS_ILLEGAL,
                                                self.state[i, L.ROUND],
                                                self.state[i, L.DECISIONS], self.agent[i])
            self._final_info[i, FINAL_FAME:] = L.field_view(self.state[i:i + 1], "fame")[0]
            self.rewards[i, :] = ILLEGAL_PENALTY
            if self.villain_agent:  # only the side that made the illegal action pays
                villain_fault = self.agent[i] == L.VILLAIN_SEAT
                self.rewards[i, :self.n_heroes] = 0.0 if villain_fault else ILLEGAL_PENALTY
                self.rewards[i, self.n_heroes] = ILLEGAL_PENALTY if villain_fault else 0.0
            self.terminated[i] = True
            self._episodes[i] += 1
        self._restart(games)

    def _restart(self, games: np.ndarray) -> None:
        """Start ``games`` afresh at their current episode's seed (counters already moved)."""
        sub = np.asarray(games)
        st = self.state[sub]
        mk = self.masks[sub]
        ep = self._episodes[sub]
        evp = self._ev_prev[sub]
        ag = self.agent[sub]
        si = self._step_info[sub]
        ob = self._obs[sub] if self.observations else self._obs
        ss = self._states[sub] if self.global_state else self._states
        for j, i in enumerate(sub):
            seeds_off = self.seed + int(i) + int(ep[j]) * self.num_envs
            vector_reset(st[j:j + 1], self._tables, mk[j:j + 1],
                         np.int64(seeds_off), np.zeros(1, np.int64), evp[j:j + 1],
                         self.observations, self.global_state,
                         ob[j:j + 1] if self.observations else ob,
                         ss[j:j + 1] if self.global_state else ss, ag[j:j + 1], si[j:j + 1])
        self.state[sub], self.masks[sub], self._ev_prev[sub], self.agent[sub] = st, mk, evp, ag
        self._step_info[sub] = si
        if self.observations:
            self._obs[sub] = ob
        if self.global_state:
            self._states[sub] = ss

    def _views(self) -> dict[str, np.ndarray]:
        views = {"observation": self._obs, "action_mask": self.masks, "agent": self.agent}
        if self.global_state or not self.observations:
            views["state"] = self._states
        return views

    def _info_field(self, name: str) -> np.ndarray:
        """State field ``name`` of every game as the last reset or step left it: a view of
        ``_step_info``, the copy of the info's columns the kernels write (contiguous, where
        the field's column of ``state`` is one cold row per game)."""
        return L.field_view(self._step_info, name, _info_column(name))

    def _info(self) -> dict[str, Any]:
        """A step's info dict, in arrays of its own (``gather_info`` fills them)."""
        B, nh = self.num_envs, self.n_heroes
        events = np.empty((B, L.FIELDS["events"][1][0]), np.int32)
        team = np.empty(B, np.int32)
        fame = np.empty((B, nh), np.int32)
        hero_events = np.empty((B, nh, len(HERO_COUNTER_COLS)), np.int32)
        final_fame = np.empty((B, nh), np.int32)
        ended = np.empty(B, bool)
        final_cols = np.empty((FINAL_FAME - 1, B), np.int32)
        gather_info(self._step_info, self._final_info, *self._info_cols, self._hev_cols,
                    events, team, fame, hero_events.reshape(B, -1), final_fame, ended,
                    final_cols)
        outcome, loss_reason, rounds, decisions, agent = final_cols
        return {
            "events": events, "team": team, "fame": fame, "hero_events": hero_events,
            "final_fame": final_fame, "_final": ended, "final_outcome": outcome,
            "final_loss_reason": loss_reason, "final_rounds": rounds,
            "final_decisions": decisions, "final_agent": agent,
            "final_observation": self._final_obs,
            **({"error": self._error.copy(), "error_code": self._error_code.copy()}
               if self.on_error == "reset" else {}),
        }

    def sample_actions(self, rng: np.random.Generator) -> np.ndarray:
        """One uniformly random legal action per game (drawn from ``rng``, a numpy
        ``Generator`` such as ``np.random.default_rng(0)``)."""
        if not isinstance(rng, np.random.Generator):
            raise TypeError(f"rng must be a numpy Generator (np.random.default_rng(seed)), "
                            f"got {rng!r} ({type(rng).__name__})")
        return sample_legal(self.masks, rng)

    def game(self, i: int) -> Game:
        """A copy of game ``i`` as a ``Game`` (to inspect or render it; the batch is not
        changed by what is done to the copy)."""
        i = check_int(i, "i")
        if not 0 <= i < self.num_envs:
            raise IndexError(f"game index {i} out of range for {self.num_envs} games")
        row = self.state[i].copy()
        if self.scenario.drafted:  # a Game of a draft holds every team's tables too
            return Game.from_array(self.scenario, row)
        scenario = self.scenarios[row[L.TEAM]]
        row[L.TEAM] = 0  # a Game holds its own scenario's tables only
        return Game.from_array(scenario, row)


def _info_column(name: str) -> int:
    """The column of ``VectorEnv._step_info`` where state field ``name`` starts."""
    start, shape = L.FIELDS[name]
    if not INFO_LO <= start <= start + math.prod(shape) <= INFO_HI:
        raise KeyError(f"state field {name!r} is not among the info columns")
    return start - INFO_LO


def require_heroes_only(scenario: Scenario, front_end: str) -> None:
    """Refuse a scenario with the villain agent in a front end whose learner plays every
    row as a hero (the villain's rows would reach the hero policy)."""
    if scenario.villain_agent:
        raise ValueError(f"{front_end} plays every game's decisions as the heroes, but "
                         f"scenario {scenario.id!r} has a villain agent (rules "
                         "villain_agent): use VectorEnv (villain rows), the PettingZoo env or "
                         "HourOfNeedVillainEnv / HourOfNeedEnv(villain_policy=...) "
                         "(docs/mastermind.md)")


def require_team_reward(scenario: Scenario, front_end: str) -> None:
    """Refuse a Fame reward mode that gives each hero its own reward in a front end that
    reports one reward per game (the team's)."""
    mode = scenario.fame_mode
    if mode != "team":
        raise ValueError(f"{front_end} reports one team reward per game, but scenario "
                         f"{scenario.id!r} gives each hero its own reward (rules fame, reward "
                         f"{mode!r}): use VectorEnv, the PettingZoo envs or the TorchRL env "
                         "(docs/variants.md)")


def vector_env(num_envs: int, seed: int = 0, **options: Any) -> VectorEnv:
    """Create a ``VectorEnv``: ``num_envs`` games from ``seed``; ``options`` as every front
    end takes them (``hon_env.options``) plus ``scenario``, ``observations``,
    ``global_state`` and ``on_error``."""
    return VectorEnv(num_envs, seed, **options)


def sample_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``masks`` (fast for large batches)."""
    u = rng.random(masks.shape[0])
    out = np.empty(masks.shape[0], np.int64)
    _sample_rows(masks, u, out)
    return out


@njit(cache=True, parallel=True)
def _sample_rows(masks, u, out):
    for j in prange(masks.shape[0]):
        i = np.int64(j)  # prange counts in uint64 (tests/test_numba_cache.py)
        n = 0
        for a in range(masks.shape[1]):
            n += masks[i, a]
        k = min(int(u[i] * n), n - 1)
        out[i] = 0
        for a in range(masks.shape[1]):
            if masks[i, a]:
                if k == 0:
                    out[i] = a
                    break
                k -= 1
