"""Record trajectories of the scripted team (or any policy) as an offline-RL dataset.

    python scripts/record_dataset.py --policy heuristic --episodes 200 --out data/heur.npz
    python scripts/record_dataset.py --policy runs/mappo/model.pt --episodes 100 \\
        --minari hon_env/origin_story/mappo-v0            # Minari (pip install -e '.[data]')
    python scripts/record_dataset.py --heroes majesty stride --episodes 50 --out duo.npz

Steps are those of the Gymnasium env (one decision each, whichever hero decides); the
legal mask is stored with every observation. Formats: ``hon_env/datasets.py``. Train on
one: ``python scripts/train_bc.py data/heur.npz`` (behaviour cloning).
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from agents.registry import load_policy
from hon_env.datasets import collect, save_minari, save_npz


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--policy", default="heuristic", help="heuristic, random or a checkpoint")
    p.add_argument("--episodes", type=int, default=100)
    p.add_argument("--seed", type=int, default=0, help="first episode seed (then +1, +2...)")
    p.add_argument("--scenario", default="origin_story")
    p.add_argument("--heroes", nargs="+", default=None)
    p.add_argument("--villain", default=None)
    p.add_argument("--issue", default=None)
    p.add_argument("--rules", default=None, help="optional rules as JSON")
    p.add_argument("--out", default=None, help="write an .npz file here")
    p.add_argument("--minari", default=None, metavar="DATASET_ID",
                   help="write a Minari dataset with this id, e.g. hon_env/origin_story/"
                        "heuristic-v0 (under MINARI_DATASETS_PATH)")
    args = p.parse_args(argv)
    if not args.out and not args.minari:
        p.error("give --out FILE.npz and/or --minari DATASET_ID")
    env_kwargs = {"scenario": args.scenario}
    for key in ("heroes", "villain", "issue"):
        if getattr(args, key) is not None:
            env_kwargs[key] = getattr(args, key)
    if args.rules:
        env_kwargs["rules"] = json.loads(args.rules)
    episodes = collect(load_policy(args.policy, seed=args.seed), args.episodes, args.seed,
                       env_kwargs)
    steps = sum(len(e["actions"]) for e in episodes)
    wins = sum(float(e["rewards"].sum()) > 0 for e in episodes)
    print(f"{len(episodes)} episodes, {steps} steps, {wins} wins "
          f"(mean return {np.mean([e['rewards'].sum() for e in episodes]):+.3f})")
    if args.out:
        path = save_npz(episodes, args.out, {"policy": args.policy, "env_kwargs": env_kwargs,
                                             "seed": args.seed})
        print(f"wrote {path}")
    if args.minari:
        ds = save_minari(episodes, args.minari, env_kwargs, algorithm_name=args.policy)
        print(f"wrote Minari dataset {args.minari}: {ds.total_episodes} episodes, "
              f"{ds.total_steps} steps")


if __name__ == "__main__":
    main()
