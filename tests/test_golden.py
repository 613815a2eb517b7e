"""Golden replays: recorded seeds and action logs must reproduce the recorded games.

The records live in tests/golden/ and are written by scripts/record_golden.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from record_golden import play  # noqa: E402

FILES = sorted((ROOT / "tests" / "golden").glob("*.json"))


def test_golden_files_exist():
    """Golden records are present (an empty folder would make the replays vacuous)."""
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_replay_matches_record(path):
    """Replaying the recorded actions meets the same decisions and ends in the same state."""
    rec = json.loads(path.read_text())
    case = {k: rec[k] for k in ("name", "scenario", "heroes", "villain", "seed", "policy",
                                        "rules")
            if k in rec}
    got = play(case, actions=rec["actions"])
    assert got["decisions"] == rec["decisions"]
    assert got["final"] == rec["final"]
