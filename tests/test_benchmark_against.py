"""``hon-bench --against REV``: this checkout's engine against a revision's, each measured in
a fresh process of the tree it names, in alternating pairs of CPU time."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from agents.cli.benchmark import main
from agents.cli.benchmark_against import (
    ENCODINGS,
    measure_tree,
    print_against,
    ratios_line,
    resolve_commit,
)

ROOT = Path(__file__).resolve().parents[1]


def test_a_child_measures_the_tree_it_is_given():
    rate = measure_tree(ROOT, None, "origin_story", 8, 3, ENCODINGS["compact"])
    assert rate > 0


def test_a_wall_clock_child_measures_with_every_thread(monkeypatch):
    """``--wall``: the child keeps the caller's numba threads (the one-thread setting is
    only for CPU-time pairs) and still measures the tree it is given."""
    seen = {}
    real_run = subprocess.run

    def run(cmd, **kw):
        seen["threads"] = kw["env"].get("NUMBA_NUM_THREADS")
        seen["code"] = cmd[-1]
        return real_run(cmd, **kw)

    monkeypatch.delenv("NUMBA_NUM_THREADS", raising=False)
    monkeypatch.setattr(subprocess, "run", run)
    assert measure_tree(ROOT, None, "origin_story", 8, 3, ENCODINGS["none"], wall=True) > 0
    assert seen["threads"] is None and seen["code"].rstrip().endswith(", True))")
    assert measure_tree(ROOT, None, "origin_story", 8, 3, ENCODINGS["none"]) > 0
    assert seen["threads"] == "1" and seen["code"].rstrip().endswith(", False))")


def test_a_child_that_imported_another_tree_is_refused(tmp_path):
    # no hon_env in tmp_path: the child falls back to the installed package, which is not
    # the tree it was meant to measure
    with pytest.raises(RuntimeError, match="imported hon_env from"):
        measure_tree(tmp_path, None, "origin_story", 8, 3, ENCODINGS["none"])


def test_a_failed_measurement_says_why():
    with pytest.raises(RuntimeError, match="no_such_option"):
        measure_tree(ROOT, None, "origin_story", 8, 3, {"no_such_option": 1})


def test_a_revision_that_is_no_commit_is_a_usage_error(capsys):
    with pytest.raises(ValueError, match="no commit"):
        resolve_commit(ROOT, "no-such-revision")
    with pytest.raises(SystemExit) as stop:
        main(["--against", "no-such-revision"])
    assert stop.value.code == 2
    assert "no commit" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--against", "HEAD", "--pairs", "0"])
    with pytest.raises(SystemExit) as stop:
        main(["--wall"])
    assert stop.value.code == 2
    assert "--wall changes how --against measures" in capsys.readouterr().err


def test_the_summary_gives_the_median_and_the_range_of_the_pairs():
    assert ratios_line([1.1, 0.9, 1.0]) == ("this tree / base: median 1.000, pairs 0.900 to "
                                            "1.100")


@pytest.mark.slow
def test_against_head_runs_both_trees_and_removes_its_worktree(capsys):
    """Minutes: HEAD's worktree compiles the engine into its own, empty cache."""
    ratios = print_against(ROOT, "HEAD", "origin_story", 8, 3, 1, "none")
    assert len(ratios) == 1 and ratios[0] > 0
    out = capsys.readouterr().out
    assert "| pair 1 |" in out and "median" in out
    worktrees = subprocess.run(["git", "worktree", "list"], cwd=ROOT, capture_output=True,
                               text=True, check=True).stdout
    assert "hon-bench-against-" not in worktrees
