"""Offline datasets: recorded trajectories round-trip through npz and Minari, match the
engine, and train a behaviour-cloning actor (scripts/record_dataset.py, train_bc.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from agents.registry import load_policy
from agents.training.bc import behaviour_cloning
from hon_env import Game, load_scenario
from hon_env.datasets import collect, load_npz, minari_episodes, save_minari, save_npz

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from record_dataset import main as record_main  # noqa: E402

KW = {"heroes": ["majesty", "stride"]}


@pytest.fixture(scope="module")
def episodes():
    return collect(load_policy("heuristic"), 3, seed=10, env_kwargs=KW)


def _same(a: dict, b: dict) -> None:
    for k in ("actions", "rewards", "terminations", "truncations"):
        np.testing.assert_array_equal(a[k], b[k])
    for k in ("observation", "action_mask"):
        np.testing.assert_array_equal(a["observations"][k], b["observations"][k])


def test_trajectories_match_the_engine(episodes):
    """Each step's observation and mask are the engine's for the deciding seat, the
    action was legal, and only the last step ends the episode with the outcome reward."""
    sc = load_scenario("origin_story", **KW)
    for ep in episodes:
        g = Game(sc, seed=ep["seed"])
        n = len(ep["actions"])
        assert ep["observations"]["observation"].shape == (n + 1, g.observation().shape[0])
        for k, a in enumerate(ep["actions"]):
            assert ep["seats"][k] == g.current_seat
            np.testing.assert_array_equal(ep["observations"]["observation"][k],
                                          g.observation(g.current_seat))
            np.testing.assert_array_equal(ep["observations"]["action_mask"][k], g.legal_mask())
            g.apply(int(a))
        assert g.is_over and ep["terminations"][-1] and not ep["terminations"][:-1].any()
        assert ep["rewards"][-1] == {"win": 1.0, "loss": -1.0}[g.outcome]


def test_npz_round_trip(episodes, tmp_path):
    path = save_npz(episodes, tmp_path / "d.npz", {"policy": "heuristic"})
    back, meta = load_npz(path)
    assert meta["policy"] == "heuristic" and meta["format"] == "hon_env.dataset"
    assert [e["seed"] for e in back] == [10, 11, 12]
    for a, b in zip(episodes, back, strict=True):
        _same(a, b)
        np.testing.assert_array_equal(a["seats"], b["seats"])


def test_bad_inputs_are_named(episodes, tmp_path):
    """collect checks its counts, seed and policy; save_npz refuses nothing to save;
    load_npz says a file is not a dataset instead of numpy's errors."""
    for kwargs, exc, match in (({"episodes": 1.5}, TypeError, "episodes must be an integer"),
                               ({"episodes": 0}, ValueError, "at least 1"),
                               ({"episodes": 1, "seed": -1}, ValueError, "seed must be"),
                               ({"episodes": 1, "policy": None}, TypeError, "agents policy")):
        kwargs = {"policy": load_policy("random"), **kwargs}
        with pytest.raises(exc, match=match):
            collect(**kwargs)
    with pytest.raises(ValueError, match="no episodes to save"):
        save_npz([], tmp_path / "empty.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip file")
    np.save(tmp_path / "array.npy", np.zeros(3))
    np.savez(tmp_path / "other.npz", x=np.zeros(3))
    for name in ("junk.npz", "array.npy", "other.npz"):
        with pytest.raises(ValueError, match="not a hon_env dataset"):
            load_npz(tmp_path / name)
    with pytest.raises(FileNotFoundError):
        load_npz(tmp_path / "missing.npz")


def test_minari_round_trip(episodes, tmp_path, monkeypatch):
    minari = pytest.importorskip("minari", reason="minari is not installed "
                                 "(pip install -e '.[data]')")
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path))
    ds = save_minari(episodes, "hon_env/test/heuristic-v0", KW, algorithm_name="heuristic")
    assert ds.total_episodes == 3
    assert ds.total_steps == sum(len(e["actions"]) for e in episodes)
    back = minari_episodes(minari.load_dataset("hon_env/test/heuristic-v0"))
    for a, b in zip(episodes, back, strict=True):
        _same(a, b)
    env = minari.load_dataset("hon_env/test/heuristic-v0").recover_environment()
    assert env.unwrapped.agents == ["majesty", "stride"]


def test_record_script_and_behaviour_cloning(tmp_path, capsys):
    """record_dataset.py writes a dataset that train_bc's loop learns from: the loss of
    the recorded actions falls within a few dozen steps."""
    out = tmp_path / "r.npz"
    record_main(["--policy", "heuristic", "--episodes", "3", "--seed", "1", "--out",
                 str(out)])
    assert "3 episodes" in capsys.readouterr().out
    eps, meta = load_npz(out)
    assert meta["policy"] == "heuristic" and len(eps) == 3
    result = behaviour_cloning(eps, steps=25, batch=64, hidden=(64,))
    assert np.mean(result.losses[-5:]) < np.mean(result.losses[:5])
    assert 0.0 <= result.train_accuracy <= 1.0
