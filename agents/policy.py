"""The interface every baseline shares: batched observations and masks in, actions out."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from hon_env.spec import layout as L

# (state [B, STATE_LEN] int32, tables): one Tables record per scenario of the batch's pool,
# game b plays record state[b, layout.TEAM] (core/teams.py; one record, row 0, usually)
Engine = tuple[np.ndarray, np.ndarray]


def check_engine(engine: Engine | None, n_games: int, who: str) -> Engine:
    """``engine`` unpacked, after checking that it holds ``n_games`` state rows and that
    every row's ``team`` names one of its tables (a mismatched pair would make a compiled
    policy read outside the tables)."""
    if engine is None:
        raise ValueError(f"{who} reads the game state: pass engine=env.engine "
                         "(VectorEnv.engine or Game.engine)")
    state, tabs = engine
    if state.ndim != 2 or state.shape[1] != L.STATE_LEN or state.dtype != np.int32:
        raise ValueError(f"engine state must be int32 [B, {L.STATE_LEN}], got {state.dtype} "
                         f"{state.shape}")
    if state.shape[0] != n_games:
        raise ValueError(f"engine state has {state.shape[0]} games, masks {n_games}")
    tabs = np.atleast_1d(tabs)
    team = state[:, L.TEAM]
    if team.size and (team.min() < 0 or team.max() >= tabs.shape[0]):
        raise ValueError(f"engine state names tables row {int(team.max())} but the engine "
                         f"holds {tabs.shape[0]} (state and tables of different envs?)")
    return state, tabs


@runtime_checkable
class Policy(Protocol):
    """A policy for whichever hero decides in each game of a batch.

    ``act`` receives float32 observations [B, OBS_DIM], int8 legal masks [B, N_ACTIONS]
    and the deciding seats [B] (the layout of ``hon_env.vector_env``; a single game is
    B = 1) and returns int64 actions [B], each legal under its mask. ``engine`` is the
    ``(state, tables)`` pair of ``VectorEnv.engine`` / ``Game.engine``: learned policies
    ignore it; scripted ones (``needs_engine = True``) read the public game state from it.
    """

    name: str

    def act(self, observations: np.ndarray, masks: np.ndarray, seats: np.ndarray,
            engine: Engine | None = None) -> np.ndarray: ...
