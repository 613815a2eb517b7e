"""Checks of the values users hand to the engine: actions, batches of actions, seeds.

Every front end (``Game``, the PettingZoo and Gymnasium envs, ``VectorEnv``, the SB3
adapter) calls these, so a bad value gets the same error everywhere:

- only integers count: Python ``int`` or a numpy integer; ``bool``, floats (even ``2.0``),
  strings and ``None`` are a ``TypeError`` naming the value; an action may also be a 0-d
  integer array (what Stable-Baselines3's ``predict`` returns for one observation), as
  ``gymnasium.spaces.Discrete.contains`` accepts;
- an action outside ``[0, N_ACTIONS)`` is an ``IllegalActionError`` naming it and the range;
- a seed outside ``[0, 2**63)`` (less the room a vector env needs, see ``check_seed``) is a
  ``ValueError`` naming it and the range.

Nothing is coerced: ``2.7``, ``"5"`` and ``True`` are refused, not rounded or parsed.
"""

from __future__ import annotations

import operator
import os
from collections.abc import Mapping
from typing import Any

import numpy as np

from hon_env.spec.layout import N_ACTIONS

SEED_LIMIT = 2**63  # the engine seeds each game from a signed 64-bit integer
EPISODE_ROOM = 2**32  # episodes per game a vector env's seeds leave room for (seed_span)
MAX_NUM_ENVS = 2**24  # games per vector env (far beyond memory: a state row is ~10 kB)


class IllegalActionError(ValueError):
    """An action outside the action range or the pending decision's legal mask."""


def _describe(value: Any) -> str:
    """``value`` as errors show it: its repr (cut short) and its type."""
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({type(value).__name__})"


def check_int(value: Any, name: str, allowed: str = "") -> int:
    """``value`` as a Python int when it is a Python or numpy integer (not a bool).

    Raises:
        TypeError: naming ``name``, the value and ``allowed`` (e.g. ``" in [0, 425)"``),
            for anything else (floats included).
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer{allowed} (int or numpy integer), got "
                        f"{_describe(value)}")
    return operator.index(value)


def as_action(action: Any) -> int:
    """``action`` as a Python int; ``TypeError`` naming it unless it is an integer.

    The range is not checked (``check_action`` does): front ends in ``"penalize"`` mode
    treat an integer out of range as an illegal action, not a type error. A 0-d array of an
    integer dtype counts as its integer: Gymnasium's ``Discrete`` space holds it, and
    ``predict`` of Stable-Baselines3 returns one for a single observation.
    """
    if (isinstance(action, np.ndarray) and action.shape == () and action.dtype != np.bool_
            and np.issubdtype(action.dtype, np.integer)):
        action = action[()]
    return check_int(action, "action", f" in [0, {N_ACTIONS})")


def check_action(action: Any) -> int:
    """``action`` as a Python int in ``[0, N_ACTIONS)``.

    Raises:
        TypeError: ``action`` is not an integer (``bool`` and floats included).
        IllegalActionError: it is an integer outside ``[0, N_ACTIONS)``.
    """
    a = as_action(action)
    if not 0 <= a < N_ACTIONS:
        raise IllegalActionError(f"action {a} is out of range: actions are integers in "
                                 f"[0, {N_ACTIONS})")
    return a


def check_actions(actions: Any, num_envs: int) -> np.ndarray:
    """One action per game as an int64 ``[num_envs]`` array (values not range-checked).

    Accepts any array-like of integer dtype and shape ``(num_envs,)``; the range and the
    legal masks are the vector env's to check (``"penalize"`` mode accepts any integer).

    Raises:
        TypeError: the dtype is not an integer one (floats, bools, objects, strings).
        ValueError: the shape is not ``(num_envs,)``.
    """
    arr = np.asarray(actions)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        sample = arr.reshape(-1)[:3].tolist() if arr.size else []
        raise TypeError(f"actions must be an integer array (one action in [0, {N_ACTIONS}) "
                        f"per game), got dtype {arr.dtype} (first values {sample})")
    if arr.shape != (num_envs,):
        raise ValueError(f"actions must have shape ({num_envs},), one per game, got "
                         f"{arr.shape}")
    return arr.astype(np.int64, copy=False)


def legal_in_masks(actions: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """bool [B]: ``actions[i]`` (int [B], any integer) is in ``[0, N_ACTIONS)`` and allowed
    by ``masks[i]`` (int8 [B, N_ACTIONS]); what the batched front ends check before a step."""
    in_range = (actions >= 0) & (actions < N_ACTIONS)
    legal = np.zeros(len(actions), bool)
    legal[in_range] = masks[np.flatnonzero(in_range), actions[in_range]] == 1
    return legal


def check_seed(seed: Any, span: int = 1) -> int:
    """``seed`` as a Python int with room for ``span`` consecutive seeds below ``2**63``.

    ``span`` is how many seeds from ``seed`` on the caller will use: 1 for one game,
    ``seed_span(num_envs)`` for a vector env (game i, episode k plays ``seed + i + k * B``).

    Raises:
        TypeError: ``seed`` is not an integer (``bool`` and floats included).
        ValueError: ``seed`` is outside ``[0, 2**63 - span]``.
    """
    s = check_int(seed, "seed")
    high = SEED_LIMIT - span
    if not 0 <= s <= high:
        room = "" if span == 1 else f" (2**63 - {span}: room for the seeds the batch uses)"
        raise ValueError(f"seed must be an integer in [0, {high}]{room}, got {s}")
    return s


def check_reset_options(options: Any) -> None:
    """``reset(options=...)`` must be None or a mapping; the single-game envs ignore what it
    holds (PettingZoo's own API test resets with ``options={"options": 1}``).

    Raises:
        TypeError: ``options`` is neither None nor a mapping.
    """
    if options is not None and not isinstance(options, Mapping):
        raise TypeError(f"reset options must be a dict or None, got {_describe(options)}")


def check_seed_array(seeds: Any) -> np.ndarray:
    """``seeds`` (one per game) as an int64 [B] array of seeds in ``[0, 2**63)``.

    Raises:
        TypeError: not an integer array (floats are not truncated, bools not counted).
        ValueError: not one-dimensional, or a seed outside ``[0, 2**63)``.
    """
    arr = np.asarray(seeds)
    if arr.dtype == np.bool_ or not (np.issubdtype(arr.dtype, np.integer) or arr.size == 0):
        raise TypeError(f"seeds must be an integer array, got dtype {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"seeds must be one-dimensional (one seed per game), got shape "
                         f"{arr.shape}")
    if arr.size and (arr.min() < 0 or (arr.dtype == np.uint64 and arr.max() >= SEED_LIMIT)):
        bad = arr[(arr < 0) | (arr.astype(np.uint64) >= SEED_LIMIT)][:5].tolist()
        raise ValueError(f"seeds must lie in [0, 2**63), got {bad}")
    return arr.astype(np.int64)


def seed_span(num_envs: int) -> int:
    """Seeds a vector env of ``num_envs`` games uses from its base seed: ``EPISODE_ROOM``
    episodes per game (``VectorEnv`` refuses to step past them)."""
    return num_envs * EPISODE_ROOM


def batch_bytes(num_envs: int, observations: bool = True, global_state: bool = True) -> int:
    """Bytes a vector env of ``num_envs`` games allocates for its arrays: the state rows,
    masks and, when encoded, the observations (twice: the step's and the final ones) and
    the global states (float32)."""
    from hon_env.spec.layout import STATE_LEN
    from hon_env.spec.obs_features import OBS_DIM, STATE_DIM

    per_game = 4 * STATE_LEN + N_ACTIONS + 64
    if observations:
        per_game += 2 * 4 * OBS_DIM
    if global_state:
        per_game += 4 * STATE_DIM
    return num_envs * per_game


def physical_memory() -> int | None:
    """This machine's memory in bytes (None where the OS does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def check_batch_memory(num_envs: int, observations: bool = True,
                       global_state: bool = True) -> None:
    """Refuse (``ValueError`` naming ``num_envs``) a batch whose arrays alone would not fit
    in this machine's memory, before any is allocated."""
    need, have = batch_bytes(num_envs, observations, global_state), physical_memory()
    if have is not None and need > have:
        per = need // num_envs
        raise ValueError(f"num_envs={num_envs:,} needs about {need / 2**30:,.1f} GiB for its "
                         f"arrays ({per:,} bytes a game), more than this machine's "
                         f"{have / 2**30:,.1f} GiB; use at most {have // per:,} games "
                         "(observations=False or global_state=False need less)")


def check_num_envs(num_envs: Any) -> int:
    """``num_envs`` as a Python int in ``[1, MAX_NUM_ENVS]``; ``TypeError``/``ValueError``
    naming it."""
    n = check_int(num_envs, "num_envs")
    if not 1 <= n <= MAX_NUM_ENVS:
        raise ValueError(f"num_envs must be a positive integer at most 2**24, got {n}")
    return n
