"""The evaluation protocol's statistics (agents/stats.py)."""

from __future__ import annotations

import numpy as np
import pytest

from agents.evaluation import wilson_interval
from agents.stats import aggregate, iqm, per_seed_wilson, stratified_bootstrap_ci


def test_iqm_is_the_mean_of_the_middle_half():
    assert iqm(np.arange(1, 9)) == pytest.approx(4.5)  # mean of 3, 4, 5, 6
    # five scores: the middle half covers 0.75 of the 2nd and 4th, all of the 3rd
    assert iqm([4, 0, 3, 1, 2]) == pytest.approx((0.75 * 1 + 2 + 0.75 * 3) / 2.5)
    assert iqm([[0.0, 1.0], [100.0, 0.5]]) == pytest.approx(0.75)  # outliers ignored
    with pytest.raises(ValueError):
        iqm([])


def test_stratified_bootstrap_interval():
    """The interval holds the point estimate, collapses for constant scores, is
    reproducible from its seed and widens with noisier runs."""
    rng = np.random.default_rng(0)
    scores = rng.uniform(0.3, 0.7, (5, 4))
    low, high = stratified_bootstrap_ci(scores, reps=500, seed=1)
    assert low <= iqm(scores) <= high
    assert (low, high) == stratified_bootstrap_ci(scores, reps=500, seed=1)
    assert stratified_bootstrap_ci(np.full((5, 3), 0.4), reps=200) == pytest.approx((0.4, 0.4))
    noisy = rng.uniform(0.0, 1.0, (5, 4))
    nl, nh = stratified_bootstrap_ci(noisy, reps=500, seed=1)
    assert nh - nl > high - low
    with pytest.raises(ValueError, match="confidence"):
        stratified_bootstrap_ci(scores, confidence=1.5)


def test_aggregate_and_per_seed_wilson():
    agg = aggregate(np.array([[0.5, 0.6], [0.55, 0.65], [0.4, 0.7]]), reps=300)
    assert agg["runs"] == 3 and agg["ci_low"] <= agg["iqm"] <= agg["ci_high"]
    rows = per_seed_wilson([500, 0], 1000)
    assert rows[0][0] == 0.5 and rows[0][1:] == wilson_interval(500, 1000)
    assert rows[1] == (0.0, *wilson_interval(0, 1000))


def test_scores_that_are_not_numbers_are_refused():
    """A NaN or infinite score (a failed evaluation's placeholder) would sort to one end of
    the IQM's order and pass silently into a row: every aggregate refuses it."""
    for bad in ([0.5, float("nan"), 0.6], [[0.5], [np.inf]]):
        with pytest.raises(ValueError, match="finite"):
            iqm(bad)
        with pytest.raises(ValueError, match="finite"):
            stratified_bootstrap_ci(bad, reps=10)
        with pytest.raises(ValueError, match="finite"):
            aggregate(bad, reps=10)
    with pytest.raises(ValueError, match="reps"):
        stratified_bootstrap_ci([0.5, 0.6], reps=0)
    with pytest.raises(ValueError, match="no scores"):
        aggregate(np.zeros((0, 2)))
