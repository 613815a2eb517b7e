"""Reward parameters shared by every front end: the reward shaping of the team and of the
villain agent (event names and validated weights) and the Fame variant's reward mode
(``core/episode.py``)."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from hon_env.content.fame import REWARD_MODES, FameRule
from hon_env.core.episode import (
    N_REWARD_PARAMS,
    RP_LOSS_KEEP,
    RP_MODE,
    RP_SCALE,
    RP_TEAM_WEIGHT,
    RP_VILLAIN,
)
from hon_env.spec import layout as L

REWARD_EVENTS = L.EVENT_NAMES


def shaping_weights(reward_shaping: Mapping[str, float] | None,
                    option: str = "reward_shaping") -> np.ndarray:
    """float64 [N_EVENTS] weights from ``{event name: weight}``; unknown names are errors
    (naming ``option``)."""
    weights = np.zeros(L.N_EVENTS, np.float64)
    if reward_shaping is None:
        return weights
    if not isinstance(reward_shaping, Mapping):
        raise TypeError(f"{option} must be a mapping of event name to weight, got "
                        f"{type(reward_shaping).__name__}")
    for name, w in reward_shaping.items():
        if name not in REWARD_EVENTS:
            raise ValueError(f"unknown {option} event {name!r}; events are "
                             f"{', '.join(REWARD_EVENTS)}")
        if isinstance(w, bool) or not isinstance(w, (int, float, np.integer, np.floating)):
            raise TypeError(f"{option}[{name!r}] must be a number, got {w!r}")
        if not math.isfinite(float(w)):
            raise ValueError(f"{option}[{name!r}] must be finite, got {w!r}")
        weights[REWARD_EVENTS.index(name)] = float(w)
    return weights


def reward_params(weights: np.ndarray, fame: FameRule | None,
                  villain_weights: np.ndarray | None = None) -> np.ndarray:
    """float64 [N_REWARD_PARAMS]: the heroes' shaping ``weights``, the villain agent's
    ``villain_weights`` (none: zeros), then the reward mode and parameters of the decoded
    ``fame`` rule (the team mode when it is off: None)."""
    out = np.zeros(N_REWARD_PARAMS, np.float64)
    out[:L.N_EVENTS] = weights
    if villain_weights is not None:
        out[RP_VILLAIN:RP_VILLAIN + L.N_EVENTS] = villain_weights
    out[RP_SCALE] = 1.0
    out[RP_TEAM_WEIGHT] = 1.0
    if fame is not None:
        out[RP_MODE] = REWARD_MODES.index(fame.reward)
        out[RP_TEAM_WEIGHT] = fame.team_weight
        out[RP_LOSS_KEEP] = fame.loss_keep
        out[RP_SCALE] = fame.scale
    return out
