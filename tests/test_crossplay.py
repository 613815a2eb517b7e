"""Mixed teams (``agents.mixed.SeatPolicies``) and cross-play (``agents.crossplay``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.crossplay import CrossPlayResult, crossplay, policy_algorithm
from agents.evaluation import evaluate
from agents.mixed import SeatPolicies
from agents.random_agent import RandomPolicy
from agents.scripted import CoordinatedPolicy
from hon_env import vector_env

ROOT = Path(__file__).resolve().parents[1]


class _Recorder:
    """A policy that answers with its first legal action and notes the seats it saw."""

    name = "recorder"

    def __init__(self) -> None:
        self.seats: set[int] = set()

    def act(self, observations, masks, seats, engine=None):
        self.seats |= set(int(s) for s in seats)
        return np.array([int(np.flatnonzero(m)[0]) for m in masks], np.int64)


def test_each_seat_is_answered_by_its_own_policy():
    a, b = _Recorder(), _Recorder()
    team = SeatPolicies([a, b])
    env = vector_env(16, seed=0, heroes=["majesty", "stride"], global_state=False)
    obs, _ = env.reset()
    for _ in range(60):
        acts = team.act(obs["observation"], obs["action_mask"], obs["agent"],
                        engine=env.engine)
        assert obs["action_mask"][np.arange(16), acts].all()
        obs, *_ = env.step(acts)
    assert a.seats == {0} and b.seats == {1}


def test_a_team_of_one_policy_per_seat_plays_as_that_policy():
    """Seating the coordinated team in every seat is the coordinated team (same games,
    same results): the mixed team only routes rows."""
    kw = dict(scenario="origin_story", heroes=["majesty", "stride"], games=12, seed=5)
    alone = evaluate(CoordinatedPolicy(), **kw)
    mixed = evaluate(SeatPolicies([CoordinatedPolicy(), CoordinatedPolicy()]), **kw)
    assert (alone.wins, alone.mean_rounds) == (mixed.wins, mixed.mean_rounds)


def test_bad_mixed_teams_are_refused():
    with pytest.raises(ValueError, match="one policy per hero seat"):
        SeatPolicies([])
    with pytest.raises(TypeError, match="seat 1"):
        SeatPolicies([RandomPolicy(0), object()])
    team = SeatPolicies([RandomPolicy(0)])
    env = vector_env(2, seed=0, heroes=["majesty", "stride"], global_state=False)
    obs, _ = env.reset()
    obs["agent"][:] = 1
    with pytest.raises(ValueError, match="seat 1 decides but the mixed team has 1 seats"):
        team.act(obs["observation"], obs["action_mask"], obs["agent"], engine=env.engine)


def test_sp_xp_gap_from_counts():
    """Self-play is the one-policy assignments, cross-play the ones mixing members of one
    algorithm; the gap is their difference."""
    r = CrossPlayResult("duo", ["a1", "a2", "s"], ["a", "a", "s"], 2, 10)
    r.wins = {(0, 0): 9, (1, 1): 7, (0, 1): 2, (1, 0): 4, (2, 2): 5, (0, 2): 1, (2, 0): 1,
              (1, 2): 1, (2, 1): 1}
    g = r.sp_xp()
    assert g["a"]["sp"] == pytest.approx(0.8) and g["a"]["xp"] == pytest.approx(0.3)
    assert g["a"]["gap"] == pytest.approx(0.5)
    assert g["s"]["members"] == 1 and np.isnan(g["s"]["xp"])
    np.testing.assert_allclose(r.matrix()[0], [0.9, 0.2, 0.1])
    cells = r.as_dict()["cells"]
    assert len(cells) == 9 and cells[0]["seats"] == ["a1", "a1"]
    # every policy beside any other: a1 with a2 (0.2, 0.4) and with s (0.1, 0.1)
    pg = r.partner_gap()
    assert pg["a1"]["with_others"] == pytest.approx(0.2)
    assert pg["a1"]["gap"] == pytest.approx(0.7)
    assert pg["s"]["sp"] == pytest.approx(0.5) and pg["s"]["with_others"] == pytest.approx(0.1)


def test_crossplay_on_a_task_plays_every_ordered_assignment():
    seen = []
    r = crossplay(["heuristic", "random"], "duo", games=4,
                  on_cell=lambda done, total: seen.append((done, total)))
    assert sorted(r.wins) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert r.algorithms == ["coordinated", "random"]
    assert r.wins[1, 1] == 0  # random play never wins
    # a shipped seed is its checkpoint's algorithm and network, like its row's other seeds
    assert policy_algorithm("mappo:duo") == "mappo-mlp"
    assert policy_algorithm("bc:duo") == "bc-mlp"
    # each zoo member is its own algorithm in the SP-XP gap, not one "zoo" lump
    assert policy_algorithm("zoo:rusher") != policy_algorithm("zoo:cautious")


def test_hon_eval_crossplay_and_seat_policies(tmp_path):
    out, plot = tmp_path / "xp.json", tmp_path / "xp.png"
    cmd = [sys.executable, "scripts/evaluate.py", "--crossplay", "--task", "duo",
           "--policies", "heuristic", "heuristic_solo", "--games", "3", "--json", str(out),
           "--plot", str(plot)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True)
    text = done.stdout
    assert "cross-play on duo" in text and "coordinated: self-play" in text
    assert "[crossplay] 4/4 assignments" in done.stderr
    data = json.loads(out.read_text())
    assert data["games"] == 3 and len(data["cells"]) == 4
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    cmd = [sys.executable, "scripts/evaluate.py", "--task", "duo", "--seat-policies",
           "heuristic", "random", "--games", "3"]
    text = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "over 3 evaluation games" in text
    bad = subprocess.run(cmd[:-4] + ["heuristic", "--games", "3"], cwd=ROOT,
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "1 policies for 2 hero seats" in bad.stderr


@pytest.mark.parametrize("argv, message", [
    (["--task", "duo", "--policy", "zoo:no_such_member"], "unknown zoo member"),
    (["--task", "duo", "--policy", "no_such_checkpoint.pt"], "unknown policy"),
    (["--task", "duo", "--seat-policies", "heuristic", "no_such"], "unknown policy"),
    (["--task", "adhoc_duo", "--policy", "no_such"], "unknown policy"),
    (["--scenario", "mastermind", "--policy", "heuristic", "--villain-policy", "no_such"],
     "unknown villain"),
    (["--task", "duo", "--seed", "-1"], "--seed: must be >= 0"),
    (["--task", "duo", "--games", "0"], "--games: must be >= 1"),
    (["--policy", "heuristic", "--heroes", "nobody", "--villains", "dowager",
      "--issues", "century_heist"], "no hero 'nobody'"),
    (["--scenario", "no_such_scenario"], "no scenario 'no_such_scenario'"),
])
def test_hon_eval_reports_bad_policies_and_numbers_as_usage_errors(argv, message, capsys):
    """A policy name nobody ships, a missing checkpoint, content that does not exist, a
    negative seed or no games: the command's usage error (exit 2) naming the problem, not
    a traceback."""
    from agents.cli.evaluate import main

    with pytest.raises(SystemExit) as exit_info:
        main([*argv, "--games", "2"] if "--games" not in argv else argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
