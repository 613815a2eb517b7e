"""The games a training run plays and the games it is evaluated on.

Without a task: the config's scenario (with its heroes, villain and issue overrides), and
in-training evaluations on ``baselines.EVAL_SEED`` onwards of the same scenario.

With ``task`` (``hon_env.tasks``): training plays the task's training split (its heroes,
training villain and issue, rules and caps), and in-training evaluations play the first
``eval_games`` of the task's own evaluation games (its evaluation split and seeds).
``check_train_seed`` refuses a run whose training seeds would reach the evaluation seeds,
so no evaluation game is ever a training game.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.training.baselines import EVAL_SEED
from hon_env.content import Scenario
from hon_env.game import resolve_scenario
from hon_env.tasks import check_train_seed, get_task


@dataclass(frozen=True)
class RunGames:
    """The training scenario, and the scenario, first seed and count of evaluation games.

    A generalist task trains and evaluates on pools (a team drawn per game,
    ``hon_env/envs/pool.py``): ``train_pool`` / ``eval_pool`` list them, and ``scenario``
    / ``eval_scenario`` are their first entries; otherwise each pool is the one scenario."""

    scenario: Scenario
    eval_scenario: Scenario
    eval_seed: int
    eval_games: int
    train_pool: tuple[Scenario, ...] = ()
    eval_pool: tuple[Scenario, ...] = ()

    @property
    def train_games(self) -> Scenario | list[Scenario]:
        """``VectorEnv``'s ``scenario`` for training: the pool, or the one scenario."""
        return list(self.train_pool) if len(self.train_pool) > 1 else self.scenario

    @property
    def eval_target(self) -> Scenario | list[Scenario]:
        """``evaluate``'s ``scenario`` for the evaluation games: the pool or the scenario."""
        return list(self.eval_pool) if len(self.eval_pool) > 1 else self.eval_scenario


def run_games(cfg, seed_spans: list[tuple[int, int]], rules: dict | None = None) -> RunGames:
    """The games of the run configured by ``cfg`` (a ``RunConfig``); ``rules`` overrides
    rules of the scenario (not with a task).

    ``seed_spans`` are the (first seed, count) ranges of game seeds the run will play; with a
    task each must lie below the task's evaluation seeds (``ValueError`` naming the range
    otherwise).
    """
    if cfg.task is None:
        scenario = resolve_scenario(cfg.scenario, heroes=cfg.heroes, villain=cfg.villain,
                                    issue=cfg.issue, rules=rules)
        return RunGames(scenario, scenario, EVAL_SEED, cfg.eval_games)
    if rules:
        raise ValueError(f"task {cfg.task!r} sets the rules; do not also override {rules}")
    cfg.check_run()  # the task's name and what it fixes
    task = get_task(cfg.task)
    if cfg.eval_games > task.eval_games:
        raise ValueError(f"eval_games {cfg.eval_games} exceeds the {task.eval_games} "
                         f"evaluation games of task {task.name!r}")
    for first, count in seed_spans:
        check_train_seed(first, count)
    train, evals = task.pool("train"), task.pool("eval")
    return RunGames(train[0], evals[0], task.eval_seed, cfg.eval_games, tuple(train),
                    tuple(evals))
