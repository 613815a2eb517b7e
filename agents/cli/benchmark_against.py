"""``hon-bench --against REV``: this tree's engine against another revision's, in alternating
pairs of CPU time (or, with ``--wall``, of the ``hon-bench`` row itself).

On a shared machine one row's rate moves by tens of percent from run to run (other tenants,
clock frequency), more than most engine changes do. So the two trees run alternately, each
measurement in a fresh process on one numba thread, and each counts CPU seconds
(``getrusage``) rather than wall time: the ratio within each pair is the figure to read.
``wall=True`` measures what a user of the row sees instead, every numba thread and the
wall clock: the engine's work, the threads' wake-ups and the front end's copies. It sets
a figure measured on a machine that is gone against the engine that measured it, on the
machine at hand.

``REV`` is checked out into a temporary git worktree. Its kernels compile into a temporary
cache of their own, so its first run compiles the engine (minutes); both are removed at the
end. Each child process checks that it imported the ``hon_env`` of the tree it is meant to
measure before it measures anything.
"""

from __future__ import annotations

import inspect
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

# vector_env options of each --encoding (the hon-bench rows of the same names)
ENCODINGS = {
    "none": {"observations": False},
    "state": {"observations": True, "global_state": True},
    "obs": {"observations": True, "global_state": False},
    "compact": {"observations": True, "global_state": False, "compact": True},
    "tail": {"observations": True, "global_state": "tail", "compact": True},
}


def measure(package: str, scenario: str, batch: int, steps: int, options: dict,
            wall: bool = False) -> float:
    """Decisions per CPU second (``wall``: per second of the wall clock) of ``steps`` vector
    env steps (random legal actions, after ten untimed ones that load the kernels), refused
    unless ``hon_env`` was imported from the folder ``package``. Self-contained: a child
    process runs this function's source in the tree it measures."""
    import resource
    import time

    import numpy as np

    import hon_env

    imported = Path(hon_env.__file__).resolve().parent
    if imported != Path(package).resolve():
        raise RuntimeError(f"imported hon_env from {imported}, not {package}")
    env = hon_env.vector_env(batch, seed=0, scenario=scenario, **options)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(10):
        env.step(env.sample_actions(rng))

    def cpu() -> float:
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime

    clock = time.perf_counter if wall else cpu
    t0 = clock()
    for _ in range(steps):
        env.step(env.sample_actions(rng))
    return batch * steps / max(clock() - t0, 1e-9)


def child_code(package: Path, scenario: str, batch: int, steps: int, options: dict,
               wall: bool = False) -> str:
    """``python -c`` source that runs ``measure`` and prints its rate."""
    call = f"measure({str(package)!r}, {scenario!r}, {batch}, {steps}, {options!r}, {wall})"
    return "from pathlib import Path\n" + inspect.getsource(measure) + f"\nprint({call})\n"


def measure_tree(tree: Path, cache: Path | None, scenario: str, batch: int, steps: int,
                 options: dict, wall: bool = False) -> float:
    """One measurement in a fresh process importing ``tree``'s packages (``cache``: its
    kernel cache, None for the default); one numba thread and CPU time, or with ``wall``
    every thread and wall time; refuses a result from another tree."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    if not wall:
        env["NUMBA_NUM_THREADS"] = "1"
    if cache is not None:
        env["HON_ENV_CACHE_DIR"] = str(cache)
    code = child_code(tree / "hon_env", scenario, batch, steps, options, wall)
    done = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"the measurement in {tree} failed:\n{done.stderr[-2000:]}")
    return float(done.stdout.strip().splitlines()[-1])


def resolve_commit(root: Path, rev: str) -> str:
    """The full commit hash of ``rev`` in the checkout at ``root``; ValueError when it is
    no commit there (or ``root`` is no git checkout)."""
    done = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                          cwd=root, capture_output=True, text=True)
    if done.returncode != 0:
        raise ValueError(f"--against: {rev!r} is no commit of the git checkout at {root}")
    return done.stdout.strip()


def ratios_line(ratios: list[float]) -> str:
    """The summary under the table: the median ratio and the range of the pairs."""
    return (f"this tree / base: median {statistics.median(ratios):.3f}, pairs "
            f"{min(ratios):.3f} to {max(ratios):.3f}")


def print_against(root: Path, rev: str, scenario: str, batch: int, steps: int, pairs: int,
                  encoding: str, wall: bool = False) -> list[float]:
    """Alternate ``pairs`` measurements of ``rev`` and of the tree at ``root`` (``wall``:
    as ``measure_tree``); print each pair and the summary; return each pair's ratio (this
    tree / ``rev``)."""
    commit = resolve_commit(root, rev)
    options = ENCODINGS[encoding]
    with tempfile.TemporaryDirectory(prefix="hon-bench-against-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), commit], cwd=root,
                       check=True, capture_output=True)
        try:
            unit = "second, every thread" if wall else "CPU second, one thread"
            print(f"| batch {batch}, observations: {encoding} | {commit[:10]}, decisions per "
                  f"{unit} | this tree | ratio |")
            print("|---|---|---|---|")
            ratios = []
            for k in range(pairs):
                base = measure_tree(tree, Path(tmp) / "cache", scenario, batch, steps, options,
                                    wall)
                this = measure_tree(root, None, scenario, batch, steps, options, wall)
                ratios.append(this / base)
                print(f"| pair {k + 1} | {base:,.0f} | {this:,.0f} | {this / base:.3f} |",
                      flush=True)
            print(ratios_line(ratios))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=root,
                           capture_output=True)
    return ratios
