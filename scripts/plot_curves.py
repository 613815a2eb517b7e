"""Learning curves: greedy win rate against environment steps, with the baselines.

    python scripts/plot_curves.py --out docs/img/curves_mappo.png \
        --title "MAPPO, Origin Story" runs/curves/mappo_s0 runs/curves/mappo_s1 ...

Reads ``eval.csv`` of each run directory (written by train_mappo.py / train_ppo.py),
draws every seed thin and their mean thick, and the random and scripted baselines (from
the same evaluation games) as horizontal lines with their 95% intervals shaded. Where a
run directory also holds ``train.csv``, the win rate of its training episodes (sampled
actions, training games, one point per update) is drawn too: a dense curve for runs with
few evaluations.

With ``--group LABEL RUN ...`` (repeated) the groups are drawn side by side instead, one
colour each (every seed thin, the group's mean thick; no training-episode curves): rows
of one task against each other, e.g. kickstarted against tabula rasa.

    python scripts/plot_curves.py --out docs/img/curves_trio_prior.png --title trio \
        --group kickstarted docs/curves/trio_mappo_s* \
        --group "tabula rasa" docs/curves/trio_mappo_tabula_rasa_s?
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def read_csv(path: Path) -> dict[str, np.ndarray]:
    """Every column of a run's CSV log as a float array."""
    with path.open() as fh:
        rows = list(csv.DictReader(fh))
    if not rows:
        raise ValueError(f"{path} has no rows")
    return {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}


def read_eval(run: Path) -> dict[str, np.ndarray]:
    return read_csv(run / "eval.csv")


def read_train(run: Path) -> dict[str, np.ndarray] | None:
    """The columns of ``train.csv`` (``step``, ``episode_win_rate``, ...), or None without
    one."""
    path = run / "train.csv"
    return read_csv(path) if path.is_file() else None


BASELINE_COLORS = {"heuristic": "tab:green", "random": "tab:gray"}
# the groups of ``plot_groups``: the tab10 colours the baselines leave free
GROUP_COLORS = tuple(c for c in mcolors.TABLEAU_COLORS if c not in BASELINE_COLORS.values())


def _baselines(ax, d: dict[str, np.ndarray]) -> None:
    """The scripted and random policies' win rates on the same games, with their 95%
    intervals shaded."""
    for name, color in BASELINE_COLORS.items():
        ax.axhline(d[f"{name}_win_rate"][-1], color=color, ls="--", label=name)
        ax.axhspan(d[f"{name}_ci_low"][-1], d[f"{name}_ci_high"][-1], color=color, alpha=0.12)


def _seeds_and_mean(ax, data: list[dict[str, np.ndarray]], color: str, label: str) -> None:
    """Each seed's greedy evaluations thin, their mean (over the steps all share) thick."""
    for i, d in enumerate(data):
        ax.plot(d["step"], d["trained_win_rate"], color=color, lw=0.8, alpha=0.5,
                marker="o", ms=3, label=f"{label} (each seed)" if i == 0 else None)
    n = min(len(d["step"]) for d in data)
    mean = np.mean([d["trained_win_rate"][:n] for d in data], axis=0)
    ax.plot(data[0]["step"][:n], mean, color=color, lw=2.2,
            label=f"{label} (mean of {len(data)})")


def _finish(fig, ax, out: Path, title: str) -> None:
    ax.set_xlabel("environment steps (decisions)")
    ax.set_ylabel("win rate (evaluation: greedy policy)")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)
    plt.close(fig)


def plot_groups(groups: list[tuple[str, list[Path]]], out: Path, title: str) -> None:
    """Several rows of one task on one plot: each group's seeds and mean in its colour."""
    if not groups or any(not runs for _, runs in groups):
        raise ValueError("every group needs a label and at least one run folder")
    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    _baselines(ax, read_eval(groups[0][1][0]))
    for k, (label, runs) in enumerate(groups):
        _seeds_and_mean(ax, [read_eval(r) for r in runs], GROUP_COLORS[k % len(GROUP_COLORS)],
                        label)
    _finish(fig, ax, out, title)


def plot(runs: list[Path], out: Path, title: str) -> None:
    data = [read_eval(r) for r in runs]
    trains = [t for t in map(read_train, runs) if t is not None]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    _baselines(ax, data[0])
    for i, t in enumerate(trains):
        ax.plot(t["step"], t["episode_win_rate"], color="tab:orange", lw=0.6, alpha=0.5,
                label="training episodes (each seed)" if i == 0 else None)
    _seeds_and_mean(ax, data, "tab:blue", "trained")
    _finish(fig, ax, out, title)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("runs", nargs="*", type=Path)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--title", default="")
    p.add_argument("--group", nargs="+", action="append", metavar=("LABEL", "RUN"),
                   help="a labelled group of run folders (repeat: one colour per group)")
    args = p.parse_args()
    if bool(args.runs) == bool(args.group):
        p.error("give run folders, or --group LABEL RUN ... (one or more), not both")
    if args.group:
        if any(len(g) < 2 for g in args.group):
            p.error("--group needs a label and at least one run folder")
        plot_groups([(g[0], [Path(r) for r in g[1:]]) for g in args.group], args.out,
                    args.title)
    else:
        plot(args.runs, args.out, args.title)


if __name__ == "__main__":
    main()
