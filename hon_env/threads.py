"""How idle OpenMP worker threads wait: sleeping, not spinning.

A training process holds two OpenMP thread pools: torch's CPU build brings its own libgomp
(loaded when torch is imported) and numba runs the engine's parallel kernels on the
system's libgomp (loaded at the first parallel kernel). By default idle libgomp workers
spin for a while after each parallel region before they sleep. The engine launches its
kernels once per step, between torch's forward passes, so each pool's workers must be
scheduled while the other's spin; with another busy process on the same cores (a second
run, an evaluation beside training) that went far past a fair share of the machine: a
4-hero MAPPO run beside another ran at 1,060 env steps/s with spinning workers and
9,700-10,000 with sleeping ones on 2 cores; alone on the machine the two ran alike
(docs/benchmarks.md, "Idle OpenMP workers").

Each libgomp reads ``OMP_WAIT_POLICY`` once, when it is loaded; so the package sets it on
import, before torch or a kernel can load either. A value the user set is kept.
"""

from __future__ import annotations

import os

WAIT_POLICY = "PASSIVE"


def configure_openmp_wait() -> str:
    """Make idle OpenMP workers sleep (``OMP_WAIT_POLICY=PASSIVE``) unless the user chose a
    policy. Too late once libgomp is loaded (torch imported first): then it changes nothing.

    Returns the policy in force for a libgomp loaded from now on.
    """
    return os.environ.setdefault("OMP_WAIT_POLICY", WAIT_POLICY)
