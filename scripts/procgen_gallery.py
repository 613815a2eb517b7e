"""Draw a few generated boards, mid-game, into one picture (docs/procgen.md).

    python scripts/procgen_gallery.py                      # docs/img/procgen_boards.png
    python scripts/procgen_gallery.py --seeds 1 2 3 4 --out /tmp/boards.png

Each panel is generated seed ``s`` (sizes cycling small, medium, large, medium) after
``--actions`` uniformly random legal actions drawn from ``numpy.random.default_rng(s)``:
the same arguments always give the same picture.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hon_env import Game  # noqa: E402
from hon_env.content.procgen import Knobs, generated_scenario  # noqa: E402
from hon_env.views import render_rgb  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SIZES = ("small", "medium", "large", "medium")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seeds", type=int, nargs="+", default=[3, 7, 21, 42])
    p.add_argument("--actions", type=int, default=25)
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "procgen_boards.png")
    args = p.parse_args()
    cols = 2
    rows = (len(args.seeds) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(8 * cols, 6 * rows), squeeze=False)
    for ax, (k, seed) in zip(axes.flat, enumerate(args.seeds), strict=False):
        sc = generated_scenario(seed, ["majesty", "stride"], Knobs(0.5, SIZES[k % 4]))
        game = Game(sc, seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(args.actions):
            if game.is_over:
                break
            game.apply(int(rng.choice(game.legal_actions())))
        ax.imshow(render_rgb(game, dpi=80))
        ax.set_title(f"seed {seed} ({SIZES[k % 4]}): {sc.issue_name} vs {sc.villain_name}")
        ax.axis("off")
    for ax in axes.flat[len(args.seeds):]:
        ax.axis("off")
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=60)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
