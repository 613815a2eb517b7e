"""Random games over several content combinations with every invariant checked.

Each game is played with uniformly random legal actions through ``Game``; after every
decision the invariants of ``core/invariants.py`` are checked (in debug mode,
``HON_ENV_DEBUG=1``, ``Game.apply`` does it itself with bounds-checked kernels). Any
exception or violated invariant is a failure: exit status 1.

    HON_ENV_DEBUG=1 python scripts/fuzz_games.py --games 10
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

import numpy as np

from hon_env import Game, load_scenario
from hon_env.core.invariants import violations
from hon_env.numba_cache import debug_mode

COMBOS = (
    {},
    {"heroes": ["cipher", "guerilla"], "villain": "refuser", "issue": "dockside_smuggling"},
    {"heroes": ["microguy", "tinkerbolt", "vigil"], "issue": "blackout_gala",
     "rules": {"special_minions": ["hired_muscle"], "special_bystanders": ["foremans_crew"],
               "crisis_cards": ["lowtiders_storm_surge"]}},
    {"heroes": ["majesty", "stride", "cipher", "vigil", "microguy", "guerilla"],
     "issue": "rooftop_relay"},
)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10, help="games per content combination")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    t0 = time.perf_counter()
    outcomes: Counter[str] = Counter()
    decisions = 0
    failures = []
    for c, combo in enumerate(COMBOS):
        sc = load_scenario("origin_story", **combo)
        for k in range(args.games):
            seed = args.seed + 1000 * c + k
            try:
                outcome, n = random_game(sc, seed, np.random.default_rng(seed))
                decisions += n
                outcomes[outcome] += 1
            except Exception as e:  # noqa: BLE001 (every exception is a finding)
                failures.append(f"combination {c} seed {seed}: {type(e).__name__}: {e}")
    return report(f"{len(COMBOS) * args.games} random games", decisions, t0, outcomes,
                  failures)


def random_game(sc, seed: int, rng: np.random.Generator) -> tuple[str, int]:
    """Play game ``seed`` of ``sc`` with random legal actions drawn from ``rng``, checking
    the invariants after every decision (debug mode checks them inside ``apply``);
    returns (outcome, decisions). A violation raises ``AssertionError``."""
    g = Game(sc, seed=seed)
    decisions = 0
    while not g.is_over:
        g.apply(int(rng.choice(g.legal_actions())))
        decisions += 1
        if not debug_mode():
            found = violations(g.state, sc.tables, g._mask)
            if found:
                raise AssertionError("; ".join(found[:3]))
    return g.outcome, decisions


def report(what: str, decisions: int, t0: float, outcomes: Counter, failures: list[str]
           ) -> int:
    """Print the summary line and the first failures; the exit status (1 on a failure)."""
    mode = "debug mode" if debug_mode() else "normal mode"
    print(f"{what}, {decisions} decisions in {time.perf_counter() - t0:.0f} s ({mode}): "
          + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
          + f", failures {len(failures)}")
    for line in failures[:20]:
        print("FAIL", line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
