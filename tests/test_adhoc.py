"""Ad-hoc teamwork tasks (agents/adhoc.py): the tasks load and refuse bad partner splits,
each game's partner is a function of its seed that covers the split, evaluation plays the
held-out partners only and training the training ones only, the normalised score, and a
smoke training run."""

from __future__ import annotations

import csv
import json
import math
import shutil

import numpy as np
import pytest

import agents.zoo as zoo
from agents.adhoc import (
    AdhocResult,
    AdhocScore,
    evaluate_adhoc,
    normalised_score,
    partner_index,
    partner_league,
)
from agents.scripted import CoordinatedPolicy
from agents.training.league import League
from agents.zoo import list_members
from hon_env import ContentError
from hon_env.spec import layout as L
from hon_env.tasks import EVAL_SEED_BASE, TASKS_DIR, ZOO_SPLITS, get_task

TRAIN, HELDOUT = set(list_members("train")), set(list_members("heldout"))


# --- the tasks -------------------------------------------------------------------------------

@pytest.mark.parametrize("name,base", [("adhoc_duo", "duo"), ("adhoc_trio", "trio")])
def test_adhoc_tasks_load_with_the_base_tasks_game(name, base):
    task, same = get_task(name), get_task(base)
    assert task.family == "adhoc" and task.is_adhoc and not same.is_adhoc
    assert (task.heroes, task.villain, task.issue) == (same.heroes, same.villain, same.issue)
    assert task.partner_split("train") == "train" and task.partner_split("eval") == "heldout"
    with pytest.raises(ValueError, match="no partners"):
        same.partner_split()


def test_the_task_vocabulary_of_zoo_splits_is_the_zoos():
    assert ZOO_SPLITS == zoo.SPLITS


@pytest.mark.parametrize("old,new,field,message", [
    ("partners: {train: train, eval: heldout}", "partners: {train: heldout, eval: train}",
     "partners.train", "evaluation only"),
    ("partners: {train: train, eval: heldout}", "partners: {train: train, eval: train}",
     "partners.eval", "held out"),
    ("partners: {train: train, eval: heldout}", "partners: {train: train, eval: hidden}",
     "partners.eval", "not one of"),
    ("partners: {train: train, eval: heldout}", "partners: {train: train}",
     "partners.eval", "missing"),
    ("partners: {train: train, eval: heldout}\n", "", "partners", "adhoc task, and only"),
    ("heroes: [majesty, stride]", "heroes: [majesty]", "heroes", "at least two heroes"),
])
def test_bad_partner_splits_name_file_and_field(tmp_path, old, new, field, message):
    root = tmp_path / "tasks"
    shutil.copytree(TASKS_DIR, root)
    path = root / "adhoc_duo.yaml"
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new))
    with pytest.raises(ContentError, match=message) as e:
        get_task("adhoc_duo", root)
    assert e.value.field == field and "adhoc_duo.yaml" in e.value.file


def test_partners_on_another_family_are_refused(tmp_path):
    root = tmp_path / "tasks"
    shutil.copytree(TASKS_DIR, root)
    path = root / "duo.yaml"
    path.write_text(path.read_text() + "partners: {train: train, eval: heldout}\n")
    with pytest.raises(ContentError, match="adhoc task, and only"):
        get_task("duo", root)


# --- the draw --------------------------------------------------------------------------------

def test_partner_draw_is_a_function_of_the_seed_and_covers_the_split():
    seeds = np.arange(EVAL_SEED_BASE, EVAL_SEED_BASE + 1000)
    n = len(HELDOUT)
    first = partner_index(seeds, n)
    assert np.array_equal(first, partner_index(seeds, n))
    assert np.array_equal(first[::-1], partner_index(seeds[::-1], n))  # per seed, not order
    counts = np.bincount(first, minlength=n)
    assert counts.min() > 1000 / n / 2, counts  # every partner, none starved
    assert np.array_equal(partner_index(seeds[[5, 7]], n), first[[5, 7]])
    train = partner_index(np.arange(0, 5000), len(TRAIN))
    assert set(train.tolist()) == set(range(len(TRAIN)))


def test_evaluation_partners_do_not_depend_on_the_batch_or_the_policy():
    task = get_task("adhoc_duo")
    a = evaluate_adhoc(CoordinatedPolicy(), task, games=8, batch=8)
    b = evaluate_adhoc(CoordinatedPolicy(), task, games=8, batch=3)
    assert np.array_equal(a.partner, b.partner)
    # a noisy member's generator serves its whole batch: its games depend on the batching;
    # the other partners play the same games whatever the batch
    fixed = np.array([zoo.member(a.partners[k]).kind != "noisy" for k in a.partner])
    assert fixed.any() and np.array_equal(a.outcome[fixed], b.outcome[fixed])
    expected = partner_index(np.arange(task.eval_seed, task.eval_seed + 8), len(HELDOUT))
    assert np.array_equal(a.partner, expected)
    assert a.partners == list_members("heldout") and a.zoo_split == "heldout"


def test_one_partner_plays_both_other_seats_of_adhoc_trio(monkeypatch):
    seats = set()
    real_act = League.act

    def act(self, games, obs, masks, seat, engine=None):
        seats.update(np.asarray(seat).tolist())
        return real_act(self, games, obs, masks, seat, engine)

    monkeypatch.setattr(League, "act", act)
    r = evaluate_adhoc(CoordinatedPolicy(), get_task("adhoc_trio"), games=4)
    assert seats == {1, 2} and r.games == 4 and set(r.partners) == HELDOUT


# --- held-out partners in evaluation only ----------------------------------------------------

def test_evaluation_draws_held_out_partners_only(monkeypatch):
    loaded = []
    real = zoo.load_member
    monkeypatch.setattr(zoo, "load_member",
                        lambda name, **kw: loaded.append((name, kw["purpose"])) or real(name,
                                                                                       **kw))
    task = get_task("adhoc_duo")
    r = evaluate_adhoc(CoordinatedPolicy(), task, games=12)
    assert {n for n, _ in loaded} == HELDOUT and not {n for n, _ in loaded} & TRAIN
    assert set(r.partners) == HELDOUT


def test_training_refuses_held_out_partners_and_loads_train_members_only():
    task = get_task("adhoc_duo")
    league = partner_league(task, "train", 8, purpose="train")
    assert set(league.names) == TRAIN
    with pytest.raises(ValueError, match="held out of training"):
        partner_league(task, "eval", 8, purpose="train")
    with pytest.raises(ValueError, match="held out of training"):
        evaluate_adhoc(CoordinatedPolicy(), task, games=2, split="eval", purpose="train")


def test_smoke_training_run_trains_seat_0_with_training_partners(tmp_path, monkeypatch):
    """``hon-train --task adhoc_duo`` for a few thousand steps: every partner it loads is
    a training member loaded for training, the partners answer every seat but 0, and the
    learner's decisions are seat 0's."""
    from agents.cli import train_mappo

    loaded, partner_seats = [], set()
    real_load, real_act = zoo.load_member, League.act
    monkeypatch.setattr(zoo, "load_member",
                        lambda name, **kw: loaded.append((name, kw["purpose"])) or real_load(
                            name, **kw))

    def act(self, games, obs, masks, seats, engine=None):
        partner_seats.update(np.asarray(seats).tolist())
        return real_act(self, games, obs, masks, seats, engine)

    monkeypatch.setattr(League, "act", act)
    run = tmp_path / "adhoc"
    train_mappo.main(["--run-dir", str(run), "--task", "adhoc_duo", "--total-steps", "3000",
                      "--num-envs", "32", "--num-steps", "16", "--num-minibatches", "2",
                      "--hidden", "16", "--eval-every", "3000", "--eval-games", "6",
                      "--checkpoint-every", "3000", "--progress", "false",
                      "--kickstart-steps", "1000"])
    assert loaded and {n for n, _ in loaded} == TRAIN
    assert {p for _, p in loaded} == {"train"}
    assert partner_seats == {1}
    with (run / "train.csv").open() as fh:
        steps = [int(float(r["step"])) for r in csv.DictReader(fh)]
    # one update is 32 x 16 rows, about half of them seat 0's
    assert 3000 <= steps[-1] < 3000 + 32 * 16 and steps[0] < 32 * 16
    assert (run / "final.pt").is_file() and (run / "eval.csv").is_file()


# --- the metric ------------------------------------------------------------------------------

def test_normalised_score_on_a_hand_made_example():
    assert normalised_score(0.5, 0.1, 0.9) == pytest.approx(0.5)
    assert normalised_score(0.1, 0.1, 0.9) == 0.0 and normalised_score(0.9, 0.1, 0.9) == 1.0
    assert normalised_score(1.0, 0.2, 0.6) == pytest.approx(2.0)  # beats the best known
    assert math.isnan(normalised_score(0.3, 0.0, 0.0))  # no known policy beats random
    # two partners of 4 games each and one no known policy wins with
    W, X = L.OUT_WIN, L.OUT_LOSS
    result = AdhocResult("adhoc_duo", "eval", "heldout", ["a", "b", "c"], EVAL_SEED_BASE,
                         np.array([W, W, X, X, W, X, X, X, X, X]),
                         np.array([0, 0, 0, 0, 1, 1, 1, 1, 2, 2]))
    ref = {"games": 10, "partners": {
        "a": {"random": 0.0, "best": 1.0, "best_policy": "heuristic"},
        "b": {"random": 0.0, "best": 0.5, "best_policy": "mappo:duo"},
        "c": {"random": 0.0, "best": 0.0, "best_policy": "heuristic"}}}
    score = AdhocScore.of(result, ref)
    assert score.per_partner["a"]["normalised"] == pytest.approx(0.5)  # 0.5 / 1.0
    assert score.per_partner["b"]["normalised"] == pytest.approx(0.5)  # 0.25 / 0.5
    assert math.isnan(score.per_partner["c"]["normalised"])
    assert score.scored == ["a", "b"] and score.mean_normalised == pytest.approx(0.5)
    assert result.win_rate == pytest.approx(0.3)
    # a reference measured on other games does not normalise these
    assert math.isnan(AdhocScore.of(result, {**ref, "games": 20}).mean_normalised)


def test_hon_eval_prints_and_writes_raw_and_per_partner_rates(tmp_path, capsys):
    from agents.cli.evaluate import main

    out = tmp_path / "r.json"
    main(["--task", "adhoc_duo", "--policy", "heuristic", "--games", "12", "--json",
          str(out)])
    text = capsys.readouterr().out
    assert "win_rate over 12 evaluation games" in text and "rusher" in text
    d = json.loads(out.read_text())
    assert d["games"] == 12 and set(d["partners"]) == HELDOUT
    assert sum(p["games"] for p in d["partners"].values()) == 12
    assert d["wins"] == sum(p["wins"] for p in d["partners"].values())
    assert d["normalised_mean"] is None  # no reference for 12 games


def same(a: dict, b: dict) -> bool:
    """Equal as JSON: a partner no game drew has NaN rates, which ``==`` never equals."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_extending_a_reference_equals_measuring_every_candidate_again():
    """adhoc_reference.py --extend: a reference of [a] extended to [a, b] plays only b and
    is the reference a full run over [a, b] gives; a reference of other games is refused."""
    from agents.adhoc import compute_reference

    task = get_task("adhoc_duo")
    cands = ["heuristic", "zoo:heuristic_solo"]
    full = compute_reference(task, cands, games=8)
    first = compute_reference(task, cands[:1], games=8)
    assert first["candidates"] == cands[:1]
    assert same(compute_reference(task, cands, games=8, known=first), full)
    # the candidate order breaks ties, as in a full run
    swapped = compute_reference(task, cands[::-1], games=8, known=first)
    assert same(swapped, compute_reference(task, cands[::-1], games=8))
    with pytest.raises(ValueError, match="8 games"):
        compute_reference(task, cands, games=6, known=first)


def test_extending_plays_again_a_shipped_policy_whose_file_changed(monkeypatch):
    """A stored reference records the checkpoint of each shipped candidate it measured;
    --extend reuses a candidate only while that file is unchanged, so replacing a shipped
    policy cannot leave its old numbers in the reference."""
    import agents.adhoc as adhoc

    task = get_task("adhoc_duo")
    cands = ["heuristic", "zoo:heuristic_solo"]
    file_of = {"zoo:heuristic_solo": "old"}
    monkeypatch.setattr(adhoc, "candidate_checkpoint", lambda spec: file_of.get(spec))
    first = adhoc.compute_reference(task, cands, games=8)
    assert first["checkpoints"] == {"zoo:heuristic_solo": "old"}
    # numbers no run would give: reused only while the file is the one they came from
    for part in first["partners"].values():
        part["wins_by_policy"]["zoo:heuristic_solo"] = part["games"] + 1
    tampered = adhoc.compute_reference(task, cands, games=8, known=first)
    assert all(p["wins_by_policy"]["zoo:heuristic_solo"] == p["games"] + 1
               for p in tampered["partners"].values())
    file_of["zoo:heuristic_solo"] = "new"
    again = adhoc.compute_reference(task, cands, games=8, known=first)
    assert same(again, adhoc.compute_reference(task, cands, games=8))
    assert again["checkpoints"] == {"zoo:heuristic_solo": "new"}


@pytest.mark.parametrize("name", ["adhoc_duo", "adhoc_trio"])
def test_stored_references_measured_every_shipped_policy_as_shipped(name):
    """docs/benchmark/<task>/reference: every known policy is a candidate, and each shipped
    one was measured with the file that ships now (after shipping or replacing a policy,
    `python scripts/adhoc_reference.py --task NAME --extend` brings the file up to date)."""
    from agents.adhoc import candidate_checkpoint, load_reference, reference_candidates

    ref = load_reference(name)
    assert ref is not None
    missing = [spec for spec in reference_candidates() if spec not in ref["candidates"]]
    assert not missing, f"not measured in {name}'s reference: {missing}"
    for spec in ref["candidates"]:
        assert ref.get("checkpoints", {}).get(spec) == candidate_checkpoint(spec), spec


@pytest.mark.parametrize("name", ["adhoc_duo", "adhoc_trio"])
def test_stored_results_are_scored_on_the_stored_reference(name):
    """Every stored result file of an adhoc task carries the normalised scores its stored
    reference gives now (`adhoc_reference.py` scores them again when it rewrites the
    reference), and scoring again changes nothing but the scores."""
    from agents.adhoc import REFERENCE_DIR, load_reference, rescore

    ref = load_reference(name)
    files = sorted((REFERENCE_DIR / name).glob("*.json"))
    assert files
    for path in files:
        result = json.loads(path.read_text())
        assert rescore(result, ref) == result, path.name
    # a moved best response moves the score of a partner it is best with
    moved = json.loads(json.dumps(ref))
    partner = next(iter(moved["partners"]))
    moved["partners"][partner]["best"] += 0.1
    result = json.loads(files[0].read_text())
    again = rescore(result, moved)
    assert again["partners"][partner]["normalised"] != result["partners"][partner]["normalised"]
    assert {k: v for k, v in again.items() if k not in ("partners", "normalised_mean")} == \
        {k: v for k, v in result.items() if k not in ("partners", "normalised_mean")}
