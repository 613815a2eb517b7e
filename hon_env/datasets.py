"""Offline-RL datasets: trajectories of a policy on the Gymnasium env, in Minari's format
or as one ``.npz`` file.

Steps are those of ``hon_env/HourOfNeed-v8`` (one policy, whichever hero decides): per
episode ``N`` decisions,

    observations["observation"]  float32 [N + 1, OBS_DIM]   the deciding hero's view
    observations["action_mask"]  int8    [N + 1, N_ACTIONS] its legal actions
    actions                      int64   [N]
    rewards                      float32 [N]   team reward (+1 win, -1 loss, 0 otherwise)
    terminations, truncations    bool    [N]
    seats                        int8    [N]   the seat that decided (an info)

Observation ``k`` is the one the action ``k`` answered; the last one follows the final
action (Minari's convention). The mask rides in the observation (a ``Dict`` space) so a
dataset alone is enough to train a masked policy.

**Minari** (``pip install -e '.[data]'``): ``save_minari`` writes a dataset that
``minari.load_dataset(dataset_id)`` reads (under ``MINARI_DATASETS_PATH``, default
``~/.minari/datasets``); ``dataset.recover_environment()`` builds the env (without the
mask in the observation: take it from ``env.unwrapped.action_masks()``).

**npz** (no extra dependency): ``save_npz`` writes every episode concatenated,
``observation [T + E, OBS_DIM]``, ``action_mask [T + E, N_ACTIONS]`` (E episodes of
``N_e + 1`` observations each), ``actions``, ``rewards``, ``terminations``,
``truncations``, ``seats`` ``[T]``, ``episode_steps [E]`` (N_e), ``episode_seeds [E]``,
and ``meta`` (a JSON string: env id and kwargs, policy, format version). ``load_npz``
returns the episodes as dicts again.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from hon_env.checks import check_int, check_seed
from hon_env.core.observe import OBS_DIM
from hon_env.envs.gym_env import ENV_ID, HourOfNeedEnv
from hon_env.spec import layout as L

NPZ_VERSION = 1


def observation_space() -> spaces.Dict:
    """The dataset's observation space: the env's observation plus the legal mask."""
    return spaces.Dict({
        "observation": spaces.Box(0.0, np.inf, shape=(OBS_DIM,), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, shape=(L.N_ACTIONS,), dtype=np.int8),
    })


def collect(policy: Any, episodes: int, seed: int = 0,
            env_kwargs: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Play ``episodes`` games of ``HourOfNeedEnv(**env_kwargs)`` with ``policy`` (an
    ``agents`` policy: ``act(obs [1, D], masks [1, A], seats [1], engine)``), seeds
    ``seed``, ``seed + 1``...; returns one dict per episode (module documentation)."""
    episodes = check_int(episodes, "episodes")
    if episodes < 1:
        raise ValueError(f"episodes must be at least 1, got {episodes}")
    if not callable(getattr(policy, "act", None)):
        raise TypeError(f"policy must be an agents policy (an object with act(obs, masks, "
                        f"seats, engine); agents.load_policy makes one), got {policy!r}")
    seed = check_seed(seed, episodes)
    env = HourOfNeedEnv(**dict(env_kwargs or {}))
    out = []
    for ep in range(episodes):
        obs, info = env.reset(seed=seed + ep)
        observations, masks = [obs], [info["action_mask"]]
        actions, rewards, terms, truncs, seats = [], [], [], [], []
        done = False
        while not done:
            seat = env.game.current_seat
            a = int(policy.act(obs[None], info["action_mask"][None], np.array([seat]),
                               engine=env.game.engine)[0])
            obs, reward, terminated, truncated, info = env.step(a)
            observations.append(obs)
            masks.append(info["action_mask"])
            actions.append(a)
            rewards.append(reward)
            terms.append(terminated)
            truncs.append(truncated)
            seats.append(seat)
            done = terminated or truncated
        out.append({
            "seed": seed + ep,
            "observations": {"observation": np.asarray(observations, np.float32),
                             "action_mask": np.asarray(masks, np.int8)},
            "actions": np.asarray(actions, np.int64),
            "rewards": np.asarray(rewards, np.float32),
            "terminations": np.asarray(terms, bool),
            "truncations": np.asarray(truncs, bool),
            "seats": np.asarray(seats, np.int8),
        })
    return out


# --------------------------------------------------------------------------- npz

def save_npz(episodes: list[dict[str, Any]], path: str | Path,
             meta: Mapping[str, Any] | None = None) -> Path:
    """Write ``episodes`` (``collect`` output) as one compressed ``.npz``."""
    if not episodes:
        raise ValueError("no episodes to save: collect at least one")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    cat = np.concatenate
    header = {"format": "hon_env.dataset", "version": NPZ_VERSION, "env_id": ENV_ID,
              **dict(meta or {})}
    np.savez_compressed(
        path,
        observation=cat([e["observations"]["observation"] for e in episodes]),
        action_mask=cat([e["observations"]["action_mask"] for e in episodes]),
        actions=cat([e["actions"] for e in episodes]),
        rewards=cat([e["rewards"] for e in episodes]),
        terminations=cat([e["terminations"] for e in episodes]),
        truncations=cat([e["truncations"] for e in episodes]),
        seats=cat([e["seats"] for e in episodes]),
        episode_steps=np.array([len(e["actions"]) for e in episodes], np.int64),
        episode_seeds=np.array([e["seed"] for e in episodes], np.int64),
        meta=np.array(json.dumps(header)))
    return path


def load_npz(path: str | Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The episodes and the meta dict of a ``save_npz`` file.

    Raises:
        FileNotFoundError: no file at ``path``.
        ValueError: the file is not a dataset of this version (another ``.npz``, a ``.npy``,
            anything else).
    """
    try:
        z = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise
    except (OSError, ValueError, zipfile.BadZipFile) as err:
        raise ValueError(f"{path}: not a hon_env dataset (.npz from save_npz): {err}") from err
    if not isinstance(z, np.lib.npyio.NpzFile) or "meta" not in z.files:
        raise ValueError(f"{path}: not a hon_env dataset (.npz from save_npz): no 'meta' "
                         "record")
    with z:
        meta = json.loads(str(z["meta"]))
        if meta.get("format") != "hon_env.dataset" or meta.get("version") != NPZ_VERSION:
            raise ValueError(f"{path}: not a hon_env dataset of version {NPZ_VERSION} "
                             f"(meta {meta})")
        data = {k: z[k] for k in z.files if k != "meta"}
    episodes = []
    o = s = 0
    for n, seed in zip(data["episode_steps"], data["episode_seeds"], strict=True):
        n = int(n)
        episodes.append({
            "seed": int(seed),
            "observations": {"observation": data["observation"][o:o + n + 1],
                             "action_mask": data["action_mask"][o:o + n + 1]},
            **{k: data[k][s:s + n] for k in ("actions", "rewards", "terminations",
                                              "truncations", "seats")},
        })
        o += n + 1
        s += n
    return episodes, meta


# --------------------------------------------------------------------------- Minari

def save_minari(episodes: list[dict[str, Any]], dataset_id: str,
                env_kwargs: Mapping[str, Any] | None = None, algorithm_name: str = "",
                description: str = "") -> Any:
    """Write ``episodes`` as the Minari dataset ``dataset_id`` and return it.

    Built from episode buffers (``minari.create_dataset_from_buffers``), so Minari's
    ``DataCollector`` and its extra dependencies are not needed.
    """
    import minari
    from minari.data_collector import EpisodeBuffer

    buffers = [EpisodeBuffer(
        id=i, seed=e["seed"], observations=dict(e["observations"]), actions=e["actions"],
        rewards=list(e["rewards"]), terminations=list(e["terminations"]),
        truncations=list(e["truncations"]), infos={"seat": e["seats"]})
        for i, e in enumerate(episodes)]
    env = gymnasium.make(ENV_ID, **dict(env_kwargs or {}))
    try:
        return minari.create_dataset_from_buffers(
            dataset_id=dataset_id, buffer=buffers, env=env.spec,
            observation_space=observation_space(), action_space=env.action_space,
            eval_env=env.spec, algorithm_name=algorithm_name or None,
            description=description or f"hon_env trajectories ({algorithm_name or 'policy'})",
            author="hon_env", code_permalink="scripts/record_dataset.py")
    finally:
        env.close()


def minari_episodes(dataset: Any) -> list[dict[str, Any]]:
    """The episodes of a Minari dataset as dicts (``collect``'s layout)."""
    out = []
    for ep in dataset.iterate_episodes():
        out.append({"seed": ep.id, "observations": dict(ep.observations),
                    "actions": np.asarray(ep.actions, np.int64),
                    "rewards": np.asarray(ep.rewards, np.float32),
                    "terminations": np.asarray(ep.terminations, bool),
                    "truncations": np.asarray(ep.truncations, bool),
                    "seats": np.asarray(ep.infos["seat"], np.int8) if ep.infos else None})
    return out
