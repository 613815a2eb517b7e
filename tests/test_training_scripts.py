"""Training scripts run end to end on a few hundred steps, and their checkpoints load."""

from __future__ import annotations

import csv
import importlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
import yaml

from agents.checkpoints import load_checkpoint
from agents.evaluation import evaluate
from agents.registry import load_policy
from agents.training.config import parse_config
from hon_env import vector_env
from hon_env.core.observe import OBS_DIM, STATE_DIM
from hon_env.spec import layout as L

ROOT = Path(__file__).resolve().parents[1]


def _script(name: str):
    """The module behind ``scripts/<name>.py`` (``agents/cli/<name>.py``)."""
    return importlib.import_module(f"agents.cli.{name}")


# a MAPPO run of a few 128-decision updates on a 16-wide network, quiet
TINY_MAPPO = ["--num-envs", "32", "--num-steps", "4", "--num-minibatches", "2",
              "--hidden", "16", "--eval-games", "2", "--progress", "false",
              "--tensorboard", "false"]


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open() as fh:
        return list(csv.DictReader(fh))


def _plays(policy_path: Path) -> None:
    """The checkpoint loads through the registry and plays legal actions to the end."""
    policy = load_policy(str(policy_path))
    r = evaluate(policy, games=4, seed=3)
    assert r.wins + r.losses + r.truncated == 4
    env = vector_env(4, seed=0)
    obs, _ = env.reset()
    a = policy.act(obs["observation"], obs["action_mask"], obs["agent"])
    assert a.shape == (4,) and obs["action_mask"][np.arange(4), a].all()


def test_train_mappo_smoke(tmp_path, capsys):
    mod = _script("train_mappo")
    run = tmp_path / "mappo"
    args = ["--run-dir", str(run), "--total-steps", "512", "--num-envs", "64",
            "--num-steps", "4", "--num-minibatches", "2", "--hidden", "32",
            "--eval-every", "256", "--eval-games", "4", "--checkpoint-every", "256",
            "--kickstart-coef", "1.0", "--kickstart-steps", "256", "--progress", "false"]
    mod.main(args)
    train_rows = _rows(run / "train.csv")
    assert [int(r["step"]) for r in train_rows] == [256, 512]
    kick = [float(r["kickstart_coef"]) for r in train_rows]
    assert kick[0] > 0 and kick[1] == 0
    assert len(_rows(run / "eval.csv")) == 2
    assert list((run / "tb").iterdir())
    assert yaml.safe_load((run / "config.yaml").read_text())["num_envs"] == 64
    assert (run / "checkpoints" / "step_256.pt").exists()
    _plays(run / "final.pt")
    out = capsys.readouterr().out
    assert "[train]" in out and "[eval]" in out, out
    # the critic is a value head on the shared trunk (32 wide) and the state's hands
    critic = load_checkpoint(run / "final.pt", "cpu")["critic"]
    assert critic["net.trunk.0.weight"].shape[1] == 32 + STATE_DIM - OBS_DIM
    # resume from the first checkpoint: continues at its step count
    mod.main(args + ["--resume", str(run / "checkpoints" / "step_256.pt"),
                     "--run-dir", str(tmp_path / "resumed")])
    assert [int(r["step"]) for r in _rows(tmp_path / "resumed" / "train.csv")] == [512]
    with pytest.raises(Exception, match="trained with shared_trunk true"):
        mod.main(args + ["--resume", str(run / "final.pt"), "--shared-trunk", "false",
                         "--run-dir", str(tmp_path / "r2"), "--total-steps", "1024"])


def test_train_mappo_separate_critic(tmp_path):
    """``--shared-trunk false``: a critic MLP of its own over the whole global state."""
    mod = _script("train_mappo")
    run = tmp_path / "sep"
    mod.main(["--run-dir", str(run), "--total-steps", "256", "--num-envs", "32",
              "--num-steps", "4", "--num-minibatches", "2", "--hidden", "16",
              "--shared-trunk", "false", "--eval-games", "2", "--progress", "false"])
    critic = load_checkpoint(run / "final.pt", "cpu")["critic"]
    assert critic["net.trunk.0.weight"].shape == (16, STATE_DIM)
    _plays(run / "final.pt")


def test_first_layer_on_live_columns_matches_the_full_layer():
    """``Actor.features`` on the observation's non-zero columns only (``live_columns``) is
    the full first layer's result, and gives the other weights a zero gradient."""
    import torch

    from agents.networks import Actor, live_columns

    torch.manual_seed(0)
    actor = Actor(40, 7, [16, 8])
    x = np.zeros((5, 40), np.float32)
    x[:, [3, 17, 18, 39]] = np.random.default_rng(0).random((5, 4))
    cols = live_columns(x)
    assert cols.tolist() == [3, 17, 18, 39]
    full = actor.features(torch.from_numpy(x))
    part = actor.features(torch.from_numpy(x[:, cols]), torch.from_numpy(cols))
    torch.testing.assert_close(part, full)
    part.sum().backward()
    grad = actor.net.trunk[0].weight.grad
    assert grad[:, cols].abs().sum() > 0
    assert grad[:, np.setdiff1d(np.arange(40), cols)].abs().sum() == 0


def test_live_columns_are_the_columns_with_a_value_other_than_zero():
    """``live_columns`` reads bits: a column that holds only 0.0 and -0.0 is not live; one
    with a tiny, negative, infinite or NaN value in any row is."""
    from agents.networks import live_columns

    x = np.zeros((3, 8), np.float32)
    x[0, 1] = -0.0
    x[2, 1] = 0.0
    x[1, 2] = np.float32(1e-45)  # the smallest subnormal
    x[2, 3] = -2.5
    x[0, 5] = np.inf
    x[1, 6] = np.nan
    x[:, 7] = -0.0
    assert live_columns(x).tolist() == [2, 3, 5, 6]
    assert live_columns(x[:, ::2]).tolist() == [1, 3]  # a strided view reads the same
    rng = np.random.default_rng(3)
    y = np.where(rng.random((64, 300)) < 0.01, rng.normal(size=(64, 300)), 0).astype(np.float32)
    assert live_columns(y).tolist() == np.flatnonzero((y != 0).any(0)).tolist()


def test_the_rollouts_first_layer_copy_is_what_the_forward_reads():
    """``MappoLearner.first_weights``: the rollout's frozen copy of the first layer's kept
    columns gives the forward the same features and values, to the bit, as the forward that
    gathers (and under bf16 autocast, casts) them itself."""
    from agents.cli.train_mappo import Config
    from agents.training.mappo import MappoLearner

    torch.manual_seed(0)
    for amp in ("false", "true"):
        cfg = Config(hidden=[32, 16], critic_hidden=[16], amp=amp)
        learner = MappoLearner(cfg, torch.device("cpu"), "heroes")
        cols = torch.tensor([5, 40, 41, 900, 3000])
        obs = torch.randn(6, len(cols))
        state = torch.randn(6, learner.state_width)
        first = learner.first_weights(cols)
        assert not first.requires_grad
        assert first.dtype == (torch.bfloat16 if learner.amp else torch.float32)
        with torch.no_grad(), learner.autocast:
            h, v = learner.forward(obs, state, cols)
            h1, v1 = learner.forward(obs, state, cols, first=first)
        assert torch.equal(h, h1) and torch.equal(v, v1)
    assert learner.first_weights(None) is None


def test_head_on_the_legal_actions_matches_the_full_head():
    """``Actor.log_probs_of`` scores only the actions legal in some row of the batch: the
    same log-probabilities and head gradients as the whole head (float32), and under bf16
    features the same log-probabilities as a float32 head on them."""
    from agents.networks import MASKED_LOGIT, Actor

    torch.manual_seed(0)
    actor = Actor(12, 9, [16])
    obs = torch.randn(6, 12)
    mask = torch.zeros(6, 9, dtype=torch.bool)
    mask[:, 0] = True
    mask[[1, 4], 5] = True
    mask[2, [2, 7]] = True  # actions 3, 6 and 8 are legal nowhere
    head = actor.net.head

    def full(h: torch.Tensor) -> torch.Tensor:
        return head(h.float()).masked_fill(~mask, MASKED_LOGIT).log_softmax(-1)

    h = actor.features(obs)
    got = actor.log_probs_of(h, mask)
    want = full(h)
    torch.testing.assert_close(got, want)
    weights = torch.randn(6, 9)  # a loss that reads every legal log-probability
    (got.masked_fill(~mask, 0) * weights).sum().backward()
    g_part = head.weight.grad.clone()
    assert g_part[[3, 6, 8]].abs().sum() == 0 and g_part[[0, 2, 5, 7]].abs().sum() > 0
    head.zero_grad()
    (full(actor.features(obs)).masked_fill(~mask, 0) * weights).sum().backward()
    torch.testing.assert_close(g_part, head.weight.grad)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        hb = actor.features(obs)
        assert hb.dtype == torch.bfloat16
        got_b = actor.log_probs_of(hb, mask)
    assert got_b.dtype == torch.float32
    torch.testing.assert_close(got_b, full(hb))


def test_log_probs_on_the_legal_actions_read_as_the_whole_distribution():
    """``Actor.log_probs_on`` keeps only the columns of actions legal in some row: each
    row's log-probability of a legal action, its entropy and the full table are those of
    the whole masked distribution, and its samples are legal actions drawn with the whole
    distribution's frequencies."""
    from agents.networks import Actor, entropy, masked_log_softmax

    torch.manual_seed(0)
    actor = Actor(12, 9, [16])
    mask = torch.zeros(4, 9, dtype=torch.bool)
    mask[:, 1] = True
    mask[0, [4, 8]] = True
    mask[3, [2, 4]] = True  # actions 0, 3, 5, 6 and 7 are legal nowhere
    h = actor.features(torch.randn(4, 12))
    dist = actor.log_probs_on(h, mask)
    want = masked_log_softmax(actor.net.out(h), mask)
    assert dist.acts.tolist() == [1, 2, 4, 8]
    taken = torch.tensor([8, 1, 1, 2])
    torch.testing.assert_close(dist.at(taken), want.gather(1, taken[:, None]).squeeze(1))
    torch.testing.assert_close(dist.entropy(), entropy(want))
    torch.testing.assert_close(dist.full(9), want)
    gen = torch.Generator().manual_seed(1)
    draws = torch.stack([dist.sample(gen) for _ in range(4000)])  # [4000, 4]
    assert mask.gather(1, draws.t()).all()
    freq = torch.stack([(draws == a).float().mean(0) for a in range(9)], 1)  # [4, 9]
    assert (freq - want.exp()).abs().max() < 0.03


def test_kept_columns_train_as_the_whole_weight():
    """Adam on a weight's kept columns only (``KeptColumns``) is the whole weight's update
    when every other column's input is 0: after blocks of steps, the kept set growing
    between them and the first block starting with no optimiser state, the weights,
    Adam's moments and its step count equal the whole weight's, clipping included, and
    the optimiser holds the whole weight again."""
    from torch import nn

    from agents.training.kept_columns import KeptColumns

    def make() -> tuple[nn.Linear, torch.optim.Optimizer]:
        torch.manual_seed(0)
        layer = nn.Linear(10, 4)
        return layer, torch.optim.Adam(layer.parameters(), lr=0.05, fused=True)

    whole, opt_w = make()
    part_of, opt_p = make()
    gen = torch.Generator().manual_seed(1)
    for cols in ([1, 4], [1, 4, 7], [1, 4, 7, 0]):  # the kept set only grows
        c = torch.tensor(cols)
        with KeptColumns(opt_p, part_of.weight, c) as part:
            assert part.shape == (4, len(cols))
            for _ in range(3):
                x = torch.zeros(8, 10)
                x[:, c] = torch.randn(8, len(cols), generator=gen)
                opt_w.zero_grad()
                whole(x).square().sum().backward()
                nn.utils.clip_grad_norm_(whole.parameters(), 0.5)
                opt_w.step()
                opt_p.zero_grad()
                nn.functional.linear(x[:, c], part, part_of.bias).square().sum().backward()
                nn.utils.clip_grad_norm_(opt_p.param_groups[0]["params"], 0.5)
                opt_p.step()
        torch.testing.assert_close(part_of.weight, whole.weight)
        held = opt_p.param_groups[0]["params"]
        assert any(p is part_of.weight for p in held) and not any(p is part for p in held)
        for key in ("exp_avg", "exp_avg_sq", "step"):
            torch.testing.assert_close(opt_p.state[part_of.weight][key],
                                       opt_w.state[whole.weight][key])
    assert whole.weight[:, [2, 3, 5, 6, 8, 9]].ne(part_of.weight[:, [2, 3, 5, 6, 8, 9]]).sum() == 0


def test_a_minibatch_in_two_halves_trains_as_the_whole_minibatch():
    """``RowHalves``: a CPU update sums each minibatch's gradient over its two halves of
    rows. With the imitation term on, the weights after an update match those of the
    update on whole minibatches (to float32 rounding), and the halves side by side on two
    threads give the same weights, to the bit, as one after the other on one thread."""
    import copy
    from contextlib import contextmanager

    from agents.cli.train_mappo import DEFAULT_CONFIG, Config
    from agents.training.mappo import MappoLearner, Rollout
    from agents.training.row_halves import RowHalves
    from hon_env.envs.vector import VectorEnv

    class WholeMinibatches(RowHalves):
        @contextmanager
        def threads(self, device):
            yield None

    cfg = parse_config(Config, ["--num-steps", "6", "--num-minibatches", "2", "--hidden",
                                "24", "--critic-hidden", "16", "--amp", "false",
                                "--shared-trunk", "true"], DEFAULT_CONFIG)
    torch.manual_seed(0)
    learner = MappoLearner(cfg, torch.device("cpu"))
    env = VectorEnv(8, 3, "origin_story", global_state=learner.env_state)
    roll = Rollout(env, cfg, "heroes", None, torch.device("cpu"), learner)
    roll.collect(learner, kick=1.0)
    weights = {}
    threads = torch.get_num_threads()
    try:
        for name, n_threads, halves in (("whole", 1, WholeMinibatches()), ("one", 1, None),
                                        ("two", 2, None)):
            trained = copy.deepcopy(learner)
            if halves is not None:
                trained.halves = halves
            torch.set_num_threads(n_threads)
            torch.manual_seed(5)  # the same minibatches
            stats = trained.update(roll, kick=1.0)
            assert torch.get_num_threads() == n_threads  # the block restores the count
            assert np.isfinite(list(stats.values())).all()
            weights[name] = [p.detach().clone() for p in trained.params]
    finally:
        torch.set_num_threads(threads)
    moved = [not torch.equal(a, b) for a, b in zip(weights["one"], learner.params,
                                                    strict=True)]
    assert sum(moved) > len(moved) // 2  # the update trained
    for whole, one, two in zip(weights["whole"], weights["one"], weights["two"], strict=True):
        torch.testing.assert_close(one, whole, rtol=1e-4, atol=1e-5)
        assert torch.equal(one, two)


def test_a_rollout_in_two_halves_is_the_same_on_one_thread_and_two():
    """The rollout's games act in two halves (``RowHalves``), each drawing its actions
    from its own generator seeded in a fixed order: the same seed gives the same actions,
    to the bit, whether the halves run side by side on two threads or one after the other
    on one, and the same log-probabilities and values up to float rounding (on an AMD EPYC
    with AVX-512 torch's float32 kernels round the last bit differently with one thread in
    the process or two; on the Xeon they did not); the actions are legal in their rows."""
    from agents.cli.train_mappo import DEFAULT_CONFIG, Config
    from agents.training.cpu_threads import set_cpu_threads
    from agents.training.mappo import MappoLearner, Rollout
    from hon_env.envs.vector import VectorEnv

    cfg = parse_config(Config, ["--num-steps", "5", "--hidden", "24", "--critic-hidden",
                                "16", "--shared-trunk", "true"], DEFAULT_CONFIG)
    buffers = []
    threads = torch.get_num_threads()
    try:
        for n_threads in (1, 2):
            set_cpu_threads(n_threads)
            torch.manual_seed(0)
            learner = MappoLearner(cfg, torch.device("cpu"))
            env = VectorEnv(9, 3, "origin_story", global_state=learner.env_state)
            roll = Rollout(env, cfg, "heroes", None, torch.device("cpu"), learner)
            roll.collect(learner, kick=0.0)
            assert torch.get_num_threads() == n_threads
            buffers.append([roll.act_b.clone(), roll.logp_b.clone(), roll.val_b.clone()])
            legal = roll.mask_b.gather(2, roll.act_b[..., None])
            assert legal.all()
    finally:
        torch.set_num_threads(threads)
    (act_1, logp_1, val_1), (act_2, logp_2, val_2) = buffers
    assert torch.equal(act_1, act_2)  # the same draws: the same games
    torch.testing.assert_close(logp_2, logp_1, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(val_2, val_1, rtol=1e-5, atol=1e-6)
    assert (logp_1 < 0).any()  # log-probabilities of real draws


def test_threads_given_to_torch_hold_when_the_engine_first_runs():
    """``set_cpu_threads``: a torch thread count set before the engine's first parallel
    kernel still holds after it (set with ``torch.set_num_threads`` alone, numba's first
    kernel resets it to numba's count on a machine with two or more cores)."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: every count is 1")
    code = """
import torch
from hon_env.envs.vector import VectorEnv
{setup}
import numba
assert torch.get_num_threads() == 1  # torch's count in force, as after a learner's first op
VectorEnv(4, 0, "origin_story").reset()
print(torch.get_num_threads(), numba.get_num_threads())
"""
    direct = "torch.set_num_threads(1)"
    helper = "from agents.training.cpu_threads import set_cpu_threads; set_cpu_threads(1)"
    seen = [subprocess.run([sys.executable, "-c", code.format(setup=setup)], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()[-2:]
            for setup in (direct, helper)]
    (torch_direct, engine), (torch_helper, _) = seen
    if int(engine) < 2:
        pytest.skip("numba runs one thread here: nothing to reset torch's count to")
    # torch_direct is numba's count where numba's first kernel resets torch's (numba 0.6x)
    assert torch_helper == "1", (torch_direct, engine)
    with pytest.raises(ValueError, match="positive"):
        from agents.training.cpu_threads import set_cpu_threads

        set_cpu_threads(0)


def test_row_halves_split_in_order_and_share_the_threads():
    """``RowHalves.map`` gives ``fn`` of each half in order (the first half the shorter,
    none empty); inside ``threads`` on two or more threads the caller keeps half of them,
    and the count is restored after."""
    from agents.training.row_halves import RowHalves, halves

    assert [h.tolist() for h in halves(torch.arange(5))] == [[0, 1], [2, 3, 4]]
    assert [h.tolist() for h in halves(torch.arange(1))] == [[0]]
    assert halves(range(3, 8)) == [range(3, 5), range(5, 8)]  # the rollout's games
    rows = RowHalves()
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        with rows.threads(torch.device("cpu")) as share:
            assert share == 1 and torch.get_num_threads() == 1
            seen = rows.map(lambda part: (part.tolist(), torch.get_num_threads()),
                            torch.arange(6), share)
        assert seen == [([0, 1, 2], 1), ([3, 4, 5], 1)]
        assert torch.get_num_threads() == 2
        torch.set_num_threads(1)
        with rows.threads(torch.device("cpu")) as share:
            assert share == 0
            assert rows.map(lambda part: part.tolist(), torch.arange(3), share) == [[0], [1, 2]]
        assert rows.map(lambda part: part.numel(), torch.arange(4), None) == [4]
    finally:
        torch.set_num_threads(threads)


def test_rollout_keeps_the_columns_ever_seen_and_every_row_exact():
    """A MAPPO rollout of the MLP actor stores only the observation columns non-zero in
    some observation since training began (``Rollout.kept``), widening as new ones
    appear: put back in place, the stored rows are the env's observations exactly, and
    the kept set never shrinks."""
    from agents.cli.train_mappo import DEFAULT_CONFIG, Config
    from agents.training.mappo import MappoLearner, Rollout
    from hon_env.envs.vector import VectorEnv

    cfg = parse_config(Config, ["--num-steps", "6", "--hidden", "16", "--amp", "false"],
                       DEFAULT_CONFIG)
    learner = MappoLearner(cfg, torch.device("cpu"))
    env = VectorEnv(8, 3, "origin_story", global_state=learner.env_state)
    stream: list[np.ndarray] = []  # every observation the env gave, in order
    step = env.step

    def recording_step(actions):
        out = step(actions)
        stream.append(out[0]["observation"].copy())
        return out

    env.step = recording_step
    roll = Rollout(env, cfg, "heroes", None, torch.device("cpu"), learner)
    stream.append(roll.obs["observation"].copy())
    widths = []
    for i in range(3):
        roll.collect(learner, 0.0)
        widths.append(int(roll.kept.sum()))
        cols = roll.cols.numpy()
        assert sorted(cols.tolist()) == np.flatnonzero(roll.kept).tolist()
        stored = np.zeros((6, 8, OBS_DIM), np.float32)
        stored[:, :, cols] = roll.obs_view.numpy()
        np.testing.assert_array_equal(stored, np.stack(stream[6 * i:6 * i + 6]))
    assert widths == sorted(widths) and 0 < widths[0] < OBS_DIM


def test_train_ppo_smoke(tmp_path, capsys):
    mod = _script("train_ppo")
    run = tmp_path / "ppo"
    args = ["--run-dir", str(run), "--total-steps", "512", "--num-envs", "32",
            "--n-steps", "8", "--batch-size", "128", "--n-epochs", "1", "--hidden", "32",
            "--pretrain-steps", "256", "--pretrain-epochs", "1", "--eval-every", "256",
            "--eval-games", "4", "--checkpoint-every", "256", "--progress", "false"]
    mod.main(args)
    assert _rows(run / "progress.csv")
    assert len(_rows(run / "eval.csv")) >= 2
    assert len(_rows(run / "pretrain.csv")) == 1
    assert list((run / "tb").iterdir())
    ckpts = sorted((run / "checkpoints").glob("step_*.zip"))
    assert ckpts
    _plays(run / "final.zip")
    out = capsys.readouterr().out
    for phase in ("[pretrain]", "[train]", "[eval]"):
        assert phase in out, out
    mod.main(args + ["--resume", str(ckpts[0]), "--run-dir", str(tmp_path / "resumed"),
                     "--total-steps", "1024"])
    assert (tmp_path / "resumed" / "final.zip").exists()


def test_config_layers_defaults_yaml_and_flags(tmp_path, capsys):
    mod = _script("train_mappo")
    f = tmp_path / "c.yaml"
    f.write_text("num_envs: 8\nhidden: [16, 16]\nlr: 0.001\nnum_minibatches: 4\n")
    cfg = parse_config(mod.Config, ["--config", str(f), "--lr", "0.002"], None)
    assert (cfg.num_envs, cfg.hidden, cfg.lr, cfg.gamma) == (8, [16, 16], 0.002, 0.995)
    # a bad file, a bad flag or a value out of range: a usage error (status 2), no traceback
    bad_files = [
        ("num_envz: 8\n", "unknown config keys ['num_envz']"),
        ("num_envs: eight\n", "config 'num_envs' must be int"),
        ("[unclosed\n", "expected"),
    ]
    bad_flags = [
        (["--num-envs", "x"], "invalid int value"),
        (["--total-steps", "-5"], "total_steps must be positive, got -5"),
        (["--seed", "-1"], "seed must be >= 0, got -1"),
        (["--task", "nope"], "unknown task 'nope'"),
        (["--network", "cnn"], "network must be one of"),
        (["--entity-dim", "0"], "entity_dim must be positive, got 0"),
        (["--entity-blocks", "-1"], "entity_blocks must be >= 0, got -1"),
        (["--gamma", "1.5"], "gamma must be in (0, 1]"),
        (["--kickstart-coef", "-1"], "kickstart_coef and kickstart_steps must be"),
        (["--kickstart-coef", "2"], "needs kickstart_steps > 0"),
        (["--reward-shaping", "{bogus: 1}"], "unknown reward_shaping event 'bogus'"),
        (["--reward-shaping", "{rescues: much}"], "reward_shaping['rescues'] must be"),
        (["--reward-shaping", "[rescues]"], "reward_shaping must be a mapping"),
        (["--villain-reward-shaping", "{nope: 1}"], "unknown villain_reward_shaping event 'nope'"),
        (["--device", "gpu0"], "device must be auto, cpu, cuda, cuda:N"),
        (["--device", "cuda:99"], "device 'cuda:99': this machine's torch sees"),
    ]
    for text, argv, said in [(text, [], said) for text, said in bad_files] + [
            ("", argv, said) for argv, said in bad_flags]:
        f.write_text(text)
        with pytest.raises(SystemExit) as exit_:
            parse_config(mod.Config, ["--config", str(f), *argv], None, prog="hon-train")
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert "hon-train: error:" in err and said in err, err
    with pytest.raises(SystemExit):
        parse_config(mod.Config, ["--config", str(tmp_path / "missing.yaml")], None)
    assert "missing.yaml" in capsys.readouterr().err
    # MaskablePPO's config refuses the same actor settings (one check for both trainers)
    for argv, said in [(["--network", "cnn"], "network must be one of"),
                       (["--entity-blocks", "-2"], "entity_blocks must be >= 0, got -2")]:
        with pytest.raises(SystemExit):
            parse_config(_script("train_ppo").Config, argv, None, prog="hon-train")
        assert said in capsys.readouterr().err


def test_hon_bench_refuses_bad_values_before_measuring(capsys):
    """hon-bench's usage errors come before any row is measured (its cold-start rows alone
    take minutes)."""
    bench = _script("benchmark")
    for argv, said in [(["--seconds", "0"], "--seconds must be a positive number"),
                       (["--seconds", "nan"], "--seconds must be a positive number"),
                       (["--quick", "--seconds", "2"], "give --quick or --seconds"),
                       (["--batches", "64", "0"], "--batches must list positive"),
                       (["--batches"], "--batches must list positive"),
                       (["--per-game-heroes", "7"], "--per-game-heroes must be in [1, 6]"),
                       (["--scenario", "nope"], "no scenario 'nope'"),
                       (["--device", "gpu0"], "device must be auto, cpu, cuda")]:
        with pytest.raises(SystemExit) as exit_:
            bench.main(argv)
        assert exit_.value.code == 2
        assert said in capsys.readouterr().err, argv


def test_registry_rejects_unknown_policies(tmp_path):
    with pytest.raises(ValueError, match="unknown policy"):
        load_policy("greedy-bot")
    bad = tmp_path / "model.bin"
    bad.write_bytes(b"")
    with pytest.raises(ValueError, match="checkpoint type"):
        load_policy(str(bad))


def test_checkpoint_of_another_env_version_is_refused(tmp_path):
    """A MAPPO checkpoint trained on other observation/action sizes (an older env version)
    fails to load with a message naming both sizes, not a shape error inside torch."""
    import torch

    from agents.networks import Actor

    actor = Actor(1739, 398, [8])
    path = tmp_path / "old.pt"
    torch.save({"algo": "mappo", "obs_dim": 1739, "n_actions": 398,
                "config": {"hidden": [8]}, "actor": actor.state_dict()}, path)
    with pytest.raises(ValueError, match="1739 floats and 398 actions.*retrain"):
        load_policy(str(path))


@pytest.mark.parametrize("script", ["train_mappo", "train_ppo", "train_rllib", "evaluate",
                                    "benchmark"])
def test_scripts_are_shims_over_the_cli_modules(script):
    """``python scripts/x.py --help`` still works from a checkout, and says what each flag
    means and its default."""
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / f"{script}.py"), "--help"],
                         capture_output=True, text=True, check=True, cwd=ROOT).stdout
    flags = [ln for ln in out.splitlines() if ln.strip().startswith("--")]
    assert flags and " ".join(out.split()).count("(default:") >= len(flags) - 1, out


def test_both_trainers_speak_one_dialect(tmp_path):
    """MAPPO and MaskablePPO write the same train.csv metrics, TensorBoard tags under tb/,
    checkpoint names and final file stem."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    from agents.training.logger import TRAIN_METRICS

    common = ["--total-steps", "256", "--eval-every", "256", "--eval-games", "2",
              "--checkpoint-every", "128", "--hidden", "16", "--progress", "false"]
    runs = {"mappo": tmp_path / "mappo", "ppo": tmp_path / "ppo"}
    _script("train_mappo").main(["--run-dir", str(runs["mappo"]), "--num-envs", "32",
                                 "--num-steps", "4", "--num-minibatches", "2", *common])
    _script("train_ppo").main(["--run-dir", str(runs["ppo"]), "--num-envs", "32",
                               "--n-steps", "4", "--batch-size", "64", "--n-epochs", "1",
                               "--pretrain-steps", "0", *common])
    columns, tags, ckpts = {}, {}, {}
    for name, run in runs.items():
        rows = _rows(run / "train.csv")
        assert rows, name
        columns[name] = set(rows[0])
        assert set(TRAIN_METRICS) <= columns[name], (name, columns[name])
        assert all(float(r["steps_per_s"]) > 0 for r in rows)
        acc = EventAccumulator(str(run / "tb"))
        acc.Reload()
        tags[name] = {t for t in acc.Tags()["scalars"] if t.startswith("train/")}
        ckpts[name] = sorted(p.stem for p in (run / "checkpoints").iterdir())
        assert not list(run.glob("events.out.tfevents*")), name  # nothing in the run root
    assert {f"train/{m}" for m in TRAIN_METRICS} <= tags["mappo"] & tags["ppo"]
    assert ckpts["mappo"] == ckpts["ppo"] == ["step_128", "step_256"]
    assert (runs["mappo"] / "final.pt").exists() and (runs["ppo"] / "final.zip").exists()


def test_train_ippo_on_a_task_smoke(tmp_path):
    """``--algo ippo --task transfer``: the critic reads the observation, training plays the
    task's training pair and in-training evaluations its evaluation games."""
    mod = _script("train_mappo")
    run = tmp_path / "ippo"
    mod.main(["--run-dir", str(run), "--algo", "ippo", "--task", "transfer",
              "--total-steps", "256", "--num-envs", "32", "--num-steps", "4",
              "--num-minibatches", "2", "--hidden", "16", "--eval-every", "256",
              "--eval-games", "2", "--checkpoint-every", "256", "--progress", "false",
              "--kickstart-coef", "1.0", "--kickstart-steps", "128"])
    saved = yaml.safe_load((run / "config.yaml").read_text())
    assert saved["algo"] == "ippo" and saved["task"] == "transfer"
    ckpt = load_checkpoint(run / "final.pt", "cpu")
    first = next(v for k, v in ckpt["critic"].items() if k.endswith("weight"))
    # IPPO: the critic values the hero's own view: the shared trunk's features, nothing else
    assert first.shape[1] == 16
    assert len(_rows(run / "eval.csv")) == 1
    _plays(run / "final.pt")
    with pytest.raises(Exception, match="trained with algo ippo"):
        mod.main(["--run-dir", str(tmp_path / "r"), "--resume", str(run / "final.pt"),
                  "--total-steps", "512", "--num-envs", "32", "--num-steps", "4",
                  "--num-minibatches", "2", "--hidden", "16", "--progress", "false"])


def test_train_mappo_on_a_generalist_task_smoke(tmp_path):
    """``--task generalist_duo``: the rollout's games draw their teams from the task's
    training pool, with the scripted teacher reading each game's own tables, and the
    in-training evaluation plays the held-out teams."""
    from agents.training.games import run_games
    from hon_env.tasks import get_task

    cfg = _script("train_mappo").Config(task="generalist_duo", eval_games=4)
    games = run_games(cfg, [(0, 1000)])
    task = get_task("generalist_duo")
    assert [s.hero_ids for s in games.train_games] == [tuple(t) for t in task.train_teams]
    assert [s.hero_ids for s in games.eval_target] == [tuple(t) for t in task.eval_teams]
    run = tmp_path / "gd"
    _script("train_mappo").main([
        "--run-dir", str(run), "--task", "generalist_duo", "--total-steps", "256",
        "--num-envs", "32", "--num-steps", "4", "--num-minibatches", "2", "--hidden", "16",
        "--eval-every", "256", "--eval-games", "4", "--checkpoint-every", "256",
        "--progress", "false", "--kickstart-coef", "1.0", "--kickstart-steps", "128"])
    assert len(_rows(run / "eval.csv")) == 1
    _plays(run / "final.pt")


@pytest.mark.parametrize("scenario", ["draft_pick", "draft_pass"])
def test_train_mappo_with_the_draft_in_the_episode_smoke(tmp_path, scenario):
    """MAPPO on a draft scenario: the rollout's episodes start with the draft (the picks
    are the shared actor's decisions too, kickstarted by the scripted team's picks), and
    the policy it saves plays drafting games legally."""
    run = tmp_path / scenario
    _script("train_mappo").main([
        "--run-dir", str(run), "--scenario", scenario, "--total-steps", "256",
        "--num-envs", "32", "--num-steps", "4", "--num-minibatches", "2", "--hidden", "16",
        "--eval-every", "256", "--eval-games", "4", "--progress", "false",
        "--kickstart-coef", "1.0", "--kickstart-steps", "128"])
    assert [int(r["step"]) for r in _rows(run / "train.csv")] == [128, 256]
    policy = load_policy(str(run / "final.pt"))
    env = vector_env(8, seed=5, scenario=scenario)
    obs, _ = env.reset()
    assert (env.state[:, L.DRAFTING] == 1).all()
    for _ in range(12):
        a = policy.act(obs["observation"], obs["action_mask"], obs["agent"])
        assert obs["action_mask"][np.arange(8), a].all()
        obs, *_ = env.step(a)
    assert (env.state[:, L.DRAFTING] == 0).all()


def test_task_runs_train_on_seeds_below_the_evaluation_seeds():
    """A task run trains on the task's training split with seeds below its evaluation
    seeds, evaluates on its evaluation split and seeds, and refuses seeds that would
    reach them or options that contradict the task."""
    from agents.cli.train_mappo import Config
    from agents.training.games import run_games
    from hon_env.tasks import TRAIN_SEED_LIMIT, get_task

    task = get_task("transfer")
    games = run_games(Config(task="transfer", eval_games=10), [(0, 5_000_000)])
    assert (games.scenario.villain_id, games.scenario.issue_id) == ("dowager", "century_heist")
    assert (games.eval_scenario.villain_id, games.eval_scenario.issue_id) == (
        "refuser", "rooftop_relay")
    assert games.eval_seed == task.eval_seed >= TRAIN_SEED_LIMIT and games.eval_games == 10
    with pytest.raises(ValueError, match="reaches the evaluation seeds"):
        run_games(Config(task="transfer"), [(TRAIN_SEED_LIMIT - 100, 1024)])
    with pytest.raises(ValueError, match="do not also set villain"):
        run_games(Config(task="duo", villain="dowager"), [(0, 10)])
    with pytest.raises(ValueError, match="unknown task 'nope'"):
        run_games(Config(task="nope"), [(0, 10)])
    with pytest.raises(ValueError, match="exceeds the 1000 evaluation games"):
        run_games(Config(task="duo", eval_games=1001), [(0, 10)])
    # the trainers' own seed spans: a seed whose games reach 10**9 is refused up front
    big = TRAIN_SEED_LIMIT // 1_000_003
    with pytest.raises(ValueError, match="reaches the evaluation seeds"):
        _script("train_mappo").train(Config(task="duo", seed=big, total_steps=10_000_000))


def test_hon_train_forwards_ippo_to_the_mappo_trainer(monkeypatch):
    """``hon-train --algo ippo`` runs the MAPPO trainer with ``--algo ippo``; without
    ``--algo`` the config file's choice stands."""
    from agents.cli import train, train_mappo

    seen = []
    monkeypatch.setattr(train_mappo, "main", lambda argv, prog=None: seen.append(argv))
    train.main(["--algo", "ippo", "--task", "duo"])
    train.main(["--task", "duo"])
    assert seen == [["--algo", "ippo", "--task", "duo"], ["--task", "duo"]]


def test_hon_train_reports_bad_content_and_checkpoints_as_usage_errors(tmp_path, capsys):
    """A scenario, hero or checkpoint on the command line that does not load ends
    ``hon-train`` with status 2 and one line naming it, not a traceback."""
    from agents.cli.train import main

    common = ["--run-dir", str(tmp_path / "r"), "--total-steps", "256", "--progress", "false",
              "--tensorboard", "false"]
    for argv, said in [(["--scenario", "nosuch"], "no scenario 'nosuch'"),
                       (["--heroes", "foo", "bar"], "no hero 'foo'"),
                       (["--resume", str(tmp_path / "gone.pt")], "no such checkpoint file")]:
        with pytest.raises(SystemExit) as exit_:
            main([*common, *argv])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("hon-train --algo mappo: error:") and said in err, err
        assert "Traceback" not in err


def test_critic_warmup_trains_the_value_head_and_leaves_the_actor(tmp_path):
    """``--critic-warmup-steps``: the updates before it change the critic alone (the shared
    trunk too stays as it was); the first update after it changes the actor. A warm-up as
    long as the run, or negative, is refused."""
    mod = _script("train_mappo")
    run = tmp_path / "warm"
    mod.main(["--run-dir", str(run), "--total-steps", "384", "--critic-warmup-steps", "256",
              "--checkpoint-every", "128", "--eval-every", "1000", *TINY_MAPPO])
    ckpt = {n: load_checkpoint(run / "checkpoints" / f"step_{n}.pt", "cpu")
            for n in (128, 256)}
    ckpt[384] = load_checkpoint(run / "final.pt", "cpu")

    def same(part, a, b):
        return all(torch.equal(ckpt[a][part][k], ckpt[b][part][k]) for k in ckpt[a][part])

    assert same("actor", 128, 256) and not same("critic", 128, 256)
    assert not same("actor", 256, 384)
    rows = _rows(run / "train.csv")
    assert [float(r["policy_loss"]) for r in rows][:2] == [0.0, 0.0]
    for bad in (-1, 384):
        with pytest.raises(ValueError, match="critic_warmup_steps"):
            mod.Config(total_steps=384, critic_warmup_steps=bad).check()


def test_mappo_warm_start_clones_the_script_before_the_first_update(tmp_path):
    """``--pretrain-steps``: the actor is cloned from the coordinated team first (a
    ``pretrain.csv`` row) and starts PPO agreeing with it more than a fresh actor does;
    it refuses a villain learner; against a villain agent (Mastermind) the run's opponent
    plays the villain in the cloned games."""
    from agents.training.bc import score, teacher_chunks

    mod = _script("train_mappo")
    args = ["--total-steps", "256", *TINY_MAPPO, "--hidden", "32", "--lr", "0.001",
            "--kickstart-coef", "0"]
    mod.main(["--run-dir", str(tmp_path / "fresh"), *args])
    mod.main(["--run-dir", str(tmp_path / "warm"), "--pretrain-steps", "8192", *args])
    rows = _rows(tmp_path / "warm" / "pretrain.csv")
    assert len(rows) == 1 and 0 < float(rows[0]["cross_entropy"]) < 2
    held = next(teacher_chunks("origin_story", 1024, seed=77, chunk_steps=4))
    agree = {name: score(load_policy(str(tmp_path / name / "final.pt")).actor, held)[0]
             for name in ("fresh", "warm")}
    assert agree["warm"] > agree["fresh"] + 0.2, agree
    with pytest.raises(ValueError, match="needs side heroes"):
        mod.Config(pretrain_steps=10, side="villain").check()
    mod.main(["--run-dir", str(tmp_path / "mm"), "--scenario", "mastermind",
              "--opponent", "random", "--pretrain-steps", "256", *args])
    assert len(_rows(tmp_path / "mm" / "pretrain.csv")) == 1
