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


def test_a_pool_is_counted_per_entry_and_one_scenario_is_not():
    """Each game of a pool counts once under the entry its seed drew: the entries add up
    to the whole, their labels name what varies (the board here, the team below), the
    same games give the same split whatever the batch, and a single scenario has none."""
    from agents import load_policy
    from hon_env import load_scenario

    boards = [("dowager", "rooftop_relay"), ("refuser", "rooftop_relay"),
              ("refuser", "blackout_gala")]
    scenarios = [load_scenario(villain=v, issue=i, heroes=["majesty", "stride"])
                 for v, i in boards]
    heuristic = load_policy("heuristic")
    r = evaluate(heuristic, scenario=scenarios, games=60, seed=3, batch=16)
    assert set(r.per_entry) <= {f"{v} x {i}" for v, i in boards}
    assert len(r.per_entry) >= 2
    assert sum(e["games"] for e in r.per_entry.values()) == 60
    assert sum(e["wins"] for e in r.per_entry.values()) == r.wins
    again = evaluate(heuristic, scenario=scenarios, games=60, seed=3, batch=32)
    assert again.per_entry == r.per_entry
    teams = evaluate(RandomPolicy(0), heroes=[["majesty", "stride"], ["vigil", "cipher"]],
                     games=20, seed=0)
    assert set(teams.per_entry) == {"majesty+stride", "vigil+cipher"}
    assert evaluate(RandomPolicy(0), heroes=["majesty"], games=4).per_entry == {}
