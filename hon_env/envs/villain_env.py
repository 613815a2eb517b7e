"""``HourOfNeedVillainEnv``: the villain agent of the Mastermind variant as a single-agent
Gymnasium env, the heroes played inside it by a fixed policy.

    >>> import gymnasium as gym
    >>> import hon_env  # registers the envs
    >>> env = gym.make("hon_env/HourOfNeedVillain-v8")  # mastermind scenario, scripted heroes
    >>> obs, info = env.reset(seed=0)
    >>> mask = env.unwrapped.action_masks()
    >>> obs, reward, terminated, truncated, info = env.step(int(mask.nonzero()[0][0]))

Every step is one villain decision (``layout.D_VPLAY``: which hand card resolves against
the hero in ``info["decision"]``'s context, ``D_CUNNING``, ``D_PICK_HERO`` with
``inflict_victim: villain``, and ``D_ENEMY_TARGET``/``D_ENEMY_STEP`` with ``enemy_ties:
villain``); the hero decisions in between are answered by ``hero_policy``, a policy object
(``agents.policy.Policy``: anything with ``act``). The env never imports the agents: the
registered id's entry point (``agents.villain_gym.make_villain_env``) resolves a policy
name or checkpoint (default ``"heuristic"``, the coordinated scripted team) and builds
this env; the class itself takes the object.
The observation is the villain's view (``Game.observation(VILLAIN_SEAT)``: seat 0's
public view, its own hand in the ``villain_agent`` section), ``action_masks()`` the legal
mask for sb3-contrib's ``MaskablePPO``. The reward is the villain's: ``+1`` when the heroes
lose, ``-1`` when they win, ``0`` on truncation (zero-sum with the heroes' team reward).

Options are those of every front end (``hon_env.options``); the scenario defaults to
``mastermind`` and must have the villain agent (rules ``villain_agent``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hon_env.content.villain_agent import VILLAIN_AGENT
from hon_env.envs.autoplay import is_villain, play_others
from hon_env.envs.gym_env import ENV_ID, OneLearnerEnv
from hon_env.envs.session import Session
from hon_env.options import EnvOptions
from hon_env.spec import layout as L

VILLAIN_ENV_ID = ENV_ID.replace("HourOfNeed-", "HourOfNeedVillain-")


def check_hero_policy(hero_policy: Any) -> None:
    """``TypeError`` unless ``hero_policy`` is a policy object (it has ``act``); a name such
    as ``"heuristic"`` is refused with the call that makes its policy."""
    if isinstance(hero_policy, str):
        raise TypeError(f"hero_policy must be a policy object, not the name {hero_policy!r}: "
                        f"pass agents.load_policy({hero_policy!r}) (the envs take policies "
                        "as objects and never import the agents)")
    if hero_policy is None:
        raise TypeError("HourOfNeedVillainEnv needs hero_policy, the policy object that plays "
                        "the heroes, e.g. agents.load_policy('heuristic') (the coordinated "
                        "scripted team)")
    if not callable(getattr(hero_policy, "act", None)):
        raise TypeError(f"hero_policy must have an act(observations, masks, seats, engine) "
                        f"method (agents.policy.Policy), got {type(hero_policy).__name__}")


class HourOfNeedVillainEnv(OneLearnerEnv):
    """One game; the learner plays the villain agent (see the module documentation)."""

    def __init__(self, hero_policy: Any = None, scenario: Any = "mastermind",
                 **options: Any) -> None:
        opts = EnvOptions.build(scenario, **options)
        if not opts.scenario.villain_agent:
            raise ValueError(f"scenario {opts.scenario.id!r} has no villain agent: set rules "
                             "villain_agent (e.g. rules={'villain_agent': True})")
        check_hero_policy(hero_policy)
        self._session = Session(opts)
        self.render_mode = opts.render_mode
        self.hero_policy = hero_policy
        self._others_rng = np.random.default_rng(0)
        self._declare_spaces()

    def _check_started(self) -> None:
        if self._session.over:
            raise RuntimeError(f"episode of seed {self._session.seed} ended before the "
                               "villain's first decision (a hand of 1 with the rulebook's "
                               "cunning and inflict choices leaves the villain none)")

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Answer the villain's pending decision, then let the heroes play to the next."""
        if self._session.over:
            raise RuntimeError("the episode is over; call reset() to start the next one")
        reward = self._session.agent_rewards(self._session.step(action))[VILLAIN_AGENT]
        return self._transition(reward + self._others_play())

    def _others_play(self) -> float:
        """Play the heroes' decisions with ``hero_policy``; the villain's reward of them."""
        return play_others(self._session, self.hero_policy, is_villain, VILLAIN_AGENT,
                           self._others_rng)

    def _observation(self) -> np.ndarray:
        return self._session.observation(L.VILLAIN_SEAT)
