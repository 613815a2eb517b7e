"""The whole-map answers the engine reads instead of asking each space
(``geometry.occupied_spaces``, ``geometry.bystander_spaces``, ``queries.enemy_spaces``,
``queries.problem_spaces``) give the per-space and per-target answers (``is_empty``,
``bystander_at``, ``enemy_in_space``, ``problem_in_space`` with ``may_affect``) for every
space, over whole games with every variant on."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from hon_env import vector_env
from hon_env.core.facing import may_affect
from hon_env.core.geometry import bystander_at, bystander_spaces, is_empty, occupied_spaces
from hon_env.core.queries import enemy_in_space, enemy_spaces, problem_in_space, problem_spaces
from hon_env.spec import layout as L
from hon_env.spec import tables as TB
from hon_env.tasks import get_task

SCENARIOS = [
    ("origin_story", {}),
    ("two_fronts", {"rules": {"two_fronts": True, "fame": True}}),
    ("mastermind", {"rules": {"villain_agent": {"enemy_ties": "villain"}}}),
    ("draft_pick", {}),
    (get_task("modules").scenario(), {}),
    (get_task("nemeses").scenario(), {}),
]


@njit(cache=False)
def _compare(s, tabs, b):
    """(the first space where a whole-map answer differs from the per-space one, or -1;
    -2 when row ``b`` is not a game on the map yet (drafting)), and the figures and
    bystanders the maps hold."""
    if s[b, L.DRAFTING] != 0:
        return -2, 0, 0
    T = tabs[s[b, L.TEAM]]
    occ = occupied_spaces(s, b, T)
    bys = bystander_spaces(s, b, T)
    n_targets = 0
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        if occ[sp] == is_empty(s, b, T, sp) or bys[sp] != bystander_at(s, b, T, sp):
            return sp, 0, 0
    for h in range(T.cfg[TB.CFG_N_HEROES]):
        enemies = enemy_spaces(s, b, T, h)
        problems = problem_spaces(s, b, T, h, h)
        ally_problems = problem_spaces(s, b, T, -1, h)  # an ally Solves as solver -1
        for sp in range(T.cfg[TB.CFG_N_SPACES]):
            enemy = problem = ally_problem = False
            for t in range(L.N_TARGETS):
                if enemy_in_space(s, b, T, t, sp) and may_affect(s, b, T, h, t):
                    enemy = True
                if may_affect(s, b, T, h, t):
                    problem |= problem_in_space(s, b, T, t, sp, h)
                    ally_problem |= problem_in_space(s, b, T, t, sp, -1)
            if enemies[sp] != enemy or problems[sp] != problem or ally_problems[sp] != ally_problem:
                return sp, 0, 0
            n_targets += enemy + problem
    return -1, occ.sum() + n_targets, bys.sum()


@pytest.mark.parametrize("scenario,options", SCENARIOS, ids=[f"case{i}" for i in range(6)])
def test_whole_map_answers_equal_the_per_space_ones(scenario, options):
    """Rulebook "Movement and Targeting Priority": enemies move through empty spaces toward
    the nearest hero or bystander; the one-pass maps must name exactly the spaces the
    per-space questions do, at every step of whole games (auto-resets included)."""
    env = vector_env(8, seed=11, scenario=scenario, observations=False, **options)
    env.reset()
    rng = np.random.default_rng(5)
    checked = 0
    occupied_seen = bystanders_seen = 0
    for _ in range(600):
        for b in range(env.num_envs):
            sp, n_occupied, n_bystanders = _compare(env.state, env._tables, b)
            assert sp < 0, f"row {b}: the maps disagree at space {sp}"
            checked += sp == -1
            occupied_seen += n_occupied > 0
            bystanders_seen += n_bystanders > 0
        env.step(env.sample_actions(rng))
    # the comparison ran on real positions: figures, targets and bystanders on the map
    assert checked > 1000 and occupied_seen > 1000 and bystanders_seen > 100
