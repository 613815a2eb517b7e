"""Behaviour cloning from recorded games: datasets, Minari, or replays (human games included).

    python scripts/record_dataset.py --policy heuristic --episodes 200 --out data/heur.npz
    python scripts/train_bc.py data/heur.npz --steps 500
    python scripts/train_bc.py --minari hon_env/origin_story/heuristic-v0
    python scripts/train_bc.py --replays replays/ --players human --save runs/proxy.pt

Trains an actor (``--network mlp | entity``) to predict the recorded actions from the
recorded observations and masks (``agents.training.bc``), prints the loss and the share
of actions it matches on the training episodes and on held-out ones, and with ``--save``
writes a checkpoint ``load_policy`` plays (``hon-eval --policy runs/proxy.pt``). Replays
(``hon-play`` saves them) are played again on the engine; ``--players human`` keeps only
the seats people played, so recorded human games become a human-proxy partner.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

# the checkout's packages, not whichever copy is installed
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.training.bc import (  # noqa: E402
    behaviour_cloning,
    replay_episodes,
    save_checkpoint,
    transitions,
)
from hon_env.datasets import load_npz, minari_episodes  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("npz", nargs="*", type=Path, help="datasets from record_dataset.py --out")
    p.add_argument("--minari", default=None, metavar="DATASET_ID", help="a Minari dataset")
    p.add_argument("--replays", nargs="+", default=None, metavar="PATH",
                   help="replay files or folders of *.json replays")
    p.add_argument("--players", nargs="+", default=None,
                   help="with --replays: clone only the seats these players played "
                        "(e.g. human)")
    p.add_argument("--network", choices=("mlp", "entity"), default="mlp")
    p.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--heldout", type=float, default=0.1,
                   help="share of the episodes kept out of training and scored")
    p.add_argument("--save", type=Path, default=None,
                   help="write the cloned actor as a checkpoint load_policy plays")
    p.add_argument("--half", action="store_true", help="save float16 weights (shipping)")
    args = p.parse_args(argv)
    if args.players and not args.replays:
        p.error("--players filters replays: give --replays too")
    episodes, sources = [], {}
    for path in args.npz:
        eps, meta = load_npz(path)
        episodes += eps
        sources[str(path)] = {"episodes": len(eps), "policy": meta.get("policy"),
                              "env_kwargs": meta.get("env_kwargs")}
    if args.minari:
        import minari

        eps = minari_episodes(minari.load_dataset(args.minari))
        episodes += eps
        sources[args.minari] = {"episodes": len(eps)}
    if args.replays:
        eps = replay_episodes(args.replays, args.players)
        episodes += eps
        sources["replays"] = {"episodes": len(eps), "players": args.players}
    if not episodes:
        p.error("give recorded games: FILE.npz, --minari DATASET_ID or --replays PATH")
    try:
        data = transitions(episodes)
        result = behaviour_cloning(data, args.steps, args.batch, args.hidden, args.lr,
                                   args.seed, args.network, args.heldout)
    except ValueError as exc:
        raise SystemExit(f"train_bc.py: {exc}") from None
    k = max(1, len(result.losses) // 10)
    print(f"{len(data)} decisions from {len(episodes)} episodes; training loss "
          f"{np.mean(result.losses[:k]):.3f} -> {np.mean(result.losses[-k:]):.3f}; matches "
          f"{result.train_accuracy:.1%} of the training decisions", end="")
    if np.isfinite(result.heldout_accuracy):
        print(f", {result.heldout_accuracy:.1%} of the held-out episodes' "
              f"(cross-entropy {result.heldout_loss:.3f})")
    else:
        print()
    if args.save:
        save_checkpoint(result, args.save, half=args.half, source=sources)
        print(f"wrote {args.save} (load_policy({str(args.save)!r}))")


if __name__ == "__main__":
    main()
