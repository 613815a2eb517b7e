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

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from agents.networks.entity import EntityActor
from agents.networks.mlp import live_columns, resolve_amp
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
        # inside ``reading``: the columns every observation handed in is narrowed to
        self.columns: torch.Tensor | None = None

    @contextmanager
    def reading(self, columns: np.ndarray) -> Iterator[None]:
        """Within the block, ``forward`` takes observations narrowed to ``columns``
        (ascending indices; every other column 0 in them), e.g. the minibatches of a
        rollout buffer's ``live_observations``: the same layer, without finding the live
        columns of each batch."""
        cols = torch.as_tensor(columns, dtype=torch.long, device=self.first.weight.device)
        if cols.ndim != 1 or (cols.numel() and (int(cols.min()) < 0 or int(cols.max())
                                                >= self.first.in_features)):
            raise ValueError(f"columns must be indices below {self.first.in_features}")
        self.columns = cols
        try:
            yield
        finally:
            self.columns = None

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        cols = self.columns
        if cols is None:
            cols = _live_columns(observations)
            observations = observations.index_select(1, cols)
        elif observations.shape[-1] != cols.numel():
            raise ValueError(f"observations of {observations.shape[-1]} columns, expected "
                             f"the {cols.numel()} being read")
        return torch.tanh(nn.functional.linear(observations,
                                               self.first.weight.index_select(1, cols),
                                               self.first.bias))


def _live_columns(x: torch.Tensor) -> torch.Tensor:
    """Indices of the columns of ``x`` [B, D] not 0 in some row. On the CPU, numpy's one
    pass over the floats' bits (``agents.networks.mlp.live_columns``): a fifth of the time
    of torch's ``(x != 0).any(0)`` at 1,024 x 4,450."""
    if x.device.type == "cpu" and x.dtype == torch.float32:
        return torch.from_numpy(live_columns(x.detach().numpy()))
    return (x != 0).any(0).nonzero().squeeze(1)


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


def live_input_layer(extractor: nn.Module) -> LiveInputFeatures | None:
    """The first layer of a features extractor that reads only live columns (the shared
    trunk's or ``live_input``'s), None for any other extractor."""
    if isinstance(extractor, LiveTrunkFeatures):
        return extractor.first
    return extractor if isinstance(extractor, LiveInputFeatures) else None


def sb3_policy_kwargs(network: dict[str, Any], device: str | torch.device = "cpu"
                      ) -> dict[str, Any]:
    """MaskablePPO's ``policy_kwargs`` for a network config (``network``, ``hidden``,
    ``entity_dim``, ``entity_blocks``, ``live_input``, ``shared_trunk``, ``amp``) on
    ``device``: with ``shared_trunk``, the MLP as one ``LiveTrunkFeatures`` under linear
    heads; without, SB3's ``net_arch`` (with ``live_input``, its first layer a shared
    ``LiveInputFeatures``); or the entity extractor under linear heads."""
    hidden = list(network["hidden"])
    amp = resolve_amp(str(network.get("amp", "false")), device)
    # SB3's Adam (its eps), as the fused kernel: one pass over each parameter per step
    optimizer = {"optimizer_kwargs": {"eps": 1e-5, "fused": True}}
    if network.get("network", "mlp") == "mlp":
        if network.get("shared_trunk", False):
            return {"features_extractor_class": LiveTrunkFeatures,
                    "features_extractor_kwargs": {"hidden": hidden, "amp": amp},
                    "net_arch": [], **optimizer}
        if network.get("live_input", False):
            return {"features_extractor_class": LiveInputFeatures,
                    "features_extractor_kwargs": {"width": hidden[0]},
                    "net_arch": hidden[1:], **optimizer}
        return {"net_arch": hidden, **optimizer}
    return {"features_extractor_class": EntityFeatures,
            "features_extractor_kwargs": {"hidden": hidden, "amp": amp,
                                          "dim": int(network.get("entity_dim", 32)),
                                          "blocks": int(network.get("entity_blocks", 0))},
            "net_arch": [], **optimizer}
