"""ε-noisy partners: a policy that, with probability ε, takes a uniformly random legal
action instead of its own.

``NoisyPolicy(base, epsilon, seed)`` asks ``base`` for every row, then draws, per row, one
uniform number (explore when below ε) and one uniformly random legal action from the row's
mask, both from its own ``numpy`` Generator seeded with ``seed``. The draws do not depend
on what the rows hold (two draws per row, whatever the choice), so the same seed and the
same games give the same actions, and hidden information cannot steer the noise.
"""

from __future__ import annotations

import numpy as np

from agents.policy import Engine, Policy
from hon_env.envs.vector import sample_legal


class NoisyPolicy:
    """``base``'s action, replaced with probability ``epsilon`` by a uniformly random legal
    one (see the module docstring)."""

    def __init__(self, base: Policy, epsilon: float, seed: int = 0,
                 name: str | None = None) -> None:
        if isinstance(epsilon, bool) or not 0.0 <= float(epsilon) <= 1.0:
            raise ValueError(f"epsilon must be a probability in [0, 1], got {epsilon!r}")
        self.base = base
        self.epsilon = float(epsilon)
        self.rng = np.random.default_rng(seed)
        self.name = name or f"{getattr(base, 'name', type(base).__name__)}_eps{epsilon}"
        self.needs_engine = getattr(base, "needs_engine", False)

    def act(self, observations: np.ndarray, masks: np.ndarray, seats: np.ndarray,
            engine: Engine | None = None) -> np.ndarray:
        """Actions [B] for observations [B, OBS_DIM], masks [B, N_ACTIONS] and deciding
        seats [B] (the ``Policy`` protocol), each legal under its mask."""
        own = np.asarray(self.base.act(observations, masks, seats, engine=engine), np.int64)
        explore = self.rng.random(own.shape[0]) < self.epsilon
        uniform = sample_legal(np.ascontiguousarray(masks, np.int8), self.rng)
        return np.where(explore, uniform, own)
