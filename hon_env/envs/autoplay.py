"""Let a fixed policy answer the other side's decisions inside a single-agent env.

The Mastermind variant has two sides, the hero team and the villain agent. The Gymnasium
adapters give one side to the learner and play the other inside the env: the hero env
plays villain decisions with ``villain_policy``, the villain env hero decisions with
``hero_policy``. A policy follows ``agents.policy.Policy`` (``act`` on a batch of one);
None plays uniformly at random among the legal actions, from a generator seeded at reset.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from hon_env.envs.session import Session
from hon_env.spec import layout as L


def play_others(session: Session, policy: Any, mine: Callable[[int], bool], agent: str,
                rng: np.random.Generator) -> float:
    """Answer every pending decision whose seat is not ``mine`` with ``policy`` until
    ``mine`` decides or the episode ends; returns ``agent``'s reward summed over those
    steps (``Session.agent_rewards``)."""
    total = 0.0
    while not session.over:
        game = session.require_game()
        seat = game.current_seat
        if mine(seat):
            break
        mask = game.legal_mask()
        if policy is None:
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            obs = game.observation(seat)[None]
            action = int(policy.act(obs, mask[None], np.array([seat], np.int32),
                                    engine=game.engine)[0])
        total += session.agent_rewards(session.step(action))[agent]
    return total


def is_villain(seat: int) -> bool:
    return seat == L.VILLAIN_SEAT


def is_hero(seat: int) -> bool:
    return seat != L.VILLAIN_SEAT
