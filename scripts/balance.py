"""Balance across team sizes: the scripted team and random play on every villain x issue
pair with 1-6 heroes, written to ``docs/balance.md`` with a heatmap.

    python scripts/balance.py                      # the full table: 200 games per cell
    python scripts/balance.py --games 40 --teams fixed --no-write   # a quick look
    python scripts/balance.py --two-fronts         # two villains: docs/two_fronts_balance.md

Each team size is played by three teams: the fixed team (1 Majesty, 2 + Stride,
3 + Guerilla, 4 + Cipher, 5 + Vigil, 6 + Tinkerbolt) and two others chosen
deterministically from the content's heroes (``teams_for``). Games of a cell start from
seeds ``--seed`` + i (10000+ by default), the same for every cell, so cells differ only in
their content. With 5-6 heroes the 5-6 hero setup adds nemeses (one per hero without a
Scheme card), drawn per game from the content's nemeses.

The report holds the scripted team's win rates with Wilson 95% intervals, random play's
wins, the losses by reason and the mean rounds per team size, and the bands the balance
aims for (``TARGETS``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agents.evaluation import (  # noqa: E402
    EvalResult,
    evaluate,
    villain_option,
    wilson_interval,
)
from agents.registry import load_policy  # noqa: E402
from hon_env import list_content  # noqa: E402

# The issue's fixed teams: each size adds one hero to the previous team.
FIXED_ORDER = ("majesty", "stride", "guerilla", "cipher", "vigil", "tinkerbolt")
SIZES = (1, 2, 3, 4, 5, 6)
# Scripted-team bands per team size (inclusive); random play must stay at most RANDOM_MAX.
TARGETS = {1: (0.30, 0.80), 2: (0.30, 0.80), 3: (0.30, 0.80), 4: (0.30, 0.80),
           5: (0.20, 1.00), 6: (0.20, 1.00)}
RANDOM_MAX = 0.02
# The Two Fronts variant (both villains, either order; 2-4 heroes): one band for every size.
TWO_FRONTS_SIZES = (2, 3, 4)
TWO_FRONTS_BAND = (0.15, 0.60)


def teams_for(size: int, heroes: list[str], which: str = "all") -> list[tuple[str, ...]]:
    """The teams of ``size`` heroes: the fixed team, then (``which="all"``) two others.

    The others walk the hero order (the fixed order, then the content's remaining heroes
    in name order) from offsets 3 and 6, so every size gets teams that differ from the
    fixed one and from each other, the same on every run.
    """
    order = list(FIXED_ORDER) + sorted(h for h in heroes if h not in FIXED_ORDER)
    order = [h for h in order if h in heroes]
    if size > len(order):
        raise ValueError(f"team size {size} needs {size} heroes, the content has {len(order)}")
    teams = [tuple(order[:size])]
    if which == "all":
        for offset in (3, 6):
            team = tuple(order[(offset + i) % len(order)] for i in range(size))
            if team not in teams:
                teams.append(team)
    return teams


@dataclass
class Cell:
    """One villain x issue x team, played by one policy."""

    policy: str
    size: int
    team: tuple[str, ...]
    result: EvalResult


def run_cells(policies: list[str], villains: list[str], issues: list[str],
              sizes: list[int], teams: str, games: int, seed: int,
              rules: dict | None = None, log=print, random_games: int | None = None
              ) -> list[Cell]:
    """Evaluate every policy on every villain x issue x team; returns the cells. Random
    play gets ``random_games`` games per cell (default ``games``): the first of the same
    seeds."""
    heroes = list_content()["heroes"]
    cells = []
    for size in sizes:
        for team in teams_for(size, heroes, teams):
            for villain, issue in itertools.product(villains, issues):
                for name in policies:
                    t0 = time.perf_counter()
                    n = random_games if name == "random" and random_games else games
                    r = evaluate(load_policy(name, seed=seed), games=n, seed=seed,
                                 batch=min(n, 1024), issue=issue,
                                 villain=villain_option(villain),
                                 heroes=list(team), rules=rules)
                    cells.append(Cell(name, size, team, r))
                    log(f"{name:10} {size} {'+'.join(team):45} {villain:8} {issue:18} "
                        f"{r.win_rate:6.3f} [{r.ci_low:.3f}, {r.ci_high:.3f}] "
                        f"rounds {r.mean_rounds:5.2f} ({time.perf_counter() - t0:.1f} s) "
                        + " ".join(f"{k}={v}" for k, v in r.loss_reasons.items()))
    return cells


def pair_name(r: EvalResult) -> str:
    return f"{r.villain} × {r.issue}"


def heatmap(cells: list[Cell], path: Path, policy: str) -> None:
    """Win rates of ``policy``'s fixed teams: villain x issue pairs by team size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fixed = [c for c in cells if c.policy == policy and c.team == tuple(FIXED_ORDER[:c.size])]
    pairs = sorted({pair_name(c.result) for c in fixed})
    sizes = sorted({c.size for c in fixed})
    grid = np.full((len(pairs), len(sizes)), np.nan)
    for c in fixed:
        grid[pairs.index(pair_name(c.result)), sizes.index(c.size)] = c.result.win_rate
    fig, ax = plt.subplots(figsize=(1.2 * len(sizes) + 3.5, 0.45 * len(pairs) + 1.5))
    im = ax.imshow(grid, vmin=0, vmax=1, cmap="RdYlGn", aspect="auto")
    ax.set_xticks(range(len(sizes)), [str(s) for s in sizes])
    ax.set_yticks(range(len(pairs)), pairs)
    ax.set_xlabel("heroes")
    for i, j in itertools.product(range(len(pairs)), range(len(sizes))):
        if not np.isnan(grid[i, j]):
            ax.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", fontsize=8)
    ax.set_title(f"{policy}: win rate of the fixed team")
    fig.colorbar(im, ax=ax, fraction=0.04)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def in_band(size: int, rate: float, two_fronts: bool = False) -> bool:
    low, high = TWO_FRONTS_BAND if two_fronts else TARGETS[size]
    return low <= rate <= high


def villain_pairs(villains: list[str]) -> list[str]:
    """Every ordered pair of different villains as ``"a+b"`` (the first schemes in panel
    1, the second in panel 2)."""
    return [f"{a}+{b}" for a, b in itertools.permutations(villains, 2)]


def _reasons(results: list[EvalResult]) -> str:
    """The loss reasons of ``results`` pooled, each as a share of all their games."""
    reasons: dict[str, int] = {}
    for r in results:
        for k, v in r.loss_reasons.items():
            reasons[k] = reasons.get(k, 0) + v
    total = sum(r.games for r in results)
    return ", ".join(f"{k} {v / total:.2f}" for k, v in sorted(reasons.items()))


def _intro(games: int, seed: int, command: str, played: str, sizes: list[int],
           two_fronts: bool) -> list[str]:
    """The page's title, what was measured and the targets."""
    if two_fronts:
        low, high = TWO_FRONTS_BAND
        return ["# Two Fronts balance: two villains", "",
                f"Measured with `{command}`: {games} games per cell (seeds {seed}+; random "
                "play: " + played + "ordered villain pair × issue, teams of "
                f"{min(sizes)}-{max(sizes)} heroes. Re-run the command to refresh this page "
                "and the heatmap (docs/variants.md, Two Fronts).", "",
                "Targets for the scripted team (`load_policy(\"heuristic\")`): every pair "
                f"in [{low:.2f}, {high:.2f}]; random play about 0. Win rates outside the band "
                "are in **bold**.", ""]
    return ["# Balance across team sizes", "",
            f"Measured with `{command}`: {games} games per cell (seeds {seed}+; random "
            "play: " + played + "villain × issue pair, teams of 1-6 heroes. Re-run the "
            "command to refresh this page and the heatmap.", "",
            "Targets for the scripted team (`load_policy(\"heuristic\")`): every pair in "
            "[0.30, 0.80] with 1-4 heroes, at least 0.20 with 5-6 heroes (nemeses as the "
            f"5-6 hero setup adds them); random play at most {RANDOM_MAX:.2f} everywhere. "
            "Win rates outside their band are in **bold**.", ""]


def _policy_sections(name: str, scripted: list[Cell], sizes: list[int],
                     ok: Callable[[int, float], bool]) -> list[str]:
    """One scripted policy: its fixed teams per pair, then every team per team size."""
    out = [f"## `{name}`: fixed teams, win rate [95% Wilson interval]", ""]
    fixed = [c for c in scripted if c.policy == name and c.team == tuple(FIXED_ORDER[:c.size])]
    pairs = sorted({pair_name(c.result) for c in fixed})
    out.append("| pair | " + " | ".join(f"{s} hero{'es' if s > 1 else ''}" for s in sizes)
               + " |")
    out.append("|---" * (len(sizes) + 1) + "|")
    for p in pairs:
        row = [p]
        for s in sizes:
            m = [c for c in fixed if c.size == s and pair_name(c.result) == p]
            if not m:
                row.append("")
                continue
            r = m[0].result
            txt = f"{r.win_rate:.2f} [{r.ci_low:.2f}, {r.ci_high:.2f}]"
            row.append(txt if ok(s, r.win_rate) else f"**{txt}**")
        out.append("| " + " | ".join(row) + " |")
    out.append("")
    out += [f"## `{name}`: every team, per team size", "",
            "| heroes | team | min | max | mean | pairs in band | mean rounds | "
            "losses by reason |", "|---|---|---|---|---|---|---|---|"]
    for s in sizes:
        for team in dict.fromkeys(c.team for c in scripted if c.size == s):
            m = [c.result for c in scripted if c.policy == name and c.team == team]
            rates = [r.win_rate for r in m]
            out.append(f"| {s} | {', '.join(team)} | {min(rates):.2f} | {max(rates):.2f} | "
                       f"{np.mean(rates):.2f} | {sum(ok(s, x) for x in rates)}/"
                       f"{len(rates)} | {np.mean([r.mean_rounds for r in m]):.1f} | "
                       f"{_reasons(m)} |")
    out.append("")
    return out


def _compared(scripted: list[Cell], sizes: list[int]) -> list[str]:
    """The scripted teams side by side, every pair pooled (with two or more of them)."""
    names = sorted({c.policy for c in scripted})
    if len(names) < 2:
        return []
    out = ["## Scripted teams compared: every pair pooled, fixed teams", "",
           "| heroes | " + " | ".join(f"`{n}`" for n in names) + " |",
           "|---" * (len(names) + 1) + "|"]
    for s in sizes:
        row = [str(s)]
        for name in names:
            m = [c.result for c in scripted if c.policy == name and c.size == s
                 and c.team == tuple(FIXED_ORDER[:s])]
            w, n = sum(r.wins for r in m), sum(r.games for r in m)
            low, high = wilson_interval(w, n)
            row.append(f"{w / n:.3f} [{low:.3f}, {high:.3f}] ({n} games)")
        out.append("| " + " | ".join(row) + " |")
    out.append("")
    return out


def _random_section(rnd: list[Cell], sizes: list[int]) -> list[str]:
    """Random play over every cell, and per team size."""
    if not rnd:
        return []
    wins = sum(c.result.wins for c in rnd)
    n = sum(c.result.games for c in rnd)
    worst = max(rnd, key=lambda c: c.result.win_rate)
    low, high = wilson_interval(wins, n)
    out = ["## Random play", "",
           f"{wins} wins in {n} games over every cell ({wins / n:.4f} [{low:.4f}, "
           f"{high:.4f}]); the highest cell: {worst.result.win_rate:.3f} "
           f"({pair_name(worst.result)}, {', '.join(worst.team)}).", "",
           "| heroes | games | wins | mean rounds | losses by reason |",
           "|---|---|---|---|---|"]
    for s in sizes:
        m = [c.result for c in rnd if c.size == s]
        total = sum(r.games for r in m)
        out.append(f"| {s} | {total} | {sum(r.wins for r in m)} | "
                   f"{np.mean([r.mean_rounds for r in m]):.1f} | " + _reasons(m) + " |")
    out.append("")
    return out


def report(cells: list[Cell], games: int, seed: int, command: str, image: str | None,
           two_fronts: bool = False) -> str:
    """The Markdown of ``docs/balance.md`` (``docs/two_fronts_balance.md``)."""
    scripted = [c for c in cells if c.policy != "random"]
    rnd = [c for c in cells if c.policy == "random"]
    sizes = sorted({c.size for c in cells})

    def ok(size: int, rate: float) -> bool:
        return in_band(size, rate, two_fronts)

    played = f"{rnd[0].result.games if rnd else 0}), every "
    out = _intro(games, seed, command, played, sizes, two_fronts)
    if image:
        out += [f"![win rates of the fixed teams]({image})", ""]
    for name in sorted({c.policy for c in scripted}):
        out += _policy_sections(name, scripted, sizes, ok)
    out += _compared(scripted, sizes)
    out += _random_section(rnd, sizes)
    out += ["Loss reasons are shares of all games of the row: `issue_deck_empty` (the issue "
            "deck ran out: the heroes were too slow), `villain_objective` (the issue's loss "
            "counter reached its threshold), `round_cap` / `decision_cap` (truncated).", ""]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=200, help="games per cell (default 200)")
    p.add_argument("--random-games", type=int, default=None,
                   help="games per cell for random play (default: --games)")
    p.add_argument("--seed", type=int, default=10000)
    p.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    p.add_argument("--villains", nargs="+", default=None, help="default: all")
    p.add_argument("--issues", nargs="+", default=None, help="default: all")
    p.add_argument("--teams", choices=("all", "fixed"), default="all",
                   help="the fixed team and two others per size, or the fixed team only")
    p.add_argument("--policies", nargs="+", default=["heuristic", "random"])
    p.add_argument("--out", default=str(ROOT / "docs" / "balance.md"))
    p.add_argument("--image", default=str(ROOT / "docs" / "img" / "balance_heatmap.png"))
    p.add_argument("--json", default=None, help="also write every cell as JSON")
    p.add_argument("--no-write", action="store_true", help="print only")
    p.add_argument("--two-fronts", action="store_true",
                   help="two villains (every ordered pair), 2-4 heroes, written to "
                        "docs/two_fronts_balance.md")
    args = p.parse_args(argv)
    if args.two_fronts:
        if args.sizes == list(SIZES):
            args.sizes = list(TWO_FRONTS_SIZES)
        docs = ROOT / "docs"
        if args.out == str(docs / "balance.md"):
            args.out = str(docs / "two_fronts_balance.md")
        if args.image == str(docs / "img" / "balance_heatmap.png"):
            args.image = str(docs / "img" / "two_fronts_heatmap.png")
    for s in args.sizes:
        if s not in SIZES:
            p.error(f"--sizes: {s} is not a team size (1-6)")
    if args.games < 1:
        p.error("--games must be positive")
    content = list_content()
    villains = args.villains or content["villains"]
    if args.two_fronts:
        if any(s < 2 for s in args.sizes):
            p.error("--two-fronts: each villain needs a hero facing it (sizes from 2)")
        villains = villain_pairs(villains)
    issues = args.issues or content["issues"]
    cells = run_cells(args.policies, villains, issues, args.sizes, args.teams, args.games,
                      args.seed, random_games=args.random_games)
    if args.json:
        Path(args.json).write_text(json.dumps(
            [{"policy": c.policy, "size": c.size, "team": c.team, **c.result.as_dict()}
             for c in cells], indent=1))
    if args.no_write:
        return
    out = Path(args.out)
    image = Path(args.image)
    scripted = [c for c in cells if c.policy != "random"]
    rel = None
    if scripted:
        heatmap(cells, image, scripted[0].policy)
        try:
            rel = str(image.resolve().relative_to(out.resolve().parent))
        except ValueError:
            rel = str(image)
    command = "python scripts/balance.py" + (" " + " ".join(argv) if argv else
                                             " " + " ".join(sys.argv[1:])).rstrip()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(report(cells, args.games, args.seed, command.strip(), rel,
                          two_fronts=args.two_fronts))
    print(f"wrote {out}" + (f" and {image}" if scripted else ""))


if __name__ == "__main__":
    main()
