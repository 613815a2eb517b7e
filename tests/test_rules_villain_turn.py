"""Rulebook chapter: Villain Turn (Resolving Villain Cards, Peril / Lackey Cards, Ploy
Icons, A Crisis Occurs, Villain Schemes).

Positions start from a cleared board (no bystanders, minions or villain cards in play) with
a stacked villain deck, then jump to the villain turn.
"""

from __future__ import annotations

import numpy as np
from rules_helpers import (
    bystander_spaces,
    dist,
    event,
    neighbours,
    put_bystander,
    put_minions,
    remove_schemes,
    sp,
    suffer,
    vcard,
)

from hon_env import Game
from hon_env import positions as P
from hon_env.spec import layout as L


def fresh(scenario, seed=0) -> Game:
    g = Game(scenario, seed=seed)
    P.clear_board(g)
    remove_schemes(g)
    return g


def villain_turn_short(scenario, supply: str, left: int, cards: list[str]) -> Game:
    """A cleared board whose ``supply`` field holds ``left`` tokens, played through a
    villain turn that draws ``cards`` (one per seat)."""
    g = fresh(scenario)
    g.field(supply)[...] = left
    P.stack_villain_deck(g, cards)
    P.jump(g, "villain_turn")
    return g


# --- Lackey cards ---------------------------------------------------------------------

def test_lackey_card_enters_threat_area_with_figure_on_its_colour_scheme_space(origin):
    """Rulebook: Lackey Cards — the active hero places the drawn Lackey card in their
    threat area and its figure in the scheme space matching the lackey's colour (Chauffeur
    Vance is green; the green scheme panel of Century Heist is panel 2)."""
    g = fresh(origin)
    P.stack_villain_deck(g, ["Chauffeur Vance"])
    P.jump(g, "villain_turn")
    i = vcard(g, "Chauffeur Vance")
    f = g.field
    assert int(f("vloc")[i]) == L.L_THREAT
    assert int(f("vowner")[i]) == 0
    assert int(f("vpos")[i]) == sp(g, "panel 2")
    assert int(f("vexh")[i]) == 0 and int(f("vdmg")[i]) == 0
    assert g.decision == "main"  # the villain turn is over, the hero turn began


def test_lackey_placed_in_nearest_empty_space_when_scheme_space_occupied(origin):
    """Rulebook: Lackey Cards — if the lackey's scheme space is occupied, the lackey is
    placed in the empty space nearest it."""
    g = fresh(origin)
    P.add_villain_card(g, "Big Bertram", 0, "panel 2")  # a figure on the green scheme space
    P.stack_villain_deck(g, ["Chauffeur Vance"])
    P.jump(g, "villain_turn")
    pos = int(g.field("vpos")[vcard(g, "Chauffeur Vance")])
    assert pos != sp(g, "panel 2")
    assert pos in neighbours(g, "panel 2")  # every neighbour of H5 is empty: distance 1


def test_hero_in_scheme_panel_does_not_occupy_scheme_space_for_lackey(origin):
    """Rulebook: Scheme Panels vs. Scheme Spaces — hero figures cannot physically occupy
    scheme spaces, so a hero in the green panel does not stop the green lackey from being
    placed in the green scheme space."""
    g = fresh(origin)
    P.place_hero(g, 0, "panel 2")
    P.stack_villain_deck(g, ["Chauffeur Vance"])
    P.jump(g, "villain_turn")
    assert int(g.field("vpos")[vcard(g, "Chauffeur Vance")]) == sp(g, "panel 2")
    assert int(g.field("hloc")[0]) == sp(g, "panel 2")


# --- Peril cards ----------------------------------------------------------------------

def test_peril_card_places_token_on_matching_peril_space(origin):
    """Rulebook: Peril Cards — the Peril card goes to the active hero's threat area and its
    token on the peril space of its colour (Gala Firebomb is red: the red peril space D6)."""
    g = fresh(origin)
    P.stack_villain_deck(g, ["Gala Firebomb"])
    P.jump(g, "villain_turn")
    i = vcard(g, "Gala Firebomb")
    assert int(g.field("vloc")[i]) == L.L_THREAT
    assert int(g.field("vowner")[i]) == 0
    assert int(g.field("vpos")[i]) == sp(g, "D6")


def test_peril_token_goes_to_nearest_empty_space_when_peril_space_occupied(origin):
    """Rulebook: Peril Cards — if the peril space is occupied, the peril token is placed in
    the empty space nearest it."""
    g = fresh(origin)
    P.place_hero(g, 0, "D6")
    P.stack_villain_deck(g, ["Gala Firebomb"])
    P.jump(g, "villain_turn")
    pos = int(g.field("vpos")[vcard(g, "Gala Firebomb")])
    assert pos in neighbours(g, "D6")


# --- Ploy icons -----------------------------------------------------------------------

def test_minion_ploy_icons_place_minions_in_their_panels(origin):
    """Rulebook: Ploy Icons — for each minion ploy icon the active hero places 1 minion in
    the corresponding scheme panel (Old Family Retainers: panel 1 and panel 2); a Ploy card
    is then discarded."""
    g = fresh(origin)
    P.stack_villain_deck(g, ["Old Family Retainers"])
    P.jump(g, "villain_turn")
    f = g.field
    assert [int(x) for x in f("minions")[1:5]] == [1, 1, 0, 0]
    assert int(f("minion_supply")) == 10 - 2
    assert int(f("vloc")[vcard(g, "Old Family Retainers")]) == L.L_DISCARD
    assert event(g, "crises") == 0


def test_running_out_of_minions_on_one_ploy_card_is_one_crisis(origin):
    """Rulebook: Ploy Icons / A Crisis Occurs — if no minions remain when a minion icon must
    be resolved a crisis occurs, but a single Ploy card can only cause a single crisis even
    when several of its icons fail (Hired Help: minion 2 and minion 3, empty supply)."""
    g = villain_turn_short(origin, "minion_supply", 0, ["Hired Help"])
    assert event(g, "crises") == 1
    assert int(g.field("minions").sum()) == 0


def test_partial_minion_shortage_is_one_crisis(origin):
    """Rulebook: A Crisis Occurs — one minion left for a card that needs two: the first
    icon is resolved, the second fails, and exactly one crisis occurs."""
    g = villain_turn_short(origin, "minion_supply", 1, ["Hired Help"])
    assert int(g.field("minions")[2]) == 1
    assert int(g.field("minions")[3]) == 0
    assert event(g, "crises") == 1


def test_no_crisis_when_minions_suffice(origin):
    """Rulebook: Ploy Icons — with minions in the supply no crisis occurs."""
    g = fresh(origin)
    P.stack_villain_deck(g, ["Hired Help"])
    P.jump(g, "villain_turn")
    assert [int(x) for x in g.field("minions")[1:5]] == [0, 1, 1, 0]
    assert event(g, "crises") == 0


def test_two_ploy_cards_with_shortages_cause_two_crises(duo):
    """Rulebook: A Crisis Occurs — the one-crisis limit is per card: two heroes each drawing
    a Ploy card that cannot place its minions cause two crises."""
    g = villain_turn_short(duo, "minion_supply", 0, ["Hired Help", "Old Money"])
    assert event(g, "crises") == 2


def test_bystander_icon_places_bystander_on_empty_bystander_space(origin):
    """Rulebook: Ploy Icons — for each bystander icon, place 1 bystander from the supply on
    an empty bystander space (Estate Auction has two bystander icons)."""
    g = fresh(origin)
    P.stack_villain_deck(g, ["Estate Auction"])
    P.jump(g, "villain_turn")
    on = g.field("bystander_on")
    placed = [s for s in range(len(g.scenario.space_labels)) if on[s]]
    assert len(placed) == 2
    assert set(placed) <= set(bystander_spaces(g))
    assert int(g.field("bystander_supply")) == 8 - 2
    assert int(g.field("captured").sum()) == 0


def test_bystander_captured_when_four_already_on_map(origin):
    """Rulebook: Captured Bystanders — a bystander that must be placed while 4 bystanders
    are already on the map is captured instead, in the scheme panel nearest the villain
    (the villain is in panel 1)."""
    g = fresh(origin)
    for where in ("C1", "F3", "D4", "C5"):
        put_bystander(g, where)
    P.stack_villain_deck(g, ["Estate Auction"])
    P.jump(g, "villain_turn")
    assert int(g.field("bystander_on").sum()) == 4
    assert int(g.field("bystander_on")[sp(g, "G6")]) == 0
    assert [int(x) for x in g.field("captured")[1:5]] == [2, 0, 0, 0]
    assert int(g.field("bystander_supply")) == 8 - 4 - 2


def test_bystander_captured_when_every_bystander_space_occupied(origin):
    """Rulebook: Ploy Icons — if each bystander space is occupied (by a bystander or a
    figure), the placed bystander is captured in the scheme panel nearest the villain."""
    g = fresh(origin)
    for where in ("C1", "F3", "D4"):
        put_bystander(g, where)
    P.place_hero(g, 0, "C5")
    P.add_villain_card(g, "Chauffeur Vance", 0, "G6")
    P.stack_villain_deck(g, ["Charity Gala"])  # bystander, minion 2
    P.jump(g, "villain_turn")
    assert int(g.field("bystander_on").sum()) == 3
    assert int(g.field("captured")[1]) == 1
    assert int(g.field("minions")[2]) == 1


def test_bystander_shortage_is_a_crisis(origin):
    """Rulebook: Ploy Icons — if no bystanders remain in the supply when a bystander icon
    must be resolved, a crisis occurs (once per card)."""
    g = villain_turn_short(origin, "bystander_supply", 0, ["Estate Auction"])
    assert event(g, "crises") == 1
    assert int(g.field("bystander_on").sum()) == 0


def test_cunning_icon_offers_scheme_or_inflict(origin):
    """Rulebook: Ploy Icons — for each cunning icon the villain either schemes or inflicts
    the active hero; the active hero chooses."""
    g = fresh(origin)
    P.stack_villain_deck(g, ["A Word in the Right Ear"])
    P.jump(g, "villain_turn")
    assert g.decision == "cunning"
    assert set(int(a) for a in g.legal_actions()) == {L.A_OPTION, L.A_OPTION + 1}


def test_cunning_inflict_damages_active_hero_by_villain_inflict(origin):
    """Rulebook: Ploy Icons / Enemy Activation and Inflict Effects — choosing inflict, the
    villain deals its inflict value (Scheming side: 1) to the active hero, wherever they are."""
    g = fresh(origin)
    P.place_hero(g, 0, "H2")  # far from the villain
    P.stack_villain_deck(g, ["A Word in the Right Ear"])
    P.jump(g, "villain_turn")
    g.apply(L.A_OPTION + 1)
    suffer(g)
    assert int(g.field("hdmg")[0]) == 1
    assert int(g.field("minions").sum()) == 0


def test_cunning_scheme_resolves_villain_panel_scheme_effect(origin):
    """Rulebook: Villain Schemes — when the villain schemes it resolves the Scheme effect of
    the panel it occupies (Marble Lobby: place 1 minion in the villain's panel; advance if
    it then holds 2 or more)."""
    g = fresh(origin)
    P.stack_villain_deck(g, ["A Word in the Right Ear"])
    P.jump(g, "villain_turn")
    g.apply(L.A_OPTION)
    assert [int(x) for x in g.field("minions")[1:5]] == [1, 0, 0, 0]
    assert int(g.field("vil_loc")) == sp(g, "panel 1")
    assert int(g.field("hdmg")[0]) == 0
    assert event(g, "villain_advances") == 0


def test_villain_advances_to_next_panel(origin):
    """Rulebook: Villain Schemes — a Scheme effect that makes the villain advance moves it
    to the next scheme panel in numerical order (panel 1 -> panel 2)."""
    g = fresh(origin)
    put_minions(g, 1, 1)
    P.stack_villain_deck(g, ["A Word in the Right Ear"])
    P.jump(g, "villain_turn")
    g.apply(L.A_OPTION)
    f = g.field
    assert int(f("minions")[1]) == 2
    assert int(f("vil_loc")) == sp(g, "panel 2")
    assert int(f("vil_in_panel")) == 1 and int(f("vil_side")) == 0
    assert event(g, "villain_advances") == 1


def test_villain_on_map_schemes_at_nearest_panel_higher_on_tie(origin):
    """Rulebook: Villain Schemes — a villain on the map and not in a scheme space resolves
    the Scheme effect of the panel nearest them; on a tie the higher-numbered panel."""
    g = fresh(origin)
    T = g.scenario.tables
    here = sp(g, "G7")
    d = [int(T.dist[here, T.scheme_space[k]]) for k in range(1, 5)]
    assert d[0] == d[1] == 2 and min(d[2:]) > 2  # panels 1 and 2 tie
    P.set_villain(g, side="showdown", where="G7", owner=0)
    P.place_hero(g, 0, "B1")
    P.stack_villain_deck(g, ["A Word in the Right Ear"])
    P.jump(g, "villain_turn")
    g.apply(L.A_OPTION)
    # panel 2's Scheme effect: capture (nothing to capture), 1 minion in the villain's panel
    assert [int(x) for x in g.field("minions")[1:5]] == [0, 1, 0, 0]


def test_special_icon_resolves_card_special_effect(origin):
    """Rulebook: Ploy Icons — for each special icon the active hero resolves the card's
    Special effect (Debts Called In: 1 minion in the villain's panel, capture the bystander
    nearest the villain, which goes to the scheme panel nearest it)."""
    g = fresh(origin)
    put_bystander(g, "G6")  # next to the green scheme space (panel 2)
    put_bystander(g, "C1")  # far from the villain
    assert dist(g, "panel 1", "G6") < dist(g, "panel 1", "C1")
    P.stack_villain_deck(g, ["Debts Called In"])
    P.jump(g, "villain_turn")
    f = g.field
    assert int(f("minions")[1]) == 1
    assert int(f("bystander_on")[sp(g, "G6")]) == 0
    assert int(f("bystander_on")[sp(g, "C1")]) == 1
    assert [int(x) for x in f("captured")[1:5]] == [0, 1, 0, 0]


def test_showdown_effects_ignored_when_resolving_villain_cards(origin):
    """Rulebook: Resolving Villain Cards — players ignore Showdown effects when resolving
    villain cards in the villain turn (Family Heirlooms' Showdown heals the villain 1)."""
    g = fresh(origin)
    P.set_villain(g, side="showdown", where="C3", owner=0, damage=2)
    P.stack_villain_deck(g, ["Family Heirlooms"])  # minion 4, bystander
    P.jump(g, "villain_turn")
    assert int(g.field("vil_damage")) == 2
    assert int(g.field("minions")[4]) == 1
    assert int(g.field("bystander_on").sum()) == 1


def test_empty_villain_deck_reshuffles_discard(origin):
    """Rulebook: Villain Turn — if no cards remain in the villain deck, shuffle the villain
    discard pile into a new deck and draw from it."""
    g = fresh(origin)
    f = g.field
    n = int(f("vdeck_n"))
    P.discard_from_deck(g, "villain")
    P.jump(g, "villain_turn")
    assert int(f("vdeck_n")) == n - 1
    assert int(np.sum(f("vloc") == L.L_DECK)) == n - 1


def test_each_hero_draws_one_villain_card(duo):
    """Rulebook: Villain Turn — each hero draws and resolves one villain card, each fully
    resolved before the next (the two Lackey cards go to two different threat areas)."""
    g = fresh(duo)
    P.stack_villain_deck(g, ["Chauffeur Vance", "Big Bertram"])
    P.jump(g, "villain_turn")
    f = g.field
    a, b = vcard(g, "Chauffeur Vance"), vcard(g, "Big Bertram")
    assert int(f("vloc")[a]) == L.L_THREAT and int(f("vloc")[b]) == L.L_THREAT
    assert {int(f("vowner")[a]), int(f("vowner")[b])} == {0, 1}
    assert int(f("vdeck_n")) == 29 - 2


def test_showdown_villain_advances_to_next_scheme_space(origin):
    """Rulebook: Villain Schemes — with its Villain card on the Showdown side, an advancing
    villain moves to the next scheme space (on the map), not into the panel."""
    g = fresh(origin)
    P.set_villain(g, side="showdown", where="panel 1", owner=0)
    put_minions(g, 1, 1)
    P.place_hero(g, 0, "B1")
    P.stack_villain_deck(g, ["A Word in the Right Ear"])
    P.jump(g, "villain_turn")
    g.apply(L.A_OPTION)
    assert int(g.field("vil_loc")) == sp(g, "panel 2")
    assert int(g.field("vil_in_panel")) == 0
    assert event(g, "villain_advances") == 1


def test_hero_defeated_in_villain_turn_returns_after_it(origin):
    """Rulebook: Dealing and Suffering Damage — a hero defeated outside the hero turn (by a
    cunning inflict) triggers a crisis and is back near the start space at the end of that
    turn, in time for the hero turn."""
    g = fresh(origin)
    P.place_hero(g, 0, "H2")
    P.set_hero(g, 0, damage=10)
    P.stack_villain_deck(g, ["A Word in the Right Ear"])
    P.jump(g, "villain_turn")
    g.apply(L.A_OPTION + 1)
    suffer(g)
    assert g.decision == "main"
    loc = int(g.field("hloc")[0])
    assert loc >= 0 and dist(g, loc, "B7") <= 1  # B7: the hero start space
    assert int(g.field("hdmg")[0]) == 0
    assert int(g.field("hactions")[0]) == 2
    assert event(g, "hero_defeats") == 1
    assert event(g, "crises") == 1
