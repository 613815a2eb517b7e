"""Scenario tests for Vigil's cards with a non-trivial effect (configs/content/heroes/vigil.yaml).

Positions: Century Heist with a cleared board and no Scheme cards; Vigil (seat 0) and
Majesty (seat 1) placed by hand, Vigil holding a known hand, then a jump to the hero turn.
"""

from __future__ import annotations

import pytest
from rules_helpers import (
    SUCCESS,
    dist,
    event,
    hcard,
    legal,
    put_bystander,
    remove_schemes,
    sp,
    step,
    suffer,
)

from hon_env import Game, load_scenario
from hon_env import positions as P
from hon_env.spec import layout as L
from hon_env.spec.tables import HERO_DECK

HERO_CARD = L.A_USE + HERO_DECK
YOU, MAJESTY = L.A_HERO, L.A_HERO + 1  # heroes counted in seats after the decider


@pytest.fixture(scope="module")
def medic():
    """Vigil (seat 0) and Majesty (seat 1)."""
    return load_scenario("origin_story", heroes=["vigil", "majesty"])


def position(scenario, vigil_at: str, majesty_at: str, cards=(), majesty_damage=0,
             vigil_damage=0) -> Game:
    g = Game(scenario, seed=0)
    P.clear_board(g)
    remove_schemes(g)
    P.place_hero(g, 0, vigil_at)
    P.place_hero(g, 1, majesty_at)
    P.empty_hand(g, 0)
    if cards:
        P.give_cards(g, 0, list(cards))
    P.set_hero(g, 1, damage=majesty_damage)
    P.set_hero(g, 0, damage=vigil_damage)
    return g


def damage(g: Game, seat: int) -> int:
    return int(g.field("hdmg")[seat])


def test_triage_heals_a_hero_within_two(medic):
    """Hero card (normal) Triage: remove 1 damage from a hero within 2 (Exhaust, free)."""
    g = position(medic, "C3", "E3", majesty_damage=3)
    assert dist(g, "C3", "E3") == 2
    P.jump(g, "hero_turn")
    g.apply(HERO_CARD)
    assert legal(g) == {YOU, MAJESTY}
    g.apply(MAJESTY)
    assert damage(g, 1) == 2 and int(g.field("hactions")[0]) == 2
    assert HERO_CARD not in legal(g)  # exhausted until the next hero turn


def test_triage_does_not_reach_three_spaces(medic):
    g = position(medic, "C3", "F3", majesty_damage=3, vigil_damage=2)
    assert dist(g, "C3", "F3") == 3
    P.jump(g, "hero_turn")
    g.apply(HERO_CARD)  # only Vigil herself is in range: healed without a question
    assert damage(g, 0) == 1 and damage(g, 1) == 3


def test_nobody_left_behind_heals_two_within_three_then_rescues(medic):
    """Hero card (Focused) Nobody Left Behind: remove 2 damage from a hero within 3, then
    rescue a bystander within 1."""
    g = position(medic, "C3", "F3", majesty_damage=3)
    P.set_hero(g, 0, focused=True)
    put_bystander(g, "C4")
    P.jump(g, "hero_turn")
    g.apply(HERO_CARD)
    g.apply(MAJESTY)
    assert damage(g, 1) == 1
    assert event(g, "rescues") == 1 and not g.field("bystander_on")[sp(g, "C4")]


def test_stretcher_carry_moves_rescues_and_heals(medic):
    """Card Stretcher Carry: move up to 2, rescue a bystander within 1, remove 1 damage from
    a hero within 1."""
    g = position(medic, "C3", "E5", cards=["Stretcher Carry"], majesty_damage=2)
    put_bystander(g, "E3")
    put_bystander(g, "D5")
    assert dist(g, "C3", "E5") == 3
    P.jump(g, "hero_turn")
    g.apply(L.A_PLAY + hcard(g, "Stretcher Carry"))
    step(g, "D3")
    step(g, "D4")  # second step: the Move ends; the rescue and the heal follow
    assert dist(g, "D4", "E3") == 1 and dist(g, "D4", "D5") == 1 and dist(g, "D4", "E5") == 1
    assert g.decision == "rescue"
    g.apply(L.A_SPACE + sp(g, "E3"))
    assert legal(g) == {YOU, MAJESTY}
    g.apply(MAJESTY)
    assert event(g, "rescues") == 1 and damage(g, 1) == 1
    assert int(g.field("hactions")[0]) == 1


def test_adrenaline_shot_heals_an_ally_and_focuses_vigil(medic):
    """Card Adrenaline Shot: remove 1 damage from a hero within 3; Vigil gains 1 focus."""
    g = position(medic, "C3", "F3", cards=["Adrenaline Shot"], majesty_damage=2)
    P.jump(g, "hero_turn")
    g.apply(L.A_PLAY + hcard(g, "Adrenaline Shot"))
    g.apply(MAJESTY)
    assert damage(g, 1) == 1
    assert int(g.field("hfocus")[0]) == 1 and int(g.field("hfocus")[1]) == 0


def test_triage_assessment_solves_then_heals(medic):
    """Card Triage Assessment: Solve with +1 die, then remove 1 damage from a hero within
    2 (Vigil's solve 2 + 1 = 3 successes solve Gala Firebomb, danger 3)."""
    g = position(medic, "C3", "C5", cards=["Triage Assessment"], majesty_damage=1)
    bomb = P.add_villain_card(g, "Gala Firebomb", 0, "C4")
    P.jump(g, "hero_turn")
    P.force_dice(g, [SUCCESS] * 3)
    g.apply(L.A_PLAY + hcard(g, "Triage Assessment"))
    assert int(g.field("vloc")[bomb]) == L.L_DISCARD
    g.apply(MAJESTY)
    assert damage(g, 1) == 0


def test_trauma_kit_heals_three_for_an_action(medic):
    """Card Trauma Kit: its Action ability removes 3 damage from a hero within 1."""
    g = position(medic, "C3", "C4", majesty_damage=5)
    (kit,) = P.give_cards(g, 0, ["Trauma Kit"], zone="play")
    P.jump(g, "hero_turn")
    g.apply(L.A_USE + kit)
    g.apply(MAJESTY)
    assert damage(g, 1) == 2 and int(g.field("hactions")[0]) == 1


def test_field_hospital_reaches_four_spaces(medic):
    """Card Field Hospital: its Exhaust ability removes 1 damage from a hero within 4."""
    g = position(medic, "A3", "E3", majesty_damage=1)
    assert dist(g, "A3", "E3") == 4
    (tent,) = P.give_cards(g, 0, ["Field Hospital"], zone="play")
    P.jump(g, "hero_turn")
    g.apply(L.A_USE + tent)
    g.apply(MAJESTY)
    assert damage(g, 1) == 0


def test_riot_shield_armor_and_brace(medic):
    """Card Riot Shield: armor 1 while in play, and its Exhaust ability prevents 3 damage
    while Vigil is being dealt damage: Gala Firebomb's 2 becomes 1, then 0."""
    g = position(medic, "C3", "F3")
    (shield,) = P.give_cards(g, 0, ["Riot Shield"], zone="play")
    P.add_villain_card(g, "Gala Firebomb", 0)
    P.stack_issue_deck(g, ["Shift Change"])
    P.stack_villain_deck(g, ["Old Money", "Hired Help"])
    P.jump(g, "hero_turn")
    P.set_hero(g, 0, actions=0)
    g.refresh()
    g.apply(L.A_PASS)  # end Vigil's actions (Triage is still usable): her threat phase
    assert g.decision == "damage" and int(g.field("dec_a")) == 1  # 2 less armor 1
    g.apply(L.A_USE + shield)
    suffer(g)
    assert damage(g, 0) == 0
