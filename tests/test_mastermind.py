"""The Mastermind variant: the villain as an agent (rules ``villain_agent``).

Sources: the rulebook (000, Villain Turn; Rolling and Resolving Hero Dice step 5;
Ploy Icons, cunning) for what a villain card does, and seed 004 (the Marvel mastermind
game: §3, each player's villain cards are private; §4 Troubleshooting steps 3-4, the
opponent picks the villain card played against a hero's attempt; §4 Mastermind Headline,
the mastermind's scheming choice; §1/§6, the opposition wins what the heroes lose) for
the villain's choices. docs/mastermind.md describes the variant.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, seed_test
from rules_helpers import BLANK, answer_until, changes, dist, setup, sp, summary

from agents.evaluation import evaluate
from agents.registry import load_policy
from agents.villains import ScriptedVillain, VersusPolicy, load_villain
from hon_env import Game, hour_of_need_v8, load_scenario, vector_env
from hon_env import positions as P
from hon_env.content.errors import ContentError
from hon_env.core.invariants import violations
from hon_env.envs.villain_env import VILLAIN_ENV_ID, HourOfNeedVillainEnv
from hon_env.errors import StateError
from hon_env.spec import layout as L
from hon_env.spec import obs_features as F
from hon_env.spec.tables import VC_SHOWDOWN_PROG, VC_TYPE, VT_LACKEY, VT_PERIL

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from record_golden import play  # noqa: E402

GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.json"))


def _one_villain(path: Path) -> bool:
    """Whether a golden record plays one villain (the villain agent plays one: Two Fronts
    records do not combine with it)."""
    rec = json.loads(path.read_text())
    return not load_scenario(rec["scenario"], heroes=rec.get("heroes"),
                             villain=rec.get("villain")).two_fronts


ONE_VILLAIN_GOLDEN = [p for p in GOLDEN if _one_villain(p)]
DEGENERATE = {"hand": 1, "cunning": "heroes", "showdown": True}
DUO = ["majesty", "stride"]
VA = F.OFF_VA


def mastermind(seed: int = 0, **rule) -> Game:
    return Game("origin_story", heroes=DUO, seed=seed,
                rules={"villain_agent": {**{"hand": 3}, **rule}})


def run_to_villain(g: Game, kind: int = L.D_VPLAY, rng=None) -> None:
    """Random legal play until the villain must make a decision of ``kind``."""
    rng = rng or np.random.default_rng(0)
    while not (g.current_seat == L.VILLAIN_SEAT and int(g.state[0, L.DEC_KIND]) == kind):
        assert not g.is_over, "the game ended first"
        g.apply(int(rng.choice(g.legal_actions())))


def hand(g: Game) -> list[int]:
    return np.flatnonzero(g.field("vloc") == L.L_HAND).tolist()


# --------------------------------------------------------------------------- the rule switch

def test_rule_values_and_defaults():
    """``True`` takes the defaults; a mapping overrides them key by key; off by default."""
    assert load_scenario("origin_story").rules["villain_agent"] is False
    assert not load_scenario("origin_story").villain_agent
    on = load_scenario("origin_story", rules={"villain_agent": True})
    assert dict(on.rules["villain_agent"]) == {"hand": 3, "showdown": True,
                                               "cunning": "villain", "inflict_victim": "heroes",
                                               "enemy_ties": "fixed"}
    assert on.villain_agent and on.possible_agents == ("majesty", "villain")
    assert load_scenario("mastermind").possible_agents == ("majesty", "stride", "villain")


@pytest.mark.parametrize("value,match", [
    ({"hand": 0}, r"villain_agent.hand"), ({"hand": 11}, r"villain_agent.hand"),
    ({"hand": True}, "expected an integer"), ({"showdown": "yes"}, "true or false"),
    ({"cunning": "nobody"}, "expected one of villain, heroes"),
    ({"inflict_victim": 1}, "expected one of"), ({"hands": 3}, "unknown villain_agent setting"),
    ("on", "expected a mapping"), (3, "expected a mapping"),
])
def test_bad_rule_values_are_refused(value, match):
    """Every bad setting is a ContentError naming the key; nothing is coerced."""
    with pytest.raises(ContentError, match=match):
        load_scenario("origin_story", rules={"villain_agent": value})


# --------------------------------------------------------------------------- degenerate = base

@pytest.mark.parametrize("path", ONE_VILLAIN_GOLDEN, ids=[p.stem for p in ONE_VILLAIN_GOLDEN])
def test_degenerate_setting_is_the_rulebook_game(path):
    """VARIANTS §4.10.1 (rulebook: Villain Turn): a hand of 1 with the heroes choosing at
    cunning icons is Hour of Need exactly: every golden replay meets the same decisions and
    the same final position, and the engine state is identical after every action."""
    rec = json.loads(path.read_text())
    case = {k: rec[k] for k in ("name", "scenario", "heroes", "seed", "policy", "rules")
            if k in rec}
    rules = dict(case.get("rules") or {})
    variant = {**case, "rules": {**rules, "villain_agent": DEGENERATE}}
    got = play(variant, actions=rec["actions"])
    assert got["decisions"] == rec["decisions"] and got["final"] == rec["final"]
    base = Game(case["scenario"], seed=case["seed"], heroes=case["heroes"], rules=rules or None)
    same = Game(case["scenario"], seed=case["seed"], heroes=case["heroes"],
                rules=variant["rules"])
    for a in rec["actions"]:
        base.apply(a)
        same.apply(a)
        np.testing.assert_array_equal(base.state, same.state)


# --------------------------------------------------------------------------- the villain's choices

def test_villain_choice_resolves_for_the_named_hero():
    """004 §4 Troubleshooting step 3 / rulebook Villain Turn: the villain picks one card of
    its hand of 3 for the hero named in the decision; that card resolves as if the hero had
    drawn it (a Lackey or Peril enters that hero's threat area) and the others stay."""
    for seed in range(40):
        g = mastermind(seed)
        run_to_villain(g, rng=np.random.default_rng(seed))
        cards = hand(g)
        assert len(cards) == 3 and g.decision == "villain_play"
        hero = int(g.state[0, L.DEC_A])
        figures = [c for c in cards if g.scenario.tables.vcard[c, VC_TYPE] in (VT_LACKEY, VT_PERIL)]
        if not figures:
            continue
        chosen = figures[0]
        g.apply(L.A_TARGET + L.T_V0 + chosen)
        assert set(cards) - {chosen} <= set(hand(g))
        assert int(g.field("vloc")[chosen]) == L.L_THREAT
        assert int(g.field("vowner")[chosen]) == hero
        return
    pytest.fail("no seed put a Lackey or Peril card in the first hand")


def test_villain_decides_only_between_cards_in_hand():
    """The villain_play mask is exactly the hand: one TARGET per held card (VARIANTS §4.5)."""
    g = mastermind(3)
    run_to_villain(g)
    want = np.zeros(L.N_ACTIONS, np.int8)
    want[[L.A_TARGET + L.T_V0 + c for c in hand(g)]] = 1
    np.testing.assert_array_equal(g.legal_mask(), want)
    assert g.current_agent == "villain"


def showdown_game(hand_cards: list[str]) -> Game:
    """Majesty on F5 next to the revealed Dowager on G5; the villain holds ``hand_cards``
    (a hand of that size, so it draws none before choosing)."""
    sc = load_scenario("origin_story", heroes=DUO,
                       rules={"villain_agent": {"hand": len(hand_cards)}})
    g = setup(sc, "F5", cards=("Throne Breaker",))
    P.empty_hand(g, 1)
    P.place_hero(g, 1, "B1")
    P.set_villain(g, side="showdown", where="G5", owner=0, damage=3)
    for c in P.stack_villain_deck(g, hand_cards):  # from the deck into the villain's hand
        P._take_from_deck(g.field("vdeck_order"), g.field("vdeck_n"), c)
        g.field("vloc")[c] = L.L_HAND
    P.jump(g, "hero_turn")
    assert dist(g, "F5", "G5") == 1
    return g


def test_showdown_applies_the_card_the_villain_picks():
    """Rulebook: Rolling and Resolving Hero Dice step 5, with 004 §4 steps 3-4: attacking
    the revealed villain, the villain chooses which hand card answers (a card without a
    Showdown effect is a legal choice); the chosen card is discarded after the attack and
    its Showdown effect is the one that resolves, the other card stays in hand."""
    sc = load_scenario("origin_story", heroes=DUO)
    names = [n for n in dict.fromkeys(sc.villain_card_names) if n]
    has = {n: sc.tables.vcard[sc.villain_card_names.index(n), VC_SHOWDOWN_PROG] >= 0
           for n in names}
    strong = next(n for n in names if has[n])
    plain = next(n for n in names if not has[n])
    for pick in (plain, strong):
        g = showdown_game([strong, plain])
        held = hand(g)
        assert len(held) == 2
        P.force_dice(g, [BLANK] * 3)
        before = summary(g)
        g.apply(L.A_ATTACK + sp(g, "G5"))
        assert g.decision == "villain_play" and int(g.state[0, L.DEC_B]) == 1
        assert g.current_agent == "villain"
        card = held[[g.scenario.villain_card_names[c] for c in held].index(pick)]
        g.apply(L.A_TARGET + L.T_V0 + card)
        answer_until(g)
        assert int(g.field("vloc")[card]) == L.L_DISCARD
        assert [c for c in held if c != card] == hand(g)
        # blank dice: only the chosen card's Showdown effect can change the position
        assert (changes(before, summary(g)) != {}) == (pick == strong)


@pytest.mark.parametrize("cunning,owner", [("villain", "villain"), ("heroes", "hero")])
def test_cunning_choice_owner(cunning, owner):
    """004 §4 Mastermind Headline (the mastermind's scheming choice) / rulebook Ploy Icons:
    with cunning "villain" the scheme-or-inflict choice is the villain's; with "heroes" the
    active hero's, as in the rulebook."""
    for seed in range(30):
        g = mastermind(seed, cunning=cunning)
        rng = np.random.default_rng(seed)
        while not g.is_over and g.decision != "cunning":
            g.apply(int(rng.choice(g.legal_actions())))
        if g.decision == "cunning":
            seat = g.current_seat
            assert (seat == L.VILLAIN_SEAT) == (owner == "villain")
            want = np.zeros(L.N_ACTIONS, np.int8)
            want[[L.A_OPTION, L.A_OPTION + 1]] = 1
            np.testing.assert_array_equal(g.legal_mask(), want)
            return
    pytest.fail("no cunning decision in 30 games")


def test_inflict_victim_option_gives_the_pick_to_the_villain():
    """VARIANTS §4.3.5 (rulebook: heroes choose who suffers an inflict among nearby
    heroes): with inflict_victim "villain" every pick_hero decision of an inflict is the
    villain's, and HERO k names seat k."""
    seen = 0
    for seed in range(60):
        g = mastermind(seed, inflict_victim="villain")
        rng = np.random.default_rng(seed)
        while not g.is_over:
            if g.decision == "pick_hero" and g.current_seat == L.VILLAIN_SEAT:
                seats = int(g.state[0, L.DEC_A])
                heroes = [a - L.A_HERO for a in g.legal_actions() if a >= L.A_HERO
                          and a < L.A_HERO + L.MAX_HEROES]
                assert heroes == [h for h in range(2) if (seats >> h) & 1]
                seen += 1
            g.apply(int(rng.choice(g.legal_actions())))
        if seen >= 3:
            return
    pytest.fail(f"only {seen} villain pick_hero decisions in 60 games")


# --------------------------------------------------------------------------- conservation

def _hand_and_zones(env, cap: int) -> None:
    held = (L.field_view(env.state, "vloc") == L.L_HAND).sum(axis=1)
    assert (held <= cap).all()
    assert not violations(env.state, env.scenario.tables, env.masks)


def test_hand_conservation_and_cap():
    """VARIANTS §4.10.5: over random games every villain card is in exactly one zone (deck
    order, hand, threat areas, discard...: the engine invariants) and the hand never
    exceeds its cap (300 games here; 10,000 in the slow test below)."""
    _conservation(300)


@pytest.mark.slow
def test_hand_conservation_and_cap_10000_games():
    """The same over 10,000 random games."""
    _conservation(10_000)


def _conservation(games: int) -> None:
    cap = 4
    env = vector_env(min(games, 512), seed=7, heroes=DUO, observations=False,
                     rules={"villain_agent": {"hand": cap, "inflict_victim": "villain"}})
    env.reset()
    rng = np.random.default_rng(0)
    ended = 0
    step = 0
    while ended < games:
        _, _, term, trunc, _ = env.step(env.sample_actions(rng))
        ended += int((term | trunc).sum())
        step += 1
        if step % 25 == 0:
            _hand_and_zones(env, cap)
    _hand_and_zones(env, cap)


def test_state_validation_of_villain_decisions():
    """A saved state cannot give the villain a hero's decision, a hero a villain_play, or
    the villain more cards than its hand holds."""
    g = mastermind(2)
    run_to_villain(g)
    row = g.state.copy()
    bad = row.copy()
    bad[0, L.DEC_HERO] = 0
    with pytest.raises(StateError, match="belongs to the villain"):
        Game.from_array(g.scenario, bad)
    bad = row.copy()
    bad[0, L.DEC_HERO] = 4
    with pytest.raises(StateError, match="dec_hero"):
        Game.from_array(g.scenario, bad)
    bad = row.copy()
    extra = int(g.field("vdeck_order")[0])  # a deck card "in hand" as well: 4 held
    bad[0, L.VLOC + extra] = L.L_HAND
    with pytest.raises(StateError, match="villain holds 4 cards in hand, this scenario allows 3"):
        Game.from_array(g.scenario, bad)
    base = Game("origin_story", heroes=DUO, seed=2)
    bad = base.state.copy()
    bad[0, L.DEC_HERO] = L.VILLAIN_SEAT
    with pytest.raises(StateError):
        Game.from_array(base.scenario, bad)


# --------------------------------------------------------------------------- observations

def test_hidden_hand():
    """004 §3 (each player's villain cards are private): a hero's observation is unchanged
    when the villain's hand holds other cards of the same count; the villain's own view and
    state() show them."""
    g = mastermind(5)
    run_to_villain(g)
    held = hand(g)
    order, n = g.field("vdeck_order"), int(g.field("vdeck_n"))
    swapped = Game.from_array(g.scenario, g.state[0].copy())
    vloc = swapped.field("vloc")
    sorder = swapped.field("vdeck_order")
    a, b = held[0], int(order[n - 1])
    vloc[a], vloc[b] = L.L_DECK, L.L_HAND
    sorder[n - 1] = a
    swapped = Game.from_array(g.scenario, swapped.state[0])
    for seat in range(2):
        np.testing.assert_array_equal(g.observation(seat), swapped.observation(seat))
    villain = g.observation(L.VILLAIN_SEAT)
    assert not np.array_equal(villain, swapped.observation(L.VILLAIN_SEAT))
    assert villain[VA + F.VA_HAND + a] == 1 and villain[VA + F.VA_OBSERVER] == 1
    assert g.global_state()[F.OFF_STATE_VHAND + a] == 1
    hero = g.observation(0)
    assert hero[VA + F.VA_HAND:VA + F.VA_HAND + L.VDECK].sum() == 0
    assert hero[VA + F.VA_HAND_SIZE] == pytest.approx(0.3)
    assert hero[VA + F.VA_DECIDING] == 1 and hero[VA + F.VA_PLAY] == 1


def test_villain_view_hides_seat_zero_private_cards():
    """The villain sees seat 0's public view: no hero hand or clue cards, no seat one-hot."""
    g = mastermind(1)
    run_to_villain(g)
    obs = g.observation(L.VILLAIN_SEAT)
    f = F.feature_index
    for key, size in (("self.hand", 20), ("global.seat", 6)):
        start = f(key)
        assert obs[start:start + size].sum() == 0
    assert g.observation(0)[f("self.hand"):f("self.hand") + 20].sum() > 0
    assert obs[f("global.deciding")] == 1


def test_villain_section_is_zero_in_the_base_game():
    g = Game("origin_story", heroes=DUO, seed=0)
    width = sum(f.size for f in F.observation_spec() if f.section == "villain_agent")
    assert width == 48 and g.observation(0)[VA:VA + width].sum() == 0
    with pytest.raises(ValueError, match="seat must be in"):
        g.observation(L.VILLAIN_SEAT)


# --------------------------------------------------------------------------- agents and rewards

pz_warnings = pytest.mark.filterwarnings("ignore::UserWarning")


@pz_warnings
def test_pettingzoo_api_with_the_villain_agent():
    """PettingZoo's api_test, parallel_api_test and seed_test with "villain" an agent."""
    api_test(hour_of_need_v8.env(scenario="mastermind"), num_cycles=300)
    parallel_api_test(hour_of_need_v8.parallel_env(scenario="mastermind"), num_cycles=300)
    seed_test(lambda: hour_of_need_v8.env(scenario="mastermind"), num_cycles=300)


def test_zero_sum_rewards_aec():
    """004 §1, §6 (the opposition wins what the heroes lose): with shaping off, at every
    step the villain's reward is minus each hero's; the villain decides as "villain"."""
    e = hour_of_need_v8.env(scenario="mastermind")
    rng = np.random.default_rng(0)
    for ep in range(6):
        e.reset(seed=ep)
        assert e.possible_agents == ["majesty", "stride", "villain"]
        villain_turns = 0
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            r = e.rewards
            if len(r) == 3:  # agents leave one by one after the end (their step(None))
                assert r["villain"] == -r["majesty"] == -r["stride"]
            if term or trunc:
                e.step(None)
                continue
            villain_turns += agent == "villain"
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert villain_turns > 0


VILLAIN_SHAPING = {"crises": 0.5, "hero_defeats": 0.25}


def test_villain_reward_shaping_aec():
    """004 §1, §6 make the opposition's result minus the heroes'; the optional villain
    shaping (VARIANTS §4) adds the villain's own event rewards, so the game is no longer
    zero-sum: over an episode the villain's return is minus the heroes' result plus the
    weighted event increases, and the heroes' rewards are unchanged."""
    shaped_total = 0.0
    for seed in range(4):
        e = hour_of_need_v8.env(scenario="mastermind", villain_reward_shaping=VILLAIN_SHAPING)
        plain = hour_of_need_v8.env(scenario="mastermind")
        e.reset(seed=seed)
        plain.reset(seed=seed)
        start = Game("mastermind", seed=seed).snapshot()["events"]
        rng = np.random.default_rng(seed)
        returns = dict.fromkeys(e.agents, 0.0)
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            returns[agent] += reward
            assert plain.agent_selection == agent
            heroes_only = {k: v for k, v in e.rewards.items() if k != "villain"}
            assert heroes_only == {k: v for k, v in plain.rewards.items() if k != "villain"}
            action = None if term or trunc else int(rng.choice(np.flatnonzero(
                obs["action_mask"])))
            e.step(action)
            plain.step(action)
        shaped = sum(w * (info["events"][k] - start[k]) for k, w in VILLAIN_SHAPING.items())
        result = {"win": 1.0, "loss": -1.0, "truncated": 0.0}[info["outcome"]]
        assert returns["villain"] == pytest.approx(-result + shaped)
        assert returns["majesty"] == pytest.approx(result)
        shaped_total += shaped
    assert shaped_total > 0


def test_villain_reward_shaping_vector_env():
    """The vector env scores the villain's shaping like the AEC env: its column differs
    from the zero-sum one by the weighted event increases of the step, the heroes'
    columns not at all."""
    env = vector_env(32, seed=0, scenario="mastermind", villain_reward_shaping=VILLAIN_SHAPING)
    plain = vector_env(32, seed=0, scenario="mastermind")
    obs, info = env.reset()
    plain.reset()
    rng = np.random.default_rng(0)
    idx = [L.EVENT_NAMES.index(k) for k in VILLAIN_SHAPING]
    w = np.array(list(VILLAIN_SHAPING.values()))
    extra = 0.0
    for _ in range(600):
        before = info["events"]
        a = env.sample_actions(rng)
        obs, r, term, trunc, info = env.step(a)
        _, r0, *_ = plain.step(a)
        np.testing.assert_array_equal(r[:, :2], r0[:, :2])
        going = ~(term | trunc)
        expect = (info["events"][going][:, idx] - before[going][:, idx]) @ w
        np.testing.assert_allclose(r[going, 2] - r0[going, 2], expect, atol=1e-6)
        extra += float(expect.sum())
    assert extra > 0


def test_villain_reward_shaping_needs_the_villain_agent():
    with pytest.raises(ValueError, match="no villain agent"):
        vector_env(2, villain_reward_shaping={"crises": 1.0})
    with pytest.raises(ValueError, match="unknown villain_reward_shaping event"):
        hour_of_need_v8.env(scenario="mastermind", villain_reward_shaping={"crisis": 1.0})


def test_penalty_falls_on_the_side_that_acted():
    """An illegal villain action in "penalize" mode costs the villain, not the heroes."""
    e = hour_of_need_v8.parallel_env(scenario="mastermind", illegal_action="penalize")
    obs, infos = e.reset(seed=0)
    rng = np.random.default_rng(0)
    while e.agents:
        decider = infos["majesty"]["acting_hero"]
        acts = dict.fromkeys(e.agents, 0)
        if decider == "villain":
            acts["villain"] = int(np.flatnonzero(obs["villain"]["action_mask"] == 0)[0])
            _, rewards, term, _, _ = e.step(acts)
            assert rewards == {"majesty": 0.0, "stride": 0.0, "villain": -1.0}
            assert all(term.values())
            return
        acts[decider] = int(rng.choice(np.flatnonzero(obs[decider]["action_mask"])))
        obs, _, _, _, infos = e.step(acts)
    pytest.fail("the villain never decided")


def test_vector_env_villain_rows_and_rewards():
    """Vector env: obs["agent"] is VILLAIN_SEAT on villain rows, rewards are
    [B, n_heroes + 1], and at every episode end the villain's is minus the heroes'."""
    env = vector_env(32, seed=0, scenario="mastermind")
    obs, _ = env.reset()
    rng = np.random.default_rng(0)
    seen_villain, ends = False, 0
    for _ in range(1500):
        obs, r, term, trunc, _ = env.step(env.sample_actions(rng))
        assert r.shape == (32, 3)
        np.testing.assert_array_equal(r[:, 2], -r[:, 0])
        seen_villain |= bool((obs["agent"] == L.VILLAIN_SEAT).any())
        ends += int(term.sum())
    assert seen_villain and ends > 0


def test_gymnasium_villain_env():
    """HourOfNeedVillain: passes Gymnasium's check_env; every step is a villain decision;
    the reward is the villain's (+1 when the heroes lose)."""
    heroes = load_policy("heuristic")
    with warnings.catch_warnings():  # check_env steps unmasked: "penalize" ends those games
        warnings.simplefilter("ignore")
        check_env(gymnasium.make(VILLAIN_ENV_ID, hero_policy=heroes,
                                 illegal_action="penalize").unwrapped,
                  skip_render_check=True)
    env = gymnasium.make(VILLAIN_ENV_ID, hero_policy=heroes)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    total, done = 0.0, False
    while not done:
        assert env.unwrapped.game.current_seat == L.VILLAIN_SEAT
        mask = env.unwrapped.action_masks()
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        done = term or trunc
    outcome = info["outcome"]
    assert total == {"win": -1.0, "loss": 1.0, "truncated": 0.0}[outcome]
    with pytest.raises(ValueError, match="no villain agent"):
        HourOfNeedVillainEnv(heroes, scenario="origin_story")


def test_villain_env_takes_the_hero_policy_as_an_object():
    """The env never imports the agents: a policy name, no policy or an object without
    ``act`` is refused, naming the call that makes the policy; the registered id resolves
    a name (default: the coordinated scripted team)."""
    from agents.scripted import CoordinatedPolicy

    env = gymnasium.make(VILLAIN_ENV_ID)
    assert isinstance(env.unwrapped.hero_policy, CoordinatedPolicy)
    env = gymnasium.make(VILLAIN_ENV_ID, hero_policy="random")
    assert env.unwrapped.hero_policy.name == "random"
    for bad, match in (("heuristic", r"agents\.load_policy\('heuristic'\)"),
                       (None, r"needs hero_policy.*agents\.load_policy"),
                       (object(), "act")):
        with pytest.raises(TypeError, match=match):
            HourOfNeedVillainEnv(bad)


def test_hero_env_plays_the_villain_inside():
    """The hero adapter plays villain decisions with ``villain_policy``: the learner only
    ever sees hero decisions."""
    from hon_env.envs.gym_env import HourOfNeedEnv

    env = HourOfNeedEnv(scenario="mastermind", villain_policy=ScriptedVillain())
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    done = False
    while not done:
        assert env.game.current_seat != L.VILLAIN_SEAT
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(
            env.action_masks()))))
        done = term or trunc
    with pytest.raises(ValueError, match="villain_policy"):
        HourOfNeedEnv(villain_policy=ScriptedVillain())


# --------------------------------------------------------------------------- baselines

@pytest.mark.parametrize("ties", ["fixed", "villain"])
def test_scripted_villain_is_legal_and_deterministic(ties):
    """The scripted villain picks legal actions and the same ones for the same game (also
    when it breaks enemy movement ties)."""
    results = []
    for _ in range(2):
        env = vector_env(16, seed=11, scenario="mastermind",
                         rules={"villain_agent": {"inflict_victim": "villain",
                                                  "enemy_ties": ties}})
        obs, _ = env.reset()
        team = VersusPolicy(load_policy("heuristic"), ScriptedVillain())
        log = []
        tie_kinds = [L.D_ENEMY_TARGET, L.D_ENEMY_STEP]
        ties_met = 0
        for _ in range(400):
            a = team.act(obs["observation"], obs["action_mask"], obs["agent"], env.engine)
            assert obs["action_mask"][np.arange(16), a].all()
            ties_met += int(np.isin(L.field_view(env.state, "dec_kind"), tie_kinds).sum())
            log.append(a.copy())
            obs, *_ = env.step(a)
        results.append(np.array(log))
        assert (ties_met > 0) == (ties == "villain")
    np.testing.assert_array_equal(*results)


def test_evaluate_against_villains():
    """evaluate(hero, villain_policy=...): top_card is the rulebook game; a villain agent
    scenario needs a villain policy; a base scenario refuses one."""
    hero = load_policy("random")
    r = evaluate(hero, scenario="mastermind", villain_policy=load_villain("scripted"),
                 games=8)
    assert r.games == 8 and r.wins + r.losses + r.truncated == 8
    top = evaluate(hero, scenario="mastermind", villain_policy="top_card", games=8)
    assert top.games == 8
    with pytest.raises(ValueError, match="pass villain_policy"):
        evaluate(hero, scenario="mastermind", games=4)
    with pytest.raises(ValueError, match="no villain agent"):
        evaluate(hero, games=4, villain_policy=ScriptedVillain())
    with pytest.raises(ValueError, match="unknown villain"):
        load_villain("nobody")


def test_payoff_table_command(tmp_path):
    """``hon-eval --villain-policy``: one row per hero x villain policy, JSON and heatmap."""
    from agents.cli.evaluate import main

    out, png = tmp_path / "payoff.json", tmp_path / "payoff.png"
    main(["--policy", "random", "heuristic", "--villain-policy", "top_card", "scripted",
          "--games", "4", "--json", str(out), "--plot", str(png)])
    rows = json.loads(out.read_text())
    assert [(r["hero_policy"], r["villain_policy"]) for r in rows] == [
        ("random", "top_card"), ("random", "scripted"), ("heuristic", "top_card"),
        ("heuristic", "scripted")]
    assert png.stat().st_size > 1000


# --------------------------------------------------------------------------- training scripts

@pytest.mark.slow
def test_train_villain_smoke(tmp_path):
    """scripts/train_villain.py writes the trainers' run layout; its villain loads by path
    and plays against the heroes in evaluate."""
    from agents.cli.train_villain import main

    run = tmp_path / "villain"
    main(["--run-dir", str(run), "--total-steps", "512", "--num-envs", "2", "--n-steps",
          "128", "--batch-size", "128", "--eval-every", "100000", "--eval-games", "4",
          "--checkpoint-every", "256", "--progress", "false", "--tensorboard", "false"])
    for name in ("config.yaml", "train.csv", "eval.csv", "final.zip"):
        assert (run / name).exists(), name
    assert list((run / "checkpoints").glob("step_*.zip"))
    villain = load_villain(str(run / "final.zip"))
    r = evaluate(load_policy("heuristic"), scenario="mastermind", villain_policy=villain,
                 games=4)
    assert r.games == 4
    with pytest.raises(SystemExit):  # a usage error: the heroes' shaping on the villain
        main(["--run-dir", str(run), "--reward-shaping", "{crises: 1.0}"])


@pytest.mark.parametrize("front_end", ["sb3", "gym_vector"])
def test_hero_only_front_ends_refuse_the_villain_agent(front_end):
    """Front ends whose learner plays every row as a hero refuse a villain-agent scenario
    instead of handing the villain's rows to the hero policy."""
    if front_end == "sb3":
        from hon_env.envs.sb3 import SB3VecEnv

        with pytest.raises(ValueError, match="villain agent"):
            SB3VecEnv(2, scenario="mastermind")
    else:
        with pytest.raises(ValueError, match="villain agent"):
            gymnasium.make_vec("hon_env/HourOfNeed-v8", num_envs=2, scenario="mastermind")
