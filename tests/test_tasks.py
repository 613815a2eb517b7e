"""Named benchmark tasks: every task loads, its seeds are fixed and disjoint from the
training seeds, bad task files are refused naming the file and field, and a policy that
ignores its observation does not beat random on any task family."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.controls import FixedObservationPolicy
from agents.evaluation import evaluate
from agents.random_agent import RandomPolicy
from agents.scripted import CoordinatedPolicy
from hon_env import N_ACTIONS, ContentError
from hon_env.core.observe import OBS_DIM
from hon_env.tasks import (
    EVAL_SEED_BASE,
    FAMILIES,
    TASKS_DIR,
    TRAIN_SEED_LIMIT,
    Task,
    check_train_seed,
    get_task,
    list_tasks,
)

ROOT = Path(__file__).resolve().parents[1]


def test_every_task_loads_with_disjoint_seed_sets():
    """Each task compiles both splits; its 1,000 evaluation seeds lie at or above 10**9,
    where no training seed may go."""
    names = list_tasks()
    assert {"solo", "duo", "trio", "quartet", "nemeses", "modules", "transfer"} <= set(names)
    for name in names:
        task = get_task(name)
        assert isinstance(task, Task) and task.name == name
        assert task.eval_games == 1000
        seeds = task.eval_seeds
        assert min(seeds) >= EVAL_SEED_BASE >= TRAIN_SEED_LIMIT
        assert len(set(seeds)) == task.eval_games
        assert set(seeds).isdisjoint(range(TRAIN_SEED_LIMIT - 5000, TRAIN_SEED_LIMIT))
        assert task.scenario("eval").n_heroes == len(task.heroes)
        assert task.scenario("train").n_heroes == len(task.heroes)
        assert task.step_budget > 0 and task.metric == "win_rate"
        with pytest.raises(dataclasses.FrozenInstanceError):
            task.name = "x"


def test_task_families_and_sizes_are_covered():
    """One task per team size 1-4, a 5-6 hero task with nemeses, one with optional modules
    and a transfer task whose training pair differs from its evaluation pair."""
    tasks = [get_task(n) for n in list_tasks()]
    sizes = {len(t.heroes) for t in tasks if t.family == "team_size"}
    assert {1, 2, 3, 4} <= sizes
    assert {t.family for t in tasks} == set(FAMILIES)
    big = [t for t in tasks if t.family == "nemeses"]
    assert big and all(len(t.heroes) >= 5 for t in big)
    assert all(t.scenario().n_nemeses >= 1 for t in big)
    mods = [t for t in tasks if t.family == "modules"][0]
    assert mods.rules["special_minions"] and mods.rules["crisis_cards"]
    tr = [t for t in tasks if t.family == "transfer"][0]
    assert tr.is_transfer and (tr.train_villain, tr.train_issue) != (tr.villain, tr.issue)
    assert all(not t.is_transfer for t in tasks if t.family != "transfer")


def test_training_seed_check():
    check_train_seed(0, 1000)
    check_train_seed(TRAIN_SEED_LIMIT - 10, 10)
    with pytest.raises(ValueError, match="evaluation seeds"):
        check_train_seed(TRAIN_SEED_LIMIT - 10, 11)
    with pytest.raises(ValueError):
        check_train_seed(-1)


def _copy_tasks(tmp_path: Path) -> Path:
    out = tmp_path / "tasks"
    shutil.copytree(TASKS_DIR, out)
    return out


@pytest.mark.parametrize("old,new,field", [
    ("family: team_size", "family: teams", "family"),
    ("villain: refuser", "villain: nobody", "villain"),
    ("step_budget: 5000000", "step_budget: 0", "step_budget"),
    ("heroes: [majesty, stride]", "heroes: [majesty, strider]", "heroes[1]"),
    ("step_budget: 5000000", "step_budget: 5000000\nseeds: 3", "seeds"),
])
def test_bad_task_files_name_file_and_field(tmp_path, old, new, field):
    root = _copy_tasks(tmp_path)
    path = root / "duo.yaml"
    path.write_text(path.read_text().replace(old, new))
    with pytest.raises(ContentError) as e:
        get_task("duo", root)
    assert e.value.field == field and "duo.yaml" in e.value.file


def test_bad_rules_and_unknown_task(tmp_path):
    root = _copy_tasks(tmp_path)
    path = root / "duo.yaml"
    path.write_text(path.read_text() + "rules: {allies: [nobody]}\n")
    with pytest.raises(ContentError, match="duo.yaml.*does not load"):
        get_task("duo", root)
    with pytest.raises(ValueError, match="unknown task 'nope'"):
        get_task("nope")
    with pytest.raises(TypeError, match="a task is named by a string"):
        get_task(None)
    for call in (list_tasks, lambda d: get_task("duo", d)):  # not a folder: no silent []
        with pytest.raises(ValueError, match="is not a folder"):
            call(tmp_path / "nope")
    tr = root / "transfer.yaml"
    tr.write_text(tr.read_text().replace("train: {villain: dowager, issue: century_heist}",
                                         "train: {villain: refuser, issue: rooftop_relay}"))
    with pytest.raises(ContentError, match="another villain x issue"):
        get_task("transfer", root)


@pytest.mark.parametrize("family", FAMILIES)
def test_fixed_observation_control_does_not_beat_random(family):
    """A fixed random-weight actor fed one constant observation (acting only through the
    mask) wins no more than random play on the first evaluation games of a task of each
    family: the tasks cannot be won without reading the game."""
    task = next(get_task(n) for n in list_tasks() if get_task(n).family == family)
    pool = task.pool()
    kw = dict(scenario=pool if len(pool) > 1 else pool[0], games=48, seed=task.eval_seed,
              batch=48)
    control = evaluate(FixedObservationPolicy(seed=0), **kw)
    rand = evaluate(RandomPolicy(0), **kw)
    assert control.ci_low <= rand.ci_high
    assert control.win_rate <= 0.05


def test_fixed_observation_policy_ignores_observations():
    """Two different observations with the same mask give the same action, always legal."""
    pol = FixedObservationPolicy(seed=3)
    rng = np.random.default_rng(0)
    masks = (rng.random((8, N_ACTIONS)) < 0.1).astype(np.int8)
    masks[:, 0] = 1
    a = pol.act(rng.random((8, OBS_DIM), dtype=np.float32), masks, np.zeros(8, np.int64))
    b = pol.act(rng.random((8, OBS_DIM), dtype=np.float32), masks, np.zeros(8, np.int64))
    np.testing.assert_array_equal(a, b)
    assert masks[np.arange(8), a].all()


def test_evaluate_script_runs_a_task():
    """``scripts/evaluate.py --task duo`` plays the task's first evaluation games."""
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "evaluate.py"), "--task", "duo",
                          "--policy", "random", "--games", "4"], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout
    assert "task duo (team_size)" in out and "seeds 1000000000+" in out
    assert "over 4 evaluation games" in out


def test_a_generalist_task_holds_its_evaluation_teams_out_of_training():
    """``generalist_duo``: training draws a team per game from every pair of heroes but the
    evaluation pairs; evaluation plays only those, each game's team fixed by its seed."""
    task = get_task("generalist_duo")
    held_out = {frozenset(t) for t in task.eval_teams}
    trained = {frozenset(t) for t in task.train_teams}
    assert held_out and trained and not held_out & trained
    assert frozenset(task.heroes) in trained  # the fixed-team baseline trains on one of them
    assert len(trained | held_out) == 21  # every pair of the seven heroes
    pool = task.pool("eval")
    assert [s.hero_ids for s in pool] == [tuple(t) for t in task.eval_teams]
    assert len(task.pool("train")) == len(task.train_teams)
    team = CoordinatedPolicy()  # deterministic per game: the batch split changes nothing
    r = evaluate(team, scenario=pool, games=8, seed=task.eval_seed, batch=3)
    assert r.games == 8 and r.heroes == tuple("+".join(t) for t in task.eval_teams)
    again = evaluate(team, scenario=pool, games=8, seed=task.eval_seed, batch=8)
    assert again.wins == r.wins and again.mean_rounds == r.mean_rounds


@pytest.mark.parametrize("old,new,message", [
    ("train: all", "train: [[majesty, stride], [vigil, cipher]]", "also an evaluation team"),
    ("train: all", "train: [[vigil, stride]]", "fixed team must be one of the training"),
    ("[vigil, cipher], ", "[vigil, vigil], ", "different heroes"),
    ("family: generalist", "family: team_size", "generalist task, and only one"),
])
def test_bad_generalist_tasks_are_refused(tmp_path, old, new, message):
    _refused(tmp_path, "generalist_duo", old, new, message)


def test_a_generalist_board_task_holds_its_evaluation_board_out_of_training():
    """``generalist_board``: training draws a villain x issue pair per game from three
    issues, evaluation plays every villain on the fourth issue only."""
    task = get_task("generalist_board")
    train_issues = {i for _, i in task.train_boards}
    eval_issues = {i for _, i in task.eval_boards}
    assert len(train_issues) == 3 and eval_issues == {"rooftop_relay"}
    assert not train_issues & eval_issues
    pool = task.pool("train")
    assert {(s.villain_id, s.issue_id) for s in pool} == set(task.train_boards)
    assert all(s.hero_ids == task.heroes for s in pool)
    evals = task.pool("eval")
    assert {(s.villain_id, s.issue_id) for s in evals} == set(task.eval_boards)
    r = evaluate(CoordinatedPolicy(), scenario=evals, games=6, seed=task.eval_seed)
    assert r.games == 6


@pytest.mark.parametrize("old,new,message", [
    ("train: [century_heist,", "train: [rooftop_relay, century_heist,",
     "also an evaluation board"),
    ("eval: [rooftop_relay]", "eval: []", "at least one issue"),
    ("eval: [rooftop_relay]", "eval: [rooftop_relay, rooftop_relay]", "twice"),
    ("eval: [rooftop_relay]", "eval: [nowhere]", "nowhere"),
    ("issue: rooftop_relay", "issue: century_heist", "one of the evaluation boards"),
    ("family: generalist", "family: nemeses", "generalist task, and only one"),
])
def test_bad_generalist_board_tasks_are_refused(tmp_path, old, new, message):
    _refused(tmp_path, "generalist_board", old, new, message)


@pytest.mark.parametrize("old,new,message", [
    ("team: 3", "team: 7", "team must lie in"),
    ("team: 3", "team: three", "whole number"),
    ("team: 3", "teams: 3", "teams"),
])
def test_bad_procgen_knobs_in_a_task_are_refused(tmp_path, old, new, message):
    _refused(tmp_path, "procgen_trio", old, new, message)


def _refused(tmp_path, name, old, new, message):
    """Task ``name`` with ``old`` replaced by ``new`` fails to load with ``message``."""
    root = _copy_tasks(tmp_path)
    path = root / f"{name}.yaml"
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new))
    with pytest.raises(ContentError, match=message):
        get_task(name, root)
