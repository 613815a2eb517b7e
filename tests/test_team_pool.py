"""Per-game content in one vector batch (``hon_env/envs/pool.py``, ``core/teams.py``): each
game draws its team (or villain and issue) from a pool when an episode starts, and plays
exactly the single game of that scenario and seed."""

from __future__ import annotations

import numpy as np
import pytest
from vector_helpers import lockstep

from agents.scripted import HeuristicPolicy
from hon_env import Game, load_scenario, vector_env
from hon_env.roster import RANDOM_TEAMS, random_teams
from hon_env.spec import layout as L
from hon_env.spec.obs_features import read

TEAMS = [["majesty", "stride"], ["cipher", "vigil"], ["guerilla", "tinkerbolt"]]


def _same_row(venv_row: np.ndarray, game: Game) -> bool:
    row = venv_row.copy()
    row[L.TEAM] = 0
    return np.array_equal(row, game.state[0])


def test_each_game_plays_the_single_game_of_its_pool_entry_and_seed():
    """Game i's episode with seed s is ``Game(pool[team], s)``, step for step under the
    same actions, through auto-resets; the teams spread over the pool."""
    env = vector_env(12, seed=40, heroes=TEAMS)
    assert [s.hero_ids for s in env.scenarios] == [tuple(t) for t in TEAMS]
    obs, info = env.reset()
    assert set(info["team"].tolist()) == {0, 1, 2}
    games = [Game(env.scenarios[info["team"][i]], seed=env.episode_seed(i)) for i in range(12)]
    assert all(_same_row(env.state[i], g) for i, g in enumerate(games))
    ended = 0
    for obs, _rewards, term, trunc, info in lockstep(env, games):
        for i in range(12):
            if term[i] or trunc[i]:  # the next episode may draw another entry
                ended += 1
                assert games[i].is_over
                games[i] = Game(env.scenarios[info["team"][i]], seed=env.episode_seed(i))
            assert _same_row(env.state[i], games[i])
            np.testing.assert_array_equal(obs["observation"][i],
                                          games[i].observation(int(obs["agent"][i])))
    assert ended > 0


def test_the_observation_names_each_rows_heroes():
    """The hero identity section (the content roster's one-hot, self first) of every row
    matches the heroes of the pool entry that row plays."""
    env = vector_env(16, seed=3, heroes=RANDOM_TEAMS, n_heroes=3)
    obs, info = env.reset()
    roster = env.scenario.hero_roster
    for i in range(16):
        sc = env.scenarios[info["team"][i]]
        seat = int(obs["agent"][i])
        want = roster.index(sc.hero_ids[seat])
        got = read(obs["observation"][i], "hero_identity.hero", 0)
        assert int(np.argmax(got)) == want and got.sum() == 1


def test_random_teams_are_every_combination_seated_reproducibly():
    """``heroes="random"``: every combination of distinct heroes once, in a seat order that
    does not depend on the run."""
    roster = load_scenario("origin_story").hero_roster
    teams = random_teams(roster, 2)
    assert len(teams) == len(roster) * (len(roster) - 1) // 2
    assert len({frozenset(t) for t in teams}) == len(teams)
    assert all(len(set(t)) == 2 for t in teams)
    assert teams == random_teams(roster, 2)
    assert any(t != sorted(t) for t in teams)  # not always alphabetical seats
    env = vector_env(4, seed=0, heroes=RANDOM_TEAMS, n_heroes=2)
    assert [list(s.hero_ids) for s in env.scenarios] == teams


def test_a_pool_of_villains_and_issues():
    """``scenario`` as a list: each game plays its entry's villain and issue."""
    a = load_scenario("origin_story", heroes=["majesty", "stride"])
    b = load_scenario("origin_story", heroes=["majesty", "stride"], villain="refuser",
                      issue="rooftop_relay")
    env = vector_env(10, seed=7, scenario=[a, b])
    obs, info = env.reset()
    assert set(info["team"].tolist()) == {0, 1}
    for i in range(10):
        sc = env.scenarios[info["team"][i]]
        assert env.game(i).scenario is sc
        assert _same_row(env.state[i], Game(sc, seed=env.episode_seed(i)))


def test_the_same_seed_draws_the_same_teams_and_a_fixed_team_plays_row_zero():
    one = vector_env(32, seed=11, heroes=TEAMS)
    two = vector_env(32, seed=11, heroes=TEAMS)
    _, i1 = one.reset()
    _, i2 = two.reset()
    np.testing.assert_array_equal(i1["team"], i2["team"])
    np.testing.assert_array_equal(one.state, two.state)
    fixed = vector_env(8, seed=11, heroes=["majesty", "stride"])
    _, info = fixed.reset()
    assert len(fixed.scenarios) == 1 and not info["team"].any()


def test_scripted_teams_read_each_rows_tables():
    """The scripted team plays every row with that row's own tables: legal everywhere, and
    the same choices as on the single game."""
    env = vector_env(12, seed=5, heroes=TEAMS, observations=False)
    obs, _ = env.reset()
    policy = HeuristicPolicy()
    for _ in range(60):
        actions = policy.act(obs["observation"], obs["action_mask"], obs["agent"],
                             engine=env.engine)
        assert obs["action_mask"][np.arange(12), actions].all()
        for i in range(12):
            g = env.game(i)
            assert policy.act(g.observation()[None], g.legal_mask()[None],
                              np.array([g.current_seat]), engine=g.engine)[0] == actions[i]
        obs, *_ = env.step(actions)


def test_bad_pools_are_refused_with_clear_errors():
    with pytest.raises(ValueError, match="same heroes"):
        vector_env(2, heroes=[["majesty"], ["stride", "cipher"]])
    with pytest.raises(ValueError, match="same villain agent"):
        vector_env(2, scenario=["origin_story", "mastermind"], n_heroes=2)
    with pytest.raises(TypeError, match="lists of hero ids"):
        vector_env(2, heroes=[["majesty"], "stride"])
    with pytest.raises(ValueError, match="at least one scenario"):
        vector_env(2, scenario=[])
    with pytest.raises(ValueError, match="n_heroes must be in"):
        vector_env(2, heroes=RANDOM_TEAMS, n_heroes=99)  # checked by the options first
    with pytest.raises(ValueError, match="draws a team per game"):
        Game("origin_story", heroes=RANDOM_TEAMS)
    with pytest.raises(ValueError, match="no hero .nobody."):
        vector_env(2, heroes=[["majesty"], ["nobody"]])
    env = vector_env(2, heroes=TEAMS)
    env.reset()
    state, tabs = env.engine
    state = state.copy()
    state[:, L.TEAM] = 2  # rows of the third entry, with the tables of the first alone
    with pytest.raises(ValueError, match="names tables row 2 but the engine holds 1"):
        HeuristicPolicy().act(np.zeros((2, 1), np.float32), env.masks, env.agent,
                              engine=(state, tabs[:1]))
