"""sb3-contrib MaskablePPO on the batched engine, one shared policy for every hero.

    python scripts/train_ppo.py                                    # configs/train/ppo.yaml
    python scripts/train_ppo.py --total-steps 200000 --run-dir runs/ppo_try
    python scripts/train_ppo.py --resume runs/ppo/checkpoints/ppo_1000000_steps.zip

The environment is ``hon_env.envs.sb3.SB3VecEnv`` (all games in one process; the legal
masks go to MaskablePPO through ``action_masks()``). The policy sees the deciding hero's
observation, whose seat is one-hot in it, so one network plays the whole team. Rewards
are the team's (+1 win, -1 loss, plus the config's event shaping).

``pretrain_steps > 0`` first fits the policy to the scripted team's actions on that many
decisions it plays (behaviour cloning), a warm start: PPO from random play sees no wins.

Writes to ``run_dir``: ``config.yaml``; SB3's ``progress.csv`` and TensorBoard events
(``tb/``); ``eval.csv`` (greedy win rate with 95% interval next to the random and scripted
baselines, every ``eval_every`` steps); ``checkpoints/`` and ``final.zip`` (load with
``agents.load_policy``).
"""

# ruff: noqa: E402  (the environment variable below must be set before torch loads)
from __future__ import annotations

import os

# torch's OpenMP workers must not spin between calls: the engine's threads need the cores
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, CallbackList, CheckpointCallback
from stable_baselines3.common.logger import configure

from agents.checkpoints import require_file, sb3_safe_objects
from agents.heuristic import HeuristicPolicy
from agents.trained import PpoPolicy
from agents.training.baselines import BaselineEvaluator, format_eval
from agents.training.config import RunConfig, parse_config
from agents.training.logger import RunLogger
from hon_env.envs.sb3 import SB3VecEnv
from hon_env.envs.vector import VectorEnv
from hon_env.game import resolve_scenario

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Config(RunConfig):
    run_dir: str = "runs/ppo"
    num_envs: int = 256
    n_steps: int = 64
    batch_size: int = 4096
    n_epochs: int = 4
    lr: float = 3e-4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    hidden: list[int] = field(default_factory=lambda: [512, 512])
    pretrain_steps: int = 0
    pretrain_epochs: int = 4

    def check(self) -> None:
        self.check_positive("num_envs", "n_steps", "batch_size", "n_epochs")
        if self.pretrain_steps < 0:
            raise ValueError("pretrain_steps must be >= 0")
        if not self.hidden or min(self.hidden) < 1:
            raise ValueError(f"hidden must list positive layer sizes, got {self.hidden}")


class EvalCallback(BaseCallback):
    """Every ``every`` steps: the greedy policy's win rate next to the baselines."""

    def __init__(self, evaluator: BaselineEvaluator, log: RunLogger, every: int) -> None:
        super().__init__()
        self.evaluator = evaluator
        self.log = log
        self.every = every
        self.next = every
        self.last: dict[str, float] = {}

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next:
            self.evaluate()
            self.next += self.every
        return True

    def evaluate(self) -> dict[str, float]:
        self.last = self.evaluator.row(PpoPolicy(self.model, greedy=True))
        self.log.log("eval", self.num_timesteps, self.last)
        for k, v in self.last.items():
            self.logger.record(f"eval/{k}", v)
        return self.last


def pretrain(model: MaskablePPO, scenario, steps: int, epochs: int, seed: int) -> float:
    """Behaviour cloning on ``steps`` decisions of the scripted team; returns the final
    cross-entropy."""
    env = VectorEnv(256, seed + 7_000_003, scenario)
    obs, _ = env.reset()
    teacher = HeuristicPolicy()
    xs, ms, ys = [], [], []
    for _ in range((steps + env.num_envs - 1) // env.num_envs):
        a = teacher.act(obs["observation"], obs["action_mask"], obs["agent"], engine=env.engine)
        xs.append(obs["observation"].copy())
        ms.append(obs["action_mask"].astype(bool))
        ys.append(a)
        obs, *_ = env.step(a)
    x, m, y = (np.concatenate(v) for v in (xs, ms, ys))
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


def train(cfg: Config) -> dict[str, float]:
    """Train (or resume) and return the last evaluation row."""
    cfg.check()
    scenario = resolve_scenario(cfg.scenario, heroes=cfg.heroes, villain=cfg.villain,
                                issue=cfg.issue)
    device = "cuda" if cfg.device == "auto" and torch.cuda.is_available() else (
        "cpu" if cfg.device == "auto" else cfg.device)
    run = Path(cfg.run_dir)
    log = RunLogger(run, cfg, cfg.total_steps, tensorboard=False, progress=False)
    env = SB3VecEnv(cfg.num_envs, cfg.seed * 1_000_003, scenario=scenario,
                    reward_shaping=cfg.reward_shaping)
    if cfg.resume:
        # nothing in the file is unpickled; the schedules come from this run's config
        safe = sb3_safe_objects(require_file(cfg.resume), clip_range=cfg.clip_range,
                                learning_rate=cfg.lr)
        model = MaskablePPO.load(cfg.resume, env=env, device=device, custom_objects=safe)
    else:
        model = MaskablePPO(
            "MlpPolicy", env, learning_rate=cfg.lr, n_steps=cfg.n_steps,
            batch_size=cfg.batch_size, n_epochs=cfg.n_epochs, gamma=cfg.gamma,
            gae_lambda=cfg.gae_lambda, clip_range=cfg.clip_range, ent_coef=cfg.ent_coef,
            vf_coef=cfg.vf_coef, seed=cfg.seed, device=device,
            policy_kwargs={"net_arch": list(cfg.hidden)})
        if cfg.pretrain_steps:
            ce = pretrain(model, scenario, cfg.pretrain_steps, cfg.pretrain_epochs, cfg.seed)
            log.log("pretrain", 0, {"cross_entropy": ce})
    formats = ["csv"] + (["tensorboard"] if cfg.tensorboard else [])
    model.set_logger(configure(str(run), formats))
    evaluator = BaselineEvaluator(scenario, cfg.eval_games)
    eval_cb = EvalCallback(evaluator, log, cfg.eval_every)
    ckpt_cb = CheckpointCallback(max(1, cfg.checkpoint_every // cfg.num_envs),
                                 str(run / "checkpoints"), name_prefix="ppo")
    remaining = max(0, cfg.total_steps - model.num_timesteps)
    model.learn(remaining, callback=CallbackList([ckpt_cb, eval_cb]),
                progress_bar=cfg.progress, reset_num_timesteps=not cfg.resume)
    model.save(run / "final.zip")
    row = eval_cb.evaluate()
    log.close()
    return row


def main(argv: list[str] | None = None) -> None:
    cfg = parse_config(Config, argv, ROOT / "configs/train/ppo.yaml",
                       description=__doc__.split("\n")[0])
    row = train(cfg)
    print(format_eval(row, cfg.eval_games))
    print(f"run in {cfg.run_dir}")


if __name__ == "__main__":
    main()
