"""``HourOfNeedEnv``: Hour of Need as a single-agent Gymnasium env (one policy, all heroes).

    >>> import gymnasium as gym
    >>> import hon_env  # registers the env
    >>> env = gym.make("hon_env/HourOfNeed-v8", n_heroes=2)
    >>> obs, info = env.reset(seed=0)
    >>> mask = env.unwrapped.action_masks()
    >>> obs, reward, terminated, truncated, info = env.step(int(mask.nonzero()[0][0]))

One policy controls whichever hero decides (parameter sharing): the observation is that
hero's egocentric view, float32 ``[OBS_DIM]``, in which the deciding seat is one-hot in the
global section (offsets 58-63, ``hon_env/core/observe.py``), so the policy knows whom it
plays. ``action_masks()`` returns the bool legal mask, the method sb3-contrib's
``MaskablePPO`` looks for; ``info["action_mask"]`` carries the same mask as int8.

Rewards, episode ends, seeding, ``illegal_action`` and the other keyword arguments are
those of the PettingZoo env (``hon_env.envs.pettingzoo_env``; one definition for every
front end: ``hon_env.options``): the team reward, terminated at a win or loss, truncated
at the scenario caps, ``reset(seed=s)`` plays ``Game(scenario, seed=s)`` and a later
``reset()`` the next seed. ``info`` holds ``"events"``, ``"acting_hero"`` (the hero who
decides now), ``"decision"``, ``"action_mask"`` and, at the end, ``"outcome"`` and
``"loss_reason"``; ``numeric_info=True`` makes them numbers with the same keys at every
step (``Session.info``). After the episode ends the observation returned is that of the hero
who made the last decision.

With the Mastermind variant (rules ``villain_agent``) the villain agent's decisions are
played inside the env by ``villain_policy`` (an ``agents.policy.Policy``, e.g.
``agents.villains.ScriptedVillain()``; None: uniformly random legal choices); the villain's
own single-agent env is ``hon_env.envs.villain_env``.

For thousands of games per step use ``hon_env.envs.sb3.SB3VecEnv`` or ``hon_env.vector_env``
instead: they run the same engine batched.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from hon_env.checks import check_reset_options, check_seed
from hon_env.core.observe import OBS_DIM
from hon_env.envs.autoplay import is_hero, play_others
from hon_env.envs.session import Session, SessionViews
from hon_env.envs.vector import require_team_reward
from hon_env.options import RENDER_MODES, EnvOptions
from hon_env.spec import layout as L

ENV_ID = "hon_env/HourOfNeed-v8"


class OneLearnerEnv(SessionViews, gymnasium.Env):
    """A Gymnasium env over one ``Session`` in which the learner answers one side's
    decisions and ``_others_play`` answers the rest (the hero env below, the villain env).

    A subclass sets ``_session``, ``render_mode`` and the spaces (``_declare_spaces``) and
    says whose decisions the learner answers (``_others_play``, ``_observation``)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}
    _others_rng: np.random.Generator

    def _declare_spaces(self) -> None:
        self.observation_space = spaces.Box(0.0, np.inf, shape=(OBS_DIM,), dtype=np.float32)
        self.action_space = spaces.Discrete(L.N_ACTIONS)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start an episode and play the other side up to the learner's first decision;
        ``options`` (a dict or None) is accepted and ignored."""
        check_reset_options(options)
        seed = None if seed is None else check_seed(seed)  # before anything changes
        self._session.reset(seed)
        # seeds np_random as Gymnasium expects (a Python int); the game's RNG is in its state
        super().reset(seed=seed)
        self._others_rng = np.random.default_rng(self._session.seed)
        self._others_play()
        self._check_started()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def action_masks(self) -> np.ndarray:
        """bool [N_ACTIONS] legal mask of the learner's decision (all False once over)."""
        return self._session.legal_mask().astype(bool)

    def _transition(self, reward: float) -> tuple[np.ndarray, float, bool, bool,
                                                  dict[str, Any]]:
        """What ``step`` returns once the learner's action and the others' answers are in."""
        if self.render_mode == "human":
            self.render()
        return (self._observation(), reward, self._session.terminated,
                self._session.truncated, self._info())

    def _check_started(self) -> None:
        """Refuse an episode the learner has no decision in (the villain env's check)."""

    def _others_play(self) -> float:
        raise NotImplementedError

    def _observation(self) -> np.ndarray:
        raise NotImplementedError

    def _info(self) -> dict[str, Any]:
        info = self._session.info()
        info["action_mask"] = self._session.legal_mask()
        return info


class HourOfNeedEnv(OneLearnerEnv):
    """One game; one policy plays the deciding hero at every step (see the module doc)."""

    def __init__(self, villain_policy: Any = None, **options: Any) -> None:
        opts = EnvOptions.build(**options)  # the options of every front end
        require_team_reward(opts.scenario, type(self).__name__)
        self._session = Session(opts)
        if villain_policy is not None and not opts.scenario.villain_agent:
            raise ValueError("villain_policy plays the villain agent (rules villain_agent), "
                             "which this scenario does not have")
        # Mastermind variant: the villain's decisions are played inside the env
        self.villain_policy = villain_policy
        self._others_rng = np.random.default_rng(0)
        self.render_mode = opts.render_mode
        self._declare_spaces()
        self.agents = list(self._session.agents)

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Answer the pending decision for the deciding hero."""
        return self._transition(self._session.step(action) + self._others_play())

    def _others_play(self) -> float:
        """Play the villain agent's decisions (if any) with ``villain_policy``; the team
        reward of those steps."""
        if not self.scenario.villain_agent:
            return 0.0
        return play_others(self._session, self.villain_policy, is_hero,
                           self.scenario.agent_names[0], self._others_rng)

    def _observation(self) -> np.ndarray:
        seat = self._session.game.current_seat if not self._session.over else -1
        return self._session.observation(seat if seat >= 0 else self._session.last_seat)
