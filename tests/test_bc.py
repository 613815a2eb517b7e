"""Behaviour cloning from replays and datasets (agents/training/bc.py, scripts/train_bc.py):
replays become the decisions the engine met, a seat filter keeps the people's decisions,
and a cloned actor saves as a checkpoint every policy loader plays."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from agents.checkpoints import CheckpointError, load_checkpoint
from agents.crossplay import policy_algorithm
from agents.registry import load_policy
from agents.training.bc import (
    behaviour_cloning,
    replay_episodes,
    save_checkpoint,
    split_episodes,
    transitions,
)
from hon_env import Game, load_scenario
from hon_env.core.observe import OBS_DIM
from hon_env.replay import Recorder
from hon_env.spec.layout import N_ACTIONS

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from train_bc import main as train_bc_main  # noqa: E402

HEROES = ["majesty", "stride"]


def _record(path: Path, seed: int) -> tuple[list[np.ndarray], list[int], list[int]]:
    """A duo game, seat 0 the coordinated team and seat 1 marked ``human`` (played by the
    same script), saved as a replay; returns each decision's observation, action, seat."""
    policy = load_policy("heuristic")
    rec = Recorder(Game(load_scenario("origin_story", heroes=HEROES), seed=seed),
                   players=["heuristic", "human"])
    obs, actions, seats = [], [], []
    while not rec.game.is_over:
        g = rec.game
        o = np.array(g.observation())
        a = int(policy.act(o[None], g.legal_mask()[None], np.array([g.current_seat]),
                           engine=g.engine)[0])
        obs.append(o)
        actions.append(a)
        seats.append(g.current_seat)
        rec.apply(a)
    rec.replay().save(path)
    return obs, actions, seats


@pytest.fixture(scope="module")
def replays(tmp_path_factory):
    folder = tmp_path_factory.mktemp("replays")
    played = [_record(folder / f"game{k}.json", seed=k) for k in (3, 4)]
    return folder, played


def test_replays_give_the_decisions_the_engine_met(replays):
    folder, played = replays
    data = transitions(replay_episodes([folder]))
    obs = np.concatenate([np.stack(o) for o, _, _ in played])
    actions = np.concatenate([a for _, a, _ in played])
    np.testing.assert_array_equal(data.obs, obs)
    np.testing.assert_array_equal(data.actions, actions)
    assert data.masks[np.arange(len(data)), data.actions].all()
    assert sorted(set(data.episode.tolist())) == [0, 1]


def test_players_filter_keeps_only_the_human_seats(replays):
    folder, played = replays
    data = transitions(replay_episodes([folder], players=("human",)))
    want = np.concatenate([[a for a, s in zip(acts, seats, strict=True) if s == 1]
                           for _, acts, seats in played])
    np.testing.assert_array_equal(data.actions, want)
    assert 0 < len(data) < sum(len(a) for _, a, _ in played)
    with pytest.raises(ValueError, match="no decision"):
        transitions(replay_episodes([folder], players=("nobody",)))


def test_bad_sources_are_named(tmp_path):
    with pytest.raises(ValueError, match="no such replay"):
        replay_episodes([tmp_path / "missing.json"])
    with pytest.raises(ValueError, match="no \\*.json replay"):
        replay_episodes([tmp_path])
    with pytest.raises(ValueError, match="no episodes"):
        transitions([])


def test_a_replay_the_engine_refuses_is_named(replays, tmp_path):
    import json

    folder, _ = replays
    data = json.loads((folder / "game3.json").read_text())
    data["actions"][5] = 10**6  # no such action
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="bad.json: the engine refuses action 5"):
        replay_episodes([bad])


def test_heldout_episodes_are_whole_games(replays):
    folder, _ = replays
    data = transitions(replay_episodes([folder]))
    train, held = split_episodes(data, 0.5, seed=0)
    assert held is not None and len(train) + len(held) == len(data)
    assert not set(train.episode.tolist()) & set(held.episode.tolist())
    with pytest.raises(ValueError, match="heldout"):
        split_episodes(data, 1.0, seed=0)


def test_cloned_actor_saves_and_plays_by_path(replays, tmp_path):
    folder, _ = replays
    result = behaviour_cloning(replay_episodes([folder]), steps=30, batch=64, hidden=(32,),
                               heldout=0.5)
    assert np.mean(result.losses[-5:]) < np.mean(result.losses[:5])
    assert 0.0 <= result.heldout_accuracy <= 1.0
    path = save_checkpoint(result, tmp_path / "bc.pt", half=True, source={"test": 1})
    ckpt = load_checkpoint(path, algo=("mappo", "bc"))
    assert ckpt["algo"] == "bc" and ckpt["config"]["source"] == {"test": 1}
    assert all(v.dtype == torch.float16 for v in ckpt["actor"].values()
               if v.is_floating_point())
    with pytest.raises(CheckpointError, match="'bc' checkpoint"):
        load_checkpoint(path)  # a MAPPO resume refuses it
    policy = load_policy(str(path))
    g = Game(load_scenario("origin_story", heroes=HEROES), seed=9)
    for _ in range(40):
        if g.is_over:
            break
        a = int(policy.act(g.observation()[None], g.legal_mask()[None],
                           np.array([g.current_seat]), engine=g.engine)[0])
        assert g.legal_mask()[a]
        g.apply(a)
    assert policy_algorithm(str(path)) == "bc-mlp"


def test_script_clones_human_seats_from_replays(replays, tmp_path, capsys):
    folder, _ = replays
    out = tmp_path / "proxy.pt"
    train_bc_main(["--replays", str(folder), "--players", "human", "--steps", "5",
                   "--batch", "32", "--hidden", "16", "--heldout", "0.5", "--save",
                   str(out)])
    text = capsys.readouterr().out
    assert "held-out episodes" in text and out.is_file()
    assert load_checkpoint(out, algo="bc")["config"]["source"]["replays"]["players"] == [
        "human"]
    with pytest.raises(SystemExit):
        train_bc_main(["--players", "human"])


def test_teacher_chunks_record_the_coordinated_team_in_bounded_chunks():
    """The warm start's data: the coordinated team's legal actions in every seat, 256 games
    a step, streamed in chunks of ``chunk_steps`` steps (the last one short)."""
    from agents.training.bc import PRETRAIN_ENVS, teacher_chunks

    chunks = list(teacher_chunks("origin_story", 5 * PRETRAIN_ENVS, seed=3, chunk_steps=2))
    assert [len(c) for c in chunks] == [2 * PRETRAIN_ENVS, 2 * PRETRAIN_ENVS, PRETRAIN_ENVS]
    for c in chunks:
        assert c.masks[np.arange(len(c)), c.actions].all()
        slots = np.tile(np.arange(PRETRAIN_ENVS), len(c) // PRETRAIN_ENVS)
        assert c.episode.tolist() == slots.tolist()
    again = list(teacher_chunks("origin_story", 5 * PRETRAIN_ENVS, seed=3, chunk_steps=5))
    assert len(again) == 1
    np.testing.assert_array_equal(again[0].actions, np.concatenate([c.actions for c in chunks]))
    np.testing.assert_array_equal(again[0].obs, np.concatenate([c.obs for c in chunks]))


class _Spy:
    """A policy that remembers the actions it gave."""

    def __init__(self, inner) -> None:
        self.inner, self.name, self.given = inner, inner.name, []
        self.needs_engine = getattr(inner, "needs_engine", False)

    def act(self, observations, masks, seats, engine=None):
        a = np.asarray(self.inner.act(observations, masks, seats, engine=engine))
        self.given.append(a)
        return a


def test_teacher_chunks_against_a_villain_agent_record_the_heroes_only():
    """Mastermind (the villain is an agent): the named villain plays its rows, and the
    recorded decisions are exactly the teacher's, in order; without a villain the
    warm start's games cannot be played."""
    from agents.scripted import CoordinatedPolicy
    from agents.training.bc import PRETRAIN_ENVS, teacher_chunks
    from agents.villains import load_villain

    with pytest.raises(ValueError, match="villain of this scenario is an agent"):
        next(teacher_chunks("mastermind", PRETRAIN_ENVS, seed=1))
    heroes = _Spy(CoordinatedPolicy())
    villain = _Spy(load_villain("random", seed=0))
    chunks = list(teacher_chunks("mastermind", 60 * PRETRAIN_ENVS, seed=1, teacher=heroes,
                                 villain=villain, chunk_steps=16))
    recorded = np.concatenate([c.actions for c in chunks])
    assert sum(map(len, villain.given)) > 0  # the villain decided in some rows
    np.testing.assert_array_equal(recorded, np.concatenate(heroes.given))
    assert len(recorded) >= 60 * PRETRAIN_ENVS
    for c in chunks:
        assert c.masks[np.arange(len(c)), c.actions].all()


def test_clone_into_fits_an_actor_to_the_teacher():
    """``clone_into`` moves a fresh actor's greedy choice towards the script's on decisions
    of other games: from chance agreement to most of them."""
    from agents.networks import Actor
    from agents.training.bc import clone_into, score, teacher_chunks

    torch.manual_seed(0)
    actor = Actor(OBS_DIM, N_ACTIONS, [64])
    held = next(teacher_chunks("origin_story", 2048, seed=99, chunk_steps=8))
    before, _ = score(actor, held)
    ce = clone_into(actor, teacher_chunks("origin_story", 16384, seed=0, chunk_steps=16),
                    epochs=4, lr=1e-3, batch=512)
    after, held_ce = score(actor, held)
    assert after > 0.7 > before + 0.3, (before, after)
    assert np.isfinite(ce) and held_ce < 1.0
