"""The position-building API (``hon_env.positions``): every helper keeps the invariants of
``hon_env.core.invariants`` and a legal mask for the pending decision; bad requests are
refused with errors naming the value. Also the snapshot fields these positions show."""

from __future__ import annotations

import json
from collections.abc import Callable

import numpy as np
import pytest

from hon_env import Game
from hon_env import positions as P
from hon_env.core.invariants import violations
from hon_env.spec import layout as L


def consistent(g: Game) -> None:
    problems = violations(g.state, g.scenario.tables, g._mask)
    assert not problems, problems


@pytest.fixture
def turn(duo):
    """Two heroes at the first hero-turn decision on a cleared board."""
    g = Game(duo, seed=4)
    P.clear_board(g)
    P.place_hero(g, 0, "C3")
    P.place_hero(g, 1, "F5")
    P.jump(g, "hero_turn")
    consistent(g)
    return g


def test_every_helper_keeps_the_invariants(turn):
    """A long sequence of edits, the invariants and a non-empty mask checked after each."""
    g = turn
    edits = [
        lambda: P.remove_schemes(g),
        lambda: P.put_issue_card(g, "Hostages at the Counter", 0),
        lambda: P.put_issue_card(g, "Cut the Cameras", 1, flipped=True, damage=2),
        lambda: P.flip_scheme(g, "Hostages at the Counter"),
        lambda: P.put_issue_card(g, "Crack the Vault", 0, justice=1),
        lambda: P.put_issue_card(g, "Laser Grid", 1, justice=2),
        lambda: P.remove_issue_card(g, "Crack the Vault"),
        lambda: P.put_bystander(g, "D4"),
        lambda: P.put_bystander(g, "panel 2", 2),
        lambda: P.remove_bystander(g, "panel 2"),
        lambda: P.remove_bystander(g, "D4"),
        lambda: P.put_minions(g, 3, 2),
        lambda: P.remove_minions(g, 3, 1),
        lambda: P.add_villain_card(g, "Chauffeur Vance", 0, "D3"),
        lambda: P.set_card(g, "Chauffeur Vance", damage=1),
        lambda: P.exhaust(g, "Chauffeur Vance"),
        lambda: P.exhaust(g, "hero", seat=1),
        lambda: P.give_cards(g, 0, ["Palace Guard"], "play"),
        lambda: P.exhaust(g, "Palace Guard", seat=0),
        lambda: P.set_counter(g, "gold", 2),
        lambda: P.discard_from_deck(g, "hero", 3, seat=1),
        lambda: P.discard_from_deck(g, "villain", 2),
        lambda: P.discard_from_deck(g, "issue", 1),
        lambda: P.discard_from_deck(g, "clue"),
    ]
    for k, edit in enumerate(edits):
        edit()
        consistent(g)
        assert g.legal_mask().sum() > 0, k
    f = g.field
    i = g.scenario.issue_card_names.index("Hostages at the Counter")
    assert (int(f("iloc")[i]), int(f("iside")[i])) == (L.L_THREAT, 1)
    assert int(f("vil_hidden")) == 0  # both Scheme cards dealt are flipped
    assert int(f("captured")[2]) == 1 and int(f("minions")[3]) == 1
    assert int(f("counters")[0]) == 2 and int(f("clue_n")) == 0
    # the edited position plays on with the invariants intact
    rng = np.random.default_rng(0)
    for _ in range(200):
        if g.is_over:
            break
        g.apply(int(rng.choice(g.legal_actions())))
        consistent(g)


def test_edits_refresh_the_mask(turn):
    """An edit recomputes the pending decision's mask: minions put into the panel where the
    hero stands make attacking there legal at once."""
    g = turn
    P.place_hero(g, 0, "panel 1")
    P.remask(g)
    attack = L.A_ATTACK + P.space(g, "panel 1")
    assert attack not in g.legal_actions()
    P.put_minions(g, 1, 2)
    assert attack in g.legal_actions()
    P.remove_minions(g, 1, 2)
    assert attack not in g.legal_actions()


def test_remask_leaves_a_single_answer_pending(origin):
    """Unlike ``refresh``, an edit never answers the decision: a mulligan with an empty
    hand stays pending with keep-hand as its only action."""
    g = Game(origin, seed=0)
    P.empty_hand(g, 0)
    P.put_minions(g, 1, 1)
    assert g.decision == "mulligan"
    assert g.legal_actions().tolist() == [L.A_PASS]
    g.refresh()
    assert g.decision != "mulligan"


def test_scheme_helpers_count_hidden_tokens(origin):
    """Rulebook: Scheme Cards — one hidden token per Scheme card on its Scheme side; flipping
    (as if solved) or removing one takes its token away."""
    g = Game(origin, seed=1)
    P.jump(g, "hero_turn")
    P.remove_schemes(g)
    assert int(g.field("vil_hidden")) == 0
    P.put_issue_card(g, "Case the Lobby", 0)
    P.put_issue_card(g, "Cut the Cameras", 0)
    assert int(g.field("vil_hidden")) == 2
    P.flip_scheme(g, "Cut the Cameras", where="D3")
    assert int(g.field("vil_hidden")) == 1
    assert g.snapshot()["heroes"][0]["threat_area"][-1] == {
        "card": "Cut the Cameras", "flipped": True, "damage": 0, "justice": 0,
        "exhausted": False, "health": 4}
    with pytest.raises(ValueError, match="no other side"):
        P.flip_scheme(g, "Case the Lobby")
    with pytest.raises(ValueError, match="not a Scheme card Scheme side up"):
        P.flip_scheme(g, "Cut the Cameras")
    P.remove_schemes(g, seat=0)
    assert int(g.field("vil_hidden")) == 0
    consistent(g)


def _all_refused(refused: list[tuple[str, Callable[[], object]]]) -> None:
    """Each (what the error says, request) of ``refused``, in turn, raises that error."""
    for match, request in refused:
        with pytest.raises(ValueError, match=match):
            request()


def test_bad_requests_name_the_value(turn):
    g = turn
    P.put_bystander(g, "D4")
    _all_refused([
        ("one bystander at most", lambda: P.put_bystander(g, "D4")),
        ("normal minions in the supply", lambda: P.put_minions(g, 1, 99)),
        ("no scheme panel 9", lambda: P.put_minions(g, 9, 1)),
        ("no bystander on", lambda: P.remove_bystander(g, "E5")),
        ("unknown space 'Z9'", lambda: P.put_bystander(g, "Z9")),
        ("outside", lambda: P.place_hero(g, 0, 999)),
        ("no issue counter 'silver'", lambda: P.set_counter(g, "silver", 1)),
        ("deck must be one of", lambda: P.discard_from_deck(g, "bystanders")),
        ("holds", lambda: P.discard_from_deck(g, "villain", 999)),
        ("does not stay", lambda: P.put_issue_card(g, "Thermal Drill", 0)),
    ])
    P.add_villain_card(g, "Chauffeur Vance", 0, "D3")
    health = next(c["health"] for c in g.snapshot()["heroes"][0]["threat_area"]
                  if c["card"] == "Chauffeur Vance")
    _all_refused([
        (f"damage {health} on 'Chauffeur Vance'",
         lambda: P.set_card(g, "Chauffeur Vance", damage=health)),
        # an enemy has no danger value
        ("justice 1", lambda: P.set_card(g, "Chauffeur Vance", justice=1)),
        ("not in seat 0's play area", lambda: P.exhaust(g, "Throne Breaker", seat=0)),
        ("no card named", lambda: P.exhaust(g, "Nobody")),
    ])
    consistent(g)


def test_a_refused_edit_changes_nothing(turn):
    """A helper that raises half-way (the card already moved when its justice is refused)
    leaves the state and the mask as they were."""
    g = turn
    state, mask = g.state.copy(), g.legal_mask()
    with pytest.raises(ValueError, match="justice 99"):
        P.put_issue_card(g, "Laser Grid", 0, justice=99)
    np.testing.assert_array_equal(g.state, state)
    np.testing.assert_array_equal(g.legal_mask(), mask)


@pytest.mark.parametrize("edit", [
    lambda g, seat: P.place_hero(g, seat, "D4"),
    lambda g, seat: P.set_hero(g, seat, damage=1),
    lambda g, seat: P.give_cards(g, seat, ["Palace Guard"]),
    lambda g, seat: P.empty_hand(g, seat),
    lambda g, seat: P.exhaust(g, "hero", seat=seat),
    lambda g, seat: P.discard_from_deck(g, "villain", 1, seat=seat),
    lambda g, seat: P.remove_schemes(g, seat=seat),
])
def test_every_seat_argument_must_be_a_seat_of_the_game(turn, edit):
    """The state has slots for six heroes: a helper given a seat past the team (or not an
    integer) refuses it instead of writing to an unused slot, and changes nothing."""
    g = turn
    state = g.state.copy()
    for seat, exc in ((2, ValueError), (-1, ValueError), (5, ValueError), (1.0, TypeError),
                      (True, TypeError)):
        with pytest.raises(exc, match=r"seat must be .*\[0, 2\)"):
            edit(g, seat)
    np.testing.assert_array_equal(g.state, state)
    edit(g, 1)  # a seat of the game is accepted


def test_discard_from_deck_takes_the_top_cards(origin):
    """The top of a deck is the last entry of its order; the moved cards are discarded."""
    g = Game(origin, seed=2)
    f = g.field
    n = int(f("hdeck_n")[0])
    top = [int(c) for c in f("hdeck_order")[0][n - 2:n][::-1]]
    assert P.discard_from_deck(g, "hero", 2) == top
    assert int(f("hdeck_n")[0]) == n - 2
    assert all(f("hcloc")[0][c] == L.L_DISCARD for c in top)
    consistent(g)


def test_run_to_stops_at_the_asked_decision(duo):
    g = Game(duo, seed=3)
    assert P.run_to(g, "move", seed=1)
    assert g.decision == "move"
    assert P.run_to(g, "move")  # already there: nothing is answered
    assert P.run_to(g, "main", seat=1, policy=lambda game: int(game.legal_actions()[0]))
    assert (g.decision, g.current_seat) == ("main", 1)
    assert P.run_to(g, "none") is False and g.is_over  # never pending: plays to the end
    with pytest.raises(ValueError, match="unknown decision 'atack'"):
        P.run_to(g, "atack")
    h = Game(duo, seed=3)
    with pytest.raises(RuntimeError, match="within 2 decisions"):
        P.run_to(h, "none", max_decisions=2)


def test_snapshot_shows_exhausted_cards_values_and_defeat(turn):
    """Rulebook: Exhausted Cards / Threat Area / Dealing and Suffering Damage — the snapshot
    says which play-area cards and Hero cards are exhausted, the health or danger of each
    threat-area card, and which heroes are defeated and return at the end of the turn."""
    g = turn
    P.give_cards(g, 0, ["Palace Guard", "Herald's Call"], "play")
    P.exhaust(g, "Herald's Call", seat=0)
    P.exhaust(g, "hero", seat=1)
    P.add_villain_card(g, "Gala Firebomb", 0, "D6")
    P.set_card(g, "Gala Firebomb", justice=1)
    g.field("hdefeated")[1] = 1
    snap = json.loads(json.dumps(g.snapshot()))
    a, b = snap["heroes"]
    exhausted = dict(zip(a["play_area"], a["play_area_exhausted"], strict=True))
    assert exhausted == {"Palace Guard": False, "Herald's Call": True}
    assert (a["hero_card_exhausted"], b["hero_card_exhausted"]) == (False, True)
    assert (a["defeated"], b["defeated"]) == (False, True)
    bomb = next(c for c in a["threat_area"] if c["card"] == "Gala Firebomb")
    assert bomb["justice"] == 1 and bomb["danger"] > 1 and "health" not in bomb
    schemes = [c for h in snap["heroes"] for c in h["threat_area"] if "flipped" in c]
    assert schemes and all(c["danger"] > 0 for c in schemes)


def test_action_strings_name_repeated_heroes_by_agent(duo, origin):
    """With two Majesty seats each action says which one acts; a lone hero keeps its name."""
    g = Game(duo, seed=0)
    assert P.run_to(g, "mulligan", seat=1, seed=2)
    assert g.action_to_string(L.A_PASS) == "majesty_2: keep hand"
    assert Game(origin, seed=0).action_to_string(L.A_PASS) == "Majesty: keep hand"


def _two_fronts_game(seed: int = 1) -> Game:
    """Two heroes against the Dowager and the Refuser, facing chosen, at the hero turn."""
    g = Game("origin_story", heroes=["majesty", "stride"], villain=["dowager", "refuser"],
             seed=seed)
    while g.decision in ("mulligan", "face"):
        g.apply(L.A_PASS if g.decision == "mulligan" else L.A_OPTION + g.current_seat % 2)
    return g


def test_cards_of_both_villains_return_to_their_own_decks():
    """``clear_board`` and ``add_villain_card`` with two villains (Two Fronts): a card of
    the second villain comes from and goes back to the second villain's deck, each deck
    keeps its size, and the state validates."""
    g = _two_fronts_game()
    sizes = int(g.field("vdeck_n")), int(g.field("vdeck2_n"))
    slot = P.add_villain_card(g, "Drone Nest", 0, "C3")  # a peril of the Refuser
    assert slot >= L.VDECK
    assert (int(g.field("vdeck_n")), int(g.field("vdeck2_n"))) == (sizes[0], sizes[1] - 1)
    consistent(g)
    P.clear_board(g)
    consistent(g)
    in_threat = int(((g.field("vloc") == L.L_THREAT)).sum())
    assert in_threat == 0
    total = int(g.field("vdeck_n")) + int(g.field("vdeck2_n"))
    assert total >= sum(sizes)  # nothing lost; the cards dealt at setup came back too
    assert int(g.field("vdeck_n")) <= L.VDECK and int(g.field("vdeck2_n")) <= L.VDECK
    order2 = g.field("vdeck2_order")[:int(g.field("vdeck2_n"))]
    assert slot - L.VDECK in order2.tolist()


def test_a_villain_card_of_no_villain_in_the_game_is_named():
    g = Game("origin_story", heroes=["majesty"], seed=0)
    name = "Drone Nest"
    assert name in _two_fronts_game().scenario.villain_card_names  # a Refuser card
    with pytest.raises(ValueError, match="no villain card named 'Drone Nest'"):
        P.add_villain_card(g, name, 0, "C3")


def test_no_edit_while_the_heroes_are_drafted():
    """Draft variant: before the draft ends no board is set up; every helper refuses,
    naming the draft, and changes nothing; after the draft the helpers work."""
    g = Game("draft_pick", seed=0)
    assert g.decision == "draft"
    before = g.state.copy()
    for edit in (lambda: P.clear_board(g), lambda: P.place_hero(g, 0, "C3"),
                 lambda: P.add_villain_card(g, "Hatchet Hollis", 0, "C3")):
        with pytest.raises(ValueError, match="still being drafted"):
            edit()
        np.testing.assert_array_equal(g.state, before)
    P.run_to(g, "mulligan")
    P.clear_board(g)
    consistent(g)


def test_the_villain_agents_hand_survives_a_cleared_board():
    """Mastermind variant: ``clear_board`` returns threat-area cards to the deck and leaves
    the villain's hidden hand as it is; the state keeps its invariants."""
    g = Game("mastermind", seed=2)
    P.run_to(g, "villain_play")
    hand = np.flatnonzero(g.field("vloc") == L.L_HAND).tolist()
    assert hand
    P.clear_board(g)
    consistent(g)
    assert np.flatnonzero(g.field("vloc") == L.L_HAND).tolist() == hand
