"""The Fame variant: each hero's own score on the cooperative board (rules ``fame``).

Source: seed 001 (*Heroes Wanted*, ``/work/shared/rules/001_…``): §Damage (DMG) (fame for
knocking out enemies and the villain, and for villain damage), §Being KO'ed and §Injuries
(a knocked-out hero pays fame), §Headlines and Hero Bonus Cards (public goals whose value
falls as heroes finish them), §End of the Game (the fame leader wins; ties) and §Solo and
Campaign Mode with the Asylum scenario (a lost game pays nobody). docs/variants.md
describes the variant and how each rule is read on Hour of Need's board.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test
from rules_helpers import BLANK, SUCCESS, put_minions, roll_attack, setup

from hon_env import Game, hour_of_need_v8, load_scenario, vector_env
from hon_env import positions as P
from hon_env.content.errors import ContentError
from hon_env.content.fame import FAME_TABLE_DEFAULTS
from hon_env.core.invariants import violations
from hon_env.spec import layout as L
from hon_env.spec import obs_features as F
from hon_env.spec.tables import FM_POOL, HL_AT_LEAST, HL_COUNTER, HL_VALUE

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from record_golden import play  # noqa: E402

GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.json"))
FAME_FIELDS = ("hev", "fame", "headline", "headline_rank", "headline_done")


def fame_scenario(**rule):
    return load_scenario("origin_story", rules={"fame": {"headlines": 0, **rule}})


def hev(g: Game, name: str, seat: int = 0) -> int:
    """Hero ``seat``'s own counter ``name`` (``layout.HERO_COUNTER_NAMES``)."""
    col = L.HERO_COUNTER_COLS[L.HERO_COUNTER_NAMES.index(name)]
    return int(g.field("hev")[seat, col])


def showdown_attack(g: Game, damage: int, faces: list[int]) -> None:
    """Put the villain on its Showdown side on D3 with ``damage`` (Contested Will on top of
    its deck), then Attack D3 with the dice forced to ``faces``."""
    P.set_villain(g, side="showdown", where="D3", owner=0, damage=damage)
    P.stack_villain_deck(g, ["Contested Will"])
    roll_attack(g, "D3", faces)


def fame(g: Game, seat: int = 0) -> int:
    return int(g.field("fame")[seat])


def outside_fame(state: np.ndarray) -> np.ndarray:
    """The state columns that are not the Fame variant's."""
    keep = np.ones(L.STATE_LEN, bool)
    for name in FAME_FIELDS:
        start, shape = L.FIELDS[name]
        keep[start:start + int(np.prod(shape))] = False
    return state[..., keep]


# --------------------------------------------------------------------------- the rule switch

def test_rule_values_and_defaults():
    """Off by default; ``True`` takes the defaults; a mapping overrides them key by key and
    the table entry by entry."""
    assert load_scenario("origin_story").rules["fame"] is False
    assert load_scenario("origin_story").fame_mode == "team"
    on = load_scenario("origin_story", rules={"fame": True})
    assert on.rules["fame"]["reward"] == "team" and on.rules["fame"]["headlines"] == 4
    sc = load_scenario("origin_story", rules={"fame": {"reward": "rank",
                                                       "table": {"minion": 3}}})
    assert sc.fame_mode == "rank"
    assert dict(sc.rules["fame"]["table"]) == {**FAME_TABLE_DEFAULTS, "minion": 3}
    assert load_scenario("fame_race").fame_mode == "rank"


@pytest.mark.parametrize("value,match", [
    ({"reward": "solo"}, r"fame.reward.*team, fame, rank"),
    ({"team_weight": -1}, r"fame.team_weight"), ({"loss_keep": 2}, r"fame.loss_keep"),
    ({"scale": 0}, r"fame.scale"), ({"headlines": 5}, r"fame.headlines"),
    ({"table": {"kick": 1}}, r"fame.table.kick.*unknown"), ({"bonus": True}, "unknown fame"),
    ({"headline_cards": "nope"}, r"no headline cards 'nope'"), ("yes", "expected a mapping"),
])
def test_bad_rule_values_are_refused(value, match):
    """Bad settings are errors naming the key and what is allowed."""
    with pytest.raises(ContentError, match=match):
        load_scenario("origin_story", rules={"fame": value})


def test_headline_file_is_validated(tmp_path):
    """Headline cards are content: a bad counter or rising values are refused, naming the
    file and the card."""
    import shutil

    content = tmp_path / "content"
    shutil.copytree(ROOT / "configs" / "content", content)
    path = content / "headlines" / "core.yaml"
    text = path.read_text()
    path.write_text(text.replace("counter: minions_defeated", "counter: naps_taken", 1))
    scen = tmp_path / "scenarios"
    scen.mkdir()
    shutil.copy(ROOT / "configs" / "scenarios" / "origin_story.yaml", scen)
    with pytest.raises(ContentError, match=r"counter.*naps_taken"):
        load_scenario(scen / "origin_story.yaml", content_dir=content, rules={"fame": True})
    path.write_text(text.replace("values: [3, 2, 1]", "values: [1, 2, 3]", 1))
    with pytest.raises(ContentError, match=r"values must not rise"):
        load_scenario(scen / "origin_story.yaml", content_dir=content, rules={"fame": True})


# --------------------------------------------------------------------------- equivalence

@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_fame_is_an_observer_of_the_game(path):
    """VARIANTS §1.10.1 (001 §Damage (DMG): the scoring is bookkeeping): with the rule on
    (rank mode, four headlines) every golden replay meets the same decisions and ends in the
    same position, and after every action the engine state outside the fame fields is
    identical to the game without the rule (headlines use their own random stream)."""
    rec = json.loads(path.read_text())
    case = {k: rec[k] for k in ("name", "scenario", "heroes", "villain", "seed", "policy",
                                "rules") if k in rec}
    rules = dict(case.get("rules") or {})
    on = {**rules, "fame": {"reward": "rank", "headlines": 4}}
    got = play({**case, "rules": on}, actions=rec["actions"])
    assert got["decisions"] == rec["decisions"] and got["final"] == rec["final"]
    kw = {"seed": case["seed"], "heroes": case["heroes"], "villain": case.get("villain")}
    base = Game(case["scenario"], rules=rules or None, **kw)
    same = Game(case["scenario"], rules=on, **kw)
    assert (same.field("headline") >= 0).sum() == 4
    for a in rec["actions"]:
        base.apply(a)
        same.apply(a)
        np.testing.assert_array_equal(outside_fame(base.state), outside_fame(same.state))
    np.testing.assert_array_equal(base.field("hev"), same.field("hev"))


def test_team_mode_rewards_equal_the_base_game():
    """With mode ``team`` the vector env's rewards, observations (outside the fame
    sections) and episode ends equal those of the game without the rule, step by step."""
    kw = dict(scenario="origin_story", heroes=["majesty", "stride"],
              reward_shaping={"rescues": 0.1, "hero_defeats": -0.2})
    base = vector_env(8, seed=5, **kw)
    team = vector_env(8, seed=5, rules={"fame": {"reward": "team"}}, **kw)
    ob, _ = base.reset()
    ot, _ = team.reset()
    rng = np.random.default_rng(1)
    fame_start = F.OFF_FAME
    ends = 0
    for _ in range(1500):
        acts = base.sample_actions(rng)
        ob, rb, tb, ub, _ = base.step(acts)
        ot, rt, tt, ut, _ = team.step(acts)
        np.testing.assert_array_equal(rb, rt)
        np.testing.assert_array_equal(tb, tt)
        np.testing.assert_array_equal(ub, ut)
        np.testing.assert_array_equal(ob["observation"][:, :fame_start],
                                      ot["observation"][:, :fame_start])
        ends += int(tb.sum())
    assert ends > 0


# --------------------------------------------------------------------------- attribution

def _random_games(games: int, steps: int, **kw) -> None:
    env = vector_env(games, seed=11, **kw)
    env.reset()
    rng = np.random.default_rng(2)
    T = env.scenario.tables
    for _ in range(steps):
        env.step(env.sample_actions(rng))
        hev_ = L.field_view(env.state, "hev")
        events = L.field_view(env.state, "events")
        for e in L.HERO_EVENTS:
            np.testing.assert_array_equal(hev_[:, :, e].sum(axis=1), events[:, e],
                                          err_msg=L.EVENT_NAMES[e])
        assert violations(env.state, T, env.masks) == []


@pytest.mark.parametrize("kw", [
    dict(heroes=["majesty", "stride", "microguy", "vigil"], rules={"fame": True}),
    dict(heroes=["majesty", "stride", "cipher", "guerilla", "tinkerbolt"],
         rules={"allies": ["crabman", "lox_lee"], "special_minions": ["hired_muscle"],
                "special_bystanders": ["foremans_crew"]}),
], ids=["four_heroes_fame", "five_heroes_allies"])
def test_attribution_is_conserved(kw):
    """VARIANTS §1.10.2: for every attributable event the heroes' own counters add up to
    the team counter after every step of random games (allies credit their hero,
    engine.md #38), with the rule on or off."""
    _random_games(16, 1200, **kw)


# --------------------------------------------------------------------------- scoring rules

def test_minion_gives_one_fame():
    """001 §Damage (DMG) (an underling knocked out pays 1 fame): a minion defeated by the
    hero's attack gives it 1 fame and counts as its minion."""
    g = setup(fame_scenario(), "G5")
    put_minions(g, 2, 3)
    roll_attack(g, "panel 2", [SUCCESS, SUCCESS, BLANK])
    assert hev(g, "minions_defeated") == 2 and fame(g) == 2


def test_lackey_gives_two_fame():
    """001 §Damage (DMG) (a henchman knocked out pays 2 fame): defeating a lackey gives 2
    fame; the table overrides it."""
    for table, want in (({}, 2), ({"enemy": 5}, 5)):
        g = setup(fame_scenario(table=table), "C3")
        P.add_villain_card(g, "Chauffeur Vance", 0, "D3")  # health 3, defense 0
        roll_attack(g, "D3", [SUCCESS, SUCCESS, SUCCESS])
        assert hev(g, "enemies_defeated") == 1 and fame(g) == want


def test_final_blow_and_villain_damage_at_the_end():
    """001 §Damage (DMG) (the villain's knockout pays most; villain damage pays 1 fame per
    2 at the end, rounded down): the final blow gives 3, not the 2 of an enemy; 1 damage
    dealt gives 0 end fame (rounded down); a lone hero gets no most-damage or most-enemies
    award (001 §Solo and Campaign Mode)."""
    g = setup(fame_scenario(), "C3")
    showdown_attack(g, 5, [SUCCESS, SUCCESS, BLANK])
    assert g.outcome == "win"
    assert hev(g, "final_blows") == 1 and hev(g, "villain_damage") == 1
    # 3 final blow + 0 (1 damage // 2); solo: no most-villain-damage or most-enemies award
    assert fame(g) == 3 + 0


def test_a_lone_hero_scores_without_the_most_damage_and_enemies_awards():
    """001 §Solo and Campaign Mode: the solo hero totals its fame and every end-of-game
    award except the most damage to the villain and the most henchmen or underlings
    knocked out. A lone hero that knocks the villain out with 2 damage scores the final
    blow (3) and 1 fame for the 2 damage: 4, not 7."""
    g = setup(fame_scenario(), "C3")
    assert g.scenario.n_heroes == 1
    showdown_attack(g, 4, [SUCCESS, SUCCESS, SUCCESS])
    assert g.outcome == "win"
    assert hev(g, "final_blows") == 1 and hev(g, "villain_damage") == 2
    assert fame(g) == 3 + 1
    # the rescue award stays (the seed excludes only the two above)
    from hon_env.core.effects import end_game

    g = Game(fame_scenario(), seed=0)
    g.field("hev")[0, L.EV_RESCUES] = 2
    g.field("hev")[0, L.EV_ENEMIES_DEFEATED] = 3
    end_game(g.state, 0, g.scenario.tables, L.OUT_LOSS, L.LOSS_ISSUE_DECK)
    assert fame(g) == 1


def test_villain_damage_pays_one_per_two():
    """001 §Damage (DMG) ("1 fame per 2 damage", rounded down): damage to the villain that
    does not defeat it pays nothing during play; at the end of the game 3 damage pay 1
    fame and 4 pay 2."""
    from hon_env.core.effects import end_game

    for dealt, want in ((3, 1), (4, 2)):
        g = setup(fame_scenario(table={"most_villain_damage": 0}), "C3")
        showdown_attack(g, 0, [SUCCESS, SUCCESS, BLANK])
        assert hev(g, "villain_damage") == 1 and fame(g) == 0
        g.field("hev")[0, L.HV_VILLAIN_DAMAGE] = dealt  # as after more attacks
        end_game(g.state, 0, g.scenario.tables, L.OUT_LOSS, L.LOSS_ISSUE_DECK)
        assert fame(g) == want


def test_defeat_costs_two_fame():
    """001 §Being KO'ed, §Injuries (each injury costs 2 fame at the end): a defeated hero
    loses 2 fame and counts the defeat as its own."""
    g = setup(fame_scenario(), "C3")
    g.field("hdmg")[0] = 9
    P.jump(g, "hero_turn")
    from hon_env.core.interp import defeat_hero

    defeat_hero(g.state, 0, g.scenario.tables, 0)
    assert hev(g, "hero_defeats") == 1 and fame(g) == -2


# --------------------------------------------------------------------------- headlines

def _with_headline(sc, counter: str, at_least: int, values=(3, 2, 1)) -> Game:
    """A game of ``sc`` whose headline slot 0 is the card watching ``counter``."""
    g = Game(sc, seed=0)
    T = sc.tables
    col = L.HERO_COUNTER_COLS[L.HERO_COUNTER_NAMES.index(counter)]
    rows = [r for r in range(int(T.fame[FM_POOL])) if T.headline[r, HL_COUNTER] == col]
    assert rows, counter
    g.field("headline")[:] = -1
    g.field("headline")[0] = rows[0]
    assert int(T.headline[rows[0], HL_AT_LEAST]) == at_least
    assert tuple(T.headline[rows[0], HL_VALUE:]) == values
    return g


def test_headlines_are_a_race():
    """001 §Headlines and Hero Bonus Cards (the first hero to finish a headline takes the
    best value left, the next the next one; each hero finishes it once): on "Crew Breaker"
    (2 enemies defeated) the first finisher gets 3 fame, the second 2, and a third enemy
    pays the first finisher nothing more."""
    from hon_env.core.fame import credit

    sc = load_scenario("origin_story", heroes=["majesty", "stride"],
                       rules={"fame": {"headlines": 1, "table": {"enemy": 0}}})
    g = _with_headline(sc, "enemies_defeated", 2)
    T = sc.tables
    credit(g.state, 0, T, L.EV_ENEMIES_DEFEATED, 1, 2)
    assert fame(g, 1) == 3 and fame(g, 0) == 0
    credit(g.state, 0, T, L.EV_ENEMIES_DEFEATED, 0, 1)
    assert fame(g, 0) == 0
    credit(g.state, 0, T, L.EV_ENEMIES_DEFEATED, 0, 1)
    assert fame(g, 0) == 2
    credit(g.state, 0, T, L.EV_ENEMIES_DEFEATED, 1, 1)
    assert fame(g, 1) == 3
    assert g.field("headline_rank")[0, :2].tolist() == [2, 1]
    assert violations(g.state, T) == []


def test_headlines_are_dealt_from_their_own_stream():
    """VARIANTS §0 convention 4: headlines are dealt from a stream of their own: the
    game's generator words are the same with or without them, different seeds deal
    different headlines, and the same seed the same ones."""
    on = load_scenario("origin_story", rules={"fame": {"headlines": 4}})
    deals = set()
    for seed in range(12):
        a, b = Game("origin_story", seed=seed), Game(on, seed=seed)
        np.testing.assert_array_equal(outside_fame(a.state), outside_fame(b.state))
        rows = b.field("headline").tolist()
        assert len(set(rows)) == 4 and min(rows) >= 0
        assert rows == Game(on, seed=seed).field("headline").tolist()
        deals.add(tuple(rows))
    assert len(deals) > 6


# --------------------------------------------------------------------------- rewards

def test_rank_leader_tie_breaks():
    """001 §End of the Game (most fame wins; ties go to the hero furthest from the first
    hero): the leader is the most fame, then the most villain damage, then the highest
    seat."""
    from hon_env.core.fame import leader

    sc = load_scenario("origin_story", heroes=["majesty", "stride", "cipher"],
                       rules={"fame": True})
    g = Game(sc, seed=0)
    T = sc.tables
    g.field("fame")[:3] = [4, 4, 1]
    assert leader(g.state, 0, T) == 1
    g.field("hev")[0, L.HV_VILLAIN_DAMAGE] = 2
    assert leader(g.state, 0, T) == 0
    g.field("fame")[:3] = [4, 4, 4]
    g.field("hev")[2, L.HV_VILLAIN_DAMAGE] = 2
    assert leader(g.state, 0, T) == 2


def test_most_awards_go_to_every_tied_hero():
    """001 §End of the Game ("most ..." awards; the seed leaves ties open): at the end each
    hero tied for the most rescues gets the award, the most enemies counts minions too,
    and nobody wins an award for a count of 0."""
    from hon_env.core.effects import end_game

    sc = load_scenario("origin_story", heroes=["majesty", "stride", "cipher"],
                       rules={"fame": {"headlines": 0}})
    g = Game(sc, seed=0)
    hev_ = g.field("hev")
    hev_[0, L.EV_RESCUES] = hev_[1, L.EV_RESCUES] = 2
    hev_[2, L.EV_ENEMIES_DEFEATED] = 1
    hev_[0, L.HV_MINIONS] = 1
    hev_[1, L.HV_MINIONS] = 2
    end_game(g.state, 0, sc.tables, L.OUT_LOSS, L.LOSS_ISSUE_DECK)
    # rescues: seats 0 and 1 tie (+1 each); enemies + minions: seat 1 has 2 (+1);
    # villain damage: everyone 0, no award
    assert g.field("fame")[:3].tolist() == [1, 2, 0]


def _episode_returns(mode: dict, episodes: int = 40, heroes=("majesty", "stride", "cipher")):
    """Per-episode (returns per hero, outcome, final fame) of random play (Parallel env)."""
    env = hour_of_need_v8.parallel_env(scenario="origin_story", heroes=list(heroes),
                                       rules={"fame": {"headlines": 2, **mode}})
    rng = np.random.default_rng(3)
    out = []
    for ep in range(episodes):
        obs, infos = env.reset(seed=ep)
        ret = dict.fromkeys(env.possible_agents, 0.0)
        while env.agents:
            decider = infos[env.agents[0]]["acting_hero"]
            acts = dict.fromkeys(env.agents, 0)
            acts[decider] = int(rng.choice(np.flatnonzero(obs[decider]["action_mask"])))
            obs, rewards, _, _, infos = env.step(acts)
            for a, r in rewards.items():
                ret[a] += r
        info = infos[env.possible_agents[0]]
        out.append((ret, info["outcome"], info["fames"]))
    return out


def test_rank_rewards_sum_to_one():
    """VARIANTS §1.10.8 (001 §End of the Game, winner takes all): with team_weight 0 and a
    loss keeping the prize, exactly one hero gets +1 in every finished episode, the fame
    leader; the rewards of each episode sum to 1."""
    results = _episode_returns({"reward": "rank", "team_weight": 0.0, "loss_keep": 1.0})
    finished = 0
    for ret, outcome, fames in results:
        if outcome == "truncated":
            continue
        finished += 1
        assert sum(ret.values()) == pytest.approx(1.0)
        winner = max(ret, key=ret.get)
        assert fames[winner] == max(fames.values())
    assert finished > 10


def test_gate_cancels_fame_on_a_loss():
    """VARIANTS §1.10.7 (001 §Solo and Campaign Mode and the Asylum scenario: when the city
    falls nobody is recruited): in the fame mode a hero's return is team_weight x outcome
    plus fame / scale on a win, and team_weight x outcome alone on a loss."""
    scale = 10.0
    results = _episode_returns({"reward": "fame", "team_weight": 1.0, "scale": scale})
    losses = wins = 0
    for ret, outcome, fames in results:
        for agent, r in ret.items():
            if outcome == "loss":
                assert r == pytest.approx(-1.0)
            elif outcome == "win":
                assert r == pytest.approx(1.0 + fames[agent] / scale)
        losses += outcome == "loss"
        wins += outcome == "win"
    assert losses > 0


def test_fame_mode_pays_fame_as_it_comes():
    """The fame mode is dense: during play each hero's reward is its fame change / scale
    (different heroes get different rewards), and with loss_keep 1 a loss keeps it."""
    results = _episode_returns({"reward": "fame", "team_weight": 0.0, "loss_keep": 1.0})
    unequal = False
    for ret, _, fames in results:
        for agent, r in ret.items():
            assert r == pytest.approx(fames[agent] / 10.0)
        unequal |= len(set(ret.values())) > 1
    assert unequal


def test_vector_env_per_hero_rewards_match_pettingzoo():
    """The vector env scores with the same kernel: game 0's per-hero rewards equal the
    PettingZoo env's for the same seed and actions; infos carry each hero's fame."""
    rules = {"fame": {"reward": "fame", "headlines": 3}}
    heroes = ["majesty", "stride"]
    venv = vector_env(1, seed=4, heroes=heroes, rules=rules)
    obs, info = venv.reset()
    env = hour_of_need_v8.parallel_env(heroes=heroes, rules=rules)
    pobs, pinfo = env.reset(seed=4)
    rng = np.random.default_rng(5)
    for _ in range(400):
        a = int(venv.sample_actions(rng)[0])
        acts = dict.fromkeys(heroes, 0)
        acts[pinfo["majesty"]["acting_hero"]] = a
        _, r, term, trunc, info = venv.step(np.array([a]))
        _, pr, _, _, pinfo = env.step(acts)
        np.testing.assert_allclose(r[0], [pr[h] for h in heroes], rtol=1e-6)
        if term[0] or trunc[0]:
            assert info["final_fame"][0].tolist() == [pinfo[h]["fame"] for h in heroes]
            break
        assert info["fame"][0].tolist() == [pinfo[h]["fame"] for h in heroes]
        assert info["hero_events"][0, 1].tolist() == list(pinfo["stride"]["hero_events"].values())


def test_pettingzoo_api_with_unequal_rewards():
    """PettingZoo's api_test and parallel_api_test pass in the rank and fame modes."""
    api_test(hour_of_need_v8.env(scenario="fame_race"), num_cycles=300)
    parallel_api_test(hour_of_need_v8.parallel_env(scenario="fame_race"), num_cycles=300)
    rules = {"fame": {"reward": "fame"}}
    api_test(hour_of_need_v8.env(heroes=["majesty", "stride"], rules=rules), num_cycles=300)


def test_team_reward_front_ends_refuse_individual_rewards():
    """A front end with one reward per game refuses the fame and rank modes clearly."""
    from hon_env.envs.gym_env import HourOfNeedEnv
    from hon_env.envs.sb3 import SB3VecEnv

    with pytest.raises(ValueError, match="own reward"):
        HourOfNeedEnv(scenario="fame_race")
    with pytest.raises(ValueError, match="own reward"):
        SB3VecEnv(num_envs=2, scenario="fame_race")
    HourOfNeedEnv(rules={"fame": True})  # the team mode is fine


def test_infos_in_the_cooperative_game():
    """Per-hero fame and counters are reported with the rule off too ("who did what")."""
    env = hour_of_need_v8.parallel_env(heroes=["majesty", "stride"])
    _, infos = env.reset(seed=0)
    assert infos["majesty"]["fame"] == 0
    assert set(infos["stride"]["hero_events"]) == set(L.HERO_COUNTER_NAMES)
    assert set(infos["majesty"]["fames"]) == {"majesty", "stride"}
    num = hour_of_need_v8.parallel_env(numeric_info=True)
    _, infos = num.reset(seed=0)
    assert infos["majesty"]["hero_events"].shape == (len(L.HERO_COUNTER_NAMES),)


# --------------------------------------------------------------------------- observation

def test_fame_sections_are_zero_with_the_rule_off():
    """The fame sections are always present and all zero without the rule."""
    g = Game("origin_story", heroes=["majesty", "stride"], seed=0)
    rng = np.random.default_rng(0)
    for _ in range(150):
        if g.is_over:
            break
        g.apply(int(rng.choice(g.legal_actions())))
    o = g.observation(0)
    assert not o[F.OFF_FAME:F.OFF_FAME_HEADLINES + 4 * F.FAME_HEADLINE_FEATS].any()
    assert F.OFF_FAME_HEADLINES + 4 * F.FAME_HEADLINE_FEATS == F.OFF_ET  # then enemy_ties


def test_fame_sections_show_the_scores():
    """The observation shows every hero's fame and counters, self first, the leader, and
    each headline with its progress."""
    from hon_env.core.fame import credit
    from hon_env.spec.obs_features import read, read_row

    sc = load_scenario("origin_story", heroes=["majesty", "stride"],
                       rules={"fame": {"headlines": 1, "reward": "rank"}})
    g = _with_headline(sc, "enemies_defeated", 2)
    credit(g.state, 0, sc.tables, L.EV_ENEMIES_DEFEATED, 1, 1)
    o = g.observation(0)
    assert read(o, "fame.on") == 1.0
    assert read(o, "fame.reward_mode").tolist() == [0.0, 0.0, 1.0]
    me, other = read_row(o, "fame_seats", 0), read_row(o, "fame_seats", 1)
    assert me["fame"] == 0.0 and other["fame"] == pytest.approx(0.2)
    assert other["leader"] == 1.0 and me["leader"] == 0.0
    k = L.HERO_COUNTER_NAMES.index("enemies_defeated")
    assert other["counters"][k] == pytest.approx(0.1)
    row = read_row(o, "fame_headlines", 0)
    assert row["present"] == 1.0 and row["counter"][k] == 1.0
    assert row["own_progress"] == 0.0 and row["best_other_progress"] == pytest.approx(0.5)
    assert row["next_value"] == pytest.approx(1.0)
    o1 = g.observation(1)
    assert read_row(o1, "fame_seats", 0)["leader"] == 1.0
    assert read_row(o1, "fame_headlines", 0)["own_progress"] == pytest.approx(0.5)
    g.field("fame")[0] = -4  # two defeats: the observation stays >= 0
    o = g.observation(0)
    assert read_row(o, "fame_seats", 0)["fame_below_zero"] == pytest.approx(0.4)
    assert read_row(o, "fame_seats", 0)["fame"] == 0.0 and o.min() >= 0.0


def test_state_validation_covers_fame_fields():
    """A state whose per-hero counters do not add up is caught by the invariants."""
    g = Game(fame_scenario(), seed=0)
    g.field("hev")[0, L.EV_RESCUES] = 3
    assert any("rescues" in v for v in violations(g.state, g.scenario.tables))


# --------------------------------------------------------------------------- agents

def test_glory_seekers_are_legal_and_deterministic():
    """The glory-seeking team plays legal actions only, the same ones for the same games,
    and reports each seat's mean fame."""
    from agents.evaluation import evaluate
    from agents.registry import load_policy

    a = evaluate(load_policy("glory_one"), scenario="fame_race", games=6, seed=3)
    b = evaluate(load_policy("glory_one"), scenario="fame_race", games=6, seed=3)
    assert a == b and len(a.mean_fame) == 3
    c = evaluate(load_policy("glory_all"), scenario="fame_race", games=6, seed=3)
    assert c.games == 6 and a.mean_fame != c.mean_fame


def test_fame_table_command(capsys):
    """scripts/fame_table.py prints the result table (three teams per team size)."""
    from fame_table import main

    main(["--games", "4", "--heroes", "2"])
    out = capsys.readouterr().out
    assert out.count("| 2 |") == 3 and "glory seekers only" in out


def test_fame_rule_is_decoded_once_from_the_resolved_settings():
    """001 (Fame): the scenario's decoded rule carries the resolved settings, and the
    reward parameters read it (team mode when the rule is off)."""
    from hon_env import load_scenario
    from hon_env.content.fame import FameRule
    from hon_env.rewards import RP_MODE, RP_SCALE, RP_TEAM_WEIGHT, reward_params

    sc = load_scenario("origin_story", rules={"fame": {"reward": "fame", "scale": 5.0}})
    rule = sc.fame_rule
    assert isinstance(rule, FameRule) and rule.reward == "fame" and rule.scale == 5.0
    assert rule == FameRule.decode(dict(sc.rules["fame"]))
    assert load_scenario("origin_story").fame_rule is None
    params = reward_params(np.zeros(L.N_EVENTS), rule)
    assert params[RP_SCALE] == 5.0 and params[RP_TEAM_WEIGHT] == rule.team_weight
    assert params[RP_MODE] == 1  # REWARD_MODES: team, fame, rank
    assert reward_params(np.zeros(L.N_EVENTS), None)[RP_MODE] == 0
