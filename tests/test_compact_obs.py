"""Compact observations and states (``VectorEnv(compact=True)``, ``hon_env/spec/compact.py``):
the same floats as the full vectors on the live sections, over whole games, with every
variant on."""

from __future__ import annotations

import numpy as np
import pytest

from hon_env import vector_env
from hon_env.spec import compact as C
from hon_env.spec.obs_features import (
    OBS_DIM,
    OBS_SECTIONS,
    STATE_DIM,
    STATE_TAIL,
    feature_index,
)
from hon_env.tasks import get_task

# (scenario, options, compact observation width)
CASES = [
    ("origin_story", {}, C.live_obs_dim(False, False)),
    ("two_fronts", {}, C.live_obs_dim(True, False)),
    ("mastermind", {}, C.live_obs_dim(False, False)),
    ("fame_race", {}, C.live_obs_dim(False, False)),
    ("draft_pick", {}, OBS_DIM),
    ("draft_pass", {}, OBS_DIM),
    ("two_fronts", {"rules": {"two_fronts": True, "fame": True}}, C.live_obs_dim(True, False)),
    ("mastermind", {"rules": {"villain_agent": True, "fame": True}},
     C.live_obs_dim(False, False)),
    (get_task("modules").scenario(), {}, C.live_obs_dim(False, False)),
    (get_task("nemeses").scenario(), {}, C.live_obs_dim(False, False)),
]


def _pair(scenario, options, n=6, seed=3):
    full = vector_env(n, seed=seed, scenario=scenario, **options)
    small = vector_env(n, seed=seed, scenario=scenario, compact=True, **options)
    return full, small


@pytest.mark.parametrize("scenario,options,width", CASES,
                         ids=[f"case{i}" for i in range(len(CASES))])
def test_compact_equals_the_full_vectors_over_whole_games(scenario, options, width):
    """Over whole games (episode ends and auto-resets included) the compact observation is
    the full one's first ``width`` floats and the rest of the full one is zero; the compact
    state is the same cut followed by the state's own floats; ``final_observation`` too;
    ``expand_*`` gives the full vectors back exactly."""
    full, small = _pair(scenario, options)
    assert (small.observation_dim, small.state_dim) == (width, width + STATE_TAIL)
    assert (full.observation_dim, full.state_dim) == (OBS_DIM, STATE_DIM)
    fo, _ = full.reset()
    so, _ = small.reset()
    rng = np.random.default_rng(0)
    ended = 0
    steps = 0
    while steps < 400 or (ended < 2 and steps < 5000):  # at least two episodes end
        steps += 1
        for key in ("action_mask", "agent"):
            np.testing.assert_array_equal(fo[key], so[key])
        assert so["observation"].shape == (full.num_envs, width)
        np.testing.assert_array_equal(so["observation"], fo["observation"][:, :width])
        assert not fo["observation"][:, width:].any()
        np.testing.assert_array_equal(so["state"][:, :width], fo["state"][:, :width])
        np.testing.assert_array_equal(so["state"][:, width:], fo["state"][:, OBS_DIM:])
        assert not fo["state"][:, width:OBS_DIM].any()
        np.testing.assert_array_equal(C.expand_obs(so["observation"]), fo["observation"])
        np.testing.assert_array_equal(C.expand_state(so["state"]), fo["state"])
        acts = full.sample_actions(rng)
        fo, fr, ft, ftr, finfo = full.step(acts)
        so, sr, st, s_tr, sinfo = small.step(acts)
        np.testing.assert_array_equal(fr, sr)
        np.testing.assert_array_equal(ft | ftr, st | s_tr)
        done = finfo["_final"]
        ended += int(done.sum())
        np.testing.assert_array_equal(sinfo["final_observation"][done],
                                      finfo["final_observation"][done][:, :width])
    assert ended >= 2  # whole games were compared, not only their openings


def test_compact_without_observations_or_state():
    """``compact`` combines with ``global_state=False`` (no ``state`` key) and with
    ``observations=False`` (nothing encoded)."""
    env = vector_env(4, seed=0, compact=True, global_state=False)
    obs, _ = env.reset()
    assert "state" not in obs and obs["observation"].shape == (4, C.live_obs_dim(False, False))
    env = vector_env(4, seed=0, compact=True, observations=False)
    obs, _ = env.reset()
    assert not obs["observation"].any()


def test_state_index_moves_the_state_sections_forward():
    """A state feature past the observation moves ``OBS_DIM - width`` floats forward; an
    observation float keeps its index; a float the compact state lacks is refused."""
    width = C.live_obs_dim(False, False)
    hands = feature_index("hands.hand", 1, 3)
    assert C.state_index(hands, width) == hands - (OBS_DIM - width)
    assert C.state_index(feature_index("global.round"), width) == feature_index("global.round")
    assert C.state_index(hands, OBS_DIM) == hands
    with pytest.raises(IndexError):
        C.state_index(width, width)  # the first float of the cut-out sections
    env = vector_env(2, seed=1, compact=True)
    obs, _ = env.reset()
    full = vector_env(2, seed=1)
    fobs, _ = full.reset()
    assert obs["state"][0, C.state_index(hands, width)] == fobs["state"][0, hands]


def test_bad_compact_arguments_are_refused():
    with pytest.raises(TypeError, match="compact"):
        vector_env(2, compact="yes")
    with pytest.raises(ValueError, match="compact observation width"):
        C.expand_obs(np.zeros((2, 100), np.float32))
    with pytest.raises(ValueError, match="compact observation width"):
        C.state_dim(OBS_DIM - 1)
    with pytest.raises(ValueError, match="scalar"):
        C.expand_state(np.float32(1.0))
    with pytest.raises(TypeError, match="full_index"):
        C.state_index(1.5, OBS_DIM)
    assert C.live_obs_dim(True, True) == C.live_obs_dim(False, True) == OBS_DIM
    # a plain list of floats is a vector too
    assert C.expand_obs([0.0] * C.live_obs_dim(False, False)).shape == (OBS_DIM,)


def test_only_two_fronts_and_draft_sections_follow_the_cut():
    """The compact cut relies on the section order: past ``live_obs_dim(False, False)``
    only the Two Fronts sections, then past ``live_obs_dim(True, False)`` only the Draft
    ones. A variant's section appended after them needs its own rule in ``compact.py``
    (docs/contributing.md, checklist 6), or compact rows would be too short for it."""
    after = [(name, base) for name, base, *_ in OBS_SECTIONS
             if base >= C.live_obs_dim(False, False)]
    two_fronts = {"two_fronts", "two_fronts_seats", "two_fronts_spaces", "villain2_cards"}
    draft = {"draft", "draft_pool", "draft_pass"}
    assert {n for n, _ in after} == two_fronts | draft
    assert all(base >= C.live_obs_dim(True, False) for n, base in after if n in draft)
    assert all(base < C.live_obs_dim(True, False) for n, base in after if n in two_fronts)
