"""The Fame variant's dilemma, measured: the coordinated scripted team against teams with
one glory seeker (seat 0) and with glory seekers only (``agents.glory``).

    python scripts/fame_table.py                      # 200 games per cell, prints markdown
    python scripts/fame_table.py --games 40 --json out.json

Every team plays the same games (seeds ``--seed`` + i) of ``--scenario`` (default
``fame_race``: three heroes, rank mode) at each team size of ``--heroes``. The table gives
the win rate with its Wilson 95% interval, each seat's mean fame at the end (seat 0 is
the glory seeker of ``glory_one``: what a hero gets when a loss keeps the fame,
``loss_keep=1``) and each seat's mean of fame x [win] (what it gets when a lost game
cancels the fame, the default ``loss_keep=0``). Fame does not change the game, so the reward mode of
the scenario does not matter to scripted teams.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agents.evaluation import evaluate  # noqa: E402
from agents.registry import load_policy  # noqa: E402

TEAMS = (("heuristic", "coordinated team"), ("glory_one", "one glory seeker (seat 0)"),
         ("glory_all", "glory seekers only"))
HEROES = ("majesty", "stride", "vigil", "guerilla")


def measure(games: int, seed: int, scenario: str, sizes: list[int]) -> list[dict]:
    """One row per (team size, team): win rate, interval, mean fame per seat."""
    rows = []
    for n in sizes:
        for spec, label in TEAMS:
            t0 = time.time()
            r = evaluate(load_policy(spec), games=games, seed=seed, scenario=scenario,
                         heroes=list(HEROES[:n]))
            rows.append({"heroes": n, "team": spec, "label": label, "games": games,
                         "wins": r.wins, "win_rate": r.win_rate, "ci_low": r.ci_low,
                         "ci_high": r.ci_high, "mean_fame": list(r.mean_fame),
                         "mean_fame_won": list(r.mean_fame_won),
                         "seconds": round(time.time() - t0, 1)})
            print(f"{n} heroes, {spec}: {r.wins}/{games} wins, fame "
                  f"{[round(f, 2) for f in r.mean_fame]} ({rows[-1]['seconds']} s)",
                  file=sys.stderr, flush=True)
    return rows


def markdown(rows: list[dict]) -> str:
    """The result table (docs/variants.md)."""
    lines = ["| heroes | team | games | win rate | 95% interval | mean fame per seat "
             "(seat 0 first) | mean fame x [win] per seat | team fame |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        fame = ", ".join(f"{f:.2f}" for f in r["mean_fame"])
        won = ", ".join(f"{f:.2f}" for f in r["mean_fame_won"])
        lines.append(f"| {r['heroes']} | {r['label']} | {r['games']} | {r['win_rate']:.3f} | "
                     f"{r['ci_low']:.3f}-{r['ci_high']:.3f} | {fame} | {won} | "
                     f"{sum(r['mean_fame']):.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per cell")
    ap.add_argument("--seed", type=int, default=20000, help="seed of the first game")
    ap.add_argument("--scenario", default="fame_race")
    ap.add_argument("--heroes", type=int, nargs="+", default=[2, 3, 4], choices=range(2, 5),
                    help="team sizes (heroes from majesty, stride, vigil, guerilla)")
    ap.add_argument("--json", type=Path, help="also write the rows as JSON here")
    args = ap.parse_args(argv)
    rows = measure(args.games, args.seed, args.scenario, args.heroes)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    print(markdown(rows))


if __name__ == "__main__":
    main()
