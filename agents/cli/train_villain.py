"""Train a best-response villain (Mastermind variant) with MaskablePPO against a fixed team.

    python scripts/train_villain.py                         # configs/train/villain.yaml
    python scripts/train_villain.py --hero-policy heuristic --total-steps 200000
    python scripts/train_villain.py --hero-policy runs/mappo/final.pt   # exploit a team

The environment is ``HourOfNeedVillainEnv`` (``hon_env.envs.villain_env``): every step is
one villain decision (which hand card resolves against which hero, the showdown card,
scheme or inflict), the heroes in between are played by ``hero_policy``; ``num_envs`` of
them run side by side in SB3's ``DummyVecEnv``. The reward is the villain's: +1 when the
heroes lose, -1 when they win (zero-sum).

Writes what the other trainers write, under the same names: ``config.yaml``,
``train.csv`` (``agents.training.logger.TRAIN_METRICS``; the episode return and win rate
are the villain's: it wins when the heroes lose), ``eval.csv``, TensorBoard events in ``tb/``,
``checkpoints/step_<N>.zip`` and ``final.zip`` (``agents.villains.load_villain`` loads it).
An evaluation reports the heroes' win rate against the trained villain next to the
top-card villain (the rulebook's deck) and the scripted villain, with 95% intervals: a
learned villain is better when the heroes win less against it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

from agents.cli.train_ppo import Config as PpoConfig
from agents.cli.train_ppo import build_model, learn, sb3_device
from agents.registry import load_policy
from agents.training.baselines import VillainEvaluator, villain_eval_summary
from agents.training.config import parse_config
from agents.training.logger import RunLogger
from hon_env.content.loader import TRAIN_CONFIGS_DIR
from hon_env.envs.villain_env import HourOfNeedVillainEnv

DEFAULT_CONFIG = TRAIN_CONFIGS_DIR / "villain.yaml"
# training game i starts at seed (seed * num_envs + i) * SEED_STRIDE + 1 and counts up, far
# from the other games' and from the evaluation seeds
SEED_STRIDE = 10_000_000


@dataclass
class Config(PpoConfig):
    """The MaskablePPO trainer's settings (``agents/cli/train_ppo.py``), other defaults."""

    run_dir: str = "runs/villain"
    scenario: str = "mastermind"
    hero_policy: str = "heuristic"
    """the team the villain learns to beat: a policy name or checkpoint (agents.load_policy)"""
    num_envs: int = 8
    n_steps: int = 256
    batch_size: int = 512
    gamma: float = 0.99
    hidden: list[int] = field(default_factory=lambda: [256, 256])
    # SB3's own MLPs in float32, as every villain row of docs/mastermind.md trained
    shared_trunk: bool = False
    amp: str = "false"
    pretrain_steps: int = 0

    def check(self) -> None:
        super().check()
        self.check_mastermind_scenario()
        if self.reward_shaping:
            raise ValueError("reward_shaping shapes the heroes' reward; the villain's is the "
                             "game's result only (docs/mastermind.md)")
        if self.pretrain_steps:
            raise ValueError("pretrain_steps clones the scripted heroes; a villain has no "
                             "scripted teacher to clone (set 0)")


def make_env(cfg: Config, i: int) -> HourOfNeedVillainEnv:
    """Training game i: its own seed range, far from the evaluation seeds."""
    env = HourOfNeedVillainEnv(hero_policy=load_policy(cfg.hero_policy, seed=cfg.seed + i),
                               scenario=cfg.scenario, heroes=cfg.heroes, villain=cfg.villain,
                               issue=cfg.issue)
    env.reset(seed=(cfg.seed * cfg.num_envs + i) * SEED_STRIDE + 1)  # later resets: +1
    return env


class _VillainOutcome(Monitor):
    """SB3's ``Monitor`` that writes the episode's outcome from the villain's side into
    the last info ("win" when the heroes lose), which the training log counts."""

    def step(self, action):
        obs, reward, term, trunc, info = super().step(action)
        if term or trunc:
            heroes = info.get("outcome", "truncated")
            info["outcome"] = {"win": "loss", "loss": "win"}.get(heroes, heroes)
        return obs, reward, term, trunc, info


def train(cfg: Config) -> dict[str, float]:
    """Train (or resume) a villain and return the last evaluation row."""
    cfg.check()
    log = RunLogger(cfg.run_dir, cfg, cfg.total_steps, tensorboard=cfg.tensorboard,
                    progress=False)
    env = DummyVecEnv([lambda i=i: _VillainOutcome(make_env(cfg, i)) for i in range(cfg.num_envs)])
    model = build_model(cfg, env, sb3_device(cfg.device))
    evaluator = VillainEvaluator(load_policy(cfg.hero_policy, seed=cfg.seed), cfg.eval_games,
                                 scenario=cfg.scenario, heroes=cfg.heroes,
                                 villain=cfg.villain, issue=cfg.issue)
    return learn(model, cfg, log, evaluator,
                 f"villain MaskablePPO against {cfg.hero_policy} on {cfg.scenario}",
                 summary=lambda row: "heroes' win rate " + villain_eval_summary(row))


def main(argv: list[str] | None = None, prog: str | None = None) -> None:
    cfg = parse_config(Config, argv, DEFAULT_CONFIG, description=__doc__.split("\n")[0],
                       prog=prog)
    row = train(cfg)
    print(f"heroes' win rate over {cfg.eval_games} evaluation games (95% interval): "
          + villain_eval_summary(row))
    print(f"training throughput {row['steps_per_s']:,.0f} villain decisions/s; run in "
          f"{cfg.run_dir}")


if __name__ == "__main__":
    main()
