"""MaskablePPO's live-input MLP (agents/networks/sb3.py, ``--live-input true``): its shared
first layer gives what a full layer gives on the same batch, and a run trains, loads from
plain data, plays legal actions and resumes."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
import torch

from agents.registry import load_policy
from hon_env import vector_env


def test_live_columns_give_the_full_layer():
    from agents.networks.sb3 import LiveInputFeatures

    torch.manual_seed(0)
    space = gym.spaces.Box(0.0, np.inf, shape=(12,), dtype=np.float32)
    net = LiveInputFeatures(space, width=5)
    x = torch.rand(7, 12)
    x[:, [0, 3, 4, 11]] = 0.0  # columns 0 in the whole batch
    full = torch.tanh(net.first(x))
    torch.testing.assert_close(net(x), full)
    net(x).sum().backward()  # the zero columns' weights get no gradient
    assert torch.count_nonzero(net.first.weight.grad[:, [0, 3, 4, 11]]) == 0
    assert torch.count_nonzero(net.first.weight.grad[:, 1]) > 0


def test_live_input_ppo_trains_loads_and_resumes(tmp_path):
    from agents.cli import train_ppo
    from agents.networks.sb3 import LiveInputFeatures

    run = tmp_path / "ppo"
    args = ["--run-dir", str(run), "--total-steps", "256", "--num-envs", "16",
            "--n-steps", "8", "--batch-size", "64", "--n-epochs", "1", "--hidden", "32", "16",
            "--live-input", "true", "--pretrain-steps", "0", "--eval-every", "256",
            "--eval-games", "2", "--checkpoint-every", "256", "--progress", "false",
            "--tensorboard", "false"]
    train_ppo.main(args)
    policy = load_policy(str(run / "final.zip"))
    assert isinstance(policy.model.policy.features_extractor, LiveInputFeatures)
    assert policy.model.policy.features_extractor.first.out_features == 32
    env = vector_env(4, seed=0, global_state=False)
    obs, _ = env.reset()
    a = policy.act(obs["observation"], obs["action_mask"], obs["agent"])
    assert obs["action_mask"][np.arange(4), a].all()
    train_ppo.main(args + ["--resume", str(run / "final.zip"), "--run-dir",
                           str(tmp_path / "resumed"), "--total-steps", "512"])
    assert (tmp_path / "resumed" / "final.zip").exists()


def test_live_input_needs_the_mlp():
    from agents.cli.train_ppo import Config

    with pytest.raises(ValueError, match="live_input"):
        Config(network="entity", live_input=True).check()
