"""MaskablePPO's masked categorical distribution, normalised and sampled the cheap way.

sb3-contrib's ``MaskableCategorical`` puts -1e8 in the logits of illegal actions and lets
torch's ``Categorical`` normalise them with ``logsumexp``, twice per distribution (before
and after the mask). On CPUs, ``logsumexp``'s exp takes a slow path on such arguments:
4.7 ms for a [2048, 456] minibatch against 0.27 ms for ``log_softmax`` of the same
logits (docs/benchmarks.md, "MaskablePPO: the distribution, the buffer and Adam"), a
seventh of an update. Sampling goes through ``torch.multinomial`` (8 ms for 1,024 games).

``FastMaskableCategorical`` is the same distribution (the same masked logits, log
probabilities, entropy and mode), normalised with ``log_softmax`` and sampled by the
Gumbel-max trick (``agents.networks.mlp.sample``, MAPPO's sampler): the same law of
actions, drawn from another stream of random numbers. ``FastMaskableDistribution`` puts it
under MaskablePPO's policy (``use_fast_distribution``)."""

from __future__ import annotations

import torch
from sb3_contrib.common.maskable.distributions import (
    MaskableCategorical,
    MaskableCategoricalDistribution,
)
from torch.distributions import Categorical, Distribution

from agents.networks.mlp import sample


class _LogSoftmaxCategorical(Categorical):
    """torch's ``Categorical`` from logits, normalised by ``log_softmax``: what
    ``Categorical.__init__`` does with logits, in place of ``logits - logsumexp``."""

    def __init__(self, probs: torch.Tensor | None = None, logits: torch.Tensor | None = None,
                 validate_args: bool | None = None) -> None:
        if probs is not None or logits is None:
            raise ValueError("FastMaskableCategorical is built from logits only")
        if logits.dim() < 1:
            raise ValueError("`logits` parameter must be at least one-dimensional.")
        self.logits = logits.log_softmax(-1)
        self._param = self.logits
        self._num_events = logits.size(-1)
        Distribution.__init__(self, logits.size()[:-1], validate_args=validate_args)


class FastMaskableCategorical(MaskableCategorical, _LogSoftmaxCategorical):
    """``MaskableCategorical`` from logits (the only way SB3 builds one): sb3-contrib's own
    construction and masking, whose calls to ``Categorical.__init__`` reach
    ``_LogSoftmaxCategorical`` first, and sampling by Gumbel-max."""

    def sample(self, sample_shape: torch.Size | tuple[int, ...] = ()) -> torch.Tensor:
        shape = torch.Size(sample_shape)
        logp = self.logits.expand(shape + self.logits.shape)
        return sample(logp.reshape(-1, self._num_events)).reshape(shape + self.batch_shape)


class FastMaskableDistribution(MaskableCategoricalDistribution):
    """``MaskableCategoricalDistribution`` whose distribution is ``FastMaskableCategorical``."""

    def proba_distribution(self, action_logits: torch.Tensor) -> FastMaskableDistribution:
        self.distribution = FastMaskableCategorical(
            logits=action_logits.view(-1, self.action_dim))
        return self


def use_fast_distribution(policy: torch.nn.Module) -> None:
    """Give a ``MaskableActorCriticPolicy`` over a discrete action space the fast masked
    distribution (it holds no weights: the policy's action layer stays as it is)."""
    dist = policy.action_dist
    if type(dist) is not MaskableCategoricalDistribution:
        raise TypeError(f"expected sb3-contrib's MaskableCategoricalDistribution, got "
                        f"{type(dist).__name__}")
    policy.action_dist = FastMaskableDistribution(dist.action_dim)
