"""MaskablePPO's fast masked distribution (agents/networks/sb3_distribution.py) is
sb3-contrib's: the same log probabilities, entropy, probabilities and mode, masks applied
and removed alike, and samples from the same law, illegal actions never drawn."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from sb3_contrib.common.maskable.distributions import (
    MaskableCategorical,
    MaskableCategoricalDistribution,
)


def _logits_and_masks(rows: int = 64, n: int = 9, seed: int = 0):
    gen = torch.Generator().manual_seed(seed)
    logits = torch.randn(rows, n, generator=gen) * 3.0
    masks = torch.rand(rows, n, generator=gen) < 0.6
    masks[:, 4] = True  # every row has a legal action
    return logits, masks


@pytest.mark.parametrize("masked", [True, False])
def test_the_fast_distribution_is_sb3s(masked):
    from agents.networks.sb3_distribution import FastMaskableCategorical

    logits, masks = _logits_and_masks()
    m = masks if masked else None
    ours, theirs = FastMaskableCategorical(logits=logits, masks=m), MaskableCategorical(
        logits=logits, masks=m)
    actions = torch.arange(64) % 9
    torch.testing.assert_close(ours.logits, theirs.logits)
    torch.testing.assert_close(ours.probs, theirs.probs)
    torch.testing.assert_close(ours.log_prob(actions), theirs.log_prob(actions))
    torch.testing.assert_close(ours.entropy(), theirs.entropy())
    assert ours.batch_shape == theirs.batch_shape == (64,)
    # masks taken off again, then put on: the same as sb3-contrib's at each turn
    for then in (None, masks):
        ours.apply_masking(then)
        theirs.apply_masking(then)
        torch.testing.assert_close(ours.log_prob(actions), theirs.log_prob(actions))
        torch.testing.assert_close(ours.entropy(), theirs.entropy())


def test_samples_follow_the_masked_law_and_are_legal():
    from agents.networks.sb3_distribution import FastMaskableCategorical

    logits, masks = _logits_and_masks(rows=1, n=6, seed=3)
    masks[0] = torch.tensor([True, False, True, True, False, True])
    dist = FastMaskableCategorical(logits=logits.expand(40_000, 6).clone(),
                                   masks=masks.expand(40_000, 6))
    torch.manual_seed(1)
    drawn = dist.sample()
    assert drawn.shape == (40_000,) and drawn.dtype == torch.long
    freq = np.bincount(drawn.numpy(), minlength=6) / 40_000
    want = dist.probs[0].numpy()
    assert freq[[1, 4]].sum() == 0.0  # never an illegal action
    # four standard errors of each frequency at this many draws
    assert np.all(np.abs(freq - want) <= 4 * np.sqrt(want * (1 - want) / 40_000) + 1e-9)
    assert dist.sample((3,)).shape == (3, 40_000)


def test_the_policy_takes_it_and_keeps_its_weights():
    import gymnasium as gym
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from agents.networks.sb3_distribution import FastMaskableDistribution, use_fast_distribution

    space = gym.spaces.Box(-1.0, 1.0, (5,), np.float32)
    policy = MaskableActorCriticPolicy(space, gym.spaces.Discrete(4), lambda _: 1e-3,
                                       net_arch=[8])
    before = {k: v.clone() for k, v in policy.state_dict().items()}
    use_fast_distribution(policy)
    assert type(policy.action_dist) is FastMaskableDistribution
    after = policy.state_dict()
    assert before.keys() == after.keys()
    assert all(torch.equal(before[k], after[k]) for k in before)
    obs = torch.rand(16, 5)
    mask = np.zeros((16, 4), bool)
    mask[:, 2] = True
    actions, _, logp = policy(obs, action_masks=mask)
    assert (actions == 2).all() and torch.allclose(logp, torch.zeros(16), atol=1e-5)
    with pytest.raises(TypeError, match="MaskableCategoricalDistribution"):
        use_fast_distribution(policy)  # already swapped: not sb3-contrib's own
    assert isinstance(policy.action_dist, MaskableCategoricalDistribution)
