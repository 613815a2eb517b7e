"""Rulebook: Micro-guy's Pilot Token (and the Setup 2a clause about it), with the forms the
engine builds on it: a Hero card whose normal side is a pilot side (the pilot token stands
on the map and counts as a figure) and whose Focused side is a mech side (the mech figure,
kept beside the play area until boarded). Also a scenario test for each Micro-guy card
with a non-trivial effect.

Positions: Century Heist with a cleared board and no Scheme cards, Micro-guy placed by
hand, a known hand, then a jump to the hero turn (2 action tokens).
"""

from __future__ import annotations

import numpy as np
import pytest
from rules_helpers import (
    SUCCESS,
    dist,
    event,
    hand,
    hcard,
    legal,
    moves_at_turn_start,
    neighbours,
    put_bystander,
    remove_schemes,
    setup,
    sp,
    step,
    suffer,
    vcard,
)

from hon_env import Game, load_scenario
from hon_env import positions as P
from hon_env.spec import layout as L
from hon_env.spec.obs_features import read
from hon_env.spec.tables import CFG_START_SPACE, HERO_DECK

PILOT_HEALTH, MECH_HEALTH = 6, 8  # configs/content/heroes/microguy.yaml
PILOT_ATTACK, MECH_ATTACK = 1, 4
HERO_CARD = L.A_USE + HERO_DECK  # "use the ability of the Hero card"


@pytest.fixture(scope="module")
def solo():
    """Micro-guy alone against Dowager in Century Heist."""
    return load_scenario("origin_story", heroes=["microguy"])


@pytest.fixture(scope="module")
def pair():
    """Majesty (seat 0) and Micro-guy (seat 1)."""
    return load_scenario("origin_story", heroes=["majesty", "microguy"])


def in_mech(g: Game, damage: int = 0, pilot_damage: int = 0, seat: int = 0) -> None:
    """Put the hero in their mech (Hero card on its mech side) with the given damage."""
    P.set_hero(g, seat, focused=True, damage=damage, pilot_damage=pilot_damage)


def form(g: Game, seat: int = 0) -> str:
    return g.snapshot()["heroes"][seat]["form"]


def to_threat_phase(g: Game, seat: int = 0) -> None:
    """Spend the hero's actions (set to 0) so the threat phase begins. The issue and villain
    cards drawn after it only place minions, so nothing else touches the hero."""
    P.stack_issue_deck(g, ["Shift Change"])
    P.stack_villain_deck(g, ["Old Money"])
    P.set_hero(g, seat, actions=0)
    g.refresh()  # the only legal answer, ending the actions, is taken automatically


def attack_with_all_successes(g: Game, where: str) -> None:
    """An Attack action on ``where`` with every die a success."""
    P.force_dice(g, [SUCCESS] * 12)
    g.apply(L.A_ATTACK + sp(g, where))


# --- the pilot token on the map ------------------------------------------------------------

def test_setup_micro_guy_starts_as_his_pilot_token(pair):
    """Rulebook: Setup 2a — Micro-guy begins the game as his pilot token, placed in or
    adjacent to the start space like any hero figure; his mech is not on the map and his
    Hero card shows its pilot side (normal side, no damage)."""
    g = Game(pair, seed=4)
    start = int(g.scenario.tables.cfg[CFG_START_SPACE])
    locs = [int(g.field("hloc")[h]) for h in range(2)]
    assert locs[0] != locs[1] and all(dist(g, loc, start) <= 1 for loc in locs)
    hero = g.snapshot()["heroes"][1]
    assert hero["form"] == "pilot" and not hero["focused"]
    assert hero["health"] == PILOT_HEALTH and hero["damage"] == 0 and hero["pilot_damage"] == 0
    assert g.snapshot()["heroes"][0]["form"] == "figure"


def test_pilot_token_occupies_its_space(pair):
    """Rulebook: Micro-guy's Pilot Token / Empty Spaces — the pilot token counts as a
    figure: another hero cannot move into its space."""
    moves = moves_at_turn_start(pair, "C3", "C4")
    assert "C4" not in moves and "B4" in moves


def test_pilot_token_space_is_not_empty_for_a_peril_token(solo):
    """Rulebook: Micro-guy's Pilot Token / Peril Cards — a space holding the pilot token is
    not empty, so a peril token arriving at that peril space goes to the nearest empty
    space instead."""
    g = Game(solo, seed=0)
    P.clear_board(g)
    remove_schemes(g)
    P.place_hero(g, 0, "D6")  # the red peril space
    P.stack_villain_deck(g, ["Gala Firebomb"])
    P.jump(g, "villain_turn")
    pos = int(g.field("vpos")[vcard(g, "Gala Firebomb")])
    assert pos in neighbours(g, "D6")
    assert form(g) == "pilot"


# --- boarding the mech ---------------------------------------------------------------------

def test_focusing_boards_the_mech_and_sets_the_pilot_damage_aside(solo):
    """Rulebook: Micro-guy's Pilot Token / Becoming Focused — discarding 5 focus flips the
    card to its other side, the mech: the figure on the map is now the mech (same space),
    the mech's numbers apply and the pilot's damage waits with the pilot token."""
    g = setup(solo, "C3", cards=[])
    P.set_hero(g, 0, focus=5, damage=2)
    P.jump(g, "hero_turn")
    assert L.A_FOCUS in legal(g)
    assert "board the mech" in g.action_to_string(L.A_FOCUS)
    g.apply(L.A_FOCUS)
    hero = g.snapshot()["heroes"][0]
    assert hero["form"] == "mech" and hero["focused"]
    assert hero["health"] == MECH_HEALTH and hero["damage"] == 0 and hero["pilot_damage"] == 2
    assert hero["focus"] == 0 and int(g.field("hloc")[0]) == sp(g, "C3")
    assert int(g.field("hactions")[0]) == 2  # boarding by focus is a free play


def test_remote_summon_boards_the_mech_for_an_action(solo):
    """Rulebook: Micro-guy's Pilot Token / Hero ability (Action) — the pilot side's Action
    ability calls the mech to a space within 1 (his own included) and he boards it; on the
    mech side the Hero card has a passive ability instead, so it cannot be used again."""
    g = setup(solo, "C3", cards=[])
    P.jump(g, "hero_turn")
    g.apply(HERO_CARD)
    assert g.decision == "place"
    targets = {a - L.A_SPACE for a in legal(g)}
    assert sp(g, "C3") in targets and targets <= neighbours(g, "C3") | {sp(g, "C3")}
    there = sorted(neighbours(g, "C3"))[0]
    g.apply(L.A_SPACE + there)
    assert form(g) == "mech" and int(g.field("hloc")[0]) == there
    assert int(g.field("hactions")[0]) == 1
    assert HERO_CARD not in legal(g)


def test_gaining_focus_past_the_cap_boards_the_mech(solo):
    """Rulebook: Becoming Focused / Focus Tokens — going past 5 focus in the hero turn
    flips the card (engine.md #9); for Micro-guy that flip is boarding the mech."""
    g = setup(solo, "C3", cards=["Overclock"])
    P.set_hero(g, 0, focus=4, damage=1)
    P.jump(g, "hero_turn")
    g.apply(L.A_PLAY + hcard(g, "Overclock"))
    hero = g.snapshot()["heroes"][0]
    assert hero["form"] == "mech" and hero["focus"] == 1
    assert hero["damage"] == 0 and hero["pilot_damage"] == 1


# --- numbers of each form ------------------------------------------------------------------

@pytest.mark.parametrize("mech,dice", [(False, PILOT_ATTACK), (True, MECH_ATTACK)])
def test_attack_rolls_the_current_forms_attack_value(solo, mech, dice):
    """Rulebook: Micro-guy's Pilot Token / Attack Value — the pilot attacks with 1 die, the
    mech with 4: every die a success on Big Bertram (health 5, defense 0) deals 1 or 4."""
    g = setup(solo, "C3", cards=[])
    if mech:
        in_mech(g)
    bertram = P.add_villain_card(g, "Big Bertram", 0, "C4")
    P.jump(g, "hero_turn")
    attack_with_all_successes(g, "C4")
    assert int(g.field("vdmg")[bertram]) == dice


@pytest.mark.parametrize("mech,steps", [(False, 3 + 2), (True, 3)])
def test_thruster_pack_moves_only_the_pilot(solo, mech, steps):
    """Rulebook: Micro-guy's Pilot Token / Move — Thruster Pack (+2 move while piloting)
    lengthens the pilot's Move to 5 spaces; in the mech a Move stays 3 spaces."""
    g = setup(solo, "C3", cards=[])
    P.give_cards(g, 0, ["Thruster Pack"], zone="play")
    if mech:
        in_mech(g)
    P.jump(g, "hero_turn")
    step(g, "C4")
    assert g.decision == "move" and int(g.field("dec_a")) == steps - 1


@pytest.mark.parametrize("mech,suffered", [(False, 2), (True, 0)])
def test_mech_armor_and_reinforced_hull_count_only_in_the_mech(solo, mech, suffered):
    """Rulebook: Micro-guy's Pilot Token / Dealing and Suffering Damage — the mech side's
    armor 1 and Reinforced Hull (+1 armor while in the mech) stop a 2-damage peril; the
    pilot suffers all of it."""
    g = setup(solo, "C3", cards=[])
    P.give_cards(g, 0, ["Reinforced Hull"], zone="play")
    if mech:
        in_mech(g)
    P.add_villain_card(g, "Gala Firebomb", 0)
    P.jump(g, "hero_turn")
    to_threat_phase(g)
    suffer(g)
    assert int(g.field("hdmg")[0]) == suffered


# --- losing the mech -----------------------------------------------------------------------

def test_wrecked_mech_returns_him_to_the_pilot_token(solo):
    """Rulebook: Micro-guy's Pilot Token / Dealing and Suffering Damage — damage reaching
    the mech side's health wrecks the mech, not the hero: the card flips back to the pilot
    side, the pilot's set-aside damage returns, the pilot token stays in the space, and
    there is no hero defeat and no crisis."""
    g = setup(solo, "C3", cards=[])
    in_mech(g, damage=MECH_HEALTH - 1, pilot_damage=2)
    P.add_villain_card(g, "Gala Firebomb", 0)  # 2 damage, 1 after the mech's armor
    P.jump(g, "hero_turn")
    crises = event(g, "crises")
    to_threat_phase(g)
    suffer(g)
    hero = g.snapshot()["heroes"][0]
    assert hero["form"] == "pilot" and hero["damage"] == 2 and hero["pilot_damage"] == 0
    assert int(g.field("hloc")[0]) == sp(g, "C3")
    assert event(g, "mech_wrecks") == 1 and event(g, "hero_defeats") == 0
    assert event(g, "crises") == crises


def test_pilot_reaching_his_health_is_a_hero_defeat(solo):
    """Rulebook: Dealing and Suffering Damage — the pilot token is Micro-guy himself:
    damage reaching the pilot side's health defeats him (figure removed, a crisis)."""
    g = setup(solo, "C3", cards=[])
    P.set_hero(g, 0, damage=PILOT_HEALTH - 2)
    P.add_villain_card(g, "Gala Firebomb", 0)
    P.jump(g, "hero_turn")
    to_threat_phase(g)
    suffer(g)
    assert event(g, "hero_defeats") == 1 and event(g, "mech_wrecks") == 0
    assert event(g, "crises") == 1


def test_mech_left_behind_comes_back_undamaged(solo):
    """Rulebook: Micro-guy's Pilot Token — the mech he left waits beside his play area with
    its damage discarded: boarding it again starts it undamaged, while the pilot's own
    damage follows him in and out."""
    g = setup(solo, "C3", cards=["Pop the Hatch"])
    P.set_hero(g, 0, damage=1)
    P.jump(g, "hero_turn")
    g.apply(HERO_CARD)
    g.apply(L.A_SPACE + sp(g, "C3"))
    assert form(g) == "mech" and int(g.field("hpilot_dmg")[0]) == 1
    P.set_hero(g, 0, damage=3)
    g.refresh()
    g.apply(L.A_PLAY + hcard(g, "Pop the Hatch"))  # eject; no problem to solve nearby
    assert form(g) == "pilot" and int(g.field("hdmg")[0]) == 1
    P.set_hero(g, 0, actions=1)
    g.refresh()
    g.apply(HERO_CARD)
    g.apply(L.A_SPACE + sp(g, "C3"))
    assert form(g) == "mech" and int(g.field("hdmg")[0]) == 0
    assert int(g.field("hpilot_dmg")[0]) == 1


# --- observation and rendering -------------------------------------------------------------

def test_observation_encodes_the_form_of_self_and_others(pair):
    """The observation shows each hero's form: pilot token or mech (one-hot) and the
    pilot's set-aside damage (a fraction of the pilot's health), for the observer (self
    section) and for the other seats."""
    g = Game(pair, seed=0)
    obs = g.observation(1)
    assert read(obs, "self.pilot") == 1.0 and read(obs, "self.mech") == 0.0
    assert read(obs, "others.pilot") == read(obs, "others.mech") == 0.0  # Majesty: a figure
    in_mech(g, pilot_damage=3, seat=1)
    mine = g.observation(1)
    assert read(mine, "self.pilot") == 0.0 and read(mine, "self.mech") == 1.0
    assert read(mine, "self.pilot_damage") == pytest.approx(3 / PILOT_HEALTH)
    other = g.observation(0)
    assert read(other, "others.pilot") == 0.0 and read(other, "others.mech") == 1.0
    assert read(other, "others.pilot_damage") == pytest.approx(3 / PILOT_HEALTH)


def test_text_render_names_the_form(pair):
    from hon_env.render import render_ansi
    g = Game(pair, seed=0)
    assert "Micro-guy, pilot token" in render_ansi(g)
    in_mech(g, damage=1, pilot_damage=2, seat=1)
    text = render_ansi(g)
    assert "Micro-guy, in the mech" in text and "(pilot damage 2)" in text


def test_image_render_draws_the_pilot_token_and_the_mech():
    """The image draws Micro-guy's form (a small ring for the pilot token, a square for
    the mech, and the side panel's words): boarding changes the picture."""
    from hon_env.render import render_rgb
    sc = load_scenario("origin_story", heroes=["microguy", "majesty"])
    g = Game(sc, seed=0)
    P.clear_board(g)
    P.place_hero(g, 0, "C3")
    P.place_hero(g, 1, "F3")
    pilot = render_rgb(g, dpi=40)
    in_mech(g)
    mech = render_rgb(g, dpi=40)
    assert pilot.shape == mech.shape and pilot.dtype == np.uint8
    assert (pilot != mech).any()


# --- card scenarios ------------------------------------------------------------------------

def test_mech_drop_lands_the_mech_within_two_and_attacks(solo):
    """Card Mech Drop: board the mech in a space within 2 of the pilot, then Attack from
    there with the mech's 4 dice (Big Bertram, health 5, takes 4)."""
    g = setup(solo, "C3", cards=["Mech Drop"])
    bertram = P.add_villain_card(g, "Big Bertram", 0, "C6")
    assert dist(g, "C3", "C5") == 2 and dist(g, "C5", "C6") == 1 and dist(g, "C3", "C6") == 3
    P.jump(g, "hero_turn")
    P.force_dice(g, [SUCCESS] * 6)
    g.apply(L.A_PLAY + hcard(g, "Mech Drop"))
    assert g.decision == "place"
    assert all(dist(g, a - L.A_SPACE, "C3") <= 2 for a in legal(g))
    g.apply(L.A_SPACE + sp(g, "C5"))
    # the only enemy within reach is Bertram, so the Attack picked his space itself
    assert form(g) == "mech" and int(g.field("hloc")[0]) == sp(g, "C5")
    assert int(g.field("vdmg")[bertram]) == MECH_ATTACK


@pytest.mark.parametrize("mech,on_bertram,on_hollis", [(False, 2, 0), (True, 5, 1)])
def test_rocket_fist_adds_a_punch_only_in_the_mech(solo, mech, on_bertram, on_hollis):
    """Card Rocket Fist: Attack with +1 die; in the mech also deal 1 damage to an enemy
    within 1. Pilot: 1+1 dice on Big Bertram (health 5); mech: 4+1 dice defeat him and
    the extra damage hits Hatchet Hollis, the only enemy left within 1."""
    g = setup(solo, "C3", cards=["Rocket Fist"])
    if mech:
        in_mech(g)
    bertram = P.add_villain_card(g, "Big Bertram", 0, "C4")
    hollis = P.add_villain_card(g, "Hatchet Hollis", 0, "B3")
    assert dist(g, "C3", "B3") == 1
    P.jump(g, "hero_turn")
    P.force_dice(g, [SUCCESS] * 8)
    g.apply(L.A_PLAY + hcard(g, "Rocket Fist"))
    g.apply(L.A_ATTACK + sp(g, "C4"))
    assert event(g, "damage_dealt") == on_bertram + on_hollis
    assert int(g.field("vdmg")[hollis]) == on_hollis
    assert (int(g.field("vloc")[bertram]) == L.L_DISCARD) == mech


def test_vent_crawl_places_and_rescues_only_the_pilot(solo):
    """Card Vent Crawl: the pilot is placed within 3 and rescues a bystander within 1; in
    the mech the card does nothing."""
    g = setup(solo, "C3", cards=["Vent Crawl", "Vent Crawl"])
    put_bystander(g, "E3")
    assert dist(g, "C3", "E3") == 2 and dist(g, "E3", "F3") == 1
    P.jump(g, "hero_turn")
    first, second = hand(g)
    g.apply(L.A_PLAY + first)
    assert g.decision == "place"
    assert all(dist(g, a - L.A_SPACE, "C3") <= 3 for a in legal(g))
    g.apply(L.A_SPACE + sp(g, "F3"))
    assert int(g.field("hloc")[0]) == sp(g, "F3")
    assert g.decision == "main"  # the only bystander within 1 was rescued automatically
    assert event(g, "rescues") == 1
    in_mech(g)
    g.refresh()
    g.apply(L.A_PLAY + second)
    assert g.decision == "main" and int(g.field("hloc")[0]) == sp(g, "F3")


def test_pop_the_hatch_ejects_then_solves_with_pilot_dice(solo):
    """Card Pop the Hatch: leave the mech (back to the pilot's 3 solve) and Solve with +1
    die: 4 successes on Gala Firebomb (danger 3) solve it."""
    g = setup(solo, "C3", cards=["Pop the Hatch"])
    in_mech(g, damage=4, pilot_damage=1)
    bomb = P.add_villain_card(g, "Gala Firebomb", 0, "C4")
    P.jump(g, "hero_turn")
    P.force_dice(g, [SUCCESS] * 4)
    g.apply(L.A_PLAY + hcard(g, "Pop the Hatch"))  # the peril's space is the only target
    assert form(g) == "pilot" and int(g.field("hdmg")[0]) == 1
    assert int(g.field("vloc")[bomb]) == L.L_DISCARD
    assert int(g.field("dice_n")) == 0  # all four forced dice were rolled


def test_overload_the_reactor_spends_the_mech(solo):
    """Card Overload the Reactor: in the mech, deal 3 then 2 damage to enemies within 1,
    then leave the mech (the mech's damage goes with it)."""
    g = setup(solo, "C3", cards=["Overload the Reactor"])
    in_mech(g, damage=5)
    bertram = P.add_villain_card(g, "Big Bertram", 0, "C4")
    P.jump(g, "hero_turn")
    g.apply(L.A_PLAY + hcard(g, "Overload the Reactor"))
    assert int(g.field("vloc")[bertram]) == L.L_DISCARD  # 3 + 2 = health 5
    assert form(g) == "pilot" and int(g.field("hdmg")[0]) == 0


def test_overload_the_reactor_does_nothing_for_the_pilot(solo):
    g = setup(solo, "C3", cards=["Overload the Reactor"])
    bertram = P.add_villain_card(g, "Big Bertram", 0, "C4")
    P.jump(g, "hero_turn")
    g.apply(L.A_PLAY + hcard(g, "Overload the Reactor"))
    assert int(g.field("vdmg")[bertram]) == 0 and form(g) == "pilot"


@pytest.mark.parametrize("mech,drawn", [(False, 1), (True, 0)])
def test_precision_tinkering_draws_only_for_the_pilot(solo, mech, drawn):
    """Card Precision Tinkering: 1 justice on a problem within 1; the pilot also draws."""
    g = setup(solo, "C3", cards=["Precision Tinkering"])
    if mech:
        in_mech(g)
    bomb = P.add_villain_card(g, "Gala Firebomb", 0, "C4")
    P.jump(g, "hero_turn")
    g.apply(L.A_PLAY + hcard(g, "Precision Tinkering"))
    assert int(g.field("vjust")[bomb]) == 1
    assert len(hand(g)) == drawn


def test_homing_beacon_boards_within_three_once_per_round(solo):
    """Card Homing Beacon: its Exhaust ability boards the mech in a space within 3, free."""
    g = setup(solo, "C3", cards=[])
    (beacon,) = P.give_cards(g, 0, ["Homing Beacon"], zone="play")
    P.jump(g, "hero_turn")
    g.apply(L.A_USE + beacon)
    assert g.decision == "place"
    assert max(dist(g, a - L.A_SPACE, "C3") for a in legal(g)) == 3
    g.apply(L.A_SPACE + sp(g, "C3"))
    assert form(g) == "mech" and int(g.field("hactions")[0]) == 2
    assert L.A_USE + beacon not in legal(g)


def test_targeting_computer_counts_in_the_mech_only(solo):
    """Card Targeting Computer: +1 attack die and pierce 1 while in the mech: Hatchet
    Hollis (defense 1) takes all 5 successes; the pilot's single die is not pierced."""
    for mech, expected in ((True, 5), (False, 0)):  # Hollis has health 4
        g = setup(solo, "C3", cards=[])
        P.give_cards(g, 0, ["Targeting Computer"], zone="play")
        if mech:
            in_mech(g)
        hollis = P.add_villain_card(g, "Hatchet Hollis", 0, "C4")
        P.jump(g, "hero_turn")
        attack_with_all_successes(g, "C4")
        dealt = event(g, "damage_dealt")
        assert dealt == expected, (mech, dealt)
        if mech:
            assert int(g.field("vloc")[hollis]) == L.L_DISCARD


def test_form_counts_are_zero_off_the_board(solo):
    """A defeated Micro-guy is neither piloting nor in the mech for ``if`` tests."""
    from hon_env.core import interp
    from hon_env.spec.ops import COUNT_ACTIVE_IN_MECH, COUNT_ACTIVE_PILOTING
    g = Game(solo, seed=0)
    tabs = g.scenario.tables
    assert interp.count_value(g.state, 0, tabs, COUNT_ACTIVE_PILOTING, 0, 0) == 1
    assert interp.count_value(g.state, 0, tabs, COUNT_ACTIVE_IN_MECH, 0, 0) == 0
    g.field("hloc")[0] = -1
    assert interp.count_value(g.state, 0, tabs, COUNT_ACTIVE_PILOTING, 0, 0) == 0
    assert np.all(g.field("hpilot_dmg") == 0)
