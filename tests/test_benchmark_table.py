"""The benchmark table (docs/benchmark.md) is generated from the result files it cites."""

from __future__ import annotations

import json

import pytest

from agents.cli.benchmark_table import (
    OUT,
    RESULTS,
    cell,
    load_results,
    main,
    render,
    steps_note,
    table_block,
    training_note,
    verdict,
)
from agents.stats import iqm


def _result(task: str, win_rate: float, games: int = 1000) -> dict:
    wins = round(win_rate * games)
    return {"task": task, "games": games, "wins": wins, "win_rate": wins / games,
            "ci_low": 0.0, "ci_high": 1.0}


def test_committed_table_matches_the_committed_results():
    assert table_block(OUT) == render(load_results(RESULTS))
    main(["--check"])


def test_seeded_cells_aggregate_with_iqm_and_seedless_cells_keep_wilson(tmp_path):
    rates = [0.2, 0.5, 0.6, 0.7, 0.9]
    for s, r in enumerate(rates, 1):
        (tmp_path / "duo").mkdir(exist_ok=True)
        (tmp_path / "duo" / f"mappo_s{s}.json").write_text(json.dumps(_result("duo", r)))
    (tmp_path / "duo" / "per_hero.json").write_text(json.dumps(_result("duo", 0.25)))
    res = load_results(tmp_path)
    assert sorted(res) == [("duo", "mappo"), ("duo", "per_hero")]
    assert cell(res["duo", "mappo"]).startswith(f"{iqm(rates):.3f} [")
    assert cell(res["duo", "mappo"]).endswith("5 seeds")
    assert cell(res["duo", "per_hero"]) == "0.250 [0.000, 1.000]"
    res["duo", "mappo"] = res["duo", "mappo"][:3]
    assert "only 3 seeds" in cell(res["duo", "mappo"])
    table = render(res)
    duo = table.split("**`duo`**", 1)[1].split("**`", 1)[0]
    assert "| mappo |" in duo and "| not run |" in table.split("**`solo`**", 1)[1]
    assert duo.index("| mappo |") < duo.index("| per_hero |")


def test_rows_show_their_prior_knowledge(tmp_path):
    """A row's algorithm, network, kickstart and reward come from its training entries."""
    (tmp_path / "duo").mkdir()
    for s in (1, 2):
        data = _result("duo", 0.5)
        data["training"] = {"algo": "mappo", "network": "entity", "kickstart": "none",
                            "reward": "sparse", "seed": s, "steps": 2_000_000,
                            "steps_per_s": 5000, "wall_s": 400.0, "machine": "here",
                            "command": "hon-train --task duo --seed S --network entity"}
        (tmp_path / "duo" / f"mappo_entity_s{s}.json").write_text(json.dumps(data))
    table = render(load_results(tmp_path))
    assert "| mappo_entity | mappo | entity | none | sparse | 2.0M |" in table


def test_prior_knowledge_names_the_kickstart_and_the_warm_start():
    """``benchmark_run`` labels a run by what its config gave it besides the game."""
    from agents.cli.benchmark_run import prior_knowledge

    shaped = {"reward_shaping": {"schemes_solved": 0.2}}
    assert prior_knowledge({"kickstart_coef": 2.0, **shaped}) == {
        "kickstart": "coordinated", "reward": "shaped"}
    assert prior_knowledge({"kickstart_coef": 0, "pretrain_steps": 1_000_000,
                            "reward_shaping": {}})["kickstart"] == "clone 1M"
    assert prior_knowledge({"kickstart_coef": 2.0, "pretrain_steps": 500_000})[
        "kickstart"] == "coordinated + clone 0.5M"
    assert prior_knowledge({"kickstart_coef": 0, "reward_shaping": {"crises": 0}}) == {
        "kickstart": "none", "reward": "sparse"}


@pytest.mark.parametrize("name, data, match", [
    ("mappo_s1.json", _result("solo", 0.5), "holds task 'solo', not 'duo'"),
    ("mappo_s1.json", _result("duo", 0.5, games=200), "200 games"),
    ("Bad Name.json", _result("duo", 0.5), "expected <algo>.json"),
])
def test_bad_result_files_are_refused(tmp_path, name, data, match):
    (tmp_path / "duo").mkdir()
    (tmp_path / "duo" / name).write_text(json.dumps(data))
    with pytest.raises(ValueError, match=match):
        load_results(tmp_path)


def test_main_refuses_a_file_without_the_table_block(tmp_path):
    out = tmp_path / "b.md"
    out.write_text("no block here")
    with pytest.raises(SystemExit, match="no <!-- table:begin -->"):
        main(["--results", str(tmp_path), "--out", str(out)])


def test_curves_of_the_committed_runs_read_and_plot(tmp_path):
    """Every committed run's curves load (evaluation, and training episodes where kept) and
    ``scripts/plot_curves.py`` draws a task's seeds."""
    import importlib.util

    root = RESULTS.parents[1]
    spec = importlib.util.spec_from_file_location("plot_curves",
                                                  root / "scripts" / "plot_curves.py")
    plot_curves = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plot_curves)
    runs = sorted(p for p in (root / "docs" / "curves").iterdir() if p.is_dir())
    assert runs
    for run in runs:
        ev = plot_curves.read_eval(run)
        assert (ev["step"] > 0).all() and ((0 <= ev["trained_win_rate"]) &
                                           (ev["trained_win_rate"] <= 1)).all()
        tr = plot_curves.read_train(run)
        if tr is not None:
            assert (tr["step"] >= 0).all() and tr["step"][-1] >= ev["step"][-1]
    solo = [r for r in runs if r.name.startswith("solo_mappo_s")]
    assert len(solo) == 5 and all(plot_curves.read_train(r) is not None for r in solo)
    out = tmp_path / "solo.png"
    plot_curves.plot(solo, out, "solo")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    kick, rasa = ([r for r in runs if r.name.startswith(f"trio_mappo_{row}s")]
                  for row in ("", "tabula_rasa_"))
    assert kick and rasa
    both = tmp_path / "both.png"
    plot_curves.plot_groups([("kickstarted", kick), ("tabula rasa", rasa)], both, "trio")
    assert both.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError, match="at least one run"):
        plot_curves.plot_groups([("nothing", [])], tmp_path / "x.png", "solo")


def test_scoreboard_rows_say_commit_author_and_reproduction(tmp_path):
    """Scoreboard rules (docs/benchmark.md): a row names the commit it trained at and who
    ran it; an outside result is "unverified" until its command reproduced it."""
    (tmp_path / "duo").mkdir()

    def write(row: str, seed: int, by: str | None, reproduced: dict | None) -> None:
        data = _result("duo", 0.5)
        data["training"] = {"algo": "mappo", "steps": 2_000_000, "steps_per_s": 1,
                            "wall_s": 1.0, "machine": "here", "command": "hon-train",
                            "commit": "abc1234", **({"by": by} if by else {})}
        if reproduced is not None:
            data["reproduced"] = reproduced
        (tmp_path / "duo" / f"{row}_s{seed}.json").write_text(json.dumps(data))

    write("mappo", 1, None, {"match": True, "win_rate": 0.49})
    write("mappo", 2, None, {"match": True, "win_rate": 0.52})
    write("mine", 1, "a lab", None)
    write("ours", 1, None, None)
    write("ours", 2, None, {"match": False, "win_rate": 0.1})
    write("half", 1, None, {"match": True, "win_rate": 0.5})
    write("half", 2, None, None)
    table = render(load_results(tmp_path))
    assert table.split("| half |", 1)[1].split("\n")[0].endswith("| 1 of 2 seeds |")
    assert "| abc1234 | hon_env | yes |" in table.split("| mappo |", 1)[1].split("\n")[0]
    assert table.split("| mine |", 1)[1].split("\n")[0].endswith("| a lab | unverified |")
    assert table.split("| ours |", 1)[1].split("\n")[0].endswith("| differs |")


def test_check_fails_on_a_stale_table(tmp_path):
    (tmp_path / "duo").mkdir()
    (tmp_path / "duo" / "per_hero.json").write_text(json.dumps(_result("duo", 0.25)))
    out = tmp_path / "b.md"
    out.write_text("x\n<!-- table:begin -->\nold\n<!-- table:end -->\n")
    with pytest.raises(SystemExit, match="differs"):
        main(["--results", str(tmp_path), "--out", str(out), "--check"])
    main(["--results", str(tmp_path), "--out", str(out)])
    main(["--results", str(tmp_path), "--out", str(out), "--check"])


def test_at_a_glance_names_each_tasks_best_row_of_five_seeds_against_the_script(tmp_path):
    """The summary takes, among rows of at least 5 seeds (a 3-seed row with a higher IQM
    does not count), the highest low end of the IQM's interval (a row with a higher IQM
    and one collapsed seed does not win) and compares intervals with the coordinated
    team."""
    (tmp_path / "duo").mkdir()
    rows = {"mappo": [0.80, 0.82, 0.84, 0.86, 0.88], "ippo": [0.6, 0.62, 0.64, 0.66, 0.68],
            "mappo_lucky": [0.99, 0.99, 0.99], "mappo_risky": [0.93, 0.92, 0.01, 0.91, 0.94]}
    for row, rates in rows.items():
        for s, r in enumerate(rates, 1):
            (tmp_path / "duo" / f"{row}_s{s}.json").write_text(json.dumps(_result("duo", r)))
    coordinated = _result("duo", 0.5) | {"ci_low": 0.47, "ci_high": 0.53}
    (tmp_path / "duo" / "coordinated.json").write_text(json.dumps(coordinated))
    summary = render(load_results(tmp_path)).split("**`")[0]
    duo = next(line for line in summary.splitlines() if line.startswith("| `duo` |"))
    assert duo.startswith("| `duo` | mappo | ") and duo.endswith("| above |")
    assert "| `solo` | not run |" in summary
    assert verdict(0.2, 0.4, 0.45, 0.6) == "below"
    assert verdict(0.2, 0.5, 0.45, 0.6).startswith("level")
    assert verdict(0.61, 0.7, 0.45, 0.6) == "above"


def test_training_note_names_each_budget_and_machine_once():
    """Seeds of one budget stop a few thousand steps apart (at an update's end): one
    "2.0M"; seeds run on two machines name both, each once."""
    def run(steps: int, machine: str) -> dict:
        return {"training": {"steps": steps, "wall_s": 600.0, "steps_per_s": 3000.0,
                             "machine": machine}}

    runs = [run(2_001_000, "A"), run(2_005_524, "B"), run(2_003_000, "A")]
    assert steps_note(runs) == "2.0M"
    assert training_note(runs) == "2.0M steps, 3,000 steps/s, 10.0 min per seed on A and B"
    assert steps_note(runs + [run(5_013_504, "A")]) == "2.0M/5.0M"
    assert steps_note([{"training": None}]) == "-" and training_note([]) == ""
