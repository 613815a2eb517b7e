"""The policy networks of the learned baselines.

- ``mlp``: the flat actor (an MLP over the whole observation vector), the critics, value
  normalisation and the masked-distribution helpers every trainer shares;
- ``entities`` and ``entity``: the actor that reads the observation as sets of entities
  (board spaces, seats, cards, threat cards...) and scores each action from the entity it
  points at.

``build_actor`` makes either from a trainer config (``network: mlp | entity``); a
checkpoint stores that config, so ``agents.load_policy`` rebuilds the same network.
"""

from __future__ import annotations

from typing import Any

from torch import nn

from agents.networks.mlp import (
    MASKED_LOGIT,
    MLP,
    Actor,
    Critic,
    LegalLogProbs,
    TrunkCritic,
    ValueNorm,
    bf16_is_fast,
    check_amp,
    entropy,
    layer_init,
    live_columns,
    masked_log_softmax,
    resolve_amp,
    sample,
)

NETWORKS = ("mlp", "entity")

__all__ = ["MASKED_LOGIT", "MLP", "NETWORKS", "Actor", "Critic", "LegalLogProbs",
           "TrunkCritic", "ValueNorm", "bf16_is_fast", "build_actor", "check_amp",
           "check_network", "entropy", "layer_init", "live_columns", "masked_log_softmax",
           "resolve_amp", "sample"]


def check_network(network: str, entity_dim: int, entity_blocks: int) -> None:
    """Refuse a trainer config's actor settings that no network takes (``ValueError``)."""
    if network not in NETWORKS:
        raise ValueError(f"network must be one of {', '.join(NETWORKS)}, got {network!r}")
    if entity_dim < 1:
        raise ValueError(f"entity_dim must be positive, got {entity_dim}")
    if entity_blocks < 0:
        raise ValueError(f"entity_blocks must be >= 0, got {entity_blocks}")


def build_actor(config: dict[str, Any], obs_dim: int, n_actions: int) -> nn.Module:
    """The actor a trainer ``config`` (a dict: ``network``, ``hidden``, ``entity_dim``,
    ``entity_blocks``) describes, for ``obs_dim`` floats and ``n_actions`` actions. A
    config without ``network`` (checkpoints older than the entity network) is the MLP;
    without ``entity_blocks``, the entity network without transformer blocks."""
    network = config.get("network", "mlp")
    hidden = config.get("hidden")
    if (not isinstance(hidden, (list, tuple)) or not hidden
            or not all(isinstance(h, int) and not isinstance(h, bool) and h > 0
                       for h in hidden)):
        raise ValueError(f"config 'hidden' must be a list of positive layer sizes, got "
                         f"{hidden!r}")
    if network == "mlp":
        return Actor(obs_dim, n_actions, list(hidden))
    if network == "entity":
        from agents.networks.entity import EntityActor

        dim = config.get("entity_dim", 32)
        if not isinstance(dim, int) or isinstance(dim, bool) or dim < 1:
            raise ValueError(f"config 'entity_dim' must be a positive integer, got {dim!r}")
        blocks = config.get("entity_blocks", 0)
        if not isinstance(blocks, int) or isinstance(blocks, bool) or blocks < 0:
            raise ValueError(f"config 'entity_blocks' must be an integer >= 0, got "
                             f"{blocks!r}")
        return EntityActor(obs_dim, n_actions, list(hidden), dim, blocks)
    raise ValueError(f"config 'network' must be one of {', '.join(NETWORKS)}, got "
                     f"{network!r}")
