"""Cross-play: how policies do with partners they were not trained with.

Every ordered assignment of the given policies to a task's hero seats plays the same
evaluation games (the task's first ``games`` evaluation seeds, so the cells are paired).
Self-play (SP) is an assignment of one policy to every seat; cross-play (XP) is an
assignment of several. Per algorithm (``policy_algorithm``: independently trained seeds of
one algorithm share it) the SP-XP gap is the mean win rate of its members' self-play
minus the mean of the assignments that mix its members only (other seeds of the same
algorithm: Other-Play's and Hanabi's measure of conventions that work with one partner
only). A scripted team is one deterministic member, so its intra-algorithm gap is empty;
``partner_gap`` puts every policy on one scale instead: its self-play against the mean of
every assignment that seats it with any other policy (how much it loses when its partners
are not copies of itself). ``matrix`` shows, for two seats, the win rate of seat 0's
policy (rows) with seat 1's (columns); for more seats, the row policy in seat 0 and the
column policy in every other seat.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agents.evaluation import evaluate, wilson_interval
from agents.mixed import SeatPolicies
from agents.registry import load_policy


def policy_algorithm(spec: str) -> str:
    """The algorithm a policy spec belongs to: the scripted team's name, a zoo member's
    own name (each member is its own style), or a checkpoint's ``algo``-``network``
    (``mappo-mlp``, ``mappo-entity``, ``bc-mlp``...), shipped ones (``mappo:TASK``)
    included, so a shipped seed and the other seeds of its row count as one algorithm."""
    from agents.registry import PRETRAINED_ALGOS, pretrained_path

    names = {"heuristic": "coordinated", "heuristic_solo": "per_hero"}
    if spec.startswith("zoo:"):
        return spec
    if spec.partition(":")[0] in PRETRAINED_ALGOS and not spec.endswith((".pt", ".zip")):
        spec = str(pretrained_path(spec))
    if spec in names or ":" not in spec and not spec.endswith((".pt", ".zip")):
        return names.get(spec, spec)
    if spec.endswith(".zip"):
        return "ppo"
    if not spec.endswith(".pt"):
        return spec.partition(":")[0]
    from agents.checkpoints import PLAYABLE_ALGOS, load_checkpoint

    config = load_checkpoint(spec, algo=PLAYABLE_ALGOS, allow_prefix=True).get("config", {})
    return f"{config.get('algo', 'mappo')}-{config.get('network', 'mlp')}"


@dataclass
class CrossPlayResult:
    """Win counts of every ordered assignment of ``labels`` to ``seats`` seats."""

    task: str
    labels: list[str]
    algorithms: list[str]
    seats: int
    games: int
    wins: dict[tuple[int, ...], int] = field(default_factory=dict)

    def rate(self, assignment: tuple[int, ...]) -> float:
        return self.wins[assignment] / self.games

    def matrix(self) -> np.ndarray:
        """[P, P] win rates: row policy in seat 0, column policy in the other seats."""
        p = len(self.labels)
        return np.array([[self.rate((i,) + (j,) * (self.seats - 1)) for j in range(p)]
                         for i in range(p)])

    def sp_xp(self) -> dict[str, dict[str, float]]:
        """Per algorithm: self-play and intra-algorithm cross-play mean win rates and the
        gap (``xp`` is NaN with fewer than two members)."""
        out: dict[str, dict[str, float]] = {}
        for algo in dict.fromkeys(self.algorithms):
            members = {i for i, a in enumerate(self.algorithms) if a == algo}
            sp = [self.rate(a) for a in self.wins if len(set(a)) == 1 and a[0] in members]
            xp = [self.rate(a) for a in self.wins
                  if len(set(a)) > 1 and set(a) <= members]
            sp_mean = float(np.mean(sp))
            xp_mean = float(np.mean(xp)) if xp else float("nan")
            out[algo] = {"members": len(members), "sp": sp_mean, "xp": xp_mean,
                         "gap": sp_mean - xp_mean}
        return out

    def partner_gap(self) -> dict[str, dict[str, float]]:
        """Per policy: self-play, the mean win rate of the assignments that seat it beside
        at least one other policy (in any seats) and the gap between them."""
        out: dict[str, dict[str, float]] = {}
        for i, label in enumerate(self.labels):
            sp = self.rate((i,) * self.seats)
            mixed = [self.rate(a) for a in self.wins if i in a and len(set(a)) > 1]
            with_others = float(np.mean(mixed)) if mixed else float("nan")
            out[label] = {"sp": sp, "with_others": with_others, "gap": sp - with_others}
        return out

    def as_dict(self) -> dict:
        cells = []
        for a, w in sorted(self.wins.items()):
            low, high = wilson_interval(w, self.games)
            cells.append({"seats": [self.labels[i] for i in a], "wins": w,
                          "win_rate": w / self.games, "ci_low": low, "ci_high": high})
        return {"task": self.task, "policies": self.labels, "algorithms": self.algorithms,
                "seats": self.seats, "games": self.games, "cells": cells,
                "sp_xp": self.sp_xp(), "partner_gap": self.partner_gap()}


def crossplay(specs: list[str], task_name: str, games: int, labels: list[str] | None = None,
              seed: int = 0, on_cell: Callable[[int, int], None] | None = None
              ) -> CrossPlayResult:
    """Play every ordered assignment of the policies ``specs`` (``load_policy`` specs) to
    the hero seats of task ``task_name`` on its first ``games`` evaluation games;
    ``on_cell(done, total)`` follows each assignment (progress of a long matrix)."""
    from hon_env.tasks import get_task

    task = get_task(task_name)
    if not 1 <= games <= task.eval_games:
        raise ValueError(f"games must be in [1, {task.eval_games}] for task {task.name!r}")
    if len(specs) < 2:
        raise ValueError("cross-play needs at least two policies")
    labels = labels or [policy_label(s) for s in specs]
    if len(set(labels)) != len(labels):
        raise ValueError(f"policy labels must differ, got {labels}")
    seats = len(task.heroes)
    result = CrossPlayResult(task.name, labels, [policy_algorithm(s) for s in specs], seats,
                             games)
    pool = task.pool("eval")
    total = len(specs) ** seats
    for done, assignment in enumerate(itertools.product(range(len(specs)), repeat=seats), 1):
        team = SeatPolicies([load_policy(specs[i], seed=seed) for i in assignment],
                            [labels[i] for i in assignment])
        r = evaluate(team, scenario=pool if len(pool) > 1 else pool[0], games=games,
                     seed=task.eval_seed)
        result.wins[assignment] = r.wins
        if on_cell is not None:
            on_cell(done, total)
    return result


def policy_label(spec: str) -> str:
    """A policy's short name: a checkpoint by its run folder, else the spec."""
    path = Path(spec)
    return path.parent.name if path.suffix in (".zip", ".pt") else spec


def heatmap(grid: np.ndarray, rows: list[str], cols: list[str], path: str, title: str,
            xlabel: str, ylabel: str = "", label: str = "heroes' win rate") -> None:
    """Win rates ``grid`` [len(rows), len(cols)] as an annotated PNG heatmap."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(1.8 + 1.6 * len(cols), 1.2 + 0.6 * len(rows)))
    im = ax.imshow(grid, vmin=0.0, vmax=1.0, cmap="RdYlGn")
    ax.set_xticks(range(len(cols)), cols, rotation=20, ha="right")
    ax.set_yticks(range(len(rows)), rows)
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            ax.text(j, i, f"{v:.2f}", ha="center", va="center")
    ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    fig.colorbar(im, ax=ax, label=label)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
