"""Replays: recording a game (Game, AEC, Parallel and Gymnasium envs) to JSON and
replaying it on the engine; the golden records read as replays."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium
import numpy as np
import pytest

from hon_env import Game, hour_of_need_v8, load_scenario
from hon_env.play.gamelog import format_entry, replay_log
from hon_env.play.replay import FORMAT, Recorder, Replay, ReplayMismatch

GOLDEN = sorted((Path(__file__).resolve().parents[1] / "tests" / "golden").glob("*.json"))


def _recorded(scenario, seed: int, players, policy_seed: int = 0) -> Recorder:
    rec = Recorder(Game(scenario, seed=seed), players=players)
    rng = np.random.default_rng(policy_seed)
    while not rec.game.is_over:
        rec.apply(int(rng.choice(rec.game.legal_actions())))
    return rec


def test_round_trip_through_json_reproduces_the_game(tmp_path):
    """A recorded game with overrides (two heroes, optional rules) saved, loaded and
    replayed ends in the same snapshot; the file names its format, seed and players."""
    sc = load_scenario("origin_story", heroes=["majesty", "stride"],
                       rules={"special_minions": ["hired_muscle"]})
    rec = _recorded(sc, seed=7, players=["human", "heuristic"])
    path = rec.replay().save(tmp_path / "game.json")
    data = json.loads(path.read_text())
    assert data["format"] == FORMAT and data["version"] == 1 and data["seed"] == 7
    assert data["heroes"] == ["majesty", "stride"]
    assert data["rules"]["special_minions"] == ["hired_muscle"]
    assert data["players"] == ["human", "heuristic"]
    assert len(data["actions"]) == len(data["seats"]) == len(data["decisions"]) > 0
    loaded = Replay.load(path)
    rebuilt = loaded.load_scenario()
    assert rebuilt.tables.base.tobytes() == sc.tables.base.tobytes()
    final = loaded.verify()
    assert final.snapshot() == rec.game.snapshot()
    np.testing.assert_array_equal(final.state, rec.game.state)


def test_a_changed_action_is_caught():
    """Verification fails, naming the action, when the record does not reproduce."""
    rep = _recorded("origin_story", seed=2, players=["random"]).replay()
    bad = Replay.from_dict(rep.to_dict())
    bad.decisions[5] = "majesty:rescue"
    with pytest.raises(ReplayMismatch, match="action 5"):
        bad.verify()
    bad = Replay.from_dict(rep.to_dict())
    bad.final = dict(bad.final, round=bad.final["round"] + 1)
    with pytest.raises(ReplayMismatch, match="round"):
        bad.verify()


def test_bad_files_are_refused(tmp_path):
    """Not JSON, another format, another version, missing keys: clear errors."""
    p = tmp_path / "x.json"
    p.write_text("{nope")
    with pytest.raises(ValueError, match="not valid JSON"):
        Replay.load(p)
    with pytest.raises(ValueError, match="format 'other'"):
        Replay.from_dict({"format": "other"})
    with pytest.raises(ValueError, match="version 9"):
        Replay.from_dict({"format": FORMAT, "version": 9})
    with pytest.raises(ValueError, match="lacks 'actions'"):
        Replay.from_dict({"format": FORMAT, "scenario": "origin_story", "seed": 1})
    with pytest.raises(ValueError, match="list of integers"):
        Replay.from_dict({"scenario": "origin_story", "seed": 1, "actions": [1.5]})


def test_recorder_needs_a_fresh_game():
    g = Game("origin_story", seed=1)
    g.apply(int(g.legal_actions()[0]))
    with pytest.raises(ValueError, match="fresh Game"):
        Recorder(g)
    with pytest.raises(ValueError, match="one player per seat"):
        Recorder(Game("origin_story", seed=1), players=["human", "human"])


def test_from_actions_takes_integers_only():
    """``Replay.from_actions`` checks actions as ``Game.apply`` does: a string or a float is
    a TypeError, never parsed or rounded."""
    sc = load_scenario("origin_story")
    first = int(Game(sc, seed=1).legal_actions()[0])
    for bad in (str(first), float(first)):
        with pytest.raises(TypeError, match="action must be an integer"):
            Replay.from_actions(sc, 1, [bad])
    assert Replay.from_actions(sc, 1, [np.int64(first)]).actions == [first]


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_records_read_as_replays(path):
    """The golden records of tests/golden/ are replays: they load and verify."""
    rep = Replay.load(path)
    assert rep.verify().outcome == rep.outcome


def test_aec_and_parallel_envs_record_their_episode():
    """Every env front end records the running episode; the replay reproduces it."""
    env = hour_of_need_v8.env(n_heroes=2)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    rep = env.unwrapped.replay(["random", "random"])
    assert rep.seed == 4 and rep.players == ["random", "random"]
    np.testing.assert_array_equal(rep.verify().state, env.unwrapped.game.state)

    par = hour_of_need_v8.parallel_env()
    observations, _ = par.reset(seed=9)
    for _ in range(25):
        actions = {a: int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in par.agents}
        observations, *_ = par.step(actions)
    rep = par.replay()
    assert len(rep.actions) == 25 and rep.players == ["unknown"]
    np.testing.assert_array_equal(rep.verify().state, par.game.state)


def test_gym_env_saves_a_replay(tmp_path):
    env = gymnasium.make("hon_env/HourOfNeed-v8")
    env.reset(seed=5)
    for _ in range(12):
        env.step(int(np.flatnonzero(env.unwrapped.action_masks())[-1]))
    path = env.unwrapped.save_replay(tmp_path / "g.json", players=["ppo"])
    rep = Replay.load(path)
    assert rep.seed == 5 and len(rep.actions) == 12
    np.testing.assert_array_equal(rep.verify().state, env.unwrapped.game.state)
    env.reset()  # the next episode starts a new record
    assert env.unwrapped.replay().actions == [] and env.unwrapped.replay().seed == 6


def test_game_log_describes_every_action():
    """One log entry per action, in words, with the event counters that moved."""
    rep = Replay.load(GOLDEN[0])
    log = replay_log(rep.new_game(), rep.actions, rep.players)
    assert len(log) == len(rep.actions)
    assert all(e["text"] for e in log)
    assert sum(e["events"].get("rescues", 0) for e in log) == rep.final["events"]["rescues"]
    assert log[-1]["outcome"] == rep.outcome and "game over" in format_entry(log[-1])


def test_vector_env_episodes_become_replays():
    """VectorRecorder turns every ended episode of a vector env into a replay with the
    episode's seed (seed + i + k * num_envs) that reproduces the same outcome."""
    from hon_env import vector_env
    from hon_env.play.replay import VectorRecorder

    rec = VectorRecorder(vector_env(num_envs=3, seed=5, heroes=["majesty", "stride"]),
                         players=["random", "random"])
    rec.reset()
    rng = np.random.default_rng(0)
    while len(rec.finished) < 4:
        rec.step(rec.env.sample_actions(rng))
    seeds = [r.seed for r in rec.finished]
    assert len(set(seeds)) == len(seeds) and set(seeds) <= {5, 6, 7, 8, 9, 10, 11}
    for r in rec.finished:
        assert r.players == ["random", "random"]
        assert r.verify().is_over
