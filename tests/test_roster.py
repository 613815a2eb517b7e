"""The hero roster: every hero is listed, six distinct heroes can sit at one table, and the
newest heroes (Micro-guy, Vigil) play through every front end."""

from __future__ import annotations

import numpy as np

import hon_env
from hon_env import Game, hour_of_need_v8, load_scenario
from hon_env.core.invariants import violations
from hon_env.rollout import play_batch, random_policy
from hon_env.spec import layout as L

ROSTER = ["cipher", "guerilla", "majesty", "microguy", "stride", "tinkerbolt", "vigil"]
NEW = ["microguy", "vigil"]


def test_list_content_lists_every_hero():
    assert set(ROSTER) <= set(hon_env.list_content()["heroes"])


def test_six_distinct_heroes_play_with_the_invariants():
    """A full table of six different heroes (Micro-guy and Vigil among them)."""
    team = ["microguy", "vigil", "majesty", "guerilla", "stride", "cipher"]
    sc = load_scenario("origin_story", heroes=team)
    assert len(set(sc.hero_ids)) == 6

    def check(state, masks):
        problems = violations(state, sc.tables, masks)
        assert not problems, problems

    res = play_batch(sc, np.arange(16, dtype=np.int64),
                     random_policy(np.random.default_rng(0)), on_step=check)
    assert np.isin(res.outcome, [L.OUT_WIN, L.OUT_LOSS]).all()


def test_game_facade_plays_the_new_heroes():
    g = Game(heroes=NEW, seed=3)
    assert g.agents == NEW
    rng = np.random.default_rng(3)
    while not g.is_over:
        g.apply(int(rng.choice(g.legal_actions())))
    assert g.outcome in ("win", "loss")


def test_pettingzoo_env_plays_the_new_heroes():
    env = hour_of_need_v8.env(heroes=NEW)
    env.reset(seed=1)
    assert env.agents == NEW
    rng = np.random.default_rng(1)
    acted = set()
    for agent in env.agent_iter(max_iter=400):
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            acted.add(agent)
        env.step(action)
    env.close()
    assert acted == set(NEW)


def test_vector_env_plays_the_new_heroes():
    venv = hon_env.vector_env(num_envs=16, seed=0, heroes=NEW)
    obs, info = venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(200):
        obs, rewards, terminated, truncated, info = venv.step(venv.sample_actions(rng))
    assert obs["action_mask"].sum(axis=1).min() > 0
