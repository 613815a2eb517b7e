"""sb3-contrib MaskablePPO on the batched engine, one shared policy for every hero.

    hon-train --algo ppo                            # configs/train/ppo.yaml
    hon-train --algo ppo --config configs/train/ppo_sb3.yaml   # SB3's own MLPs
    hon-train --algo ppo --total-steps 200000 --run-dir runs/ppo_try
    hon-train --algo ppo --resume runs/ppo/checkpoints/step_1000000.zip
    python scripts/train_ppo.py --help              # the same, from a checkout

The environment is ``hon_env.envs.sb3.SB3VecEnv`` (all games in one process; the legal
masks go to MaskablePPO through ``action_masks()``). The policy sees the deciding hero's
observation, whose seat is one-hot in it, so one network plays the whole team. Rewards
are the team's (+1 win, -1 loss, plus the config's event shaping). The default network is
MAPPO's: one MLP trunk under the policy and value heads, reading only the live columns,
bf16 where fast (``agents/networks/sb3.py``); the rollout buffer skips SB3's per-update
copies (``agents/training/sb3_buffer.py``).

``pretrain_steps > 0`` first fits the policy to the coordinated scripted team's actions
(``load_policy("heuristic")``) on that many decisions it plays (behaviour cloning), a warm
start: PPO from random play sees no wins.

``task: NAME`` (``--task NAME``) trains on the task's training split and evaluates on its
evaluation games (``agents.training.games``); the run refuses seeds that would reach them.

Writes to ``run_dir`` what ``hon-train`` (MAPPO) writes, under the same names:
``config.yaml``; ``train.csv`` (one row per update with the columns of
``agents.training.logger.TRAIN_METRICS``: episode return, win and loss rates, losses,
entropy, KL, clip fraction, learning rate, steps/s); ``eval.csv`` (greedy win rate with
95% interval next to the random and scripted baselines, every ``eval_every`` steps);
TensorBoard events in ``tb/``; ``checkpoints/step_<N>.zip`` and ``final.zip`` (load with
``agents.load_policy``). SB3's own log goes to ``progress.csv``. Each phase (cloning,
training, evaluation) prints a line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.logger import configure

from agents.checkpoints import require_file, sb3_safe_objects
from agents.networks import check_amp, check_network
from agents.networks.sb3 import live_input_layer, sb3_policy_kwargs
from agents.networks.sb3_distribution import use_fast_distribution
from agents.trained import PpoPolicy
from agents.training.baselines import BaselineEvaluator, eval_summary, print_result
from agents.training.bc import PRETRAIN_ENVS, PRETRAIN_SEED, teacher_chunks
from agents.training.config import PpoFields, parse_config
from agents.training.games import run_games
from agents.training.logger import RunLogger, checkpoint_path
from agents.training.loop import Every, Throughput, log_eval
from agents.training.sb3_buffer import FlatMaskableRolloutBuffer
from hon_env.content.loader import TRAIN_CONFIGS_DIR
from hon_env.envs.sb3 import SB3VecEnv

DEFAULT_CONFIG = TRAIN_CONFIGS_DIR / "ppo.yaml"


@dataclass
class Config(PpoFields):
    run_dir: str = "runs/ppo"
    num_envs: int = 1024
    """games stepped together"""
    n_steps: int = 32
    """rollout steps per game per update (batch = num_envs * n_steps decisions)"""
    batch_size: int = 2048
    """minibatch size"""
    n_epochs: int = 4
    """passes over each rollout batch"""
    clip_range: float = 0.2
    """PPO ratio clipping range"""
    network: str = "mlp"
    """mlp: an MLP over the observation vector; entity: the entity network's encoders as
    SB3's features extractor (agents/networks/sb3.py) with linear heads"""
    hidden: list[int] = field(default_factory=lambda: [512, 512])
    """hidden layer sizes of the policy and value networks (entity: of the context MLP)"""
    entity_dim: int = 32
    """network entity: the embedding size of each entity row"""
    entity_blocks: int = 0
    """network entity: transformer blocks across the entity rows of every kind (0: none)"""
    shared_trunk: bool = True
    """network mlp: the whole MLP one trunk under the policy and value heads, its first
    layer reading only the observation columns not 0 somewhere in the batch; false: SB3's
    own separate policy and value MLPs (configs/train/ppo_sb3.yaml). Network entity: one
    extractor under both heads either way."""
    live_input: bool = False
    """network mlp with shared_trunk false: SB3's two MLPs share one first layer that reads
    only the live columns (agents/networks/sb3.py)"""
    amp: str = "auto"
    """bf16 for the shared trunk or the entity extractor: auto (where the CPU or GPU makes
    it fast; SB3's own MLPs stay float32), true, false"""
    pretrain_steps: int = 0
    """decisions of the scripted team to clone before PPO (0: start from scratch)"""
    pretrain_epochs: int = 4
    """passes of behaviour cloning over those decisions"""

    def check(self) -> None:
        self.check_ppo("num_envs", "n_steps", "batch_size", "n_epochs")
        if self.pretrain_steps < 0:
            raise ValueError("pretrain_steps must be >= 0")
        check_network(self.network, self.entity_dim, self.entity_blocks)
        if self.live_input and (self.network != "mlp" or self.shared_trunk):
            raise ValueError("live_input applies to SB3's own MLPs (network mlp, "
                             "shared_trunk false); the shared trunk reads only the live "
                             "columns already")
        check_amp(self.amp)
        if self.amp == "true" and self.network == "mlp" and not self.shared_trunk:
            raise ValueError("amp true needs the shared trunk (shared_trunk true) or the "
                             "entity network: SB3's own MLPs run in float32")

    def network_config(self) -> dict[str, Any]:
        """What the checkpoint records of its network (``LoggedMaskablePPO.network``)."""
        return {"network": self.network, "hidden": list(self.hidden),
                "entity_dim": self.entity_dim, "entity_blocks": self.entity_blocks,
                "live_input": self.live_input,
                "shared_trunk": self.shared_trunk, "amp": self.amp}


class LoggedMaskablePPO(MaskablePPO):
    """MaskablePPO that hands each update's statistics to ``after_train`` (set by the
    script), so ``train.csv`` gets one row per update as in the MAPPO trainer."""

    after_train = None
    # the network config (``Config.network_config``), saved as plain data in the .zip so
    # that a loader rebuilds the policy's keyword arguments without unpickling them
    network: dict[str, Any] | None = None

    def _setup_model(self) -> None:
        # also on a resumed model, whose .zip names no buffer class (agents/checkpoints.py)
        if self.rollout_buffer_class is None:
            self.rollout_buffer_class = FlatMaskableRolloutBuffer
        super()._setup_model()
        use_fast_distribution(self.policy)

    def train(self) -> None:
        first = live_input_layer(self.policy.features_extractor)
        if first is None or not isinstance(self.rollout_buffer, FlatMaskableRolloutBuffer):
            super().train()
        else:  # the minibatches hold the rollout's live columns only
            with first.reading(self.rollout_buffer.live_observations()):
                super().train()
        if self.after_train is not None:
            self.after_train()

    def _excluded_save_params(self) -> list[str]:
        return [*super()._excluded_save_params(), "after_train"]


class TrainLogCallback(BaseCallback):
    """Collects the episodes that end in each rollout and writes the update's row of
    ``train.csv`` (``TRAIN_METRICS``) once SB3's ``train()`` has run."""

    def __init__(self, log: RunLogger) -> None:
        super().__init__()
        self.log = log
        self.returns: list[float] = []
        self.outcomes: list[str] = []
        self.timer = Throughput()  # evaluations pause it
        self.counted = 0  # steps the timer has counted
        self.last_sps = float("nan")

    def _on_training_start(self) -> None:
        self.timer.restart()
        self.counted = self.num_timesteps
        self.model.after_train = self.write_row

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
            if done:
                self.returns.append(info["episode"]["r"])
                self.outcomes.append(info["outcome"])
        return True

    def write_row(self) -> None:
        values = self.model.logger.name_to_value
        ended = len(self.outcomes)
        nan = float("nan")
        self.last_sps = self.timer.count(self.num_timesteps - self.counted)
        self.counted = self.num_timesteps
        row = {"episode_return": float(np.mean(self.returns)) if ended else nan,
               "episode_win_rate": self.outcomes.count("win") / ended if ended else nan,
               "episode_loss_rate": self.outcomes.count("loss") / ended if ended else nan,
               "episodes": ended,
               "policy_loss": values["train/policy_gradient_loss"],
               "value_loss": values["train/value_loss"],
               "entropy": -values["train/entropy_loss"],  # SB3 logs the negated entropy
               "approx_kl": values["train/approx_kl"],
               "clip_fraction": values["train/clip_fraction"],
               "lr": values["train/learning_rate"],
               "steps_per_s": self.last_sps}
        self.log.log("train", self.num_timesteps, row)
        self.returns, self.outcomes = [], []


class CheckpointEvery(BaseCallback):
    """Saves ``checkpoints/step_<N>.zip`` every ``every`` steps (MAPPO's names)."""

    def __init__(self, run_dir: Path, every: int) -> None:
        super().__init__()
        self.run_dir = run_dir
        self.period = every
        self.every = Every(every)

    def _on_training_start(self) -> None:  # a resumed model keeps a fresh run's cadence
        self.every = Every(self.period, self.num_timesteps)

    def _on_step(self) -> bool:
        if self.every.due(self.num_timesteps):
            path = checkpoint_path(self.run_dir, self.num_timesteps, ".zip")
            path.parent.mkdir(parents=True, exist_ok=True)
            self.model.save(path)
        return True


class EvalCallback(BaseCallback):
    """Every ``every`` steps: the greedy policy's win rate next to the baselines.
    ``evaluator.row(policy)`` gives the row; ``summary(row)`` the line printed for it."""

    def __init__(self, evaluator: BaselineEvaluator, log: RunLogger, every: int,
                 timer: Throughput,
                 summary: Callable[[dict[str, float]], str] = eval_summary) -> None:
        super().__init__()
        self.evaluator = evaluator
        self.summary = summary
        self.log = log
        self.period = every
        self.every = Every(every)
        self.timer = timer
        self.last: dict[str, float] = {}

    def _on_training_start(self) -> None:  # a resumed model keeps a fresh run's cadence
        self.every = Every(self.period, self.num_timesteps)

    def _on_step(self) -> bool:
        if self.every.due(self.num_timesteps):
            self.evaluate()
        return True

    def evaluate(self) -> dict[str, float]:
        with self.timer.paused():
            self.last = self.evaluator.row(PpoPolicy(self.model, greedy=True))
            log_eval(self.log, self.num_timesteps, self.last, self.summary)
            for k, v in self.last.items():
                self.logger.record(f"eval/{k}", v)
        return self.last


def pretrain(model: MaskablePPO, scenario, steps: int, epochs: int, seed: int) -> float:
    """Behaviour cloning on ``steps`` decisions of the scripted team; returns the final
    cross-entropy."""
    # one chunk: every decision at once, shuffled together
    data = next(teacher_chunks(scenario, steps, seed + PRETRAIN_SEED, chunk_steps=steps))
    x, m, y = data.obs, data.masks, data.actions
    policy = model.policy
    device = policy.device
    loss = torch.zeros(())
    gen = np.random.default_rng(seed)
    for _ in range(epochs):
        for idx in np.array_split(gen.permutation(len(y)), max(1, len(y) // 2048)):
            _, logp, _ = policy.evaluate_actions(torch.as_tensor(x[idx], device=device),
                                                 torch.as_tensor(y[idx], device=device),
                                                 action_masks=m[idx])
            loss = -logp.mean()
            policy.optimizer.zero_grad()
            loss.backward()
            policy.optimizer.step()
    return float(loss.item())


@contextmanager
def unchecked_distributions() -> Iterator[None]:
    """torch's distributions without their argument checks within the block (torch's
    default restored after): the masked distributions MaskablePPO builds at every step
    and minibatch get their logits from the network and their masks from the engine, and
    the checks cost a few percent of an update. A NaN in the logits still stops the run
    where an action is sampled from them."""
    before = torch.distributions.Distribution._validate_args
    torch.distributions.Distribution.set_default_validate_args(False)
    try:
        yield
    finally:
        torch.distributions.Distribution.set_default_validate_args(before)


def sb3_device(name: str) -> str:
    """The torch device an SB3 model trains on: ``auto`` is CUDA when there is one."""
    if name != "auto":
        return name
    return "cuda" if torch.cuda.is_available() else "cpu"


def build_model(cfg: Config, env: Any, device: str) -> LoggedMaskablePPO:
    """The MaskablePPO of ``cfg`` on ``env``: resumed from ``cfg.resume`` (nothing in the
    file is unpickled; the schedules come from this run's config) or new, with the
    network ``cfg`` names recorded in the .zip as plain data."""
    if cfg.resume:
        safe = sb3_safe_objects(require_file(cfg.resume), clip_range=cfg.clip_range,
                                learning_rate=cfg.lr)
        return LoggedMaskablePPO.load(cfg.resume, env=env, device=device,
                                      custom_objects=safe)
    model = LoggedMaskablePPO(
        "MlpPolicy", env, learning_rate=cfg.lr, n_steps=cfg.n_steps,
        batch_size=cfg.batch_size, n_epochs=cfg.n_epochs, gamma=cfg.gamma,
        gae_lambda=cfg.gae_lambda, clip_range=cfg.clip_range, ent_coef=cfg.ent_coef,
        vf_coef=cfg.vf_coef, seed=cfg.seed, device=device,
        policy_kwargs=sb3_policy_kwargs(cfg.network_config(), device))
    model.network = cfg.network_config()
    return model


def learn(model: LoggedMaskablePPO, cfg: Config, log: RunLogger, evaluator: Any,
          what: str, summary: Callable[[dict], str] = eval_summary) -> dict[str, float]:
    """The part every MaskablePPO trainer shares: train ``model`` to ``cfg.total_steps``
    with the logging, checkpoint and evaluation callbacks (``evaluator.row(policy)``
    every ``eval_every`` steps), save ``final.zip``, and return the last evaluation row
    with the training throughput. ``what`` opens the printed training line."""
    run = Path(cfg.run_dir)
    # SB3's own log as CSV only: the shared train/ and eval/ TensorBoard tags come from
    # RunLogger (under tb/), as in the MAPPO trainer
    model.set_logger(configure(str(run), ["csv"]))
    train_cb = TrainLogCallback(log)
    eval_cb = EvalCallback(evaluator, log, cfg.eval_every, train_cb.timer, summary=summary)
    ckpt_cb = CheckpointEvery(run, cfg.checkpoint_every)
    log.phase("train", f"{what} from step {model.num_timesteps:,} to {cfg.total_steps:,}: "
                       f"{cfg.num_envs} games x {cfg.n_steps} steps per update, device "
                       f"{model.device}")
    with unchecked_distributions():
        model.learn(max(0, cfg.total_steps - model.num_timesteps),
                    callback=CallbackList([train_cb, ckpt_cb, eval_cb]),
                    progress_bar=cfg.progress, reset_num_timesteps=not cfg.resume)
    model.save(run / "final.zip")
    row = eval_cb.evaluate()
    log.close()
    row["steps_per_s"] = train_cb.last_sps
    return row


def train(cfg: Config) -> dict[str, float]:
    """Train (or resume) and return the last evaluation row."""
    cfg.check()
    # SB3's env plays seed + i + k * num_envs (game i, episode k); cloning its own games
    games = run_games(cfg, [(cfg.seed * 1_000_003, cfg.total_steps + 2 * cfg.num_envs),
                            (cfg.seed + PRETRAIN_SEED, cfg.pretrain_steps + 2 * PRETRAIN_ENVS)])
    device = sb3_device(cfg.device)
    log = RunLogger(cfg.run_dir, cfg, cfg.total_steps, tensorboard=cfg.tensorboard,
                    progress=False)
    env = SB3VecEnv(cfg.num_envs, cfg.seed * 1_000_003, scenario=games.train_games,
                    reward_shaping=cfg.reward_shaping)
    model = build_model(cfg, env, device)
    if not cfg.resume and cfg.pretrain_steps:
        log.phase("pretrain", f"behaviour cloning on {cfg.pretrain_steps:,} decisions of "
                              f"the scripted team, {cfg.pretrain_epochs} epochs")
        ce = pretrain(model, games.train_games, cfg.pretrain_steps, cfg.pretrain_epochs,
                      cfg.seed)
        log.log("pretrain", 0, {"cross_entropy": ce})
        log.phase("pretrain", f"done: cross-entropy {ce:.3f}")
    evaluator = BaselineEvaluator(games.eval_target, games.eval_games, games.eval_seed)
    return learn(model, cfg, log, evaluator, "MaskablePPO")


def main(argv: list[str] | None = None, prog: str | None = None) -> None:
    cfg = parse_config(Config, argv, DEFAULT_CONFIG, description=__doc__.split("\n")[0],
                       prog=prog)
    print_result(train(cfg), cfg.eval_games, cfg.run_dir)


if __name__ == "__main__":
    main()
