"""``scripts/soak.py`` (``make soak``): a few hundred games over a spread of content
combinations end with their figures reported; a broken invariant fails the run."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import pytest  # noqa: E402
import soak  # noqa: E402


def test_combinations_cover_every_pair_size_and_rule_setting():
    from hon_env import list_content

    content = list_content()
    combos = list(soak.combinations(0))
    assert {(c["villain"], c["issue"]) for c in combos} == {
        (v, i) for v in content["villains"] for i in content["issues"]}
    assert {len(c["heroes"]) for c in combos} == set(range(1, 7))
    assert {c["setting"] for c in combos} == set(soak.RULE_SETTINGS)
    every = next(c for c in combos if c["setting"] == "all" and len(c["heroes"]) < 5)
    assert {"allies", "special_minions", "special_bystanders", "crisis_cards",
            "nemeses"} <= set(every["rules"])


def _small_soak(tmp_path, games: int, combinations: int) -> dict:
    out = tmp_path / "soak.json"
    code = soak.main(["--games", str(games), "--combinations", str(combinations),
                      "--batch", "32", "--json", str(out), "--quiet"])
    report = json.loads(out.read_text())
    assert code == 0, report["failures"]
    assert report["games"] == games and report["combinations_played"] == combinations
    assert report["wins"] + report["losses"] + report["truncations"] == games
    assert report["decisions"] > games and report["batched_steps"] > 0
    assert report["invariant_violations"] == report["exceptions"] == 0
    assert report["peak_rss_mib"] >= report["rss_mib_at_end"] > 0
    return report


def test_a_tiny_soak_reports_its_figures(tmp_path, capsys):
    _small_soak(tmp_path, 16, 2)
    assert json.loads(capsys.readouterr().out)["games"] == 16


@pytest.mark.slow
def test_a_few_hundred_games_over_a_spread_of_combinations(tmp_path):
    _small_soak(tmp_path, 300, 14)


def test_a_broken_invariant_fails_the_soak(tmp_path, monkeypatch):
    monkeypatch.setattr(soak, "violations", lambda state, tables, masks: ["made up: games [0]"])
    out = tmp_path / "soak.json"
    code = soak.main(["--games", "20", "--combinations", "2", "--json", str(out), "--quiet"])
    report = json.loads(out.read_text())
    assert code == 1
    assert report["invariant_violations"] == 2
    assert report["failures"][0]["problems"] == ["made up: games [0]"]
