"""A stable-baselines3 ``VecEnv`` over the batched engine (no subprocesses).

One shared policy plays whichever hero decides in each game; the seat is one-hot in the
observation (``observe.py`` GLOBAL section). The team reward is the per-game reward.
``action_masks()`` (and ``env_method("action_masks")``) give the legal masks, so
sb3-contrib's ``MaskablePPO`` trains on it directly::

    from sb3_contrib import MaskablePPO
    from hon_env.envs.sb3 import SB3VecEnv
    env = SB3VecEnv(num_envs=256, seed=0)
    MaskablePPO("MlpPolicy", env, n_steps=64).learn(100_000)

Ended episodes follow SB3's convention: ``infos[i]["terminal_observation"]`` holds the
last observation, ``infos[i]["TimeLimit.truncated"]`` marks a truncation, and
``infos[i]["episode"]`` carries the episode's team return ``r`` and length ``l``
(decisions), the keys SB3's loggers read.

An action outside a game's legal mask (e.g. ``model.predict(obs)`` without
``action_masks=``) raises ``hon_env.IllegalActionError`` naming the games and actions;
``illegal_action="penalize"`` ends those games' episodes with reward -1 instead.
``get_images()`` draws every game (``hon_env.views.render_rgb``; needs Pillow), so
SB3's ``VecVideoRecorder`` works with ``render_mode="rgb_array"``. No Gymnasium env and
so no wrapper stands behind the games, but the adapter records episodes as SB3's
``Monitor`` does: ``env_is_wrapped(Monitor)`` is True (so ``evaluate_policy`` reads the
whole episodes' returns from ``infos[i]["episode"]``), False for every other wrapper.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from hon_env.checks import check_actions, check_seed, seed_span
from hon_env.envs.vector import VectorEnv, require_heroes_only, require_team_reward
from hon_env.options import check_render_mode
from hon_env.spec import layout as L


class SB3VecEnv(VecEnv):
    """``num_envs`` games as one SB3 ``VecEnv``; keyword arguments go to ``VectorEnv``."""

    def __init__(self, num_envs: int, seed: int = 0, *, render_mode: str | None = None,
                 **kwargs: Any) -> None:
        check_render_mode(render_mode, ("rgb_array",))  # frames for VecVideoRecorder
        # the policy and its value head read the deciding hero's observation, not the state
        self.venv = VectorEnv(num_envs, seed, observations=True, global_state=False, **kwargs)
        require_heroes_only(self.venv.scenario, type(self).__name__)
        require_team_reward(self.venv.scenario, type(self).__name__)
        self.render_mode = render_mode
        self._actions = np.zeros(num_envs, np.int64)
        self._returns = np.zeros(num_envs, np.float64)
        observation_space = spaces.Box(-np.inf, np.inf, shape=(self.venv.observation_dim,),
                                       dtype=np.float32)
        super().__init__(num_envs, observation_space, spaces.Discrete(L.N_ACTIONS))

    def reset(self) -> np.ndarray:
        seed = self._seeds[0]
        obs, _ = self.venv.reset(seed=seed)
        self._reset_seeds()
        self._returns[:] = 0.0
        return obs["observation"].copy()

    def step_async(self, actions: np.ndarray) -> None:
        """Store one integer action per game (shape ``(num_envs,)`` or ``(num_envs, 1)``);
        a float, bool or mis-shaped array is refused here, before anything steps."""
        arr = np.asarray(actions)
        if arr.shape == (self.num_envs, 1):
            arr = arr[:, 0]
        self._actions = check_actions(arr, self.num_envs)

    def step_wait(self):
        obs, rewards, term, trunc, info = self.venv.step(self._actions)
        team = rewards[:, 0].astype(np.float32).copy()
        self._returns += team
        dones = term | trunc
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i] = {
                "terminal_observation": info["final_observation"][i].copy(),
                "TimeLimit.truncated": bool(trunc[i] and not term[i]),
                "episode": {"r": float(self._returns[i]),
                            "l": int(info["final_decisions"][i])},
                "outcome": L.OUTCOME_NAMES[int(info["final_outcome"][i])],
            }
            self._returns[i] = 0.0
        return obs["observation"].copy(), team, dones.copy(), infos

    def action_masks(self) -> np.ndarray:
        """Boolean [num_envs, N_ACTIONS] legal masks of the pending decisions."""
        return self.venv.masks.astype(bool)

    def close(self) -> None:
        pass

    def seed(self, seed: int | None = None) -> list[int | None]:
        """Seed of the next ``reset()``: game i plays ``seed + i`` (checked now)."""
        if seed is not None:
            seed = check_seed(seed, seed_span(self.num_envs))
        self._seeds = [seed] + [None] * (self.num_envs - 1)
        return [None if seed is None else seed + i for i in range(self.num_envs)]

    def get_attr(self, attr_name: str, indices: Iterable[int] | int | None = None) -> list[Any]:
        value = getattr(self, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any,
                 indices: Iterable[int] | int | None = None) -> None:
        raise AttributeError(f"SB3VecEnv games share one engine; cannot set {attr_name!r} "
                             "per game")

    def env_method(self, method_name: str, *method_args: Any,
                   indices: Iterable[int] | int | None = None, **method_kwargs: Any) -> list:
        idx = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in idx]
        raise AttributeError(f"SB3VecEnv has no per-game method {method_name!r}")

    def env_is_wrapped(self, wrapper_class: type, indices: Iterable[int] | int | None = None
                       ) -> list[bool]:
        """True only for SB3's ``Monitor``, whose episode records the adapter writes itself;
        the games are rows of one engine, with no Gymnasium env or wrapper behind them."""
        from stable_baselines3.common.monitor import Monitor

        monitored = wrapper_class is Monitor
        return [monitored for _ in self._get_indices(indices)]

    def get_images(self) -> list[np.ndarray]:
        """One ``[H, W, 3]`` uint8 image of each game's current position."""
        from hon_env.views.raster import render_rgb  # Pillow only when asked

        return [render_rgb(self.venv.game(i)) for i in range(self.num_envs)]
