"""Control policies for the evaluation protocol.

``FixedObservationPolicy`` is the fixed-observation control: a random-weight linear actor
that is always fed the same constant observation, so its preferences over the actions
never change and it acts only through the legal mask (its most preferred legal action).
A task on which it beats random play could be won without reading the game; the tests
check, once per task family, that it does not.
"""

from __future__ import annotations

import numpy as np

from agents.policy import Engine
from hon_env.core.observe import OBS_DIM
from hon_env.spec.layout import N_ACTIONS


class FixedObservationPolicy:
    """A fixed random-weight actor on a constant observation: the most preferred legal
    action under fixed logits, whatever the observation."""

    name = "fixed_observation"

    def __init__(self, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        weights = rng.normal(0.0, 1.0 / np.sqrt(OBS_DIM), (N_ACTIONS, OBS_DIM))
        constant = np.full(OBS_DIM, 0.5)
        self.logits = (weights @ constant + rng.normal(0.0, 0.1, N_ACTIONS)).astype(np.float64)

    def act(self, observations: np.ndarray, masks: np.ndarray, seats: np.ndarray,
            engine: Engine | None = None) -> np.ndarray:
        masks = np.asarray(masks)
        scores = np.where(masks.astype(bool), self.logits[None, :], -np.inf)
        return scores.argmax(axis=1).astype(np.int64)
