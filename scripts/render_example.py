"""Render a mid-game position to a PNG (and its text board to stdout).

    python scripts/render_example.py                       # docs/img/midgame.png
    python scripts/render_example.py --seed 3 --actions 40 --out /tmp/pos.png

The position is ``Game(scenario, seed)`` after ``--actions`` uniformly random legal
actions drawn from ``numpy.random.default_rng(seed)``, so the same arguments always give
the same picture. The defaults (seed 1, 42 actions, two Majesty seats) show every kind of
marker: both heroes, the villain in a panel, a lackey, a peril token, bystanders and an
issue card, during a hero's turn menu.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np

from hon_env import Game, load_scenario
from hon_env.views import render_ansi, render_rgb

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scenario", default="origin_story", help="scenario id or YAML path")
    p.add_argument("--heroes", nargs="*", default=["majesty", "majesty"], help="hero ids")
    p.add_argument("--seed", type=int, default=1, help="game seed (also seeds the policy)")
    p.add_argument("--actions", type=int, default=42, help="random legal actions to play")
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "midgame.png")
    p.add_argument("--dpi", type=int, default=100)
    args = p.parse_args()

    game = Game(load_scenario(args.scenario, heroes=args.heroes), seed=args.seed)
    rng = np.random.default_rng(args.seed)
    last = None
    for _ in range(args.actions):
        if game.is_over:
            break
        action = int(rng.choice(game.legal_actions()))
        last = game.action_to_string(action)
        game.apply(action)
    print(render_ansi(game))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    mpimg.imsave(args.out, render_rgb(game, dpi=args.dpi, last_action=last))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
