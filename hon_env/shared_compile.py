"""Processes that compile into one kernel cache folder share the work instead of repeating it.

numba compiles a kernel in the process that first calls it and writes it to the cache
folder, so two processes that need the same function at once (the warm-up's workers,
pytest's, a first run and its helper) both compile it. ``lock_compiles`` makes a process
take a lock on a function of this project in the cache folder before it compiles it:
another process that needs the function meanwhile waits, then loads what the first one
wrote. A process holds the locks of the function it compiles and of that function's
callers it is compiling, and the engine's functions call each other without cycles, so
every wait ends; one longer than ``WAIT_LIMIT_S`` compiles anyway.

``start_helper`` is the first run's second core (``numba_cache.announce_compile`` calls it):
while a process compiles its entry kernel (``Game``'s, the vector env's), a helper process
compiles the two largest pieces the entry kernels share, the interpreter's op loop and the
observation encoder (``python -m hon_env.warmup --helper``), and the locks hand them over.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

WAIT_LIMIT_S = 900.0  # past this a waiting process compiles the function itself
_POLL_S = 0.02
_PACKAGES = ("hon_env.", "agents.")
_held: set[str] = set()  # the functions this process holds the lock of
_helper: list[subprocess.Popen] = []


def lock_compiles(folder: str | os.PathLike[str] | None = None) -> bool:
    """Make this process lock each cached function of this project in ``folder`` (default
    ``NUMBA_CACHE_DIR``) while it compiles it (once per process).

    Returns:
        False where the lock cannot be had (no ``fcntl``, numba's ``Dispatcher.compile``
        moved, no folder named, or the folder cannot be written), in which case nothing was
        changed.
    """
    try:
        import fcntl

        from numba.core import dispatcher, sigutils
        from numba.core.caching import NullCache
        from numba.core.compiler_lock import global_compiler_lock
    except ImportError:
        return False
    original = getattr(dispatcher.Dispatcher, "compile", None)
    if original is None:
        return False
    if getattr(original, "hon_env_lock", False):
        return True
    folder = folder or os.environ.get("NUMBA_CACHE_DIR")
    if not folder:
        return False
    locks = Path(folder) / ".compile-locks"
    try:
        locks.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False

    def compile(self: Any, sig: Any) -> Any:
        key = f"{self.py_func.__module__}.{self.py_func.__qualname__}"
        if (key in _held or not key.startswith(_PACKAGES) or isinstance(self._cache, NullCache)
                or tuple(sigutils.normalize_signature(sig)[0]) in self.overloads):
            return original(self, sig)
        # numba's own lock first: another thread of this process then never waits on a
        # file lock that this thread holds
        with global_compiler_lock:
            try:
                f = open(locks / key, "a")  # noqa: SIM115  (closed below, which unlocks)
            except OSError:
                return original(self, sig)
            with f:
                _acquire(fcntl, f)
                _held.add(key)
                try:
                    return original(self, sig)
                finally:
                    _held.discard(key)

    compile.hon_env_lock = True  # type: ignore[attr-defined]
    compile.__wrapped__ = original  # type: ignore[attr-defined]
    dispatcher.Dispatcher.compile = compile
    return True


def _acquire(fcntl: Any, f: Any) -> None:
    """Take the exclusive lock on open file ``f``; give up after ``WAIT_LIMIT_S``, or at once
    where the file system has no locks (then the compile goes on unlocked)."""
    deadline = time.monotonic() + WAIT_LIMIT_S
    while True:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                return
            time.sleep(_POLL_S)
        except OSError:  # e.g. ENOLCK on a network file system
            return


def cores() -> int:
    """The CPU cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def start_helper() -> bool:
    """Start the helper process (once per process) where it can help: two cores or more, the
    compile locks on, and ``HON_ENV_COMPILE_HELPER`` not ``0``. Its output is discarded; it
    only writes the cache folder, and a process that needs what it compiles waits for it
    through the locks rather than compiling it twice."""
    if (_helper or cores() < 2 or os.environ.get("HON_ENV_COMPILE_HELPER", "1") == "0"
            or not _locks_on()):
        return False
    try:
        _helper.append(subprocess.Popen(
            [sys.executable, "-m", "hon_env.warmup", "--helper"], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env={**os.environ, "HON_ENV_COMPILE_HELPER": "0"}))
    except (OSError, ValueError):  # no interpreter to start (an embedded Python): no help
        return False
    return True


def _locks_on() -> bool:
    from numba.core import dispatcher

    return getattr(dispatcher.Dispatcher.compile, "hon_env_lock", False)
