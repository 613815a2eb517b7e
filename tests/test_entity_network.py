"""The entity actor (agents/networks/entity.py): built from the named observation spec, it
reads every observation float once, scores every action once, treats the set-like entity
kinds as sets, builds for every variant's observation, and trains and loads by name."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from ppo_helpers import train_play_resume

from agents.networks import build_actor
from agents.networks import entities as E
from agents.networks.entity import EntityActor
from agents.registry import load_policy
from hon_env import vector_env
from hon_env.core.observe import OBS_DIM
from hon_env.spec import layout as L
from hon_env.spec.obs_features import OBS_FEATURES

SCENARIOS = ["origin_story", "two_fronts", "mastermind", "fame_race", "draft_deal",
             "draft_pick", "draft_pass"]


def _observations(scenario: str = "origin_story", n: int = 16, steps: int = 40,
                  seed: int = 0, **options) -> dict[str, np.ndarray]:
    """Observations of ``n`` games after ``steps`` random legal decisions."""
    env = vector_env(n, seed=seed, scenario=scenario, **options)
    obs, _ = env.reset()
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, *_ = env.step(acts)
    return obs


def _actor(seed: int = 0, blocks: int = 0) -> EntityActor:
    torch.manual_seed(seed)
    actor = build_actor({"network": "entity", "hidden": [64, 48], "entity_dim": 16,
                         "entity_blocks": blocks}, OBS_DIM, L.N_ACTIONS)
    # random biases and queries, so that no logit is trivially 0 and a wrong permutation
    # shows
    with torch.no_grad():
        for p in actor.parameters():
            p.add_(0.05 * torch.randn_like(p))
    return actor.eval()


def test_every_observation_float_is_read_once():
    """Each non-reserved float belongs to exactly one entity row or to the context."""
    count = np.zeros(OBS_DIM, int)
    for g in E.GROUPS:
        cols = E.row_columns(g)
        np.add.at(count, cols[cols >= 0], 1)
    np.add.at(count, E.context_columns(), 1)
    reserved = np.zeros(OBS_DIM, bool)
    for f in OBS_FEATURES:
        if f.name.startswith("reserved_"):
            for r in range(f.rows):
                reserved[f.index(r):f.index(r) + f.size] = True
    assert (count[~reserved] == 1).all(), np.flatnonzero(count[~reserved] != 1)
    assert (count[reserved] == 0).all()


def test_every_action_is_scored_once():
    order = E.action_order()
    assert sorted(order.tolist()) == list(range(L.N_ACTIONS))
    pointed = np.concatenate([E.action_rows(g).ravel() for g in E.GROUPS])
    assert len(set(pointed.tolist())) == pointed.size
    # the segments that point at entities are covered by them
    for name, first, size in L.SEGMENTS:
        if name in ("space", "attack", "solve", "play", "card", "hero", "draft"):
            assert set(range(first, first + size)) <= set(pointed.tolist()), name


@pytest.mark.parametrize("blocks", [0, 1])
@pytest.mark.parametrize("group", [g.name for g in E.GROUPS if g.set_like])
def test_permuting_a_set_like_kind_permutes_its_logits_alike(group, blocks):
    """Rows of a set-like entity kind (board spaces, cards, threat cards...) are a set to
    the network: permuting them in the observation permutes the logits of the actions
    that point at them and leaves every other logit and the value features unchanged,
    with or without transformer blocks across the rows."""
    g = next(g for g in E.GROUPS if g.name == group)
    scenario = {"villain2_card": "two_fronts", "headline": "fame_race",
                "draft_hero": "draft_pick"}.get(group, "origin_story")
    obs = _observations(scenario)["observation"]
    cols = E.row_columns(g)
    rng = np.random.default_rng(1)
    perm = rng.permutation(g.rows)
    moved = obs.copy()
    for r in range(g.rows):  # row r of the new observation is row perm[r] of the old
        moved[:, cols[r]] = obs[:, cols[perm[r]]]
    actor = _actor(blocks=blocks)
    with torch.no_grad():
        h = actor.features(torch.from_numpy(obs))
        h2 = actor.features(torch.from_numpy(moved))
    f = actor.feat_dim
    assert torch.allclose(h[:, :f], h2[:, :f], atol=1e-4)
    logits, logits2 = h[:, f:].numpy(), h2[:, f:].numpy()
    expect = logits.copy()
    acts = E.action_rows(g)
    for r in range(g.rows):
        expect[:, acts[r]] = logits[:, acts[perm[r]]]
    np.testing.assert_allclose(logits2, expect, atol=1e-4)
    if acts.size and (obs[:, cols] != 0).any():
        # and the test can fail: the logits did move
        assert not np.allclose(logits2, logits, atol=1e-4) or np.array_equal(perm,
                                                                              np.arange(g.rows))


def test_seats_are_ordered():
    """Seats are not a set (turn order runs through them): swapping two seats' rows
    changes the context."""
    g = next(g for g in E.GROUPS if g.name == "seat")
    obs = _observations(heroes=["majesty", "stride", "vigil"])["observation"]
    rows = E.row_columns(g)
    moved = obs.copy()
    moved[:, rows[1]] = obs[:, rows[2]]
    moved[:, rows[2]] = obs[:, rows[1]]
    assert not np.array_equal(moved, obs)
    actor = _actor()
    actor.kinds[1].pos.data.normal_()
    with torch.no_grad():
        h = actor.features(torch.from_numpy(obs))
        h2 = actor.features(torch.from_numpy(moved))
    f = actor.feat_dim
    assert not torch.allclose(h[:, :f], h2[:, :f])


@pytest.mark.parametrize("blocks", [0, 1])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_builds_for_every_variants_observation(scenario, blocks):
    obs = _observations(scenario, n=8, steps=12)
    actor = _actor(blocks=blocks)
    mask = torch.from_numpy(obs["action_mask"]).bool()
    with torch.no_grad():
        logp = actor.log_probs(torch.from_numpy(obs["observation"]), mask)
    assert logp.shape == (8, L.N_ACTIONS)
    assert torch.isfinite(logp[mask]).all()
    assert torch.allclose(logp.exp().sum(-1), torch.ones(8), atol=1e-4)
    assert (logp[~mask] < -1e6).all()


def test_blocks_mix_rows_only_within_a_game():
    """With transformer blocks a row attends to the rows of its own game: a game's logits
    do not change when another game of the batch changes, and the blocks do change what a
    game's rows score (so the test above can fail)."""
    obs = _observations()["observation"]
    actor, plain = _actor(blocks=1), _actor(blocks=0)
    # every weight but the blocks' the same, so a difference below is the blocks'
    plain.load_state_dict(actor.state_dict(), strict=False)
    other = obs.copy()
    other[1:] = _observations(seed=5)["observation"][1:]
    with torch.no_grad():
        h = actor.features(torch.from_numpy(obs))
        h2 = actor.features(torch.from_numpy(other))
        h0 = plain.features(torch.from_numpy(obs))
    assert torch.allclose(h[0], h2[0], atol=1e-5)
    assert not torch.allclose(h[1], h2[1], atol=1e-5)
    assert not torch.allclose(h[:, plain.feat_dim:], h0[:, plain.feat_dim:], atol=1e-3)


def test_column_subset_gives_the_full_result():
    """``features(obs[:, cols], cols)`` equals ``features(obs)`` when the other columns
    are 0 (the trainers may pass a column subset)."""
    obs = _observations()["observation"]
    cols = np.flatnonzero((obs != 0).any(0))
    actor = _actor()
    with torch.no_grad():
        full = actor.features(torch.from_numpy(obs))
        part = actor.features(torch.from_numpy(obs[:, cols]), torch.from_numpy(cols))
    assert torch.allclose(full, part)


def test_bad_configs_are_refused():
    with pytest.raises(ValueError, match="network"):
        build_actor({"network": "transformer", "hidden": [8]}, OBS_DIM, L.N_ACTIONS)
    with pytest.raises(ValueError, match="hidden"):
        build_actor({"network": "entity", "hidden": []}, OBS_DIM, L.N_ACTIONS)
    with pytest.raises(ValueError, match="entity_dim"):
        build_actor({"network": "entity", "hidden": [8], "entity_dim": 0}, OBS_DIM,
                    L.N_ACTIONS)
    with pytest.raises(ValueError, match="entity_blocks"):
        build_actor({"network": "entity", "hidden": [8], "entity_blocks": -1}, OBS_DIM,
                    L.N_ACTIONS)
    with pytest.raises(ValueError, match="spaces"):  # an earlier env version's spaces
        build_actor({"network": "entity", "hidden": [8]}, OBS_DIM - 22, L.N_ACTIONS)


def test_tabula_rasa_entity_mappo_trains_loads_by_name_and_resumes(tmp_path):
    """MAPPO with the entity network (one transformer block) and no kickstart on the
    sparse reward trains; its checkpoint loads by name with its block and plays legal
    actions; resuming it as an MLP is refused."""
    from agents.checkpoints import CheckpointError, load_checkpoint
    from agents.cli import train_mappo

    run = tmp_path / "entity"
    args = ["--run-dir", str(run), "--total-steps", "512", "--num-envs", "64",
            "--num-steps", "4", "--num-minibatches", "2", "--hidden", "32",
            "--network", "entity", "--entity-dim", "8", "--entity-blocks", "1",
            "--kickstart-coef", "0",
            "--reward-shaping", "{}", "--eval-every", "512", "--eval-games", "4",
            "--checkpoint-every", "512", "--progress", "false", "--tensorboard", "false"]
    train_mappo.main(args)
    ckpt = load_checkpoint(run / "final.pt")
    assert ckpt["config"]["network"] == "entity" and ckpt["config"]["kickstart_coef"] == 0
    policy = load_policy(str(run / "final.pt"))
    assert isinstance(policy.actor, EntityActor) and len(policy.actor.blocks) == 1
    env = vector_env(4, seed=0)
    obs, _ = env.reset()
    a = policy.act(obs["observation"], obs["action_mask"], obs["agent"])
    assert obs["action_mask"][np.arange(4), a].all()
    with pytest.raises(CheckpointError, match="network entity"):
        train_mappo.main([*args[:-2], "--resume", str(run / "final.pt"), "--network", "mlp",
                          "--total-steps", "1024", "--run-dir", str(tmp_path / "again")])


def test_maskable_ppo_with_the_entity_extractor_trains_loads_and_resumes(tmp_path):
    """MaskablePPO ``--network entity``: the entity encoders as SB3's features extractor;
    the .zip records the network as plain data, so it loads (nothing unpickled), plays
    legal actions and resumes."""
    from agents.networks.sb3 import EntityFeatures

    policy = train_play_resume(tmp_path, ["--hidden", "32", "--network", "entity",
                                          "--entity-dim", "8", "--entity-blocks", "1"])
    assert isinstance(policy.model.policy.features_extractor, EntityFeatures)
    assert len(policy.model.policy.features_extractor.net.blocks) == 1
