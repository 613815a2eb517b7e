"""Masked-uniform random play: every legal action equally likely."""

from __future__ import annotations

import numpy as np

from agents.policy import Engine
from hon_env.envs.vector import sample_legal


class RandomPolicy:
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observations: np.ndarray, masks: np.ndarray, seats: np.ndarray,
            engine: Engine | None = None) -> np.ndarray:
        return sample_legal(masks, self.rng)
