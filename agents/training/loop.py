"""The loop every hand-written trainer shares: updates until the step budget, a
checkpoint every ``checkpoint_every`` steps, a greedy evaluation every ``eval_every``
steps, one ``train.csv`` row per update and a throughput figure that leaves evaluations
(and the first update, which compiles the engine) out. An algorithm gives only its
update, how it saves and how it is evaluated (``train_loop``); the MaskablePPO trainers,
whose loop is SB3's, use the same pieces from their callbacks (``Every``,
``Throughput``, ``log_eval``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from agents.training.logger import RunLogger, checkpoint_path

# one update: the step count before it -> (the step count after it, environment rows it
# stepped, its train.csv row)
Update = Callable[[int], tuple[int, int, dict[str, float]]]


class Every:
    """A step count that comes round every ``every`` steps: first at the multiple of
    ``every`` after ``start`` (a resumed run keeps the fresh run's cadence)."""

    def __init__(self, every: int, start: int = 0) -> None:
        if every < 1:
            raise ValueError(f"every must be positive, got {every}")
        self.every = every
        self.next = (start // every + 1) * every

    def due(self, step: int, final: bool = False) -> bool:
        """Has ``step`` reached the next turn (or is it the ``final`` step)? A turn that
        is due moves the next one on by ``every``."""
        if step >= self.next or final:
            self.next += self.every
            return True
        return False


class Throughput:
    """Environment rows per second of wall time, with the paused spans (evaluations)
    left out; ``restart`` drops what was counted so far (the compiling first update)."""

    def __init__(self) -> None:
        self.restart()

    def restart(self) -> None:
        self.start = time.perf_counter()
        self.rows = 0
        self.paused_s = 0.0

    def count(self, rows: int) -> float:
        """Add ``rows`` stepped; returns the rate so far."""
        self.rows += rows
        return self.rows / max(time.perf_counter() - self.start - self.paused_s, 1e-9)

    @contextmanager
    def paused(self) -> Iterator[None]:
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.paused_s += time.perf_counter() - t0


def log_eval(log: RunLogger, step: int, row: dict[str, float],
             summary: Callable[[dict[str, float]], str]) -> None:
    """Write an evaluation row to ``eval.csv`` and its line to the console."""
    log.log("eval", step, row)
    log.phase("eval", f"step {step:,}: " + summary(row))


def train_loop(cfg: Any, log: RunLogger, step: int, update: Update,
               save: Callable[[Path, int], None],
               evaluate: Callable[[], dict[str, float]],
               summary: Callable[[dict[str, float]], str], *, suffix: str,
               main: bool = True) -> tuple[int, dict[str, float], float]:
    """Run ``update`` from ``step`` until ``cfg.total_steps``; after each update log its
    row, save ``checkpoints/step_<N><suffix>`` every ``cfg.checkpoint_every`` steps and
    evaluate every ``cfg.eval_every`` steps (both after the last update too). ``main``:
    whether this process saves and evaluates (rank 0 of a data-parallel run; the other
    ranks wait for it at their next gradient average). Returns the last step, the last
    evaluation row ({} where this process does not evaluate) and the steps/s figure."""
    ckpt, ev = Every(cfg.checkpoint_every, step), Every(cfg.eval_every, step)
    timer = Throughput()
    last_eval: dict[str, float] = {}
    sps = float("nan")
    updates = 0
    while step < cfg.total_steps:
        step, rows, row = update(step)
        updates += 1
        sps = timer.count(rows)
        row["steps_per_s"] = sps
        log.log("train", step, row)
        log.progress(step, sps=sps, win=row.get("episode_win_rate", float("nan")))
        final = step >= cfg.total_steps
        if ckpt.due(step, final) and main:
            save(checkpoint_path(cfg.run_dir, step, suffix), step)
        if ev.due(step, final) and main:
            with timer.paused():
                last_eval = evaluate()
                log_eval(log, step, last_eval, summary)
        if updates == 1 and not final:
            # the first update also compiles the engine and the scripted team (numba:
            # minutes on a new machine), so steps/s is timed from the end of it
            timer.restart()
    return step, last_eval, sps
