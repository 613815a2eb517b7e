"""Reward shaping, the team's and the villain agent's: event names and validated weights,
shared by every front end."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from hon_env.core import layout as L

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
