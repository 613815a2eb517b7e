"""Gymnasium conventions: ``make_vec`` gives the batched engine, ``action_masks`` through
``gym.make``'s wrappers, numeric vector infos."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import hon_env
from hon_env import IllegalActionError
from hon_env.envs.gym_vector import HourOfNeedVectorEnv
from hon_env.spec import layout as L


def test_make_vec_gives_the_batched_engine():
    envs = gym.make_vec("hon_env/HourOfNeed-v8", num_envs=8, n_heroes=2)
    assert isinstance(envs.unwrapped, HourOfNeedVectorEnv)
    assert isinstance(envs, gym.vector.VectorEnv)
    obs, info = envs.reset(seed=3)
    assert obs.shape == (8, envs.single_observation_space.shape[0])
    assert envs.observation_space.contains(obs)
    # game i's first episode is Game(scenario, seed=3 + i), the vector env's rule
    first = hon_env.Game(envs.unwrapped.venv.scenario, seed=5)
    np.testing.assert_array_equal(obs[2], first.observation())
    ended = 0
    for _ in range(300):
        masks = envs.action_masks()
        np.testing.assert_array_equal(masks, info["action_mask"])
        actions = envs.sample_legal()
        assert masks[np.arange(8), actions].all()
        obs, rewards, term, trunc, info = envs.step(actions)
        assert rewards.shape == (8,) and term.dtype == bool
        if "final_obs" in info:
            done = info["_final_obs"]
            np.testing.assert_array_equal(done, term | trunc)
            ended += int(done.sum())
            outcomes = info["final_info"]["outcome"][done]
            assert set(outcomes.tolist()) <= {L.OUT_WIN, L.OUT_LOSS, L.OUT_TRUNCATED}
        assert all(isinstance(v, np.ndarray) or isinstance(v, dict) for v in info.values())
    assert ended > 0
    envs.close()


def test_vector_env_checks_its_input():
    envs = gym.make_vec("hon_env/HourOfNeed-v8", num_envs=2)
    envs.reset(seed=0)
    bad = np.array([int(np.flatnonzero(~m)[0]) for m in envs.action_masks()])
    with pytest.raises(IllegalActionError, match="illegal actions"):
        envs.step(bad)
    with pytest.raises(TypeError, match="seed"):
        envs.reset(seed=[0, 1])
    with pytest.raises(TypeError, match="reset options must be a dict or None"):
        envs.reset(seed=0, options=[1])
    with pytest.raises(ValueError, match="reset takes no options"):
        envs.reset(seed=0, options={"fast": True})
    envs.reset(seed=0, options={})
    with pytest.raises(ValueError, match="render_mode"):
        gym.make_vec("hon_env/HourOfNeed-v8", num_envs=2, render_mode="ansi")


def test_sync_mode_still_available():
    envs = gym.make_vec("hon_env/HourOfNeed-v8", num_envs=2, vectorization_mode="sync")
    assert isinstance(envs, gym.vector.SyncVectorEnv)
    envs.close()


def test_action_masks_reach_through_gym_make_wrappers():
    """sb3-contrib finds the masks of a ``gym.make`` env (wrapped in Gymnasium's checker
    and order enforcing) through ``get_wrapper_attr``, alone or in a DummyVecEnv."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import DummyVecEnv

    env = gym.make("hon_env/HourOfNeed-v8")
    assert env is not env.unwrapped
    env.reset(seed=0)
    assert is_masking_supported(env)
    np.testing.assert_array_equal(get_action_masks(env), env.unwrapped.action_masks())
    venv = DummyVecEnv([lambda: gym.make("hon_env/HourOfNeed-v8") for _ in range(2)])
    venv.reset()
    assert is_masking_supported(venv)
    assert get_action_masks(venv).shape == (2, L.N_ACTIONS)


def test_make_vec_compact_observations():
    """``compact=True`` reaches the batched engine: the observation space is the compact
    width and each observation the full one's first floats (``hon_env/spec/compact.py``)."""
    from hon_env.spec.compact import expand_obs, live_obs_dim

    full = gym.make_vec("hon_env/HourOfNeed-v8", num_envs=4, n_heroes=2)
    small = gym.make_vec("hon_env/HourOfNeed-v8", num_envs=4, n_heroes=2, compact=True)
    width = live_obs_dim(two_fronts=False, draft=False)
    assert small.single_observation_space.shape == (width,)
    fo, _ = full.reset(seed=1)
    so, _ = small.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(50):
        assert small.observation_space.contains(so)
        np.testing.assert_array_equal(expand_obs(so), fo)
        actions = full.unwrapped.sample_legal(rng)
        fo, *_ = full.step(actions)
        so, *_ = small.step(actions)
    with pytest.raises(TypeError, match="compact"):
        gym.make_vec("hon_env/HourOfNeed-v8", num_envs=2, compact=1)
