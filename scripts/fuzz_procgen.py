"""Generated content under random play: every scenario valid, every invariant kept.

For each generator seed in ``--first .. --first + --scenarios - 1`` (knobs cycling through
the difficulties and board sizes given) the issue and villain are generated, validated
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

from hon_env import Game  # noqa: E402
from hon_env.content.procgen import Knobs, generated_scenario  # noqa: E402
from hon_env.content.procgen.board import SIZES  # noqa: E402
from hon_env.core.invariants import violations  # noqa: E402
from hon_env.numba_cache import debug_mode  # noqa: E402

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
        knobs = Knobs(args.difficulties[k % len(args.difficulties)],
                      args.sizes[k % len(args.sizes)])
        team = TEAMS[k % len(TEAMS)]
        try:
            sc = generated_scenario(seed, team, knobs)
        except Exception as e:  # noqa: BLE001 (every exception is a finding)
            failures.append(f"seed {seed} {knobs}: generation: {type(e).__name__}: {e}")
            continue
        for game in range(args.games):
            rng = np.random.default_rng([seed, game])
            try:
                g = Game(sc, seed=seed * 100 + game)
                while not g.is_over:
                    g.apply(int(rng.choice(g.legal_actions())))
                    decisions += 1
                    if not debug_mode():
                        found = violations(g.state, sc.tables, g._mask)
                        if found:
                            raise AssertionError("; ".join(found[:3]))
                outcomes[g.outcome] += 1
            except Exception as e:  # noqa: BLE001
                failures.append(f"seed {seed} {knobs} game {game}: {type(e).__name__}: {e}")
    mode = "debug mode" if debug_mode() else "normal mode"
    print(f"{args.scenarios} generated scenarios, {sum(outcomes.values())} random games, "
          f"{decisions} decisions in {time.perf_counter() - t0:.0f} s ({mode}): "
          + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
          + f", failures {len(failures)}")
    for line in failures[:20]:
        print("FAIL", line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
