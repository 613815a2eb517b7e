"""Does self-play make heroes harder to exploit? One command trains and measures it.

    python scripts/selfplay_experiment.py --hero-steps 1000000 --br-steps 100000 \\
        --games 1000 --device auto --threads 0 --write-doc docs/mastermind.md

On the Mastermind scenario, with the MAPPO trainer's settings (``--config``, default
``configs/train/mappo.yaml``; the flags below override them) for every learner:

1. ``heroes_top_card``: MAPPO heroes trained against the top-card villain only (the
   rulebook's deck) for ``--hero-steps`` hero decisions (``train_mappo.py --opponent
   top_card``);
2. ``heroes_selfplay``: MAPPO heroes trained by self-play (``train_selfplay.py``) with the
   same hero budget, ``--iterations`` alternations with ``--selfplay-villain-steps``
   villain decisions each;
3. ``br_top_card`` and ``br_selfplay``: a best-response villain (``train_mappo.py --side
   villain``) trained against each hero team, each for ``--br-steps`` villain decisions
   (the same fixed budget, kickstarted from the scripted villain);
4. every hero team (and the scripted team for reference) plays ``--games`` games (seeds
   2,000,000+) against the top-card, random and scripted villains, both best responses and
   the self-play villain, all trained ones greedy: the heroes' win rate with its Wilson
   95% interval.

Writes ``<run-dir>/<stage>/`` for each training (the trainers' run layout),
``<run-dir>/table.json`` (the settings, each stage's wall-clock time and every cell) and
``<run-dir>/table.md``; ``--write-doc FILE`` also replaces the table between the
``selfplay-table`` markers of FILE. A stage whose final checkpoint exists is not trained
again (delete its folder to retrain it). ``--threads`` sets torch's and numba's threads.
``--network`` picks the hero teams' actor and ``--villain-network`` the villain learners'
(default: the heroes'): ``--network entity --villain-network mlp`` changes the heroes'
network alone; ``--entity-dim`` and ``--entity-blocks`` reach every learner (the MLP ones
do not read them).
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

from agents.cli import train_mappo, train_selfplay
from agents.evaluation import evaluate
from agents.networks import NETWORKS
from agents.registry import load_policy
from agents.training.config import check_device
from agents.villains import TOP_CARD, load_villain

SCENARIO = "mastermind"
EVAL_SEED = 2_000_000  # the payoff table's games (docs/mastermind.md), apart from training's
NEVER = 10**12  # in-training evaluations and checkpoints only at the end
MARK_START, MARK_END = "<!-- selfplay-table:start -->", "<!-- selfplay-table:end -->"
HERO_TEAMS = ("heroes_top_card", "heroes_selfplay")
VILLAINS = (TOP_CARD, "random", "scripted", "br_top_card", "br_selfplay", "selfplay_villain")
LABELS = {"heroes_top_card": "MAPPO vs top-card only", "heroes_selfplay": "MAPPO self-play",
          "heuristic": "scripted team (reference)", TOP_CARD: "top_card", "random": "random",
          "scripted": "scripted", "br_top_card": "BR to top-card heroes",
          "br_selfplay": "BR to self-play heroes", "selfplay_villain": "self-play villain"}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--run-dir", default="runs/selfplay_experiment")
    p.add_argument("--config", default=str(train_mappo.DEFAULT_CONFIG),
                   help="MAPPO settings of every learner (YAML)")
    p.add_argument("--hero-steps", type=int, default=2_000_000,
                   help="hero decisions of each hero team's training")
    p.add_argument("--iterations", type=int, default=4, help="self-play alternations")
    p.add_argument("--selfplay-villain-steps", type=int, default=100_000,
                   help="villain decisions per self-play iteration")
    p.add_argument("--br-steps", type=int, default=200_000,
                   help="villain decisions of each best-response training")
    p.add_argument("--kickstart-fraction", type=float, default=0.5,
                   help="share of each learner's budget over which it imitates its scripted "
                        "side (the config's kickstart_coef for heroes)")
    p.add_argument("--pretrain-steps", type=int, default=0,
                   help="each hero team's warm start: decisions of the coordinated team "
                        "cloned before its first update (0: none)")
    p.add_argument("--hero-reward-shaping", default=None, metavar="YAML",
                   help="the hero teams' event rewards ('{}': win/loss only; default: the "
                        "config's)")
    p.add_argument("--villain-kickstart-coef", type=float, default=1.0,
                   help="initial weight of the villains' imitation of the scripted villain")
    p.add_argument("--num-envs", type=int, default=None, help="games per learner (config)")
    p.add_argument("--num-steps", type=int, default=None, help="rollout steps (config)")
    p.add_argument("--hidden", type=int, nargs="+", default=None, help="layers (config)")
    p.add_argument("--entity-dim", type=int, default=None,
                   help="entity actor's row embedding size, every entity learner (config)")
    p.add_argument("--entity-blocks", type=int, default=None,
                   help="entity actor's attention blocks, every entity learner (config)")
    p.add_argument("--network", choices=NETWORKS, default=None,
                   help="the hero teams' actor (config)")
    p.add_argument("--villain-network", choices=NETWORKS, default=None,
                   help="the villain learners' actor, self-play's and the best responses' "
                        "(default: the heroes')")
    p.add_argument("--games", type=int, default=1000, help="games per table cell")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--device", default="auto", help="torch device: auto, cpu, cuda, ...")
    p.add_argument("--threads", type=int, default=0,
                   help="torch and numba CPU threads (0: their defaults)")
    p.add_argument("--write-doc", default=None,
                   help="replace the table between the selfplay-table markers of this file")
    return p


def _common(args: argparse.Namespace, run: Path, stage: str) -> list[str]:
    out = ["--config", args.config, "--run-dir", str(run / stage), "--scenario", SCENARIO,
           "--seed", str(args.seed), "--device", args.device, "--threads", str(args.threads),
           "--eval-every", str(NEVER), "--checkpoint-every", str(NEVER), "--eval-games", "100",
           "--progress", "false"]
    for flag, value in (("--num-envs", args.num_envs), ("--num-steps", args.num_steps),
                        ("--entity-dim", args.entity_dim), ("--entity-blocks", args.entity_blocks)):
        if value is not None:
            out += [flag, str(value)]
    if args.hidden:
        out += ["--hidden", *map(str, args.hidden)]
    return out


def stages(args: argparse.Namespace, run: Path) -> list[tuple[str, Any, list[str], Path]]:
    """(name, trainer main, its arguments, the checkpoint it leaves) in training order."""
    kick = str(max(1, int(args.hero_steps * args.kickstart_fraction)))
    vkick = str(max(1, int(args.br_steps * args.kickstart_fraction)))
    heroes = ["--total-steps", str(args.hero_steps), "--kickstart-steps", kick,
              "--pretrain-steps", str(args.pretrain_steps)]
    if args.network:
        heroes += ["--network", args.network]
    # the villain learners take the heroes' actor unless told otherwise
    villain_net = args.villain_network or args.network
    villain = ["--network", villain_net] if villain_net else []
    selfplay_villain = (["--villain-network", args.villain_network] if args.villain_network
                        else [])
    if args.hero_reward_shaping is not None:
        heroes += ["--reward-shaping", args.hero_reward_shaping]
    out = [
        ("heroes_top_card", train_mappo.main,
         _common(args, run, "heroes_top_card") + heroes + ["--opponent", TOP_CARD],
         run / "heroes_top_card" / "final.pt"),
        ("heroes_selfplay", train_selfplay.main,
         _common(args, run, "heroes_selfplay") + heroes + [
             "--iterations", str(args.iterations),
             "--villain-steps", str(args.selfplay_villain_steps),
             "--villain-kickstart-coef", str(args.villain_kickstart_coef),
             "--villain-kickstart-steps",
             str(max(1, int(args.iterations * args.selfplay_villain_steps
                            * args.kickstart_fraction)))] + selfplay_villain,
         run / "heroes_selfplay" / "final.pt"),
    ]
    for team in HERO_TEAMS:
        name = "br_" + team.removeprefix("heroes_")
        out.append((name, train_mappo.main, _common(args, run, name) + [
            "--side", "villain", "--opponent", str(run / team / "final.pt"),
            "--total-steps", str(args.br_steps), "--kickstart-coef",
            str(args.villain_kickstart_coef), "--kickstart-steps", vkick] + villain,
            run / name / "final.pt"))
    return out


def cell(hero: str, villain: str, run: Path, games: int, seed: int) -> dict[str, Any]:
    """The heroes' win rate of one hero team against one villain."""
    heroes = load_policy("heuristic" if hero == "heuristic" else str(run / hero / "final.pt"))
    paths = {"br_top_card": run / "br_top_card" / "final.pt",
             "br_selfplay": run / "br_selfplay" / "final.pt",
             "selfplay_villain": run / "heroes_selfplay" / "villain_final.pt"}
    spec = str(paths[villain]) if villain in paths else villain
    r = evaluate(heroes, scenario=SCENARIO, villain_policy=load_villain(spec, seed=seed),
                 games=games, seed=EVAL_SEED)
    return {"heroes": hero, "villain": villain, "games": r.games, "wins": r.wins,
            "win_rate": r.win_rate, "ci_low": r.ci_low, "ci_high": r.ci_high}


def markdown(result: dict[str, Any]) -> str:
    """The table of ``result`` (``table.json``) in markdown, with the exploitability rows."""
    cells = {(c["heroes"], c["villain"]): c for c in result["cells"]}
    teams = list(dict.fromkeys(c["heroes"] for c in result["cells"]))

    def fmt(h: str, v: str) -> str:
        c = cells[(h, v)]
        return f"{c['win_rate']:.3f} [{c['ci_low']:.3f}, {c['ci_high']:.3f}]"

    s = result["settings"]
    intro = textwrap.fill(
        f"Heroes' win rate [Wilson 95% interval] on `{SCENARIO}`, {s['games']:,} games "
        f"per cell (seeds {EVAL_SEED:,}+); hero teams trained for {s['hero_steps']:,} "
        f"hero decisions, best responses (BR) for {s['br_steps']:,} villain decisions, "
        f"self-play {s['iterations']} iterations x {s['selfplay_villain_steps']:,} "
        "villain decisions; trained policies play greedy.", width=90)
    lines = [intro, "",
             "| heroes \\ villain | " + " | ".join(LABELS[v] for v in VILLAINS) + " |",
             "|---" * (len(VILLAINS) + 1) + "|"]
    for h in teams:
        lines.append(f"| {LABELS[h]} | " + " | ".join(fmt(h, v) for v in VILLAINS) + " |")
    lines += ["", "| heroes | vs top_card | vs own best response | drop |", "|---|---|---|---|"]
    for h in HERO_TEAMS:
        own = "br_" + h.removeprefix("heroes_")
        drop = cells[(h, TOP_CARD)]["win_rate"] - cells[(h, own)]["win_rate"]
        lines.append(f"| {LABELS[h]} | {fmt(h, TOP_CARD)} | {fmt(h, own)} | {drop:+.3f} |")
    return "\n".join(lines) + "\n"


def write_doc(path: Path, table: str, command: str) -> None:
    """Replace the text between the markers of ``path`` with the table and its command."""
    text = path.read_text()
    if MARK_START not in text or MARK_END not in text:
        raise ValueError(f"{path}: no {MARK_START} ... {MARK_END} markers to replace")
    head, rest = text.split(MARK_START, 1)
    tail = rest.split(MARK_END, 1)[1]
    body = f"\n```bash\n{command}\n```\n\n{table}"
    path.write_text(head + MARK_START + body + MARK_END + tail)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = parser()
    args = p.parse_args(argv)
    for name in ("hero_steps", "br_steps", "selfplay_villain_steps", "iterations", "games"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be positive")
    if args.pretrain_steps < 0:
        p.error("--pretrain-steps must be >= 0")
    try:  # here, not in the first of the trainers it runs, minutes later
        check_device(args.device)
    except ValueError as err:
        p.error(str(err))
    if args.threads > 0:
        from agents.training.cpu_threads import set_cpu_threads

        set_cpu_threads(args.threads, args.threads)
    run = Path(args.run_dir)
    run.mkdir(parents=True, exist_ok=True)
    seconds: dict[str, float] = {}
    for name, trainer, trainer_args, final in stages(args, run):
        if final.exists():
            print(f"[{name}] {final} exists: not trained again", flush=True)
            continue
        print(f"[{name}] training: {' '.join(trainer_args)}", flush=True)
        t = time.perf_counter()
        trainer(trainer_args)
        seconds[name] = round(time.perf_counter() - t, 1)
    t = time.perf_counter()
    cells = [cell(h, v, run, args.games, args.seed)
             for h in (*HERO_TEAMS, "heuristic") for v in VILLAINS]
    seconds["evaluation"] = round(time.perf_counter() - t, 1)
    command = "python scripts/selfplay_experiment.py " + " ".join(
        sys.argv[1:] if argv is None else argv)
    result = {"command": command, "settings": vars(args), "seconds": seconds, "cells": cells}
    (run / "table.json").write_text(json.dumps(result, indent=1))
    table = markdown(result)
    (run / "table.md").write_text(table)
    print(table)
    if args.write_doc:
        write_doc(Path(args.write_doc), table, command)
    return result


if __name__ == "__main__":
    main()
