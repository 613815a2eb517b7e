"""The training loop every hand-written trainer shares (``agents/training/loop.py``), the
settings every PPO trainer shares, and the run log that a resumed run appends to."""

from __future__ import annotations

import csv
from types import SimpleNamespace

import pytest

from agents.training.config import PpoFields
from agents.training.logger import RunLogger
from agents.training.loop import Every, Throughput, train_loop


def test_every_comes_round_on_multiples_after_the_start():
    """A fresh run checkpoints at 100, 200, ...; a run resumed at 250 at 300, 400 (not at
    350); the final step is always due."""
    fresh = Every(100)
    assert [s for s in (50, 100, 150, 230, 260, 300) if fresh.due(s)] == [100, 230, 300]
    resumed = Every(100, start=250)
    assert not resumed.due(260)
    assert resumed.due(300) and not resumed.due(350) and resumed.due(400)
    assert Every(100).due(30, final=True)
    with pytest.raises(ValueError, match="every"):
        Every(0)


def test_throughput_leaves_paused_time_out(monkeypatch):
    """Time spent in ``paused`` does not count: 1,000 rows over 3 s of wall time of which
    2 s were paused is 1,000 rows/s; ``restart`` forgets what was counted."""
    import agents.training.loop as loop

    clock = iter([0.0, 1.0, 3.0, 3.0, 10.0, 12.0])
    monkeypatch.setattr(loop.time, "perf_counter", lambda: next(clock))
    timer = Throughput()  # starts at 0
    with timer.paused():  # from 1 s to 3 s
        pass
    assert timer.count(1000) == pytest.approx(1000.0)  # at 3 s: 3 s - 2 s paused
    timer.restart()  # at 10 s
    assert timer.count(500) == pytest.approx(250.0)  # at 12 s


def _loop(tmp_path, start, total, main=True):
    cfg = SimpleNamespace(total_steps=total, checkpoint_every=100, eval_every=150,
                          run_dir=str(tmp_path))
    log = RunLogger(tmp_path, PpoFields(), total, tensorboard=False, progress=False)
    saved, evals = [], []

    def update(step):
        return step + 60, 8, {"episode_win_rate": 0.5}

    def evaluate():
        evals.append(len(saved))
        return {"trained_win_rate": 0.25}

    out = train_loop(cfg, log, start, update, lambda path, step: saved.append(path.name),
                     evaluate, lambda row: "ok", suffix=".pt", main=main)
    log.close()
    return out, saved, evals


def test_train_loop_saves_and_evaluates_on_its_cadence(tmp_path):
    """Updates of 60 steps to 400: checkpoints at the first update past each 100 and at
    the end, evaluations past each 150 and at the end, one train.csv row per update."""
    (step, last, sps), saved, evals = _loop(tmp_path, 0, 400)
    assert step == 420
    assert saved == [f"step_{s}.pt" for s in (120, 240, 300, 420)]
    assert len(evals) == 3 and last == {"trained_win_rate": 0.25}
    assert sps > 0
    with (tmp_path / "train.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert [int(r["step"]) for r in rows] == [60, 120, 180, 240, 300, 360, 420]
    assert all(float(r["steps_per_s"]) > 0 for r in rows)


def test_train_loop_on_other_ranks_neither_saves_nor_evaluates(tmp_path):
    """A process that is not rank 0 of a data-parallel run trains and logs only."""
    (_, last, _), saved, evals = _loop(tmp_path, 0, 200, main=False)
    assert saved == [] and evals == [] and last == {}


def test_a_resumed_run_appends_under_the_header_already_there(tmp_path):
    """Rows logged with their keys in another order land in the file's columns."""
    log = RunLogger(tmp_path, PpoFields(), 10, tensorboard=False, progress=False)
    log.log("train", 1, {"a": 1.0, "b": 2.0})
    log.close()
    log = RunLogger(tmp_path, PpoFields(), 10, tensorboard=False, progress=False)
    log.log("train", 2, {"b": 4.0, "a": 3.0})
    log.close()
    with (tmp_path / "train.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["a"], r["b"]) for r in rows] == [("1.0", "2.0"), ("3.0", "4.0")]


@pytest.mark.parametrize("field,value,match", [
    ("lr", 0.0, "lr"), ("gamma", 1.5, "gamma"), ("gamma", 0.0, "gamma"),
    ("gae_lambda", -0.1, "gae_lambda"), ("ent_coef", -1.0, "ent_coef"),
    ("hidden", [], "hidden"), ("hidden", [16, 0], "hidden"),
])
def test_ppo_settings_out_of_range_are_errors(field, value, match):
    """Every PPO trainer refuses a shared setting out of range, naming it."""
    cfg = PpoFields(**{field: value})
    with pytest.raises(ValueError, match=match):
        cfg.check_ppo()
    PpoFields().check_ppo()  # the defaults are in range
