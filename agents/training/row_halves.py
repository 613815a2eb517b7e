"""A batch's rows in two halves, run side by side on the CPU's cores.

On a CPU, torch runs each op of an update on every thread of its OpenMP pool. An update is
thousands of small ops with Python between them, longer than the idle workers' short spin
(``hon_env.threads``), so each op waits for sleeping workers to wake: at 4 heroes on 2
cores a MAPPO update took 1.1-1.2 s, where workers that never sleep took 0.93 s and one
thread 1.5 s (docs/benchmarks.md).
Splitting each minibatch's rows into two halves, each on its own thread with its own share
of the cores, keeps both cores busy without waking anyone: the loss is a sum over rows, so
the halves' gradients add up to the minibatch's. A rollout's forward passes split the
same way, by games.

The split is made whatever the thread count (on one thread the halves run one after the
other), so a run on one thread gives the same weights as on two, to the bit, and a
rollout the same actions (its log-probabilities and values up to float rounding: some
CPUs' kernels round the last bit by the process's thread count; tested). On a GPU a batch
is not split.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

import torch

T = TypeVar("T")
S = TypeVar("S", bound=Sequence)


def halves(idx: S) -> list[S]:
    """``idx``'s first and second half (the first the shorter), empty halves left out:
    row indices (a tensor) or a ``range`` of them."""
    cut = len(idx) // 2
    return [part for part in (idx[:cut], idx[cut:]) if len(part)]


class RowHalves:
    """Runs a function on each half of a batch's rows (a minibatch's, a rollout step's
    games): on the CPU with two or more torch threads, the second half on a worker thread
    while the first runs on the caller's, each with half the threads (``threads``); on one
    thread one after the other; on a GPU (whose ops are not short of threads) on the
    whole batch."""

    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None
        self._pid = 0

    @contextmanager
    def threads(self, device: torch.device) -> Iterator[int | None]:
        """A block for ``map``. Gives None off the CPU (a batch is not split there); on
        the CPU the threads each half runs on, the caller's thread keeping that share of
        torch's threads until the block ends (0: one thread, the halves one after the
        other)."""
        total = torch.get_num_threads()
        if device.type != "cpu":
            yield None
            return
        if total < 2:
            yield 0
            return
        share = total // 2
        torch.set_num_threads(share)
        try:
            yield share
        finally:
            torch.set_num_threads(total)

    def map(self, fn: Callable[[S], T], idx: S, share: int | None) -> list[T]:
        """``fn`` of each half of ``idx`` (``halves``), in order, side by side where
        ``share`` (from ``threads``) is positive; ``fn(idx)`` alone where it is None."""
        if share is None:
            return [fn(idx)]
        parts = halves(idx)
        if not share or len(parts) < 2:
            return [fn(part) for part in parts]
        if self._pool is None or self._pid != os.getpid():  # a forked child has no worker
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="row-half")
            self._pid = os.getpid()

        def second() -> T:
            if torch.get_num_threads() != share:  # each thread has its own OpenMP setting
                torch.set_num_threads(share)
            return fn(parts[1])

        later = self._pool.submit(second)
        first = fn(parts[0])
        return [first, later.result()]

    def __deepcopy__(self, memo: dict) -> RowHalves:
        return RowHalves()  # a copy starts its own worker when it needs one

    def __getstate__(self) -> dict:
        return {"_pool": None, "_pid": 0}
