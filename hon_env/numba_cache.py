"""Where numba keeps the compiled kernels: one folder per version of the engine source.

numba's on-disk cache (``cache=True``) is invalidated when a function's own source file
changes, but not when a constant it reads from another module (a ``layout`` field offset,
a table column) or a function it calls from another file changes; cache invalidation over
other files is an open numba feature (numba PR #8396). The engine's kernels read layout
constants and call each other across modules, so a cache compiled before such a change
would run stale code. Keying the cache folder on a hash of the engine sources makes every
change to them start from a fresh cache.

The folder is ``$HON_ENV_CACHE_DIR`` (default ``$XDG_CACHE_HOME/hon_env``, else
``~/.cache/hon_env``) ``/numba-<hash>``; old folders may be deleted at any time, and
``python -m hon_env.warmup --prune`` deletes every one but this version's
(``prune_other_versions``). A ``NUMBA_CACHE_DIR`` set by the user is left alone (then
keeping it fresh is theirs).

Debug mode (``HON_ENV_DEBUG=1``) compiles the kernels with numba's bounds checking
(``NUMBA_BOUNDSCHECK``, read by numba at compile time) into their own folder,
``numba-<hash>-debug``: numba's cache key does not include that option.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
# first-call compile seconds the progress message quotes, alone on one core and with the
# first run's helper on a second one: "game" is the README quick start on a 2-core machine
# (76 and 51 s, docs/benchmarks.md, "Cold start"), "vector" a vector env's reset and first
# step (76 s helped); the rest is scaled from those, an estimate
COMPILE_SECONDS = {"game": 75, "vector": 120, "rollout": 150}
HELPED_SECONDS = {"game": 50, "vector": 80, "rollout": 100}
_checked: set[str] = set()  # kernels looked up in the cache by this process
# every file numba-compiled code reads constants or calls functions from
ENGINE_SOURCES = ("spec/*.py", "core/*.py")
# the scripted teams' kernels (the ``agents`` package beside this one), which call each
# other across files and share this cache folder
AGENT_SOURCES = ("target_weights.py", "goals.py", "heuristic.py", "coordinated.py", "glory.py",
                 "scripted.py")
# a version's folder under the cache root, plain or debug (``configure_cache``)
VERSION_FOLDER = re.compile(r"numba-[0-9a-f]+(-debug)?")


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


def other_versions(root: Path | None = None, fingerprint: str | None = None) -> list[Path]:
    """The kernel cache folders of other engine versions: every ``numba-<hash>`` folder
    (and ``numba-<hash>-debug``) under ``root`` (default ``cache_root()``) whose hash is not
    ``fingerprint`` (default this engine's). Anything else there is not listed, nor are
    symbolic links."""
    root = cache_root() if root is None else root
    keep = {f"numba-{fingerprint or engine_fingerprint()}{s}" for s in ("", "-debug")}
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir()
                  if VERSION_FOLDER.fullmatch(p.name) and p.name not in keep
                  and p.is_dir() and not p.is_symlink())


def folder_bytes(folder: Path) -> int:
    """The bytes of the files under ``folder`` (links not followed)."""
    total = 0
    for parent, _, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(parent, name)).st_size
            except OSError:  # removed meanwhile
                pass
    return total


def prune_other_versions(root: Path | None = None,
                         fingerprint: str | None = None) -> list[tuple[Path, int]]:
    """Delete the cache folders of other engine versions (``other_versions``; this
    version's folders and everything else under the root stay).

    Returns:
        each folder deleted, with the bytes its files held.
    """
    removed = []
    for folder in other_versions(root, fingerprint):
        size = folder_bytes(folder)
        shutil.rmtree(folder)
        removed.append((folder, size))
    return removed


def compiled_before(kernel: str = "kernels.game_run") -> bool:
    """Does numba's cache folder hold ``kernel`` (``module.function`` of ``hon_env/core``)
    from an earlier run? (numba names its index files ``module.function-line.pyXY.nbi``.)"""
    folder = Path(os.environ.get("NUMBA_CACHE_DIR") or ".")
    return folder.is_dir() and any(folder.glob(f"*/{kernel}-*.nbi"))


def announce_compile(front_end: str, kernel: str, helper: bool = True) -> None:
    """Say on stderr, once per process, that the engine compiles now when ``kernel`` is not
    in the cache yet: the first run of a new engine version is otherwise silent for a
    minute or more. ``front_end`` picks the time quoted (``COMPILE_SECONDS``). With
    ``helper``, a helper process compiles part of it on another core where it can
    (``shared_compile.start_helper``), and the time quoted is ``HELPED_SECONDS``."""
    if kernel in _checked:
        return
    said = "said" in _checked
    _checked.add(kernel)
    if said or compiled_before(kernel):
        return
    _checked.add("said")
    helped = False
    if helper:
        from hon_env.shared_compile import start_helper

        helped = start_helper()
    seconds = (HELPED_SECONDS if helped else COMPILE_SECONDS)[front_end]
    print(f"hon_env: compiling the rules engine, once per version: ~{seconds} s"
          f"{' (two processes)' if helped else ''} (later runs load it from "
          f"{os.environ.get('NUMBA_CACHE_DIR')}){_prune_hint()}",
          file=sys.stderr, flush=True)


def skip_announcement() -> None:
    """Say no first-compile message in this process (a worker whose parent says it)."""
    _checked.add("said")


def _prune_hint() -> str:
    """A sentence naming ``--prune`` when other engine versions' caches take up room."""
    try:
        others = other_versions()
        mb = sum(folder_bytes(f) for f in others) / 1e6
    except OSError:  # an unreadable cache root: no hint rather than no game
        return ""
    if not others:
        return ""
    return (f"; {len(others)} other engine version(s) keep {mb:.0f} MB of kernels in "
            f"{cache_root()}: `python -m hon_env.warmup --prune` deletes them")


def lock_index_updates(folder: str | None = None) -> bool:
    """Make numba's cache index updates in this process exclusive among the processes that
    call this with the same ``folder`` (default ``NUMBA_CACHE_DIR``).

    numba writes each cache file atomically (a temporary file, then ``os.replace``), but it
    adds a compiled version of a function by reading the function's index file, adding an
    entry and writing the index back (``IndexDataCacheFile.save`` in
    ``numba/core/caching.py``, 0.68). Two processes adding versions with different argument
    types at once both read the old index and both pick data file ``.1.nbc``: the index
    keeps one entry and the data file may hold the other's code, which a later process
    would load under the wrong signature. An exclusive ``flock`` on one file in the cache
    folder around that read-modify-write closes it (``python -m hon_env.warmup --jobs``'s
    workers). Processes that do not call this are not covered.

    Returns:
        False where the lock cannot be had (no ``fcntl``, numba's cache internals moved,
        or the folder cannot be written), in which case nothing was changed.
    """
    try:
        import fcntl

        from numba.core.caching import IndexDataCacheFile
    except ImportError:
        return False
    save = getattr(IndexDataCacheFile, "save", None)
    if save is None:
        return False
    if getattr(save, "hon_env_lock", None):
        return True
    lock = Path(folder or os.environ["NUMBA_CACHE_DIR"]) / ".index.lock"
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        lock.touch()
    except OSError:
        return False

    def locked_save(self, key, data):
        with open(lock, "a") as f:
            fcntl.flock(f, fcntl.LOCK_EX)  # released when f closes
            return save(self, key, data)

    locked_save.hon_env_lock = True
    IndexDataCacheFile.save = locked_save
    return True
