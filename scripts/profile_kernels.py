"""Profile the vector env's numba kernels function by function with Linux ``perf``.

numba's machine code carries no symbols that ``perf`` can read, so a plain ``perf record``
of a training or benchmark process shows its hottest places as bare addresses. This
script compiles the vector env's kernels in its own process (into an empty temporary
cache: a minute or two on two cores), writes ``/tmp/perf-<pid>.map`` (the file ``perf``
reads for code generated at run time) with the address, size and short name of every
function in their libraries, then attaches ``perf record`` to itself and plays random
legal actions for ``--seconds``. Only the play is recorded, not the compile.

    python scripts/profile_kernels.py --batch 1024                 # writes perf.data
    python scripts/profile_kernels.py --batch 4096 --observations compact
    perf report -i perf.data --no-children --sort symbol            # then read it

Names are shortened to ``module.function`` (``hon_env.core.interp.step_op``); the
body of a kernel's ``prange`` loop shows as ``vector_step (its prange body)``. Needs
``perf`` on the PATH and permission to attach to one's own process
(``kernel.perf_event_paranoid`` <= 2).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

PARFOR = "__numba_parfor_gufunc"  # the name numba gives the body of a prange loop


def short_name(mangled: str) -> str:
    """``module.function`` of a numba symbol (``_ZN7hon_env4core6interp7step_opB2v1...``:
    the length-prefixed parts of its nested name, up to the first ABI tag); any other
    name is returned as it is, cut to 120 characters."""
    start = mangled.find("_ZN")
    if start < 0:
        return mangled[:120]
    i, parts = start + 3, []
    while i < len(mangled) and mangled[i].isdigit():
        j = i
        while j < len(mangled) and mangled[j].isdigit():
            j += 1
        n = int(mangled[i:j])
        parts.append(mangled[j:j + n])
        i = j + n
    if not parts:
        return mangled[:120]
    # numba escapes some characters of a name as _<hex>: the parallel loops' bodies are
    # "<dynamic>" functions named __numba_parfor_gufunc_0x...
    name = ".".join(p for p in parts if p)
    return PARFOR if PARFOR in name else name


def perf_map_lines(dispatchers: Iterable) -> list[str]:
    """The ``perf`` map lines (``<start hex> <size hex> <name>``) of every function defined
    in the compiled libraries of ``dispatchers`` (numba ``njit`` functions called at
    least once in this process, not loaded from a cache), sorted by address; each size
    reaches to the next function's start."""
    entries: set[tuple[int, str]] = set()
    for disp in dispatchers:
        for cres in disp.overloads.values():
            lib = cres.library
            module = getattr(lib, "_final_module", None)
            if module is None:
                raise RuntimeError(f"{disp.__name__}: its machine code came from a cache; "
                                   "compile it in this process (an empty NUMBA_CACHE_DIR)")
            for fn in module.functions:
                if fn.is_declaration:
                    continue
                addr = lib.get_pointer_to_function(fn.name)
                if addr:
                    name = short_name(fn.name)
                    if name == PARFOR:
                        name = f"{disp.__name__} (its prange body)"
                    entries.add((int(addr), name))
    ordered = sorted(entries)
    lines = []
    for k, (addr, name) in enumerate(ordered):
        end = ordered[k + 1][0] if k + 1 < len(ordered) else addr + 4096
        lines.append(f"{addr:x} {max(1, end - addr):x} {name}")
    return lines


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--batch", type=int, default=1024, help="games stepped together")
    p.add_argument("--observations", choices=["none", "compact", "full"], default="none",
                   help="encode no observations, compact rows, or full rows (no global "
                        "state either way)")
    p.add_argument("--scenario", default="origin_story")
    p.add_argument("--seconds", type=float, default=10.0, help="how long to record play")
    p.add_argument("--out", default="perf.data", help="perf's output file")
    args = p.parse_args(argv)
    if args.batch < 1 or args.seconds <= 0:
        p.error("--batch must be >= 1 and --seconds > 0")
    perf = shutil.which("perf")
    if perf is None:
        p.error("perf is not on the PATH (linux-tools / linux-perf)")
    # before numba loads: this process compiles every kernel it calls
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="hon_profile_")

    import numpy as np

    from hon_env import vector_env
    from hon_env.core import vector as kernels
    from hon_env.envs import vector as front

    obs = args.observations != "none"
    env = vector_env(args.batch, seed=0, scenario=args.scenario, observations=obs,
                     compact=args.observations == "compact", global_state=False)
    rng = np.random.default_rng(0)
    print("compiling the kernels in this process (a minute or two) ...", flush=True)
    env.reset()
    for _ in range(3):
        env.step(env.sample_actions(rng))
    map_path = Path(f"/tmp/perf-{os.getpid()}.map")
    lines = perf_map_lines([kernels.vector_step, kernels.vector_reset, front._sample_rows])
    map_path.write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} functions in {map_path}", flush=True)
    rec = subprocess.Popen([perf, "record", "-F", "999", "-p", str(os.getpid()), "-o",
                            args.out], stdout=subprocess.DEVNULL)
    time.sleep(1.0)  # perf attaches
    t0 = time.perf_counter()
    steps = 0
    while time.perf_counter() - t0 < args.seconds:
        env.step(env.sample_actions(rng))
        steps += 1
    rate = steps * args.batch / (time.perf_counter() - t0)
    rec.send_signal(signal.SIGINT)
    if rec.wait(timeout=60) not in (0, -signal.SIGINT) or not Path(args.out).exists():
        sys.exit(f"perf record failed (exit {rec.returncode}); is perf_event_paranoid > 2?")
    print(f"recorded {steps} steps ({rate:,.0f} decisions/s) into {args.out}; read it with\n"
          f"  perf report -i {args.out} --no-children --sort symbol")


if __name__ == "__main__":
    main()
