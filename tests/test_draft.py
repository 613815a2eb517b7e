"""The Draft variant: the seats choose their heroes inside the episode (rules ``draft``).

Sources: Hour of Need's setup step 1 (each player chooses a hero) and seed 002
(``/work/shared/rules/002_…``) §SET UP (heroes dealt face down, each player keeps one, the
rest leave the game). docs/variants.md describes the variant, docs/engine.md how setup
step 1 maps to it.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from hon_env import Game, IllegalActionError, StateError, load_scenario, vector_env
from hon_env.content.errors import ContentError
from hon_env.core.invariants import violations
from hon_env.spec import layout as L
from hon_env.spec import obs_features as F

DRAFT_FIELDS = ("drafting", "draft_step", "draft_seed", "draft_offer", "draft_owner",
                "draft_pick")


def _draft_cols() -> np.ndarray:
    cols = [L.TEAM]
    for name in DRAFT_FIELDS:
        start, shape = L.FIELDS[name]
        cols += range(start, start + int(np.prod(shape)) if shape else start + 1)
    return np.array(cols)


OUTSIDE = np.setdiff1d(np.arange(L.STATE_LEN), _draft_cols())


def _pool(g: Game) -> tuple[str, ...]:
    return g.draft_scenario.rules["draft"]["pool"]


def _draft(g: Game, rng: np.random.Generator) -> list[str]:
    """Answer every draft decision with a random legal pick; return the team."""
    team = []
    while g.decision == "draft":
        a = int(rng.choice(g.legal_actions()))
        team.append(_pool(g)[a - L.A_DRAFT])
        g.apply(a)
    return team


def _play_on(a: Game, b: Game, steps: int, rng: np.random.Generator) -> None:
    for _ in range(steps):
        if a.is_over:
            break
        assert np.array_equal(a.legal_mask(), b.legal_mask())
        act = int(rng.choice(a.legal_actions()))
        a.apply(act)
        b.apply(act)
        assert np.array_equal(a.state[0, OUTSIDE], b.state[0, OUTSIDE])
    assert a.outcome == b.outcome


@pytest.mark.parametrize("scenario", ["draft_deal", "draft_pick"])
def test_draft_then_game_equals_game_of_that_team(scenario):
    """HoN setup step 1 (each player chooses a hero), 002 §SET UP: after a draft that
    picks team X with seed s, the game is the one ``Game(heroes=X, seed=s)`` sets up (state
    equal outside the draft fields and ``team``) and plays on identically."""
    for seed in (0, 7, 123, 2**40 + 5):
        rng = np.random.default_rng(seed)
        g = Game(scenario, seed=seed)
        team = _draft(g, rng)
        ref = Game(scenario, seed=seed, heroes=team, rules={"draft": False})
        assert g.scenario.hero_ids == tuple(team) == ref.scenario.hero_ids
        assert np.array_equal(g.state[0, OUTSIDE], ref.state[0, OUTSIDE])
        assert np.array_equal(g.legal_mask(), ref.legal_mask())
        assert np.array_equal(g.observation()[:F.OFF_DRAFT], ref.observation()[:F.OFF_DRAFT])
        _play_on(g, ref, 150, rng)



def test_draft_against_two_villains_equals_that_team_against_them():
    """HoN setup step 1 with the Two Fronts variant (003 §GAME SETUP: each hero then
    chooses the villain it faces): the drafted team's game against two villains is the one
    ``Game(heroes=X, villain=[a, b], seed=s)`` sets up, facing choices included."""
    pair = ["dowager", "refuser"]
    for seed in (1, 9):
        rng = np.random.default_rng(seed)
        g = Game("draft_pick", seed=seed, villain=pair)
        team = _draft(g, rng)
        ref = Game("draft_pick", seed=seed, heroes=team, villain=pair, rules={"draft": False})
        assert g.scenario.two_fronts and g.scenario.villain_ids == tuple(pair)
        assert np.array_equal(g.state[0, OUTSIDE], ref.state[0, OUTSIDE])
        _play_on(g, ref, 150, rng)

def test_deal_offers_face_down_keep_one():
    """002 §SET UP: each seat is dealt its own heroes face down (no hero to two seats) and
    keeps one of them; the mask offers only the deciding seat's own untaken heroes; the
    heroes not kept leave the game."""
    sc = load_scenario("draft_deal")
    k = sc.rules["draft"]["offer"]
    for seed in range(20):
        g = Game(sc, seed=seed)
        offer = g.field("draft_offer")
        for seat in range(sc.n_heroes):
            assert int((offer == seat + 1).sum()) == k
        assert g.decision == "draft" and g.current_seat == 0
        mine = set(np.flatnonzero(offer == 1) + L.A_DRAFT)
        assert set(g.legal_actions()) == mine
        g.apply(int(min(mine)))
        assert set(g.legal_actions()) == set(np.flatnonzero(offer == 2) + L.A_DRAFT)
        g.apply(int(g.legal_actions()[-1]))
        assert g.decision != "draft"
        obs = g.observation(0)
        for i in range(len(_pool(g))):
            row = F.OFF_DRAFT_POOL + i * F.DRAFT_POOL_FEATS
            taken = obs[row + F.DP_TAKEN_BY:row + F.DP_TAKEN_BY + L.MAX_HEROES].any()
            gone = obs[row + F.DP_WHERE + 2] == 1
            assert taken != gone  # every pool hero is kept by a seat or out of the game


def test_pick_is_public_in_seat_order():
    """HoN setup step 1: seats choose in seat order from the whole pool; a taken hero is
    taken by nobody else, and every seat sees who took it."""
    g = Game("draft_pick", seed=3)
    m = len(_pool(g))
    assert list(g.legal_actions()) == list(range(L.A_DRAFT, L.A_DRAFT + m))
    g.apply(int(L.A_DRAFT + 2))
    assert g.current_seat == 1 and L.A_DRAFT + 2 not in g.legal_actions()
    obs = g.observation(1)
    row = F.OFF_DRAFT_POOL + 2 * F.DRAFT_POOL_FEATS
    assert obs[row + F.DP_TAKEN_BY + 1] == 1  # taken by the seat after self (seat 0)
    assert obs[F.OFF_DRAFT + F.DR_DECIDING] == 1 and obs[F.OFF_DRAFT + F.DR_DRAFTING] == 1
    # no team tables apply yet: every section before the draft's is zero
    assert not obs[:F.OFF_DRAFT].any()


def test_hidden_offers():
    """002 §SET UP (dealt face down): a seat's observation does not change when another
    seat's offer is changed, nor while the other seat's pick is still hidden."""
    g = Game("draft_deal", seed=11)
    before = g.observation(0)
    state = g.state.copy()
    offer = L.field_view(state, "draft_offer")[0]
    theirs = np.flatnonzero(offer == 2)
    free = np.flatnonzero(offer == 0)
    assert free.size > 0
    offer[theirs[0]], offer[free[0]] = 0, 2  # seat 1 gets another hero
    g.state = state
    assert np.array_equal(g.observation(0), before)
    assert not np.array_equal(g.observation(1), before)


def test_conservation_over_random_drafts():
    """Over many random drafts no hero is in two seats, the offers never overlap, picks come
    from the seat's own offer (deal), and the masks offer only legal heroes
    (``core/draft_checks.py`` through ``invariants.violations``)."""
    for scenario in ("draft_deal", "draft_pick"):
        sc = load_scenario(scenario)
        for seed in range(40):
            rng = np.random.default_rng(seed)
            g = Game(sc, seed=seed)
            while g.decision == "draft":
                assert violations(g.state, g.draft_scenario.tables, g.legal_mask()[None]) == []
                g.apply(int(rng.choice(g.legal_actions())))
            assert violations(g.state, g.scenario.tables, g.legal_mask()[None]) == []
            picks = g.field("draft_pick")[:sc.n_heroes] - 1
            assert len(set(picks.tolist())) == sc.n_heroes
            assert g.scenario.hero_ids == tuple(_pool(g)[p] for p in picks)


def test_broken_draft_state_is_refused():
    """A state whose draft fields contradict each other is refused with the problem named."""
    g = Game("draft_deal", seed=1)
    state = g.state.copy()
    offer = L.field_view(state, "draft_offer")[0]
    theirs = np.flatnonzero(offer == 2)[0]
    L.field_view(state, "draft_owner")[0][theirs] = 1  # seat 0 owns a hero dealt to seat 1
    L.field_view(state, "draft_pick")[0][0] = theirs + 1
    L.field_view(state, "draft_step")[0] = 1
    L.field_view(state, "dec_hero")[0] = 1
    with pytest.raises(StateError, match="outside its own offer"):
        g.state = state


def test_random_mode_teams_differ_and_every_row_is_reachable():
    """Mode random: no decision, each episode starts on an ordered team drawn from its seed;
    one vector batch holds different teams and every ordered team occurs."""
    rules = {"draft": {"mode": "random", "pool": ["majesty", "stride", "vigil", "cipher"]}}
    env = vector_env(600, seed=0, n_heroes=2, rules=rules)
    env.reset()
    rows = math.perm(4, 2)
    assert len(env.scenarios) == rows
    assert set(env.teams.tolist()) == set(range(rows))
    assert not env.state[:, L.DRAFTING].any()
    g = Game("origin_story", seed=5, n_heroes=2, rules=rules)
    assert g.decision == "mulligan"
    team = g.scenario.hero_ids
    ref = Game("origin_story", seed=5, heroes=list(team))
    assert np.array_equal(g.state[0, OUTSIDE], ref.state[0, OUTSIDE])


def test_rows_are_ordered_teams_in_rank_order():
    """Row r of a draft's tables is the r-th ordered team (lexicographic), the row the
    engine ranks a finished draft to."""
    sc = load_scenario("draft_pick")
    pool = sc.rules["draft"]["pool"]
    teams = list(itertools.permutations(range(len(pool)), 2))
    assert [s.hero_ids for s in sc.draft_pool] == [tuple(pool[i] for i in t) for t in teams]
    for r in (0, 5, 17, len(teams) - 1):
        g = Game(sc, seed=r)
        for i in teams[r]:
            g.apply(int(L.A_DRAFT + i))
        assert int(g.state[0, L.TEAM]) == r


@pytest.mark.parametrize("rule, match", [
    ({"mode": "swap"}, "expected one of random, deal, pick"),
    ({"mode": "pass", "offer": 1}, "at least 2"),
    ({"mode": "pick", "offer": 2}, "deals no offers"),
    ({"pool": "all"}, "needs 'mode'"),
    ({"mode": "pick", "pool": ["majesty", "nobody"]}, "unknown hero 'nobody'"),
    ({"mode": "pick", "pool": ["majesty"]}, "at least one hero per seat"),
    ({"mode": "pick", "pool": ["majesty", "majesty"]}, "repeated: majesty"),
    ({"mode": "deal", "offer": 4}, "offer 4 to each of 2 seats needs 8"),
    ({"mode": "deal", "offer": 0}, "offer"),
    ({"mode": "pick", "colour": 1}, "unknown draft setting"),
    (True, "expected a mapping"),
])
def test_bad_draft_rule_is_refused(rule, match):
    """A bad ``draft`` rule raises naming the value and what is allowed."""
    with pytest.raises(ContentError, match=match):
        load_scenario("origin_story", heroes=["majesty", "stride"], rules={"draft": rule})


def test_too_many_ordered_teams_is_refused():
    """A draft compiles at most MAX_DRAFT_ROWS ordered teams (7 heroes for 4 seats is 840,
    allowed; for 5 seats 2520, refused)."""
    with pytest.raises(ContentError, match="ordered teams"):
        load_scenario("origin_story", heroes=["majesty"] * 5,
                      rules={"draft": {"mode": "pick"}})


def test_illegal_draft_action_raises():
    """An action outside the mask (a hero of another seat's offer, a game action) raises
    and changes nothing."""
    g = Game("draft_deal", seed=4)
    before = g.state.copy()
    theirs = int(np.flatnonzero(g.field("draft_offer") == 2)[0])
    for bad in (L.A_DRAFT + theirs, L.A_PASS, L.A_DRAFT + 15):
        with pytest.raises(IllegalActionError, match="draft"):
            g.apply(int(bad))
    assert np.array_equal(g.state, before)


def test_vector_env_drafts_and_game_reproduces_it():
    """The vector env runs drafts through the same entry point, resets through new drafts,
    and ``Game(scenario, seed)`` replays a vector game's episode exactly."""
    env = vector_env(4, seed=20, scenario="draft_deal")
    obs, info = env.reset()
    assert (env.state[:, L.DRAFTING] == 1).all()
    rng = np.random.default_rng(0)
    games = [Game("draft_deal", seed=20 + i) for i in range(4)]
    ended = np.zeros(4, bool)
    for _ in range(400):
        actions = env.sample_actions(rng)
        for i, g in enumerate(games):
            if not ended[i]:
                assert np.array_equal(env.state[i], g.state[0])
                g.apply(int(actions[i]))
        _, _, term, trunc, info = env.step(actions)
        ended |= term | trunc
    assert np.array_equal(info["team"], env.state[:, L.TEAM])
    # an auto-reset episode starts with a new draft
    env2 = vector_env(2, seed=0, scenario="draft_pick", caps={"max_decisions": 12})
    env2.reset()
    seen_reset = False
    for _ in range(40):
        _, _, term, trunc, _ = env2.step(env2.sample_actions(rng))
        if (term | trunc).any():
            seen_reset = True
            assert (env2.state[term | trunc, L.DRAFTING] == 1).all()
    assert seen_reset


def test_scripted_team_answers_the_draft():
    """The scripted teams answer ``D_DRAFT`` (the lowest legal pool hero: the mask only, no
    hidden offer is read) and play the drafted game."""
    from agents import load_policy
    from hon_env.rollout import play_batch

    sc = load_scenario("draft_deal")
    pol = load_policy("heuristic")
    res = play_batch(sc, np.arange(3), lambda s, m: pol.act(None, m, None, (s, sc.engine_tables)))
    assert (res.outcome != L.OUT_ONGOING).all()


def test_pettingzoo_draft_seats_and_hero_infos():
    """With the draft rule the PettingZoo agents are the seats ``hero_k``; ``infos[agent]
    ["hero"]`` is None during the draft and names the drafted hero afterwards; the AEC and
    Parallel envs pass PettingZoo's API tests."""
    from pettingzoo.test import api_test, parallel_api_test

    from hon_env import hour_of_need_v8

    env = hour_of_need_v8.parallel_env(scenario="draft_pick")
    obs, infos = env.reset(seed=2)
    assert env.agents == ["hero_0", "hero_1"]
    assert infos["hero_0"]["hero"] is None and infos["hero_0"]["decision"] == "draft"
    picks = {"hero_0": int(L.A_DRAFT + 4), "hero_1": 0}
    obs, _, _, _, infos = env.step(picks)
    legal = np.flatnonzero(obs["hero_1"]["action_mask"])
    assert L.A_DRAFT + 4 not in legal and infos["hero_1"]["hero"] is None
    obs, _, _, _, infos = env.step({"hero_0": 0, "hero_1": int(legal[0])})
    pool = load_scenario("draft_pick").rules["draft"]["pool"]
    assert infos["hero_0"]["hero"] == pool[4]
    assert infos["hero_1"]["hero"] == pool[int(legal[0]) - L.A_DRAFT]
    api_test(hour_of_need_v8.env(scenario="draft_deal"), num_cycles=200)
    parallel_api_test(hour_of_need_v8.parallel_env(scenario="draft_deal"), num_cycles=200)


def test_gymnasium_env_plays_the_draft():
    """The single-agent Gymnasium env answers the draft decisions too (one policy for
    whichever seat decides) and reaches the drafted game."""
    import gymnasium as gym

    env = gym.make("hon_env/HourOfNeed-v8", scenario="draft_deal")
    env.reset(seed=3)
    decisions = []
    for _ in range(3):
        mask = env.unwrapped.action_masks()
        _, _, term, trunc, info = env.step(int(np.flatnonzero(mask)[0]))
        decisions.append(info["decision"])
    assert decisions[0] == "draft" and decisions[1] != "draft"


def test_text_render_during_the_draft():
    """The text view of a drafting game lists the pool, the offers and the legal picks."""
    from hon_env.render import render_ansi

    g = Game("draft_deal", seed=9)
    text = render_ansi(g)
    assert "draft (deal), 0 of 2 seats have picked" in text
    assert text.count("dealt to hero_0") == 3 and "take" in text


def test_named_draft_action():
    """``actions.draft`` takes a pool index or a hero id of the game's draft pool."""
    from hon_env import actions as A

    g = Game("draft_pick", seed=0)
    pool = _pool(g)
    assert A.draft("stride", g) == L.A_DRAFT + pool.index("stride") == A.draft(pool.index("stride"))
    with pytest.raises(ValueError, match="no hero 'nobody' in the draft pool"):
        A.draft("nobody", g)


def test_copies_and_saved_states_during_and_after_the_draft():
    """A drafting game saves, loads, clones and pickles like any other; a loaded game after
    the draft plays the drafted team."""
    import pickle

    g = Game("draft_deal", seed=9)
    assert np.array_equal(Game.from_bytes("draft_deal", g.to_bytes()).state, g.state)
    c = g.clone()
    c.apply(int(c.legal_actions()[0]))
    assert g.current_seat == 0 and c.current_seat == 1
    assert np.array_equal(pickle.loads(pickle.dumps(c)).state, c.state)
    c.apply(int(c.legal_actions()[0]))
    loaded = Game.from_bytes("draft_deal", c.to_bytes())
    assert loaded.scenario.hero_ids == c.scenario.hero_ids and loaded.decision == c.decision


def test_image_render_during_the_draft():
    """The image renderer (``rgb_array``, hon-play, the SVG board) draws the draft on a
    blank sheet while no board is set up: the pool with every offer, the deciding seat and
    its legal picks; after the last pick it draws the board."""
    from hon_env.render import render_rgb
    from hon_env.views.scene import scene

    g = Game("draft_deal", seed=9)
    texts = [str(p[3]) for p in scene(g) if p[0] == "text"]
    assert any("draft (deal), 0 of 2 seats have picked" in t for t in texts)
    assert sum("dealt to hero_0" in t for t in texts) == 3
    assert sum("take" in t for t in texts) == len(g.legal_actions())
    frame = render_rgb(g, dpi=50)
    assert frame.shape == (375, 650, 3) and frame.std() > 0
    while g.decision == "draft":
        g.apply(int(g.legal_actions()[0]))
    after = [str(p[3]) for p in scene(g) if p[0] == "text"]
    assert not any("draft (" in t for t in after)
    assert any(g.scenario.hero_names[0] in t for t in after)


@pytest.mark.parametrize("scenario", ["draft_deal", "draft_pass"])
def test_gymnasium_and_sb3_vector_wrappers_play_drafts(scenario):
    """``gym.make_vec`` and ``SB3VecEnv`` run the draft inside each episode: the first
    decisions are draft picks from the mask, episodes end and restart with a new draft,
    and the first observation of game i is ``Game(scenario, seed + i)``'s."""
    import gymnasium as gym

    pytest.importorskip("sb3_contrib")
    from hon_env.envs.sb3 import SB3VecEnv

    envs = gym.make_vec("hon_env/HourOfNeed-v8", num_envs=4, scenario=scenario,
                        caps={"max_decisions": 40})
    obs, info = envs.reset(seed=6)
    state = envs.unwrapped.venv.state
    assert (state[:, L.DRAFTING] == 1).all()
    np.testing.assert_array_equal(obs[1], Game(scenario, seed=7).observation())
    assert set(np.flatnonzero(envs.action_masks()[0]).tolist()) <= set(
        range(L.A_DRAFT, L.A_DRAFT + 16))
    ended = 0
    for _ in range(120):
        obs, _, term, trunc, info = envs.step(envs.sample_legal())
        ended += int((term | trunc).sum())
    assert ended > 0 and (state[:, L.DRAFTING] == 0).any()
    sb3 = SB3VecEnv(4, seed=6, scenario=scenario, caps={"max_decisions": 40})
    first = sb3.reset()
    np.testing.assert_array_equal(first[1], Game(scenario, seed=7).observation())
    rng = np.random.default_rng(0)
    done_any = False
    for _ in range(120):
        masks = sb3.action_masks()
        u = rng.random(masks.shape)
        u[~masks] = -1
        _, _, dones, _ = sb3.step(u.argmax(axis=1))
        done_any |= bool(dones.any())
    assert done_any


def test_draft_rule_is_decoded_with_its_resolved_pool():
    """002 (Draft): the scenario's decoded rule holds the mode and the pool's hero ids in
    pool order, which every view reads; without the rule there is none."""
    from hon_env import load_scenario
    from hon_env.content.draft import DraftRule

    sc = load_scenario("origin_story", heroes=["majesty", "stride"],
                       rules={"draft": {"mode": "deal", "pool": ["stride", "majesty",
                                                                 "cipher", "vigil"],
                                        "offer": 2}})
    assert sc.draft_rule == DraftRule("deal", ("stride", "majesty", "cipher", "vigil"), 2)
    assert sc.draft_heroes == sc.draft_rule.pool and sc.drafted
    plain = load_scenario("origin_story")
    assert plain.draft_rule is None and plain.draft_heroes == () and not plain.drafted
    with pytest.raises(ValueError, match="not resolved"):
        DraftRule.decode({"mode": "pick", "pool": "all", "offer": 3})
