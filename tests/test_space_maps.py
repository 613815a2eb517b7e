"""The one-pass answers the engine reads instead of asking one question at a time give the
answers of the single questions, over whole games with every variant on: the whole-map
ones (``geometry.occupied_spaces``, ``geometry.bystander_spaces``, ``queries.enemy_spaces``,
``queries.problem_spaces``) those of ``is_empty``, ``bystander_at``, ``enemy_in_space`` and
``problem_in_space`` with ``may_affect`` for every space; ``queries.hero_numbers`` (the
observation's) those of ``attack_dice``, ``solve_dice``, ``move_bonus`` and ``armor`` for
every hero."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from hon_env import vector_env
from hon_env.core.facing import may_affect
from hon_env.core.geometry import bystander_at, bystander_spaces, is_empty, occupied_spaces
from hon_env.core.queries import (
    armor,
    attack_dice,
    enemy_in_space,
    enemy_spaces,
    hero_numbers,
    move_bonus,
    problem_in_space,
    problem_spaces,
    solve_dice,
)
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


def _every_row(scenario, options, seed, rng_seed, compare):
    """``(b, compare(state, tables, b))`` for every row of 8 games at each of 600 random
    legal steps (auto-resets included)."""
    env = vector_env(8, seed=seed, scenario=scenario, observations=False, **options)
    env.reset()
    rng = np.random.default_rng(rng_seed)
    for _ in range(600):
        for b in range(env.num_envs):
            yield b, compare(env.state, env._tables, b)
        env.step(env.sample_actions(rng))


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
    checked = 0
    occupied_seen = bystanders_seen = 0
    for b, (sp, n_occupied, n_bystanders) in _every_row(scenario, options, 11, 5, _compare):
        assert sp < 0, f"row {b}: the maps disagree at space {sp}"
        checked += sp == -1
        occupied_seen += n_occupied > 0
        bystanders_seen += n_bystanders > 0
    # the comparison ran on real positions: figures, targets and bystanders on the map
    assert checked > 1000 and occupied_seen > 1000 and bystanders_seen > 100


@njit(cache=False)
def _numbers_differ(s, tabs, b):
    """The first hero of row ``b`` whose ``hero_numbers`` differ from the four queries, or
    -1; -2 while the row drafts. Also the bonuses from Constants in play seen, and the
    Constants in play whose passive names the other form (so it does not count)."""
    if s[b, L.DRAFTING] != 0:
        return -2, 0, 0
    T = tabs[s[b, L.TEAM]]
    bonus = off_form = 0
    for h in range(T.cfg[TB.CFG_N_HEROES]):
        one_pass = hero_numbers(s, b, T, h)
        asked = (attack_dice(s, b, T, h), solve_dice(s, b, T, h), move_bonus(s, b, T, h),
                 armor(s, b, T, h))
        if one_pass != asked:
            return h, 0, 0
        stat = T.hero_stat[h, s[b, L.HSIDE + h]]
        bonus += (asked[0] - stat[TB.HS_ATTACK] - stat[TB.HS_ATTACK_DICE]
                  + asked[1] - stat[TB.HS_SOLVE] - stat[TB.HS_SOLVE_DICE]
                  + asked[2] - stat[TB.HS_MOVE] + asked[3] - stat[TB.HS_ARMOR])
        for c in range(TB.HERO_DECK):
            need = T.hcard[h, c, TB.HC_FORM]
            if (s[b, L.HCLOC + h * TB.HERO_DECK + c] == L.L_PLAY and need != 0
                    and need != stat[TB.HS_FORM]):
                off_form += 1
    return -1, bonus, off_form


# Micro-guy's Constants give their passives in one form only (pilot or mech)
FORMS = ("origin_story", {"heroes": ["microguy", "majesty"]})


@pytest.mark.parametrize("scenario,options", SCENARIOS + [FORMS],
                         ids=[f"case{i}" for i in range(6)] + ["forms"])
def test_one_pass_hero_numbers_equal_the_four_queries(scenario, options):
    """Rulebook "Hero Deck: I Constant & Instant": a Constant stays in play and its passive
    (extra dice, move, armor; for a form only in that form) counts while it does; the
    observation's one-pass sums must equal the queries the rules ask, at every step."""
    checked = with_bonus = off_form = 0
    for b, (h, bonus, off) in _every_row(scenario, options, 3, 7, _numbers_differ):
        assert h < 0, f"row {b}: hero {h}'s one-pass numbers differ from the queries"
        checked += h == -1
        with_bonus += bonus > 0
        off_form += off > 0
    assert checked > 1000
    if (scenario, options) == SCENARIOS[0]:  # Constants with passives came into play
        assert with_bonus > 100
    if (scenario, options) == FORMS:  # and some in play while their form was not
        assert with_bonus > 100 and off_form > 100
