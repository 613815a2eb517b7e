"""The Policy interface, the random baseline and the evaluation harness."""

from __future__ import annotations

import numpy as np
import pytest

from agents import Policy, RandomPolicy
from agents.evaluation import evaluate, wilson_interval
from hon_env import vector_env


def test_wilson_interval_known_values():
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


def test_random_policy_plays_only_legal_actions(origin):
    policy = RandomPolicy(seed=3)
    assert isinstance(policy, Policy)
    env = vector_env(32, seed=0, scenario=origin)
    obs, _ = env.reset()
    for _ in range(200):
        a = policy.act(obs["observation"], obs["action_mask"], obs["agent"])
        assert obs["action_mask"][np.arange(32), a].all()
        obs, *_ = env.step(a)


def test_evaluation_counts_every_game_once_and_is_reproducible():
    kwargs = dict(villain="dowager", issue="century_heist", heroes=["majesty"], games=40,
                  seed=5, batch=16)
    a = evaluate(RandomPolicy(1), **kwargs)
    b = evaluate(RandomPolicy(1), **kwargs)
    assert a == b
    assert a.wins + a.losses + a.truncated == 40
    assert 0.0 <= a.ci_low <= a.win_rate <= a.ci_high <= 1.0
    assert a.mean_rounds > 1


def test_evaluate_with_optional_rules():
    """``rules`` reaches the evaluated scenario (here the Allies rule), and a bad rule is a
    content error naming it, before any game is played."""
    from hon_env import ContentError

    r = evaluate(RandomPolicy(seed=0), games=4, heroes=["majesty"],
                 rules={"allies": ["lox_lee"]})
    assert r.games == 4
    with pytest.raises(ContentError, match="allies"):
        evaluate(RandomPolicy(seed=0), games=4, heroes=["majesty"],
                 rules={"allies": ["nobody"]})
