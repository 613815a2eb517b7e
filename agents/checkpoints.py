"""Loading MAPPO checkpoints safely: tensors and plain data only, errors that name the file.

``torch.load`` runs with ``weights_only=True``: a checkpoint holds nothing but tensors,
dicts, lists, strings and numbers (what ``scripts/train_mappo.py`` saves), so loading one
cannot execute code. Every failure is a ``CheckpointError`` naming the path and what was
wrong: missing, empty, not a PyTorch file, holding other objects, missing keys, trained on
other observation/action sizes, or weights that do not fit the network.
"""

from __future__ import annotations

import pickle
import zipfile
from pathlib import Path
from typing import Any

import torch

from hon_env.core.observe import OBS_DIM
from hon_env.envs.pettingzoo_env import METADATA
from hon_env.spec.layout import N_ACTIONS

ENV_NAME = METADATA["name"]
# checkpoints whose actor ``MappoPolicy`` plays: trained by MAPPO/IPPO, or cloned
# (``agents.training.bc``)
PLAYABLE_ALGOS = ("mappo", "bc")
REQUIRED_KEYS = ("algo", "obs_dim", "n_actions", "config", "actor")


class CheckpointError(ValueError):
    """A checkpoint that cannot be loaded; the message names the file and the reason."""


def require_file(path: str | Path) -> Path:
    """``path`` as a ``Path`` to an existing, non-empty file; ``CheckpointError`` otherwise."""
    p = Path(path)
    if not p.exists():
        raise CheckpointError(f"{p}: no such checkpoint file")
    if not p.is_file():
        raise CheckpointError(f"{p}: not a file")
    if p.stat().st_size == 0:
        raise CheckpointError(f"{p}: the checkpoint file is empty")
    return p


def load_checkpoint(path: str | Path, device: str | torch.device = "cpu",
                    algo: str | tuple[str, ...] = "mappo",
                    allow_prefix: bool = False) -> dict[str, Any]:
    """The checkpoint dict in ``path`` (tensors on ``device``), checked for ``algo`` (one
    name or several accepted ones), the required keys and this env's observation and
    action sizes (or, with ``allow_prefix``, those of an earlier version in
    ``PREFIX_VERSIONS``)."""
    algos = (algo,) if isinstance(algo, str) else tuple(algo)
    p = require_file(path)
    try:
        ckpt = torch.load(p, map_location=device, weights_only=True)
    except pickle.UnpicklingError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CheckpointError(
            f"{p}: refused: a checkpoint may hold only tensors and plain data "
            f"(weights_only loading), or the file is not a PyTorch checkpoint ({first})"
        ) from exc
    except Exception as exc:  # garbage bytes fail anywhere in the unpickler (KeyError...)
        raise CheckpointError(f"{p}: not a readable PyTorch checkpoint (truncated or not "
                              f"saved by torch.save): {type(exc).__name__}: "
                              f"{str(exc)[:200]}") from exc
    if not isinstance(ckpt, dict):
        raise CheckpointError(f"{p}: expected a dict of checkpoint entries, got "
                              f"{type(ckpt).__name__}")
    missing = [k for k in REQUIRED_KEYS if k not in ckpt]
    if missing:
        raise CheckpointError(f"{p}: not a {' or '.join(algos)} checkpoint: missing keys "
                              f"{missing}")
    if ckpt["algo"] not in algos:
        raise CheckpointError(f"{p}: a {ckpt['algo']!r} checkpoint, not "
                              f"{' or '.join(map(repr, algos))}")
    check_spaces(p, ckpt["obs_dim"], ckpt["n_actions"], allow_prefix)
    return ckpt


# earlier env versions whose observation and action spaces are prefixes of this version's
# (the later versions only appended observation sections and action segments): a policy
# trained on one plays this version by reading that prefix (``MappoPolicy``)
PREFIX_VERSIONS: dict[str, tuple[int, int]] = {"hour_of_need_v3": (2247, 409),
                                                "hour_of_need_v4": (2448, 409),
                                                "hour_of_need_v5": (3481, 409),
                                                "hour_of_need_v6": (4428, 456)}


def check_spaces(path: str | Path, obs_dim: Any, n_actions: Any,
                 allow_prefix: bool = False) -> None:
    """Refuse a checkpoint trained on other observation or action sizes (an older env
    version) with a message that says so, instead of a shape error deep in torch. With
    ``allow_prefix``, the sizes of a version in ``PREFIX_VERSIONS`` are accepted."""
    if (obs_dim, n_actions) == (OBS_DIM, N_ACTIONS):
        return
    if allow_prefix and (obs_dim, n_actions) in PREFIX_VERSIONS.values():
        return
    raise CheckpointError(
        f"{path} was trained on observations of {obs_dim} floats and {n_actions} actions; "
        f"this hon_env ({ENV_NAME}) has {OBS_DIM} and {N_ACTIONS}: retrain it")


def load_weights(path: str | Path, module: torch.nn.Module, state: Any, what: str) -> None:
    """``module.load_state_dict(state)``; a mismatch is a ``CheckpointError`` naming ``path``."""
    try:
        module.load_state_dict(state)
    except (RuntimeError, TypeError, AttributeError, ValueError, KeyError) as exc:
        raise CheckpointError(f"{path}: the {what} weights do not fit the network: "
                              f"{' '.join(str(exc).split())[:300]}") from exc


SHIPPED_KEYS = ("algo", "config", "global_step", "obs_dim", "n_actions", "actor")


def export_actor(src: str | Path, dst: str | Path, half: bool = True) -> dict[str, Any]:
    """Write the playing part of the MAPPO/IPPO checkpoint ``src`` to ``dst``: the actor's
    weights (float16 when ``half``: a 512-512 actor is then about 3 MB) and the entries
    ``load_policy`` reads. The critic, value normaliser and optimizer state stay behind, so
    the file plays but cannot resume training (``--resume`` says so). Returns what was saved."""
    ckpt = load_checkpoint(src, "cpu", algo=PLAYABLE_ALGOS)
    out = {k: ckpt[k] for k in SHIPPED_KEYS if k in ckpt}
    out["actor"] = {k: (v.half() if half and v.is_floating_point() else v)
                    for k, v in ckpt["actor"].items()}
    Path(dst).parent.mkdir(parents=True, exist_ok=True)
    torch.save(out, dst)
    return out


def sb3_safe_objects(path: Path, **training: Any) -> dict[str, Any]:
    """``custom_objects`` for ``MaskablePPO.load`` that replace every pickled entry of a
    .zip checkpoint's parameters, so SB3 unpickles nothing (its weights load with
    ``weights_only=True``). ``training`` overrides replacements (e.g. ``clip_range`` when
    resuming). An entry we cannot replace is a ``CheckpointError``."""
    import json

    import numpy as np
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    try:
        with zipfile.ZipFile(path) as archive:
            data = json.loads(archive.read("data").decode("utf-8"))
    except (zipfile.BadZipFile, KeyError, UnicodeDecodeError, ValueError, OSError) as exc:
        raise CheckpointError(f"{path}: not a MaskablePPO .zip checkpoint (no readable "
                              f"'data' entry: {type(exc).__name__}: {exc})") from exc
    if not isinstance(data, dict):
        raise CheckpointError(f"{path}: its 'data' entry is not a mapping")
    replacements: dict[str, Any] = {
        "policy_class": MaskableActorCriticPolicy,
        "observation_space": spaces.Box(-np.inf, np.inf, shape=(OBS_DIM,), dtype=np.float32),
        "action_space": spaces.Discrete(N_ACTIONS),
        # schedules only matter for training on; evaluation never reads them
        "learning_rate": 0.0, "lr_schedule": lambda _: 0.0, "clip_range": 0.2,
        "clip_range_vf": None,
        # training state SB3 rebuilds (or chooses the default for) when None
        "_last_obs": None, "_last_original_obs": None, "_last_episode_starts": None,
        "ep_info_buffer": None, "ep_success_buffer": None, "rollout_buffer_class": None,
    }
    network = data.get("network")
    if isinstance(network, dict):  # the entity extractor's kwargs, rebuilt from plain data
        from agents.networks.sb3 import sb3_policy_kwargs

        try:
            replacements["policy_kwargs"] = sb3_policy_kwargs(network)
        except (KeyError, TypeError, ValueError) as exc:
            raise CheckpointError(f"{path}: its network record {network!r} is not valid: "
                                  f"{exc}") from exc
    replacements.update(training)
    pickled = [k for k, v in data.items() if isinstance(v, dict) and ":serialized:" in v]
    unknown = [k for k in pickled if k not in replacements]
    if unknown:
        raise CheckpointError(f"{path}: refused: entries {unknown} are pickled objects; "
                              "loading them could run code")
    return {k: replacements[k] for k in pickled}
