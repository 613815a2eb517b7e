"""Periodic evaluation of a training run against the random and scripted baselines: the
heroes' (``BaselineEvaluator``) and, in the Mastermind variant, a villain's
(``VillainEvaluator``)."""

from __future__ import annotations

from agents.evaluation import EvalResult, evaluate
from agents.policy import Policy
from agents.random_agent import RandomPolicy
from agents.scripted import CoordinatedPolicy
from agents.villains import TOP_CARD, ScriptedVillain
from hon_env.content import Scenario

EVAL_SEED = 1_000_000  # evaluation games never share seeds with training episodes


class BaselineEvaluator:
    """Evaluates policies on one fixed set of games; the baselines are played once."""

    def __init__(self, scenario: Scenario, games: int, seed: int = EVAL_SEED,
                 villain_policy: Policy | None = None) -> None:
        """``villain_policy`` plays the villain agent of a Mastermind scenario."""
        self.scenario = scenario
        self.games = games
        self.seed = seed
        self.villain_policy = villain_policy
        self._baselines: dict[str, EvalResult] = {}

    def run(self, policy: Policy) -> EvalResult:
        return evaluate(policy, games=self.games, seed=self.seed, scenario=self.scenario,
                        villain_policy=self.villain_policy)

    def baseline(self, name: str) -> EvalResult:
        if name not in self._baselines:
            policy = CoordinatedPolicy() if name == "heuristic" else RandomPolicy(self.seed)
            self._baselines[name] = self.run(policy)
        return self._baselines[name]

    def row(self, policy: Policy) -> dict[str, float]:
        """Win rates of ``policy``, the heuristic and random with 95% intervals."""
        out: dict[str, float] = {}
        for name, r in (("trained", self.run(policy)), ("heuristic", self.baseline("heuristic")),
                        ("random", self.baseline("random"))):
            out[f"{name}_win_rate"] = r.win_rate
            out[f"{name}_ci_low"] = r.ci_low
            out[f"{name}_ci_high"] = r.ci_high
            if name == "trained":
                out["trained_mean_rounds"] = r.mean_rounds
        return out


class VillainEvaluator:
    """The win rate of hero policy ``team`` against a villain policy on fixed games
    (Mastermind variant), next to the top-card and scripted villains (played once);
    ``options`` are
    ``evaluate``'s (``scenario`` an id or path, ``heroes``, ``villain``, ``issue``...)."""

    def __init__(self, team: Policy, games: int, seed: int = EVAL_SEED,
                 **options) -> None:
        self.team, self.games, self.seed, self.options = team, games, seed, options
        self._baselines: dict[str, EvalResult] = {}

    def run(self, villain: Policy | str) -> EvalResult:
        return evaluate(self.team, villain_policy=villain, games=self.games,
                        seed=self.seed, **self.options)

    def row(self, villain: Policy) -> dict[str, float]:
        if not self._baselines:
            self._baselines = {TOP_CARD: self.run(TOP_CARD),
                               "scripted": self.run(ScriptedVillain())}
        out: dict[str, float] = {}
        for name, r in (("trained", self.run(villain)), *self._baselines.items()):
            out[f"heroes_vs_{name}_win_rate"] = r.win_rate
            out[f"heroes_vs_{name}_ci_low"] = r.ci_low
            out[f"heroes_vs_{name}_ci_high"] = r.ci_high
        return out


def villain_eval_summary(row: dict[str, float]) -> str:
    """A ``VillainEvaluator`` row on one line: the heroes' win rates with 95% intervals."""
    return ", ".join(f"vs {name} {row[f'heroes_vs_{name}_win_rate']:.3f} "
                     f"[{row[f'heroes_vs_{name}_ci_low']:.3f}, "
                     f"{row[f'heroes_vs_{name}_ci_high']:.3f}]"
                     for name in ("trained", TOP_CARD, "scripted"))


def format_eval(row: dict[str, float], games: int) -> str:
    """The evaluation row as the lines the training scripts print at the end."""
    lines = [f"win rate over {games} evaluation games (95% interval):"]
    for name in ("trained", "heuristic", "random"):
        lines.append(f"  {name:10s} {row[name + '_win_rate']:.3f} "
                     f"[{row[name + '_ci_low']:.3f}, {row[name + '_ci_high']:.3f}]")
    return "\n".join(lines)


def eval_summary(row: dict[str, float]) -> str:
    """The evaluation row on one line (the trainers print it at every evaluation)."""
    return ", ".join(f"{name} {row[name + '_win_rate']:.3f}"
                     for name in ("trained", "heuristic", "random")) + " win rate"


def print_result(row: dict[str, float], games: int, run_dir: str) -> None:
    """What the hero trainers print at the end: the evaluation and the throughput."""
    print(format_eval(row, games))
    print(f"training throughput {row['steps_per_s']:,.0f} env steps/s (rollout + updates, "
          f"evaluations excluded); run in {run_dir}")
