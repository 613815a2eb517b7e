"""How idle OpenMP worker threads wait: a short spin, then sleep.

torch's CPU build brings its own libgomp (loaded when torch is imported); numba runs the
engine's parallel kernels on libgomp too, and where torch was imported first (any training
process) its OpenMP layer binds to torch's copy, so both run on one runtime (otherwise on
the system's). By default idle libgomp workers spin for about 3 ms after each parallel
region before they sleep. With another busy process on the same cores (a second run, an
evaluation beside training) that went far past a fair share of the machine: a 4-hero
MAPPO run beside another ran at 1,060 env steps/s with spinning workers and 9,700-10,000
with sleeping ones on 2 cores (docs/benchmarks.md, "Idle OpenMP workers").

Workers that sleep at once cost something too: torch's update is thousands of small
parallel regions, and where waking a sleeping worker is slow (virtual machines, whose idle
cores halt) each region waits for it. A spin of ``SPIN_COUNT`` busy-wait iterations
(libgomp counts about 100 a microsecond, so some 30 microseconds) bridges the gaps between
one op and the next and is over long before another process's share of the core is:
4-hero MAPPO alone on a 2-core Xeon VM ran 1.07-1.17x as fast as with workers that sleep
at once, and two runs side by side 0.94-0.95x as fast (docs/benchmarks.md, "Idle OpenMP
workers: a short spin").

Each libgomp reads ``OMP_WAIT_POLICY`` and ``GOMP_SPINCOUNT`` once, when it is loaded; so
the package sets them on import, before torch or a kernel can load either. A policy or a
spin count the user set is kept (and a user's policy alone is not changed by ours).
"""

from __future__ import annotations

import os

WAIT_POLICY = "PASSIVE"
SPIN_COUNT = "3000"


def configure_openmp_wait() -> str:
    """Make idle OpenMP workers spin ``SPIN_COUNT`` iterations, then sleep
    (``OMP_WAIT_POLICY=PASSIVE``, ``GOMP_SPINCOUNT``), unless the user chose a policy or a
    spin count. Too late once libgomp is loaded (torch imported first): then it changes
    nothing.

    Returns the policy in force for a libgomp loaded from now on.
    """
    if "OMP_WAIT_POLICY" not in os.environ:
        os.environ.setdefault("GOMP_SPINCOUNT", SPIN_COUNT)
    return os.environ.setdefault("OMP_WAIT_POLICY", WAIT_POLICY)
