"""Rulebook chapter: Setup (and the Per Hero values it fixes).

Each test builds a fresh game and checks one setup step against the rulebook text.
"""

from __future__ import annotations

import numpy as np
import pytest
from rules_helpers import (
    PASS,
    bystander_spaces,
    dist,
    hand,
    n_schemes,
    scheme_space_of,
    vcard,
)

from hon_env import Game
from hon_env import positions as P
from hon_env.spec import layout as L
from hon_env.spec.tables import CFG_START_SPACE, IC_TYPE, IT_SCHEME

# villain cards of dowager.yaml with a "1" scaling indicator / a "5/6" one
SCALING_ONE = ["Silver Stiletto", "Calling Card", "Pay Off the Guards", "Ruthless Matriarch"]
SCALING_FIVE_SIX = ["Shell Company", "Estate Auction", "Pearls and Poison"]


@pytest.mark.parametrize("which, n", [("origin", 1), ("duo", 2)])
def test_setup_one_hidden_token_per_hero(request, which, n):
    """Rulebook: Setup 3d — place 1 hidden token on the Villain card for each hero."""
    g = Game(request.getfixturevalue(which), seed=1)
    assert g.scenario.n_heroes == n
    assert int(g.field("vil_hidden")) == n
    assert g.snapshot()["villain"]["hidden_tokens"] == n


@pytest.mark.parametrize("which, n", [("origin", 1), ("duo", 2)])
def test_setup_one_scheme_card_per_hero_scheme_side_up(request, which, n):
    """Rulebook: Setup 2c — one Scheme card in each player's threat area, Scheme side
    faceup; the remaining Scheme cards are removed from the game (not shuffled into the
    issue deck)."""
    for seed in range(4):
        g = Game(request.getfixturevalue(which), seed=seed)
        f = g.field
        T = g.scenario.tables
        schemes = [i for i in range(L.IDECK) if T.icard[i, IC_TYPE] == IT_SCHEME
                   and g.scenario.issue_card_names[i]]
        assert len(schemes) == n_schemes(g) == 4
        owned = []
        for seat in range(n):
            mine = [i for i in schemes if f("iloc")[i] == L.L_THREAT and f("iowner")[i] == seat]
            assert len(mine) == 1, f"seat {seat} holds {mine}"
            i = mine[0]
            assert int(f("iside")[i]) == 0  # Scheme side up
            assert int(f("ijust")[i]) == 0
            # its solve location is its own scheme panel
            assert int(f("ipos")[i]) == scheme_space_of(g, i)
            owned.append(i)
        assert len(set(owned)) == n
        others = [i for i in schemes if i not in owned]
        assert all(int(f("iloc")[i]) == L.L_REMOVED for i in others)
        # the issue deck holds only the 10 non-Scheme issue cards
        deck = [int(x) for x in f("ideck_order")[:int(f("ideck_n"))]]
        assert int(f("ideck_n")) == 10
        assert not set(deck) & set(schemes)


def test_setup_bystander_on_every_bystander_space(origin):
    """Rulebook: Setup 2a — place 1 bystander token on each bystander space on the map;
    the other bystander tokens (8 in all) form the supply."""
    g = Game(origin, seed=0)
    on = g.field("bystander_on")
    spaces = bystander_spaces(g)
    assert len(spaces) == 5  # Century Heist map has 5 bystander spaces
    for s in range(len(g.scenario.space_labels)):
        assert int(on[s]) == (1 if s in spaces else 0), g.scenario.space_labels[s]
    assert int(g.field("bystander_supply")) == 8 - 5
    assert int(g.field("captured").sum()) == 0


@pytest.mark.parametrize("which", ["origin", "duo"])
def test_setup_villain_in_panel_one_scheming(request, which):
    """Rulebook: Setup 3 / 3b — the villain's figure goes in the scheme panel labeled "1"
    and the Villain card is placed Scheming side up near the board (in no threat area)."""
    g = Game(request.getfixturevalue(which), seed=2)
    f = g.field
    assert int(f("vil_side")) == 0
    assert int(f("vil_in_panel")) == 1
    assert int(f("vil_loc")) == P.space(g, "panel 1")
    assert int(f("vil_owner")) == -1
    assert int(f("vil_justice")) == 0 and int(f("vil_damage")) == 0


@pytest.mark.parametrize("which", ["origin", "duo"])
def test_setup_opening_hand_of_four(request, which):
    """Rulebook: Setup 1d — each hero draws 4 cards from their 20-card deck as the opening
    hand; the hero card starts on its normal (not Focused) side with no focus or damage."""
    g = Game(request.getfixturevalue(which), seed=3)
    assert g.decision == "mulligan"
    for seat in range(g.scenario.n_heroes):
        assert len(hand(g, seat)) == 4
        assert int(g.field("hdeck_n")[seat]) == 16
        assert int(g.field("hside")[seat]) == 0
        assert int(g.field("hfocus")[seat]) == 0
        assert int(g.field("hdmg")[seat]) == 0


@pytest.mark.parametrize("which", ["origin", "duo"])
def test_setup_heroes_in_or_adjacent_to_start_space(request, which):
    """Rulebook: Setup 2a — each hero places their figure in or adjacent to the hero start
    space (two figures never share a space)."""
    g = Game(request.getfixturevalue(which), seed=4)
    start = int(g.scenario.tables.cfg[CFG_START_SPACE])
    assert g.scenario.space_labels[start] == "B7"
    locs = [int(g.field("hloc")[h]) for h in range(g.scenario.n_heroes)]
    assert len(set(locs)) == len(locs)
    for loc in locs:
        assert dist(g, loc, start) <= 1


def test_setup_scaling_one_cards_removed_with_one_hero(origin):
    """Rulebook: Setup 3a.i — with exactly 1 hero, each villain card with a "1" scaling
    indicator is removed from the game; 5/6 cards stay (3a.ii only applies to 5-6 heroes)."""
    g = Game(origin, seed=5)
    f = g.field
    deck = {int(x) for x in f("vdeck_order")[:int(f("vdeck_n"))]}
    for name in SCALING_ONE:
        i = vcard(g, name)
        assert int(f("vloc")[i]) == L.L_REMOVED, name
        assert i not in deck
    for name in SCALING_FIVE_SIX:
        assert vcard(g, name) in deck, name
    assert int(f("vdeck_n")) == 29 - len(SCALING_ONE)


def test_setup_scaling_cards_kept_with_two_heroes(duo):
    """Rulebook: Setup 3a.iii — with 2, 3 or 4 heroes no villain card is removed."""
    g = Game(duo, seed=5)
    f = g.field
    deck = {int(x) for x in f("vdeck_order")[:int(f("vdeck_n"))]}
    assert int(f("vdeck_n")) == 29
    for name in SCALING_ONE + SCALING_FIVE_SIX:
        assert vcard(g, name) in deck, name


def test_setup_mulligan_sends_cards_back_and_redraws_same_number(origin):
    """Rulebook: Setup 1d — a single mulligan: discard any number of opening cards, draw
    an equal number of replacements, then shuffle the discarded cards back into the deck."""
    g = Game(origin, seed=6)
    f = g.field
    opening = hand(g)
    assert len(opening) == 4
    back = opening[:2]
    kept = opening[2:]
    n = int(f("hdeck_n")[0])
    top_two = {int(f("hdeck_order")[0][n - 1]), int(f("hdeck_order")[0][n - 2])}
    # a known first villain card so the flow stops at a decision right after setup
    P.stack_villain_deck(g, ["A Word in the Right Ear"])
    for c in back:
        assert L.A_CARD + c in g.legal_actions()
        g.apply(L.A_CARD + c)
        assert g.decision == "mulligan"
    g.apply(PASS)
    # only one mulligan: the game moved on to the first villain turn
    assert g.decision == "cunning"
    new_hand = set(hand(g))
    assert len(new_hand) == 4
    assert set(kept) <= new_hand
    # the replacements are the two cards that were on top, not the returned ones
    assert new_hand == set(kept) | top_two
    for c in back:
        assert int(f("hcloc")[0][c]) == L.L_DECK
    assert int(f("hdeck_n")[0]) == 16
    deck = {int(x) for x in f("hdeck_order")[0][:16]}
    assert set(back) <= deck


def test_setup_mulligan_keep_all(origin):
    """Rulebook: Setup 1d — the mulligan is optional: keeping the hand changes nothing."""
    g = Game(origin, seed=7)
    opening = set(hand(g))
    P.stack_villain_deck(g, ["A Word in the Right Ear"])
    g.apply(PASS)
    assert g.decision == "cunning"
    assert set(hand(g)) == opening
    assert int(g.field("hdeck_n")[0]) == 16


def test_setup_issue_overview_setup_and_supplies(origin):
    """Rulebook: Setup 2d / 4 — follow the Setup effects on the Issue Overview card
    (Century Heist: 1 minion in panel 2, 2 minions in panel 4) and build the supplies: 10
    minion tokens, 20 shuffled clue cards in a deck."""
    g = Game(origin, seed=8)
    f = g.field
    assert [int(x) for x in f("minions")[1:5]] == [0, 1, 0, 2]
    assert int(f("minion_supply")) == 10 - 3
    assert int(f("clue_n")) == 20
    assert int(np.sum(f("clue_loc")[:20] == -1)) == 20
    assert int(f("counters")[0]) == 0


@pytest.mark.parametrize("which, n", [("origin", 1), ("duo", 2)])
def test_per_hero_values_scale_with_hero_count(request, which, n):
    """Rulebook: Per Hero — a value with the per-hero icon is multiplied by the number of
    heroes (Dowager: danger 3 per hero while Scheming, health 6 per hero on Showdown)."""
    g = Game(request.getfixturevalue(which), seed=0)
    assert int(g.field("vil_danger")) == 3 * n
    assert int(g.field("vil_health")) == 6 * n
