"""BenchMARL on the batched TorchRL env (hon_env.benchmarl_tasks): the task list, the
specs BenchMARL reads, two MAPPO and two IPPO iterations, and the training script.
BenchMARL needs torchrl 0.11, so these run in ``.venv-benchmarl`` (``make test-benchmarl``)
and are skipped elsewhere."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("benchmarl")

from benchmarl.algorithms import IppoConfig, MappoConfig  # noqa: E402
from benchmarl.experiment import Callback, Experiment, ExperimentConfig  # noqa: E402
from benchmarl.models import MlpConfig  # noqa: E402
from tensordict import TensorDict  # noqa: E402

from hon_env.benchmarl_tasks import (  # noqa: E402
    HourOfNeedTask,
    OnlyDecidersLearn,
)
from hon_env.core.observe import OBS_DIM, STATE_DIM  # noqa: E402
from hon_env.spec import layout as L  # noqa: E402
from hon_env.tasks import TRAIN_SEED_LIMIT, get_task, list_tasks  # noqa: E402


def test_one_member_per_task_file():
    """Every task but the ad-hoc family (zoo partners play its other seats)."""
    expected = [t for t in list_tasks() if get_task(t).family != "adhoc"]
    assert sorted(t.name.lower() for t in HourOfNeedTask) == expected


def test_specs_and_config():
    task = HourOfNeedTask.DUO.get_task()
    assert task.config == {"max_steps": None}
    assert HourOfNeedTask.DUO.get_task({"max_steps": 40}).max_steps(None) == 40
    assert not task.supports_continuous_actions() and task.supports_discrete_actions()
    env = task.get_env_fun(num_envs=3, continuous_actions=False, seed=5, device="cpu")()
    assert env.batch_size == torch.Size([3])
    assert task.group_map(env) == {"heroes": ["hero_0", "hero_1"]}
    assert task.observation_spec(env)["heroes", "observation"].shape == (2, OBS_DIM)
    assert list(task.observation_spec(env)["heroes"].keys()) == ["observation"]
    assert task.action_mask_spec(env)["heroes", "action_mask"].shape == (2, L.N_ACTIONS)
    assert task.state_spec(env)["state"].shape == (STATE_DIM,)
    assert task.max_steps(env) == env.venv.scenario.caps["max_decisions"] > 1000
    action = task.action_spec(env)["heroes", "action"]
    assert action.shape == (2,) and action.space.n == L.N_ACTIONS
    with pytest.raises(ValueError, match="discrete"):
        task.get_env_fun(3, True, 0, "cpu")
    with pytest.raises(ValueError):
        task.get_env_fun(3, False, TRAIN_SEED_LIMIT - 1, "cpu")  # reaches evaluation seeds


def test_only_deciders_learn():
    mask = torch.tensor([[True, False], [False, True]])
    advantage = torch.tensor([[[1.5], [2.0]], [[-1.0], [3.0]]])
    td = TensorDict({"heroes": TensorDict({"mask": mask, "advantage": advantage},
                                          batch_size=(2, 2))}, batch_size=(2,))
    out = OnlyDecidersLearn()(td)
    assert out["heroes", "advantage"][..., 0].tolist() == [[1.5, 0.0], [0.0, 3.0]]


class _Watch(Callback):
    """Records what BenchMARL collected and what its loss was fed."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: list = []
        self.samples: list = []

    def on_batch_collected(self, batch) -> None:
        self.batches.append(batch.detach().clone())

    def on_train_step(self, batch, group: str) -> None:
        self.samples.append(batch.detach().clone())


def _experiment(tmp_path, algorithm, watch: _Watch) -> Experiment:
    """A small on-policy experiment: 2 iterations of 16 games x 8 decisions, 2 minibatch
    passes of 64 decisions, a 32-unit network, no evaluation, logs or checkpoints."""
    config = ExperimentConfig.get_from_yaml()
    config.sampling_device = config.train_device = config.buffer_device = "cpu"
    config.max_n_iters, config.max_n_frames = 2, None
    config.on_policy_collected_frames_per_batch = 128
    config.on_policy_n_envs_per_worker = 16
    config.on_policy_n_minibatch_iters = 2
    config.on_policy_minibatch_size = 64
    config.lr = 3e-3
    config.evaluation, config.render = False, False
    config.loggers, config.create_json = [], False
    config.checkpoint_interval, config.checkpoint_at_end = 0, False
    config.save_folder = str(tmp_path)
    model = MlpConfig(num_cells=[32], activation_class=torch.nn.Tanh, layer_class=torch.nn.Linear)
    return Experiment(task=HourOfNeedTask.DUO.get_task(), algorithm_config=algorithm,
                      model_config=model, critic_model_config=model, seed=0, config=config,
                      callbacks=[watch])


def _actor_weights(experiment: Experiment) -> list:
    """Copies of the policy's parameters, as the PPO loss holds them."""
    params = experiment.losses["heroes"].actor_network_params
    return [p.detach().clone() for p in params.values(True, True)]


@pytest.mark.parametrize("algorithm", [MappoConfig, IppoConfig], ids=["mappo", "ippo"])
def test_short_ppo_run(tmp_path, algorithm):
    """Two PPO iterations: every deciding hero's action was legal, only the deciding
    heroes carried an advantage into the loss, and the policy changed."""
    torch.manual_seed(0)
    watch = _Watch()
    experiment = _experiment(tmp_path, algorithm.get_from_yaml(), watch)
    before = _actor_weights(experiment)
    experiment.run()
    assert experiment.total_frames == 256 and len(watch.batches) == 2
    for batch in watch.batches:
        assert batch.batch_size == torch.Size([16, 8])
        decided = batch["heroes", "mask"]
        assert decided.sum(-1).eq(1).all()
        chosen = batch["heroes", "action"]
        legal = batch["heroes", "action_mask"].gather(-1, chosen[..., None])[..., 0]
        assert legal[decided].all()
    assert len(watch.samples) == 2 * 2 * 2  # iterations x minibatch passes x minibatches
    for sample in watch.samples:
        advantage = sample["heroes", "advantage"][..., 0]
        assert advantage[~sample["heroes", "mask"]].eq(0).all()
        assert advantage[sample["heroes", "mask"]].ne(0).any()
    after = _actor_weights(experiment)
    assert any(not torch.equal(a, b) for a, b in zip(before, after, strict=True))


def test_training_script_runs(tmp_path):
    """scripts/train_benchmarl.py on 256 decisions: BenchMARL's CSV logs count them."""
    path = Path(__file__).resolve().parents[1] / "scripts" / "train_benchmarl.py"
    spec = importlib.util.spec_from_file_location("train_benchmarl", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    script.main(["--task", "solo", "--algo", "ippo", "--frames", "256",
                 "--frames-per-batch", "128", "--num-envs", "4", "--minibatch-size", "64",
                 "--epochs", "1", "--hidden", "16", "--out", str(tmp_path)])
    [frames] = tmp_path.glob("ippo_solo_mlp_*/*/scalars/counters_total_frames.csv")
    assert frames.read_text().split() == ["0,128.0", "1,256.0"]
