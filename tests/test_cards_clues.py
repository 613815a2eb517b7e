"""Scenario tests for the core clue deck: every clue card's bonus dice and text effect.

A clue is used once (discarded): before a roll for its dice, or from the hero-turn menu
for its text effect. Positions as in ``test_cards_heroes.py``: Majesty (attack 3, solve
2 dice) alone on a cleared Century Heist board, on C3.
"""

from __future__ import annotations

import pytest
from rules_helpers import (
    BLANK,
    PASS,
    clues_held,
    dice_rolled,
    dist,
    hand,
    legal,
    put_bystander,
    scenario,
    setup,
    sp,
    space_at,
    step_toward,
)

from hon_env import Game
from hon_env import positions as P
from hon_env.spec import layout as L
from hon_env.spec.tables import CL_PROG

HERE = "C3"
DICE = [
    # clue, attack dice, solve dice
    ("Lucky Break", 1, 1),
    ("Weak Spot", 1, 0),
    ("Hunch", 0, 1),
    ("Perfect Opening", 2, 0),
    ("Eureka Moment", 0, 2),
    ("Full Picture", 1, 2),
]


def clue_game(clue: str, *, partner: bool = False) -> tuple[Game, int]:
    g = setup(scenario(("majesty", "majesty") if partner else ("majesty",)), HERE, cards=())
    return g, P.give_clue(g, 0, clue)


def use_clue_near_and_far(clue: str, near: str, far: str) -> tuple[Game, int, int]:
    """``clue_game`` with villain card ``near`` 2 spaces and ``far`` 3 spaces from the hero,
    the clue used in the hero turn; returns the game and the two cards."""
    g, i = clue_game(clue)
    near_card = P.add_villain_card(g, near, 0, space_at(g, HERE, 2))
    far_card = P.add_villain_card(g, far, 0, space_at(g, HERE, 3))
    P.jump(g, "hero_turn")
    use_clue(g, i)
    return g, near_card, far_card


@pytest.mark.parametrize("roll", ["attack", "solve"])
@pytest.mark.parametrize("clue,attack,solve", DICE, ids=[c for c, _, _ in DICE])
def test_clue_bonus_dice(clue, attack, solve, roll):
    """Rulebook: Clue Cards / Rolling and Resolving Hero Dice step 2a — before rolling, a
    clue with dice icons of that roll may be discarded for that many extra dice; a clue
    without them is not offered."""
    g, i = clue_game(clue)
    P.add_villain_card(g, "Big Bertram" if roll == "attack" else "Gala Firebomb", 0, "D3")
    P.jump(g, "hero_turn")
    bonus = attack if roll == "attack" else solve
    base = 3 if roll == "attack" else 2

    def act(g):
        g.apply((L.A_ATTACK if roll == "attack" else L.A_SOLVE) + sp(g, "D3"))
        if bonus:
            assert g.decision == "clue_dice" and legal(g) == {PASS, L.A_CLUE + i}
            g.apply(L.A_CLUE + i)

    assert dice_rolled(g, act, face=BLANK) == base + bonus
    assert int(g.field("clue_loc")[i]) == (-2 if bonus else 0)  # discarded only when used


def test_dice_clues_have_no_text_effect():
    """Rulebook: Clue Cards — the dice-only clues offer nothing in the hero-turn menu."""
    sc = scenario(("majesty",))
    for clue, _, _ in DICE:
        i = sc.clue_names.index(clue)
        assert int(sc.tables.clue[i, CL_PROG]) < 0, clue


def use_clue(g: Game, i: int) -> None:
    assert L.A_CLUE + i in legal(g)
    g.apply(L.A_CLUE + i)
    assert int(g.field("clue_loc")[i]) == -2  # discarded
    assert int(g.field("hactions")[0]) == 2  # a free play


def test_shortcut_moves_three():
    """Rulebook: Clue Cards / Actions in Text Effects — Shortcut: move up to 3 (a Move
    without an action token)."""
    g, i = clue_game("Shortcut")
    P.jump(g, "hero_turn")
    use_clue(g, i)
    assert g.decision == "move" and int(g.field("dec_a")) == 3
    for _ in range(3):
        step_toward(g, "G7")
    assert dist(g, int(g.field("hloc")[0]), HERE) == 3


def test_first_aid_kit_heals_a_hero_within_two():
    """Rulebook: Clue Cards / Within X Spaces — First Aid Kit: remove up to 2 damage from a
    hero up to 2 spaces away (here the other hero)."""
    g, i = clue_game("First Aid Kit", partner=True)
    P.place_hero(g, 1, space_at(g, HERE, 2))
    P.set_hero(g, 1, damage=3)
    P.jump(g, "hero_turn")
    use_clue(g, i)
    assert g.decision == "pick_hero"
    g.apply(L.A_HERO + 1)
    assert int(g.field("hdmg")[1]) == 1


def test_deep_breath_and_contingency_plan():
    """Rulebook: Clue Cards / Focus Tokens / Draw 1 Card — Deep Breath gains 2 focus;
    Contingency Plan draws 2 cards."""
    g, i = clue_game("Deep Breath")
    j = P.give_clue(g, 0, "Contingency Plan")
    P.jump(g, "hero_turn")
    use_clue(g, i)
    assert int(g.field("hfocus")[0]) == 2
    use_clue(g, j)
    assert len(hand(g)) == 2


def test_anonymous_tip_places_two_justice_within_two():
    """Rulebook: Clue Cards / Problem Cards — Anonymous Tip: 2 justice on a problem up to 2
    spaces away (one 3 away is not a target)."""
    g, near, far = use_clue_near_and_far("Anonymous Tip", "Gala Firebomb", "Favours Called In")
    assert int(g.field("vjust")[near]) == 2
    assert int(g.field("vjust")[far]) == 0


def test_cheap_shot_deals_two_within_two():
    """Rulebook: Clue Cards / Defense Value — Cheap Shot: 2 damage, defense ignored, to an
    enemy up to 2 spaces away (Hatchet Hollis, defense 1)."""
    g, hollis, vance = use_clue_near_and_far("Cheap Shot", "Hatchet Hollis", "Chauffeur Vance")
    assert int(g.field("vdmg")[hollis]) == 2
    assert int(g.field("vdmg")[vance]) == 0


def test_helping_hand_rescues_within_three():
    """Rulebook: Clue Cards / Rescuing Bystanders — Helping Hand: rescue a bystander up to
    3 spaces away; rescuing gains a new clue."""
    g, i = clue_game("Helping Hand")
    target = space_at(g, HERE, 3)
    put_bystander(g, target)
    P.jump(g, "hero_turn")
    use_clue(g, i)
    assert int(g.field("bystander_on")[target]) == 0
    assert clues_held(g) == 1  # Helping Hand is gone, the rescue brought another


def test_rooftop_route_places_within_six():
    """Rulebook: Clue Cards / "Move To" Effects — Rooftop Route: place Majesty in a space
    up to 6 away."""
    g, i = clue_game("Rooftop Route")
    P.jump(g, "hero_turn")
    use_clue(g, i)
    assert g.decision == "place"
    T = g.scenario.tables
    offered = {a - L.A_SPACE for a in legal(g)}
    assert all(int(T.dist[sp(g, HERE), s]) <= 6 for s in offered)
    target = max(offered, key=lambda s: (int(T.dist[sp(g, HERE), s]), s))
    assert int(T.dist[sp(g, HERE), target]) == 6
    g.apply(L.A_SPACE + target)
    assert int(g.field("hloc")[0]) == target


def test_every_text_clue_is_tested_here():
    """Guard: every clue with a text effect in core_clues appears in a test above."""
    sc = scenario(("majesty",))
    text = {n for i, n in enumerate(sc.clue_names)
            if n and int(sc.tables.clue[i, CL_PROG]) >= 0}
    assert text == {"Shortcut", "First Aid Kit", "Deep Breath", "Contingency Plan",
                    "Anonymous Tip", "Cheap Shot", "Helping Hand", "Rooftop Route"}
