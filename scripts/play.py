"""Play random-legal games of a scenario and report outcomes and engine speed.

    python scripts/play.py --scenario origin_story --games 2000 --seed 0
    python scripts/play.py --heroes majesty majesty --games 500 --show 1
    python scripts/play.py --policy heuristic --games 1000

Prints the outcome distribution (wins, losses by reason, truncations), mean rounds and
decisions per game, and the engine's decisions per second at batch size 1 and at the
chosen batch size (numba compile time reported apart). With ``--policy`` (``heuristic`` or
a checkpoint, see ``agents/registry.py``) the games are played by that policy through the
evaluation harness and only the outcomes are printed.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from agents.evaluation import evaluate
from agents.registry import load_policy
from hon_env import Game, load_scenario
from hon_env.rollout import play_batch, random_policy, summarize


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scenario", default="origin_story", help="scenario id or YAML path")
    p.add_argument("--heroes", nargs="*", default=None, help="override the hero ids")
    p.add_argument("--villain", default=None)
    p.add_argument("--issue", default=None)
    p.add_argument("--games", type=int, default=1000, help="games to play")
    p.add_argument("--batch", type=int, default=1024, help="games per batch")
    p.add_argument("--seed", type=int, default=0, help="first game seed; game i uses seed+i")
    p.add_argument("--show", type=int, default=0, help="print the end snapshot of N games")
    p.add_argument("--policy", default="random", help="random, heuristic or a checkpoint")
    args = p.parse_args()
    if args.games < 1 or args.batch < 1:
        p.error("--games and --batch must be positive")
    if args.policy != "random":
        policy = load_policy(args.policy, seed=args.seed)
        r = evaluate(policy, games=args.games, seed=args.seed, batch=args.batch,
                     scenario=args.scenario, heroes=args.heroes, villain=args.villain,
                     issue=args.issue)
        print(json.dumps(r.as_dict(), indent=2))
        return

    sc = load_scenario(args.scenario, heroes=args.heroes, villain=args.villain, issue=args.issue)
    print(f"scenario {sc.id}: heroes {list(sc.hero_ids)} vs {sc.villain_name} in {sc.issue_name}")

    t0 = time.perf_counter()
    play_batch(sc, np.array([args.seed], np.int64), random_policy(np.random.default_rng(0)))
    play_batch(sc, np.arange(2, dtype=np.int64), random_policy(np.random.default_rng(0)))
    print(f"numba warm-up (compile or cache load): {time.perf_counter() - t0:.1f} s")

    rng = np.random.default_rng(args.seed)
    results = []
    t0 = time.perf_counter()
    for start in range(0, args.games, args.batch):
        n = min(args.batch, args.games - start)
        seeds = np.arange(args.seed + start, args.seed + start + n, dtype=np.int64)
        results.append(play_batch(sc, seeds, random_policy(rng)))
    dt = time.perf_counter() - t0
    summary = summarize(results)
    decisions = int(sum(r.decisions.sum() for r in results))
    print(json.dumps(summary, indent=2))
    print(f"batch {args.batch}: {decisions} decisions in {dt:.2f} s "
          f"= {decisions / dt:,.0f} decisions/s (random policy included)")

    t0 = time.perf_counter()
    n1 = 0
    for k in range(min(args.games, 50)):
        res = play_batch(sc, np.array([args.seed + k], np.int64), random_policy(rng))
        n1 += int(res.decisions.sum())
    dt1 = time.perf_counter() - t0
    print(f"batch 1: {n1} decisions in {dt1:.2f} s = {n1 / dt1:,.0f} decisions/s")

    for k in range(args.show):
        g = Game(sc, seed=args.seed + k)
        pick = random_policy(np.random.default_rng(k))
        while not g.is_over:
            g.apply(int(pick(g.state, g.legal_mask()[None])[0]))
        print(json.dumps(g.snapshot(), indent=1))


if __name__ == "__main__":
    main()
