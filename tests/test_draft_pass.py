"""The Draft variant's mode pass: seed 002's deal, keep one, pass the rest, with one agent
playing two heroes (rules ``draft: {mode: pass}``, ``configs/scenarios/draft_pass.yaml``).

Source: seed 002 (``/work/shared/rules/002_…``) §SET UP: each player is dealt three heroes,
keeps one, passes the others to its neighbours and chooses a second hero from the two it
was passed; the rest leave the game; each player then plays two heroes. docs/variants.md
says how the passing maps onto the seats.
"""

from __future__ import annotations

import numpy as np
import pytest

from hon_env import Game, load_scenario
from hon_env.content.errors import ContentError
from hon_env.core.invariants import violations
from hon_env.spec import layout as L
from hon_env.spec import obs_features as F
from tests.test_draft import OUTSIDE, _play_on, _pool

SCENARIO = "draft_pass"


def _held(g: Game, seat: int) -> set[int]:
    """Pool heroes in ``seat``'s offer."""
    return set(np.flatnonzero(g.field("draft_offer") == seat + 1).tolist())


def _draft(g: Game, rng: np.random.Generator) -> None:
    while g.decision == "draft":
        assert violations(g.state, g.draft_scenario.tables, g.legal_mask()[None]) == []
        g.apply(int(rng.choice(g.legal_actions())))


def test_deal_keep_pass_and_take_a_second():
    """002 §SET UP: each player (seats 2p, 2p + 1) is dealt three heroes, keeps one on its
    first seat, the two it did not keep go to the other player, and its second seat takes
    one of the two it was passed; the hero not taken leaves the game."""
    sc = load_scenario(SCENARIO)
    assert sc.n_heroes == 4 and sc.agent_names == ("player_0", "player_1")
    for seed in range(12):
        g = Game(sc, seed=seed)
        dealt = [_held(g, 0), _held(g, 2)]
        assert [len(d) for d in dealt] == [3, 3] and not dealt[0] & dealt[1]
        assert not _held(g, 1) and not _held(g, 3)
        kept = []
        for p in (0, 1):  # the keeps, in player order, each from its own deal
            assert g.current_seat == 2 * p and g.current_agent == f"player_{p}"
            assert {a - L.A_DRAFT for a in g.legal_actions()} == dealt[p]
            k = int(g.legal_actions()[seed % 3])
            g.apply(k)
            kept.append(k - L.A_DRAFT)
        for p in (0, 1):  # what a player did not keep is now the other player's to choose
            assert _held(g, 2 * (1 - p) + 1) == dealt[p] - {kept[p]}
        for p in (0, 1):
            assert g.current_seat == 2 * p + 1 and g.current_agent == f"player_{p}"
            passed = dealt[1 - p] - {kept[1 - p]}
            assert {a - L.A_DRAFT for a in g.legal_actions()} == passed
            g.apply(int(g.legal_actions()[-1]))
        assert g.decision != "draft"
        picks = g.field("draft_pick")[:4] - 1
        assert picks[0] == kept[0] and picks[2] == kept[1]
        assert picks[1] in dealt[1] and picks[3] in dealt[0]
        assert g.scenario.hero_ids == tuple(_pool(g)[i] for i in picks)
        left = set(range(len(_pool(g)))) - set(picks.tolist())
        assert len(left) == len(_pool(g)) - 4  # the rest left the game


def test_pass_draft_then_game_equals_game_of_that_team():
    """HoN setup step 1 with 002 §SET UP: after a pass draft the game is the one
    ``Game(heroes=team, seed=s)`` sets up, and it plays on identically; the invariants hold
    at every draft step."""
    for seed in (0, 5, 2**33 + 1):
        rng = np.random.default_rng(seed)
        g = Game(SCENARIO, seed=seed)
        _draft(g, rng)
        team = list(g.scenario.hero_ids)
        ref = Game(SCENARIO, seed=seed, heroes=team, rules={"draft": False})
        assert np.array_equal(g.state[0, OUTSIDE], ref.state[0, OUTSIDE])
        assert np.array_equal(g.observation()[:F.OFF_DRAFT], ref.observation()[:F.OFF_DRAFT])
        _play_on(g, ref, 150, rng)


def test_a_player_sees_its_own_deal_only_and_what_it_passed():
    """002 §SET UP (dealt face down): while keeping, a player's observation shows its own
    deal, not the other player's, and the other's keep stays hidden; once the rest is
    passed, the player sees what it passed on and, on its second seat, what it was passed."""
    g = Game(SCENARIO, seed=4)
    mine, theirs = _held(g, 0), _held(g, 2)
    obs = g.observation(0)

    def where(o, i, k):
        return o[F.OFF_DRAFT_POOL + i * F.DRAFT_POOL_FEATS + F.DP_WHERE + k]

    assert all(where(obs, i, 0) == 1 for i in mine)
    assert all(where(obs, i, 2) == 1 for i in theirs)
    q = F.OFF_DRAFT_PASS
    assert obs[q + F.DS_ON] == 1 and obs[q + F.DS_PLAYER] == 1 and obs[q + F.DS_SECOND] == 0
    assert obs[F.OFF_DRAFT + F.DR_MODE:F.OFF_DRAFT + F.DR_MODE + 3].sum() == 0
    g.apply(int(L.A_DRAFT + min(mine)))
    before = g.observation(0)
    g.apply(int(g.legal_actions()[0]))  # player 1 keeps: hidden from player 0's keep seat
    after = g.observation(0)
    other_keep = int(np.flatnonzero(g.field("draft_owner") == 3)[0])
    row = F.OFF_DRAFT_POOL + other_keep * F.DRAFT_POOL_FEATS
    assert not after[row + F.DP_TAKEN_BY:row + F.DP_TAKEN_BY + L.MAX_HEROES].any()
    passed_on = mine - {min(mine)}
    got = theirs - {other_keep}
    assert before[q + F.DS_PASSED] == 0 and after[q + F.DS_PASSED] == 1
    flags = after[q + F.DS_PASSED_ON:q + F.DS_PASSED_ON + L.MAX_DRAFT_POOL]
    assert set(np.flatnonzero(flags).tolist()) == passed_on
    second = g.observation(1)  # player 0's second seat decides now
    assert g.current_seat == 1 and second[q + F.DS_SECOND] == 1
    assert {i for i in range(len(_pool(g))) if where(second, i, 0) == 1} == got


def test_pettingzoo_player_agents_play_two_seats():
    """002 (each player controls two heroes): the agents are ``player_0`` and ``player_1``;
    an agent decides for both of its seats and observes as the seat it moves;
    ``infos[agent]["heroes"]`` lists its two heroes once drafted; the AEC and Parallel envs
    pass PettingZoo's API tests."""
    from pettingzoo.test import api_test, parallel_api_test

    from hon_env import hour_of_need_v8

    env = hour_of_need_v8.env(scenario=SCENARIO)
    env.reset(seed=1)
    assert env.agents == ["player_0", "player_1"]
    assert env.infos["player_0"]["heroes"] == [None, None]
    seats = []
    for agent in env.agent_iter(max_iter=6):
        obs, _, term, trunc, info = env.last()
        seat = env.unwrapped._session.require_game().current_seat
        seats.append((agent, seat))
        assert agent == f"player_{seat // 2}"
        own = obs["observation"][F.OFF_DRAFT + F.DR_SEAT:F.OFF_DRAFT + F.DR_SEAT + 6]
        assert own[seat] == 1  # it sees as the seat it moves
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert seats[:4] == [("player_0", 0), ("player_1", 2), ("player_0", 1), ("player_1", 3)]
    game = env.unwrapped._session.require_game()
    assert env.infos["player_1"]["heroes"] == list(game.scenario.hero_ids[2:4])
    assert {a for a, _ in seats[4:]} <= {"player_0", "player_1"}
    api_test(hour_of_need_v8.env(scenario=SCENARIO), num_cycles=200)
    parallel_api_test(hour_of_need_v8.parallel_env(scenario=SCENARIO), num_cycles=200)


def test_fame_of_a_player_sums_its_heroes():
    """A player's own fame and counters (``infos[agent]``) are the sums over its two
    heroes; ``fames`` keeps one entry per seat."""
    from hon_env import hour_of_need_v8

    env = hour_of_need_v8.parallel_env(scenario=SCENARIO)
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(120):
        if not env.agents:
            break
        masks = {a: env.action_mask(a) for a in env.agents}
        _, _, _, _, infos = env.step({a: int(rng.choice(np.flatnonzero(m)))
                                      for a, m in masks.items()})
    game = env._session.require_game()
    hev = game.field("hev")[:, list(L.HERO_COUNTER_COLS)]
    for p in (0, 1):
        own = infos[f"player_{p}"]["hero_events"]
        assert list(own.values()) == (hev[2 * p] + hev[2 * p + 1]).tolist()
    assert list(infos["player_0"]["fames"]) == ["hero_0", "hero_1", "hero_2", "hero_3"]


@pytest.mark.parametrize("heroes, rule, match", [
    (3, {"mode": "pass"}, "must be an even number"),
    (4, {"mode": "pass", "offer": 4}, "offer 4 to each of 2 players needs 8"),
    (2, {"mode": "pass", "offer": 1}, "at least 2"),
])
def test_bad_pass_rule_is_refused(heroes, rule, match):
    """A pass draft needs two seats per player, an offer of at least two and a pool that
    can deal every player its offer."""
    with pytest.raises(ContentError, match=match):
        load_scenario("origin_story", heroes=["majesty"] * heroes, rules={"draft": rule})


def test_one_player_passes_to_itself():
    """With one player (two seats) the heroes it did not keep come back to its second seat
    (its only neighbour is itself)."""
    g = Game("origin_story", seed=6, heroes=["majesty"] * 2,
             rules={"draft": {"mode": "pass"}})
    dealt = _held(g, 0)
    g.apply(int(L.A_DRAFT + min(dealt)))
    assert g.current_seat == 1 and _held(g, 1) == dealt - {min(dealt)}
    g.apply(int(g.legal_actions()[0]))
    assert g.decision != "draft" and g.scenario.n_heroes == 2


def test_three_players_pass_to_the_next():
    """Three players (six seats, an offer of two, the only three-player pass draft within
    the row bound): each keeps one of its two and the other goes to the next player, whose
    second seat must take it; every pool hero ends in a seat."""
    pool = ["majesty", "stride", "guerilla", "cipher", "vigil", "tinkerbolt"]
    rules = {"draft": {"mode": "pass", "pool": pool, "offer": 2}}
    for seed in range(6):
        g = Game("origin_story", seed=seed, heroes=["majesty"] * 6, rules=rules)
        assert g.draft_scenario.agent_names == ("player_0", "player_1", "player_2")
        dealt = [_held(g, 2 * p) for p in range(3)]
        _draft(g, np.random.default_rng(seed))
        picks = (g.field("draft_pick")[:6] - 1).tolist()
        for p in range(3):
            assert picks[2 * p] in dealt[p]
            assert {picks[2 * p + 1]} == dealt[(p - 1) % 3] - {picks[2 * (p - 1) % 6]}
        assert sorted(g.scenario.hero_ids) == sorted(pool)


def test_snapshot_and_renders_of_a_pass_game():
    """After a pass draft the snapshot names each hero by its seat (``hero_k``: the agents
    are the players); the text board marks the deciding seat, and the image renders (a
    player's name was looked up by seat before, and failed)."""
    from hon_env.render import render_ansi, render_rgb

    g = Game(SCENARIO, seed=1)
    _draft(g, np.random.default_rng(1))
    while g.current_seat != 3 and not g.is_over:
        g.apply(int(g.legal_actions()[0]))
    snap = g.snapshot()
    assert [h["id"] for h in snap["heroes"]] == ["hero_0", "hero_1", "hero_2", "hero_3"]
    assert snap["deciding"] == "player_1"
    text = render_ansi(g)
    assert ">[4] hero_3" in text and ">[1]" not in text
    assert render_rgb(g, dpi=40).std() > 0


def test_hon_play_match_of_a_pass_draft():
    """``hon-play --scenario draft_pass``: one player per seat, labelled by seat name; a
    human on seat 1 answers its keep, the scripted team the other picks and the game."""
    from hon_env.play.match import Match, parse_players

    sc = load_scenario(SCENARIO)
    m = Match(sc, seed=3, players=parse_players(4, [1], "heuristic"))
    assert m.seat_labels() == ["1 hero_0: human", "2 hero_1: heuristic",
                               "3 hero_2: heuristic", "4 hero_3: heuristic"]
    m.advance()
    assert m.human_to_move and m.game.decision == "draft"
    m.act(m.legal_moves()[0][0])
    m.advance(200)
    assert m.game.decision != "draft" and len(m.game.scenario.hero_ids) == 4
