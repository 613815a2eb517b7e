"""The interface every baseline shares: batched observations and masks in, actions out."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

Engine = tuple[np.ndarray, np.ndarray]  # (state [B, STATE_LEN] int32, scenario tables)


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
