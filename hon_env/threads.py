"""How the engine's parallel kernels' worker threads wait between calls.

numba runs the vector env's parallel kernels on an OpenMP pool (libgomp; the same library
torch's CPU build loads, shared by its soname). By default libgomp's idle workers spin
after every parallel region before they sleep. The engine launches its kernels once per
step, between torch's forward passes, so the spinning workers take cores from the threads
that do the work; when another busy process shares the cores (a second run, an
evaluation beside training) the loss is far larger than a fair share: a 4-hero MAPPO run
beside another ran at 1,070 env steps/s with spinning workers and 10,000 with sleeping
ones on 2 cores (docs/benchmarks.md, "Idle OpenMP workers").

libgomp reads ``OMP_WAIT_POLICY`` once, when it is first loaded, which is when torch is
imported or the first parallel kernel runs, whichever comes first; so the package sets it
on import, before either. A value the user set is kept.
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
