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

import gymnasium
import numpy as np
from gymnasium import spaces

from hon_env.checks import check_seed
from hon_env.content.villain_agent import VILLAIN_AGENT
from hon_env.core.observe import OBS_DIM
from hon_env.envs.autoplay import is_villain, play_others
from hon_env.envs.gym_env import ENV_ID
from hon_env.envs.session import Session, SessionViews
from hon_env.options import RENDER_MODES, EnvOptions
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


class HourOfNeedVillainEnv(SessionViews, gymnasium.Env):
    """One game; the learner plays the villain agent (see the module documentation)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}

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
        self._hero_rng = np.random.default_rng(0)
        self.observation_space = spaces.Box(0.0, np.inf, shape=(OBS_DIM,), dtype=np.float32)
        self.action_space = spaces.Discrete(L.N_ACTIONS)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start an episode and play the heroes up to the villain's first decision."""
        seed = None if seed is None else check_seed(seed)
        self._session.reset(seed)
        super().reset(seed=seed)
        self._hero_rng = np.random.default_rng(self._session.seed)
        self._heroes_play()
        if self._session.over:
            raise RuntimeError(f"episode of seed {self._session.seed} ended before the "
                               "villain's first decision (a hand of 1 with the rulebook's "
                               "cunning and inflict choices leaves the villain none)")
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Answer the villain's pending decision, then let the heroes play to the next."""
        if self._session.over:
            raise RuntimeError("the episode is over; call reset() to start the next one")
        reward = self._session.agent_rewards(self._session.step(action))[VILLAIN_AGENT]
        reward += self._heroes_play()
        if self.render_mode == "human":
            self.render()
        return (self._observation(), reward, self._session.terminated,
                self._session.truncated, self._info())

    def action_masks(self) -> np.ndarray:
        """bool [N_ACTIONS] legal mask of the villain's decision (all False once over)."""
        return self._session.legal_mask().astype(bool)

    def _heroes_play(self) -> float:
        return play_others(self._session, self.hero_policy, is_villain, VILLAIN_AGENT,
                           self._hero_rng)

    def _observation(self) -> np.ndarray:
        return self._session.observation(L.VILLAIN_SEAT)

    def _info(self) -> dict[str, Any]:
        info = self._session.info()
        info["action_mask"] = self._session.legal_mask()
        return info
