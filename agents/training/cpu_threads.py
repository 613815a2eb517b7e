"""Setting a trainer's CPU threads so that the count holds.

torch and the engine's numba kernels share one OpenMP runtime in a training process, and
numba's first parallel kernel sets the OpenMP thread count of the thread that launches it
to numba's own. A count given to torch before the engine first stepped was therefore
undone by the first ``reset``: ``hon-train --threads 1`` trained on every core. Starting
numba's pool first (``numba.set_num_threads`` does) and setting torch's count after it
keeps both.
"""

from __future__ import annotations

import numba
import torch


def set_cpu_threads(torch_threads: int, numba_threads: int | None = None) -> None:
    """Give torch ``torch_threads`` CPU threads and the engine ``numba_threads`` (None:
    numba's current count; at most numba's ``NUMBA_NUM_THREADS``), numba's pool started
    first so that its first kernel does not change torch's count later."""
    if torch_threads < 1 or (numba_threads is not None and numba_threads < 1):
        raise ValueError(f"thread counts must be positive, got {torch_threads} and "
                         f"{numba_threads}")
    wanted = numba.get_num_threads() if numba_threads is None else numba_threads
    numba.set_num_threads(min(wanted, numba.config.NUMBA_NUM_THREADS))
    torch.set_num_threads(torch_threads)
