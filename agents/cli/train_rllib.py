"""Multi-agent PPO on RLlib (optional extra ``rllib``): the way past one machine.

    hon-train --algo rllib                                  # Ray on this machine, 2 CPUs
    hon-train --algo rllib --address auto --num-env-runners 32  # an existing Ray cluster
    python scripts/train_rllib.py --help                    # every flag, with its default

RLlib's new API stack: PPO with one shared RL module ``"hero"`` for every hero seat
(parameter sharing; the observation has the hero's seat one-hot), RLlib's action-masking
module (``ActionMaskingTorchRLModule``: illegal actions get no probability) and
``hon_env.envs.rllib_env.HourOfNeedRLlibEnv``, one game per env copy, turn-based. Env
runners (``num_env_runners`` processes, each stepping ``num_envs_per_env_runner`` games)
sample in parallel, on every machine of the Ray cluster; the learner updates the module
and sends the weights back. With ``num_env_runners 0`` the driver samples itself.

``--address`` joins an existing cluster (``ray start --head`` on one machine, ``ray start
--address HEAD:6379`` on the others; ``auto`` finds a local one); without it ``ray.init``
starts Ray here with ``num_cpus`` CPUs. Every node needs hon_env installed
(``pip install "hon_env[rllib]"``).

Writes to ``run_dir`` what the other trainers write, under the same names: ``config.yaml``,
``train.csv`` (one row per RLlib iteration: the columns of
``agents.training.logger.TRAIN_METRICS``, plus ``iteration`` and ``sample_s``; the episode
return, win and loss rates are RLlib's: over its window of the latest
``metrics_num_episodes_for_smoothing`` (100) ended episodes, not only this iteration's;
``approx_kl`` is RLlib's mean KL; ``clip_fraction`` is empty, RLlib does not report it),
``eval.csv`` (greedy win rate of the hero module with 95% interval next to the random and
scripted baselines, every ``eval_every`` steps and at the end), TensorBoard events in
``tb/``, and RLlib checkpoints (folders) ``checkpoints/step_<N>`` and ``final``
(``Algorithm.from_checkpoint``). ``--resume`` restores such a folder and carries on from
its step count. Each phase prints a line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agents.training.baselines import BaselineEvaluator, eval_summary, format_eval
from agents.training.config import PpoFields, parse_config
from agents.training.logger import RunLogger
from agents.training.loop import train_loop
from hon_env.game import resolve_scenario
from hon_env.spec import layout as L

ENV_NAME = "hon_env_rllib"
MODULE_ID = "hero"


@dataclass
class Config(PpoFields):
    run_dir: str = "runs/rllib"
    address: str | None = None
    """Ray cluster to join (host:port or auto); None starts Ray on this machine"""
    num_cpus: int = 2
    """CPUs of the Ray instance started here (ignored with address: the cluster's count)"""
    num_env_runners: int = 1
    """sampling processes (0: the driver samples)"""
    num_envs_per_env_runner: int = 8
    """games each env runner steps in turn"""
    train_batch_size: int = 4000
    """env steps (decisions) sampled per iteration"""
    minibatch_size: int = 256
    """samples per gradient step"""
    num_epochs: int = 4
    """passes over each iteration's batch"""
    clip_coef: float = 0.2
    """PPO ratio clipping range"""

    def check(self) -> None:
        self.check_ppo("num_cpus", "num_envs_per_env_runner", "train_batch_size",
                            "minibatch_size", "num_epochs")
        if self.num_env_runners < 0:
            raise ValueError(f"num_env_runners must be 0 or more, got {self.num_env_runners}")
        if self.minibatch_size > self.train_batch_size:
            raise ValueError(f"minibatch_size {self.minibatch_size} must not exceed "
                             f"train_batch_size {self.train_batch_size}")


def _make_env(env_config: Any) -> Any:
    from hon_env.envs.rllib_env import HourOfNeedRLlibEnv

    return HourOfNeedRLlibEnv(env_config)


def env_config(cfg: Config) -> dict[str, Any]:
    """The env options the env runners build their games with."""
    return {"scenario": cfg.scenario, "heroes": cfg.heroes, "villain": cfg.villain,
            "issue": cfg.issue, "reward_shaping": cfg.reward_shaping, "seed": cfg.seed}


def ppo_config(cfg: Config, device: str) -> Any:
    """RLlib's ``PPOConfig``: one shared masked module for every hero seat."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )
    from ray.tune.registry import register_env

    register_env(ENV_NAME, _make_env)
    model = {"fcnet_hiddens": list(cfg.hidden), "fcnet_activation": "relu",
             "head_fcnet_hiddens": [], "vf_share_layers": False}
    return (
        PPOConfig()
        .environment(ENV_NAME, env_config=env_config(cfg))
        .framework("torch")
        .env_runners(num_env_runners=cfg.num_env_runners,
                     num_envs_per_env_runner=cfg.num_envs_per_env_runner,
                     rollout_fragment_length="auto")
        .multi_agent(policies={MODULE_ID},
                     policy_mapping_fn=lambda agent_id, episode, **kwargs: MODULE_ID)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            MODULE_ID: RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                                    model_config=model)}))
        .training(train_batch_size_per_learner=cfg.train_batch_size,
                  minibatch_size=cfg.minibatch_size, num_epochs=cfg.num_epochs, lr=cfg.lr,
                  gamma=cfg.gamma, lambda_=cfg.gae_lambda, clip_param=cfg.clip_coef,
                  entropy_coeff=cfg.ent_coef, vf_loss_coeff=cfg.vf_coef)
        .learners(num_learners=0, num_gpus_per_learner=1 if device.startswith("cuda") else 0)
        .callbacks(on_episode_end=_record_outcome)
        .debugging(seed=cfg.seed)
    )


def _record_outcome(*, episode: Any, env_runner: Any = None, metrics_logger: Any = None,
                    **kwargs: Any) -> None:
    """Win and loss of each ended episode into RLlib's env-runner metrics, averaged over
    the window RLlib uses for the episode return (so both describe the same episodes)."""
    infos = [i for i in episode.get_infos(-1).values() if i]
    if not infos or metrics_logger is None:
        return
    window = 100
    if env_runner is not None:
        rc = env_runner.config
        window = max(1, math.ceil(rc.metrics_num_episodes_for_smoothing
                                  / (rc.num_env_runners or 1)))
    outcome = int(infos[0]["outcome"])
    metrics_logger.log_value("hon_win", float(outcome == L.OUT_WIN), window=window)
    metrics_logger.log_value("hon_loss", float(outcome == L.OUT_LOSS), window=window)


class RLlibModulePolicy:
    """The greedy hero module as an ``agents.policy.Policy`` (for the evaluation harness)."""

    name = "rllib"

    def __init__(self, module: Any) -> None:
        self.module = module

    @torch.no_grad()
    def act(self, observations: np.ndarray, masks: np.ndarray, seats: np.ndarray,
            engine: Any = None) -> np.ndarray:
        from ray.rllib.core.columns import Columns

        batch = {Columns.OBS: {"observations": torch.as_tensor(observations),
                               "action_mask": torch.as_tensor(masks, dtype=torch.float32)}}
        logits = self.module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        return logits.argmax(-1).cpu().numpy().astype(np.int64)


def _metric(tree: dict[str, Any], *path: str) -> float:
    for key in path:
        if not isinstance(tree, dict) or key not in tree:
            return float("nan")
        tree = tree[key]
    return float(tree)


def train_row(result: dict[str, Any]) -> dict[str, float]:
    """One ``train.csv`` row (``TRAIN_METRICS``) from an RLlib result dict (the training
    loop adds ``steps_per_s``)."""
    runners, learner = "env_runners", ("learners", MODULE_ID)
    return {
        "episode_return": _metric(result, runners, "episode_return_mean"),
        "episode_win_rate": _metric(result, runners, "hon_win"),
        "episode_loss_rate": _metric(result, runners, "hon_loss"),
        "episodes": _metric(result, runners, "num_episodes"),
        "policy_loss": _metric(result, *learner, "policy_loss"),
        "value_loss": _metric(result, *learner, "vf_loss"),
        "entropy": _metric(result, *learner, "entropy"),
        "approx_kl": _metric(result, *learner, "mean_kl_loss"),
        "clip_fraction": float("nan"),
        "lr": _metric(result, *learner, "default_optimizer_learning_rate"),
        "iteration": _metric(result, "training_iteration"),
        "sample_s": _metric(result, "env_runners", "sample"),
    }


def train(cfg: Config) -> dict[str, float]:
    """Run the training of ``cfg``; returns the last evaluation row (with ``steps_per_s``)."""
    cfg.check()
    try:
        import ray
    except ImportError as e:
        raise ImportError("hon-train --algo rllib needs RLlib: pip install 'hon_env[rllib]' "
                          "(ray[rllib] and the gymnasium version it pins)") from e

    device = cfg.device
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    scenario = resolve_scenario(cfg.scenario, heroes=cfg.heroes, villain=cfg.villain,
                                issue=cfg.issue)
    started_ray = not ray.is_initialized()
    if started_ray:
        if cfg.address:
            ray.init(address=cfg.address)
        else:
            ray.init(num_cpus=cfg.num_cpus, include_dashboard=False)
    algo = ppo_config(cfg, device).build_algo()
    global_step = 0
    log = RunLogger(cfg.run_dir, cfg, cfg.total_steps, tensorboard=cfg.tensorboard,
                    progress=cfg.progress)
    if cfg.resume:
        algo.restore_from_path(str(Path(cfg.resume).resolve()))
        global_step = int(algo.metrics.peek(("env_runners", "num_env_steps_sampled_lifetime"),
                                            default=0))
        log.phase("train", f"resumed {cfg.resume} at step {global_step:,}")
    evaluator = BaselineEvaluator(scenario, cfg.eval_games)
    where = cfg.address or f"local Ray, {cfg.num_cpus} CPUs"
    log.phase("train", f"RLlib PPO from step {global_step:,} to {cfg.total_steps:,}: "
                       f"{cfg.num_env_runners} env runners x {cfg.num_envs_per_env_runner} "
                       f"games, {cfg.train_batch_size} steps per iteration ({where})")
    sps = float("nan")
    last_eval: dict[str, float] = {}

    def update(step: int) -> tuple[int, int, dict[str, float]]:
        result = algo.train()
        now = int(result["env_runners"]["num_env_steps_sampled_lifetime"])
        return now, now - step, train_row(result)

    try:
        global_step, last_eval, sps = train_loop(
            cfg, log, global_step, update,
            lambda path, step: algo.save_to_path(str(path.resolve())),
            lambda: evaluator.row(RLlibModulePolicy(algo.get_module(MODULE_ID))),
            eval_summary, suffix="")
        algo.save_to_path(str((Path(cfg.run_dir) / "checkpoints" / "final").resolve()))
    finally:
        algo.stop()
        log.close()
        if started_ray:
            ray.shutdown()
    last_eval["steps_per_s"] = sps
    return last_eval


def main(argv: list[str] | None = None, prog: str | None = None) -> None:
    cfg = parse_config(Config, argv, None, description=__doc__.split("\n")[0], prog=prog)
    row = train(cfg)
    if "trained_win_rate" in row:
        print(format_eval(row, cfg.eval_games))
    print(f"training throughput {row['steps_per_s']:,.0f} env steps/s (sampling + updates, "
          f"evaluations excluded); run in {cfg.run_dir}")


if __name__ == "__main__":
    main()
