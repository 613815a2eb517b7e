"""Self-play for the Mastermind variant: a hero team and a villain trained in alternation,
each against a league of the other side's past snapshots.

    python scripts/train_selfplay.py                        # configs/train/selfplay.yaml
    python scripts/train_selfplay.py --iterations 2 --hero-steps 20000 --villain-steps 20000

The scheme is fictitious self-play with uniform sampling over snapshots:

1. The leagues start with the scripted team (heroes) and the uniformly random villain
   (which plays cards in the rulebook deck's order of chance).
2. Each iteration trains the villain (MaskablePPO on ``HourOfNeedVillainEnv``) for
   ``villain_steps`` decisions, every episode against a hero snapshot drawn uniformly from
   the hero league, and adds the result to the villain league; then the heroes (one shared
   MaskablePPO policy on ``HourOfNeedEnv``, the villain played inside) for ``hero_steps``,
   every episode against a villain drawn from the villain league, and adds them to the
   hero league. Both networks carry on from one iteration to the next.
3. The hero policy starts from behaviour cloning of the scripted team (``pretrain_steps``
   decisions of the rulebook game): PPO from random play sees no wins.
4. After each iteration the current heroes play the current villain, the random villain
   and the top-card villain (the rulebook's deck) on fixed evaluation games.

Writes ``config.yaml``, ``eval.csv`` (one row per iteration), TensorBoard events in
``tb/``, ``heroes/iter_<k>.zip`` and ``villain/iter_<k>.zip`` (snapshots, loadable with
``agents.load_policy`` / ``agents.villains.load_villain``) and ``league.json``.
"""

# ruff: noqa: E402  (the environment variable below must be set before torch loads)
from __future__ import annotations

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

from agents.cli.train_ppo import pretrain
from agents.evaluation import evaluate
from agents.random_agent import RandomPolicy
from agents.registry import load_policy
from agents.trained import PpoPolicy
from agents.training.baselines import EVAL_SEED
from agents.training.config import RunConfig, parse_config
from agents.training.logger import RunLogger
from agents.villains import TOP_CARD
from hon_env.content.loader import TRAIN_CONFIGS_DIR
from hon_env.envs.gym_env import HourOfNeedEnv
from hon_env.envs.villain_env import HourOfNeedVillainEnv
from hon_env.game import resolve_scenario

DEFAULT_CONFIG = TRAIN_CONFIGS_DIR / "selfplay.yaml"
SEED_STRIDE = 10_000_000  # each training game has its own seed range


@dataclass
class Config(RunConfig):
    run_dir: str = "runs/selfplay"
    scenario: str = "mastermind"
    iterations: int = 4
    """alternations of villain and hero training"""
    villain_steps: int = 100_000
    """villain decisions trained per iteration"""
    hero_steps: int = 200_000
    """hero decisions trained per iteration"""
    num_envs: int = 8
    """games played side by side by each learner"""
    n_steps: int = 256
    """decisions per game per PPO update"""
    batch_size: int = 512
    """minibatch size"""
    lr: float = 3e-4
    """Adam learning rate of both learners"""
    hidden: list[int] = field(default_factory=lambda: [256, 256])
    """hidden layer sizes of both learners' networks"""
    pretrain_steps: int = 100_000
    """scripted-team decisions cloned into the hero policy before the first iteration"""

    def check(self) -> None:
        self.check_positive("iterations", "villain_steps", "hero_steps", "num_envs",
                            "n_steps", "batch_size")
        if self.task:
            raise ValueError("task names a heroes-only benchmark task; this trainer plays "
                             "the Mastermind variant's scenario (use --scenario)")
        if self.pretrain_steps < 0:
            raise ValueError("pretrain_steps must be >= 0")


class League:
    """Snapshots of one side; ``act`` plays the member drawn by the latest ``draw``."""

    def __init__(self, members: list[Any], seed: int) -> None:
        self.members = members  # shared by the leagues of every training game
        self.rng = np.random.default_rng(seed)
        self.current = self.members[0]
        self.name = "league"

    def draw(self) -> None:
        self.current = self.members[int(self.rng.integers(len(self.members)))]

    def act(self, observations, masks, seats, engine=None) -> np.ndarray:
        return self.current.act(observations, masks, seats, engine=engine)


class DrawOnReset(gymnasium.Wrapper):
    """Draws a new league member to play the other side at the start of every episode."""

    def __init__(self, env: gymnasium.Env, league: League) -> None:
        super().__init__(env)
        self.league = league

    def reset(self, **kwargs: Any):
        self.league.draw()
        return self.env.reset(**kwargs)

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


def _vec(cfg: Config, make: Any, leagues: list[League], offset: int) -> DummyVecEnv:
    def one(i: int) -> gymnasium.Env:
        env = make(leagues[i])
        env.unwrapped.reset(seed=(offset + cfg.seed * cfg.num_envs + i) * SEED_STRIDE + 1)
        return Monitor(DrawOnReset(env, leagues[i]))
    return DummyVecEnv([lambda i=i: one(i) for i in range(cfg.num_envs)])


def _ppo(env: DummyVecEnv, cfg: Config, device: str, gamma: float) -> MaskablePPO:
    return MaskablePPO("MlpPolicy", env, learning_rate=cfg.lr, n_steps=cfg.n_steps,
                       batch_size=cfg.batch_size, gamma=gamma, seed=cfg.seed, device=device,
                       policy_kwargs={"net_arch": list(cfg.hidden)}, verbose=0)


def train(cfg: Config) -> list[dict[str, float]]:
    """Run the iterations; returns the evaluation rows."""
    cfg.check()
    device = "cuda" if cfg.device == "auto" and torch.cuda.is_available() else (
        "cpu" if cfg.device == "auto" else cfg.device)
    run = Path(cfg.run_dir)
    log = RunLogger(run, cfg, cfg.iterations, tensorboard=cfg.tensorboard, progress=False)
    options = {"heroes": cfg.heroes, "villain": cfg.villain, "issue": cfg.issue}
    scenario = resolve_scenario(cfg.scenario, **options)
    if not scenario.villain_agent:
        raise ValueError(f"scenario {scenario.id!r} has no villain agent (rules villain_agent)")
    # one league object per training game, sharing the member list
    hero_members: list[Any] = [load_policy("heuristic")]
    villain_members: list[Any] = [RandomPolicy(cfg.seed)]
    hero_leagues = [League(hero_members, cfg.seed * 1000 + i) for i in range(cfg.num_envs)]
    villain_leagues = [League(villain_members, cfg.seed * 1000 + 500 + i)
                       for i in range(cfg.num_envs)]
    villain_env = _vec(cfg, lambda lg: HourOfNeedVillainEnv(lg, scenario),
                       hero_leagues, 0)
    hero_env = _vec(cfg, lambda lg: HourOfNeedEnv(villain_policy=lg, scenario=scenario),
                    villain_leagues, cfg.num_envs)
    villain_model = _ppo(villain_env, cfg, device, gamma=0.99)
    hero_model = _ppo(hero_env, cfg, device, gamma=0.995)
    if cfg.pretrain_steps:
        base = resolve_scenario(cfg.scenario, **options, rules={"villain_agent": False})
        log.phase("pretrain", f"heroes clone {cfg.pretrain_steps:,} scripted-team decisions")
        pretrain(hero_model, base, cfg.pretrain_steps, 4, cfg.seed)
    rows = []
    league_log: dict[str, list[str]] = {"heroes": ["heuristic"], "villain": ["random"]}
    for k in range(cfg.iterations):
        for side, model, steps, grows, opponents in (
                ("villain", villain_model, cfg.villain_steps, villain_members, hero_members),
                ("heroes", hero_model, cfg.hero_steps, hero_members, villain_members)):
            log.phase(side, f"iteration {k}: {steps:,} decisions against "
                            f"{len(opponents)} snapshots of the other side")
            model.learn(steps, reset_num_timesteps=False)
            path = run / side / f"iter_{k}.zip"
            path.parent.mkdir(parents=True, exist_ok=True)
            model.save(path)
            grows.append(PpoPolicy.load(path, device=device, greedy=False, seed=k))
            league_log[side].append(str(path))
        row = evaluate_iteration(cfg, options, PpoPolicy(hero_model, greedy=True),
                                 PpoPolicy(villain_model, greedy=True))
        log.log("eval", k + 1, row)
        log.phase("eval", f"iteration {k}: heroes' win rate " + ", ".join(
            f"vs {n} {row[f'vs_{n}_win_rate']:.3f}" for n in ("villain", "random", TOP_CARD)))
        rows.append(row)
        (run / "league.json").write_text(json.dumps(league_log, indent=1))
    log.close()
    return rows


def evaluate_iteration(cfg: Config, options: dict[str, Any], heroes: PpoPolicy,
                       villain: PpoPolicy) -> dict[str, float]:
    """The current heroes against the current villain, the random and top-card villains."""
    out: dict[str, float] = {}
    for name, opponent in (("villain", villain), ("random", RandomPolicy(cfg.seed)),
                           (TOP_CARD, TOP_CARD)):
        r = evaluate(heroes, scenario=cfg.scenario, villain_policy=opponent,
                     games=cfg.eval_games, seed=EVAL_SEED, **options)
        out[f"vs_{name}_win_rate"] = r.win_rate
        out[f"vs_{name}_ci_low"] = r.ci_low
        out[f"vs_{name}_ci_high"] = r.ci_high
    return out


def main(argv: list[str] | None = None, prog: str | None = None) -> None:
    cfg = parse_config(Config, argv, DEFAULT_CONFIG, description=__doc__.split("\n")[0],
                       prog=prog)
    rows = train(cfg)
    last = rows[-1]
    print(f"after {cfg.iterations} iterations, heroes' win rate over {cfg.eval_games} games: "
          + ", ".join(f"vs {n} {last[f'vs_{n}_win_rate']:.3f} "
                      f"[{last[f'vs_{n}_ci_low']:.3f}, {last[f'vs_{n}_ci_high']:.3f}]"
                      for n in ("villain", "random", TOP_CARD)) + f"; run in {cfg.run_dir}")


if __name__ == "__main__":
    main()
