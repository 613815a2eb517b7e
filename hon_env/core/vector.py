"""Batched step with rewards, auto-reset and observation encoding, in one parallel pass.

Game i of a batch seeded with ``seed`` plays its k-th episode (k = 0, 1, ...) from seed
``seed + i + k * B``: the first episode of game i is exactly ``Game(scenario, seed + i)``.
``tabs`` holds one ``Tables`` record per scenario of the batch's pool (one, usually); each
episode plays the record ``core/teams.pick_team`` draws from its seed, or, with the draft
rule, the row of the team its seats draft (``core/draft.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from hon_env.core.draft import start_episode, step_episode
from hon_env.core.episode import is_terminated, is_truncated, remember, step_rewards
from hon_env.core.observe import encode_obs, encode_state, encode_state_tail
from hon_env.spec import layout as L
from hon_env.spec import tables as TB
from hon_env.spec.obs_features import STATE_TAIL

FINAL_FAME = 6  # final_info column of seat 0's fame at the end of the episode
N_FINAL_INFO = FINAL_FAME + L.MAX_HEROES
# the state's columns a step's info reports (events, error, hero events, fame, team: one
# span of the row), copied into ``step_info`` while each game's row is in the cache
INFO_LO = L.EVENTS
INFO_HI = L.TEAM + 1


@njit(cache=True)
def _finish_row(s, i, T, episodes, weights, ev_prev, want_obs, agent, rewards, term, trunc,
                final_obs, final_info):
    """Score game ``i``'s step by the episode rules (``core/episode.py``) and, when its
    episode ended, record it.

    Writes ``rewards[i]`` (each hero's reward, ``step_rewards``, then the villain agent's
    reward when the villain is an agent; ``weights`` as ``step_rewards``),
    ``term[i]``/``trunc[i]``, ``ev_prev[i]``, and for an episode that ended in this step
    ``episodes[i] += 1``, ``final_info[i]`` = (ended, outcome, loss reason, rounds,
    decisions, seat, then each seat's final fame) and
    ``final_obs[i]`` (its last observation). Returns True when the episode ended.
    """
    _, rv = step_rewards(s, i, T, weights, ev_prev[i], rewards[i])
    o = s[i, L.OUTCOME]
    term[i] = is_terminated(o)
    trunc[i] = is_truncated(o)
    final_info[i, 0] = 0
    if o != L.OUT_ONGOING:
        final_info[i, 0] = 1
        final_info[i, 1] = o
        final_info[i, 2] = s[i, L.LOSS_REASON]
        final_info[i, 3] = s[i, L.ROUND]
        final_info[i, 4] = s[i, L.DECISIONS]
        final_info[i, 5] = agent[i]
        for h in range(L.MAX_HEROES):
            final_info[i, FINAL_FAME + h] = s[i, L.FAME + h]
        if want_obs:
            encode_obs(s, i, T, max(agent[i], 0), final_obs[i])
        episodes[i] += 1
    nh = T.cfg[TB.CFG_N_HEROES]
    villain_col = nh if T.cfg[TB.CFG_VHAND] > 0 else -1  # the villain agent's column
    for h in range(rewards.shape[1]):
        if h < nh:
            continue
        if h == villain_col:
            rewards[i, h] = rv
        else:
            rewards[i, h] = 0.0
    return o != L.OUT_ONGOING


@njit(cache=True)
def _encode_row(s, i, T, want_obs, want_state, obs, states, agent):
    """Write game ``i``'s deciding seat and, with ``want_obs``, its observation and, with
    ``want_state`` too, its global state (whose first part is seat 0's observation: copied
    when seat 0 decides). ``obs`` and ``states`` are full rows or compact ones
    (``hon_env/spec/compact.py``), the state's observation part as wide as ``obs``; or
    ``states`` rows are ``STATE_TAIL`` wide: the state's own sections only, seat 0's
    observation left out (a critic that reads the deciding seat's observation anyway)."""
    agent[i] = s[i, L.DEC_HERO]
    if want_obs:
        encode_obs(s, i, T, agent[i], obs[i])
        if not want_state:
            return
        if states.shape[1] == STATE_TAIL:
            encode_state_tail(s, i, T, states[i])
        elif agent[i] == 0:
            states[i, :obs.shape[1]] = obs[i]  # OBS_DIM floats, or the compact width
            encode_state_tail(s, i, T, states[i])
        else:
            encode_state(s, i, T, states[i])


@njit(cache=True)
def _copy_info(s, i, step_info):
    """``step_info[i]`` = columns ``[INFO_LO, INFO_HI)`` of game ``i``'s row: read from a
    row still in the cache, where gathering them from the whole batch afterwards read one
    cold row per game and field."""
    for k in range(INFO_HI - INFO_LO):
        step_info[i, k] = s[i, INFO_LO + k]


@njit(cache=True, inline="always")
def _start_row(s, i, tabs, seed, mask):
    """Start game ``i``'s episode with ``seed`` (``core/draft.start_episode``: a draft, or
    the row ``pick_team`` draws); writes row ``i`` and ``mask``; returns the tables."""
    return tabs[start_episode(s, i, tabs, seed, mask)]


@njit(cache=True, parallel=True)
def vector_reset(s, tabs, masks, seed, episodes, ev_prev, want_obs, want_state, obs, states,
                 agent, step_info):
    """Start every game of the batch at its current episode's seed; encode observations
    (``want_obs``) and global states (``want_state`` too) and write ``step_info``, as
    ``vector_step``."""
    B = s.shape[0]
    for j in prange(B):
        i = np.int64(j)  # prange counts in uint64; the engine's kernels are typed for an int64 row
        T = _start_row(s, i, tabs, seed + i + episodes[i] * B, masks[i])
        remember(s, i, ev_prev[i])
        _encode_row(s, i, T, want_obs, want_state, obs, states, agent)
        _copy_info(s, i, step_info)


@njit(cache=True, parallel=True)
def vector_step(s, tabs, actions, masks, status, seed, episodes, weights, ev_prev, want_obs,
                want_state, obs, states, agent, rewards, term, trunc, final_obs, final_info,
                step_info):
    """Apply one action per game, score it, reset finished games and encode the next views.

    Reads and writes the state rows; writes masks, status (apply_action codes), the
    observations (when ``want_obs``) and global states (when ``want_state`` too; a critic
    that reads only observations saves that encoding), deciding seats, per-seat rewards,
    terminated/truncated flags, the final observation/info of episodes that ended and
    ``step_info`` (int32 [B, INFO_HI - INFO_LO]: the state's info columns after the step).
    A game stopped by an engine error (status 3, or an ``error`` left by its auto-reset)
    is left as it is, unscored and not encoded: the front end reports or restarts it.
    Returns how many games are stopped after the step (so the front end reads the error
    column of the state only when one is).
    """
    B = s.shape[0]
    stopped = 0
    for j in prange(B):
        i = np.int64(j)  # prange counts in uint64; the engine's kernels are typed for an int64 row
        drafting = s[i, L.DRAFTING] != 0
        status[i] = step_episode(s, i, tabs, actions[i], masks[i])
        T = tabs[s[i, L.TEAM]]
        if drafting and s[i, L.DRAFTING] == 0:  # the draft set the game up: score from here
            remember(s, i, ev_prev[i])
        if s[i, L.ERROR] != 0:
            _stopped_row(i, rewards, term, trunc, final_info)
        else:
            if _finish_row(s, i, T, episodes, weights, ev_prev, want_obs, agent, rewards,
                           term, trunc, final_obs, final_info):
                T = _start_row(s, i, tabs, seed + i + episodes[i] * B, masks[i])
                remember(s, i, ev_prev[i])
            if s[i, L.ERROR] == 0:
                _encode_row(s, i, T, want_obs, want_state, obs, states, agent)
        _copy_info(s, i, step_info)
        if s[i, L.ERROR] != 0:
            stopped += 1
    return stopped


@njit(cache=True)
def _stopped_row(i, rewards, term, trunc, final_info):
    """Game ``i`` stopped on an engine error: no reward, no episode end (yet)."""
    for h in range(rewards.shape[1]):
        rewards[i, h] = 0.0
    term[i] = False
    trunc[i] = False
    final_info[i, 0] = 0


@njit(cache=True, parallel=True)
def count_illegal(actions, masks):
    """How many games' ``actions[i]`` (int64 [B]) are outside ``[0, N_ACTIONS)`` or not
    allowed by ``masks[i]`` (int8 [B, N_ACTIONS]); reads only.

    A parallel loop like ``vector_step``'s, so each thread reads the mask rows it wrote in
    the last step while they are still in its core's cache: numpy's gather on the calling
    thread read half of them from the other core (0.1 ms a step of 1,024 games on two
    cores, against 0.01-0.03 ms here)."""
    bad = 0
    for j in prange(actions.shape[0]):
        i = np.int64(j)  # prange counts in uint64
        a = actions[i]
        if a < 0 or a >= masks.shape[1] or masks[i, a] != 1:
            bad += 1
    return bad


@njit(cache=True, parallel=True)
def gather_info(step_info, final_info, events_col, team_col, fame_col, hev_cols, events,
                team, fame, hero_events, final_fame, ended, final_cols):
    """Copy each game's info columns into the fresh arrays of one step's info dict.

    Reads ``step_info`` (as ``vector_step`` wrote it; ``*_col`` are columns of it) and
    ``final_info``. Writes ``events[i]`` (the ``events`` field), ``team[i]``,
    ``fame[i, h]`` and ``final_fame[i, h]`` for the seats ``h < fame.shape[1]``,
    ``hero_events[i, k]`` = ``step_info[i, hev_cols[k]]``, ``ended[i]`` (the episode
    ended in the step) and ``final_cols[k, i]`` = ``final_info[i, 1 + k]`` (outcome, loss
    reason, rounds, decisions, seat). Parallel like ``vector_step``, so each game's row is
    read by the core that wrote it: copies on the calling thread read half the rows from
    the other core's cache and cost 3-4 times as much."""
    for j in prange(step_info.shape[0]):
        i = np.int64(j)  # prange counts in uint64
        for k in range(events.shape[1]):
            events[i, k] = step_info[i, events_col + k]
        team[i] = step_info[i, team_col]
        for h in range(fame.shape[1]):
            fame[i, h] = step_info[i, fame_col + h]
            final_fame[i, h] = final_info[i, FINAL_FAME + h]
        for k in range(hev_cols.shape[0]):
            hero_events[i, k] = step_info[i, hev_cols[k]]
        ended[i] = final_info[i, 0] == 1
        for k in range(final_cols.shape[0]):
            final_cols[k, i] = final_info[i, 1 + k]
