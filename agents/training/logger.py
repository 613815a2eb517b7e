"""Run logs: ``train.csv`` and ``eval.csv`` rows, TensorBoard scalars, a progress bar.

Both trainers speak one dialect (``TRAIN_METRICS``, ``checkpoint_path``): the same
``train.csv`` columns, TensorBoard tags (``train/<metric>``, ``eval/<metric>`` under
``run_dir/tb``), checkpoint names and printed phases.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path
from typing import Any

import yaml

from agents.training.config import config_dict

# the train.csv columns every trainer writes after each update (a trainer may add its own)
TRAIN_METRICS = (
    "episode_return",  # mean team return of the episodes that ended in the rollout
    "episode_win_rate",  # share of those episodes won
    "episode_loss_rate",  # share of those episodes lost
    "episodes",  # how many ended
    "policy_loss",  # clipped surrogate loss
    "value_loss",
    "entropy",  # mean entropy of the masked policy
    "approx_kl",  # estimate of KL(old || new) over the update
    "clip_fraction",  # share of samples whose ratio was clipped
    "lr",  # learning rate in use
    "steps_per_s",  # environment steps per second, rollouts and updates (not evaluations)
)


def checkpoint_path(run_dir: str | Path, step: int, suffix: str) -> Path:
    """``run_dir/checkpoints/step_<step><suffix>``: the name both trainers use."""
    return Path(run_dir) / "checkpoints" / f"step_{step}{suffix}"


def _header(path: Path) -> list[str]:
    """The column names of CSV file ``path`` (its first line)."""
    with path.open(newline="") as fh:
        return next(csv.reader(fh), [])


class RunLogger:
    """Writes everything a run reports under ``run_dir``.

    ``train.csv`` gets one row per update and ``eval.csv`` one per evaluation (each keeps
    the columns of its first row); TensorBoard event files go to ``run_dir/tb`` (when the
    ``tensorboard`` package is installed) and the config to ``run_dir/config.yaml``.
    A ``quiet`` logger writes and prints nothing (the ranks of a data-parallel run other
    than rank 0).
    """

    def __init__(self, run_dir: str | Path, cfg: Any, total_steps: int, *,
                 tensorboard: bool = True, progress: bool = True, start_step: int = 0,
                 quiet: bool = False) -> None:
        self.dir = Path(run_dir)
        self.quiet = quiet
        self._files: dict[str, tuple[Any, csv.DictWriter]] = {}
        self.tb = self.bar = None
        if quiet:
            return
        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / "config.yaml").write_text(yaml.safe_dump(config_dict(cfg), sort_keys=False))
        if tensorboard:
            try:
                from torch.utils.tensorboard import SummaryWriter
            except ImportError:  # tensorboard is in the train extras; the CSVs still work
                print("tensorboard not installed: CSV logs only", file=sys.stderr)
            else:
                self.tb = SummaryWriter(str(self.dir / "tb"))
        if progress:
            from tqdm import tqdm

            self.bar = tqdm(total=total_steps, initial=start_step, unit="step",
                            dynamic_ncols=True, file=sys.stderr)

    def log(self, table: str, step: int, row: dict[str, float]) -> None:
        """Append ``row`` (with ``step``) to ``<table>.csv`` and to TensorBoard."""
        if self.quiet:
            return
        row = {"step": step, **row}
        if table not in self._files:
            path = self.dir / f"{table}.csv"
            fresh = not path.exists() or path.stat().st_size == 0
            # a resumed run appends under the header already there, column for column
            fields = list(row) if fresh else _header(path)
            fh = path.open("a", newline="")
            writer = csv.DictWriter(fh, fieldnames=fields, extrasaction="ignore")
            if fresh:
                writer.writeheader()
            self._files[table] = (fh, writer)
        fh, writer = self._files[table]
        writer.writerow(row)
        fh.flush()
        if self.tb is not None:
            for k, v in row.items():
                if k != "step":
                    self.tb.add_scalar(f"{table}/{k}", v, step)

    def phase(self, name: str, text: str) -> None:
        """Print one line about a phase of the run (cloning, training, evaluation)."""
        if self.quiet:
            return
        line = f"[{name}] {text}"
        if self.bar is not None:
            self.bar.write(line, file=sys.stdout)
        else:
            print(line, flush=True)

    def progress(self, step: int, **shown: float) -> None:
        if self.bar is not None:
            self.bar.n = step
            self.bar.set_postfix({k: f"{v:.3g}" for k, v in shown.items()}, refresh=False)
            self.bar.refresh()

    def close(self) -> None:
        for fh, _ in self._files.values():
            fh.close()
        if self.tb is not None:
            self.tb.close()
        if self.bar is not None:
            self.bar.close()
