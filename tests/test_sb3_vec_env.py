"""The SB3 VecEnv adapter: SB3's own checks, masks, terminal observations, MaskablePPO."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402

from hon_env.envs.sb3 import SB3VecEnv  # noqa: E402
from hon_env.spec import layout as L  # noqa: E402


def test_masks_and_terminal_observations(origin):
    env = SB3VecEnv(8, seed=0, scenario=origin)
    obs = env.reset()
    assert obs.shape == (8, env.observation_space.shape[0]) and obs.dtype == np.float32
    assert is_masking_supported(env)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        masks = get_action_masks(env)
        assert masks.shape == (8, L.N_ACTIONS) and masks.any(axis=1).all()
        u = rng.random(masks.shape)
        u[~masks] = -1
        obs, rewards, dones, infos = env.step(u.argmax(axis=1))
        for i in np.flatnonzero(dones):
            ended += 1
            assert infos[i]["terminal_observation"].shape == obs[i].shape
            assert rewards[i] in (-1.0, 1.0, 0.0)
            assert infos[i]["episode"]["l"] > 0
        assert not rewards[~dones].any()
    assert ended > 0


def test_compact_observations_reach_the_adapter(origin):
    """``compact=True``: the observation space is the compact width and each observation
    the full adapter's first floats."""
    from hon_env.spec.compact import expand_obs, live_obs_dim

    full, small = SB3VecEnv(4, seed=2, scenario=origin), SB3VecEnv(4, seed=2, scenario=origin,
                                                                    compact=True)
    assert small.observation_space.shape == (live_obs_dim(two_fronts=False, draft=False),)
    fo, so = full.reset(), small.reset()
    for _ in range(30):
        np.testing.assert_array_equal(expand_obs(so), fo)
        actions = get_action_masks(full).argmax(axis=1)
        fo, *_ = full.step(actions)
        so, *_ = small.step(actions)


def test_maskable_ppo_trains_a_few_steps(origin, tmp_path, monkeypatch):
    """MaskablePPO runs on the adapter end to end, saves and reloads."""
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path))  # SB3's default log folder, not /tmp's
    env = SB3VecEnv(16, seed=1, scenario=origin)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]}, device="cpu")
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    model.save(tmp_path / "ppo")
    again = MaskablePPO.load(tmp_path / "ppo", device="cpu")
    obs = env.reset()
    actions, _ = again.predict(obs, action_masks=get_action_masks(env), deterministic=True)
    assert get_action_masks(env)[np.arange(16), actions].all()


def test_predicting_without_masks_raises_illegal_action_error(origin):
    """An unmasked prediction that picks an illegal action fails with the documented
    ``IllegalActionError`` (a ``ValueError`` subclass) naming the games."""
    from hon_env import IllegalActionError

    env = SB3VecEnv(4, seed=0, scenario=origin)
    env.reset()
    masks = env.action_masks()
    illegal = np.array([int(np.flatnonzero(~m)[0]) for m in masks])
    with pytest.raises(IllegalActionError, match="illegal actions in games"):
        env.step(illegal)


def test_env_is_wrapped_and_images(origin):
    """``env_is_wrapped`` answers True only for Monitor (the adapter writes its episode
    records); ``get_images`` draws every game."""
    pytest.importorskip("matplotlib")
    from gymnasium.wrappers import TimeLimit
    from stable_baselines3.common.monitor import Monitor

    env = SB3VecEnv(2, seed=0, scenario=origin, render_mode="rgb_array")
    env.reset()
    assert env.env_is_wrapped(Monitor) == [True, True]
    assert env.env_is_wrapped(TimeLimit) == [False, False]
    images = env.get_images()
    assert len(images) == 2
    assert all(im.ndim == 3 and im.shape[2] == 3 and im.dtype == np.uint8 for im in images)
    assert env.render(mode="rgb_array").ndim == 3  # SB3 tiles the games into one image
