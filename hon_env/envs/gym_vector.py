"""``HourOfNeedVectorEnv``: the batched engine as a ``gymnasium.vector.VectorEnv``.

    >>> import gymnasium as gym
    >>> import hon_env  # registers the env and its vector entry point
    >>> envs = gym.make_vec("hon_env/HourOfNeed-v8", num_envs=64, n_heroes=2)
    >>> obs, info = envs.reset(seed=0)
    >>> masks = envs.action_masks()  # bool [64, N_ACTIONS]
    >>> obs, rewards, terminated, truncated, info = envs.step(envs.sample_legal())

``gym.make_vec`` builds this class (the registered ``vector_entry_point``): all games step
in one call of the numba engine, not one Python env per game. It is the single-agent
view of ``hon_env/HourOfNeed-v8`` batched: each game's observation is the deciding hero's
(float32 ``[num_envs, OBS_DIM]``), the action is one flat action per game, the reward the
team reward. It takes the keyword arguments of ``HourOfNeedEnv`` (scenario, heroes,
n_heroes, rules, caps, reward_shaping, illegal_action, render_mode "rgb_array"), and
``compact=True``: observations cut before the Two Fronts and Draft sections where the
games play without them (``hon_env.vector_env``; ``observation_space`` says the width).

Episodes auto-reset in the same step (``metadata["autoreset_mode"]`` is ``SAME_STEP``):
the observation returned for a game that ended is its next episode's first;
``info["final_obs"]`` holds the ended episode's last observation and
``info["final_info"]`` its ``outcome`` (``layout.OUT_*``), ``loss_reason``
(``layout.LOSS_*``), ``rounds`` and ``decisions``, valid where ``info["_final_obs"]`` is
True. Every info entry is a numeric array with a leading ``num_envs`` axis (with the
``_key`` masks of Gymnasium's vector convention), so wrappers that tensorize infos work:
``action_mask`` (bool ``[num_envs, N_ACTIONS]``), ``agent`` (the deciding seat),
``events`` (the running episode's event counters). Seeding follows ``hon_env.vector_env``:
game i's first episode after ``reset(seed=s)`` is ``Game(scenario, seed=s + i)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as GymVectorEnv
from gymnasium.vector.utils import batch_space

from hon_env.checks import check_reset_options
from hon_env.envs.session import DEFAULT_SEED, EnvOptions
from hon_env.envs.vector import VectorEnv, require_heroes_only, require_team_reward
from hon_env.spec import layout as L


class HourOfNeedVectorEnv(GymVectorEnv):
    """``num_envs`` games of ``hon_env/HourOfNeed-v8`` stepped together (see module doc)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["rgb_array"]}

    def __init__(self, num_envs: int, *, render_mode: str | None = None,
                 illegal_action: str = "raise", compact: bool = False, **kwargs: Any) -> None:
        options = EnvOptions.build(illegal_action=illegal_action, render_mode=render_mode,
                                   render_modes=("rgb_array",), **kwargs)
        self.venv = VectorEnv(num_envs, DEFAULT_SEED, options.scenario,
                              reward_shaping=kwargs.get("reward_shaping"),
                              illegal_action=illegal_action, global_state=False,
                              compact=compact)
        require_heroes_only(self.venv.scenario, type(self).__name__)
        require_team_reward(self.venv.scenario, type(self).__name__)
        self.num_envs = self.venv.num_envs
        self.render_mode = render_mode
        self.single_observation_space = spaces.Box(
            0.0, np.inf, shape=(self.venv.observation_dim,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(L.N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start every game; ``seed`` (an int) restarts the episode seeds from it.

        Options are refused rather than ignored, unlike the single-game envs: Gymnasium's
        vector API gives them a meaning (``reset_mask``: reset only some sub-envs), and
        ignoring one would reset every game behind the caller's back."""
        if seed is not None and (isinstance(seed, bool)
                                 or not isinstance(seed, (int, np.integer))):
            raise TypeError(f"seed must be an int or None (game i plays seed + i), got "
                            f"{seed!r}")
        check_reset_options(options)
        if options:
            raise ValueError(f"reset takes no options (every game restarts; games end and "
                             f"restart on their own within step), got {options!r}")
        super().reset(seed=None if seed is None else int(seed))
        obs, _ = self.venv.reset(seed=seed)
        return obs["observation"].copy(), self._info(None)

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                 np.ndarray, dict[str, Any]]:
        """One action per game; raises ``IllegalActionError`` for actions outside the masks
        (``illegal_action="penalize"``: that game's episode ends with reward -1)."""
        obs, rewards, term, trunc, info = self.venv.step(np.asarray(actions))
        return (obs["observation"].copy(), rewards[:, 0].copy(), term.copy(), trunc.copy(),
                self._info(info))

    def action_masks(self) -> np.ndarray:
        """bool ``[num_envs, N_ACTIONS]`` legal masks of the pending decisions."""
        return self.venv.masks.astype(bool)

    def sample_legal(self, rng: np.random.Generator | None = None) -> np.ndarray:
        """One uniformly random legal action per game (from ``rng``, else ``np_random``)."""
        return self.venv.sample_actions(self.np_random if rng is None else rng)

    def render(self) -> tuple[np.ndarray, ...] | None:
        """"rgb_array": one ``[H, W, 3]`` uint8 image per game; None without a mode."""
        if self.render_mode is None:
            return None
        from hon_env.views.raster import render_rgb  # Pillow only when asked

        return tuple(render_rgb(self.venv.game(i)) for i in range(self.num_envs))

    def _info(self, step_info: dict[str, Any] | None) -> dict[str, Any]:
        everyone = np.ones(self.num_envs, bool)
        info: dict[str, Any] = {
            "action_mask": self.action_masks(), "_action_mask": everyone,
            "agent": self.venv.agent.copy(), "_agent": everyone,
            "events": L.field_view(self.venv.state, "events").copy(), "_events": everyone,
        }
        if step_info is not None and step_info["_final"].any():
            ended = step_info["_final"].copy()
            info["final_obs"] = step_info["final_observation"].copy()
            info["_final_obs"] = ended
            final = {"outcome": step_info["final_outcome"],
                     "loss_reason": step_info["final_loss_reason"],
                     "rounds": step_info["final_rounds"],
                     "decisions": step_info["final_decisions"]}
            info["final_info"] = {**final, **{f"_{k}": ended for k in final}}
            info["_final_info"] = ended
        return info
