"""The entity network as a stable-baselines3 features extractor (MaskablePPO with
``network: entity``): the entity encoders and pools give the context vector, on which
SB3's policy and value heads sit. SB3's heads are linear over that vector, so the actions
are not scored from the entity they point at as in ``EntityActor``; the encoders are the
same."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

from agents.networks.entity import EntityActor
from hon_env.core.layout import N_ACTIONS
from hon_env.core.observe import OBS_DIM


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


def sb3_policy_kwargs(network: dict[str, Any]) -> dict[str, Any]:
    """MaskablePPO's ``policy_kwargs`` for a network config (``network``, ``hidden``,
    ``entity_dim``): the MLP's ``net_arch``, or the entity extractor with linear heads."""
    hidden = list(network["hidden"])
    if network.get("network", "mlp") == "mlp":
        return {"net_arch": hidden}
    return {"features_extractor_class": EntityFeatures,
            "features_extractor_kwargs": {"hidden": hidden,
                                          "dim": int(network.get("entity_dim", 32))},
            "net_arch": []}
