"""How MAPPO's env steps/s scale with processes, cores and GPUs on one machine.

    python scripts/scaling.py --task quartet --layouts 1x8 2x8 1x16 4x4 1x16@cuda 4x4@cuda

A layout ``RxC[@cuda]`` is ``R`` training processes (``torchrun`` ranks when ``R`` > 1,
``agents/training/distributed.py``) of ``C`` cores each (numba's and torch's threads),
training on the CPU or on CUDA (ranks then share the machine's GPUs, ``gpu_share``).
Layouts using fewer than all cores are pinned to the first ``R x C`` of them (``taskset``),
so ``2x8`` against ``1x8`` is what a second rank adds on cores the first left free. Each
layout trains ``hon-train --task TASK`` with ``--num-envs`` games per rank for
``--updates`` timed updates after an untimed first one (it also loads the kernels), no
warm start and no evaluation until the end; the table gives rank 0's steps/s
(``train.csv``, all ranks' steps) and its rollout and learning seconds per update.
Warm the kernel cache first (``python -m hon_env.warmup --agents``), or the first layout
pays for the compile. The flags after ``--`` go to every ``hon-train``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

LAYOUT = re.compile(r"(\d+)x(\d+)(@cuda|@cpu)?")


@dataclass(frozen=True)
class Layout:
    """``ranks`` processes of ``cores`` cores each, training on ``device``."""

    ranks: int
    cores: int
    device: str

    @classmethod
    def parse(cls, text: str) -> Layout:
        m = LAYOUT.fullmatch(text)
        if m is None or int(m[1]) < 1 or int(m[2]) < 1:
            raise argparse.ArgumentTypeError(
                f"layout {text!r}: RANKSxCORES with an optional @cuda, e.g. 2x8 or 4x4@cuda")
        return cls(int(m[1]), int(m[2]), (m[3] or "@cpu")[1:])

    @property
    def name(self) -> str:
        return f"{self.ranks}x{self.cores}" + ("@cuda" if self.device == "cuda" else "")


def command(layout: Layout, task: str, num_envs: int, num_steps: int, updates: int,
            run_dir: Path, flags: list[str], machine_cores: int) -> tuple[list[str], dict]:
    """The command line and environment variables that train ``layout``."""
    steps = (updates + 1) * layout.ranks * num_envs * num_steps
    train = ["-m", "agents.cli.train", "--task", task, "--device", layout.device,
             "--threads", str(layout.cores), "--num-envs", str(num_envs),
             "--num-steps", str(num_steps), "--total-steps", str(steps),
             "--pretrain-steps", "0", "--eval-every", str(10 * steps), "--eval-games", "8",
             "--checkpoint-every", str(10 * steps), "--run-dir", str(run_dir), *flags]
    cmd = [sys.executable, *train]
    if layout.ranks > 1:
        cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone",
               "--nproc_per_node", str(layout.ranks), *train]
    used = layout.ranks * layout.cores
    if used < machine_cores and shutil.which("taskset"):
        cmd = ["taskset", "-c", f"0-{used - 1}", *cmd]
    env = {"NUMBA_NUM_THREADS": str(layout.cores), "OMP_NUM_THREADS": str(layout.cores)}
    if layout.device == "cpu":
        env["CUDA_VISIBLE_DEVICES"] = ""
    return cmd, env


def measure(run_dir: Path) -> dict[str, float]:
    """Rank 0's steps/s after the first update and its mean rollout and learning seconds
    per timed update, from ``train.csv``."""
    rows = list(csv.DictReader(open(run_dir / "train.csv")))[1:]
    if not rows:
        raise RuntimeError(f"{run_dir}/train.csv has no timed update")
    def mean(key: str) -> float:
        return sum(float(r[key]) for r in rows) / len(rows)

    return {"steps_per_s": float(rows[-1]["steps_per_s"]), "rollout_s": mean("rollout_s"),
            "learn_s": mean("learn_s")}


def table(results: list[dict]) -> str:
    """The markdown table of the measured layouts, each against the first."""
    lines = ["| layout | ranks x cores | trains on | env steps/s | x first | rollout s / update "
             "| learning s / update |", "|---|---|---|---|---|---|---|"]
    base = results[0].get("steps_per_s") if results else None
    for r in results:
        if "error" in r:
            lines.append(f"| `{r['layout']}` | | | failed: {r['error']} | | | |")
            continue
        ratio = f"{r['steps_per_s'] / base:.2f}" if base else "-"
        lines.append(f"| `{r['layout']}` | {r['ranks']} x {r['cores']} | {r['device']} | "
                     f"{r['steps_per_s']:,.0f} | {ratio} | {r['rollout_s']:.2f} | "
                     f"{r['learn_s']:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else list(argv)
    flags = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    p = argparse.ArgumentParser(prog="scripts/scaling.py", description=__doc__.split("\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--task", default="quartet", help="benchmark task to train")
    p.add_argument("--layouts", type=Layout.parse, nargs="+", required=True,
                   help="RANKSxCORES[@cuda] each, e.g. 1x8 2x8 4x4@cuda")
    p.add_argument("--num-envs", type=int, default=1024, help="games per rank")
    p.add_argument("--num-steps", type=int, default=32, help="steps per game per update")
    p.add_argument("--updates", type=int, default=6, help="timed updates per layout")
    p.add_argument("--out", type=Path, default=Path("runs/scaling"),
                   help="a run folder per layout, and results.json")
    p.add_argument("--timeout", type=float, default=600, help="seconds per layout")
    args = p.parse_args(argv)
    for flag in ("num_envs", "num_steps", "updates"):
        if getattr(args, flag) < 1:
            p.error(f"--{flag.replace('_', '-')} must be at least 1, got {getattr(args, flag)}")
    if not args.timeout > 0:
        p.error(f"--timeout must be positive, got {args.timeout}")
    cores = os.cpu_count() or 1
    for layout in args.layouts:
        if layout.ranks * layout.cores > cores:
            p.error(f"layout {layout.name} needs {layout.ranks * layout.cores} cores; "
                    f"this machine has {cores}")
    from agents.cli.benchmark import machine

    args.out.mkdir(parents=True, exist_ok=True)
    results: list[dict] = []
    report = {"task": args.task, "num_envs": args.num_envs, "num_steps": args.num_steps,
              "updates": args.updates, "machine": machine(), "flags": flags,
              "results": results}
    for layout in args.layouts:
        run_dir = args.out / layout.name.replace("@", "_")
        shutil.rmtree(run_dir, ignore_errors=True)
        cmd, env = command(layout, args.task, args.num_envs, args.num_steps, args.updates,
                           run_dir, flags, cores)
        entry: dict = {"layout": layout.name, "ranks": layout.ranks, "cores": layout.cores,
                       "device": layout.device, "command": " ".join(cmd)}
        t0 = time.perf_counter()
        try:
            done = subprocess.run(cmd, env={**os.environ, **env}, capture_output=True,
                                  text=True, timeout=args.timeout)
            run_dir.mkdir(parents=True, exist_ok=True)
            (run_dir / "log.txt").write_text(done.stdout + done.stderr)
            if done.returncode != 0:
                tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["?"]
                raise RuntimeError(f"exit {done.returncode}: {tail[0][:200]}")
            entry.update(measure(run_dir))
        except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
            entry["error"] = str(e).replace("|", "/")
        entry["wall_s"] = round(time.perf_counter() - t0, 1)
        results.append(entry)
        # after every layout: a run cut short keeps what it measured
        (args.out / "results.json").write_text(json.dumps(report, indent=1) + "\n")
        print(f"{layout.name}: " + (entry.get("error") or
                                    f"{entry['steps_per_s']:,.0f} env steps/s"), flush=True)
    print(f"\n{report['machine']}, task {args.task}, {args.num_envs} games x "
          f"{args.num_steps} steps per rank per update\n")
    print(table(results))


if __name__ == "__main__":
    main()
