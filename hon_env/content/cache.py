"""Work done once per process: each YAML file parsed once, each scenario compiled once.

- ``parsed_once`` wraps a ``parse_<kind>(path)`` function: its result is kept per file and
  reused while the file's stamp (modification time in ns, size) is unchanged; a changed
  file is read again. Results are frozen dataclasses, so sharing them is safe. A file
  modified less than ``RACY_NS`` before it was read may change again without its stamp
  changing (coarse file-system clocks): its contents are compared by hash instead, as git
  does for "racily clean" files.
- ``recording()`` collects the files (and folders listed) that a load reads, with their
  stamps and a hash of their contents: ``load_scenario`` keys its cache on them.
- ``ScenarioCache``: a compiled ``Scenario`` per (scenario file, content folder,
  overrides), returned again while none of the files it was built from changed; a rebuilt
  one whose files and overrides hash as an earlier one returns that object (same content,
  same ``Scenario``).

``clear()`` forgets everything (tests that edit content files in place use it or rely on
the stamps).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
Stamp = tuple[int, int]  # (mtime_ns, size) of a file or folder
Dep = tuple["Stamp | None", str, int]  # (stamp, content hash, time.time_ns() of the stamp)

_PARSED: dict[tuple[str, Path], tuple[Dep, Any]] = {}
_RECORDERS: list[dict[Path, Dep]] = []
RACY_NS = 2_000_000_000  # stamps this close to their reading are checked by content
MAX_SCENARIOS = 256  # compiled scenarios kept (least recently used dropped first)


def stamp(path: Path) -> Stamp | None:
    """(mtime_ns, size) of ``path``; None when it no longer exists."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def _digest(path: Path) -> str:
    try:
        data = path.read_bytes() if path.is_file() else "\n".join(
            sorted(p.name for p in path.glob("*.yaml"))).encode()
    except OSError:
        return ""
    return hashlib.sha256(data).hexdigest()


def unchanged(path: Path, dep: Dep) -> bool:
    """``path`` still has the stamp (and, for a racy stamp, the contents) of ``dep``."""
    at, digest, taken = dep
    if at is None or stamp(path) != at:
        return False
    return at[0] < taken - RACY_NS or _digest(path) == digest


def _record(path: Path, dep: Dep) -> None:
    for deps in _RECORDERS:
        deps[path] = dep


def parsed_once(parse: Callable[[Path], T]) -> Callable[[Path], T]:
    """``parse`` with its result kept per file while the file is unchanged."""

    @functools.wraps(parse)
    def cached(path: Path) -> T:
        real = Path(path).resolve()
        hit = _PARSED.get((parse.__name__, real))
        if hit is not None and unchanged(real, hit[0]):
            _record(real, hit[0])
            return hit[1]
        # the stamp is taken before reading: a file changed meanwhile is read again
        taken, at = time.time_ns(), stamp(real)
        result = parse(path)  # errors are not cached: a fixed file is read again
        dep = (at, _digest(real), taken)
        _PARSED[(parse.__name__, real)] = (dep, result)
        _record(real, dep)
        return result

    return cached


def record_listing(folder: Path, names: list[str]) -> None:
    """Note that a load depended on the file names in ``folder`` (e.g. every nemesis)."""
    folder = folder.resolve()
    taken, at = time.time_ns(), stamp(folder)
    _record(folder, (at, hashlib.sha256("\n".join(names).encode()).hexdigest(), taken))


@contextlib.contextmanager
def recording() -> Iterator[dict[Path, Dep]]:
    """Collect ``{path: (stamp, content hash, when)}`` of everything read in the block."""
    deps: dict[Path, Dep] = {}
    _RECORDERS.append(deps)
    try:
        yield deps
    finally:
        _RECORDERS.remove(deps)


def freeze(value: Any) -> Any:
    """A hashable key for an override value, types included (``True`` is not ``1``)."""
    if isinstance(value, Mapping):
        return ("map", tuple(sorted(((freeze(k), freeze(v)) for k, v in value.items()),
                                    key=repr)))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(freeze(v) for v in value))
    hash(value)  # TypeError for anything else unhashable: the caller does not cache
    return (type(value).__name__, value)


class ScenarioCache:
    """Compiled scenarios by key, checked against the stamps of the files they came from."""

    def __init__(self) -> None:
        self._by_key: OrderedDict[Any, tuple[dict[Path, Dep], Any]] = OrderedDict()
        self._by_digest: dict[str, Any] = {}

    def get(self, key: Any) -> Any | None:
        """The scenario stored under ``key`` if none of its files changed, else None."""
        hit = self._by_key.get(key)
        if hit is None:
            return None
        deps, scenario = hit
        if not all(unchanged(path, dep) for path, dep in deps.items()):
            return None
        self._by_key.move_to_end(key)
        return scenario

    def put(self, key: Any, deps: dict[Path, Dep], scenario: T) -> T:
        """Store ``scenario``; returns the earlier object when the same content made one."""
        digest = hashlib.sha256(repr((key, sorted(
            (str(p), d) for p, (_, d, _) in deps.items()))).encode()).hexdigest()
        scenario = self._by_digest.setdefault(digest, scenario)
        self._by_key[key] = (dict(deps), scenario)
        self._by_key.move_to_end(key)
        while len(self._by_key) > MAX_SCENARIOS:
            self._by_key.popitem(last=False)
        if len(self._by_digest) > 4 * MAX_SCENARIOS:
            self._by_digest.clear()
        return scenario

    def clear(self) -> None:
        self._by_key.clear()
        self._by_digest.clear()


SCENARIOS = ScenarioCache()


def clear() -> None:
    """Forget every parsed file and compiled scenario."""
    _PARSED.clear()
    SCENARIOS.clear()
