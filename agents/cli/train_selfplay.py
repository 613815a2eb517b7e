"""Self-play for the Mastermind variant: MAPPO heroes and a MAPPO villain trained in
alternation on the vector env, each against a league of the other side's past snapshots.

    python scripts/train_selfplay.py                        # configs/train/selfplay.yaml
    python scripts/train_selfplay.py --iterations 2 --total-steps 400000 --villain-steps 50000

Both learners are the MAPPO trainer's (``agents/training/mappo.py``, the settings of
``scripts/train_mappo.py``): one masked actor and a critic of the global state; the heroes'
actor plays every hero seat, the villain's the villain agent's rows. The scheme is
fictitious self-play with uniform sampling over snapshots (``agents.training.league``):

1. The villain league starts with ``villain_league`` (default the random villain, which
   plays cards in the rulebook deck's order of chance); the hero league with
   ``hero_league`` (default empty).
2. Each iteration trains the heroes for ``total_steps / iterations`` hero decisions; every
   episode of every game plays a villain drawn uniformly from the villain league. The
   heroes' actor (sampling) joins the hero league. Then the villain trains for
   ``villain_steps`` villain decisions against the hero league, and its actor joins the
   villain league. Both learners carry on from one iteration to the next.
3. After each iteration the current heroes (greedy) play the current villain (greedy),
   the top-card villain (the rulebook's deck) and the scripted villain on fixed games.

``total_steps`` is the heroes' whole budget (hero decisions), as in ``train_mappo.py``, so
a self-play run and a run against one villain can be given the same budget. The heroes'
kickstart (``kickstart_coef``, ``kickstart_steps``) imitates the scripted team, the
villain's (``villain_kickstart_coef``, ``villain_kickstart_steps``) the scripted villain;
``reward_shaping`` shapes the heroes' reward, ``villain_reward_shaping`` the villain's.
``pretrain_steps`` warm-starts the heroes' actor by cloning the coordinated team's
decisions in games against the villain league's first member (the MAPPO trainer's warm
start).

Writes ``config.yaml``, ``train.csv`` (the heroes' updates, step = hero decisions) and
``train_villain.csv`` (the villain's, step = villain decisions) with the MAPPO trainer's
columns, ``eval.csv`` (one row per iteration, step = hero decisions), TensorBoard events in
``tb/``, ``heroes/iter_<k>.pt`` and ``villain/iter_<k>.pt`` (the snapshots, MAPPO
checkpoints: ``agents.load_policy`` / ``agents.villains.load_villain``), ``final.pt``
(the heroes) and ``villain_final.pt``, and ``league.json`` (both leagues' members).
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import torch

from agents.cli.train_mappo import Config as MappoConfig
from agents.cli.train_mappo import side_shaping, warm_start
from agents.networks import NETWORKS
from agents.training.baselines import EVAL_SEED, VillainEvaluator, villain_eval_summary
from agents.training.config import parse_config
from agents.training.cpu_threads import set_cpu_threads
from agents.training.distributed import under_torchrun
from agents.training.league import HEROES, VILLAIN, League, load_opponent
from agents.training.logger import RunLogger
from agents.training.mappo import MappoLearner, Rollout, pick_device, train_step
from agents.villains import TOP_CARD
from hon_env.content.loader import TRAIN_CONFIGS_DIR
from hon_env.envs.vector import VectorEnv
from hon_env.game import resolve_scenario

DEFAULT_CONFIG = TRAIN_CONFIGS_DIR / "selfplay.yaml"
VILLAIN_SEED_OFFSET = 2**40  # the villain learner's games, far from the heroes'


@dataclass
class Config(MappoConfig):
    """The MAPPO trainer's settings (``agents/cli/train_mappo.py``) for both learners, and
    the self-play schedule."""

    run_dir: str = "runs/selfplay"
    scenario: str = "mastermind"
    total_steps: int = 2_000_000
    """hero decisions trained in all, split evenly over the iterations"""
    iterations: int = 4
    """alternations of hero and villain training"""
    villain_steps: int = 100_000
    """villain decisions trained per iteration"""
    villain_kickstart_coef: float = 0.0
    """initial weight of the villain's cross-entropy to the scripted villain (0: off)"""
    villain_kickstart_steps: int = 0
    """villain decisions over which that weight decays linearly to 0"""
    villain_league: list[str] = field(default_factory=lambda: ["random"])
    """the villain league's first members (random, scripted or villain checkpoints)"""
    hero_league: list[str] = field(default_factory=list)
    """the hero league's first members besides the snapshots (heuristic, checkpoints...)"""
    villain_network: str | None = None
    """the villain learner's actor (mlp | entity; default: the heroes' ``network``)"""

    def check(self) -> None:
        super().check()
        self.check_positive("iterations", "villain_steps", "total_steps")
        if self.side != HEROES or self.opponent is not None:
            raise ValueError("side and opponent are set by self-play: leave them out")
        self.check_mastermind_scenario()
        if self.resume:
            raise ValueError("self-play runs cannot be resumed yet: start a new run")
        if TOP_CARD in self.villain_league:
            raise ValueError("top_card switches the villain agent off, so it cannot be a "
                             "league member; the random villain plays cards in the deck's "
                             "order of chance")
        if not self.villain_league:
            raise ValueError("villain_league needs at least one first member")
        if self.villain_network is not None and self.villain_network not in NETWORKS:
            raise ValueError(f"villain_network must be one of {', '.join(NETWORKS)}, got "
                             f"{self.villain_network!r}")

    def villain_config(self) -> MappoConfig:
        """The villain learner's settings: the same, with its own budget and kickstart."""
        return dataclasses.replace(
            MappoConfig(**{f.name: getattr(self, f.name)
                           for f in dataclasses.fields(MappoConfig)}),
            side=VILLAIN, total_steps=self.iterations * self.villain_steps,
            kickstart_coef=self.villain_kickstart_coef,
            kickstart_steps=self.villain_kickstart_steps, pretrain_steps=0,
            critic_warmup_steps=0,
            network=self.villain_network or self.network)


class Side:
    """One learner, its rollouts (own games) and the league it plays against."""

    def __init__(self, cfg: MappoConfig, side: str, device: torch.device, seed: int,
                 scenario, opponents: League) -> None:
        self.side, self.cfg = side, cfg
        self.learner = MappoLearner(cfg, device, side)
        env = VectorEnv(cfg.num_envs, seed, scenario, global_state=self.learner.env_state,
                        **side_shaping(cfg))
        self.roll = Rollout(env, cfg, side, opponents, device, self.learner)
        self.opponents = opponents
        self.step = 0  # the learner's decisions so far

    def train(self, steps: int, log: RunLogger, table: str) -> None:
        """Train ``steps`` more decisions, logging one row per update to ``table``."""
        target = self.step + steps
        start, env_steps = time.perf_counter(), 0
        while self.step < target:
            decisions, row = train_step(self.learner, self.roll, self.step,
                                        self.cfg.total_steps)
            self.step += decisions
            env_steps += self.roll.S * self.roll.B
            row["steps_per_s"] = env_steps / (time.perf_counter() - start)
            log.log(table, self.step, row)


def train(cfg: Config) -> list[dict[str, float]]:
    """Run the iterations; returns the evaluation rows."""
    cfg.check()
    if under_torchrun():
        # each process would run the whole schedule into the same folder
        raise ValueError("self-play does not run under torchrun: data-parallel training is "
                         "hon-train's (MAPPO and IPPO, docs/scaling.md)")
    if cfg.threads > 0:
        set_cpu_threads(cfg.threads)
    device = pick_device(cfg.device)
    torch.manual_seed(cfg.seed)
    run = Path(cfg.run_dir)
    log = RunLogger(run, cfg, cfg.iterations, tensorboard=cfg.tensorboard, progress=False)
    options = {"heroes": cfg.heroes, "villain": cfg.villain, "issue": cfg.issue}
    scenario = resolve_scenario(cfg.scenario, **options)
    if not scenario.villain_agent:
        raise ValueError(f"scenario {scenario.id!r} has no villain agent (rules villain_agent)")
    dev = str(device)
    villains = League([load_opponent(HEROES, s, seed=cfg.seed, device=dev)
                       for s in cfg.villain_league], cfg.num_envs, cfg.seed,
                      names=list(cfg.villain_league))
    heroes_league = League([load_opponent(VILLAIN, s, seed=cfg.seed, device=dev)
                            for s in cfg.hero_league], cfg.num_envs, cfg.seed + 1,
                           names=list(cfg.hero_league))
    seed = cfg.seed * 1_000_003
    heroes = Side(dataclasses.replace(cfg, villain_reward_shaping=None), HEROES, device,
                  seed, scenario, villains)
    vcfg = cfg.villain_config()
    villain = Side(vcfg, VILLAIN, device, seed + VILLAIN_SEED_OFFSET, scenario,
                   heroes_league)
    if cfg.pretrain_steps:  # against the villain league's first member
        warm_start(cfg, heroes.learner, scenario, seed, log, villains.members[0])
    hero_steps = -(-cfg.total_steps // cfg.iterations)
    rows = []
    for k in range(cfg.iterations):
        log.phase(HEROES, f"iteration {k}: {hero_steps:,} hero decisions against "
                          f"{len(villains.members)} villains ({', '.join(villains.names)})")
        heroes.train(min(hero_steps, cfg.total_steps - heroes.step), log, "train")
        path = run / HEROES / f"iter_{k}.pt"
        heroes.learner.save(path, heroes.step)
        heroes_league.add(heroes.learner.policy(greedy=False, device=dev, seed=k), str(path))
        log.phase(VILLAIN, f"iteration {k}: {cfg.villain_steps:,} villain decisions against "
                           f"{len(heroes_league.members)} hero teams")
        villain.train(cfg.villain_steps, log, "train_villain")
        path = run / VILLAIN / f"iter_{k}.pt"
        villain.learner.save(path, villain.step)
        villains.add(villain.learner.policy(greedy=False, device=dev, seed=k), str(path))
        evaluator = VillainEvaluator(heroes.learner.policy(greedy=True), cfg.eval_games,
                                     EVAL_SEED, scenario=cfg.scenario, **options)
        row = evaluator.row(villain.learner.policy(greedy=True))
        log.log("eval", heroes.step, row)
        log.phase("eval", f"iteration {k}: heroes' win rate {villain_eval_summary(row)}")
        rows.append(row)
        (run / "league.json").write_text(json.dumps(
            {HEROES: heroes_league.names, VILLAIN: villains.names}, indent=1))
    heroes.learner.save(run / "final.pt", heroes.step)
    villain.learner.save(run / "villain_final.pt", villain.step)
    log.close()
    return rows


def main(argv: list[str] | None = None, prog: str | None = None) -> None:
    cfg = parse_config(Config, argv, DEFAULT_CONFIG, description=__doc__.split("\n")[0],
                       prog=prog)
    rows = train(cfg)
    print(f"after {cfg.iterations} iterations, heroes' win rate over {cfg.eval_games} games: "
          f"{villain_eval_summary(rows[-1])}; run in {cfg.run_dir}")


if __name__ == "__main__":
    main()
