"""Shrink a MAPPO/IPPO training checkpoint to the actor that plays it (float16), the form
shipped in ``agents/pretrained/`` and loaded by ``load_policy("mappo:TASK")``.

    python scripts/export_checkpoint.py runs/duo_s1/final.pt agents/pretrained/mappo_duo.pt
"""

import argparse
import sys
from pathlib import Path

# the checkout's packages, not whichever copy is installed
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.checkpoints import export_actor  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("src", help="a checkpoint written by hon-train --algo mappo|ippo")
    p.add_argument("dst", help="where to write the actor-only checkpoint")
    p.add_argument("--float32", action="store_true", help="keep float32 weights")
    args = p.parse_args(argv)
    out = export_actor(args.src, args.dst, half=not args.float32)
    size = Path(args.dst).stat().st_size / 2**20
    print(f"{args.dst}: actor of {args.src} (step {out.get('global_step')}), {size:.1f} MiB")


if __name__ == "__main__":
    main()
