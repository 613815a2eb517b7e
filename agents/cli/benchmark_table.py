"""The benchmark table, task x algorithm, from the evaluation results kept in the repo.

    python scripts/benchmark_table.py              # rewrites docs/benchmark.md
    python scripts/benchmark_table.py --out -      # prints it
    python scripts/benchmark_table.py --check      # exit 1 when docs/benchmark.md is stale

Each result is the JSON that ``scripts/evaluate.py --task TASK --json FILE`` writes (1,000
evaluation games of the task), saved as ``docs/benchmark/<task>/<algo>.json`` for a policy
without training seeds (scripted, random) or ``<algo>_s<seed>.json`` for one training run
of a learning algorithm. A run's file may carry a ``training`` entry (env steps, steps/s,
wall-clock seconds, machine, command) that the table reports.

A learning algorithm's cell is the interquartile mean of its seeds' win rates with a 95%
stratified bootstrap interval (``agents.stats``); a seedless policy's cell is its win rate
with the Wilson 95% interval. To add an algorithm's row: train it on the task's training
split with at least 5 seeds, evaluate each final policy with ``scripts/evaluate.py --task``,
save the JSONs as above (with a ``training`` entry), and rerun this script.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import numpy as np

from agents.stats import aggregate
from hon_env.tasks import get_task, list_tasks

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "docs" / "benchmark"
OUT = ROOT / "docs" / "benchmark.md"
FILE = re.compile(r"^(?P<algo>[a-z0-9]+(?:_[a-z0-9]+)*?)(?:_s(?P<seed>\d+))?\.json$")
# display order; algorithms not listed follow in name order
SCRIPTED = ("coordinated", "per_hero", "random")  # rows that no training run made
ORDER = ("mappo", "ippo", "ppo", *SCRIPTED)
MIN_SEEDS = 5


def load_results(folder: Path = RESULTS) -> dict[tuple[str, str], list[dict]]:
    """(task, algo) -> its result dicts (one per training seed, or one), from ``folder``."""
    out: dict[tuple[str, str], list[dict]] = {}
    for path in sorted(folder.glob("*/*.json")):
        m = FILE.match(path.name)
        if m is None:
            raise ValueError(f"{path}: expected <algo>.json or <algo>_s<seed>.json")
        data = json.loads(path.read_text())
        task = path.parent.name
        if data.get("task") != task:
            raise ValueError(f"{path}: holds task {data.get('task')!r}, not {task!r}")
        games = len(get_task(task).eval_seeds)
        if data.get("games") != games:
            raise ValueError(f"{path}: {data.get('games')} games; the task's evaluation has "
                             f"{games}")
        data["seed"] = None if m["seed"] is None else int(m["seed"])
        out.setdefault((task, m["algo"]), []).append(data)
    return out


def seed_aggregate(runs: list[dict]) -> dict[str, float]:
    """IQM and its 95% stratified bootstrap interval over a row's training seeds."""
    return aggregate(np.array([[r["win_rate"]] for r in runs]))


def cell(runs: list[dict]) -> str:
    """The table cell of one task x algorithm."""
    if runs[0]["seed"] is None:
        r = runs[0]
        return f"{r['win_rate']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]"
    agg = seed_aggregate(runs)
    flag = "" if len(runs) >= MIN_SEEDS else f" (only {len(runs)} seeds)"
    return (f"{agg['iqm']:.3f} [{agg['ci_low']:.3f}, {agg['ci_high']:.3f}], "
            f"{len(runs)} seeds{flag}")


def training_note(runs: list[dict]) -> str:
    """Env steps, mean steps/s and mean wall-clock per seed of a learning algorithm's
    runs, and the machines they ran on (each once, in the order of the seeds)."""
    tr = [r["training"] for r in runs if r.get("training")]
    if not tr:
        return ""
    wall = np.mean([t["wall_s"] for t in tr])
    sps = np.mean([t["steps_per_s"] for t in tr])
    machines = " and ".join(dict.fromkeys(t["machine"] for t in tr))
    return (f"{steps_note(runs)} steps, {sps:,.0f} steps/s, "
            f"{wall / 60:.1f} min per seed on {machines}")


def algo_key(algo: str) -> tuple[int, str]:
    """Display order: ``ORDER``, a row named after an algorithm with a suffix
    (``mappo_entity``) next to it, the rest by name."""
    base = algo if algo in ORDER else algo.split("_")[0]
    return (ORDER.index(base) if base in ORDER else len(ORDER), algo)


def prior(runs: list[dict]) -> tuple[str, str, str, str]:
    """(algorithm, network, kickstart, reward) of a row: what its training entries say
    (``scripts/benchmark_run.py`` writes them); a policy without training seeds is
    scripted (or random) and has no prior-knowledge columns."""
    tr = [r["training"] for r in runs if r.get("training")]
    if not tr:
        return ("-", "-", "-", "-")
    values = []
    for key in ("algo", "network", "kickstart", "reward"):
        seen = sorted({str(t.get(key, "?")) for t in tr})
        values.append("/".join(seen))
    return tuple(values)  # type: ignore[return-value]


def steps_note(runs: list[dict]) -> str:
    """The seeds' step counts in millions, each distinct figure once (runs stop at the end
    of an update, so seeds of one budget differ by a few thousand steps: one "2.0M")."""
    steps = sorted({r["training"]["steps"] for r in runs if r.get("training")})
    labels = dict.fromkeys(f"{s / 1e6:.1f}M" for s in steps)
    return "/".join(labels) if labels else "-"


def scoreboard_columns(runs: list[dict]) -> tuple[str, str, str]:
    """(commit, by, reproduced) of a row: the commits its seeds trained at, who ran them
    (``by``, default ``hon_env``: runs of ``scripts/benchmark_run.py`` in this repository;
    anyone else's result stays "unverified" until reproduced) and whether every seed was
    reproduced from its command (``scripts/benchmark_run.py --reproduce``): "yes", "k of n
    seeds" while some are still to rerun, "differs" once one did not agree."""
    tr = [r["training"] for r in runs if r.get("training")]
    if not tr:
        return ("-", "-", "-")
    commits = sorted({str(t.get("commit", "-")) for t in tr})
    commit = commits[0] if len(commits) == 1 else f"{len(commits)} commits"
    by = "/".join(sorted({str(t.get("by", "hon_env")) for t in tr}))
    checks = [r.get("reproduced") for r in runs]
    matched = sum(1 for c in checks if c and c.get("match"))
    if matched == len(checks):
        done = "yes"
    elif any(c and not c.get("match") for c in checks):
        done = "differs"
    elif matched:
        done = f"{matched} of {len(checks)} seeds"
    else:
        done = "no" if by == "hon_env" else "unverified"
    return (commit, by, done)


def verdict(low: float, high: float, ref_low: float, ref_high: float) -> str:
    """A row against a reference by their 95% intervals: "above" or "below" when the
    intervals are apart, "level" when they overlap."""
    if low > ref_high:
        return "above"
    if high < ref_low:
        return "below"
    return "level (intervals overlap)"


def glance(results: dict[tuple[str, str], list[dict]]) -> list[str]:
    """One line per task: its best learned row with at least ``MIN_SEEDS`` seeds, what that
    row was given, and how it stands against the coordinated team. Best: the highest low
    end of the IQM's 95% interval, then the highest IQM. The low end is what a recipe gives
    across its seeds; by the IQM alone a row with one collapsed seed (its interval reaching
    down to that seed) would stand for a task where steadier rows are measured."""
    lines = ["**At a glance**: each task's best learned row of at least "
             f"{MIN_SEEDS} seeds (the highest low end of the IQM's 95% interval, then the "
             "highest IQM) against the coordinated scripted team.", "",
             "| task | best learned row | network, kickstart, reward | IQM [95% CI] "
             "| coordinated | learned vs coordinated |", "|---" * 6 + "|"]
    for task in list_tasks():
        learned = []
        for (t, a), runs in results.items():
            if t == task and runs[0]["seed"] is not None and len(runs) >= MIN_SEEDS:
                agg = seed_aggregate(runs)
                learned.append((-agg["ci_low"], -agg["iqm"], a, agg, runs))
        ref = results.get((task, "coordinated"))
        ref_cell = cell(ref) if ref else "-"
        if not learned:
            some = any(t == task and a not in SCRIPTED for t, a in results)
            what = f"none of {MIN_SEEDS} seeds yet" if some else "not run"
            lines.append(f"| `{task}` | {what} | | | {ref_cell} | |")
            continue
        *_, algo, agg, runs = min(learned, key=lambda x: x[:3])
        _, net, kick, reward = prior(runs)
        stand = "-" if not ref else verdict(agg["ci_low"], agg["ci_high"],
                                            ref[0]["ci_low"], ref[0]["ci_high"])
        lines.append(f"| `{task}` | {algo} | {net}, {kick}, {reward} | {agg['iqm']:.3f} "
                     f"[{agg['ci_low']:.3f}, {agg['ci_high']:.3f}] | {ref_cell} | {stand} |")
    return lines + [""]


def render(results: dict[tuple[str, str], list[dict]]) -> str:
    """The scoreboard: the at-a-glance table (``glance``), then one table per task (its
    budget and evaluation games), one line per row, then the training notes of each row."""
    tasks = list_tasks()
    lines: list[str] = glance(results)
    for task in tasks:
        spec = get_task(task)
        lines += [f"**`{task}`**: {spec.step_budget / 1e6:g}M-step budget, "
                  f"{len(spec.eval_seeds):,} evaluation games", "",
                  "| row | algorithm | network | kickstart | reward | steps per seed "
                  "| win rate [95% CI] | commit | by | reproduced |", "|---" * 10 + "|"]
        rows = sorted((a for t, a in results if t == task),
                      key=lambda a: (results[task, a][0]["seed"] is None, algo_key(a)))
        if not rows:
            lines.append("| not run | | | | | | | | | |")
        for a in rows:
            runs = results[task, a]
            algo, net, kick, reward = prior(runs)
            commit, by, done = scoreboard_columns(runs)
            lines.append(f"| {a} | {algo} | {net} | {kick} | {reward} | {steps_note(runs)} | "
                         f"{cell(runs)} | {commit} | {by} | {done} |")
        lines.append("")
    notes = []
    for (task, algo), runs in sorted(results.items(), key=lambda kv: (tasks.index(kv[0][0])
                                                                       if kv[0][0] in tasks
                                                                       else len(tasks),
                                                                       algo_key(kv[0][1]))):
        note = training_note(runs)
        cmds = sorted({r["training"]["command"] for r in runs if r.get("training")})
        if note:
            notes.append(f"- `{task}` / {algo}: {note}. Training: `{cmds[0]}`" if cmds
                         else f"- `{task}` / {algo}: {note}.")
    return "\n".join(lines).rstrip("\n") + ("\n\nTraining runs:\n\n" + "\n".join(notes)
                                          if notes else "")


def table_block(path: Path = OUT) -> str:
    """The generated block of ``path`` (between the table markers)."""
    text = path.read_text()
    begin, end = "<!-- table:begin -->", "<!-- table:end -->"
    if begin not in text or end not in text:
        raise SystemExit(f"{path}: no {begin} ... {end} block")
    return text.split(begin + "\n", 1)[1].split("\n" + end, 1)[0]


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python scripts/benchmark_table.py",
                                description=__doc__.split("\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--results", default=str(RESULTS), help="folder of <task>/<algo>*.json")
    p.add_argument("--out", default=str(OUT),
                   help="markdown file whose table block is replaced ('-': print)")
    p.add_argument("--check", action="store_true",
                   help="rewrite nothing: exit 1 unless --out's table is what the result "
                        "files give (every row cited has its files, and no file is left out)")
    args = p.parse_args(argv)
    table = render(load_results(Path(args.results)))
    if args.check:
        if table_block(Path(args.out)) != table:
            raise SystemExit(f"{args.out}: the table differs from the result files in "
                             f"{args.results}: run python scripts/benchmark_table.py")
        print(f"{args.out}: the table matches {args.results}")
        return
    if args.out == "-":
        print(table)
        return
    path = Path(args.out)
    text = path.read_text()
    begin, end = "<!-- table:begin -->", "<!-- table:end -->"
    if begin not in text or end not in text:
        raise SystemExit(f"{path}: no {begin} ... {end} block to replace")
    head, rest = text.split(begin, 1)
    path.write_text(head + begin + "\n" + table + "\n" + end + rest.split(end, 1)[1])
    print(f"wrote the table of {path}")


if __name__ == "__main__":
    main()
