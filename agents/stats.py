"""The evaluation protocol's statistics: interquartile mean over training seeds with
stratified bootstrap intervals, and per-seed Wilson intervals.

Scores come as a matrix ``[runs, tasks]``: one training seed per row, one task per column
(each score a win rate over the task's evaluation games). Following the practice of
reporting robust aggregates with intervals over few seeds (Agarwal et al. 2021, the
``rliable`` package), the point estimate is the interquartile mean (IQM: the mean of the
middle 50% of all scores, with fractional weights at the cut so it is defined for any
count), and its 95% interval comes from a stratified bootstrap: each resample draws the
runs of every task with replacement, independently per task.
"""

from __future__ import annotations

import numpy as np

from agents.evaluation import wilson_interval


def _finite(scores: np.ndarray) -> np.ndarray:
    """``scores`` as float64, refused when empty or holding NaN or infinity: a score
    that is not a number would sort to one end and pass silently into the aggregate."""
    m = np.asarray(scores, np.float64)
    if m.size == 0:
        raise ValueError("no scores to aggregate")
    flat = m.ravel()
    bad = flat[~np.isfinite(flat)]
    if bad.size:
        raise ValueError(f"scores must be finite numbers, got {bad[:3]}")
    return m


def iqm(scores: np.ndarray) -> float:
    """Interquartile mean of all entries of ``scores``: the mean of the middle half, the
    boundary entries weighted by the fraction of them inside it."""
    x = np.sort(_finite(scores).ravel())
    n = x.size
    lo, hi = 0.25 * n, 0.75 * n
    idx = np.arange(n)
    # fraction of entry i's unit interval [i, i+1) inside [lo, hi)
    w = np.clip(np.minimum(idx + 1, hi) - np.maximum(idx, lo), 0.0, 1.0)
    return float((w * x).sum() / w.sum())


def stratified_bootstrap_ci(scores: np.ndarray, stat=iqm, reps: int = 2000,
                            confidence: float = 0.95, seed: int = 0) -> tuple[float, float]:
    """Percentile interval of ``stat`` over ``reps`` stratified bootstrap resamples of
    ``scores`` [runs, tasks] (runs resampled with replacement within each task)."""
    m = _finite(scores)
    if m.ndim == 1:
        m = m[:, None]
    if m.ndim != 2:
        raise ValueError(f"scores must be [runs, tasks], got shape {np.shape(scores)}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    if isinstance(reps, bool) or not isinstance(reps, (int, np.integer)) or reps < 1:
        raise ValueError(f"reps must be a positive integer, got {reps!r}")
    rng = np.random.default_rng(seed)
    runs, tasks = m.shape
    cols = np.arange(tasks)
    stats = np.empty(reps)
    for r in range(reps):
        rows = rng.integers(0, runs, size=(runs, tasks))
        stats[r] = stat(m[rows, cols])
    alpha = (1 - confidence) / 2
    low, high = np.quantile(stats, [alpha, 1 - alpha])
    return float(low), float(high)


def aggregate(scores: np.ndarray, reps: int = 2000, seed: int = 0) -> dict[str, float]:
    """IQM of ``scores`` [runs, tasks] with its 95% stratified bootstrap interval, and the
    plain mean."""
    low, high = stratified_bootstrap_ci(scores, iqm, reps=reps, seed=seed)
    return {"iqm": iqm(scores), "ci_low": low, "ci_high": high,
            "mean": float(np.mean(scores)), "runs": int(np.shape(scores)[0])}


def per_seed_wilson(wins: list[int] | np.ndarray, games: int) -> list[tuple[float, float, float]]:
    """(win rate, Wilson 95% low, high) of each training seed's ``wins`` in ``games``."""
    return [(w / games, *wilson_interval(int(w), games)) for w in wins]
