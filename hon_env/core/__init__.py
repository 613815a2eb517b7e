"""The batched rules engine: numba kernels over a ``[B, STATE_LEN]`` int32 state.

Numba's on-disk cache is keyed on each function's own source file, but the kernels also
bake in constants imported from other modules (the state layout, table columns, op
codes). Before any kernel module is imported we hash the engine's sources and drop the
cache when that hash changed, so an edit to a shared constant never runs stale code.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_SOURCES = sorted(_HERE.glob("*.py")) + [_HERE.parent / "content" / "tables.py",
                                         _HERE.parent / "content" / "ops.py"]


def _ensure_fresh_cache() -> None:
    digest = hashlib.sha256()
    for path in _SOURCES:
        digest.update(path.read_bytes())
    stamp_dir = _HERE / "__pycache__"
    stamp = stamp_dir / "engine_sources.sha256"
    current = digest.hexdigest()
    try:
        if stamp.read_text() == current:
            return
    except OSError:
        pass
    try:
        stamp_dir.mkdir(exist_ok=True)
        for cached in list(stamp_dir.glob("*.nbi")) + list(stamp_dir.glob("*.nbc")):
            cached.unlink(missing_ok=True)
        stamp.write_text(current)
    except OSError:
        pass  # read-only install: numba then compiles in memory or in its own cache dir


_ensure_fresh_cache()
