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
    MaybeMasks,
)
from torch.distributions import Distribution

from agents.networks.mlp import sample


class FastMaskableCategorical(MaskableCategorical):
    """``MaskableCategorical`` from logits (the only way SB3 builds one), normalised by
    ``log_softmax`` and sampled by Gumbel-max."""

    def __init__(self, logits: torch.Tensor, validate_args: bool | None = None,
                 masks: MaybeMasks = None) -> None:
        self.masks = None
        self._normalise(logits, validate_args)
        self._original_logits = self.logits
        self.apply_masking(masks)

    def _normalise(self, logits: torch.Tensor, validate_args: bool | None) -> None:
        # what ``Categorical.__init__`` does with logits, with ``log_softmax`` in place of
        # ``logits - logits.logsumexp(-1)``
        if logits.dim() < 1:
            raise ValueError("`logits` parameter must be at least one-dimensional.")
        self.__dict__.pop("probs", None)  # a lazy property of the logits it replaces
        self.logits = logits.log_softmax(-1)
        self._param = self.logits
        self._num_events = logits.size(-1)
        Distribution.__init__(self, logits.size()[:-1], validate_args=validate_args)

    def apply_masking(self, masks: MaybeMasks) -> None:
        if masks is None:
            self.masks = None
            logits = self._original_logits
        else:
            device = self._original_logits.device
            self.masks = torch.as_tensor(masks, dtype=torch.bool, device=device).reshape(
                self._original_logits.shape)
            logits = torch.where(self.masks, self._original_logits,
                                 torch.tensor(-1e8, dtype=self.logits.dtype, device=device))
        self._normalise(logits, self._validate_args)

    def sample(self, sample_shape: torch.Size | tuple[int, ...] = ()) -> torch.Tensor:
        shape = torch.Size(sample_shape)
        logp = self.logits.expand(shape + self.logits.shape)
        return sample(logp.reshape(-1, self._num_events)).reshape(shape + self.batch_shape)


class FastMaskableDistribution(MaskableCategoricalDistribution):
    """``MaskableCategoricalDistribution`` whose distribution is ``FastMaskableCategorical``."""

    def proba_distribution(self, action_logits: torch.Tensor) -> FastMaskableDistribution:
        self.distribution = FastMaskableCategorical(action_logits.view(-1, self.action_dim))
        return self


def use_fast_distribution(policy: torch.nn.Module) -> None:
    """Give a ``MaskableActorCriticPolicy`` over a discrete action space the fast masked
    distribution (it holds no weights: the policy's action layer stays as it is)."""
    dist = policy.action_dist
    if type(dist) is not MaskableCategoricalDistribution:
        raise TypeError(f"expected sb3-contrib's MaskableCategoricalDistribution, got "
                        f"{type(dist).__name__}")
    policy.action_dist = FastMaskableDistribution(dist.action_dim)
