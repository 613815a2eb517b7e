"""``hon-bench --out``: a run's tables go into their own section of the page, so a page of
curated measurements keeps everything else."""

from __future__ import annotations

import pytest

from agents.cli.benchmark import RUN_END, RUN_START, merge_run, write_page


def _block(n: int) -> str:
    return f"{RUN_START}\n## run {n}\n| a | b |\n{RUN_END}\n"


def test_a_run_is_appended_to_a_page_then_replaces_only_its_own_section():
    page = "# Benchmarks\n\n## Curated\n\nkept as it is\n"
    once = merge_run(page, _block(1))
    assert once.startswith(page.rstrip("\n")) and once.endswith(_block(1))
    twice = merge_run(once + "\n## Added later\n\nalso kept\n", _block(2))
    assert "## run 1" not in twice and twice.count(RUN_START) == 1
    assert "kept as it is" in twice and twice.endswith("## Added later\n\nalso kept\n")
    assert twice.index("## run 2") < twice.index("## Added later")


def test_no_page_gives_a_new_page_and_a_lone_marker_is_refused():
    assert merge_run(None, _block(1)) == "# Benchmarks\n\n" + _block(1)
    with pytest.raises(ValueError, match="one hon-bench marker"):
        merge_run(f"# B\n{RUN_START}\nhalf a block\n", _block(1))


def test_write_page_keeps_the_rest_of_the_file(tmp_path):
    out = tmp_path / "benchmarks.md"
    out.write_text("# Benchmarks\n\n## v8 on a quiet machine\n\n| row | 1 |\n")
    for _ in range(2):
        write_page(out, "| front end | decisions/s |\n|---|---|\n| x | 1 |", 3.0, 1.5,
                   2048, 100.0)
    text = out.read_text()
    assert "## v8 on a quiet machine\n\n| row | 1 |" in text
    assert text.count("## The latest `hon-bench` run") == 1 and "| x | 1 |" in text
