"""Trained policies behind the ``Policy`` interface: MAPPO (.pt) and MaskablePPO (.zip).

A .pt checkpoint loads with ``weights_only=True`` (``agents.checkpoints``). A .zip is
sb3-contrib's format: its pickled parameters (spaces, policy class, schedules) are replaced
by this env's (``sb3_safe_objects``) instead of unpickled, and its weights load with
``weights_only=True``; a .zip with any other pickled entry is refused.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import torch

from agents.checkpoints import (
    PLAYABLE_ALGOS,
    CheckpointError,
    check_spaces,
    load_checkpoint,
    load_weights,
    require_file,
    sb3_safe_objects,
)
from agents.networks import build_actor, sample
from agents.policy import Engine
from hon_env.core.observe import OBS_DIM
from hon_env.spec.layout import N_ACTIONS


class MappoPolicy:
    """The actor of a ``scripts/train_mappo.py`` checkpoint.

    A checkpoint of an earlier env version whose spaces are a prefix of this version's
    (``agents.checkpoints.PREFIX_VERSIONS``) reads the first ``obs_dim`` floats of each
    observation and chooses among the first ``n_actions`` actions; in a decision whose legal
    actions all lie beyond them (a variant's new segment) it takes the first legal action.
    """

    name = "mappo"

    def __init__(self, actor: torch.nn.Module, device: str = "cpu", greedy: bool = True,
                 seed: int = 0, spaces: tuple[int, int] = (OBS_DIM, N_ACTIONS)) -> None:
        self.actor = actor.to(device).eval()
        self.spaces = spaces  # (observation floats, actions) the actor was trained on
        self.device = torch.device(device)
        self.greedy = greedy
        self.gen = torch.Generator(device=self.device).manual_seed(seed)

    @classmethod
    def load(cls, path: str | Path, device: str = "cpu", greedy: bool = True,
             seed: int = 0) -> MappoPolicy:
        """The actor of the MAPPO checkpoint at ``path`` (tensors and plain data only:
        ``agents.checkpoints``); a ``CheckpointError`` names the file and what was wrong."""
        ckpt = load_checkpoint(path, device, algo=PLAYABLE_ALGOS, allow_prefix=True)
        config = ckpt["config"] if isinstance(ckpt["config"], dict) else {}
        try:  # the network the checkpoint's config names (mlp or entity)
            actor = build_actor(config, ckpt["obs_dim"], ckpt["n_actions"])
        except ValueError as exc:
            raise CheckpointError(f"{path}: {exc}") from None
        load_weights(path, actor, ckpt["actor"], "actor")
        return cls(actor, device, greedy, seed, (ckpt["obs_dim"], ckpt["n_actions"]))

    @torch.no_grad()
    def act(self, observations: np.ndarray, masks: np.ndarray, seats: np.ndarray,
            engine: Engine | None = None) -> np.ndarray:
        n_obs, n_act = self.spaces
        obs = torch.as_tensor(observations[:, :n_obs], device=self.device)
        mask = torch.as_tensor(masks[:, :n_act], device=self.device).bool()
        known = mask.any(-1)
        mask[~known, 0] = True  # rows answered below; keeps log_probs finite
        logp = self.actor.log_probs(obs, mask)
        a = logp.argmax(-1) if self.greedy else sample(logp, self.gen)
        out = a.cpu().numpy().astype(np.int64)
        for row in np.flatnonzero(~known.cpu().numpy()):
            out[row] = int(np.flatnonzero(masks[row])[0])
        return out


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

        path = require_file(path)
        if not zipfile.is_zipfile(path):
            raise CheckpointError(f"{path}: not a MaskablePPO .zip checkpoint (not a zip file)")
        safe = sb3_safe_objects(path)  # nothing in the file is unpickled
        try:
            model = MaskablePPO.load(str(path), device=device, custom_objects=safe)
        except (KeyError, ValueError, RuntimeError, EOFError, zipfile.BadZipFile) as exc:
            raise CheckpointError(f"{path}: cannot load the MaskablePPO checkpoint: "
                                  f"{type(exc).__name__}: {str(exc)[:200]}") from exc
        check_spaces(path, model.observation_space.shape[0], model.action_space.n)
        model.set_random_seed(seed)
        return cls(model, greedy)

    def act(self, observations: np.ndarray, masks: np.ndarray, seats: np.ndarray,
            engine: Engine | None = None) -> np.ndarray:
        actions, _ = self.model.predict(observations, action_masks=masks.astype(bool),
                                        deterministic=self.greedy)
        return np.asarray(actions, np.int64).reshape(len(masks))
