"""Benchmark: decisions per second of the Game facade and the vector env, in one run.

    hon-bench                   # full table (from a checkout: into docs/benchmarks.md)
    hon-bench --quick           # smaller measurement, no file
    hon-bench --out bench.md    # the table written into another file
    hon-bench --cold-only       # only the cold start and per-kernel compile rows
    hon-bench --mappo-heroes 4 --device cuda   # MAPPO steps/s at 4 heroes on a GPU
    hon-bench --against HEAD~1  # this checkout's engine against a revision's, CPU-time pairs
    hon-bench --against v6-rev --wall --encoding none --batches 1024   # the row itself

(``python scripts/benchmark.py`` in a checkout is the same command.)

Random legal actions are chosen inside every measurement. Numba compile (or cache load)
time is measured apart, on a first call that is excluded from the timings. The cold start
rows run in fresh processes on an empty kernel cache: the README quick start end to end,
and each kernel's first call (``python -m hon_env.warmup``). Memory per game counts the
arrays the vector env keeps per game.

A run's tables go into their own section of the ``--out`` page, between two markers: the
next run replaces that section and nothing else, so a page of curated measurements (the
repository's docs/benchmarks.md) keeps its other sections.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from agents.cli.benchmark_against import ENCODINGS, print_against, resolve_commit
from agents.cli.benchmark_run import training_precision
from agents.training.config import check_device
from hon_env import ContentError, Game, hour_of_need_v8, load_scenario, vector_env
from hon_env.content.loader import TRAIN_CONFIGS_DIR
from hon_env.core.observe import OBS_DIM, STATE_DIM
from hon_env.spec import layout as L

ROOT = Path(__file__).resolve().parents[2]
# the repository's page when run from a checkout; an installed copy writes only with --out
CHECKOUT_DOCS = ROOT / "docs" / "benchmarks.md"


def bench_game(sc, seconds: float) -> float:
    """Decisions/s of ``Game.apply`` with random legal actions, replaying new seeds."""
    rng = np.random.default_rng(0)
    n = 0
    seed = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        g = Game(sc, seed=seed)
        seed += 1
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(int(legal[rng.integers(len(legal))]))
            n += 1
    return n / (time.perf_counter() - t0)


def bench_aec(sc, seconds: float) -> float:
    """Decisions/s of the wrapped PettingZoo AEC env with random legal actions."""
    return aec_rate(hour_of_need_v8.env(scenario=sc), seconds)


def bench_reference(seconds: float) -> float | None:
    """Decisions/s of PettingZoo's own ``connect_four_v3`` AEC env, played the same way:
    the reference that makes AEC rows comparable across machines and loads (None when
    its ``pygame`` import is missing: ``pip install -e ".[bench]"``)."""
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError:
        return None
    return aec_rate(connect_four_v3.env(), seconds)


def aec_rate(env, seconds: float) -> float:
    """Decisions/s of a PettingZoo AEC env whose observations carry ``action_mask``,
    random legal actions, episodes from seeds 0, 1, 2..."""
    rng = np.random.default_rng(0)
    n = 0
    seed = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            n += 1
    return n / (time.perf_counter() - t0)


def reference_row(aec: float, reference: float | None) -> str:
    """The reference's table row, with the AEC env's rate as a share of it."""
    if reference is None:
        return ("| PettingZoo `connect_four_v3` (reference) | yes | not measured: it needs "
                "pygame (`pip install -e \".[bench]\"`) |")
    return (f"| PettingZoo `connect_four_v3` (reference; the AEC env runs at "
            f"{aec / reference:.2f}x it) | yes | {reference:,.0f} |")


def bench_vector(sc, batch: int, observations: bool, seconds: float, **kw) -> float:
    """Decisions/s of ``VectorEnv.step`` with random legal actions (sampling included);
    ``kw``: more ``vector_env`` options (``heroes="random"``: a team per game)."""
    env = vector_env(batch, seed=0, scenario=sc, observations=observations, **kw)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(3):
        env.step(env.sample_actions(rng))
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        env.step(env.sample_actions(rng))
        steps += 1
    return steps * batch / (time.perf_counter() - t0)


def print_pairs(scenario: str, header: str, cases: list[tuple[str, dict, dict]], batch: int,
                seconds: float, pairs: int = 3) -> None:
    """The vector env's decisions/s under two settings, alternated ``pairs`` times per case:
    ``cases`` are (label, options A, options B), ``vector_env`` keyword arguments;
    ``header`` names the label column and the two settings."""
    print(f"| vector env, batch {batch} | {header} | ratio |")
    print("|---|---|---|---|---|")
    for label, a, b in cases:
        for _ in range(pairs):
            ra = bench_vector(scenario, batch, seconds=seconds, **a)
            rb = bench_vector(scenario, batch, seconds=seconds, **b)
            print(f"| decisions/s | {label} | {ra:,.0f} | {rb:,.0f} | {rb / ra:.2f} |",
                  flush=True)


def print_per_game_heroes(scenario: str, n: int, batch: int, seconds: float) -> None:
    """The vector env with ``n`` fixed heroes (the first team of the random pool) against a
    team drawn per game (``heroes="random"``), in alternating pairs."""
    from hon_env.roster import random_teams

    team = random_teams(load_scenario(scenario).hero_roster, n)[0]
    print_pairs(scenario, f"{n} heroes, observations | fixed team {team} | a team per game",
                [("yes" if obs else "no", {"observations": obs, "heroes": team},
                  {"observations": obs, "heroes": "random", "n_heroes": n})
                 for obs in (False, True)], batch, seconds)


def print_compact_pairs(scenario: str, batch: int, seconds: float) -> None:
    """The vector env with full rows against ``compact=True``, with and without the global
    state, in alternating pairs."""
    print_pairs(scenario, "global state | full | compact",
                [("yes" if state else "no", {"observations": True, "global_state": state},
                  {"observations": True, "global_state": state, "compact": True})
                 for state in (True, False)], batch, seconds)


def print_procgen(batch: int, seconds: float, pool_size: int = 1000, pairs: int = 3) -> None:
    """Generated content: the first use of a generated scenario (generate, write, parse,
    compile; a fresh cache folder) and the vector env on a pool of ``pool_size`` generated
    scenarios against one generated scenario, alternated ``pairs`` times."""
    import tempfile

    from hon_env.content.procgen import Knobs, generated_scenarios

    team = ["majesty", "stride"]
    generated_scenarios([0], team)  # imports and the shipped heroes' files parsed once
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        generated_scenarios(range(10**6, 10**6 + 50), team, Knobs(), cache_dir=tmp)
        first_ms = (time.perf_counter() - t0) / 50 * 1000
    pool = generated_scenarios(range(pool_size), team)
    print(f"| generated content | value |\n|---|---|\n"
          f"| first use of a generated scenario (mean of 50) | {first_ms:.0f} ms |")
    for _ in range(pairs):
        one = bench_vector(pool[0], batch, False, seconds)
        many = bench_vector(pool, batch, False, seconds)
        print(f"| vector env, batch {batch}, no observations: 1 generated scenario / pool of "
              f"{pool_size} | {one:,.0f} / {many:,.0f} decisions/s ({many / one:.2f}) |",
              flush=True)


def bench_heuristic(sc, batch: int, seconds: float) -> float:
    """Decisions/s of the vector env driven by the scripted team (its choices included)."""
    from agents import HeuristicPolicy

    env = vector_env(batch, seed=0, scenario=sc, observations=False)
    obs, _ = env.reset()
    policy = HeuristicPolicy()
    policy.act(obs["observation"], obs["action_mask"], obs["agent"], engine=env.engine)  # compile
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        a = policy.act(obs["observation"], obs["action_mask"], obs["agent"], engine=env.engine)
        obs, *_ = env.step(a)
        steps += 1
    return steps * batch / (time.perf_counter() - t0)


def bench_render(sc, seconds: float) -> list[tuple[str, float]]:
    """Milliseconds per frame of each renderer over the positions of random games (the
    pending decision and the last action drawn; the empty map's cache warmed first)."""
    from hon_env.views import render_ansi, render_rgb, render_svg

    rng = np.random.default_rng(0)
    frames: list[Game] = []
    seed = 0
    while len(frames) < 200:
        g = Game(sc, seed=seed)
        seed += 1
        while not g.is_over and len(frames) < 200:
            frames.append(g.clone())
            g.apply(int(rng.choice(g.legal_actions())))
    render_rgb(frames[0])
    out = []
    for name, draw in (("image, `render_rgb` (1300 x 750 RGB)",
                        lambda g: render_rgb(g, last_action="Majesty: move to C5")),
                       ("SVG, `hon_env.views.svg.render_svg`",
                        lambda g: render_svg(g, "Majesty: move to C5")),
                       ("text, `render_ansi`", render_ansi)):
        n = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            draw(frames[n % len(frames)])
            n += 1
        out.append((name, (time.perf_counter() - t0) / n * 1000.0))
    return out


def bench_training(algo: str, steps: int, extra: list[str]) -> float:
    """Environment steps/s of ``hon-train --algo algo`` run for ``steps`` steps (rollouts
    and updates; the evaluation games are left out), read from the run's own log."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "agents.cli.train", "--algo", algo, "--run-dir", tmp,
               "--total-steps", str(steps), "--eval-games", "1", "--eval-every",
               str(10 * steps), "--progress", "false", "--tensorboard", "false", *extra]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stderr[-3000:]}")
        with open(Path(tmp) / "train.csv") as fh:
            rows = list(csv.DictReader(fh))
        return float(rows[-1]["steps_per_s"])


# the README quick start, as a user runs it
QUICK_START = """
import hon_env

env = hon_env.hour_of_need_v8.env(heroes=["majesty", "stride"], render_mode="ansi")
env.reset(seed=0)
for agent in env.agent_iter():
    obs, reward, terminated, truncated, info = env.last()
    if terminated or truncated:
        action = None
    else:
        legal = obs["action_mask"].nonzero()[0]
        action = int(legal[0])
    env.step(action)
print(info["outcome"], info["loss_reason"])
"""

WARM_ALL = ("import json, sys; from hon_env.warmup import warm; "
            "print(json.dumps(warm(('game', 'vector', 'rollout', 'agents'))))")


def _fresh_cache_run(code: str) -> tuple[float, str]:
    """Wall seconds and stdout of ``python -c code`` in a new process whose kernel cache
    folder is empty (the checkout's packages first)."""
    with tempfile.TemporaryDirectory() as cache:
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env["HON_ENV_CACHE_DIR"] = cache
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, check=True)
        return time.perf_counter() - t0, done.stdout


def bench_cold_start() -> tuple[float, dict[str, float]]:
    """Seconds of the README quick start on an empty kernel cache (interpreter start and
    imports included), and each kernel's first-call seconds on another empty cache."""
    quick_s, _ = _fresh_cache_run(QUICK_START)
    _, out = _fresh_cache_run(WARM_ALL)
    return quick_s, json.loads(out.strip().splitlines()[-1])
MAPPO_TEAM_STEPS = 8 * 32768  # a short run: the first update (compiles) is not timed
TEAM_TASKS = {1: "solo", 2: "duo", 3: "trio", 4: "quartet"}


def mappo_team(n_heroes: int) -> list[str]:
    """``hon-train`` flags for MAPPO with ``n_heroes`` heroes: the team-size task's games,
    else the fixed balance team (Majesty, Stride, Guerilla, Cipher, Vigil, Tinkerbolt)."""
    if not 1 <= n_heroes <= 6:
        raise SystemExit(f"--mappo-heroes must be in [1, 6], got {n_heroes}")
    if n_heroes in TEAM_TASKS:
        return ["--task", TEAM_TASKS[n_heroes]]
    team = ["majesty", "stride", "guerilla", "cipher", "vigil", "tinkerbolt"][:n_heroes]
    return ["--heroes", *team]


def mappo_row(n_heroes: int) -> str:
    where = (f"task `{TEAM_TASKS[n_heroes]}`" if n_heroes in TEAM_TASKS
             else f"{n_heroes} heroes")
    return f"MAPPO, `configs/train/mappo.yaml`, {where} ({n_heroes} heroes)"


def machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        cpu = next((ln.split(":", 1)[1].strip() for ln in out.splitlines()
                    if ln.startswith("Model name")), cpu)
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def parser() -> argparse.ArgumentParser:
    """hon-bench's command line (``--help`` lists every flag)."""
    p = argparse.ArgumentParser(prog="hon-bench", description=__doc__.split("\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--scenario", default="origin_story",
                   help="scenario id or path to a scenario YAML file")
    p.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    p.add_argument("--batches", type=int, nargs="*", default=[1, 64, 1024, 4096],
                   help="vector env batch sizes to measure")
    p.add_argument("--quick", action="store_true",
                   help="1 s per measurement, no training rows, no file")
    p.add_argument("--no-training", action="store_true", help="skip the training rows")
    p.add_argument("--no-cold-start", action="store_true",
                   help="skip the cold start rows (two fresh compiles, minutes)")
    p.add_argument("--cold-only", action="store_true",
                   help="only the cold start rows, printed (no file)")
    p.add_argument("--mappo-heroes", type=int, nargs="?", const=4, default=None,
                   metavar="N",
                   help="only measure MAPPO's training steps/s with N heroes (default N: 4; "
                        "task quartet for 4) and print it; nothing else, no file")
    p.add_argument("--sb3", action="store_true",
                   help="only measure MaskablePPO's steps/s (configs/train/ppo.yaml and "
                        "ppo_sb3.yaml) and print them; nothing else, no file")
    p.add_argument("--per-game-heroes", type=int, default=None, metavar="N",
                   help="only compare the vector env (largest --batches size) with N fixed "
                        "heroes against heroes='random' (a team per game), in alternating "
                        "pairs, and print it; nothing else, no file")
    p.add_argument("--compact-pairs", action="store_true",
                   help="only compare the vector env (largest --batches size) with full "
                        "observation rows against compact=True, in alternating pairs, and "
                        "print it; nothing else, no file")
    p.add_argument("--procgen", action="store_true",
                   help="only the generated-content rows (first use, a pool of 1,000)")
    p.add_argument("--against", default=None, metavar="REV",
                   help="only compare this checkout's vector env (the largest batch size) "
                        "with git revision REV's, in alternating pairs of CPU time on one "
                        "thread, and print it; nothing else, no file (REV compiles first, "
                        "minutes)")
    p.add_argument("--wall", action="store_true",
                   help="with --against: every numba thread and the wall clock (the row as "
                        "hon-bench measures it) rather than CPU time on one thread")
    p.add_argument("--pairs", type=int, default=4, help="with --against: pairs to measure")
    p.add_argument("--steps", type=int, default=120,
                   help="with --against: timed steps per measurement")
    p.add_argument("--encoding", default="compact", choices=sorted(ENCODINGS),
                   help="with --against: observations none, with the state, without it, "
                        "compact without it, or compact with the state's own sections")
    p.add_argument("--device", default="cpu",
                   help="torch device of the training rows (cpu, cuda, auto)")
    p.add_argument("--out", default=str(CHECKOUT_DOCS) if CHECKOUT_DOCS.exists() else None,
                   help="Markdown file the run's section goes into, replacing the "
                        "previous run's section only (None: print only; from a checkout: "
                        "its docs/benchmarks.md)")
    return p


def cold_start_lines() -> list[str]:
    """The cold start table: the README quick start and each kernel's first call."""
    quick_s, kernels = bench_cold_start()
    return ["| cold start, empty kernel cache | s |", "|---|---|",
            f"| README quick start, end to end | {quick_s:.1f} |",
            *[f"| first call of `{name}` | {s:.1f} |" for name, s in kernels.items()],
            f"| all kernels above | {sum(kernels.values()):.1f} |"]


def training_rows(dev: list[str]) -> list[tuple[str, float]]:
    """The trainers' env steps/s with their default configs (and three variations)."""
    return [
        ("MAPPO, `configs/train/mappo.yaml` (512-512, scripted labels each step)",
         bench_training("mappo", 16 * 32768, dev)),
        (mappo_row(4), bench_training("mappo", MAPPO_TEAM_STEPS, mappo_team(4) + dev)),
        # the width that reaches the 4-hero speed goal (docs/benchmark.md, "Four heroes")
        (f"{mappo_row(4)}, 256-256 networks",
         bench_training("mappo", MAPPO_TEAM_STEPS,
                        mappo_team(4) + ["--hidden", "256", "256", *dev])),
        ("MAPPO, 128-128 networks, no kickstarting",
         bench_training("mappo", 16 * 32768,
                        ["--hidden", "128", "128", "--kickstart-coef", "0", *dev])),
        *sb3_rows(),
    ]


def sb3_rows() -> list[tuple[str, float]]:
    """MaskablePPO's env steps/s on Origin Story: the default config and SB3's own networks
    and batch shape (``configs/train/ppo_sb3.yaml``), no warm start."""
    sb3 = str(TRAIN_CONFIGS_DIR / "ppo_sb3.yaml")
    return [
        ("MaskablePPO, `configs/train/ppo.yaml` (one shared live-input trunk 512-512, bf16 "
         "where fast, 1024 games x 32 steps, 4 epochs of 2048; no warm start)",
         bench_training("ppo", 8 * 32768, ["--pretrain-steps", "0"])),
        ("MaskablePPO, `configs/train/ppo_sb3.yaml` (SB3's own 512-512 MLPs, 256 games x 64 "
         "steps; no warm start)",
         bench_training("ppo", 8 * 16384, ["--config", sb3, "--pretrain-steps", "0"])),
    ]


# the block of a page that ``hon-bench`` owns: a page's other text is never rewritten
RUN_START = "<!-- hon-bench run: generated, replaced by the next run -->"
RUN_END = "<!-- end of hon-bench run -->"


def run_block(text: str, seconds: float, compile_s: float, per_game: int,
              peak_mb: float) -> str:
    """The markdown of one run: its tables and what they measure, between the markers."""
    try:
        precision = training_precision({"amp": "auto", "device": "cpu"})
    except ImportError:  # no `train` extra: torch is absent and no training row ran
        precision = "torch not installed"
    return (
        f"{RUN_START}\n"
        "## The latest `hon-bench` run\n\n"
        f"Measured by `hon-bench` (`python scripts/benchmark.py`) on {machine()}, all rows "
        "in one run "
        f"({seconds:g} s per row; random legal actions chosen inside the measurement, "
        "auto-reset included). Absolute numbers drift on shared machines; compare rows of "
        "one run.\n\n"
        f"{text}\n\n"
        f"- Numba compile or cache load before the first call: {compile_s:.1f} s "
        "(a first run on a new machine compiles for a few minutes, later runs load the "
        "cache).\n"
        f"- Memory per game kept by the vector env: {per_game / 1024:.1f} KiB "
        f"(state {L.STATE_LEN * 4} B, mask {L.N_ACTIONS} B, observation, final observation "
        f"and global state {(OBS_DIM * 2 + STATE_DIM) * 4} B); process peak RSS "
        f"{peak_mb:,.0f} MiB.\n"
        "- The AEC env encodes an observation for every `last()` call; the Game facade row "
        "plays without observations.\n"
        "- Training rows: the scripts with their default configs (`configs/train/`), "
        "rollouts and updates together, evaluation games left out; MAPPO's hidden layers "
        "run in bf16 on a GPU, where the CPU has AMX and on AMD CPUs with AVX-512 BF16 "
        f"(`amp: auto`; on this CPU: {precision}).\n"
        f"{RUN_END}\n")


def merge_run(page: str | None, block: str) -> str:
    """``page`` with ``block`` in place of its previous run's block, or appended when it
    has none; a new page when there is no page. Text outside the block is kept."""
    if page is None:
        return "# Benchmarks\n\n" + block
    start, end = page.find(RUN_START), page.find(RUN_END)
    if start >= 0 and end > start:
        return page[:start] + block + page[end + len(RUN_END):].lstrip("\n")
    if start >= 0 or end >= 0:
        raise ValueError(f"the page has one hon-bench marker without the other: restore "
                         f"{RUN_START!r} ... {RUN_END!r} or remove both")
    return page.rstrip("\n") + "\n\n" + block


def write_page(out: Path, text: str, seconds: float, compile_s: float, per_game: int,
               peak_mb: float) -> None:
    """Write one run's block into ``out`` (``merge_run``): a curated page such as
    docs/benchmarks.md keeps all its other sections."""
    page = out.read_text() if out.is_file() else None
    out.write_text(merge_run(page, run_block(text, seconds, compile_s, per_game, peak_mb)))
    print(f"wrote the run into {out} (its section 'The latest `hon-bench` run')")


def warm_up(sc) -> float:
    """Run every kernel the timed rows use once (compile, or load from the cache), so no
    row times a compile; returns the seconds it took."""
    t0 = time.perf_counter()
    g = Game(sc, seed=0)
    g.apply(int(g.legal_actions()[0]))
    g.observation()
    env = vector_env(2, scenario=sc)
    env.reset()
    env.step(env.sample_actions(np.random.default_rng(0)))
    # one whole episode of the AEC env, whose wrapper calls kernels of its own: a cold
    # cache would otherwise compile them inside the AEC row's timed seconds
    bench_aec(sc, 1e-3)
    return time.perf_counter() - t0


def tables_text(rows: list[tuple[str, str, float]], reference: str,
                render_rows: list[tuple[str, float]], train_rows: list[tuple[str, float]],
                cold_lines: list[str]) -> str:
    """The markdown tables of one run: front ends (then the reference row), renderers,
    training where measured, cold start where measured."""
    lines = [
        "| front end | observations | decisions/s |",
        "|---|---|---|",
        *[f"| {name} | {obs} | {rate:,.0f} |" for name, obs, rate in rows],
        reference,
    ]
    lines += ["", "| renderer, one frame | ms |", "|---|---|",
              *[f"| {name} | {ms:.1f} |" for name, ms in render_rows]]
    if train_rows:
        lines += ["", "| training, end to end | env steps/s |", "|---|---|",
                  *[f"| {name} | {rate:,.0f} |" for name, rate in train_rows]]
    if cold_lines:
        lines += ["", *cold_lines]
    return "\n".join(lines)


def check_args(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Usage errors for values argparse's types let through, before minutes of measuring."""
    if not args.seconds > 0 or args.seconds == float("inf"):
        p.error(f"--seconds must be a positive number of seconds, got {args.seconds}")
    if args.quick and args.seconds != p.get_default("seconds"):
        p.error("--quick measures 1 s per row: give --quick or --seconds, not both")
    if not args.batches or min(args.batches) < 1:
        p.error(f"--batches must list positive batch sizes, got {args.batches}")
    for flag, n in (("--mappo-heroes", args.mappo_heroes),
                    ("--per-game-heroes", args.per_game_heroes)):
        if n is not None and not 1 <= n <= 6:
            p.error(f"{flag} must be in [1, 6], got {n}")
    for flag, n in (("--pairs", args.pairs), ("--steps", args.steps)):
        if n < 1:
            p.error(f"{flag} must be a positive integer, got {n}")
    if args.wall and args.against is None:
        p.error("--wall changes how --against measures: give it with --against REV")
    try:
        check_device(args.device)
        load_scenario(args.scenario)
        if args.against is not None:
            resolve_commit(ROOT, args.against)
    except (ContentError, ValueError) as err:
        p.error(str(err))


def main(argv: list[str] | None = None) -> None:
    p = parser()
    args = p.parse_args(argv)
    check_args(p, args)
    dev = ["--device", args.device]
    if args.sb3:
        for row, rate in sb3_rows():
            print(f"| {row} | {rate:,.0f} |")
        return
    if args.mappo_heroes is not None:
        rate = bench_training("mappo", MAPPO_TEAM_STEPS, mappo_team(args.mappo_heroes) + dev)
        print(f"| {mappo_row(args.mappo_heroes)}, device {args.device} | {rate:,.0f} |")
        return
    seconds = 1.0 if args.quick else args.seconds
    if args.per_game_heroes is not None:
        print_per_game_heroes(args.scenario, args.per_game_heroes, max(args.batches), seconds)
        return
    if args.compact_pairs:
        print_compact_pairs(args.scenario, max(args.batches), seconds)
        return
    if args.procgen:
        print_procgen(1024, seconds)
        return
    if args.against is not None:
        print_against(ROOT, args.against, args.scenario, max(args.batches), args.steps,
                      args.pairs, args.encoding, args.wall)
        return
    cold_lines: list[str] = []
    if args.cold_only or not (args.quick or args.no_cold_start):
        cold_lines = cold_start_lines()
        if args.cold_only:
            print("\n".join(cold_lines))
            return
    sc = load_scenario(args.scenario)
    compile_s = warm_up(sc)
    aec = bench_aec(sc, seconds)
    reference = bench_reference(seconds)  # measured right after, on the same load
    rows = [("PettingZoo AEC env (wrapped)", "yes", aec),
            ("Game facade (batch 1)", "-", bench_game(sc, seconds))]
    # observations: none, with the whole global state (a critic of its own), without it
    # (IPPO, SB3), both cut to the scenario's live sections (compact=True), and with the
    # state's own sections only (MAPPO's default critic, which reads the observation too)
    encodings = (("no", False, True, False), ("yes", True, True, False),
                 ("yes, no global state", True, False, False), ("yes, compact", True, True, True),
                 ("yes, compact, no global state", True, False, True),
                 ("yes, compact, the state's own sections (MAPPO)", True, "tail", True))
    for b in args.batches:
        for label, obs, state, compact in encodings:
            rows.append((f"vector env, batch {b}", label,
                         bench_vector(sc, b, obs, seconds, global_state=state,
                                      compact=compact)))
    rows.append(("vector env + scripted team, batch 1024", "no",
                  bench_heuristic(sc, 1024, seconds)))
    render_rows = bench_render(sc, seconds)
    train_rows = [] if args.quick or args.no_training else training_rows(dev)
    per_game = (L.STATE_LEN * 4 + L.N_ACTIONS + (OBS_DIM * 2 + STATE_DIM) * 4 + 16 * 4)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    text = tables_text(rows, reference_row(aec, reference), render_rows, train_rows,
                       cold_lines)
    print(text)
    print(f"numba compile or cache load: {compile_s:.1f} s")
    print(f"memory per game (vector env arrays): {per_game / 1024:.1f} KiB; "
          f"process peak RSS {peak_mb:,.0f} MiB")
    if args.quick or not args.out:
        return
    write_page(Path(args.out), text, seconds, compile_s, per_game, peak_mb)


if __name__ == "__main__":
    main()
