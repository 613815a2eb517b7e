"""The benchmark row runner (agents/cli/benchmark_run.py): which seeds it trains, several
at a time with ``--parallel`` on their share of the cores, and what a result records."""

from __future__ import annotations

import threading

import pytest
import yaml

import agents.cli.benchmark_run as br
from agents.networks.mlp import resolve_amp


def test_parallel_trains_the_missing_seeds_side_by_side(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(br, "RESULTS", tmp_path)
    (tmp_path / "solo").mkdir()
    (tmp_path / "solo" / "row_s2.json").write_text("{}")  # seed 2 is done: skipped
    calls, lock = [], threading.Lock()

    def fake_run_seed(task, row, seed, flags, python, out=None, run_dir=None, at_once=1,
                      trained=False):
        with lock:
            calls.append((task, row, seed, tuple(flags), at_once))
        path = tmp_path / task / f"{row}_s{seed}.json"
        path.write_text("{}")
        return path

    monkeypatch.setattr(br, "run_seed", fake_run_seed)
    monkeypatch.setattr(br, "ROOT", tmp_path)
    br.main(["--task", "solo", "--row", "row", "--seeds", "1", "2", "3", "--parallel", "4",
             "--", "--kickstart-coef", "0"])
    assert sorted(calls) == [("solo", "row", s, ("--kickstart-coef", "0"), 2) for s in (1, 3)]
    assert "seed 2 skipped" in capsys.readouterr().out
    for bad in (["--parallel", "0"], ["--parallel", "2", "--", "--threads", "3"]):
        with pytest.raises(SystemExit):
            br.main(["--task", "solo", "--row", "row", *bad])


def test_each_seed_gets_its_share_of_the_cores_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(br.os, "cpu_count", lambda: 16)
    assert br.share_of_cores(5) == 3 and br.share_of_cores(32) == 1
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(
        {"seed": 1, "device": "cpu", "threads": 3, "kickstart_coef": 2.0,
         "reward_shaping": {"rescues": 0.1}}))
    (tmp_path / "train.csv").write_text("step,steps_per_s\n1000,500.0\n")
    entry = br.training_entry(tmp_path, 12.0, "hon-train --task solo --seed S", at_once=5)
    assert entry["machine"].endswith("5 seeds at once, 3 threads each")
    assert entry["kickstart"] == "coordinated" and entry["reward"] == "shaped"
    alone = br.training_entry(tmp_path, 12.0, "hon-train --task solo --seed S")
    assert "at once" not in alone["machine"]


def test_a_row_records_the_precision_it_trained_in():
    """``amp: auto`` resolves by machine, so the row says what it ran: the config's
    explicit setting wins, a missing one (older configs) is float32, YAML booleans count."""
    assert br.training_precision({"amp": "true", "device": "cpu"}) == "bf16"
    assert br.training_precision({"amp": "false", "device": "cpu"}) == "float32"
    assert br.training_precision({"amp": True, "device": "cpu"}) == "bf16"
    assert br.training_precision({"device": "cpu"}) == "float32"
    auto = br.training_precision({"amp": "auto", "device": "cpu"})
    assert auto == ("bf16" if resolve_amp("auto", "cpu") else "float32")


def test_a_stopped_runner_stops_its_children(tmp_path):
    """SIGTERM to the runner (``kill``, a chain stopped) terminates the trainer it started
    instead of leaving it training into the run folder."""
    import os
    import signal
    import subprocess
    import sys
    import time

    up = tmp_path / "child.pid"
    child_py = tmp_path / "child.py"
    child_py.write_text("import os, sys, time\n"
                        "open(sys.argv[1], 'w').write(str(os.getpid()))\n"
                        "time.sleep(120)\n")
    runner = tmp_path / "runner.py"
    runner.write_text("import signal, sys\n"
                      "from agents.cli.benchmark_run import CHILDREN\n"
                      "signal.signal(signal.SIGTERM, CHILDREN.stop)\n"
                      f"CHILDREN.run([sys.executable, {str(child_py)!r}, {str(up)!r}])\n")
    proc = subprocess.Popen([sys.executable, str(runner)], cwd=br.ROOT)
    deadline = time.time() + 60
    while not (up.exists() and up.read_text()) and time.time() < deadline:
        time.sleep(0.1)
    child = int(up.read_text())
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 128 + signal.SIGTERM
    with pytest.raises(ProcessLookupError):  # gone, and reaped by the runner
        os.kill(child, 0)


def test_a_failed_child_fails_the_run():
    import subprocess
    import sys

    with pytest.raises(subprocess.CalledProcessError):
        br.Children().run([sys.executable, "-c", "raise SystemExit(3)"])
    br.Children().run([sys.executable, "-c", "pass"])


def test_a_maskable_ppo_run_is_labelled_ppo(tmp_path):
    """MaskablePPO's config names no algo: its .zip checkpoint says what trained."""
    (tmp_path / "config.yaml").write_text(yaml.safe_dump({"seed": 1, "device": "cpu"}))
    (tmp_path / "train.csv").write_text("step,steps_per_s\n1000,500.0\n")
    assert br.training_entry(tmp_path, 1.0, "hon-train")["algo"] == "mappo"
    (tmp_path / "final.zip").write_bytes(b"")
    assert br.training_entry(tmp_path, 1.0, "hon-train --algo ppo")["algo"] == "ppo"


def test_trained_evaluates_a_finished_run_without_training(tmp_path, monkeypatch):
    import json
    import os

    run = tmp_path / "runs" / "solo_row_s1"
    run.mkdir(parents=True)
    (run / "config.yaml").write_text(yaml.safe_dump({"seed": 1, "device": "cpu"}))
    (run / "train.csv").write_text("step,steps_per_s\n1000,500.0\n")
    (run / "final.zip").write_bytes(b"")
    t0 = (run / "config.yaml").stat().st_mtime
    os.utime(run / "final.zip", (t0 + 600, t0 + 600))
    ran = []

    def fake_run(cmd, **kwargs):
        ran.append(cmd)
        if "--json" in cmd:
            from pathlib import Path

            Path(cmd[cmd.index("--json") + 1]).write_text(json.dumps({"win_rate": 0.5}))

    monkeypatch.setattr(br, "ROOT", tmp_path)
    monkeypatch.setattr(br.CHILDREN, "run", fake_run)
    (tmp_path / "solo").mkdir()
    out = br.run_seed("solo", "row", 1, ["--algo", "ppo"], "python", tmp_path / "solo" / "r.json",
                      run, trained=True)
    assert len(ran) == 1 and "evaluate.py" in ran[0][1]  # no trainer ran
    entry = json.loads(out.read_text())["training"]
    assert entry["algo"] == "ppo" and entry["wall_s"] == pytest.approx(600, abs=1)
    (run / "final.zip").unlink()
    with pytest.raises(SystemExit, match="no final"):
        br.run_seed("solo", "row", 1, [], "python", tmp_path / "solo" / "r.json", run,
                    trained=True)


def test_a_row_trains_through_hon_train(tmp_path, monkeypatch):
    """``-- --algo ppo ...``: the row runs hon-train with the flags as given, so hon-train's
    --algo picks MaskablePPO (whose own script takes no --algo), and the recorded command
    is the one that ran."""
    import json
    from pathlib import Path

    run = tmp_path / "runs" / "solo_row_s1"
    ran = []

    def fake_run(cmd, **kwargs):
        ran.append(cmd)
        if "--json" in cmd:
            Path(cmd[cmd.index("--json") + 1]).write_text(json.dumps({"win_rate": 0.5}))
        else:
            run.mkdir(parents=True)
            (run / "config.yaml").write_text(yaml.safe_dump({"seed": 1, "device": "cpu"}))
            (run / "train.csv").write_text("step,steps_per_s\n1000,500.0\n")
            (run / "final.zip").write_bytes(b"")

    monkeypatch.setattr(br, "ROOT", tmp_path)
    monkeypatch.setattr(br.CHILDREN, "run", fake_run)
    (tmp_path / "solo").mkdir()
    out = br.run_seed("solo", "row", 1, ["--algo", "ppo", "--n-epochs", "2"], "python",
                      tmp_path / "solo" / "r.json", run)
    train = ran[0]
    assert train[1:3] == ["-m", "agents.cli.train"]
    assert train[-4:] == ["--algo", "ppo", "--n-epochs", "2"]
    from agents.cli import train as hon_train

    routed = []
    monkeypatch.setattr("agents.cli.train_ppo.main",
                        lambda argv, prog=None: routed.append((prog, argv)))
    hon_train.main(train[3:])  # what that command does: MaskablePPO, without --algo
    assert routed[0][0] == "hon-train --algo ppo" and "--algo" not in routed[0][1]
    assert routed[0][1][-2:] == ["--n-epochs", "2"]
    entry = json.loads(out.read_text())["training"]
    assert entry["algo"] == "ppo" and "--algo ppo --n-epochs 2" in entry["command"]
