"""Evaluate a policy against every villain and issue: win rates with 95% intervals.

    hon-eval --policy random --heroes majesty majesty --games 200
    hon-eval --policy heuristic
    hon-eval --policy runs/mappo/final.pt --villains dowager
    hon-eval --policy heuristic --heroes majesty stride \
        --rules '{allies: [lox_lee, ji_yoo_rhee]}'

(``python scripts/evaluate.py`` in a checkout is the same command.) ``--policy`` is
``random``, ``heuristic`` or a checkpoint (``.zip`` from ``hon-train --algo ppo``, ``.pt``
from ``hon-train``; see ``agents/registry.py``).

Prints one row per villain x issue (wins, losses, truncations, win rate and its Wilson
95% interval, mean rounds); ``--json FILE`` also writes the rows as JSON.
"""

from __future__ import annotations

import argparse
import itertools
import json

import yaml

from agents.evaluation import evaluate
from agents.registry import load_policy
from hon_env import list_content


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="hon-eval", description=__doc__.split("\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--policy", default="random",
                   help="random, heuristic or a checkpoint (.pt MAPPO, .zip MaskablePPO)")
    p.add_argument("--heroes", nargs="+", default=["majesty"], help="hero ids of the team")
    p.add_argument("--villains", nargs="*", default=None,
                   help="villain ids to play (None: every villain in the content)")
    p.add_argument("--issues", nargs="*", default=None,
                   help="issue ids to play (None: every issue in the content)")
    p.add_argument("--games", type=int, default=200, help="games per villain x issue")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the first game (game i plays seed + i) and of the policy")
    p.add_argument("--rules", default=None,
                   help="optional rules as a YAML mapping, e.g. '{allies: [lox_lee]}'")
    p.add_argument("--json", default=None, help="also write the rows to this JSON file")
    args = p.parse_args(argv)
    rules = yaml.safe_load(args.rules) if args.rules else None
    if rules is not None and not isinstance(rules, dict):
        p.error(f"--rules must be a YAML mapping, got {args.rules!r}")
    content = list_content()
    villains = args.villains or content["villains"]
    issues = args.issues or content["issues"]
    rows = []
    print(f"{'villain':10} {'issue':20} {'wins':>5} {'losses':>6} {'trunc':>5} "
          f"{'win rate [95% CI]':>24} {'rounds':>6}  losses by reason")
    for villain, issue in itertools.product(villains, issues):
        policy = load_policy(args.policy, seed=args.seed)
        r = evaluate(policy, villain=villain, issue=issue, heroes=args.heroes,
                     games=args.games, seed=args.seed, rules=rules)
        rows.append(r.as_dict())
        print(f"{villain:10} {issue:20} {r.wins:5d} {r.losses:6d} {r.truncated:5d} "
              f"{r.win_rate:8.3f} [{r.ci_low:.3f}, {r.ci_high:.3f}] {r.mean_rounds:6.2f}  "
              + ", ".join(f"{k} {v}" for k, v in r.loss_reasons.items()))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
