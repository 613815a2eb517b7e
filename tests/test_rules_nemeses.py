"""Rulebook chapters: Playing with 5-6 Players, Nemeses, the Nemesis optional rule and
Additional Clue Cards.

Setup tests play the real setup of 5- and 6-hero games; gameplay tests build positions by
hand with ``positions.set_nemesis`` on a one-hero game that deals one nemesis through the
Nemesis rule (``rules={"nemeses": 1}``).
"""

from __future__ import annotations

import numpy as np
import pytest
from rules_helpers import (
    BLANK,
    BURST,
    PASS,
    SUCCESS,
    capture,
    clue_index,
    clues_held,
    event,
    hcard,
    legal,
    move_twice_into_threat_phase,
    neighbours,
    roll_attack,
    roll_solve,
    setup,
    sp,
    suffer,
)

from hon_env import Game, load_scenario
from hon_env import positions as P
from hon_env.spec import layout as L
from hon_env.spec.tables import CLUE_DECK, CLUE_LIST, IC_TYPE, IT_SCHEME


def schemes_held(g: Game, seat: int) -> list[int]:
    f = g.field
    T = g.scenario.tables
    return [i for i in range(L.IDECK) if T.icard[i, IC_TYPE] == IT_SCHEME
            and f("iloc")[i] == L.L_THREAT and f("iowner")[i] == seat]


def pass_mulligans(g: Game) -> None:
    """Every hero keeps their opening hand."""
    while g.decision == "mulligan":
        g.apply(PASS)


def nemesis_game(nemesis: str = "rampart", where: str = "C3", heroes: int = 1,
                 cards=("Throne Breaker",)) -> Game:
    """Cleared board, no Scheme cards, hero 0 at ``where``; ``nemesis`` is dealt to slot 0
    (one hero: through the Nemesis rule; five: as the fifth hero's nemesis)."""
    rules = {"nemeses": 1} if heroes < 5 else {}
    sc = load_scenario("origin_story", heroes=["majesty"] * heroes, nemeses=[nemesis],
                       rules=rules)
    g = setup(sc, where, cards)
    assert int(g.field("nem_card")[0]) == 0 and int(g.field("nem_card")[1]) == -1
    return g


# --- Setup -------------------------------------------------------------------------------

@pytest.mark.parametrize("n_heroes", [5, 6])
def test_heroes_without_a_scheme_card_take_a_nemesis(n_heroes):
    """Rulebook: 5-6 players step 1: Choose Nemeses — each hero without a Scheme card adds
    a nemesis card to their threat area, Scheme side up (with the core box's two nemeses a
    6-hero game uses both)."""
    sc = load_scenario("origin_story", heroes=["majesty"] * n_heroes)
    for seed in range(6):
        g = Game(sc, seed=seed)
        f = g.field
        holders = [h for h in range(n_heroes) if schemes_held(g, h)]
        assert holders == [0, 1, 2, 3]  # the 4 Scheme cards go to the first seats
        owners = [int(x) for x in f("nem_owner")[:n_heroes - 4]]
        assert owners == list(range(4, n_heroes))
        assert all(int(x) == 0 for x in f("nem_side")[:n_heroes - 4])  # Scheme side up
        cards = {int(x) for x in f("nem_card") if x >= 0}
        assert len(cards) == n_heroes - 4
        if n_heroes == 6:
            assert cards == {0, 1}
        assert g.snapshot()["heroes"][4]["threat_area"][0]["side"] == "scheme"


def test_nemeses_drawn_at_random_or_chosen_by_id():
    """Rulebook: 5-6 players step 1: Choose Nemeses — the nemesis is chosen at random, or
    the players choose it (``nemeses=[...]``)."""
    pool = load_scenario("origin_story", heroes=["majesty"] * 5)
    drawn = {pool.nemesis_ids[int(Game(pool, seed=s).field("nem_card")[0])] for s in range(16)}
    assert drawn == {"rampart", "whisperloom"}
    chosen = load_scenario("origin_story", heroes=["majesty"] * 5, nemeses=["whisperloom"])
    for seed in range(4):
        g = Game(chosen, seed=seed)
        assert g.snapshot()["nemeses"][0]["name"] == "Whisperloom"


def test_one_hidden_token_per_nemesis():
    """Rulebook: Setup 3d / Nemesis — one hidden token per hero: each hero holds a Scheme
    card or a nemesis, and each nemesis added by the Nemesis rule adds one more."""
    for heroes, rules, hidden in ((5, {}, 5), (6, {}, 6), (1, {"nemeses": 1}, 2),
                                  (2, {"nemeses": 2}, 4)):
        sc = load_scenario("origin_story", heroes=["majesty"] * heroes, rules=rules)
        g = Game(sc, seed=3)
        assert int(g.field("vil_hidden")) == hidden, (heroes, rules)
        assert g.snapshot()["villain"]["hidden_tokens"] == hidden


def test_nemesis_rule_adds_nemeses_to_any_team():
    """Rulebook: Nemesis — nemeses can be added to a game of any size: with 2 heroes and 2
    added nemeses, each hero holds a Scheme card and a nemesis."""
    g = Game(load_scenario("origin_story", heroes=["majesty"] * 2, rules={"nemeses": 2}),
             seed=0)
    f = g.field
    assert [len(schemes_held(g, h)) for h in (0, 1)] == [1, 1]
    assert sorted(int(x) for x in f("nem_owner")) == [0, 1]  # fewest threat cards first
    assert sorted(int(x) for x in f("nem_card")) == [0, 1]


def test_nemesis_figure_goes_to_highest_panel_with_fewest_enemies():
    """Rulebook: 5-6 players step 1a — one at a time, each nemesis figure goes to the
    highest-numbered scheme panel with the fewest enemies. Blackout Gala's setup leaves
    the villain and a minion in panel 1 and a minion in panel 2: the first nemesis takes
    panel 4, the second panel 3 (panel 4 now holds the first). The Setup effects resolve
    after the figures are placed (Rampart's adds a minion to the villain's panel)."""
    sc = load_scenario("origin_story", heroes=["majesty"] * 6, issue="blackout_gala")
    g = Game(sc, seed=0)
    P.stack_villain_deck(g, ["A Word in the Right Ear"])  # a decision before any minion
    pass_mulligans(g)
    assert g.decision == "cunning"
    f = g.field
    assert [int(x) for x in f("minions")[1:5]] == [1 + 1, 1, 0, 0]
    assert [int(f("nem_pos")[k]) for k in (0, 1)] == [sp(g, "panel 4"), sp(g, "panel 3")]
    assert [int(x) for x in f("nem_side")] == [0, 0]


def test_nemesis_placed_after_the_rest_of_setup():
    """Rulebook: Playing with 5-6 Players — the nemesis step comes after all other setup,
    so the issue's Setup minions count: Century Heist puts minions in panels 2 and 4 and
    the villain stands in panel 1, leaving panel 3 the highest with no enemy. The figure
    waits off the board until then."""
    g = Game(load_scenario("origin_story", heroes=["majesty"] * 5), seed=2)
    assert int(g.field("nem_pos")[0]) == -1 and g.decision == "mulligan"
    P.stack_villain_deck(g, ["A Word in the Right Ear"])
    pass_mulligans(g)
    assert int(g.field("nem_pos")[0]) == sp(g, "panel 3")


@pytest.mark.parametrize("nemesis, minions_1, captured", [("rampart", 1, 0),
                                                          ("whisperloom", 0, 1)])
def test_nemesis_setup_effect_resolves(nemesis, minions_1, captured):
    """Rulebook: 5-6 players step 1b — resolve the chosen nemesis's Setup effect (Rampart:
    1 minion in the villain's panel; Whisperloom: capture the bystander nearest the
    villain)."""
    sc = load_scenario("origin_story", heroes=["majesty"] * 5, nemeses=[nemesis])
    g = Game(sc, seed=1)
    P.stack_villain_deck(g, ["A Word in the Right Ear"])
    assert int(g.field("minions")[1]) == 0 and int(g.field("captured").sum()) == 0
    pass_mulligans(g)
    assert g.decision == "cunning"
    assert int(g.field("minions")[1]) == minions_1
    assert int(g.field("captured").sum()) == captured


# --- Nemeses: the Scheme side --------------------------------------------------------------

def test_nemesis_scheme_solved_only_from_its_panel_and_is_no_enemy():
    """Rulebook: Nemeses — a nemesis Scheme can be solved by heroes in the nemesis figure's
    scheme panel; on its Scheme side it is not an enemy (no Attack on it)."""
    g = nemesis_game("whisperloom", where="B3")
    P.set_nemesis(g, 0, seat=0, side="scheme", where="panel 3")
    P.jump(g, "hero_turn")
    assert L.A_SOLVE + sp(g, "panel 3") not in legal(g)  # next to the panel, not in it
    assert L.A_ATTACK + sp(g, "panel 3") not in legal(g)
    g2 = nemesis_game("whisperloom", where="panel 3")
    P.set_nemesis(g2, 0, seat=0, side="scheme", where="panel 3")
    P.jump(g2, "hero_turn")
    assert L.A_SOLVE + sp(g2, "panel 3") in legal(g2)
    assert L.A_ATTACK + sp(g2, "panel 3") not in legal(g2)


def test_solving_nemesis_scheme_flips_it_to_its_enemy_side():
    """Rulebook: Nemeses — once its Scheme is solved, the solver draws 1 clue card, 1
    hidden token leaves the Villain card, and the card flips to its enemy side in the same
    threat area; the figure goes to the empty space nearest the panel's scheme space (the
    scheme space itself when empty). Whisperloom's Scheme: danger 3."""
    g = nemesis_game("whisperloom", where="panel 3")
    P.set_nemesis(g, 0, seat=0, side="scheme", where="panel 3", justice=0)
    P.set_villain(g, hidden=1)
    P.force_dice(g, [BURST, SUCCESS, SUCCESS])  # 2 dice, the burst adds a third: 3 more
    P.jump(g, "hero_turn")
    g.apply(L.A_SOLVE + sp(g, "panel 3"))
    f = g.field
    assert int(f("nem_side")[0]) == 1 and int(f("nem_owner")[0]) == 0
    assert int(f("nem_pos")[0]) == sp(g, "A3")  # the scheme space, on the map
    assert int(f("nem_just")[0]) == 0
    assert int(f("vil_hidden")) == 0
    assert clues_held(g) == 1
    assert event(g, "schemes_solved") == 1
    snap = g.snapshot()
    assert snap["nemeses"][0]["card"] == "Whisperloom Exposed"
    assert snap["heroes"][0]["threat_area"][-1]["side"] == "enemy"


def test_flipped_nemesis_takes_nearest_empty_space_when_scheme_space_is_occupied():
    """Rulebook: Nemeses — the figure goes to the empty space nearest the matching scheme
    space: with a lackey on that space it lands next to it (lowest index on ties, #8)."""
    g = nemesis_game("whisperloom", where="panel 3")
    P.add_villain_card(g, "Hatchet Hollis", 0, "A3")
    P.set_nemesis(g, 0, seat=0, side="scheme", where="panel 3", justice=2)
    roll_solve(g, "panel 3", [SUCCESS, BLANK])
    pos = int(g.field("nem_pos")[0])
    assert int(g.field("nem_side")[0]) == 1
    assert pos in neighbours(g, "A3")
    assert pos == min(neighbours(g, "A3"))


def test_scheming_nemesis_resolves_its_scheme_effect_in_threat_phase():
    """Rulebook: Threat Phase / Nemeses — a card in the threat area activates in its
    owner's threat phase; Rampart's Scheme side deals its owner 1 damage."""
    g = nemesis_game("rampart", where="C3")
    P.set_nemesis(g, 0, seat=0, side="scheme", where="panel 3")
    move_twice_into_threat_phase(g, "D3", "C3")
    assert g.decision == "damage" and int(g.field("dec_a")) == 1
    suffer(g)
    assert int(g.field("hdmg")[0]) == 1


# --- Nemeses: the enemy side ---------------------------------------------------------------

def test_nemesis_enemy_activates_like_an_enemy():
    """Rulebook: Nemeses / Enemy Activation — flipped, a nemesis is an enemy: in its
    owner's threat phase Rampart Unchained moves 2 toward the nearest hero and inflicts 2
    once near."""
    g = nemesis_game("rampart", where="C3")
    P.set_nemesis(g, 0, seat=0, side="enemy", where="F3")
    move_twice_into_threat_phase(g, "D3", "C3")
    assert int(g.field("nem_pos")[0]) == sp(g, "D3")
    assert g.decision == "damage" and int(g.field("dec_a")) == 2
    suffer(g)
    assert int(g.field("hdmg")[0]) == 2


def test_exhausted_nemesis_readies_instead_of_activating():
    """Rulebook: Exhausted Cards — an exhausted nemesis readies in the threat phase instead
    of resolving its Activate effect."""
    g = nemesis_game("rampart", where="C3")
    P.set_nemesis(g, 0, seat=0, side="enemy", where="F3", exhausted=True)
    move_twice_into_threat_phase(g, "D3", "C3")
    assert int(g.field("nem_exh")[0]) == 0
    assert int(g.field("nem_pos")[0]) == sp(g, "F3")
    assert int(g.field("hdmg")[0]) == 0


def test_nemesis_near_a_solver_inflicts():
    """Rulebook: Solve — after a Solve each enemy near the hero inflicts; a nemesis on its
    enemy side is one (Rampart Unchained inflicts 2)."""
    g = nemesis_game("rampart", where="panel 3")
    P.set_nemesis(g, 0, seat=0, side="enemy", where="B3")
    capture(g, 3, 1)  # something to solve in panel 3: a captive to rescue
    roll_solve(g, "panel 3", [SUCCESS, BLANK])
    assert g.decision == "damage" and int(g.field("dec_a")) == 2


def test_defeating_a_nemesis_gives_a_clue_and_removes_it_from_the_game():
    """Rulebook: Dealing and Suffering Damage — a defeated nemesis's card and figure are
    removed from the game and the hero who defeated it draws 1 clue (Rampart Unchained:
    health 6, defense 1; 4 damage + 3 successes - 1)."""
    g = nemesis_game("rampart", where="C3")
    P.set_nemesis(g, 0, seat=0, side="enemy", where="D3", damage=4)
    roll_attack(g, "D3", [SUCCESS, SUCCESS, SUCCESS])
    f = g.field
    assert int(f("nem_owner")[0]) == -1 and int(f("nem_pos")[0]) == -1
    assert clues_held(g) == 1
    assert event(g, "enemies_defeated") == 1
    assert g.snapshot()["nemeses"][0]["defeated"]
    assert all(t["card"] != "Rampart Unchained" for t in g.snapshot()["heroes"][0]["threat_area"])
    assert L.A_ATTACK + sp(g, "D3") not in legal(g)
    assert not g.is_over


@pytest.mark.parametrize("heroes", [1, 5], ids=["nemesis_rule", "five_heroes"])
def test_villain_cannot_be_defeated_while_a_nemesis_remains(heroes):
    """Rulebook: Gameplay (5-6 players) / Nemesis — the villain cannot be defeated while a
    nemesis remains: it keeps its last point of health. Once every nemesis is defeated the
    next damage defeats it and the heroes win."""
    g = nemesis_game("rampart", where="C3", heroes=heroes, cards=("Throne Breaker",) * 2)
    health = int(g.field("vil_health"))
    P.set_villain(g, side="showdown", where="D3", owner=0, damage=health - 1)
    P.set_nemesis(g, 0, seat=0, side="enemy", where="B3")
    P.stack_villain_deck(g, ["Contested Will", "Old Money"])  # no Showdown effects
    roll_attack(g, "D3", [SUCCESS, SUCCESS, BLANK, SUCCESS, SUCCESS, BLANK])
    assert not g.is_over
    assert int(g.field("vil_damage")) == health - 1
    P.set_nemesis(g, 0, defeated=True)
    g.refresh()
    g.apply(L.A_ATTACK + sp(g, "D3"))
    assert g.is_over and g.outcome == "win"


def test_exhaust_effect_can_target_an_own_nemesis():
    """Rulebook: Exhausted Cards — an effect that exhausts a ready card in your threat
    area may pick your nemesis, never another hero's (Tinkerbolt's Jam the Signal; with
    a single candidate the target is chosen without asking)."""
    sc = load_scenario("origin_story", heroes=["tinkerbolt"] * 2, rules={"nemeses": 2})
    g = setup(sc, "C3", cards=("Jam the Signal",))
    f = g.field
    assert [int(x) for x in f("nem_owner")] == [0, 1]
    P.set_nemesis(g, 0, side="enemy", where="F3")
    P.set_nemesis(g, 1, side="enemy", where="F5")
    P.jump(g, "hero_turn")
    g.apply(L.A_PLAY + hcard(g, "Jam the Signal"))
    assert [int(x) for x in f("nem_exh")] == [1, 0]


# --- Additional Clue Cards -----------------------------------------------------------------

def test_additional_clue_cards_double_the_clue_deck():
    """Rulebook: Additional Clue Cards — players may add a second, identical clue deck:
    40 cards are shuffled at setup instead of 20."""
    plain = Game(load_scenario("origin_story"), seed=0)
    extra = Game(load_scenario("origin_story", rules={"extra_clues": True}), seed=0)
    assert int(plain.field("clue_n")) == CLUE_LIST
    assert int(extra.field("clue_n")) == CLUE_DECK == 2 * CLUE_LIST
    names = extra.scenario.clue_names
    assert sorted(names[:CLUE_LIST]) == sorted(names[CLUE_LIST:])


def test_copies_of_a_clue_card_are_one_action():
    """Rulebook: Additional Clue Cards — with two copies of Deep Breath held, its CLUE
    action stays legal after using one copy and goes away with the second."""
    sc = load_scenario("origin_story", rules={"extra_clues": True})
    g = setup(sc, "C3")
    first = P.give_clue(g, 0, "Deep Breath")
    second = P.give_clue(g, 0, "Deep Breath")
    assert second == first + CLUE_LIST and first == clue_index(g, "Deep Breath")
    P.jump(g, "hero_turn")
    action = L.A_CLUE + first
    assert action in legal(g)
    g.apply(action)
    assert int(g.field("hfocus")[0]) == 2
    assert clues_held(g) == 1 and action in legal(g)
    g.apply(action)
    assert clues_held(g) == 0 and action not in legal(g)
    held = np.flatnonzero(g.field("clue_loc") == -2)
    assert sorted(held.tolist()) == [first, second]  # both copies in the discard pile
