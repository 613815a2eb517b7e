"""Generated content under random play: every scenario valid, every invariant kept.

For each generator seed in ``--first .. --first + --scenarios - 1`` (knobs cycling through
the difficulties and board sizes given, teams of 1-4 heroes in turn, each on content
balanced for its size: the ``team`` knob) the issue and villain are generated, validated
by the loader and compiled, then ``--games`` games are played with uniformly random legal
actions through ``Game`` with the invariants of ``core/invariants.py`` checked after every
decision (in debug mode, ``HON_ENV_DEBUG=1``, ``Game.apply`` checks them itself). Any
exception, violated invariant or game that reaches neither an end nor its caps is a
failure: exit status 1.

    HON_ENV_DEBUG=1 python scripts/fuzz_procgen.py --scenarios 100
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fuzz_games import random_game, report  # noqa: E402  (scripts/ is on the path)

from hon_env.content.procgen import Knobs, generated_scenario  # noqa: E402
from hon_env.content.procgen.board import SIZES  # noqa: E402

TEAMS = (["majesty"], ["majesty", "stride"], ["cipher", "guerilla", "vigil"],
         ["microguy", "tinkerbolt", "vigil", "stride"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenarios", type=int, default=100)
    ap.add_argument("--first", type=int, default=0, help="first generator seed")
    ap.add_argument("--games", type=int, default=1, help="random games per scenario")
    ap.add_argument("--difficulties", type=float, nargs="+", default=[0.0, 0.5, 1.0])
    ap.add_argument("--sizes", nargs="+", default=sorted(SIZES), choices=sorted(SIZES))
    args = ap.parse_args()
    t0 = time.perf_counter()
    outcomes: Counter[str] = Counter()
    decisions = 0
    failures = []
    for k in range(args.scenarios):
        seed = args.first + k
        team = TEAMS[k % len(TEAMS)]
        knobs = Knobs(args.difficulties[k % len(args.difficulties)],
                      args.sizes[k % len(args.sizes)], len(team))
        try:
            sc = generated_scenario(seed, team, knobs)
        except Exception as e:  # noqa: BLE001 (every exception is a finding)
            failures.append(f"seed {seed} {knobs}: generation: {type(e).__name__}: {e}")
            continue
        for game in range(args.games):
            try:
                outcome, n = random_game(sc, seed * 100 + game,
                                         np.random.default_rng([seed, game]))
                decisions += n
                outcomes[outcome] += 1
            except Exception as e:  # noqa: BLE001
                failures.append(f"seed {seed} {knobs} game {game}: {type(e).__name__}: {e}")
    return report(f"{args.scenarios} generated scenarios, {sum(outcomes.values())} random "
                  "games", decisions, t0, outcomes, failures)


if __name__ == "__main__":
    sys.exit(main())
