"""Behaviour cloning on a recorded dataset: the loader example for offline RL.

    python scripts/record_dataset.py --policy heuristic --episodes 200 --out data/heur.npz
    python scripts/train_bc.py data/heur.npz --steps 500
    python scripts/train_bc.py --minari hon_env/origin_story/heuristic-v0

Trains the project's actor (``agents.networks.Actor``, masked logits) to predict the
recorded actions from the recorded observations and masks, and prints the loss and the
share of actions it matches. ``--save`` writes the actor's weights.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import torch

from agents.networks import Actor
from hon_env.datasets import load_npz, minari_episodes


def transitions(episodes: list[dict]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(observations [T, D], masks [T, A], actions [T]): each action with the observation
    and mask it answered (the final observation of each episode is dropped)."""
    obs = np.concatenate([e["observations"]["observation"][:-1] for e in episodes])
    masks = np.concatenate([e["observations"]["action_mask"][:-1] for e in episodes])
    actions = np.concatenate([e["actions"] for e in episodes])
    return obs, masks.astype(bool), actions


def behaviour_cloning(episodes: list[dict], steps: int = 200, batch: int = 256,
                      hidden: tuple[int, ...] = (256, 256), lr: float = 1e-3,
                      seed: int = 0) -> tuple[Actor, list[float], float]:
    """Train an actor on ``episodes``; returns it, the loss per step and the accuracy."""
    obs, masks, actions = transitions(episodes)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    actor = Actor(obs.shape[1], masks.shape[1], list(hidden))
    opt = torch.optim.Adam(actor.parameters(), lr=lr)
    o, m, a = torch.from_numpy(obs), torch.from_numpy(masks), torch.from_numpy(actions)
    losses = []
    for _ in range(steps):
        idx = torch.from_numpy(rng.integers(0, len(a), min(batch, len(a))))
        logp = actor.log_probs(o[idx], m[idx])
        loss = -logp.gather(1, a[idx, None]).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(float(loss.detach()))
    with torch.no_grad():
        accuracy = float((actor.log_probs(o, m).argmax(-1) == a).float().mean())
    return actor, losses, accuracy


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("npz", nargs="?", type=Path, help="dataset from record_dataset.py --out")
    p.add_argument("--minari", default=None, metavar="DATASET_ID", help="a Minari dataset")
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--save", type=Path, default=None, help="write the actor's state_dict")
    args = p.parse_args(argv)
    if args.minari:
        import minari

        episodes = minari_episodes(minari.load_dataset(args.minari))
    elif args.npz:
        episodes, _ = load_npz(args.npz)
    else:
        p.error("give a dataset: FILE.npz or --minari DATASET_ID")
    actor, losses, acc = behaviour_cloning(episodes, args.steps, args.batch)
    k = max(1, len(losses) // 10)
    print(f"{sum(len(e['actions']) for e in episodes)} transitions; loss "
          f"{np.mean(losses[:k]):.3f} -> {np.mean(losses[-k:]):.3f}; matches {acc:.1%} of "
          "the recorded actions")
    if args.save:
        torch.save(actor.state_dict(), args.save)
        print(f"wrote {args.save}")


if __name__ == "__main__":
    main()
