"""Small helpers shared by the vector-env tests (tests/test_vector_env.py,
tests/test_team_pool.py)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from hon_env import Game, VectorEnv


def lockstep(env: VectorEnv, games: list[Game], steps: int = 400,
             seed: int = 1) -> Iterator[tuple]:
    """Step ``env`` and ``games`` (``games[i]`` mirrors game i of ``env``; the list may be
    refilled between steps) with the same random legal actions, ``steps`` times; yields each
    ``env.step`` result."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        actions = env.sample_actions(rng)
        for i, g in enumerate(games):
            g.apply(int(actions[i]))
        yield env.step(actions)
