"""Rulebook chapters: Threat Phase, Activating Enemies, Enemy Activation and Inflict
Effects, Movement and Targeting Priority, Exhausted Cards, Dealing and Suffering Damage,
Defense Value, Heroic Feat Icons (toughness), A Crisis Occurs (hero defeat).

Flow used to look past a threat phase: the issue deck is stacked with Inside Man (1 minion
in the villain's panel) and the villain deck with A Word in the Right Ear (a cunning icon),
so the game stops at the next villain turn's cunning choice.
"""

from __future__ import annotations

import pytest
from rules_helpers import (
    BLANK,
    dist,
    event,
    hand,
    hcard,
    heroes_at,
    legal,
    move_one,
    move_twice_into_threat_phase,
    neighbours,
    pass_while,
    put_bystander,
    put_minions,
    remove_schemes,
    roll_solve,
    set_scheme,
    setup,
    sp,
    stop_at_next_villain_turn,
    suffer,
)

from hon_env import Game, Scenario, load_scenario
from hon_env import positions as P
from hon_env.spec import layout as L
from hon_env.spec.tables import CFG_START_SPACE, HERO_DECK, SP_PLAIN


def two_draws(g: Game) -> None:
    """Spend both actions drawing, then end the action phase (threat phase follows)."""
    g.apply(L.A_DRAW)
    if g.decision == "main" and int(g.field("hactions")[g.current_seat]) == 1:
        g.apply(L.A_DRAW)
    pass_while(g, "main")



def vance_after_two_draws(scenario: Scenario, hero_at: str, vance_at: str) -> tuple[Game, int]:
    """Majesty on ``hero_at`` and Chauffeur Vance on ``vance_at``; the hero spends both
    actions drawing (Vance activates in the threat phase). Returns the game and Vance's
    space afterwards."""
    g = setup(scenario, hero_at)
    vance = P.add_villain_card(g, "Chauffeur Vance", 0, vance_at)
    P.jump(g, "hero_turn")
    two_draws(g)
    return g, int(g.field("vpos")[vance])


# --- Activating Enemies / Exhausted Cards ---------------------------------------------------

def test_exhausted_enemy_readies_instead_of_activating(origin):
    """Rulebook: Activating Enemies — an enemy whose card is exhausted does not resolve its
    Activate effect in the threat phase; its card is readied instead."""
    g = setup(origin, "C3")
    tallow = P.add_villain_card(g, "Miss Tallow, Bookkeeper", 0, "H2")  # inflict_owner 1
    P.exhaust(g, "Miss Tallow, Bookkeeper")
    move_twice_into_threat_phase(g, "D3", "C3")
    assert g.decision == "cunning"  # no damage window was opened
    assert int(g.field("vexh")[tallow]) == 0
    assert int(g.field("hdmg")[0]) == 0


def test_ready_enemy_activates_in_threat_phase(origin):
    """Rulebook: Threat Phase — a ready enemy in the threat area resolves its Activate
    effect (Miss Tallow inflicts her owner for 1, wherever he stands)."""
    g = setup(origin, "C3")
    P.add_villain_card(g, "Miss Tallow, Bookkeeper", 0, "H2")
    move_twice_into_threat_phase(g, "D3", "C3")
    assert g.decision == "damage" and int(g.field("dec_a")) == 1
    suffer(g)
    assert int(g.field("hdmg")[0]) == 1


def test_peril_activates_in_threat_phase(origin):
    """Rulebook: Threat Phase — each card in the active hero's threat area activates
    (Favours Called In: 1 minion in the villain's panel)."""
    g = setup(origin, "C3")
    P.add_villain_card(g, "Favours Called In", 0)
    P.stack_issue_deck(g, ["Laser Grid"])  # 1 minion in panel 3
    P.stack_villain_deck(g, ["A Word in the Right Ear"])
    P.jump(g, "hero_turn")
    move_one(g, "D3")
    move_one(g, "C3")
    assert g.decision == "cunning"
    assert [int(x) for x in g.field("minions")[1:5]] == [1, 0, 1, 0]


# --- Enemy movement -----------------------------------------------------------------------------

def test_lackey_moves_toward_nearest_hero_and_inflicts_when_near(origin):
    """Rulebook: Movement and Targeting Priority / Enemy Activation — Chauffeur Vance
    (move 3, inflict 1), 4 spaces from the hero, moves 3 spaces toward the hero, ends near
    the hero and inflicts 1."""
    g, pos = vance_after_two_draws(origin, "D5", "D1")
    assert dist(g, "D1", "D5") == 4
    assert dist(g, pos, "D5") == 1
    assert dist(g, pos, "D1") == 3
    assert g.decision == "damage" and int(g.field("dec_a")) == 1
    suffer(g)
    assert int(g.field("hdmg")[0]) == 1


def test_lackey_stops_moving_when_near_hero(origin):
    """Rulebook: Movement and Targeting Priority — enemies stop moving when they reach
    their destination: Vance (move 3) 3 spaces away stops after 2, next to the hero."""
    g, pos = vance_after_two_draws(origin, "D3", "B1")
    assert dist(g, "B1", "D3") == 3
    assert dist(g, pos, "D3") == 1
    assert dist(g, pos, "B1") == 2


def test_lackey_already_near_does_not_move(origin):
    """Rulebook: Movement and Targeting Priority — an enemy already at its target position
    does not move; it still inflicts."""
    g, pos = vance_after_two_draws(origin, "C3", "D3")
    assert pos == sp(g, "D3")
    assert g.decision == "damage" and int(g.field("dec_a")) == 1


def test_lackey_out_of_reach_moves_but_does_not_inflict(origin):
    """Rulebook: Enemy Activation and Inflict Effects — an enemy inflicts a *nearby* hero:
    Big Bertram (move 1) far from the hero moves 1 space and deals no damage."""
    g = setup(origin, "B7")
    bertram = P.add_villain_card(g, "Big Bertram", 0, "H1")
    move_twice_into_threat_phase(g, "C7", "B7")
    assert g.decision == "cunning"
    pos = int(g.field("vpos")[bertram])
    assert dist(g, pos, "H1") == 1
    assert dist(g, pos, "B7") == dist(g, "H1", "B7") - 1
    assert int(g.field("hdmg")[0]) == 0


def test_lackey_captures_bystander_it_moves_into(origin):
    """Rulebook: Movement and Targeting Priority — an enemy moves toward the nearest hero
    or bystander; moving into a bystander's space captures it, placing it in the scheme
    panel nearest it (B3 is next to the panel 3 scheme space)."""
    g = setup(origin, "H6")
    vance = P.add_villain_card(g, "Chauffeur Vance", 0, "D1")
    put_bystander(g, "B3")
    assert dist(g, "D1", "B3") == 3 < dist(g, "D1", "H6")
    assert dist(g, "B3", "panel 3") == 1
    P.stack_issue_deck(g, ["Thermal Drill"])  # an issue card that leaves bystanders alone
    P.jump(g, "hero_turn")
    two_draws(g)
    assert int(g.field("vpos")[vance]) == sp(g, "B3")
    assert int(g.field("bystander_on")[sp(g, "B3")]) == 0
    assert [int(x) for x in g.field("captured")[1:5]] == [0, 0, 1, 0]
    assert event(g, "captures") == 1


def test_several_nearby_heroes_choose_who_suffers_inflict(duo):
    """Rulebook: Enemy Activation and Inflict Effects — if several heroes are near an
    inflicting enemy, the heroes choose which one suffers the whole inflict."""
    g = heroes_at(duo, "C3", "D4", keep_schemes=False, cards=("Throne Breaker",))
    P.add_villain_card(g, "Chauffeur Vance", 0, "D3")
    P.jump(g, "hero_turn")
    assert g.current_seat == 0
    g.apply(L.A_DRAW)
    g.apply(L.A_DRAW)
    pass_while(g, "main")
    assert g.decision == "pick_hero"
    assert legal(g) == {L.A_HERO + 0, L.A_HERO + 1}
    g.apply(L.A_HERO + 1)
    suffer(g)
    assert int(g.field("hdmg")[1]) == 1
    assert int(g.field("hdmg")[0]) == 0


def test_revealed_villain_activates_from_threat_area(origin):
    """Rulebook: Threat Phase — the Showdown Villain card in a threat area activates
    (Dowager: move 2 toward the nearest hero, then inflict 2 on a nearby hero)."""
    g = setup(origin, "C3")
    P.set_villain(g, side="showdown", where="D3", owner=0)
    P.jump(g, "hero_turn")
    two_draws(g)
    assert int(g.field("vil_loc")) == sp(g, "D3")
    assert g.decision == "damage" and int(g.field("dec_a")) == 2


def test_showdown_villain_goes_on_moving_after_capturing_a_bystander(origin):
    """Rulebook: Movement and Targeting Priority — villains do not stop moving when they
    capture a bystander. Dowager (Showdown: move 2, inflict 2) is 1 space from a bystander
    and 3 from Majesty: she captures the bystander, then takes her second step to Majesty
    and inflicts there."""
    g = setup(origin, "C3")
    T = g.scenario.tables
    villain, bystander = next(
        (v, b) for v in range(len(g.scenario.space_labels))
        if T.space_kind[v] == SP_PLAIN and dist(g, v, "C3") == 3
        for b in sorted(neighbours(g, v))
        if T.space_kind[b] == SP_PLAIN and dist(g, b, "C3") == 2)
    put_bystander(g, bystander)
    P.set_villain(g, side="showdown", where=villain, owner=0)
    P.jump(g, "hero_turn")
    two_draws(g)
    assert int(g.field("bystander_on")[bystander]) == 0
    assert event(g, "captures") == 1
    assert dist(g, int(g.field("vil_loc")), "C3") == 1
    assert g.decision == "damage" and int(g.field("dec_a")) == 2


# --- Dealing and Suffering Damage / Defense Value ---------------------------------------------

def test_effect_damage_ignores_defense(origin):
    """Rulebook: Defense Value — defense is only used during an Attack; damage dealt by a
    game effect ignores it (Palace Guard deals 2 to Hatchet Hollis, defense 1)."""
    g = setup(origin, "C3", cards=[])
    guard = P.give_cards(g, 0, ["Palace Guard"], "play")[0]
    hollis = P.add_villain_card(g, "Hatchet Hollis", 0, "D3")
    P.jump(g, "hero_turn")
    g.apply(L.A_USE + guard)
    assert int(g.field("vdmg")[hollis]) == 2


def test_toughness_feat_reduces_damage_by_three(origin):
    """Rulebook: Heroic Feat Icons — Toughness: discard a card with the icon to reduce
    damage dealt to you by 3 (4 damage from one inflict becomes 1)."""
    sc = load_scenario("origin_story", rules={"minion_inflict": 4})
    g = setup(sc, "panel 2", cards=["Backhand"])
    set_scheme(g, 0, "Hostages at the Counter")
    put_minions(g, 2, 1)
    roll_solve(g, "panel 2", [BLANK, BLANK])
    assert g.decision == "damage" and int(g.field("dec_a")) == 4
    c = hcard(g, "Backhand")
    assert L.A_CARD + c in legal(g)
    g.apply(L.A_CARD + c)
    assert int(g.field("hcloc")[0][c]) == L.L_DISCARD
    assert g.decision == "damage" and int(g.field("dec_a")) == 1
    suffer(g)
    assert int(g.field("hdmg")[0]) == 1


def test_toughness_only_from_cards_with_icon(origin):
    """Rulebook: Heroic Feat Icons — only a card with the toughness icon can be discarded
    to reduce damage (Throne Breaker has none)."""
    g = setup(origin, "C3", cards=["Throne Breaker", "Second Wind"])
    P.add_villain_card(g, "Gala Firebomb", 0)
    P.jump(g, "hero_turn")
    two_draws(g)
    assert g.decision == "damage"
    assert L.A_CARD + hcard(g, "Second Wind") in legal(g)
    assert L.A_CARD + hcard(g, "Throne Breaker") not in legal(g)


def test_exhaust_ability_reduces_damage(origin):
    """Rulebook: Exhausted Cards — an Exhaust effect that reduces damage may be used while
    damage is dealt (Majesty's Regal Bearing prevents 1 of Gala Firebomb's 2)."""
    g = setup(origin, "C3", cards=["Throne Breaker"])
    P.add_villain_card(g, "Gala Firebomb", 0)
    P.jump(g, "hero_turn")
    two_draws(g)
    assert g.decision == "damage" and int(g.field("dec_a")) == 2
    g.apply(L.A_USE + HERO_DECK)
    assert int(g.field("hexh")[0]) == 1
    suffer(g)
    assert int(g.field("hdmg")[0]) == 1


def test_hero_defeat(duo):
    """Rulebook: Dealing and Suffering Damage / A Crisis Occurs — a hero whose damage
    reaches their health is defeated: damage discarded, Hero card flipped back from
    Focused, focus discarded, figure removed from the board, and a crisis occurs. Defeated
    during their own turn, they lose their remaining action and resolve their threat phase
    at once. At the end of that turn they return to an empty space near the start space,
    and still draw their end-of-turn card."""
    g = Game(duo, seed=0)
    P.clear_board(g)
    remove_schemes(g)
    set_scheme(g, 0, "Hostages at the Counter")
    P.place_hero(g, 0, "panel 2")
    P.place_hero(g, 1, "C3")
    for seat in (0, 1):
        P.empty_hand(g, seat)
        P.give_cards(g, seat, ["Throne Breaker"])
    P.set_hero(g, 0, damage=11, focused=True, focus=3)  # Focused: health 12, armour 1
    P.add_villain_card(g, "Hatchet Hollis", 1, "G5")  # inflict 2, next to the panel
    tallow = P.add_villain_card(g, "Miss Tallow, Bookkeeper", 0, "H2")
    P.exhaust(g, "Miss Tallow, Bookkeeper")
    stop_at_next_villain_turn(g)
    P.force_dice(g, [BLANK, BLANK])
    P.jump(g, "hero_turn")
    g.apply(L.A_SOLVE + sp(g, "panel 2"))  # Hollis inflicts 2 (1 after armour)
    suffer(g)
    f = g.field
    assert int(f("hloc")[0]) == -1
    assert int(f("hdmg")[0]) == 0
    assert int(f("hside")[0]) == 0
    assert int(f("hfocus")[0]) == 0
    assert int(f("hactions")[0]) == 0
    assert int(f("vexh")[tallow]) == 0  # hero 0's threat phase already ran
    assert event(g, "hero_defeats") == 1
    assert event(g, "crises") == 1
    assert g.decision == "main" and g.current_seat == 1
    assert g.snapshot()["heroes"][0]["location"] is None
    move_one(g, "D3")
    move_one(g, "C3")
    assert g.decision == "cunning" and int(f("round")) == 2
    start = int(g.scenario.tables.cfg[CFG_START_SPACE])
    loc = int(f("hloc")[0])
    assert loc >= 0 and dist(g, loc, start) <= 1
    assert loc != int(f("hloc")[1])
    assert len(hand(g, 0)) == 2  # Throne Breaker + the end-of-turn draw
    assert event(g, "crises") == 1


def test_hero_defeat_in_threat_phase_returns_at_end_of_turn(origin):
    """Rulebook: Dealing and Suffering Damage — Majesty (10 damage, health 11) is defeated
    by Gala Firebomb in her threat phase; she is back near the start by the next round."""
    g = setup(origin, "H2", cards=["Throne Breaker"])
    P.set_hero(g, 0, damage=10)
    P.add_villain_card(g, "Gala Firebomb", 0)
    move_twice_into_threat_phase(g, "H3", "H2")
    assert g.decision == "damage"
    suffer(g)
    assert g.decision == "cunning"
    loc = int(g.field("hloc")[0])
    assert loc >= 0 and dist(g, loc, int(g.scenario.tables.cfg[CFG_START_SPACE])) <= 1
    assert int(g.field("hdmg")[0]) == 0
    assert event(g, "hero_defeats") == 1
    assert event(g, "crises") == 1


def test_hero_defeated_in_another_heros_threat_phase_takes_theirs_at_once(duo):
    """Rulebook: Dealing and Suffering Damage — a hero defeated during the hero turn flips
    their action tokens and resolves their threat phase right after the effect that
    defeated them. In seat 0's threat phase Hatchet Hollis (seat 0's) defeats seat 1; seat
    1's own Chauffeur Vance activates then, before Miss Tallow (seat 0's next card), and
    seat 1 takes no second threat phase later in the turn."""
    g = setup(duo, "A2", cards=("Backhand",))  # Backhand: a toughness feat, so seat 0 decides
    P.empty_hand(g, 1)
    P.place_hero(g, 1, "D4")
    P.set_hero(g, 1, damage=9)  # Majesty: health 11, Hollis inflicts 2
    hollis_at = next(s for s in sorted(neighbours(g, "D4"))
                     if g.scenario.tables.space_kind[s] == SP_PLAIN and dist(g, s, "A2") > 2)
    P.add_villain_card(g, "Hatchet Hollis", 0, hollis_at)
    vance = P.add_villain_card(g, "Chauffeur Vance", 1, "H6")  # moves 3 toward a hero
    P.add_villain_card(g, "Miss Tallow, Bookkeeper", 0, "H2")  # inflicts 1 on her owner
    assert dist(g, "H6", "A2") == 9
    stop_at_next_villain_turn(g)
    P.jump(g, "hero_turn")
    two_draws(g)
    assert g.decision == "damage" and g.current_seat == 1  # Hollis's inflict
    g.apply(L.A_PASS)
    f = g.field
    assert int(f("hloc")[1]) == -1 and event(g, "hero_defeats") == 1
    # Tallow's inflict on seat 0 is pending: seat 1's threat phase has already run
    assert g.decision == "damage" and g.current_seat == 0 and int(f("dec_a")) == 1
    assert int(f("hthreat_done")[1]) == 1
    assert dist(g, int(f("vpos")[vance]), "A2") == 6
    suffer(g)
    assert g.decision == "cunning" and int(f("round")) == 2
    assert dist(g, int(f("vpos")[vance]), "A2") == 6  # no second threat phase for seat 1


def test_hero_about_to_suffer_damage_may_become_focused_without_the_initiative(duo):
    """Rulebook: Becoming Focused — during the hero turn any hero may become Focused at any
    time. Seat 1, with 5 focus and no initiative, is inflicted by Hatchet Hollis in seat
    0's threat phase: the damage decision is seat 1's and offers the flip; the 2 damage
    that would defeat her normal side (9 of 11) then lands on the Focused side (health 12)."""
    g = setup(duo, "A2")
    P.empty_hand(g, 1)
    P.place_hero(g, 1, "D4")
    P.set_hero(g, 1, focus=5, damage=9)  # 9 + 2 defeats the normal side (health 11)
    hollis_at = next(s for s in sorted(neighbours(g, "D4"))
                     if g.scenario.tables.space_kind[s] == SP_PLAIN and dist(g, s, "A2") > 2)
    P.add_villain_card(g, "Hatchet Hollis", 0, hollis_at)
    stop_at_next_villain_turn(g)
    P.jump(g, "hero_turn")
    two_draws(g)
    assert g.decision == "damage" and g.current_seat == 1
    assert {L.A_PASS, L.A_FOCUS} <= legal(g)
    g.apply(L.A_FOCUS)
    f = g.field
    assert int(f("hside")[1]) == 1 and int(f("hfocus")[1]) == 0
    if g.decision == "damage":  # the Focused side's abilities may keep the window open
        assert L.A_FOCUS not in legal(g)
        suffer(g)
    assert int(f("hloc")[1]) >= 0 and int(f("hdmg")[1]) == 11
    assert event(g, "hero_defeats") == 0


def test_no_becoming_focused_outside_the_hero_turn(origin):
    """Rulebook: Becoming Focused — flipping is a hero-turn option: a damage window in the
    villain turn (a cunning inflict) offers Majesty's prevent ability but not the flip."""
    g = setup(origin, "C3", cards=())
    P.set_hero(g, 0, focus=5)
    P.stack_villain_deck(g, ["A Word in the Right Ear"])
    P.jump(g, "villain_turn")
    assert g.decision == "cunning"
    g.apply(L.A_OPTION + 1)  # the villain inflicts 1
    assert g.decision == "damage" and L.A_PASS in legal(g)
    assert L.A_FOCUS not in legal(g)
    g.apply(L.A_PASS)
    assert int(g.field("hside")[0]) == 0 and int(g.field("hdmg")[0]) == 1


@pytest.mark.parametrize("damage, defeated", [(8, False), (9, True)])
def test_hero_defeated_exactly_at_health(origin, damage, defeated):
    """Rulebook: Dealing and Suffering Damage / Character and Problem Cards — a hero is
    defeated when their damage reaches their health (Majesty: 11): 8 + 2 = 10 survives,
    9 + 2 = 11 is defeated."""
    g = setup(origin, "H2", cards=["Throne Breaker"])
    P.set_hero(g, 0, damage=damage)
    P.add_villain_card(g, "Gala Firebomb", 0)
    move_twice_into_threat_phase(g, "H3", "H2")
    suffer(g)
    assert event(g, "hero_defeats") == (1 if defeated else 0)
    assert int(g.field("hdmg")[0]) == (0 if defeated else damage + 2)


def test_lackey_moves_toward_hero_in_scheme_panel(origin):
    """Rulebook: Near and Nearby — a hero in a scheme panel counts as being in its scheme
    space: Chauffeur Vance moves toward the green scheme space and inflicts the hero in
    panel 2 once near it."""
    g = setup(origin, "panel 2")
    vance = P.add_villain_card(g, "Chauffeur Vance", 0, "F3")
    assert dist(g, "F3", "panel 2") == 3
    P.jump(g, "hero_turn")
    two_draws(g)
    assert dist(g, int(g.field("vpos")[vance]), "panel 2") <= 1
    assert g.decision == "damage" and int(g.field("dec_a")) == 1


def test_each_nearby_enemy_inflicts_separately_after_solve(origin):
    """Rulebook: Solve / Enemy Activation and Inflict Effects — after a Solve *each* nearby
    enemy inflicts, i.e. each deals its own inflict value as damage. A toughness discard
    reduces one damage dealt by 3, so with two minions it stops one minion's 1 damage and
    the other minion still deals 1."""
    g = setup(origin, "panel 2", cards=["Backhand"])
    set_scheme(g, 0, "Hostages at the Counter")
    put_minions(g, 2, 2)
    P.force_dice(g, [BLANK, BLANK])
    P.jump(g, "hero_turn")
    P.exhaust(g, "hero")  # Regal Bearing already used: no other prevention
    g.apply(L.A_SOLVE + sp(g, "panel 2"))
    assert g.decision == "damage"
    assert int(g.field("dec_a")) == 1  # one minion's inflict
    g.apply(L.A_CARD + hcard(g, "Backhand"))
    suffer(g)
    assert int(g.field("hdmg")[0]) == 1
