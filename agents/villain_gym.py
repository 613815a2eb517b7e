"""The entry point of the Gymnasium id ``hon_env/HourOfNeedVillain-v8``.

``HourOfNeedVillainEnv`` takes the heroes' policy as an object (the envs never import the
agents); ``gymnasium.make(VILLAIN_ENV_ID)`` comes here instead, so that the id keeps its
convenient default (the coordinated scripted team) and takes a policy name or checkpoint
(``agents.load_policy``) as well as an object.
"""

from __future__ import annotations

from typing import Any

from agents.registry import load_policy
from hon_env.envs.villain_env import HourOfNeedVillainEnv


def make_villain_env(hero_policy: Any = "heuristic", **options: Any) -> HourOfNeedVillainEnv:
    """The villain env with ``hero_policy`` playing the heroes: a policy object, or a name
    or checkpoint path that ``agents.load_policy`` resolves (default ``"heuristic"``)."""
    if isinstance(hero_policy, str):
        hero_policy = load_policy(hero_policy)
    return HourOfNeedVillainEnv(hero_policy, **options)
