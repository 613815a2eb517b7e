"""MAPPO and IPPO on the batched engine: one shared masked actor; the critic values the
global state (MAPPO) or the deciding hero's own observation (IPPO, ``--algo ippo``).

    hon-train                                       # configs/train/mappo.yaml
    hon-train --algo ippo                           # the same with the IPPO critic
    hon-train --task duo                            # a benchmark task (hon_env.tasks)
    hon-train --total-steps 200000 --run-dir runs/try
    hon-train --resume runs/mappo/checkpoints/step_1000000.pt
    hon-train --scenario mastermind --opponent scripted       # heroes vs a villain agent
    hon-train --scenario mastermind --side villain --opponent runs/mappo/final.pt
    python scripts/train_mappo.py --help            # the same, from a checkout

CleanRL-style: the rollout, GAE and the clipped PPO update are in
``agents/training/mappo.py`` (shared with ``scripts/train_selfplay.py``), the loop below.
The heroes of every game act in turn (whoever holds the decision), so a rollout step is
one decision per game: the actor sees the deciding hero's observation (its seat is one-hot
in it) and samples from the legal actions only; the critic values the global state
(``algo: mappo``) or, for IPPO (``algo: ippo``), the same observation the actor sees.
With ``shared_trunk`` (the default) actor and critic share one trunk: the critic is a
small value head on the actor's last hidden layer plus, for MAPPO, the global state's
sections the deciding hero cannot see (every seat's hand, the villain agent's hand). The
rollout keeps only the observation columns that have been non-zero in some game since
training began (about a fifth of them at 4 heroes) and the MLP's first layer multiplies
only those; its head scores only the actions legal in some row of the batch (about half
of them). Both give the full layers' results for a fraction of the work.
Rewards are the team's (+1 win, -1 loss, plus the config's event shaping), the same for
every hero. The vector env resets finished games itself; a truncated episode is treated
as ended (no bootstrap), as in CleanRL.

Mastermind variant (rules ``villain_agent``, docs/mastermind.md): ``side: heroes`` trains
the heroes while ``opponent`` answers the villain's rows (``top_card`` plays the
rulebook's deck instead); ``side: villain`` trains the villain agent (a best response)
while ``opponent`` (default the scripted team) plays the heroes. The other side's rows
stay in the rollout for the critic and GAE but carry no policy loss. ``total_steps``
counts the learner's decisions; ``steps_per_s`` counts every row stepped.

Kickstarting (Schmitt et al., 2018), off unless ``kickstart_coef > 0``: for the first
``kickstart_steps`` steps the loss adds ``coef * cross-entropy`` between the actor and the
coordinated scripted team's action in each visited state (``load_policy("heuristic")``;
the scripted villain's for ``side: villain``; the coefficient decays linearly to 0), so
PPO starts from the scripted team's behaviour instead of from random play, which never
wins.

Warm start, off unless ``pretrain_steps > 0``: before the first update the actor is fit by
behaviour cloning to ``pretrain_steps`` decisions of the coordinated scripted team in every
hero seat of 256 training games (seeds of their own; ``agents.training.bc.teacher_chunks``;
against the run's opponent where the villain is an agent), ``pretrain_epochs`` passes over
each 64-step chunk as it is recorded. Kickstarting adds its term to a few PPO epochs per
rollout, while cloning fits the script's actions with as many gradient steps as the data
bears; the two combine. ``critic_warmup_steps`` then trains the value head alone for its
first steps (the actor frozen, its rollouts the clone's), so the first policy updates
read advantages from a critic that knows the clone's values.

``task: NAME`` (``--task NAME``) trains on the task's training split and evaluates on its
evaluation games (``agents.training.games``); the run refuses seeds that would reach them.
An ad-hoc teamwork task (family ``adhoc``, ``agents.adhoc``) trains hero seat 0 only: the
other seats are played by a partner of the zoo's training split, drawn per game from the
episode seed (a ``League`` of partners), and the learner's samples are seat 0's decisions
(``total_steps`` counts them). Its in-training evaluations seat the learner, the
coordinated team and random play with the training partners on the evaluation games; the
held-out partners are for ``hon-eval --task`` alone.

Writes to ``run_dir`` what ``hon-train --algo ppo`` writes, under the same names:
``config.yaml``, ``train.csv`` (one row per update: the columns of
``agents.training.logger.TRAIN_METRICS`` -- episode return, win and loss rates, losses,
entropy, KL, clip fraction, learning rate, steps/s -- plus ``kickstart_coef``,
``kickstart_loss``, ``rollout_s``, ``learn_s``, ``env_steps``), ``eval.csv`` (greedy win
rate with 95% interval next to the random and scripted baselines, every ``eval_every``
steps; for ``side: villain`` the heroes' win rate against the trained, top-card and
scripted villains),
TensorBoard events in ``tb/``, ``checkpoints/step_<N>.pt`` and ``final.pt`` (load with
``agents.load_policy``; a villain with ``agents.villains.load_villain``). Each phase
(training, evaluation) prints a line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from agents.networks import check_amp, check_network
from agents.policy import Policy
from agents.training.baselines import (
    BaselineEvaluator,
    VillainEvaluator,
    eval_summary,
    print_result,
    villain_eval_summary,
)
from agents.training.bc import PRETRAIN_ENVS, PRETRAIN_SEED, clone_into, teacher_chunks
from agents.training.config import PpoFields, parse_config
from agents.training.cpu_threads import set_cpu_threads
from agents.training.distributed import Ranks, is_main_process
from agents.training.games import RunGames, run_games
from agents.training.league import HEROES, SIDES, VILLAIN, League, load_opponent
from agents.training.logger import RunLogger
from agents.training.loop import train_loop
from agents.training.mappo import MappoLearner, Rollout, pick_device, train_step
from agents.villains import TOP_CARD
from hon_env.content.loader import TRAIN_CONFIGS_DIR
from hon_env.envs.vector import VectorEnv, require_team_reward
from hon_env.tasks import LEARNER_SEAT, Task, get_task

DEFAULT_CONFIG = TRAIN_CONFIGS_DIR / "mappo.yaml"
ALGOS = ("mappo", "ippo")


@dataclass
class Config(PpoFields):
    run_dir: str = "runs/mappo"
    algo: str = "mappo"
    """mappo: the critic values the global state(); ippo: the critic values the deciding
    hero's own observation (independent PPO with one shared actor and critic)"""
    total_steps: int = 2_000_000
    eval_every: int = 500_000
    checkpoint_every: int = 1_000_000
    num_envs: int = 1024
    """games stepped together (one decision each per rollout step)"""
    num_steps: int = 32
    """rollout steps per update (batch = num_envs * num_steps decisions)"""
    lr: float = 5e-4
    anneal_lr: bool = True
    """decay the learning rate linearly to 5% of lr over total_steps"""
    num_minibatches: int = 16
    """minibatches per update epoch"""
    update_epochs: int = 2
    """passes over each rollout batch"""
    clip_coef: float = 0.2
    """PPO ratio clipping range"""
    max_grad_norm: float = 0.5
    """gradient norm clip"""
    network: str = "mlp"
    """the actor: mlp (an MLP over the whole observation vector) or entity (reads board
    spaces, seats, cards and threat cards as sets of rows with shared encoders and scores
    each action from the row it points at; agents/networks/entity.py)"""
    hidden: list[int] = field(default_factory=lambda: [512, 512])
    """hidden layer sizes of the actor (entity: of its context MLP) and of the critic,
    without shared_trunk"""
    entity_dim: int = 32
    """network entity: the embedding size of each entity row"""
    entity_blocks: int = 0
    """network entity: transformer blocks across the entity rows of every kind before
    they are pooled and scored (0: none, each row read on its own)"""
    shared_trunk: bool = True
    """one trunk for actor and critic: the critic is a value head on the actor's last
    hidden layer plus, for MAPPO, the state's sections the deciding hero cannot see (the
    hands); false: a separate critic MLP over the whole global state (or observation)"""
    critic_hidden: list[int] = field(default_factory=lambda: [256])
    """hidden layer sizes of the value head on the shared trunk (shared_trunk only)"""
    value_norm: bool = True
    """normalise value targets with running statistics"""
    kickstart_coef: float = 0.0
    """initial weight of the cross-entropy to the scripted team's action (0: off)"""
    kickstart_steps: int = 0
    """steps over which the kickstart weight decays linearly to 0"""
    pretrain_steps: int = 0
    """warm start: decisions of the coordinated scripted team cloned into the actor before
    the first update (side heroes; where the villain is an agent, against the opponent;
    0: off)"""
    pretrain_epochs: int = 4
    """warm start: passes over each recorded chunk (256 games x 64 steps)"""
    critic_warmup_steps: int = 0
    """the first this many steps train the value head alone: the actor (and the trunk it
    shares) stays as it started, so a cloned actor is not moved by advantages from a
    critic that has not yet learned its values (0: off)"""
    amp: str = "auto"
    """bf16 autocast of the hidden layers: auto (where fast), true or false"""
    threads: int = 0
    """torch CPU threads (0: torch's default)"""
    side: str = "heroes"
    """the side that learns: heroes (every hero seat, one shared actor) or villain (the
    villain agent's rows of a scenario with rules villain_agent, Mastermind variant)"""
    opponent: str | None = None
    """who plays the other side. Side heroes on a villain-agent scenario: a villain
    (top_card: the rulebook's deck, the variant switched off; random; scripted; a villain
    checkpoint). Side villain: a hero team (heuristic, heuristic_solo, random or a
    checkpoint; default heuristic). Checkpoints sample their actions. The villain's
    reward is the game's result plus villain_reward_shaping: reward_shaping does not
    apply to it"""
    villain_reward_shaping: dict | None = None
    """side villain: YAML mapping event name -> reward added to the villain's reward per
    event (the game is then no longer zero-sum)"""

    def check(self) -> None:
        self.check_ppo("num_envs", "num_steps", "num_minibatches", "update_epochs")
        if (self.num_envs * self.num_steps) % self.num_minibatches:
            raise ValueError("num_envs * num_steps must divide into num_minibatches")
        if self.algo not in ALGOS:
            raise ValueError(f"algo must be one of {', '.join(ALGOS)}, got {self.algo!r}")
        check_amp(self.amp)
        check_network(self.network, self.entity_dim, self.entity_blocks)
        if self.critic_hidden and min(self.critic_hidden) < 1:
            raise ValueError("critic_hidden must list positive layer sizes (or none), got "
                             f"{self.critic_hidden}")
        if self.side not in SIDES:
            raise ValueError(f"side must be one of {', '.join(SIDES)}, got {self.side!r}")
        if self.task and (self.side != HEROES or self.opponent is not None):
            raise ValueError("task names a heroes-only benchmark task: side villain and "
                             "opponent need a scenario with the villain agent (use --scenario)")
        if self.kickstart_coef < 0 or self.kickstart_steps < 0:
            raise ValueError(f"kickstart_coef and kickstart_steps must be >= 0, got "
                             f"{self.kickstart_coef} and {self.kickstart_steps}")
        if self.kickstart_coef > 0 and self.kickstart_steps == 0:
            raise ValueError("kickstart_coef > 0 needs kickstart_steps > 0, the steps over "
                             "which its weight decays (kickstart_coef 0: no kickstart)")
        if self.pretrain_steps < 0 or self.pretrain_epochs < 1:
            raise ValueError(f"pretrain_steps must be >= 0 and pretrain_epochs positive, got "
                             f"{self.pretrain_steps} and {self.pretrain_epochs}")
        if not 0 <= self.critic_warmup_steps < self.total_steps:
            raise ValueError(f"critic_warmup_steps must be >= 0 and below total_steps "
                             f"({self.total_steps}), got {self.critic_warmup_steps}")
        if self.pretrain_steps and self.side != HEROES:
            raise ValueError("pretrain_steps clones the scripted hero team: it needs side "
                             "heroes")
        if self.side == VILLAIN and self.opponent == TOP_CARD:
            raise ValueError("opponent top_card is a villain; side villain plays against a "
                             "hero team (heuristic, random or a checkpoint)")


def side_shaping(cfg: Config) -> dict[str, dict | None]:
    """The env's shaping options for the learner's side: the heroes' ``reward_shaping``,
    or the villain's ``villain_reward_shaping``."""
    if cfg.side == HEROES:
        if cfg.villain_reward_shaping:
            raise ValueError("villain_reward_shaping shapes the villain's reward: it needs "
                             "side villain")
        return {"reward_shaping": cfg.reward_shaping}
    return {"villain_reward_shaping": cfg.villain_reward_shaping}


def adhoc_task(cfg: Config) -> Task | None:
    """The config's task when it is an ad-hoc teamwork task (seat 0 learns), else None."""
    if not cfg.task:
        return None
    task = get_task(cfg.task)
    return task if task.is_adhoc else None


def seed_span(cfg: Config) -> int:
    """How many game seeds one process of the run may play: game i's k-th episode plays
    seed + i + k * B, so the run's seeds span B + the steps + B."""
    return cfg.total_steps + 2 * cfg.num_envs


def training_setup(cfg: Config, seed: int, device: str, ranks: Ranks | None = None
                   ) -> tuple[RunGames, League | None, Policy | None]:
    """The run's games, the league that plays the other side (None without a villain agent;
    an ad-hoc task's training partners) and the greedy opponent its evaluations play (None
    without a villain agent). ``seed``: rank 0's first game seed; every rank's span of
    seeds is checked (each rank plays its own)."""
    ranks = ranks or Ranks()
    spans = [(seed + r * seed_span(cfg), seed_span(cfg)) for r in range(ranks.world)]
    if cfg.pretrain_steps:  # the warm start's games: the same on every rank
        spans.append((seed + PRETRAIN_SEED, cfg.pretrain_steps + 2 * PRETRAIN_ENVS))
    task = adhoc_task(cfg)
    if task is not None:
        from agents.adhoc import partner_league

        # purpose="train": load_member refuses a member held out of training
        return (run_games(cfg, spans), partner_league(task, "train", cfg.num_envs,
                                                      seed=cfg.seed + ranks.rank,
                                                      purpose="train", device=device), None)
    if cfg.opponent == TOP_CARD:  # the rulebook's villain deck: the variant switched off
        return run_games(cfg, spans, rules={"villain_agent": False}), None, None
    games = run_games(cfg, spans)
    if not games.scenario.villain_agent:
        if cfg.opponent is not None or cfg.side == VILLAIN:
            raise ValueError(f"scenario {games.scenario.id!r} has no villain agent (rules "
                             "villain_agent): side villain and opponent need one")
        return games, None, None
    spec = cfg.opponent or ("heuristic" if cfg.side == VILLAIN else None)
    if spec is None:
        raise ValueError(f"the villain of scenario {games.scenario.id!r} is an agent: name the "
                         "heroes' opponent with opponent (top_card, random, scripted or a "
                         "villain checkpoint)")
    league = League([load_opponent(cfg.side, spec, seed=cfg.seed + ranks.rank,
                                   device=device)],
                    cfg.num_envs, cfg.seed + ranks.rank, names=[spec])
    return games, league, load_opponent(cfg.side, spec, seed=cfg.seed, greedy=True)


def evaluator_of(cfg: Config, games: RunGames, opponent: Policy | None
                 ) -> tuple[Any, Callable[[dict[str, float]], str]]:
    """What the run's evaluations play and the line each prints: an ad-hoc task's partners,
    the heroes' evaluation games against ``opponent``, or (side villain) the villain
    against ``opponent``'s heroes."""
    task = adhoc_task(cfg)
    if task is not None:
        from agents.adhoc import AdhocEvaluator

        return AdhocEvaluator(task, cfg.eval_games, seed=cfg.seed), eval_summary
    if cfg.side == HEROES:
        return BaselineEvaluator(games.eval_target, games.eval_games, games.eval_seed,
                                 villain_policy=opponent), eval_summary
    return VillainEvaluator(opponent, cfg.eval_games, scenario=cfg.scenario,
                            heroes=cfg.heroes, villain=cfg.villain,
                            issue=cfg.issue), villain_eval_summary


def warm_start(cfg: Config, learner: MappoLearner, pool: Any, seed: int, log: RunLogger,
               villain: Policy | None = None) -> None:
    """Clone ``cfg.pretrain_steps`` decisions of the coordinated scripted team in games of
    ``pool`` (a scenario or a pool of them) into the actor (every rank the same games,
    gradients averaged), logged as phase ``pretrain``. Where the villain is an agent,
    ``villain`` plays it in those games."""
    log.phase("pretrain", f"behaviour cloning on {cfg.pretrain_steps:,} decisions of the "
                          f"coordinated scripted team, {cfg.pretrain_epochs} epochs a chunk"
                          + (f", against {villain.name}" if villain is not None else ""))
    params = list(learner.actor.parameters())
    ranks = learner.ranks
    ce = clone_into(learner.actor, teacher_chunks(pool, cfg.pretrain_steps,
                                                  seed + PRETRAIN_SEED, villain=villain),
                    cfg.pretrain_epochs, cfg.lr, seed=cfg.seed,
                    before_step=(lambda: ranks.average_gradients(params)) if ranks.active
                    else None)
    log.log("pretrain", 0, {"cross_entropy": ce})
    log.phase("pretrain", f"done: cross-entropy {ce:.3f} on the last chunk")


def train(cfg: Config) -> dict[str, float]:
    """Run the training loop; returns the last evaluation row."""
    cfg.check()
    # under torchrun, one rank of a data-parallel run (agents.training.distributed)
    ranks = Ranks.from_env(cfg.device)
    device = ranks.device(pick_device(cfg.device))
    if cfg.threads > 0 or ranks.active:
        threads = cfg.threads if cfg.threads > 0 else ranks.cpu_threads()
        # a rank's engine steps on its share of the cores whatever trains the networks
        set_cpu_threads(threads, threads if ranks.active else None)
    torch.manual_seed(cfg.seed)  # the same initial weights on every rank
    learner = MappoLearner(cfg, device, cfg.side, ranks)
    global_step = learner.resume(cfg.resume) if cfg.resume else 0
    # resumed runs continue with fresh episodes: seeds move on with the step count; each
    # rank plays its own span of seeds
    first = cfg.seed * 1_000_003
    seed = first + global_step + ranks.rank * seed_span(cfg)
    games, league, eval_opponent = training_setup(cfg, first, str(device), ranks)
    # the learner trains every row on one reward per side; the Fame variant's fame and rank
    # modes give each hero its own, which this trainer does not learn from
    require_team_reward(games.scenario, "hon-train (MAPPO/IPPO)")
    # the env encodes just the global state the critic reads (none for IPPO)
    env = VectorEnv(cfg.num_envs, seed, games.train_games, global_state=learner.env_state,
                    **side_shaping(cfg))
    task = adhoc_task(cfg)
    roll = Rollout(env, cfg, cfg.side, league, device, learner,
                   seat=None if task is None else LEARNER_SEAT)
    evaluator, summary = evaluator_of(cfg, games, eval_opponent)
    log = RunLogger(cfg.run_dir, cfg, cfg.total_steps, tensorboard=cfg.tensorboard,
                    progress=cfg.progress, start_step=global_step, quiet=not ranks.main)
    batch = cfg.num_envs * cfg.num_steps * ranks.world  # rows stepped per update, all ranks
    env_steps = 0
    what = "" if league is None else f" against {', '.join(league.names)}"
    if task is not None:
        what = f" in seat {LEARNER_SEAT}, partners drawn per game from {', '.join(league.names)}"
    if cfg.side == VILLAIN and cfg.reward_shaping:
        what += " (reward_shaping shapes the heroes' reward: the villain's is the result)"
    if cfg.pretrain_steps and not cfg.resume:
        # the hero side's league holds villains; an ad-hoc task's, partners (the
        # coordinated team plays every seat of the warm start's games)
        villain = league.members[0] if league is not None and games.scenario.villain_agent \
            else None
        warm_start(cfg, learner, games.train_games, first, log, villain)
    log.phase("train", f"{cfg.algo.upper()} {cfg.side} from step {global_step:,} to "
                       f"{cfg.total_steps:,}{what}: {cfg.num_envs} games x {cfg.num_steps} "
                       f"steps per update, device {device}"
                       + (f", {ranks.world} ranks" if ranks.active else ""))

    def update(step: int) -> tuple[int, int, dict[str, float]]:
        nonlocal env_steps
        decisions, row = train_step(learner, roll, step, cfg.total_steps)
        env_steps += batch
        row["env_steps"] = env_steps
        return step + ranks.total(decisions, device), batch, row

    global_step, last_eval, sps = train_loop(
        cfg, log, global_step, update, learner.save,
        lambda: evaluator.row(learner.policy(greedy=True)), summary, suffix=".pt",
        main=ranks.main)
    ranks.check_in_sync(learner.actor)
    ranks.check_in_sync(learner.critic)
    if ranks.main:
        learner.save(Path(cfg.run_dir) / "final.pt", global_step)
    log.close()
    ranks.close()
    last_eval["steps_per_s"] = sps
    return last_eval


def main(argv: list[str] | None = None, prog: str | None = None) -> None:
    cfg = parse_config(Config, argv, DEFAULT_CONFIG, description=__doc__.split("\n")[0],
                       prog=prog)
    row = train(cfg)
    if not is_main_process():
        return  # rank 0 of a torchrun run reports it
    if cfg.side == HEROES:
        print_result(row, cfg.eval_games, cfg.run_dir)
    else:
        print(f"heroes' win rate over {cfg.eval_games} evaluation games (95% interval): "
              f"{villain_eval_summary(row)}; run in {cfg.run_dir}")


if __name__ == "__main__":
    main()
