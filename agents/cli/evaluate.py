"""Evaluate a policy against every villain and issue: win rates with 95% intervals.

    hon-eval --policy random --heroes majesty majesty --games 200
    hon-eval --policy heuristic
    hon-eval --policy runs/mappo/final.pt --villains dowager
    hon-eval --policy heuristic --heroes majesty stride \
        --rules '{allies: [lox_lee, ji_yoo_rhee]}'
    hon-eval --task duo --policy heuristic                    # a benchmark task
    hon-eval --task duo --seat-policies heuristic mappo:duo   # a mixed team
    hon-eval --crossplay --task duo --policies heuristic heuristic_solo mappo:duo
    hon-eval --scenario two_fronts --policy heuristic         # a scenario's own content
    hon-eval --scenario mastermind --policy heuristic random \
        --villain-policy top_card random scripted --plot payoff.png   # a payoff table

(``python scripts/evaluate.py`` in a checkout is the same command.) ``--policy`` is
``random``, ``heuristic`` (the coordinated team), ``heuristic_solo`` (the per-hero team) or
a checkpoint (``.zip`` from ``hon-train --algo ppo``, ``.pt`` from ``hon-train``; see
``agents/registry.py``).

``--task NAME`` (``hon_env.tasks``, ``configs/tasks/``) plays the task's evaluation games:
its heroes, villain, issue, rules and caps, and its fixed evaluation seeds (``--games``
plays only the first games, for a quick look; ``--seed`` seeds the policy alone). A task
whose evaluation games draw from a pool (several boards or teams: ``generalist_board``,
``generalist_duo``, ``procgen_duo``...) also prints the win rate per pool entry (up to 32;
every entry in ``--json``'s ``per_entry``).

An ad-hoc teamwork task (``--task adhoc_duo``, family ``adhoc``; ``agents.adhoc``) seats
``--policy`` in seat 0 and, in every evaluation game, a held-out zoo partner drawn from the
game's seed in the other seats; it prints the raw win rate with its Wilson interval, the
win rate per partner and the normalised score per partner, (score - random) / (best known
response - random), and their mean (the reference numbers:
``docs/benchmark/<task>/reference/heldout.json``, ``scripts/adhoc_reference.py``).

Prints one row per villain x issue (wins, losses, truncations, win rate and its Wilson
95% interval, mean rounds); ``--json FILE`` also writes the rows as JSON.

``--seat-policies P0 P1 ...`` seats a mixed team, one policy per hero seat (any
``--policy`` value each); ``--crossplay --task NAME --policies P1 P2 ...`` plays every
ordered assignment of the policies to the task's seats and prints the cross-play matrix
and the self-play minus cross-play gap per algorithm (``agents/crossplay.py``).

``--villain-policy`` (Mastermind variant, ``docs/mastermind.md``) plays every hero policy
of ``--policy`` against every villain policy (``top_card``, ``random``, ``scripted`` or a
trained villain's ``.zip``) on ``--scenario`` (default ``mastermind``) and prints the
payoff table: the heroes' win rate [Wilson 95% interval] per pair; ``--plot FILE`` draws
it as a heatmap.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import yaml

from agents.evaluation import evaluate, villain_label, villain_option, wilson_interval
from agents.mixed import SeatPolicies
from agents.registry import load_policy
from hon_env import ContentError, list_content, load_scenario


def parser() -> argparse.ArgumentParser:
    """hon-eval's command line (``--help`` lists every flag)."""
    p = argparse.ArgumentParser(prog="hon-eval", description=__doc__.split("\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--policy", "--policies", nargs="+", default=["random"], dest="policy",
                   help="random, heuristic, a shipped mappo:TASK, a zoo:NAME partner "
                        "(python -m agents.zoo lists them) or a checkpoint (.pt MAPPO, .zip "
                        "MaskablePPO); several only with --villain-policy or --crossplay")
    p.add_argument("--seat-policies", nargs="+", default=None,
                   help="a mixed team: one policy per hero seat, in seat order (instead of "
                        "--policy for every seat)")
    p.add_argument("--crossplay", action="store_true",
                   help="with --task: every ordered assignment of the --policy policies to "
                        "the task's seats (default 200 games each), the matrix, the SP-XP "
                        "gap per algorithm; --plot draws the matrix")
    p.add_argument("--heroes", nargs="+", default=None,
                   help="hero ids of the team (default: majesty; with --villain-policy the "
                        "scenario's)")
    p.add_argument("--villains", nargs="*", default=None,
                   help="villain ids to play, 'a+b' for two villains (None: every villain in "
                        "the content; with --scenario, the scenario's)")
    p.add_argument("--issues", nargs="*", default=None,
                   help="issue ids to play (None: every issue in the content; with "
                        "--scenario, the scenario's)")
    p.add_argument("--games", type=int_at_least(1), default=None,
                   help="games per villain x issue (default 200; with --task: all of the "
                        "task's evaluation games)")
    p.add_argument("--seed", type=int_at_least(0), default=0,
                   help="seed of the first game (game i plays seed + i) and of the policy")
    p.add_argument("--rules", default=None,
                   help="optional rules as a YAML mapping, e.g. '{allies: [lox_lee]}'")
    p.add_argument("--json", default=None, help="also write the rows to this JSON file")
    p.add_argument("--task", default=None, help="a benchmark task (see hon_env.tasks)")
    p.add_argument("--split", default="eval", choices=("eval", "eval_procgen"),
                   help="with --task: the evaluation split; eval_procgen: a generated-content "
                        "task's held-out generated scenarios")
    p.add_argument("--villain-policy", nargs="+", default=None,
                   help="villain policies for a payoff table (Mastermind variant): top_card, "
                        "random, scripted or a trained villain (.zip)")
    p.add_argument("--scenario", default=None,
                   help="scenario to play (its heroes, villains, issue and rules unless the "
                        "flags above say otherwise; default origin_story with Majesty); with "
                        "--villain-policy the payoff table's (default mastermind)")
    p.add_argument("--plot", default=None,
                   help="with --villain-policy or --crossplay: heatmap PNG path")
    return p


def main(argv: list[str] | None = None) -> None:
    p = parser()
    args = p.parse_args(argv)
    try:
        run(args, p)
    except ContentError as e:
        # content named on the command line that does not load is a usage error, as a
        # policy that does not load already is (``policy_or_exit``)
        p.error(str(e))


def run(args: argparse.Namespace, p: argparse.ArgumentParser) -> None:
    """What the parsed command line asks for."""
    if args.crossplay:
        if not args.task:
            p.error("--crossplay needs --task")
        crossplay_task(args, p)
        return
    if args.villain_policy:
        args.scenario = args.scenario or "mastermind"
        payoff(args, p)
        return
    if len(args.policy) > 1:
        p.error("several --policy values need --villain-policy (a payoff table) or "
                "--crossplay")
    args.policy = args.policy[0]
    if args.heroes is None and args.scenario is None:
        args.heroes = ["majesty"]
    if args.task:
        evaluate_task(args, p)
        return
    evaluate_grid(args, p)


def evaluate_grid(args: argparse.Namespace, p: argparse.ArgumentParser) -> None:
    """Every villain x issue of the content (or of ``--scenario``), a row each."""
    args.games = 200 if args.games is None else args.games
    rules = yaml.safe_load(args.rules) if args.rules else None
    if rules is not None and not isinstance(rules, dict):
        p.error(f"--rules must be a YAML mapping, got {args.rules!r}")
    if args.scenario is None:
        content = list_content()
        villains, issues = content["villains"], content["issues"]
    else:
        sc = load_scenario(args.scenario)
        villains, issues = [villain_label(sc)], [sc.issue_id]
    villains = args.villains or villains
    issues = args.issues or issues
    rows = []
    width = max(10, *(len(v) for v in villains))
    for villain, issue in itertools.product(villains, issues):
        policy = team_policy(args, p, len(args.heroes) if args.heroes else None)
        r = evaluate(policy, scenario=args.scenario or "origin_story", issue=issue,
                     villain=villain_option(villain),
                     heroes=args.heroes, games=args.games, seed=args.seed, rules=rules)
        if not rows:  # after the first row's content has loaded: an error comes alone
            print(f"{'villain':{width}} {'issue':20} {'wins':>5} {'losses':>6} {'trunc':>5} "
                  f"{'win rate [95% CI]':>24} {'rounds':>6}  losses by reason")
        rows.append(r.as_dict())
        print(f"{villain:{width}} {issue:20} {r.wins:5d} {r.losses:6d} {r.truncated:5d} "
              f"{r.win_rate:8.3f} [{r.ci_low:.3f}, {r.ci_high:.3f}] {r.mean_rounds:6.2f}  "
              + ", ".join(f"{k} {v}" for k, v in r.loss_reasons.items()))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


def evaluate_task(args: argparse.Namespace, p: argparse.ArgumentParser) -> None:
    """``--task NAME``: the task's evaluation games (a prefix of them with ``--games``)."""
    from hon_env.tasks import get_task, list_tasks

    if args.task not in list_tasks():
        p.error(f"--task: unknown task {args.task!r}; tasks: {', '.join(list_tasks())}")
    task = get_task(args.task)
    games = task.eval_games if args.games is None else args.games
    if not 1 <= games <= task.eval_games:
        p.error(f"--games must be in [1, {task.eval_games}] for task {task.name!r}")
    if args.split == "eval_procgen" and task.procgen is None:
        p.error(f"--split eval_procgen: task {task.name!r} has no generated content")
    if task.is_adhoc:
        if args.seat_policies or args.split != "eval":
            p.error(f"task {task.name!r} seats --policy in seat 0 with zoo partners: no "
                    "--seat-policies or --split")
        evaluate_adhoc_task(args, p, task, games)
        return
    policy = team_policy(args, p, len(task.heroes))
    pool = task.pool(args.split)
    r = evaluate(policy, scenario=pool if len(pool) > 1 else pool[0], games=games,
                 seed=task.eval_seed)
    teams = (", ".join("+".join(t) for t in task.eval_teams) if task.eval_teams
             else ", ".join(task.heroes))
    boards = (", ".join(" x ".join(b) for b in task.eval_boards) if task.eval_boards
              else f"{task.villain} x {task.issue}")
    if args.split == "eval_procgen":
        seeds = task.eval_procgen_seeds
        boards = (f"{len(seeds)} held-out generated scenarios (seeds {seeds.start}.."
                  f"{seeds.stop - 1})")
    print(f"task {task.name} ({task.family}): {teams} vs {boards}"
          + (f"; trained on {task.train_villain} x {task.train_issue}"
             if task.is_transfer else "")
          + (f"; trained on {len(task.train_boards)} other boards" if task.train_boards
             else "")
          + (f"; trained on {len(task.train_procgen_seeds)} generated scenarios"
             if task.procgen is not None else "")
          + (f"; trained on {len(task.train_teams)} other teams" if task.train_teams else ""))
    print(f"{task.metric} over {games} evaluation games (seeds {task.eval_seed}+): "
          f"{r.win_rate:.3f} [{r.ci_low:.3f}, {r.ci_high:.3f}]  wins {r.wins} losses "
          f"{r.losses} truncated {r.truncated}  rounds {r.mean_rounds:.2f}")
    print_per_entry(r.per_entry)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"task": task.name, "split": args.split,
                       "policy": args.seat_policies or args.policy, **r.as_dict()}, f, indent=1)


PER_ENTRY_ROWS = 32  # a longer pool (generated content) is in --json only


def print_per_entry(per_entry: dict[str, dict[str, int]]) -> None:
    """A pool's win rate per entry (team and/or board), when it has a few."""
    if not 1 < len(per_entry) <= PER_ENTRY_ROWS:
        if per_entry:
            print(f"({len(per_entry)} pool entries: per entry in --json)")
        return
    width = max(len(k) for k in per_entry) + 2
    print(f"{'pool entry':{width}} {'games':>5} {'wins':>5} {'win rate [95% CI]':>24}")
    for name, row in per_entry.items():
        low, high = wilson_interval(row["wins"], row["games"])
        print(f"{name:{width}} {row['games']:5d} {row['wins']:5d} "
              f"{row['wins'] / row['games']:8.3f} [{low:.3f}, {high:.3f}]")


def evaluate_adhoc_task(args: argparse.Namespace, p: argparse.ArgumentParser, task,
                        games: int) -> None:
    """An adhoc task: ``--policy`` in seat 0 with the held-out partners (``agents.adhoc``)."""
    from agents.adhoc import AdhocScore, evaluate_adhoc, load_reference

    result = evaluate_adhoc(policy_or_exit(p, args.policy, args.seed), task, games,
                            seed=args.seed)
    score = AdhocScore.of(result, load_reference(task.name, result.zoo_split))
    d = score.as_dict(args.policy)
    print(f"task {task.name} ({task.family}): {args.policy} in seat 0 of "
          f"{', '.join(task.heroes)} vs {task.villain} x {task.issue}; partners drawn per "
          f"game from the zoo's {result.zoo_split} split ({len(result.partners)} members)")
    print(f"{task.metric} over {games} evaluation games (seeds {task.eval_seed}+): "
          f"{d['win_rate']:.3f} [{d['ci_low']:.3f}, {d['ci_high']:.3f}]  wins {d['wins']} "
          f"losses {d['losses']} truncated {d['truncated']}  rounds {d['mean_rounds']:.2f}")
    print(f"{'partner':24} {'games':>5} {'wins':>5} {'win rate [95% CI]':>24} {'random':>7} "
          f"{'best':>6}  {'normalised':>10}  best by")
    for name, row in score.per_partner.items():
        rate = (f"{row['win_rate']:8.3f} [{row['ci_low']:.3f}, {row['ci_high']:.3f}]"
                if row["games"] else f"{'-':>24}")
        ref = (f"{row['random']:7.3f} {row['best']:6.3f}  {row['normalised']:10.3f}  "
               f"{row['best_policy']}" if "best" in row else f"{'-':>7} {'-':>6}  {'-':>10}")
        print(f"{name:24} {row['games']:5d} {row['wins']:5d} {rate} {ref}")
    if score.reference is None:
        print(f"no reference numbers for {games} games of {task.name}: normalised scores need "
              f"python scripts/adhoc_reference.py --task {task.name}")
    else:
        left = sorted(set(score.per_partner) - set(score.scored))
        print(f"normalised score, mean over {len(score.scored)} partners: "
              f"{score.mean_normalised:.3f}"
              + (f" (left out, no known policy beats random with them: {', '.join(left)})"
                 if left else ""))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(d, f, indent=1)


def team_policy(args: argparse.Namespace, p: argparse.ArgumentParser, seats: int | None):
    """The heroes' policy: ``--policy`` for every seat, or the ``--seat-policies`` team."""
    if not args.seat_policies:
        return policy_or_exit(p, args.policy, args.seed)
    if seats is not None and len(args.seat_policies) != seats:
        p.error(f"--seat-policies names {len(args.seat_policies)} policies for {seats} "
                "hero seats")
    return SeatPolicies([policy_or_exit(p, s, args.seed) for s in args.seat_policies],
                        list(args.seat_policies))


def policy_or_exit(p: argparse.ArgumentParser, spec: str, seed: int,
                   load: Callable[..., Any] = load_policy, what: str = "policy") -> Any:
    """``load(spec, seed=seed)`` (``load_policy``, or ``load_villain`` for a villain), or
    the command's usage error saying what is wrong with it (an unknown name, a missing or
    unreadable checkpoint)."""
    try:
        return load(spec, seed=seed)
    except (ValueError, OSError) as exc:
        p.error(f"{what} {spec!r}: {exc}")


def int_at_least(low: int) -> Callable[[str], int]:
    """argparse type: an integer >= ``low``."""
    def parse(text: str) -> int:
        value = int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be >= {low}, got {value}")
        return value

    parse.__name__ = "int"  # argparse names the type in "invalid int value: 'x'"
    return parse


def progress_line(done: int, total: int) -> None:
    """One line on stderr, rewritten in place, ended after the last of ``total``."""
    print(f"\r[crossplay] {done}/{total} assignments", end="\n" if done == total else "",
          file=sys.stderr, flush=True)


def crossplay_task(args: argparse.Namespace, p: argparse.ArgumentParser) -> None:
    """``--crossplay``: the cross-play of ``--policy`` on the task's evaluation games."""
    from agents.crossplay import crossplay, heatmap

    games = 200 if args.games is None else args.games
    try:
        r = crossplay(args.policy, args.task, games, seed=args.seed, on_cell=progress_line)
    except ValueError as exc:
        p.error(str(exc))
    m = r.matrix()
    width = max(12, *(len(x) for x in r.labels))
    other = "seat 1" if r.seats == 2 else f"seats 1-{r.seats - 1}"
    print(f"cross-play on {r.task}: win rate over {games} evaluation games per assignment; "
          f"rows: seat 0, columns: {other}")
    print(" " * width + "".join(f"{x[:12]:>14}" for x in r.labels))
    for i, row in enumerate(m):
        print(f"{r.labels[i]:{width}}" + "".join(f"{v:14.3f}" for v in row))
    for algo, g in r.sp_xp().items():
        xp = "n/a (one member)" if g["members"] < 2 else f"{g['xp']:.3f}, gap {g['gap']:+.3f}"
        print(f"{algo}: self-play {g['sp']:.3f}, cross-play {xp}")
    for label, g in r.partner_gap().items():
        print(f"{label}: self-play {g['sp']:.3f}, with other policies {g['with_others']:.3f}"
              f" (gap {g['gap']:+.3f})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(r.as_dict(), f, indent=1)
    if args.plot:
        heatmap(m, r.labels, r.labels, args.plot, f"cross-play on {r.task}, {games} games "
                "per cell", xlabel=f"policy in {other}", ylabel="policy in seat 0")


def payoff(args: argparse.Namespace, p: argparse.ArgumentParser) -> None:
    """``--villain-policy``: hero policies x villain policies on one scenario."""
    from agents.villains import load_villain

    games = 200 if args.games is None else args.games
    options = {"heroes": args.heroes} if args.heroes else {}
    rows = []
    print(f"payoff on {args.scenario}: heroes' win rate [95% CI] over {games} games "
          f"(seeds {args.seed}+)")
    print(f"{'hero policy':28} {'villain policy':28} {'win rate [95% CI]':>24}")
    for hero_spec, villain_spec in itertools.product(args.policy, args.villain_policy):
        villain = policy_or_exit(p, villain_spec, args.seed + 1, load=load_villain,
                                 what="villain policy")
        r = evaluate(policy_or_exit(p, hero_spec, args.seed), scenario=args.scenario,
                     villain_policy=villain, games=games, seed=args.seed, **options)
        rows.append({"hero_policy": hero_spec, "villain_policy": villain_spec, **r.as_dict()})
        print(f"{hero_spec:28} {villain_spec:28} {r.win_rate:8.3f} "
              f"[{r.ci_low:.3f}, {r.ci_high:.3f}]")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    if args.plot:
        payoff_heatmap(rows, args.plot, f"{args.scenario}, {games} games per cell")


def payoff_heatmap(rows: list[dict], path: str, title: str) -> None:
    """Heroes' win rate per hero policy (rows) x villain policy (columns), as a PNG."""
    from agents.crossplay import heatmap, policy_label

    heroes = list(dict.fromkeys(r["hero_policy"] for r in rows))
    villains = list(dict.fromkeys(r["villain_policy"] for r in rows))
    grid = np.array([[next(r["win_rate"] for r in rows
                           if r["hero_policy"] == h and r["villain_policy"] == v)
                      for v in villains] for h in heroes])
    heatmap(grid, [policy_label(h) for h in heroes], [policy_label(v) for v in villains],
            path, title, xlabel="villain policy")


if __name__ == "__main__":
    main()
