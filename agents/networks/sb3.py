"""stable-baselines3 features extractors for MaskablePPO.

- ``EntityFeatures`` (``network: entity``): the entity encoders and pools give the context
  vector, on which SB3's policy and value heads sit. SB3's heads are linear over that
  vector, so the actions are not scored from the entity they point at as in
  ``EntityActor``; the encoders are the same.
- ``LiveInputFeatures`` (``network: mlp`` with ``live_input``): the MLP's first layer,
  shared by the policy and value networks, multiplying only the observation columns that
  are not 0 somewhere in the batch (about a quarter of them), as MAPPO's actor does
  (``Actor.features``). SB3's default MLP runs two full first layers over all 4,450
  columns (one per network), which is most of MaskablePPO's update time."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from agents.networks.entity import EntityActor
from hon_env.core.observe import OBS_DIM
from hon_env.spec.layout import N_ACTIONS


class EntityFeatures(BaseFeaturesExtractor):
    """Observation [B, OBS_DIM] -> the entity network's context [B, hidden[-1]]."""

    def __init__(self, observation_space: gym.spaces.Box, hidden: list[int],
                 dim: int = 32) -> None:
        super().__init__(observation_space, features_dim=list(hidden)[-1])
        if observation_space.shape != (OBS_DIM,):
            raise ValueError(f"the entity network reads {OBS_DIM}-float observations, got "
                             f"shape {observation_space.shape}")
        self.net = EntityActor(OBS_DIM, N_ACTIONS, list(hidden), dim)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return self.net.context(observations)[0]


class LiveInputFeatures(BaseFeaturesExtractor):
    """Observation [B, D] -> tanh of one linear layer [B, width] (SB3's MLP activation),
    computed from the columns not 0 somewhere in the batch: the full layer's result (a
    column of zeros adds nothing and its weights get a zero gradient either way)."""

    def __init__(self, observation_space: gym.spaces.Box, width: int) -> None:
        super().__init__(observation_space, features_dim=width)
        self.first = nn.Linear(int(observation_space.shape[0]), width)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        cols = (observations != 0).any(0).nonzero().squeeze(1)
        return torch.tanh(nn.functional.linear(observations[:, cols],
                                               self.first.weight[:, cols], self.first.bias))


def sb3_policy_kwargs(network: dict[str, Any]) -> dict[str, Any]:
    """MaskablePPO's ``policy_kwargs`` for a network config (``network``, ``hidden``,
    ``entity_dim``, ``live_input``): the MLP's ``net_arch`` (with ``live_input``, its first
    layer a shared ``LiveInputFeatures``), or the entity extractor with linear heads."""
    hidden = list(network["hidden"])
    if network.get("network", "mlp") == "mlp":
        if network.get("live_input", False):
            return {"features_extractor_class": LiveInputFeatures,
                    "features_extractor_kwargs": {"width": hidden[0]},
                    "net_arch": hidden[1:]}
        return {"net_arch": hidden}
    return {"features_extractor_class": EntityFeatures,
            "features_extractor_kwargs": {"hidden": hidden,
                                          "dim": int(network.get("entity_dim", 32))},
            "net_arch": []}
