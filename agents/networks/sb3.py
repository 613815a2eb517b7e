"""stable-baselines3 features extractors for MaskablePPO.

- ``EntityFeatures`` (``network: entity``): the entity encoders and pools give the context
  vector, on which SB3's policy and value heads sit. SB3's heads are linear over that
  vector, so the actions are not scored from the entity they point at as in
  ``EntityActor``; the encoders are the same.
- ``LiveInputFeatures`` (``network: mlp`` with ``live_input``): the MLP's first layer,
  shared by the policy and value networks, multiplying only the observation columns that
  are not 0 somewhere in the batch (about a quarter of them), as MAPPO's actor does
  (``Actor.features``). SB3's default MLP runs two full first layers over all 4,450
  columns (one per network), which is most of MaskablePPO's update time.
- ``LiveTrunkFeatures`` (``network: mlp`` with ``shared_trunk``, the default): the whole
  MLP as one trunk under the policy and value heads (MAPPO's default ``shared_trunk``),
  its first layer the live-input one, its layers in bf16 where ``amp`` says so (MAPPO's
  ``amp``). ``shared_trunk: false`` gives SB3's own MLPs (``configs/train/ppo_sb3.yaml``).

Checkpoints record these keys as plain data; a record without ``shared_trunk`` or ``amp``
(older checkpoints) means SB3's own MLP in float32, as it was then."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from agents.networks.entity import EntityActor
from agents.networks.mlp import resolve_amp
from hon_env.core.observe import OBS_DIM
from hon_env.spec.layout import N_ACTIONS


class EntityFeatures(BaseFeaturesExtractor):
    """Observation [B, OBS_DIM] -> the entity network's context [B, hidden[-1]], float32
    (computed under bf16 autocast when ``amp``)."""

    def __init__(self, observation_space: gym.spaces.Box, hidden: list[int],
                 dim: int = 32, amp: bool = False, blocks: int = 0) -> None:
        super().__init__(observation_space, features_dim=list(hidden)[-1])
        if observation_space.shape != (OBS_DIM,):
            raise ValueError(f"the entity network reads {OBS_DIM}-float observations, got "
                             f"shape {observation_space.shape}")
        self.net = EntityActor(OBS_DIM, N_ACTIONS, list(hidden), dim, blocks)
        self.amp = bool(amp)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        with torch.autocast(observations.device.type, dtype=torch.bfloat16,
                            enabled=self.amp):
            return self.net.context(observations)[0].float()


class LiveInputFeatures(BaseFeaturesExtractor):
    """Observation [B, D] -> tanh of one linear layer [B, width] (SB3's MLP activation),
    computed from the columns not 0 somewhere in the batch: the full layer's result (a
    column of zeros adds nothing and its weights get a zero gradient either way)."""

    def __init__(self, observation_space: gym.spaces.Box, width: int) -> None:
        super().__init__(observation_space, features_dim=width)
        self.first = nn.Linear(int(observation_space.shape[0]), width)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        cols = (observations != 0).any(0).nonzero().squeeze(1)
        return torch.tanh(nn.functional.linear(observations.index_select(1, cols),
                                               self.first.weight.index_select(1, cols),
                                               self.first.bias))


class LiveTrunkFeatures(BaseFeaturesExtractor):
    """Observation [B, D] -> tanh MLP features [B, hidden[-1]], float32: the first layer
    ``LiveInputFeatures``' (only the columns not 0 somewhere in the batch), the rest
    plain linear + tanh, all under bf16 autocast when ``amp`` (the heads on top stay
    float32, as in MAPPO's ``MLP``)."""

    def __init__(self, observation_space: gym.spaces.Box, hidden: list[int],
                 amp: bool = False) -> None:
        hidden = list(hidden)
        super().__init__(observation_space, features_dim=hidden[-1])
        self.first = LiveInputFeatures(observation_space, hidden[0])
        layers: list[nn.Module] = []
        for a, b in zip(hidden[:-1], hidden[1:], strict=True):
            layers += [nn.Linear(a, b), nn.Tanh()]
        self.rest = nn.Sequential(*layers)
        self.amp = bool(amp)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        with torch.autocast(observations.device.type, dtype=torch.bfloat16,
                            enabled=self.amp):
            h = self.rest(self.first(observations))
        return h.float()


def sb3_policy_kwargs(network: dict[str, Any], device: str | torch.device = "cpu"
                      ) -> dict[str, Any]:
    """MaskablePPO's ``policy_kwargs`` for a network config (``network``, ``hidden``,
    ``entity_dim``, ``entity_blocks``, ``live_input``, ``shared_trunk``, ``amp``) on
    ``device``: with ``shared_trunk``, the MLP as one ``LiveTrunkFeatures`` under linear
    heads; without, SB3's ``net_arch`` (with ``live_input``, its first layer a shared
    ``LiveInputFeatures``); or the entity extractor under linear heads."""
    hidden = list(network["hidden"])
    amp = resolve_amp(str(network.get("amp", "false")), device)
    if network.get("network", "mlp") == "mlp":
        if network.get("shared_trunk", False):
            return {"features_extractor_class": LiveTrunkFeatures,
                    "features_extractor_kwargs": {"hidden": hidden, "amp": amp},
                    "net_arch": []}
        if network.get("live_input", False):
            return {"features_extractor_class": LiveInputFeatures,
                    "features_extractor_kwargs": {"width": hidden[0]},
                    "net_arch": hidden[1:]}
        return {"net_arch": hidden}
    return {"features_extractor_class": EntityFeatures,
            "features_extractor_kwargs": {"hidden": hidden, "amp": amp,
                                          "dim": int(network.get("entity_dim", 32)),
                                          "blocks": int(network.get("entity_blocks", 0))},
            "net_arch": []}
