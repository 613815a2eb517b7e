"""Where numba keeps the compiled kernels: one folder per version of the engine source.

numba's on-disk cache (``cache=True``) is invalidated when a function's own source file
changes, but not when a constant it reads from another module (a ``layout`` field offset,
a table column) or a function it calls from another file changes; cache invalidation over
other files is an open numba feature (numba PR #8396). The engine's kernels read layout
constants and call each other across modules, so a cache compiled before such a change
would run stale code. Keying the cache folder on a hash of the engine sources makes every
change to them start from a fresh cache.

The folder is ``$HON_ENV_CACHE_DIR`` (default ``$XDG_CACHE_HOME/hon_env``, else
``~/.cache/hon_env``) ``/numba-<hash>``; old folders may be deleted at any time. A
``NUMBA_CACHE_DIR`` set by the user is left alone (then keeping it fresh is theirs).

Debug mode (``HON_ENV_DEBUG=1``) compiles the kernels with numba's bounds checking
(``NUMBA_BOUNDSCHECK``, read by numba at compile time) into their own folder,
``numba-<hash>-debug``: numba's cache key does not include that option.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
# first-call compile seconds the progress message quotes: "game" is the README quick start
# on 2 cores (docs/benchmarks.md, "Cold start"); "vector" and "rollout" add their parallel
# kernels to the same interpreter, an estimate
COMPILE_SECONDS = {"game": 90, "vector": 150, "rollout": 150}
_checked: set[str] = set()  # kernels looked up in the cache by this process
# every file numba-compiled code reads constants or calls functions from
ENGINE_SOURCES = ("core/*.py", "content/tables.py", "content/ops.py")
# the scripted teams' kernels (the ``agents`` package beside this one), which call each
# other across files and share this cache folder
AGENT_SOURCES = ("heuristic.py", "coordinated.py", "glory.py")


def engine_fingerprint(package: Path = PACKAGE) -> str:
    """A short hash of the engine source files of ``package`` and of the scripted teams'
    kernel files in the ``agents`` package beside it, where present (paths and bytes)."""
    digest = hashlib.sha256()
    for pattern in ENGINE_SOURCES:
        for path in sorted(package.glob(pattern)):
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    for name in AGENT_SOURCES:
        path = package.parent / "agents" / name
        if path.is_file():
            digest.update(f"agents/{name}".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_root() -> Path:
    """The folder that holds one ``numba-<hash>`` cache per engine version."""
    if os.environ.get("HON_ENV_CACHE_DIR"):
        return Path(os.environ["HON_ENV_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hon_env"


def debug_mode() -> bool:
    """True when ``HON_ENV_DEBUG`` is set to 1/true/yes (see the module doc)."""
    return os.environ.get("HON_ENV_DEBUG", "").strip().lower() in ("1", "true", "yes")


def configure_cache() -> str:
    """Point numba's cache at this engine version's folder unless the user chose one, and
    turn on bounds checking in debug mode.

    Must run before any kernel module is imported (``hon_env/__init__.py`` does it first).
    Returns the cache folder numba will use.
    """
    from numba.core import config

    if debug_mode():
        os.environ["NUMBA_BOUNDSCHECK"] = "1"  # kept by config reloads and by workers
        config.BOUNDSCHECK = 1
    if os.environ.get("NUMBA_CACHE_DIR"):
        return os.environ["NUMBA_CACHE_DIR"]
    suffix = "-debug" if debug_mode() else ""
    path = str(cache_root() / f"numba-{engine_fingerprint()}{suffix}")
    os.environ["NUMBA_CACHE_DIR"] = path  # kept by numba's config reloads, and by workers
    config.CACHE_DIR = path
    return path


def compiled_before(kernel: str = "kernels.game_apply") -> bool:
    """Does numba's cache folder hold ``kernel`` (``module.function`` of ``hon_env/core``)
    from an earlier run? (numba names its index files ``module.function-line.pyXY.nbi``.)"""
    folder = Path(os.environ.get("NUMBA_CACHE_DIR") or ".")
    return folder.is_dir() and any(folder.glob(f"*/{kernel}-*.nbi"))


def announce_compile(front_end: str, kernel: str) -> None:
    """Say on stderr, once per process, that the engine compiles now when ``kernel`` is not
    in the cache yet: the first run of a new engine version is otherwise silent for a
    minute or more. ``front_end`` picks the time quoted (``COMPILE_SECONDS``)."""
    if kernel in _checked:
        return
    said = "said" in _checked
    _checked.add(kernel)
    if said or compiled_before(kernel):
        return
    _checked.add("said")
    print(f"hon_env: compiling the rules engine, once per version: "
          f"~{COMPILE_SECONDS[front_end]} s (later runs load it from "
          f"{os.environ.get('NUMBA_CACHE_DIR')})", file=sys.stderr, flush=True)
