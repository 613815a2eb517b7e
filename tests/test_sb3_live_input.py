"""MaskablePPO's live-input MLP (agents/networks/sb3.py, ``--live-input true``): its shared
first layer gives what a full layer gives on the same batch, and a run trains, loads from
plain data, plays legal actions and resumes."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
import torch
from ppo_helpers import train_play_resume


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
    from agents.networks.sb3 import LiveInputFeatures

    policy = train_play_resume(tmp_path, ["--hidden", "32", "16", "--shared-trunk", "false",
                                          "--live-input", "true"])
    assert isinstance(policy.model.policy.features_extractor, LiveInputFeatures)
    assert policy.model.policy.features_extractor.first.out_features == 32


def test_live_input_needs_the_mlp():
    from agents.cli.train_ppo import Config

    with pytest.raises(ValueError, match="live_input"):
        Config(network="entity", live_input=True, shared_trunk=False).check()
