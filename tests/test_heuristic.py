"""The scripted hero teams (per-hero and coordinated): legal, deterministic, blind to
hidden information, and far above random."""

from __future__ import annotations

import numpy as np
import pytest

from agents import CoordinatedPolicy, HeuristicPolicy, RandomPolicy, load_policy
from agents.evaluation import evaluate
from hon_env import Game, vector_env
from hon_env.spec import layout as L


def test_heuristic_beats_random_by_a_wide_margin():
    """On the same 120 seeds of Origin Story the scripted team wins often, random never,
    and the two 95% intervals are far apart."""
    kw = dict(villain="dowager", issue="century_heist", heroes=["majesty"], games=120, seed=0)
    scripted = evaluate(HeuristicPolicy(), **kw)
    rand = evaluate(RandomPolicy(0), **kw)
    assert scripted.games == rand.games == 120
    assert scripted.win_rate >= 0.4
    assert scripted.ci_low > rand.ci_high + 0.2


def test_heuristic_wins_with_a_team_against_both_villains():
    """Two heroes against each villain: the scripted team still wins some games."""
    for villain in ("dowager", "refuser"):
        r = evaluate(HeuristicPolicy(), villain=villain, issue="century_heist",
                     heroes=["majesty", "stride"], games=60, seed=1)
        assert r.wins >= 6, (villain, r)


def test_heuristic_puts_out_a_crisis_card_with_a_danger_value():
    """With Cinderwick's Chemical Fire in play (a crisis card with a danger value, solved at
    its crisis token) the scripted team stays legal, solves the fire in many games and
    still wins often."""
    from agents.evaluation import evaluate
    from hon_env import load_scenario
    from hon_env.envs.vector import VectorEnv

    sc = load_scenario("origin_story", heroes=["majesty"],
                       rules={"crisis_cards": ["cinderwicks_chemical_fire"]})
    n = 64
    env = VectorEnv(n, 0, sc)
    obs, _ = env.reset()
    policy = HeuristicPolicy()
    solved = np.zeros(n, bool)
    done = np.zeros(n, bool)
    while not done.all():
        a = policy.act(obs["observation"], obs["action_mask"], obs["agent"], engine=env.engine)
        assert obs["action_mask"][np.arange(n), a].all()
        obs, _, _, _, info = env.step(a)
        solved |= (L.field_view(env.engine[0], "crisis_out")[:, 0] == 1) & ~done
        done |= info["_final"]
    assert solved.sum() >= n // 5
    assert evaluate(HeuristicPolicy(), scenario=sc, games=60, seed=0).win_rate >= 0.4


TEAMS = [HeuristicPolicy, CoordinatedPolicy]


def test_registry_names_both_teams():
    """``heuristic`` is the coordinated team, ``heuristic_solo`` the per-hero one."""
    assert isinstance(load_policy("heuristic"), CoordinatedPolicy)
    assert isinstance(load_policy("heuristic_solo"), HeuristicPolicy)
    assert load_policy("heuristic").name == "heuristic"
    assert load_policy("heuristic_solo").name == "heuristic_solo"


@pytest.mark.parametrize("team", TEAMS)
def test_heuristic_actions_are_legal_and_deterministic(team):
    """Every action is legal (the vector env raises otherwise) and two runs agree."""
    runs = []
    for _ in range(2):
        env = vector_env(16, seed=5, heroes=["cipher", "tinkerbolt", "guerilla"],
                         villain="refuser", issue="blackout_gala")
        obs, _ = env.reset()
        policy = team()
        trace = []
        for _ in range(300):
            a = policy.act(obs["observation"], obs["action_mask"], obs["agent"],
                           engine=env.engine)
            assert obs["action_mask"][np.arange(16), a].all()
            trace.append(a.copy())
            obs, *_ = env.step(a)
        runs.append(np.stack(trace))
    np.testing.assert_array_equal(runs[0], runs[1])


@pytest.mark.parametrize("team,heroes", [
    (HeuristicPolicy, ["majesty", "stride"]),
    (CoordinatedPolicy, ["majesty", "stride"]),
    (CoordinatedPolicy, ["majesty", "stride", "guerilla", "cipher"]),
])
def test_heuristic_ignores_hidden_information(team, heroes):
    """Reordering what no player can see (deck orders, the random generator) never
    changes the scripted choice."""
    policy = team()
    rng = np.random.default_rng(0)
    g = Game(seed=11, heroes=heroes)
    checked = 0
    while not g.is_over and checked < 200:
        mask = g.legal_mask()[None]
        a = policy.act(g.observation()[None], mask, np.array([g.current_seat]), engine=g.engine)
        state, tabs = g.engine
        hidden = state.copy()
        hidden[0, L.RNG:L.RNG + 4] = rng.integers(1, 2**31, 4)
        n = hidden[0, L.VDECK_N]
        hidden[0, L.VDECK_ORDER:L.VDECK_ORDER + n] = rng.permutation(
            hidden[0, L.VDECK_ORDER:L.VDECK_ORDER + n])
        for h in range(len(heroes)):
            start = L.HDECK_ORDER + h * L.FIELDS["hdeck_order"][1][1]
            k = hidden[0, L.HDECK_N + h]
            hidden[0, start:start + k] = rng.permutation(hidden[0, start:start + k])
        b = policy.act(g.observation()[None], mask, np.array([g.current_seat]),
                       engine=(hidden, tabs))
        assert a[0] == b[0]
        g.apply(int(a[0]))
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("team", TEAMS)
def test_heuristic_needs_the_engine(team):
    env = vector_env(2, seed=0)
    obs, _ = env.reset()
    with pytest.raises(ValueError, match="engine"):
        team().act(obs["observation"], obs["action_mask"], obs["agent"])


def test_a_team_plays_one_style_per_seat():
    """One menu, a style per seat: a team of the per-hero style in seat 0 and the
    coordinated style elsewhere plays seat 0 as the per-hero team does and the other seats
    as the coordinated team does, decision by decision."""
    from agents.scripted import SOLO, TEAM, ScriptedTeamPolicy

    mixed = ScriptedTeamPolicy([SOLO] + [TEAM] * 6)
    solo, team = HeuristicPolicy(), CoordinatedPolicy()
    env = vector_env(16, seed=3, heroes=["cipher", "tinkerbolt", "guerilla"],
                     villain="refuser", issue="blackout_gala")
    obs, _ = env.reset()
    seen = set()
    for _ in range(200):
        args = (obs["observation"], obs["action_mask"], obs["agent"])
        a = mixed.act(*args, engine=env.engine)
        hero = env.engine[0][:, L.DEC_HERO]
        want = np.where(hero == 0, solo.act(*args, engine=env.engine),
                        team.act(*args, engine=env.engine))
        np.testing.assert_array_equal(a, want)
        seen.update(hero.tolist())
        obs, *_ = env.step(a)
    assert {0, 1, 2} <= seen


def test_scripted_team_refuses_bad_styles():
    """A style list of the wrong length, an unknown style or a glory seat outside the
    table is an error, not a silent default."""
    from agents.scripted import TEAM, GloryTeamPolicy, ScriptedTeamPolicy

    with pytest.raises(ValueError, match="styles"):
        ScriptedTeamPolicy([TEAM] * 3)
    with pytest.raises(ValueError, match="styles"):
        ScriptedTeamPolicy([TEAM] * 6 + [7])
    with pytest.raises(ValueError, match="glory seats"):
        GloryTeamPolicy([6])
