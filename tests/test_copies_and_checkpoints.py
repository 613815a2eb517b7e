"""Safe copies and files: Scenario, VectorEnv and the envs pickle and deep-copy into true
copies; checkpoints load with ``weights_only=True`` and every failure names the file."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
import torch

from agents.checkpoints import CheckpointError
from agents.networks import Actor
from agents.registry import load_policy
from hon_env import Game, hour_of_need_v8, vector_env
from hon_env.core.observe import OBS_DIM
from hon_env.envs.gym_env import HourOfNeedEnv
from hon_env.spec.layout import N_ACTIONS

COPIES = {"pickle": lambda x: pickle.loads(pickle.dumps(x)), "deepcopy": copy.deepcopy}


def _first_legal(mask: np.ndarray, k: int = 0) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[k % len(legal)])


@pytest.mark.parametrize("how", COPIES)
def test_scenario_copies_play_the_same_game(origin, how):
    twin = COPIES[how](origin)
    assert twin.tables.base is not None and not twin.tables.base.flags.writeable
    assert twin.hero_ids == origin.hero_ids and twin.rules == origin.rules
    a, b = Game(origin, seed=9), Game(twin, seed=9)
    for k in range(40):
        if a.is_over:
            break
        act = _first_legal(a.legal_mask(), k)
        a.apply(act)
        b.apply(act)
    np.testing.assert_array_equal(a.state, b.state)


@pytest.mark.parametrize("how", COPIES)
def test_vector_env_copies_continue_identically(origin, how):
    env = vector_env(3, seed=2, scenario=origin, n_heroes=None)
    env.reset()
    rng = np.random.default_rng(0)
    env.step(env.sample_actions(rng))
    twin = COPIES[how](env)
    for _ in range(30):
        actions = env.sample_actions(rng)
        out_a, out_b = env.step(actions), twin.step(actions)
        np.testing.assert_array_equal(out_a[0]["observation"], out_b[0]["observation"])
    np.testing.assert_array_equal(env.state, twin.state)


def _aec_copy_continues(make, how):
    env = make()
    env.reset(seed=4)
    for k in range(6):
        env.step(_first_legal(env.observe(env.agent_selection)["action_mask"], k))
    twin = COPIES[how](env)
    assert twin.agent_selection == env.agent_selection
    assert twin.unwrapped.game is not env.unwrapped.game
    for k in range(30):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        act = _first_legal(env.observe(agent)["action_mask"], 3 * k + 1)
        env.step(act)
        twin.step(act)
        assert env.rewards == twin.rewards and env.agent_selection == twin.agent_selection
    np.testing.assert_array_equal(env.state(), twin.state())


@pytest.mark.parametrize("how", COPIES)
def test_aec_env_copy_mid_episode_is_a_true_copy(how):
    """Before: deepcopy (EzPickle) returned a fresh env that had never been reset."""
    _aec_copy_continues(lambda: hour_of_need_v8.env(n_heroes=2), how)
    _aec_copy_continues(lambda: hour_of_need_v8.raw_env(n_heroes=2), how)


@pytest.mark.parametrize("how", COPIES)
def test_parallel_and_gym_copies_mid_episode(how):
    par = hour_of_need_v8.parallel_env(n_heroes=2)
    obs, _ = par.reset(seed=1)
    twin = COPIES[how](par)
    assert twin.agents == par.agents
    for k in range(20):
        if not par.agents:
            break
        actions = {a: _first_legal(obs[a]["action_mask"], k) for a in par.agents}
        obs, r1, *_ = par.step(actions)
        _, r2, *_ = twin.step(actions)
        assert r1 == r2
    np.testing.assert_array_equal(par.state(), twin.state())
    gym_env = HourOfNeedEnv(n_heroes=2)
    gym_env.reset(seed=3)
    gym_twin = COPIES[how](gym_env)
    for k in range(20):
        act = _first_legal(gym_env.action_masks(), k)
        o1, *_ = gym_env.step(act)
        o2, *_ = gym_twin.step(act)
        np.testing.assert_array_equal(o1, o2)


def test_a_copied_game_is_independent(origin):
    g = Game(origin, seed=1)
    twin = copy.deepcopy(g)
    g.apply(_first_legal(g.legal_mask()))
    assert not np.array_equal(g.state, twin.state)
    twin.apply(_first_legal(twin.legal_mask()))
    np.testing.assert_array_equal(g.state, twin.state)


# --------------------------------------------------------------------------- checkpoints

def _save(path, **changes):
    actor = Actor(OBS_DIM, N_ACTIONS, [8])
    ckpt = {"algo": "mappo", "obs_dim": OBS_DIM, "n_actions": N_ACTIONS,
            "config": {"hidden": [8]}, "actor": actor.state_dict()}
    ckpt.update(changes)
    ckpt = {k: v for k, v in ckpt.items() if v is not None}
    torch.save(ckpt, path)
    return path


def test_a_plain_checkpoint_loads_with_weights_only(tmp_path):
    policy = load_policy(str(_save(tmp_path / "ok.pt")))
    mask = np.zeros((1, N_ACTIONS), np.int8)
    mask[0, 5] = 1
    assert policy.act(np.zeros((1, OBS_DIM), np.float32), mask, np.zeros(1)).tolist() == [5]


def _write(path, data: bytes):
    path.write_bytes(data)
    return path


class _Payload:
    """An object a weights_only load must refuse to build."""

    def __reduce__(self):
        return (print, ("this must never run",))


BAD_FILES = {
    "missing": (lambda p: p, "no such checkpoint file"),
    "empty": (lambda p: _write(p, b""), "the checkpoint file is empty"),
    "garbage": (lambda p: _write(p, b"\x80\x04garbage" * 50), "refused|not a readable"),
    "text": (lambda p: _write(p, b"hello"), "refused|not a readable"),
    "truncated": (lambda p: _write(p, _save(p).read_bytes()[:300]), "not a readable"),
    "code": (lambda p: torch.save({"algo": "mappo", "x": _Payload()}, p) or p,
             "refused: a checkpoint may hold only tensors"),
    "not a dict": (lambda p: torch.save([1, 2], p) or p, "expected a dict"),
    "no actor": (lambda p: _save(p, actor=None), r"missing keys \['actor'\]"),
    "other algo": (lambda p: _save(p, algo="ppo"), "'ppo' checkpoint, not 'mappo'"),
    "old sizes": (lambda p: _save(p, obs_dim=1739, n_actions=398),
                  "1739 floats and 398 actions.*retrain"),
    "bad hidden": (lambda p: _save(p, config={"hidden": "wide"}),
                   "config 'hidden' must be a list"),
    "bad network": (lambda p: _save(p, config={"hidden": [16], "network": "cnn"}),
                    "config 'network' must be one of mlp, entity"),
    "wrong sizes": (lambda p: _save(p, config={"hidden": [16]}),
                    "the actor weights do not fit the network"),
}


@pytest.mark.parametrize("case", BAD_FILES)
def test_bad_checkpoints_name_the_file_and_the_reason(tmp_path, case, capsys):
    make, reason = BAD_FILES[case]
    path = make(tmp_path / "model.pt")
    with pytest.raises(CheckpointError, match=reason) as err:
        from agents.trained import MappoPolicy

        MappoPolicy.load(path)
    assert str(path) in str(err.value)
    assert "this must never run" not in capsys.readouterr().out


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04junk", b"not a zip"])
def test_bad_ppo_zip_names_the_file(tmp_path, content):
    path = tmp_path / "model.zip"
    path.write_bytes(content)
    with pytest.raises(CheckpointError) as err:
        load_policy(str(path))
    assert str(path) in str(err.value)


# --------------------------------------------------------------------------- shipped policies

def test_exported_checkpoint_plays_like_the_training_one_and_cannot_resume(tmp_path):
    """The actor-only export (float16) picks the same greedy actions as the full file, and
    resuming training from it is refused with the missing key named."""
    from agents.checkpoints import export_actor

    full = _save(tmp_path / "full.pt", critic={}, optimizer={}, global_step=7)
    out = export_actor(full, tmp_path / "small.pt")
    assert set(out) == {"algo", "config", "global_step", "obs_dim", "n_actions", "actor"}
    assert all(v.dtype == torch.float16 for v in out["actor"].values())
    rng = np.random.default_rng(0)
    obs = rng.normal(size=(64, OBS_DIM)).astype(np.float32)
    masks = (rng.random((64, N_ACTIONS)) < 0.3).astype(np.int8)
    masks[:, 0] = 1
    a_full = load_policy(str(full)).act(obs, masks, np.zeros(64))
    a_small = load_policy(str(tmp_path / "small.pt")).act(obs, masks, np.zeros(64))
    assert (a_full == a_small).mean() > 0.95  # float16 rounding may flip a near tie
    assert masks[np.arange(64), a_small].all()
    from agents.cli.train_mappo import Config, train

    with pytest.raises(CheckpointError, match="cannot resume: missing key 'critic'"):
        train(Config(resume=str(tmp_path / "small.pt"), run_dir=str(tmp_path / "run")))


def test_shipped_policies_load_by_name_and_unknown_names_list_them():
    from agents.registry import PRETRAINED, list_pretrained
    from agents.trained import MappoPolicy

    names = list_pretrained()
    assert "mappo:duo" in names
    for name in names:
        assert isinstance(load_policy(name), MappoPolicy)
        assert (PRETRAINED / f"{name.replace(':', '_')}.pt").stat().st_size <= 10 * 2**20
    with pytest.raises(ValueError, match=r"no shipped policy 'mappo:nope'.*mappo:duo"):
        load_policy("mappo:nope")


def test_prefix_versions_end_where_later_sections_begin():
    """v3 ends where v4's Fame sections begin, v4 where v5's enemy_ties section begins and
    v5 where v6's Two Fronts sections begin and v6 where v7's draft_pass section begins:
    earlier versions' observations are exact prefixes of this one (v6 appended actions)."""
    from agents.checkpoints import PREFIX_VERSIONS
    from hon_env.spec import layout as L
    from hon_env.spec import obs_features as F

    assert PREFIX_VERSIONS == {"hour_of_need_v3": (F.OFF_FAME, 409),
                               "hour_of_need_v4": (F.OFF_ET, 409),
                               "hour_of_need_v5": (F.OFF_TWO_FRONTS, 409),
                               "hour_of_need_v6": (F.OFF_DRAFT_PASS, L.N_ACTIONS)}
    assert (F.OFF_FAME, F.OFF_ET, F.OFF_TWO_FRONTS, L.A_TARGET2) == (2247, 2448, 3481, 409)
    assert (F.OFF_DRAFT_PASS, L.N_ACTIONS) == (4428, 456)


@pytest.mark.parametrize("version", ["hour_of_need_v3", "hour_of_need_v4", "hour_of_need_v5",
                                     "hour_of_need_v6"])
def test_a_checkpoint_of_an_earlier_prefix_version_reads_the_prefix(tmp_path, version):
    """A policy trained on an earlier env version whose spaces this version only extended
    (PREFIX_VERSIONS) acts on the observation's prefix and never picks a new action, except
    where only new actions are legal; other sizes are refused."""
    from agents.checkpoints import PREFIX_VERSIONS
    from agents.trained import MappoPolicy

    n_obs, n_act = PREFIX_VERSIONS[version]
    assert n_obs < OBS_DIM and n_act <= N_ACTIONS
    actor = Actor(n_obs, n_act, [8])
    torch.save({"algo": "mappo", "obs_dim": n_obs, "n_actions": n_act,
                "config": {"hidden": [8]}, "actor": actor.state_dict()}, tmp_path / "old.pt")
    policy = load_policy(str(tmp_path / "old.pt"))
    rng = np.random.default_rng(1)
    obs = rng.normal(size=(16, OBS_DIM)).astype(np.float32)
    masks = np.ones((16, N_ACTIONS), np.int8)
    if n_act < N_ACTIONS:
        masks[3, :n_act] = 0  # only actions the old policy does not know
    a = policy.act(obs, masks, np.zeros(16))
    known = np.arange(16) != 3 if n_act < N_ACTIONS else np.ones(16, bool)
    assert (a[known] < n_act).all()
    if n_act < N_ACTIONS:
        assert a[3] == n_act
    obs[:, n_obs:] = 99.0  # what it cannot read changes nothing
    np.testing.assert_array_equal(policy.act(obs, masks, np.zeros(16)), a)
    with pytest.raises(CheckpointError, match="retrain it"):
        MappoPolicy.load(_save(tmp_path / "odd.pt", obs_dim=n_obs + 1))
