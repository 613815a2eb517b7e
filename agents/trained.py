"""Trained policies behind the ``Policy`` interface: MAPPO (.pt) and MaskablePPO (.zip)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from agents.networks import Actor, sample
from agents.policy import Engine
from hon_env.core.layout import N_ACTIONS
from hon_env.core.observe import OBS_DIM
from hon_env.envs.pettingzoo_env import METADATA

ENV_NAME = METADATA["name"]


class MappoPolicy:
    """The actor of a ``scripts/train_mappo.py`` checkpoint."""

    name = "mappo"

    def __init__(self, actor: Actor, device: str = "cpu", greedy: bool = True,
                 seed: int = 0) -> None:
        self.actor = actor.to(device).eval()
        self.device = torch.device(device)
        self.greedy = greedy
        self.gen = torch.Generator(device=self.device).manual_seed(seed)

    @classmethod
    def load(cls, path: str | Path, device: str = "cpu", greedy: bool = True,
             seed: int = 0) -> MappoPolicy:
        ckpt = torch.load(path, map_location=device, weights_only=False)
        if ckpt.get("algo") != "mappo":
            raise ValueError(f"{path} is not a MAPPO checkpoint")
        check_spaces(path, ckpt["obs_dim"], ckpt["n_actions"])
        actor = Actor(ckpt["obs_dim"], ckpt["n_actions"], list(ckpt["config"]["hidden"]))
        actor.load_state_dict(ckpt["actor"])
        return cls(actor, device, greedy, seed)

    @torch.no_grad()
    def act(self, observations: np.ndarray, masks: np.ndarray, seats: np.ndarray,
            engine: Engine | None = None) -> np.ndarray:
        obs = torch.as_tensor(observations, device=self.device)
        mask = torch.as_tensor(masks, device=self.device).bool()
        logp = self.actor.log_probs(obs, mask)
        a = logp.argmax(-1) if self.greedy else sample(logp, self.gen)
        return a.cpu().numpy().astype(np.int64)


def check_spaces(path: str | Path, obs_dim: int, n_actions: int) -> None:
    """Refuse a checkpoint trained on other observation or action sizes (an older env
    version) with a message that says so, instead of a shape error deep in torch."""
    if (obs_dim, n_actions) != (OBS_DIM, N_ACTIONS):
        raise ValueError(
            f"{path} was trained on observations of {obs_dim} floats and {n_actions} actions; "
            f"this hon_env ({ENV_NAME}) has {OBS_DIM} and {N_ACTIONS}: retrain it")


class PpoPolicy:
    """A ``scripts/train_ppo.py`` MaskablePPO checkpoint (sb3-contrib)."""

    name = "ppo"

    def __init__(self, model, greedy: bool = True) -> None:
        self.model = model
        self.greedy = greedy

    @classmethod
    def load(cls, path: str | Path, device: str = "cpu", greedy: bool = True,
             seed: int = 0) -> PpoPolicy:
        from sb3_contrib import MaskablePPO

        model = MaskablePPO.load(str(path), device=device)
        check_spaces(path, model.observation_space.shape[0], model.action_space.n)
        model.set_random_seed(seed)
        return cls(model, greedy)

    def act(self, observations: np.ndarray, masks: np.ndarray, seats: np.ndarray,
            engine: Engine | None = None) -> np.ndarray:
        actions, _ = self.model.predict(observations, action_masks=masks.astype(bool),
                                        deterministic=self.greedy)
        return np.asarray(actions, np.int64).reshape(len(masks))
