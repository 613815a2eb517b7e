"""BenchMARL tasks: the benchmark tasks of ``configs/tasks`` on the batched TorchRL env.

    >>> from benchmarl.algorithms import MappoConfig
    >>> from benchmarl.experiment import Experiment, ExperimentConfig
    >>> from benchmarl.models import MlpConfig
    >>> from hon_env.benchmarl_tasks import HourOfNeedTask
    >>> config = ExperimentConfig.get_from_yaml()  # BenchMARL's defaults: 3 M frames
    >>> config.loggers = ["csv"]  # the defaults add wandb, which is not installed
    >>> experiment = Experiment(task=HourOfNeedTask.DUO.get_task(),
    ...                         algorithm_config=MappoConfig.get_from_yaml(),
    ...                         model_config=MlpConfig.get_from_yaml(),
    ...                         critic_model_config=MlpConfig.get_from_yaml(),
    ...                         seed=0, config=config)
    >>> experiment.run()

BenchMARL 1.5.2 needs torchrl 0.11 while the ``torchrl`` extra has 0.14, so this module
runs in its own virtual environment, ``.venv-benchmarl`` (``make test-benchmarl``,
``scripts/train_benchmarl.py``, docs/scaling.md). It sits beside ``hon_env.tasks``, not
in ``hon_env.envs``, because it reads the named tasks (imports only go down).

``HourOfNeedTask`` has one member per task file, named as the file in capitals
(``HourOfNeedTask.DUO`` is ``configs/tasks/duo.yaml``; ``docs/tasks.md`` lists them).
Every env of the task plays the task's **training** games: its heroes (or, for a
generalist task, a team or board drawn per game), training villain and issue, rules and
caps, from game seeds below ``hon_env.tasks.TRAIN_SEED_LIMIT``. BenchMARL's own
evaluation runs on such games too; a task's score is its evaluation games' win rate
(``hon-eval``), which BenchMARL does not play.

The env is ``hon_env.envs.torchrl_env.HourOfNeedTorchRLEnv``: one group, ``"heroes"``
(agents ``hero_0`` ... ``hero_{n-1}``), discrete actions with the legal mask
(``("heroes", "action_mask")``, which BenchMARL's PPO and SAC actors read), the global
``"state"`` for centralized critics (MAPPO, MASAC), and the team reward in every hero's
row. The game is turn-based: each step one hero per game decides (``("heroes",
"mask")``), and the others' rows are zero observations whose actions are ignored.
BenchMARL's PPO losses know nothing of that mask, so the task adds a replay-buffer
transform (``OnlyDecidersLearn``) that zeroes the advantage of the heroes who did not
decide: their sampled actions then add nothing to the policy gradient (they still count
in the loss's mean, which scales the objective by about ``1 / n_heroes``, and in the
entropy bonus, 0 in BenchMARL's default configs).

Config (``TaskConfig``, every field optional in ``get_task(config)``):

- ``max_steps`` (int or None, default None): the decisions per game of a BenchMARL
  evaluation rollout; None takes the task's ``max_decisions`` cap (4000, Origin Story's,
  in every task today), by which every game has ended. BenchMARL steps its evaluation
  games for all ``max_steps`` decisions (restarting the games that end, scoring each
  game's first episode), so a smaller number makes an evaluation faster: games under
  random play last 81 decisions on average on ``solo``, 175 on ``duo``, 667 on
  ``nemeses`` (six heroes; the longest of 256 games: 755).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import torch
from benchmarl.environments.common import Task, TaskClass
from benchmarl.utils import DEVICE_TYPING
from tensordict import TensorDictBase
from torchrl.data import Composite
from torchrl.envs import EnvBase, Transform

from hon_env import tasks as named
from hon_env.content import Scenario
from hon_env.envs.torchrl_env import GROUP, HourOfNeedTorchRLEnv

ENV_NAME = "hour_of_need"


@dataclass
class TaskConfig:
    """The configuration of every ``HourOfNeedTask`` (BenchMARL checks it by type)."""

    max_steps: int | None = None  # decisions of an evaluation rollout; None: the cap


class OnlyDecidersLearn(Transform):
    """Replay-buffer transform: zero ``(group, "advantage")`` where ``(group, "mask")``
    is False (the heroes who did not decide at that step; see the module doc)."""

    def __init__(self, group: str = GROUP) -> None:
        super().__init__(in_keys=[], out_keys=[])
        self.group = group

    def forward(self, tensordict: TensorDictBase) -> TensorDictBase:
        """``tensordict`` with its advantage masked, in place (unchanged without one).

        Args:
            tensordict: a sampled batch ``[N, H]`` with ``(group, "mask")`` ``[N, H]``
                and ``(group, "advantage")`` ``[N, H, 1]``.

        Returns:
            The same tensordict.
        """
        advantage = tensordict.get((self.group, "advantage"), None)
        if advantage is not None:
            decided = tensordict.get((self.group, "mask")).unsqueeze(-1)
            tensordict.set((self.group, "advantage"),
                           torch.where(decided, advantage, torch.zeros_like(advantage)))
        return tensordict


def task_games(name: str) -> Scenario | list[Scenario]:
    """The ``scenario`` argument of the env for task ``name``: its training scenario, or
    its pool of training scenarios (a generalist task's teams or boards)."""
    pool = named.get_task(name).pool("train")
    return pool if len(pool) > 1 else pool[0]


class HourOfNeedClass(TaskClass):
    """The BenchMARL task class of every ``HourOfNeedTask`` (see the module doc)."""

    def get_env_fun(self, num_envs: int, continuous_actions: bool, seed: int | None,
                    device: DEVICE_TYPING) -> Callable[[], EnvBase]:
        """A function building ``num_envs`` of the task's training games as one batched
        env, game ``i`` from seed ``seed + i`` (``seed`` None: 0).

        Args:
            num_envs: the batch size of the env (games stepped together).
            continuous_actions: must be False (the actions are discrete).
            seed: the first game seed; the games' seeds must stay training seeds.
            device: where the env's tensors live.

        Returns:
            A function of no arguments returning an ``HourOfNeedTorchRLEnv``.
        """
        if continuous_actions:
            raise ValueError("Hour of Need has discrete actions only")
        first = 0 if seed is None else int(seed)
        named.check_train_seed(first, num_envs)
        games = task_games(self.name.lower())
        return lambda: HourOfNeedTorchRLEnv(num_envs, first, device=device, scenario=games)

    def supports_continuous_actions(self) -> bool:
        """False: the actions are the discrete ids of ``hon_env.spec.layout``."""
        return False

    def supports_discrete_actions(self) -> bool:
        """True."""
        return True

    def max_steps(self, env: EnvBase) -> int:
        """The length of a BenchMARL evaluation rollout: ``TaskConfig.max_steps``, or the
        largest ``max_decisions`` cap of the env's scenarios."""
        steps = self.config.get("max_steps")
        if steps is not None:
            return int(steps)
        return max(int(s.caps["max_decisions"]) for s in env.venv.scenarios)

    def has_render(self, env: EnvBase) -> bool:
        """False: the batched env does not render."""
        return False

    def group_map(self, env: EnvBase) -> dict[str, list[str]]:
        """One group, ``"heroes"``, of the seats ``hero_0`` ... ``hero_{n-1}``."""
        return {GROUP: [f"hero_{k}" for k in range(env.n_heroes)]}

    def _observations(self, env: EnvBase, keep: str) -> Composite:
        """The unbatched observation spec with only ``(GROUP, keep)``."""
        spec = env.full_observation_spec_unbatched.clone()
        for key in list(spec[GROUP].keys()):
            if key != keep:
                del spec[GROUP][key]
        del spec["state"]
        return spec

    def observation_spec(self, env: EnvBase) -> Composite:
        """``("heroes", "observation")`` ``[H, OBS_DIM]`` (the policy's input)."""
        return self._observations(env, "observation")

    def action_mask_spec(self, env: EnvBase) -> Composite:
        """``("heroes", "action_mask")`` ``[H, N_ACTIONS]``."""
        return self._observations(env, "action_mask")

    def state_spec(self, env: EnvBase) -> Composite:
        """``"state"`` ``[STATE_DIM]`` (the centralized critics' input)."""
        return Composite({"state": env.full_observation_spec_unbatched["state"].clone()})

    def info_spec(self, env: EnvBase) -> None:
        """None: the env has no info entries."""
        return None

    def action_spec(self, env: EnvBase) -> Composite:
        """``("heroes", "action")`` ``[H]``, categorical over ``N_ACTIONS``, without the
        env's live legal mask (the actors read the mask from the tensordict)."""
        spec = env.full_action_spec_unbatched.clone()
        spec[GROUP, "action"].update_mask(None)
        return spec

    def get_replay_buffer_transforms(self, env: EnvBase, group: str) -> list[Transform]:
        """``OnlyDecidersLearn``: only the deciding heroes' actions carry an advantage."""
        return [OnlyDecidersLearn(group)]

    @staticmethod
    def env_name() -> str:
        """BenchMARL's name of the environment (its experiment and log names use it)."""
        return ENV_NAME


class HourOfNeedTask(Task):
    """One member per benchmark task of ``configs/tasks`` but the ad-hoc teamwork ones
    (their partner seats are played by the zoo's agents, which BenchMARL's env cannot
    host: every seat is a learner here); ``tests/test_benchmarl.py`` checks the lists
    agree."""

    DUO = None
    GENERALIST_BOARD = None
    GENERALIST_DUO = None
    MODULES = None
    NEMESES = None
    PROCGEN_DUO = None
    PROCGEN_TRIO = None
    QUARTET = None
    SOLO = None
    TRANSFER = None
    TRIO = None

    @staticmethod
    def associated_class() -> type[TaskClass]:
        """The task class, ``HourOfNeedClass``."""
        return HourOfNeedClass

    def get_from_yaml(self, path: str | None = None) -> TaskClass:
        """The task with ``TaskConfig``'s defaults, or the config in the YAML file ``path``
        (BenchMARL's own tasks read a file inside the benchmarl package instead)."""
        config: dict[str, Any] = asdict(TaskConfig())
        if path is not None:
            from benchmarl.utils import _read_yaml_config

            config.update(_read_yaml_config(path))
        return self.get_task(config=asdict(TaskConfig(**config)))
