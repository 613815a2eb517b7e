"""scripts/scaling.py (agents/cli/scaling.py): layouts parse, each becomes the trainer
command it names (torchrun for several ranks, pinned to its cores, CPU or CUDA), and the
table reads what the runs wrote."""

from __future__ import annotations

import argparse
import sys

import pytest

from agents.cli.scaling import Layout, command, measure, table


def test_layouts_parse_and_refuse_bad_text():
    assert Layout.parse("2x8") == Layout(2, 8, "cpu")
    assert Layout.parse("4x4@cuda") == Layout(4, 4, "cuda")
    assert Layout.parse("4x4@cuda").name == "4x4@cuda" and Layout.parse("1x2@cpu").name == "1x2"
    for bad in ("2", "0x4", "2x0", "2x4@tpu", "x4"):
        with pytest.raises(argparse.ArgumentTypeError, match="RANKSxCORES"):
            Layout.parse(bad)


def test_commands_pick_torchrun_cores_and_device(tmp_path, monkeypatch):
    monkeypatch.setattr("shutil.which", lambda name: f"/usr/bin/{name}")
    cmd, env = command(Layout(1, 8, "cpu"), "quartet", 1024, 32, 4, tmp_path, ["--hidden",
                       "256", "256"], machine_cores=16)
    assert cmd[:3] == ["taskset", "-c", "0-7"] and cmd[3] == sys.executable
    assert "torch.distributed.run" not in cmd
    assert cmd[cmd.index("--total-steps") + 1] == str(5 * 1024 * 32)
    assert cmd[-3:] == ["--hidden", "256", "256"]
    assert env["NUMBA_NUM_THREADS"] == "8" and env["CUDA_VISIBLE_DEVICES"] == ""
    cmd, env = command(Layout(4, 4, "cuda"), "quartet", 512, 16, 2, tmp_path, [],
                       machine_cores=16)
    assert cmd[0] == sys.executable and "taskset" not in cmd  # every core: no pinning
    assert cmd[cmd.index("--nproc_per_node") + 1] == "4"
    assert cmd[cmd.index("--device") + 1] == "cuda"
    # the step count covers every rank's games: 3 updates of 4 x 512 x 16
    assert cmd[cmd.index("--total-steps") + 1] == str(3 * 4 * 512 * 16)
    assert "CUDA_VISIBLE_DEVICES" not in env


def test_measure_skips_the_first_update_and_table_compares_to_the_first(tmp_path):
    (tmp_path / "train.csv").write_text(
        "step,rollout_s,learn_s,steps_per_s\n10,9.0,9.0,1.0\n20,1.0,2.0,100.0\n"
        "30,3.0,4.0,120.0\n")
    got = measure(tmp_path)
    assert got == {"steps_per_s": 120.0, "rollout_s": 2.0, "learn_s": 3.0}
    rows = [{"layout": "1x8", "ranks": 1, "cores": 8, "device": "cpu", **got},
            {"layout": "2x8", "ranks": 2, "cores": 8, "device": "cpu", "steps_per_s": 204.0,
             "rollout_s": 2.0, "learn_s": 3.0},
            {"layout": "4x4@cuda", "error": "exit 1: boom"}]
    lines = table(rows).splitlines()
    assert "| 120 | 1.00 |" in lines[2] and "| 204 | 1.70 |" in lines[3]
    assert "failed: exit 1: boom" in lines[4]
    (tmp_path / "train.csv").write_text("step,rollout_s,learn_s,steps_per_s\n10,1,1,1\n")
    with pytest.raises(RuntimeError, match="no timed update"):
        measure(tmp_path)


@pytest.mark.parametrize("argv, message", [
    (["--layouts", "1x1", "4096x64"], "needs 262144 cores"),
    (["--layouts", "1x1", "--updates", "0"], "--updates must be at least 1"),
    (["--layouts", "1x1", "--num-envs", "-4"], "--num-envs must be at least 1"),
    (["--layouts", "1x1", "--timeout", "0"], "--timeout must be positive"),
    (["--layouts", "2"], "RANKSxCORES"),
])
def test_bad_arguments_are_refused(argv, message, capsys):
    from agents.cli.scaling import main

    with pytest.raises(SystemExit):
        main(argv)
    assert message in capsys.readouterr().err
