"""scripts/balance.py: the team choice and a tiny end-to-end run of the report."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from hon_env import list_content

ROOT = Path(__file__).resolve().parents[1]


def _balance():
    spec = importlib.util.spec_from_file_location("balance", ROOT / "scripts" / "balance.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["balance"] = mod  # dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


def test_teams_are_fixed_distinct_and_deterministic():
    """Every size gets the issue's fixed team first and two other distinct teams of
    distinct heroes, the same on every call."""
    balance = _balance()
    heroes = list_content()["heroes"]
    for size in range(1, 7):
        teams = balance.teams_for(size, heroes)
        assert teams[0] == balance.FIXED_ORDER[:size]
        assert len(teams) == 3 and len(set(teams)) == 3
        assert all(len(set(t)) == size for t in teams)
        assert teams == balance.teams_for(size, heroes)
        assert balance.teams_for(size, heroes, "fixed") == teams[:1]
    with pytest.raises(ValueError, match="team size 8"):
        balance.teams_for(8, heroes)


def test_balance_smoke_writes_the_report_and_heatmap(tmp_path):
    """Two games per cell on one pair and two team sizes: the report holds the table with
    Wilson intervals, random play, loss reasons and the heatmap it links."""
    balance = _balance()
    out, img = tmp_path / "balance.md", tmp_path / "img" / "heat.png"
    balance.main(["--games", "2", "--sizes", "1", "2", "--villains", "dowager",
                  "--issues", "century_heist", "--teams", "fixed", "--out", str(out),
                  "--image", str(img)])
    text = out.read_text()
    assert img.stat().st_size > 1000
    assert "](img/heat.png)" in text
    assert "| dowager × century_heist |" in text
    assert text.count("[") >= 2  # win rates with intervals
    assert "## Random play" in text and "losses by reason" in text
    assert "--games 2" in text


def test_two_fronts_pairs_and_band():
    """``--two-fronts``: every ordered pair of different villains, played as both (the
    label maps back to the ``villain`` list), and one band [0.15, 0.60] for every size."""
    from agents.evaluation import villain_option

    balance = _balance()
    pairs = balance.villain_pairs(["dowager", "refuser"])
    assert pairs == ["dowager+refuser", "refuser+dowager"]
    assert [villain_option(p) for p in pairs] == [["dowager", "refuser"], ["refuser", "dowager"]]
    assert villain_option("dowager") == "dowager"
    assert balance.in_band(4, 0.15, two_fronts=True) and not balance.in_band(4, 0.14, True)
    assert balance.in_band(4, 0.70) and not balance.in_band(4, 0.70, two_fronts=True)
