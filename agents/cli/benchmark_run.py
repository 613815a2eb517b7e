"""Train and evaluate one benchmark row: a task, a trainer configuration, several seeds.

    python scripts/benchmark_run.py --task solo --row mappo_nokick --seeds 1 2 3 4 5 \
        -- --kickstart-coef 0
    python scripts/benchmark_run.py --task duo --row mappo_entity --seeds 1 -- --network entity

For each seed it runs ``hon-train --task TASK --seed S --run-dir runs/<task>_<row>_s<S>``
with the flags after ``--`` (the trainer's own config file supplies the rest), then
evaluates the final policy on the task's 1,000 evaluation games and writes
``docs/benchmark/<task>/<row>_s<S>.json``: the result of ``hon-eval --task`` plus a
``training`` entry that says what the row is made of -- the algorithm, the network, the
prior knowledge (``kickstart``: ``coordinated`` when the actor imitated the coordinated
scripted team early on, ``clone NM`` when N million of its decisions warm-started the
actor, else ``none``; ``reward``: ``shaped`` with event shaping, else
``sparse``), the steps, steps/s, wall-clock, the machine (with the precision its hidden
layers trained in, ``bf16`` or ``float32``) and the command that reproduces it.
``scripts/benchmark_table.py`` builds docs/benchmark.md from those files.

Seeds run one after another (each trainer uses every core), or ``--parallel N`` at a
time, each with its share of the cores (torch and numba threads: cores / N), as on a GPU
machine whose one device serves several seeds; the machine entry says so. A seed whose
result file exists is skipped, so an interrupted row resumes where it stopped. Stopping the
runner (SIGTERM, as ``kill`` sends it, or Ctrl-C) stops the trainers and evaluations it
started, so no orphan goes on writing into a run folder.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import shlex
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "docs" / "benchmark"


def prior_knowledge(config: dict) -> dict[str, str]:
    """The ``kickstart`` and ``reward`` labels of a run from its saved ``config.yaml``.
    ``kickstart``: ``coordinated`` (imitated in the PPO loss early on), ``clone NM`` (N
    million of its decisions cloned before the first update), both joined by `` + ``, or
    ``none``."""
    kicks = ["coordinated"] if float(config.get("kickstart_coef") or 0) > 0 else []
    if int(config.get("pretrain_steps") or 0) > 0:
        kicks.append(f"clone {int(config['pretrain_steps']) / 1e6:g}M")
    kick = " + ".join(kicks) or "none"
    shaping = config.get("reward_shaping") or {}
    reward = "shaped" if any(float(v) != 0 for v in shaping.values()) else "sparse"
    return {"kickstart": kick, "reward": reward}


def training_precision(config: dict) -> str:
    """What a run's hidden layers trained in on this machine, from its saved config:
    ``bf16`` (autocast) or ``float32``. ``amp: auto`` depends on the CPU or GPU
    (``agents.networks.mlp.bf16_is_fast``), so a row records what it resolved to."""
    from agents.networks.mlp import resolve_amp
    from agents.training.mappo import pick_device

    amp = config.get("amp", "false")
    if isinstance(amp, bool):  # YAML reads a bare false/true as a bool
        amp = "true" if amp else "false"
    device = pick_device(str(config.get("device", "cpu")))
    return "bf16" if resolve_amp(str(amp), device) else "float32"


def machine(device: str) -> str:
    """A one-line description of where a run trained."""
    from agents.training.mappo import pick_device

    cpu = platform.processor() or platform.machine()
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    # "auto": what the trainer's pick_device chose
    return f"{os.cpu_count()} cores ({cpu}), torch {pick_device(device).type}"


def git_commit() -> str:
    """The short commit the code runs at (``-dirty`` when tracked files differ), or "-"."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                              capture_output=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=ROOT, text=True, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "-"
    return head + ("-dirty" if dirty.strip() else "")


def training_entry(run_dir: Path, wall_s: float, command: str, at_once: int = 1) -> dict:
    """The ``training`` entry of a finished run in ``run_dir`` (``at_once``: seeds that
    trained side by side on the machine)."""
    config = yaml.safe_load((run_dir / "config.yaml").read_text())
    rows = list(csv.DictReader(open(run_dir / "train.csv")))
    if not rows:
        raise RuntimeError(f"{run_dir}/train.csv has no update rows")
    last = rows[-1]
    # MaskablePPO's config has no algo field; its runs end in a .zip
    algo = config.get("algo") or ("ppo" if (run_dir / "final.zip").exists() else "mappo")
    return {"algo": algo, "network": config.get("network", "mlp"),
            **prior_knowledge(config), "seed": int(config["seed"]),
            "steps": int(float(last["step"])), "steps_per_s": round(float(last["steps_per_s"])),
            "wall_s": round(wall_s, 1),
            "machine": f"{machine(str(config.get('device', 'cpu')))} "
                       f"{training_precision(config)}" + (
                f", {at_once} seeds at once, {config.get('threads')} threads each"
                if at_once > 1 else ""),
            "command": command, "commit": git_commit(),
            "by": os.environ.get("HON_ENV_RESULT_BY", "hon_env")}


class Children:
    """The trainers and evaluations a runner started, stopped with it: ``run`` is
    ``subprocess.run(check=True)`` from any thread; ``stop``, installed as the SIGTERM
    handler, terminates every child still running and exits."""

    def __init__(self) -> None:
        self.running: set[subprocess.Popen] = set()
        self.lock = threading.Lock()

    def run(self, cmd: list[str], **kwargs: object) -> None:
        proc = subprocess.Popen(cmd, **kwargs)  # type: ignore[call-overload]
        with self.lock:
            self.running.add(proc)
        try:
            code = proc.wait()
        except BaseException:  # stopped (the handler raised here) or interrupted: reap it
            proc.terminate()
            proc.wait()
            raise
        finally:
            with self.lock:
                self.running.discard(proc)
        if code:
            raise subprocess.CalledProcessError(code, cmd)

    def stop(self, signum: int = signal.SIGTERM, frame: object = None) -> None:
        """Terminate every running child and exit (each ``run`` reaps its own)."""
        with self.lock:
            procs = list(self.running)
        for proc in procs:
            proc.terminate()
        raise SystemExit(128 + signum)


CHILDREN = Children()


def share_of_cores(at_once: int) -> int:
    """Threads for each of ``at_once`` seeds training side by side (at least 1)."""
    return max(1, (os.cpu_count() or 1) // at_once)


def run_seed(task: str, row: str, seed: int, flags: list[str], python: str,
             out: Path | None = None, run_dir: Path | None = None, at_once: int = 1,
             trained: bool = False) -> Path:
    """Train and evaluate one seed; returns its result file. ``at_once`` > 1: the seed
    shares the machine with others, on its share of the cores. ``trained``: the run folder
    holds a finished run of ``flags`` already; evaluate it only (its wall-clock: from its
    ``config.yaml`` to its final checkpoint)."""
    out = out or RESULTS / task / f"{row}_s{seed}.json"
    run_dir = run_dir or ROOT / "runs" / f"{task}_{row}_s{seed}"
    # hon-train itself, the command the result records: its --algo picks the trainer
    train = [python, "-m", "agents.cli.train", "--task", task, "--seed", str(seed),
             "--run-dir", str(run_dir), "--progress", "false", *flags]
    env = None
    if at_once > 1:  # the engine's threads and torch's on this seed's share of the cores
        threads = share_of_cores(at_once)
        train += ["--threads", str(threads)]
        env = {**os.environ, "NUMBA_NUM_THREADS": str(threads),
               "OMP_NUM_THREADS": str(threads)}
    start = time.perf_counter()
    if not trained:
        CHILDREN.run(train, cwd=ROOT, env=env)
    wall = time.perf_counter() - start
    final = run_dir / "final.pt"
    if not final.exists():
        final = run_dir / "final.zip"
    if trained:
        if not final.exists():
            raise SystemExit(f"{run_dir}: no final.pt or final.zip to evaluate (--trained)")
        wall = final.stat().st_mtime - (run_dir / "config.yaml").stat().st_mtime
    tmp = out.with_suffix(".eval.json")
    CHILDREN.run([python, str(ROOT / "scripts" / "evaluate.py"), "--task", task, "--policy",
                  str(final.relative_to(ROOT)), "--json", str(tmp)], cwd=ROOT, env=env)
    result = json.loads(tmp.read_text())
    tmp.unlink()
    command = " ".join(["hon-train", "--task", task, "--seed", "S", *map(shlex.quote, flags)])
    result["training"] = training_entry(run_dir, wall, command, at_once)
    out.write_text(json.dumps(result, indent=1) + "\n")
    return out


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else list(argv)
    flags: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, flags = argv[:cut], argv[cut + 1:]
    p = argparse.ArgumentParser(prog="python scripts/benchmark_run.py",
                                description=__doc__.split("\n")[0])
    p.add_argument("--task", required=True, help="benchmark task (configs/tasks)")
    p.add_argument("--row", required=True,
                   help="the row's name: result files are <row>_s<seed>.json (lowercase "
                        "letters, digits and underscores)")
    p.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    p.add_argument("--python", default=sys.executable, help="interpreter for the trainer")
    p.add_argument("--parallel", type=int, default=1, metavar="N",
                   help="train N seeds at a time, each on cores / N threads (a GPU machine: "
                        "the seeds share its device)")
    p.add_argument("--reproduce", action="store_true",
                   help="train existing seeds again from their recorded command and mark each "
                        "result file reproduced when the new win rate lies in its Wilson "
                        "interval (and the old one in the new interval)")
    p.add_argument("--trained", action="store_true",
                   help="the run folders runs/<task>_<row>_s<seed> hold finished runs of the "
                        "flags after -- already: evaluate them only")
    args = p.parse_args(argv)
    from hon_env.tasks import list_tasks

    if args.task not in list_tasks():
        p.error(f"--task: unknown task {args.task!r}; tasks: {', '.join(list_tasks())}")
    if not args.row.replace("_", "").isalnum() or args.row != args.row.lower():
        p.error(f"--row must be lowercase letters, digits and underscores, got {args.row!r}")
    if args.parallel < 1:
        p.error(f"--parallel must be at least 1, got {args.parallel}")
    if args.parallel > 1 and "--threads" in flags:
        p.error("--parallel sets each seed's --threads; do not pass it after --")
    (RESULTS / args.task).mkdir(parents=True, exist_ok=True)
    signal.signal(signal.SIGTERM, CHILDREN.stop)
    todo = []
    for seed in args.seeds:
        out = RESULTS / args.task / f"{args.row}_s{seed}.json"
        if args.reproduce:
            reproduce(out, args.task, args.row, seed, args.python)
        elif out.exists():
            print(f"{out.relative_to(ROOT)} exists: seed {seed} skipped", flush=True)
        else:
            todo.append(seed)
    at_once = min(args.parallel, max(1, len(todo)))

    def one(seed: int) -> None:
        path = run_seed(args.task, args.row, seed, flags, args.python, at_once=at_once,
                        trained=args.trained)
        print(f"wrote {path.relative_to(ROOT)}", flush=True)

    with ThreadPoolExecutor(max_workers=at_once) as pool:
        for done in [pool.submit(one, seed) for seed in todo]:
            done.result()  # a failed seed fails the row (the others finish first)


def reproduce(out: Path, task: str, row: str, seed: int, python: str) -> None:
    """Rerun seed ``seed`` of a row from the flags of its recorded command and record in
    its result file whether the new result agrees (the scoreboard's "reproduced")."""
    if not out.exists():
        raise SystemExit(f"{out.relative_to(ROOT)}: no result to reproduce")
    old = json.loads(out.read_text())
    command = old.get("training", {}).get("command", "")
    words = shlex.split(command)
    if words[:1] != ["hon-train"] or "--seed" not in words:
        raise SystemExit(f"{out.relative_to(ROOT)}: no hon-train command to reproduce")
    at = words.index("--seed")
    flags = words[1:at] + words[at + 2:]
    flags = [w for i, w in enumerate(flags)
             if w != "--task" and (i == 0 or flags[i - 1] != "--task")]
    new_path = run_seed(task, row, seed, flags, python, out.with_suffix(".reproduced.json"),
                        ROOT / "runs" / f"{task}_{row}_s{seed}_reproduced")
    new = json.loads(new_path.read_text())
    new_path.unlink()
    match = (old["ci_low"] <= new["win_rate"] <= old["ci_high"]
             and new["ci_low"] <= old["win_rate"] <= new["ci_high"])
    old["reproduced"] = {"match": bool(match), "win_rate": new["win_rate"],
                         "ci_low": new["ci_low"], "ci_high": new["ci_high"],
                         "commit": new["training"]["commit"],
                         "machine": new["training"]["machine"]}
    out.write_text(json.dumps(old, indent=1) + "\n")
    print(f"{out.relative_to(ROOT)}: {'reproduced' if match else 'differs'} "
          f"({old['win_rate']:.3f} then {new['win_rate']:.3f})", flush=True)


if __name__ == "__main__":
    main()
