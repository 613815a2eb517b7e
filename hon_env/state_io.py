"""The saved-state format of ``Game.to_bytes`` / ``Game.from_bytes``.

A header, then the state row (``STATE_LEN`` little-endian int32):

    magic        4 bytes   b"HONS"
    version      uint16    FORMAT_VERSION
    reserved     uint16    0
    engine       8 bytes   engine fingerprint (hash of the engine sources)
    scenario     8 bytes   scenario fingerprint (hash of the compiled scenario tables)

A state is only meaningful to the engine that wrote it (the layout, op codes and rules
are the engine's) and to the scenario it was played in (card rows, map, seats), so
``unpack`` refuses a header from another engine or scenario with a ``StateError``. The
headerless row is ``Game.state.tobytes()``; ``Game.from_array`` loads it (validated, but
without these two checks).
"""

from __future__ import annotations

import hashlib
import struct

import numpy as np

from hon_env.content import Scenario
from hon_env.errors import StateError
from hon_env.numba_cache import engine_fingerprint as _hash_engine_sources
from hon_env.spec import layout as L

MAGIC = b"HONS"
FORMAT_VERSION = 1
_HEADER = struct.Struct("<4sHH8s8s")
HEADER_LEN = _HEADER.size  # 24 bytes


def engine_fingerprint() -> str:
    """The running engine's fingerprint (hashed once per process)."""
    global _ENGINE
    if _ENGINE is None:
        _ENGINE = _hash_engine_sources()
    return _ENGINE


_ENGINE: str | None = None


def scenario_fingerprint(scenario: Scenario) -> str:
    """A short hash of the scenario's compiled tables (content, rules, caps, seats)."""
    return hashlib.sha256(scenario.tables.base.tobytes()).hexdigest()[:16]


def pack(state_row: np.ndarray, scenario: Scenario) -> bytes:
    """Header + the ``[STATE_LEN]`` int32 row."""
    row = np.ascontiguousarray(state_row, dtype="<i4")
    return _HEADER.pack(MAGIC, FORMAT_VERSION, 0, bytes.fromhex(engine_fingerprint()),
                        bytes.fromhex(scenario_fingerprint(scenario))) + row.tobytes()


def unpack(data: bytes, scenario: Scenario) -> np.ndarray:
    """The ``[1, STATE_LEN]`` int32 state of ``pack`` output, after checking the header."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"a saved state is bytes, got {type(data).__name__}")
    data = bytes(data)
    want = HEADER_LEN + L.STATE_LEN * 4
    if len(data) < HEADER_LEN or data[:4] != MAGIC:
        hint = (" (a headerless state row: load it with Game.from_array)"
                if len(data) == L.STATE_LEN * 4 else "")
        raise StateError(f"not a saved hon_env state: expected the {MAGIC!r} header and "
                         f"{want} bytes, got {len(data)} bytes starting {data[:4]!r}{hint}")
    _, version, _, engine, scen = _HEADER.unpack_from(data)
    if version != FORMAT_VERSION:
        raise StateError(f"saved state format version {version}; this hon_env reads "
                         f"version {FORMAT_VERSION}")
    if engine.hex() != engine_fingerprint():
        raise StateError(f"saved state comes from another engine version ({engine.hex()}; "
                         f"this one is {engine_fingerprint()}): its layout and rules may "
                         "differ, so it cannot be loaded")
    if scen.hex() != scenario_fingerprint(scenario):
        raise StateError(f"saved state comes from another scenario ({scen.hex()}; "
                         f"'{scenario.id}' with these heroes, rules and caps is "
                         f"{scenario_fingerprint(scenario)}): load it with the scenario and "
                         "overrides it was saved with")
    if len(data) != want:
        raise StateError(f"expected {want} bytes of saved state, got {len(data)}")
    return np.frombuffer(data, "<i4", offset=HEADER_LEN).astype(np.int32).reshape(1, -1)
