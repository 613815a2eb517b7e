"""The batched TorchRL env: TorchRL's own spec check, one "heroes" group with masks and
state, episode ends, seeding, and a few PPO updates from TorchRL's components."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torchrl")

from torchrl.envs.utils import check_env_specs  # noqa: E402

from hon_env import Game  # noqa: E402
from hon_env.envs.torchrl_env import HourOfNeedTorchRLEnv  # noqa: E402
from hon_env.spec import layout as L  # noqa: E402

HEROES = ["majesty", "stride"]


def _legal_actions(env: HourOfNeedTorchRLEnv, td, rng: np.random.Generator):
    """A legal action in the deciding hero's row, a random one in the others."""
    mask = td.get(("heroes", "action_mask")).numpy()
    actions = rng.integers(0, L.N_ACTIONS, size=mask.shape[:2])
    seat = td.get(("heroes", "mask")).numpy().argmax(axis=1)
    for i, s in enumerate(seat):
        actions[i, s] = rng.choice(np.flatnonzero(mask[i, s]))
    return torch.as_tensor(actions)


def test_specs_pass_torchrl_check():
    env = HourOfNeedTorchRLEnv(4, seed=0, heroes=HEROES)
    check_env_specs(env)
    assert env.batch_size == torch.Size([4])
    assert env.full_observation_spec["heroes", "observation"].shape[:2] == (4, 2)


def test_compact_specs_pass_torchrl_check():
    """``compact=True`` reaches the vector env and the specs say the compact widths."""
    from hon_env.spec.compact import live_obs_dim, state_dim

    env = HourOfNeedTorchRLEnv(4, seed=0, heroes=HEROES, compact=True)
    check_env_specs(env)
    width = live_obs_dim(two_fronts=False, draft=False)
    assert env.full_observation_spec["heroes", "observation"].shape == (4, 2, width)
    assert env.full_observation_spec["state"].shape == (4, state_dim(width))


def test_group_layout_masks_and_episode_ends():
    env = HourOfNeedTorchRLEnv(6, seed=10, heroes=HEROES)
    env.set_seed(10)
    td = env.reset()
    first = Game(env.venv.scenario, seed=12)  # game 2's first episode
    deciding = td.get(("heroes", "mask"))
    assert deciding.sum(dim=1).eq(1).all()
    seat = first.current_seat
    assert bool(deciding[2, seat])
    np.testing.assert_array_equal(td.get(("heroes", "observation"))[2, seat].numpy(),
                                  first.observation())
    assert not td.get(("heroes", "observation"))[2, 1 - seat].any()
    assert td.get(("heroes", "action_mask"))[2, 1 - seat].all()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        td.set(("heroes", "action"), _legal_actions(env, td, rng))
        out, td = env.step_and_maybe_reset(td)
        nxt = out.get("next")
        done = nxt.get("done")[:, 0]
        reward = nxt.get(("heroes", "reward"))
        assert reward.shape == (6, 2, 1) and (reward[:, 0] == reward[:, 1]).all()
        if done.any():
            ended += int(done.sum())
            assert set(reward[done, 0, 0].tolist()) <= {-1.0, 0.0, 1.0}
        assert td.get(("heroes", "mask")).sum(dim=1).eq(1).all()
    assert ended > 0


def test_a_rollout_keeps_each_steps_reward():
    """``rollout`` stacks its steps at the end: each step keeps its own rewards, not the
    vector env's reward array, which the next step overwrites."""
    torch.manual_seed(0)
    env = HourOfNeedTorchRLEnv(8, seed=0, heroes=["majesty"])
    rollout = env.rollout(300, break_when_any_done=False)
    reward = rollout["next", "heroes", "reward"][..., 0, 0]
    done = rollout["next", "done"][..., 0]
    assert done.any() and reward[done].ne(0).any()
    assert set(reward[done].tolist()) <= {-1.0, 0.0, 1.0}
    assert reward[~done].eq(0).all()


def test_partial_reset_of_a_running_game_is_refused():
    env = HourOfNeedTorchRLEnv(3, heroes=HEROES)
    env.reset()
    which = torch.tensor([[True], [False], [False]])
    with pytest.raises(ValueError, match="did not end"):
        env.reset(env.reset().set("_reset", which))


def test_seeds_are_checked_as_every_front_end_checks_them():
    env = HourOfNeedTorchRLEnv(2, heroes=HEROES)
    for bad, exc in (("5", TypeError), (2.7, TypeError), (-1, ValueError)):
        with pytest.raises(exc, match="seed must be an integer"):
            env.set_seed(bad)
    env.set_seed(7)
    first = env.reset()["state"].clone()
    env.set_seed(7)
    assert torch.equal(env.reset()["state"], first)


def test_ppo_updates_from_torchrl_components():
    """Two PPO updates (TorchRL's ProbabilisticActor, MaskedCategorical, GAE and
    ClipPPOLoss) change the policy, and every sampled action of a deciding hero is legal."""
    from tensordict.nn import TensorDictModule
    from torchrl.modules import MLP, MaskedCategorical, ProbabilisticActor
    from torchrl.objectives import ClipPPOLoss
    from torchrl.objectives.value import GAE

    from hon_env.core.observe import OBS_DIM, STATE_DIM

    torch.manual_seed(0)
    env = HourOfNeedTorchRLEnv(16, seed=0, heroes=HEROES)
    net = MLP(in_features=OBS_DIM, out_features=L.N_ACTIONS, num_cells=[16])
    actor = ProbabilisticActor(
        TensorDictModule(net, in_keys=[("heroes", "observation")],
                         out_keys=[("heroes", "logits")]),
        in_keys={"logits": ("heroes", "logits"), "mask": ("heroes", "action_mask")},
        out_keys=[("heroes", "action")], distribution_class=MaskedCategorical,
        return_log_prob=True, log_prob_key=("heroes", "action_log_prob"))
    value = MLP(in_features=STATE_DIM, out_features=1, num_cells=[16])
    critic = TensorDictModule(lambda s: value(s).unsqueeze(-2).expand(*s.shape[:-1], 2, 1),
                              in_keys=["state"], out_keys=[("heroes", "state_value")])
    keys = dict(reward=("heroes", "reward"), value=("heroes", "state_value"),
                done=("heroes", "done"), terminated=("heroes", "terminated"),
                advantage=("heroes", "advantage"), value_target=("heroes", "value_target"))
    loss = ClipPPOLoss(actor, critic, normalize_advantage=False)
    loss.set_keys(action=("heroes", "action"), sample_log_prob=("heroes", "action_log_prob"),
                  **keys)
    gae = GAE(gamma=0.99, lmbda=0.95, value_network=critic)
    gae.set_keys(**keys)
    params = list(net.parameters()) + list(value.parameters())
    opt = torch.optim.Adam(params, lr=1e-2)
    before = [p.detach().clone() for p in net.parameters()]
    for _ in range(2):
        with torch.no_grad():
            batch = env.rollout(8, policy=actor, break_when_any_done=False)
            for key in ("done", "terminated"):
                batch.set(("next", "heroes", key),
                          batch.get(("next", key)).unsqueeze(-2).expand(-1, -1, 2, 1))
            gae(batch)
        acted = batch.get(("heroes", "mask"))
        chosen = batch.get(("heroes", "action"))
        legal = batch.get(("heroes", "action_mask")).gather(-1, chosen[..., None])[..., 0]
        assert legal[acted].all()
        out = loss(batch.reshape(-1))
        total = out["loss_objective"] + out["loss_critic"] + out["loss_entropy"]
        assert torch.isfinite(total)
        opt.zero_grad()
        total.backward()
        opt.step()
    assert any(not torch.equal(a, b) for a, b in zip(before, net.parameters(), strict=True))


def test_pettingzoo_wrapper_with_numeric_infos():
    """TorchRL's own PettingZoo wrapper tensorizes the infos of ``numeric_info=True`` and
    puts every hero in one group when asked."""
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper
    from torchrl.envs.utils import MarlGroupMapType

    from hon_env import hour_of_need_v8

    env = PettingZooWrapper(hour_of_need_v8.parallel_env(heroes=HEROES, numeric_info=True),
                            use_mask=True, categorical_actions=True,
                            group_map=MarlGroupMapType.ALL_IN_ONE_GROUP)
    assert list(env.group_map) == ["agents"] and len(env.group_map["agents"]) == 2
    check_env_specs(env)
    rollout = env.rollout(20, break_when_any_done=False)
    assert rollout["next", "agents", "info", "events"].shape[-1] == len(L.EVENT_NAMES)
