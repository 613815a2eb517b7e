"""Soak: many random games over every content combination, invariants checked every step.

    python scripts/soak.py                  # 100,000 games (make soak)
    python scripts/soak.py --games 2000     # a smaller run
    python scripts/soak.py --games 300 --combinations 12   # a smoke run over a spread
    python scripts/soak.py --json out.json  # also write the figures as JSON

Every villain x issue pair is played with teams of 1 to 6 heroes (drawn from the content)
under each optional-rule setting: none, allies, special minions, special bystanders,
crisis cards, nemeses, and all of them together. Each setting is one scenario played on
the vector env (auto-reset) with uniformly random legal actions until its share of games
has ended; the invariant checker (``hon_env.core.invariants``) runs over the whole batch
after every step. Prints games, decisions, outcomes (wins, losses, truncations), invariant
violations, exceptions, and memory (peak and current resident size at start and end, to
show it stays flat). Exits with status 1 if any game broke an invariant or raised.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
import traceback
from collections.abc import Iterator
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's hon_env, whatever is installed

from hon_env import list_content, load_scenario, vector_env  # noqa: E402
from hon_env.core.invariants import violations  # noqa: E402
from hon_env.spec import layout as L  # noqa: E402
from hon_env.spec.tables import MAX_CRISES  # noqa: E402

RULE_SETTINGS = ("none", "allies", "special_minions", "special_bystanders", "crisis_cards",
                 "nemeses", "all")
TEAM_SIZES = (1, 2, 3, 4, 5, 6)


def rules_for(setting: str, size: int, k: int, content: dict[str, list[str]]) -> dict:
    """The ``rules`` of one combination; ``k`` varies which cards of a kind are used."""
    def some(kind: str, most: int) -> list[str]:
        ids = content[kind]
        n = 1 + k % min(most, len(ids))  # one card, or several
        return [ids[(k + j) % len(ids)] for j in range(n)]

    allies = [content["allies"][(k + j) % len(content["allies"])]
              for j in range(min(size, len(content["allies"])))]  # each Ally card once
    parts = {
        "allies": {"allies": allies},
        "special_minions": {"special_minions": some("minions", 2)},
        "special_bystanders": {"special_bystanders": some("bystanders", 2)},
        "crisis_cards": {"crisis_cards": some("crises", MAX_CRISES)},
        # nemeses are dealt as an option below 5 heroes (5-6 heroes have their own rule)
        "nemeses": {"nemeses": 1 + k % 2} if size < 5 else {},
    }
    if setting == "none":
        return {}
    if setting == "all":
        out: dict = {}
        for part in parts.values():
            out.update(part)
        return out
    return parts[setting]


def combinations(seed: int) -> Iterator[dict]:
    """Every villain x issue pair x team size x rule setting, with heroes drawn at random."""
    content = list_content()
    rng = np.random.default_rng(seed)
    k = 0
    for villain in content["villains"]:
        for issue in content["issues"]:
            for size in TEAM_SIZES:
                for setting in RULE_SETTINGS:
                    heroes = [str(h) for h in rng.choice(content["heroes"], size=size)]
                    yield {"villain": villain, "issue": issue, "heroes": heroes,
                           "setting": setting, "rules": rules_for(setting, size, k, content)}
                    k += 1


def rss_mib() -> float:
    """Current resident memory of this process in MiB (Linux /proc; else the peak)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return peak_mib()


def peak_mib() -> float:
    """Peak resident memory in MiB (ru_maxrss is in KiB on Linux; it can lag VmRSS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                peak = max(peak, int(line.split()[1]) / 1024)
    except OSError:
        pass
    return peak


def soak_one(combo: dict, games: int, seed: int, batch: int, totals: dict) -> None:
    """Play ``games`` random games of one combination, checking invariants every step."""
    sc = load_scenario("origin_story", heroes=combo["heroes"], villain=combo["villain"],
                       issue=combo["issue"], rules=combo["rules"])
    env = vector_env(min(batch, games), seed=seed, scenario=sc, observations=False)
    env.reset()
    rng = np.random.default_rng(seed)
    done = 0
    while done < games:
        _, _, _, _, info = env.step(env.sample_actions(rng))
        totals["steps"] += 1
        problems = violations(env.state, sc.tables, env.masks)
        if problems:
            totals["violations"].append({**combo, "problems": problems[:5]})
            return
        ended = np.flatnonzero(info["_final"])[: games - done]
        done += len(ended)
        totals["decisions"] += int(info["final_decisions"][ended].sum())
        for name, code in (("win", L.OUT_WIN), ("loss", L.OUT_LOSS),
                           ("truncated", L.OUT_TRUNCATED)):
            totals[name] += int((info["final_outcome"][ended] == code).sum())
    totals["games"] += done


def parser() -> argparse.ArgumentParser:
    """The command line (``--help`` lists every flag)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=100_000, help="games in all (default 100000)")
    p.add_argument("--batch", type=int, default=512, help="most games stepped together")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--combinations", type=int, default=None,
                   help="play only this many combinations, spread evenly over all of them")
    p.add_argument("--json", type=Path, default=None, help="also write the figures here")
    p.add_argument("--start", type=int, default=0,
                   help="begin at this position of the spread order (to go on after a run "
                        "cut short by --minutes; the games' shares stay those of the full run)")
    p.add_argument("--minutes", type=float, default=None,
                   help="stop starting new combinations after this long (the report says "
                        "how many were played)")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    return p


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    if args.games < 1 or args.batch < 1:
        p.error("--games and --batch must be positive")

    combos = list(combinations(args.seed))
    if args.combinations is not None:
        if not 1 <= args.combinations <= len(combos):
            p.error(f"--combinations must be in [1, {len(combos)}]")
        picks = np.linspace(0, len(combos) - 1, args.combinations).round().astype(int)
        combos = [combos[i] for i in picks]
    share = [args.games // len(combos) + (i < args.games % len(combos))
             for i in range(len(combos))]
    totals: dict = {"games": 0, "decisions": 0, "win": 0, "loss": 0, "truncated": 0,
                    "steps": 0, "violations": [], "exceptions": []}
    # a spread order (stride coprime to the count), so a run cut short by --minutes still
    # covers every pair, team size and rule setting
    stride = next(s for s in range(97, 10**6) if np.gcd(s, len(combos)) == 1)
    order = sorted(range(len(combos)), key=lambda i: (i * stride) % len(combos))
    if not 0 <= args.start < len(combos):
        p.error(f"--start must be in [0, {len(combos)})")
    order = order[args.start:]
    t0 = time.time()
    rss_start = None
    played = 0
    for i in order:
        combo, n = combos[i], share[i]
        if args.minutes is not None and time.time() - t0 > 60 * args.minutes:
            break
        if n == 0:
            continue
        played += 1
        try:
            soak_one(combo, n, args.seed + 1_000_003 * i, args.batch, totals)
        except Exception as e:  # noqa: BLE001  (every failure is reported, then the run goes on)
            totals["exceptions"].append({**combo, "error": f"{type(e).__name__}: {e}",
                                         "trace": traceback.format_exc(limit=3)})
        if rss_start is None:  # after the first combination: kernels loaded, arrays built
            rss_start = rss_mib()
        if not args.quiet and played % 20 == 0:
            print(f"[{time.time() - t0:6.0f}s] {played}/{len(combos)} combinations, "
                  f"{totals['games']} games, rss {rss_mib():.0f} MiB", flush=True)
    return finish(args, totals, len(combos), played, time.time() - t0, rss_start)


def finish(args: argparse.Namespace, totals: dict, n_combos: int, played: int,
           seconds: float, rss_start: float | None) -> int:
    """Print (and with ``--json`` write) the report; 1 when anything failed."""
    report = {
        "games": totals["games"], "decisions": totals["decisions"],
        "wins": totals["win"], "losses": totals["loss"], "truncations": totals["truncated"],
        "batched_steps": totals["steps"], "combinations": n_combos,
        "combinations_played": played, "started_at": args.start,
        "invariant_violations": len(totals["violations"]),
        "exceptions": len(totals["exceptions"]),
        "seconds": round(seconds, 1),
        "rss_mib_after_first_combination": round(rss_start or 0.0, 1),
        "rss_mib_at_end": round(rss_mib(), 1), "peak_rss_mib": round(peak_mib(), 1),
    }
    print(json.dumps(report, indent=2))
    for bad in totals["violations"] + totals["exceptions"]:
        print(json.dumps(bad, indent=2), file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps({**report, "failures": totals["violations"]
                                         + totals["exceptions"]}, indent=2))
    return 1 if totals["violations"] or totals["exceptions"] else 0


if __name__ == "__main__":
    sys.exit(main())
