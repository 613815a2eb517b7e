"""The compact observation and state: the full vectors cut where a scenario's live
sections end.

The variant sections that only the Two Fronts and Draft rules write come last in the
observation (``two_fronts``, ``two_fronts_seats``, ``two_fronts_spaces``,
``villain2_cards``, then ``draft``, ``draft_pool``, ``draft_pass``), and a game without
the rule leaves them at zero. A compact observation of ``width`` floats is the full one's
first ``width`` floats; the floats it leaves out are zero in every game it is used for.
The compact state is the same cut of seat 0's observation followed by the state's own
sections (``hands``, ``villain_hand``) unchanged:

    full observation  [0, width) [width, OBS_DIM)          (the second part all zero)
    compact obs       [0, width)
    full state        [0, width) [width, OBS_DIM) [OBS_DIM, STATE_DIM)
    compact state     [0, width)                  [OBS_DIM, STATE_DIM)

So an observation feature keeps its index (``feature_index``) and a state feature past the
observation moves ``OBS_DIM - width`` floats forward (``state_index``); ``expand_obs`` and
``expand_state`` give back the full vectors (a policy trained on full observations reads
compact ones through them).
"""

from __future__ import annotations

import numpy as np

from hon_env.spec.obs_features import OBS_DIM, OFF_DRAFT, OFF_TWO_FRONTS, STATE_DIM, STATE_TAIL


def live_obs_dim(two_fronts: bool, draft: bool) -> int:
    """Width of the compact observation of games with or without the Two Fronts and Draft
    rules: every section such a game can write, in order."""
    if draft:
        return OBS_DIM
    return OFF_DRAFT if two_fronts else OFF_TWO_FRONTS


def state_dim(obs_width: int) -> int:
    """Width of the compact state whose observation part is ``obs_width`` floats."""
    return _check_width(obs_width) + STATE_TAIL


def state_index(full_index: int, obs_width: int) -> int:
    """Index in the compact state of the full state's float ``full_index`` (one that a
    compact state holds: below ``obs_width`` or from ``OBS_DIM`` on)."""
    _check_width(obs_width)
    if isinstance(full_index, bool) or not isinstance(full_index, (int, np.integer)):
        raise TypeError(f"full_index must be an int, got {full_index!r}")
    if 0 <= full_index < obs_width:
        return full_index
    if OBS_DIM <= full_index < STATE_DIM:
        return full_index - (OBS_DIM - obs_width)
    raise IndexError(f"state float {full_index} is not in a compact state whose observation "
                     f"part is {obs_width} floats")


def expand_obs(obs: np.ndarray) -> np.ndarray:
    """Full observations ``[..., OBS_DIM]`` of compact ones ``[..., width]`` (zero-filled)."""
    obs = _as_rows(obs)
    width = _check_width(obs.shape[-1])
    out = np.zeros(obs.shape[:-1] + (OBS_DIM,), obs.dtype)
    out[..., :width] = obs
    return out


def expand_state(state: np.ndarray) -> np.ndarray:
    """Full states ``[..., STATE_DIM]`` of compact ones ``[..., width + STATE_TAIL]``."""
    state = _as_rows(state)
    width = _check_width(state.shape[-1] - STATE_TAIL)
    out = np.zeros(state.shape[:-1] + (STATE_DIM,), state.dtype)
    out[..., :width] = state[..., :width]
    out[..., OBS_DIM:] = state[..., width:]
    return out


def _as_rows(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x)
    if x.ndim == 0:
        raise ValueError("expected a vector or a batch of vectors, got a scalar")
    return x


def _check_width(width: int) -> int:
    if width not in (OFF_TWO_FRONTS, OFF_DRAFT, OBS_DIM):
        raise ValueError(f"{width} floats is not a compact observation width: one of "
                         f"{OFF_TWO_FRONTS} (no Two Fronts, no Draft), {OFF_DRAFT} (no "
                         f"Draft) or {OBS_DIM} (full)")
    return int(width)
