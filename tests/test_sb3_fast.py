"""MaskablePPO's default configuration (configs/train/ppo.yaml): the shared live
trunk (agents/networks/sb3.py) computes the MLP it stands for, the step-major rollout
buffer (agents/training/sb3_buffer.py) hands PPO the same samples as SB3's, and a run
with the trunk trains, loads from plain data, plays legal actions and resumes."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
import torch
from ppo_helpers import train_play_resume


def test_live_trunk_is_the_mlp_it_stands_for():
    from agents.networks.sb3 import LiveTrunkFeatures

    torch.manual_seed(0)
    space = gym.spaces.Box(0.0, np.inf, shape=(12,), dtype=np.float32)
    net = LiveTrunkFeatures(space, hidden=[6, 5, 4])
    x = torch.rand(7, 12)
    x[:, [2, 9]] = 0.0
    h = torch.tanh(net.first.first(x))
    for layer in net.rest:
        h = layer(h)
    torch.testing.assert_close(net(x), h)
    assert net(x).shape == (7, 4) and net.features_dim == 4


def test_live_trunk_in_bf16_hands_float32_to_the_heads():
    from agents.networks.sb3 import LiveTrunkFeatures

    torch.manual_seed(0)
    space = gym.spaces.Box(0.0, np.inf, shape=(12,), dtype=np.float32)
    net = LiveTrunkFeatures(space, hidden=[8, 8], amp=True)
    x = torch.rand(5, 12)
    out = net(x)
    assert out.dtype == torch.float32
    net.amp = False
    torch.testing.assert_close(out, net(x), atol=0.05, rtol=0.0)  # bf16 rounding only


def _fill(buf, rng: np.random.Generator, edit=None):
    """Fill ``buf`` with random samples; ``edit(step, obs)`` may change each step's
    observations before they go in."""
    n_envs, dim = buf.n_envs, buf.obs_shape[0]
    for step in range(buf.buffer_size):
        obs = rng.random((n_envs, dim), dtype=np.float32)
        if edit is not None:
            edit(step, obs)
        buf.add(obs, rng.integers(6, size=n_envs),
                rng.random(n_envs), np.zeros(n_envs), torch.as_tensor(rng.random(n_envs)),
                torch.as_tensor(rng.random(n_envs)),
                action_masks=(rng.random((n_envs, 6)) < 0.7).astype(np.float32))
    buf.compute_returns_and_advantage(torch.as_tensor(rng.random(n_envs)), np.zeros(n_envs))


def _rows(buf) -> np.ndarray:
    """Every sample of the buffer's one whole batch, a row each, in sorted order."""
    (batch,) = buf.get(batch_size=None)
    cols = [batch.observations, batch.actions.reshape(-1, 1), batch.old_values[:, None],
            batch.old_log_prob[:, None], batch.advantages[:, None], batch.returns[:, None],
            batch.action_masks]
    return _by_rows(torch.cat([c.float() for c in cols], 1).numpy())


def _by_rows(a: np.ndarray) -> np.ndarray:
    """The rows of ``a`` in sorted order (a batch's samples whatever their order)."""
    return a[np.lexsort(a.T[::-1])]


@pytest.mark.parametrize("rollouts", [1, 3])
def test_step_major_buffer_hands_out_sb3s_samples(rollouts):
    """The same samples as SB3's buffer, also after rollouts into the reused arrays."""
    from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer

    from agents.training.sb3_buffer import FlatMaskableRolloutBuffer

    rows = []
    for cls in (FlatMaskableRolloutBuffer, MaskableRolloutBuffer):
        rng = np.random.default_rng(7)
        buf = cls(4, gym.spaces.Box(-1.0, 1.0, (5,), np.float32), gym.spaces.Discrete(6),
                  n_envs=3)
        for k in range(rollouts):
            if k:
                list(buf.get(batch_size=4))
                buf.reset()
            _fill(buf, rng)
        rows.append(_rows(buf))
    np.testing.assert_array_equal(rows[0], rows[1])


def test_live_observations_narrow_the_minibatches_to_the_live_columns():
    """``live_observations`` keeps every column non-zero somewhere in the rollout, in
    order, and the minibatches then hold each sample's row at those columns."""
    from agents.training.sb3_buffer import FlatMaskableRolloutBuffer

    buf = FlatMaskableRolloutBuffer(4, gym.spaces.Box(-1.0, 1.0, (9,), np.float32),
                                    gym.spaces.Discrete(6), n_envs=3)
    def edit(step: int, obs: np.ndarray) -> None:
        obs[:, [0, 4, 8]] = 0.0  # never live: dead in every step
        if step == 2:
            obs[1, 4] = -0.5  # live in one sample only

    _fill(buf, np.random.default_rng(3), edit)
    whole = buf.observations.reshape(12, 9).copy()
    cols = buf.live_observations()
    np.testing.assert_array_equal(cols, [1, 2, 3, 4, 5, 6, 7])
    (batch,) = buf.get(batch_size=None)
    assert batch.action_masks.dtype == torch.bool
    narrowed = batch.observations.numpy()
    assert narrowed.shape == (12, 7)
    np.testing.assert_array_equal(_by_rows(narrowed), _by_rows(whole[:, cols]))
    buf.reset()  # the next rollout writes whole observations again
    assert buf.observations.shape == (4, 3, 9)
    with pytest.raises(RuntimeError, match="full rollout"):
        buf.live_observations()


def test_add_marks_the_live_columns():
    from agents.training.sb3_buffer import FlatMaskableRolloutBuffer

    buf = FlatMaskableRolloutBuffer(2, gym.spaces.Box(-1.0, 1.0, (5,), np.float32),
                                    gym.spaces.Discrete(3), n_envs=2)
    buf.reset()
    obs = np.zeros((2, 5), np.float32)
    obs[1, 3] = 2.0
    obs[0, 0] = -0.0  # a negative zero is a zero
    one = torch.zeros(2)
    buf.add(obs, np.zeros(2), np.zeros(2), np.zeros(2), one, one)
    np.testing.assert_array_equal(np.flatnonzero(buf.live), [3])
    np.testing.assert_array_equal(buf.observations[0], obs)


def test_an_update_on_the_live_columns_is_the_whole_observations_update(monkeypatch):
    """MaskablePPO's update with the minibatches narrowed to the rollout's live columns
    (the default network) moves every weight as the update on whole observations does."""
    from agents.cli import train_ppo
    from hon_env.envs.sb3 import SB3VecEnv

    cfg = train_ppo.Config(num_envs=8, n_steps=8, batch_size=16, n_epochs=2,
                           hidden=[16, 16], amp="false", seed=5)
    trained = []
    for narrow in (True, False):
        if not narrow:
            monkeypatch.setattr(train_ppo, "live_input_layer", lambda extractor: None)
        model = train_ppo.build_model(cfg, SB3VecEnv(8, 5), "cpu")
        model.learn(64)
        width = model.rollout_buffer.observations.shape[-1]
        assert (width < 4450) == narrow, width
        trained.append(model.policy.state_dict())
    for name, value in trained[0].items():
        torch.testing.assert_close(value, trained[1][name], atol=1e-5, rtol=1e-4,
                                   msg=name)
    first = "features_extractor.first.first.weight"
    assert not torch.equal(trained[0][first], train_ppo.build_model(
        cfg, SB3VecEnv(8, 5), "cpu").policy.state_dict()[first])  # the update moved it


def test_shared_trunk_ppo_trains_loads_and_resumes(tmp_path):
    from agents.networks.sb3 import LiveTrunkFeatures
    from agents.training.sb3_buffer import FlatMaskableRolloutBuffer

    policy = train_play_resume(tmp_path, ["--hidden", "32", "16", "--shared-trunk", "true",
                                          "--amp", "true"])
    extractor = policy.model.policy.features_extractor
    assert isinstance(extractor, LiveTrunkFeatures) and extractor.amp
    assert extractor.first.first.out_features == 32 and extractor.features_dim == 16
    # the trainer's model, new or resumed from a .zip that names no buffer class
    from agents.cli.train_ppo import Config, build_model
    from hon_env.envs.sb3 import SB3VecEnv

    env = SB3VecEnv(4, 0)
    fresh = build_model(Config(num_envs=4, n_steps=8, batch_size=16), env, "cpu")
    resumed = build_model(Config(resume=str(tmp_path / "resumed" / "final.zip")), env, "cpu")
    for model in (fresh, resumed):
        assert isinstance(model.rollout_buffer, FlatMaskableRolloutBuffer)


@pytest.mark.parametrize(("fields", "match"), [
    ({"shared_trunk": False, "amp": "true"}, "amp true needs"),
    ({"amp": "fast"}, "amp must be"),
    ({"live_input": True}, "live_input applies"),
    ({"network": "entity", "live_input": True, "shared_trunk": False}, "live_input applies"),
])
def test_bad_fast_settings_are_refused(fields, match):
    from agents.cli.train_ppo import Config

    with pytest.raises(ValueError, match=match):
        Config(**fields).check()


def test_the_config_files_load_and_the_default_is_the_dataclass():
    """ppo.yaml is what ``Config()`` says; ppo_sb3.yaml is SB3's own MLP in float32."""
    import dataclasses

    from agents.cli.train_ppo import Config
    from agents.training.config import parse_config
    from hon_env.content.loader import TRAIN_CONFIGS_DIR

    cfg = parse_config(Config, [], TRAIN_CONFIGS_DIR / "ppo.yaml")
    cfg.check()
    assert cfg.shared_trunk and cfg.amp == "auto" and cfg.num_envs * cfg.n_steps == 32768
    assert cfg.batch_size == 2048 and cfg.n_epochs == 4
    base = Config()
    for f in ("num_envs", "n_steps", "batch_size", "n_epochs", "hidden", "shared_trunk",
              "amp", "live_input"):
        assert getattr(cfg, f) == getattr(base, f), f
    sb3 = parse_config(Config, [], TRAIN_CONFIGS_DIR / "ppo_sb3.yaml")
    sb3.check()
    assert not sb3.shared_trunk and sb3.amp == "false" and sb3.num_envs == 256
    assert dataclasses.asdict(sb3)["batch_size"] == 4096


def test_old_checkpoint_records_mean_sb3s_own_mlp():
    """A network record without shared_trunk/amp (before they existed) rebuilds SB3's MLP."""
    from agents.networks.sb3 import sb3_policy_kwargs

    old = {"network": "mlp", "hidden": [512, 512], "entity_dim": 32, "live_input": False}
    kwargs = sb3_policy_kwargs(old)
    assert kwargs["net_arch"] == [512, 512] and "features_extractor_class" not in kwargs


@pytest.mark.parametrize("config", ["ppo.yaml", "ppo_sb3.yaml"])
def test_the_optimizer_is_sb3s_adam_fused(config):
    """SB3's Adam for PPO (eps 1e-5), run as the fused kernel, for both configs."""
    from agents.cli.train_ppo import Config, build_model
    from agents.training.config import parse_config
    from hon_env.content.loader import TRAIN_CONFIGS_DIR
    from hon_env.envs.sb3 import SB3VecEnv

    cfg = parse_config(Config, ["--num-envs", "4", "--hidden", "8", "8"],
                       TRAIN_CONFIGS_DIR / config)
    opt = build_model(cfg, SB3VecEnv(4, 0), "cpu").policy.optimizer
    assert isinstance(opt, torch.optim.Adam)
    assert opt.defaults["eps"] == 1e-5 and opt.defaults["fused"] is True
