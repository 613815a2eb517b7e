"""A MaskablePPO smoke run shared by the network tests: train a tiny run, load its .zip
by path (nothing unpickled), play one legal batch, resume it."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from agents.registry import load_policy
from hon_env import vector_env


def train_play_resume(tmp_path: Path, network_args: list[str]):
    """Train 256 steps with ``network_args``, check the loaded policy plays legal actions,
    resume to 512 steps; returns the loaded policy (its SB3 model in ``.model``)."""
    from agents.cli import train_ppo

    run = tmp_path / "ppo"
    args = ["--run-dir", str(run), "--total-steps", "256", "--num-envs", "16",
            "--n-steps", "8", "--batch-size", "64", "--n-epochs", "1", "--pretrain-steps",
            "0", "--eval-every", "256", "--eval-games", "2", "--checkpoint-every", "256",
            "--progress", "false", "--tensorboard", "false", *network_args]
    train_ppo.main(args)
    policy = load_policy(str(run / "final.zip"))
    env = vector_env(4, seed=0, global_state=False)
    obs, _ = env.reset()
    a = policy.act(obs["observation"], obs["action_mask"], obs["agent"])
    assert obs["action_mask"][np.arange(4), a].all()
    train_ppo.main(args + ["--resume", str(run / "final.zip"), "--run-dir",
                           str(tmp_path / "resumed"), "--total-steps", "512"])
    assert (tmp_path / "resumed" / "final.zip").exists()
    return policy
