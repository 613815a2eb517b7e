"""Calibrate generated content against the coordinated scripted team.

For each generator seed in [--seeds FIRST END) the coordinated team plays ``--games``
games of the generated scenario twice, on two disjoint sets of game seeds (A: 0.., B:
10**6..). The output says, for the knobs given:

- how often a generated scenario's win rate (A and B together) lies in ``--band``: the
  generator alone;
- rejection: the scenarios whose A win rate lies in the band, re-measured on B (games the
  selection never saw): how often they still lie in it.

    python scripts/calibrate_procgen.py --seeds 0 100 --games 100 \\
        --out docs/procgen/calibration_duo_d050_medium.json

The JSON keeps every seed's two win rates, so a set of accepted seeds can be rebuilt.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.evaluation import evaluate  # noqa: E402
from agents.scripted import CoordinatedPolicy  # noqa: E402
from hon_env.content.procgen import GENERATOR_VERSION, Knobs, generated_scenario  # noqa: E402
from hon_env.content.procgen.board import SIZES  # noqa: E402

B_SEED = 10**6


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seeds", type=int, nargs=2, default=[0, 100], metavar=("FIRST", "END"))
    p.add_argument("--heroes", nargs="+", default=["majesty", "stride"])
    p.add_argument("--difficulty", type=float, default=0.5)
    p.add_argument("--size", default="medium", choices=sorted(SIZES))
    p.add_argument("--team", type=int, default=None,
                   help="the team size the content is balanced for (default: len(--heroes))")
    p.add_argument("--games", type=int, default=100, help="games per scenario and half")
    p.add_argument("--band", type=float, nargs=2, default=[0.30, 0.80])
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args()
    knobs = Knobs(args.difficulty, args.size,
                  len(args.heroes) if args.team is None else args.team)
    lo, hi = args.band
    policy = CoordinatedPolicy()
    rates: dict[int, tuple[float, float]] = {}
    t0 = time.perf_counter()
    for seed in range(*args.seeds):
        sc = generated_scenario(seed, args.heroes, knobs)
        a, b = (evaluate(policy, games=args.games, seed=s, scenario=sc,
                         batch=args.games).win_rate for s in (0, B_SEED))
        rates[seed] = (a, b)
    both = np.array([(a + b) / 2 for a, b in rates.values()])
    kept = [b for a, b in rates.values() if lo <= a <= hi]
    summary = {
        "generator_version": GENERATOR_VERSION, "knobs": knobs.as_dict(),
        "heroes": args.heroes, "policy": "heuristic (coordinated team)",
        "games_per_half": args.games, "band": [lo, hi], "scenarios": len(rates),
        "mean_win_rate": round(float(both.mean()), 4),
        "in_band_generator": round(float(np.mean((both >= lo) & (both <= hi))), 4),
        "kept_by_rejection": len(kept),
        "in_band_after_rejection": round(float(np.mean([lo <= b <= hi for b in kept])), 4)
        if kept else None,
        "seconds": round(time.perf_counter() - t0),
        "rates": {str(s): [round(a, 4), round(b, 4)] for s, (a, b) in rates.items()},
    }
    print(json.dumps({k: v for k, v in summary.items() if k != "rates"}, indent=1))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(summary, indent=1) + "\n")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
