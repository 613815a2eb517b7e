"""Rulebook chapters: Hero Turn, Hero Actions (Draw 1 Card, Move, Scheme Panels vs. Scheme
Spaces, Play 1 Action Card, Attack, Near and Nearby, Enemy Cards, Solve, Problem Cards,
Scheme Cards), Heroic Feat Icons, Solve Actions, Revealing the Villain, Rescuing
Bystanders, Unique Cards, Empty Spaces.

Positions: a cleared board, no Scheme cards unless a test sets one, Majesty placed by hand,
a known hand, then a jump to the hero turn (Majesty has 2 action tokens).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
import yaml
from rules_helpers import (
    BLANK,
    BURST,
    PASS,
    SUCCESS,
    capture,
    clues_held,
    event,
    hand,
    hcard,
    heroes_at,
    legal,
    move_one,
    moves_at_turn_start,
    neighbours,
    put_bystander,
    put_issue_in_threat,
    put_minions,
    roll_attack,
    roll_solve,
    set_scheme,
    setup,
    sp,
    step,
    stop_at_next_villain_turn,
    suffer,
)

from hon_env import Game, load_scenario
from hon_env import positions as P
from hon_env.spec import layout as L

REPO = Path(__file__).resolve().parents[1]



def actions(g, seat=0) -> int:
    return int(g.field("hactions")[seat])



# --- Hero Turn ----------------------------------------------------------------------------

def test_hero_turn_two_actions_then_threat_phase(origin):
    """Rulebook: Hero Turn / Threat Phase — a hero performs 2 actions; right after the
    second action they resolve their threat phase (the Gala Firebomb peril in their threat
    area deals 2 damage only then)."""
    g = setup(origin, "B1")
    P.add_villain_card(g, "Gala Firebomb", 0)
    P.jump(g, "hero_turn")
    assert g.decision == "main" and actions(g) == 2
    move_one(g, "B2")
    assert g.decision == "main" and actions(g) == 1
    assert int(g.field("hdmg")[0]) == 0
    move_one(g, "B1")
    # second action done: the threat phase activates the peril (a damage window opens)
    assert g.decision == "damage"
    assert int(g.field("dec_a")) == 2
    suffer(g)
    assert int(g.field("hdmg")[0]) == 2


def test_hero_must_use_both_actions(origin):
    """Rulebook: Hero Actions — each hero must use both of their actions; a lone hero cannot
    end the turn (pass) while holding action tokens."""
    g = setup(origin, "C3", cards=["Gilded Stride"])  # a free card keeps the menu open
    P.jump(g, "hero_turn")
    assert PASS not in legal(g)
    move_one(g, "D3")
    assert PASS not in legal(g)
    move_one(g, "C3")
    assert actions(g) == 0
    assert g.decision == "main"
    assert PASS in legal(g)
    assert L.A_DRAW not in legal(g)


def test_each_hero_draws_one_card_at_end_of_hero_turn(duo):
    """Rulebook: Hero Turn — after the last hero's threat phase each hero draws 1 card from
    their deck, then the issue turn follows."""
    g = heroes_at(duo, "C3", "F5", keep_schemes=False, cards=("Throne Breaker",))
    decks = [int(g.field("hdeck_n")[s]) for s in (0, 1)]
    stop_at_next_villain_turn(g)
    P.jump(g, "hero_turn")
    assert g.current_seat == 0
    move_one(g, "D3")
    move_one(g, "C3")
    assert g.current_seat == 1 and g.decision == "main"
    # nobody has drawn yet
    assert len(hand(g, 0)) == 1 and len(hand(g, 1)) == 1
    move_one(g, "F4")
    move_one(g, "F5")
    # the round went on: issue turn, then the next villain turn stops at the cunning icon
    assert g.decision == "cunning"
    assert int(g.field("round")) == 2
    for seat in (0, 1):
        assert len(hand(g, seat)) == 2
        assert int(g.field("hdeck_n")[seat]) == decks[seat] - 1


def test_hero_turn_readies_play_area_not_threat_area(origin):
    """Rulebook: Hero Turn / Exhausted Cards — at the start of the hero turn each hero
    readies each exhausted card in their hero play area, but not the exhausted cards in
    their threat area."""
    g = setup(origin)
    herald = P.give_cards(g, 0, ["Herald's Call"], "play")[0]
    P.exhaust(g, "Herald's Call")
    P.exhaust(g, "hero")
    tallow = P.add_villain_card(g, "Miss Tallow, Bookkeeper", 0, "H2")
    P.exhaust(g, "Miss Tallow, Bookkeeper")
    P.jump(g, "hero_turn")
    assert int(g.field("hcexh")[0][herald]) == 0
    assert int(g.field("hexh")[0]) == 0
    assert int(g.field("vexh")[tallow]) == 1


# --- Draw 1 Card --------------------------------------------------------------------------

def test_draw_action_draws_top_card(origin):
    """Rulebook: Draw 1 Card — the active hero spends an action to draw one card."""
    g = setup(origin)
    P.jump(g, "hero_turn")
    n = int(g.field("hdeck_n")[0])
    top = int(g.field("hdeck_order")[0][n - 1])
    g.apply(L.A_DRAW)
    assert actions(g) == 1
    assert int(g.field("hdeck_n")[0]) == n - 1
    assert set(hand(g)) == {hcard(g, "Throne Breaker"), top}


def test_draw_with_empty_deck_reshuffles_discard(origin):
    """Rulebook: Draw 1 Card — if no cards remain in the deck, the hero shuffles their
    discard pile into a new deck and draws."""
    g = setup(origin)
    f = g.field
    zones = f("hcloc")[0]
    P.discard_from_deck(g, "hero")
    n_discard = int(np.sum(zones == L.L_DISCARD))
    P.jump(g, "hero_turn")
    g.apply(L.A_DRAW)
    assert len(hand(g)) == 2
    assert int(f("hdeck_n")[0]) == n_discard - 1
    assert int(np.sum(zones == L.L_DISCARD)) == 0


# --- Move ---------------------------------------------------------------------------------

def test_move_up_to_three_spaces(origin):
    """Rulebook: Move — a Move action moves the hero up to 3 spaces, one adjacent space at
    a time; after the third step the move is over."""
    g = setup(origin, "C3")
    P.jump(g, "hero_turn")
    step(g, "D3")
    assert g.decision == "move" and PASS in legal(g)
    assert L.A_SPACE + sp(g, "E3") in legal(g)
    assert L.A_SPACE + sp(g, "F3") not in legal(g)  # not adjacent to D3
    step(g, "E3")
    assert g.decision == "move"
    step(g, "E2")
    assert g.decision == "main"
    assert int(g.field("hloc")[0]) == sp(g, "E2")
    assert actions(g) == 1


def test_move_stop_early(origin):
    """Rulebook: Move — "up to" 3 spaces: the hero may stop after one step."""
    g = setup(origin, "C3")
    P.jump(g, "hero_turn")
    move_one(g, "C4")
    assert g.decision == "main"
    assert int(g.field("hloc")[0]) == sp(g, "C4")
    assert actions(g) == 1


def test_move_only_into_empty_spaces(origin):
    """Rulebook: Move / Empty Spaces — heroes only move into adjacent empty spaces; a space
    holding a lackey figure cannot be entered."""
    g = setup(origin, "C3")
    P.add_villain_card(g, "Chauffeur Vance", 0, "D3")
    P.jump(g, "hero_turn")
    assert L.A_SPACE + sp(g, "D3") not in legal(g)
    assert L.A_SPACE + sp(g, "C4") in legal(g)
    assert L.A_SPACE + sp(g, "D4") not in legal(g)  # two spaces away


def test_move_cannot_enter_other_hero_space(duo):
    """Rulebook: Empty Spaces — figures can never occupy the same space: a hero cannot move
    into the space of another hero."""
    moves = moves_at_turn_start(duo, "C3", "C4")
    assert "C4" not in moves and "B4" in moves


def test_token_spaces_are_empty_for_movement(origin):
    """Rulebook: Empty Spaces — spaces containing only tokens (a peril token) are still
    empty spaces a hero may move into."""
    g = setup(origin, "C6")
    P.add_villain_card(g, "Gala Firebomb", 0, "D6")
    P.jump(g, "hero_turn")
    assert L.A_SPACE + sp(g, "D6") in legal(g)


def test_move_into_occupied_scheme_space_puts_hero_in_panel(origin):
    """Rulebook: Scheme Panels vs. Scheme Spaces — heroes may enter a scheme space even
    when a figure (here a lackey) occupies it, and ending there puts them in the panel."""
    g = setup(origin, "G5")
    P.add_villain_card(g, "Big Bertram", 0, "panel 2")
    P.jump(g, "hero_turn")
    assert L.A_SPACE + sp(g, "panel 2") in legal(g)
    move_one(g, "panel 2")
    assert int(g.field("hloc")[0]) == sp(g, "panel 2")
    assert g.snapshot()["heroes"][0]["location"].startswith("H5")
    # moving out of the panel starts from the scheme space (ignoring the lackey there)
    for nb in neighbours(g, "panel 2"):
        assert L.A_SPACE + nb in legal(g), g.scenario.space_labels[nb]


def test_move_through_scheme_space_continues(origin):
    """Rulebook: Scheme Panels vs. Scheme Spaces — heroes move between scheme spaces and
    the map freely: a move may pass through a scheme space and go on."""
    g = setup(origin, "G5")
    P.jump(g, "hero_turn")
    step(g, "panel 2")
    assert g.decision == "move"
    step(g, "H4")
    assert int(g.field("hloc")[0]) == sp(g, "H4")


def test_entering_bystander_space_rescues_and_gains_clue(origin):
    """Rulebook: Move / Rescuing Bystanders — a hero entering a non-scheme space with a
    bystander rescues it: the bystander returns to the supply and the hero gains 1 clue."""
    g = setup(origin, "B6")
    put_bystander(g, "C5")
    supply = int(g.field("bystander_supply"))
    P.jump(g, "hero_turn")
    move_one(g, "C5")
    assert int(g.field("bystander_on")[sp(g, "C5")]) == 0
    assert int(g.field("bystander_supply")) == supply + 1
    assert clues_held(g) == 1
    assert event(g, "rescues") == 1


def test_captured_bystanders_not_rescued_by_moving_into_panel(origin):
    """Rulebook: Move — bystanders in scheme panels cannot be rescued by entering them."""
    g = setup(origin, "G5")
    capture(g, 2, 1)
    P.jump(g, "hero_turn")
    move_one(g, "panel 2")
    assert int(g.field("captured")[2]) == 1
    assert clues_held(g) == 0


# --- Play 1 Action Card -------------------------------------------------------------------

def test_playing_action_card_spends_action_constant_stays(origin):
    """Rulebook: Play 1 Action Card — a card with the action icon costs an action; a
    Constant card is placed in the hero play area."""
    g = setup(origin, cards=["Diadem of Insight"])
    P.jump(g, "hero_turn")
    c = hcard(g, "Diadem of Insight")
    g.apply(L.A_PLAY + c)
    assert actions(g) == 1
    assert int(g.field("hcloc")[0][c]) == L.L_PLAY
    assert g.snapshot()["heroes"][0]["play_area"] == ["Diadem of Insight"]


def test_card_without_action_icon_is_free(origin):
    """Rulebook: Playing Hero Cards — cards without the action icon do not cost an action
    and may be played at any time during the hero turn, even with no action left; action
    cards then cannot be played."""
    # Backhand (free, no action icon) keeps the menu open after Gilded Stride is played
    g = setup(origin, cards=["Gilded Stride", "Diadem of Insight", "Backhand"])
    P.jump(g, "hero_turn")
    P.set_hero(g, 0, actions=0)
    g.refresh()
    stride, diadem = hcard(g, "Gilded Stride"), hcard(g, "Diadem of Insight")
    assert L.A_PLAY + stride in legal(g)
    assert L.A_PLAY + diadem not in legal(g)
    g.apply(L.A_PLAY + stride)
    assert int(g.field("hcloc")[0][stride]) == L.L_PLAY
    assert g.decision == "main" and int(g.field("round")) == 1
    assert actions(g) == 0


def test_instant_card_resolves_and_is_discarded(origin):
    """Rulebook: Play 1 Action Card — Instant cards are played, resolved and discarded
    (Counsel of the Court, no action icon: draw 1 card and gain 1 focus)."""
    g = setup(origin, cards=["Counsel of the Court", "Throne Breaker"])
    P.jump(g, "hero_turn")
    c = hcard(g, "Counsel of the Court")
    n = int(g.field("hdeck_n")[0])
    top = int(g.field("hdeck_order")[0][n - 1])
    g.apply(L.A_PLAY + c)
    assert int(g.field("hcloc")[0][c]) == L.L_DISCARD
    assert set(hand(g)) == {hcard(g, "Throne Breaker"), top}
    assert int(g.field("hfocus")[0]) == 1
    assert actions(g) == 2


def test_non_unique_constants_can_both_be_in_play(origin):
    """Rulebook: Unique Cards — only unique cards are limited; two copies of the
    non-unique Palace Guard stay in play together."""
    g = setup(origin, cards=["Palace Guard", "Palace Guard"])
    P.jump(g, "hero_turn")
    a, b = hand(g)
    g.apply(L.A_PLAY + a)
    g.apply(L.A_PLAY + b)
    assert int(g.field("hcloc")[0][a]) == L.L_PLAY
    assert int(g.field("hcloc")[0][b]) == L.L_PLAY


@pytest.fixture(scope="module")
def two_scepters(tmp_path_factory):
    """Origin Story with a Majesty deck holding two copies of the unique Scepter of
    Dominion (one Royal Summons removed to keep 20 cards)."""
    root = tmp_path_factory.mktemp("content")
    shutil.copytree(REPO / "configs" / "content", root / "content")
    shutil.copytree(REPO / "configs" / "scenarios", root / "scenarios")
    path = root / "content" / "heroes" / "majesty.yaml"
    data = yaml.safe_load(path.read_text())
    cards = [c for c in data["cards"] if c["name"] != "Royal Summons"]
    for c in cards:
        if c["name"] == "Scepter of Dominion":
            c["count"] = 2
    data["cards"] = cards
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return load_scenario("origin_story", content_dir=root / "content")


def test_unique_constant_replaces_copy_in_play(two_scepters):
    """Rulebook: Unique Cards / Play 1 Action Card — a hero may not control two copies of a
    unique card: playing one while a copy is in play discards the copy in play."""
    g = setup(two_scepters, cards=[])
    names = g.scenario.hero_card_names[0]
    first, second = [i for i, n in enumerate(names) if n == "Scepter of Dominion"]
    P.give_cards(g, 0, ["Scepter of Dominion", "Scepter of Dominion"])
    g.field("hcloc")[0][first] = L.L_PLAY
    P.jump(g, "hero_turn")
    g.apply(L.A_PLAY + second)
    assert int(g.field("hcloc")[0][second]) == L.L_PLAY
    assert int(g.field("hcloc")[0][first]) == L.L_DISCARD
    assert g.snapshot()["heroes"][0]["play_area"] == ["Scepter of Dominion"]


# --- Hero Actions: abilities ----------------------------------------------------------------

def test_action_ability_costs_an_action(origin):
    """Rulebook: Hero Actions — heroes may spend an action on an Action effect in play
    (Palace Guard's Hold the Line: deal 2 damage to an enemy within 1 space)."""
    g = setup(origin, "C3", cards=[])
    guard = P.give_cards(g, 0, ["Palace Guard"], "play")[0]
    vance = P.add_villain_card(g, "Chauffeur Vance", 0, "D3")
    P.jump(g, "hero_turn")
    g.apply(L.A_USE + guard)
    assert actions(g) == 1
    assert int(g.field("vdmg")[vance]) == 2


def test_exhaust_ability_is_free_and_exhausts_card(origin):
    """Rulebook: Exhausted Cards — a hero may exhaust a card they control to resolve its
    Exhaust effect (no action); an exhausted card cannot be exhausted again."""
    g = setup(origin, "C3", cards=[])
    herald = P.give_cards(g, 0, ["Herald's Call"], "play")[0]
    P.jump(g, "hero_turn")
    g.apply(L.A_USE + herald)
    assert int(g.field("hcexh")[0][herald]) == 1
    assert g.decision == "move"  # Clear the Way: move 2
    step(g, "D3")
    step(g, "E3")
    assert g.decision == "main"
    assert int(g.field("hloc")[0]) == sp(g, "E3")
    assert actions(g) == 2
    assert L.A_USE + herald not in legal(g)


# --- Attack -------------------------------------------------------------------------------

def test_attack_only_nearby_spaces_with_enemies(origin):
    """Rulebook: Attack / Near and Nearby — an attack targets a nearby space (own or
    adjacent) containing at least 1 enemy."""
    g = setup(origin, "C3")
    P.add_villain_card(g, "Chauffeur Vance", 0, "E3")  # 2 spaces away
    P.jump(g, "hero_turn")
    assert not any(L.A_ATTACK <= a < L.A_SOLVE for a in legal(g))
    g2 = setup(origin, "C3")
    P.add_villain_card(g2, "Chauffeur Vance", 0, "D3")
    P.jump(g2, "hero_turn")
    attacks = {a - L.A_ATTACK for a in legal(g2) if L.A_ATTACK <= a < L.A_SOLVE}
    assert attacks == {sp(g2, "D3")}


def test_scheming_villain_cannot_be_attacked(origin):
    """Rulebook: Revealing the Villain — only once revealed may heroes attack the villain:
    a hero in the villain's panel has no attack while it is Scheming (and no minions)."""
    g = setup(origin, "panel 1")
    P.jump(g, "hero_turn")
    assert L.A_ATTACK + sp(g, "panel 1") not in legal(g)


def test_minions_in_panel_are_nearby_from_adjacent_space(origin):
    """Rulebook: Near and Nearby — a figure in a scheme panel counts as being in the scheme
    space, so minions in panel 2 are nearby a hero adjacent to the green scheme space."""
    g = setup(origin, "G5")
    put_minions(g, 2, 1)
    P.jump(g, "hero_turn")
    assert L.A_ATTACK + sp(g, "panel 2") in legal(g)


def test_defense_reduces_attack_damage(origin):
    """Rulebook: Attack / Defense Value — each target reduces the damage it suffers by its
    defense value (Hatchet Hollis, defense 1: 3 successes deal 2 damage)."""
    g = setup(origin, "C3")
    hollis = P.add_villain_card(g, "Hatchet Hollis", 0, "D3")
    roll_attack(g, "D3", [SUCCESS, SUCCESS, SUCCESS])
    assert int(g.field("vdmg")[hollis]) == 2
    assert int(g.field("vloc")[hollis]) == L.L_THREAT
    assert actions(g) == 1


def test_attack_successes_distributed_among_enemies(origin):
    """Rulebook: Attack / Rolling and Resolving Hero Dice step 7a — successes may be
    distributed among the enemies in the target space (2 minions and Big Bertram)."""
    g = setup(origin, "G5")
    put_minions(g, 2, 2)
    bertram = P.add_villain_card(g, "Big Bertram", 0, "panel 2")
    supply = int(g.field("minion_supply"))
    roll_attack(g, "panel 2", [SUCCESS, SUCCESS, SUCCESS])
    assert g.decision == "assign"
    assert legal(g) == {L.A_TARGET + L.T_MINION, L.A_TARGET + L.T_V0 + bertram}
    g.apply(L.A_TARGET + L.T_MINION)
    g.apply(L.A_TARGET + L.T_MINION)
    g.apply(L.A_TARGET + L.T_V0 + bertram)
    assert int(g.field("minions")[2]) == 0
    assert int(g.field("minion_supply")) == supply + 2
    assert int(g.field("vdmg")[bertram]) == 1


def test_minion_defeated_by_one_damage_returns_to_supply(origin):
    """Rulebook: Minions / Dealing and Suffering Damage — a normal minion has 1 health; a
    defeated minion returns to the minion supply (no clue)."""
    g = setup(origin, "G5")
    put_minions(g, 2, 3)
    supply = int(g.field("minion_supply"))
    roll_attack(g, "panel 2", [SUCCESS, BLANK, BLANK])
    assert int(g.field("minions")[2]) == 2
    assert int(g.field("minion_supply")) == supply + 1
    assert clues_held(g) == 0


def test_defeating_lackey_discards_it_and_gains_clue(origin):
    """Rulebook: Dealing and Suffering Damage / Enemy Cards — a defeated lackey's figure
    leaves the map, its card is discarded and the hero who defeated it draws 1 clue card."""
    g = setup(origin, "C3")
    vance = P.add_villain_card(g, "Chauffeur Vance", 0, "D3")  # health 3, defense 0
    roll_attack(g, "D3", [SUCCESS, SUCCESS, SUCCESS])
    assert int(g.field("vloc")[vance]) == L.L_DISCARD
    assert int(g.field("vpos")[vance]) == -1
    assert clues_held(g) == 1
    assert event(g, "enemies_defeated") == 1
    # its space is free again
    assert L.A_SPACE + sp(g, "D3") in legal(g)


# --- Solve --------------------------------------------------------------------------------

def test_scheme_card_solvable_only_from_its_panel(origin):
    """Rulebook: Scheme Cards — while on its Scheme side, a Scheme card can only be targeted
    by a hero in the corresponding scheme panel (being adjacent is not enough)."""
    g = setup(origin, "G5")
    set_scheme(g, 0, "Hostages at the Counter")  # panel 2
    P.jump(g, "hero_turn")
    assert L.A_SOLVE + sp(g, "panel 2") not in legal(g)
    g2 = setup(origin, "panel 2")
    set_scheme(g2, 0, "Hostages at the Counter")
    P.jump(g2, "hero_turn")
    assert L.A_SOLVE + sp(g2, "panel 2") in legal(g2)


def test_solving_scheme_side_flips_card_removes_hidden_token_gains_clue(origin):
    """Rulebook: Scheme Cards / Solve Actions — justice equal to the danger value solves
    the Scheme side: the card flips in place in the threat area, the solver gains 1 clue
    and 1 hidden token is discarded from the Villain card."""
    g = setup(origin, "panel 2")
    i = set_scheme(g, 0, "Hostages at the Counter")  # danger 3
    # Majesty solves with 2 dice: a burst adds a third
    P.force_dice(g, [BURST, SUCCESS, SUCCESS])
    P.jump(g, "hero_turn")
    assert int(g.field("vil_hidden")) == 1
    g.apply(L.A_SOLVE + sp(g, "panel 2"))
    f = g.field
    assert int(f("iside")[i]) == 1
    assert int(f("iloc")[i]) == L.L_THREAT and int(f("iowner")[i]) == 0
    assert int(f("vil_hidden")) == 0
    assert clues_held(g) == 1
    assert event(g, "schemes_solved") == 1
    assert actions(g) == 1


def test_partial_justice_stays_on_scheme(origin):
    """Rulebook: Solve — each success places 1 justice token; below the danger value the
    problem stays unsolved with its justice."""
    g = setup(origin, "panel 2")
    i = set_scheme(g, 0, "Hostages at the Counter")
    roll_solve(g, "panel 2", [SUCCESS, BLANK])
    assert int(g.field("ijust")[i]) == 1
    assert int(g.field("iside")[i]) == 0
    assert int(g.field("vil_hidden")) == 1


def test_villain_card_takes_no_justice_while_hidden_tokens_remain(origin):
    """Rulebook: Problem Cards / Revealing the Villain — the Villain card can only be solved
    when no hidden tokens remain, by a hero in the villain's scheme panel."""
    g = setup(origin, "panel 1")
    set_scheme(g, 0, "Hostages at the Counter")  # its hidden token: panel 2's Scheme card
    P.jump(g, "hero_turn")
    assert int(g.field("vil_hidden")) == 1
    assert L.A_SOLVE + sp(g, "panel 1") not in legal(g)
    g2 = setup(origin, "panel 1")
    P.set_villain(g2, hidden=0)
    P.jump(g2, "hero_turn")
    assert L.A_SOLVE + sp(g2, "panel 1") in legal(g2)
    g3 = setup(origin, "D7")  # adjacent to the panel, not in it
    P.set_villain(g3, hidden=0)
    P.jump(g3, "hero_turn")
    assert L.A_SOLVE + sp(g3, "panel 1") not in legal(g3)


def test_solving_villain_card_reveals_villain(origin):
    """Rulebook: Revealing the Villain — immediately after the Villain card is solved: its
    justice is discarded, it flips to Showdown, goes to the solver's threat area and the
    villain figure moves to the scheme space of its current panel."""
    g = setup(origin, "panel 1")
    P.set_villain(g, hidden=0)
    roll_solve(g, "panel 1", [BURST, SUCCESS, SUCCESS])  # 3 justice = danger 3 (1 hero)
    f = g.field
    assert int(f("vil_side")) == 1
    assert int(f("vil_justice")) == 0
    assert int(f("vil_owner")) == 0
    assert int(f("vil_in_panel")) == 0
    assert int(f("vil_loc")) == sp(g, "panel 1")
    assert clues_held(g) == 1
    assert any(c["card"] == "Dowager" for c in g.snapshot()["heroes"][0]["threat_area"])
    # after the Solve the (now Showdown, inflict 2) villain near the hero inflicts
    assert g.decision == "damage" and int(f("dec_a")) == 2
    suffer(g)
    assert int(f("hdmg")[0]) == 2


def test_revealed_villain_placed_in_nearest_empty_space_when_occupied(origin):
    """Rulebook: Revealing the Villain — if the scheme space is occupied, the villain is
    placed in the empty space nearest it."""
    g = setup(origin, "panel 1")
    P.add_villain_card(g, "Big Bertram", 0, "panel 1")
    P.set_villain(g, hidden=0)
    roll_solve(g, "panel 1", [BURST, SUCCESS, SUCCESS])
    assert int(g.field("vil_side")) == 1
    assert int(g.field("vil_loc")) in neighbours(g, "panel 1")


def test_nearby_enemies_inflict_after_solve(origin):
    """Rulebook: Solve / Solve Actions — after a Solve each enemy near the active hero
    inflicts (each minion 1): 2 minions in the panel plus Chauffeur Vance (inflict 1)
    adjacent to the scheme space = 3 damage; Big Bertram further away does not inflict."""
    g = setup(origin, "panel 2")
    set_scheme(g, 0, "Hostages at the Counter")
    put_minions(g, 2, 2)
    P.add_villain_card(g, "Chauffeur Vance", 0, "G5")
    P.add_villain_card(g, "Big Bertram", 0, "E5")
    roll_solve(g, "panel 2", [SUCCESS, BLANK])
    suffer(g)
    assert int(g.field("hdmg")[0]) == 3


def test_no_inflict_after_solve_without_nearby_enemies(origin):
    """Rulebook: Solve — only nearby enemies inflict after a Solve (minions in another
    panel do not)."""
    g = setup(origin, "panel 2")
    set_scheme(g, 0, "Hostages at the Counter")
    put_minions(g, 4, 3)
    roll_solve(g, "panel 2", [SUCCESS, BLANK])
    assert g.decision == "main"
    assert int(g.field("hdmg")[0]) == 0


def test_solving_peril_discards_it_and_gains_clue(origin):
    """Rulebook: Peril Tokens and Cards / Solve Actions — a hero near a peril token may
    solve it; a solved Peril card is discarded with its token and the solver draws 1 clue."""
    g = setup(origin, "C6")
    fire = P.add_villain_card(g, "Gala Firebomb", 0, "D6")  # danger 3
    roll_solve(g, "D6", [BURST, SUCCESS, SUCCESS])
    assert int(g.field("vloc")[fire]) == L.L_DISCARD
    assert int(g.field("vpos")[fire]) == -1
    assert clues_held(g) == 1
    assert event(g, "problems_solved") == 1


def test_solve_successes_rescue_captured_bystanders(origin):
    """Rulebook: Rescuing Bystanders — during a Solve each spent success rescues 1 nearby
    captured bystander: it returns to the supply and the hero draws 1 clue card."""
    g = setup(origin, "panel 3")
    capture(g, 3, 2)
    supply = int(g.field("bystander_supply"))
    roll_solve(g, "panel 3", [SUCCESS, SUCCESS])
    assert int(g.field("captured")[3]) == 0
    assert int(g.field("bystander_supply")) == supply + 2
    assert clues_held(g) == 2
    assert event(g, "rescues") == 2


def test_problem_with_panel_location_solvable_only_in_that_panel(origin):
    """Rulebook: Problem Cards — a problem whose solve location names a scheme panel can
    only be solved by a hero in that scheme panel (Laser Grid stays as a problem located in
    panel 3: a hero next to the scheme space may not solve it)."""
    g = setup(origin, "B3")  # adjacent to A3, the panel 3 scheme space
    put_issue_in_threat(g, 0, "Laser Grid", "panel 3")
    P.jump(g, "hero_turn")
    assert L.A_SOLVE + sp(g, "panel 3") not in legal(g)
    g2 = setup(origin, "panel 3")
    put_issue_in_threat(g2, 0, "Laser Grid", "panel 3")
    P.jump(g2, "hero_turn")
    assert L.A_SOLVE + sp(g2, "panel 3") in legal(g2)


def test_flipped_scheme_problem_in_panel_solvable_only_in_that_panel(origin):
    """Rulebook: Problem Cards — the flipped side of Hostages at the Counter (Frightened
    Customers, solve location panel 2) can only be solved by a hero in panel 2."""
    g = setup(origin, "G5")  # adjacent to H5, the panel 2 scheme space
    set_scheme(g, 0, "Hostages at the Counter")
    P.flip_scheme(g, "Hostages at the Counter")
    P.jump(g, "hero_turn")
    assert L.A_SOLVE + sp(g, "panel 2") not in legal(g)
    g2 = setup(origin, "panel 2")
    set_scheme(g2, 0, "Hostages at the Counter")
    P.flip_scheme(g2, "Hostages at the Counter")
    P.jump(g2, "hero_turn")
    assert L.A_SOLVE + sp(g2, "panel 2") in legal(g2)


# --- Heroic Feat Icons ------------------------------------------------------------------------

def test_mobility_feat_places_hero_anywhere(origin):
    """Rulebook: Heroic Feat Icons — Mobility: discard a card with the icon to place your
    figure in any space on the map (no action spent); "move to" placement rescues a
    bystander in the destination."""
    g = setup(origin, "B7", cards=["Royal Summons"])
    put_bystander(g, "H3")
    P.add_villain_card(g, "Chauffeur Vance", 0, "H2")
    P.jump(g, "hero_turn")
    c = hcard(g, "Royal Summons")
    g.apply(L.A_FEAT + 3 * c + 0)
    assert g.decision == "place"
    assert L.A_SPACE + sp(g, "H3") in legal(g)
    assert L.A_SPACE + sp(g, "H2") not in legal(g)  # occupied by a lackey
    g.apply(L.A_SPACE + sp(g, "H3"))
    assert int(g.field("hloc")[0]) == sp(g, "H3")
    assert int(g.field("hcloc")[0][c]) == L.L_DISCARD
    assert actions(g) == 2
    assert clues_held(g) == 1


def test_strength_feat_gives_free_attack(origin):
    """Rulebook: Heroic Feat Icons — Strength: discard the card (ignoring its other
    effects) to perform an Attack without spending an action."""
    g = setup(origin, "C3", cards=["Throne Breaker"])
    vance = P.add_villain_card(g, "Chauffeur Vance", 0, "D3")
    P.force_dice(g, [SUCCESS] * 5)
    P.jump(g, "hero_turn")
    c = hcard(g, "Throne Breaker")
    g.apply(L.A_FEAT + 3 * c + 1)
    assert int(g.field("hcloc")[0][c]) == L.L_DISCARD
    assert int(g.field("vloc")[vance]) == L.L_DISCARD  # 3 dice, 3 damage, health 3
    assert int(g.field("dice_n")) == 2  # only the attack value (3) was rolled
    assert actions(g) == 2


def test_deduction_feat_gives_free_solve(origin):
    """Rulebook: Heroic Feat Icons — Deduction: discard the card to perform a Solve without
    spending an action (Majesty's solve value 2)."""
    g = setup(origin, "panel 2", cards=["Read the Room"])
    i = set_scheme(g, 0, "Hostages at the Counter")
    P.force_dice(g, [SUCCESS] * 4)
    P.jump(g, "hero_turn")
    c = hcard(g, "Read the Room")
    g.apply(L.A_FEAT + 3 * c + 2)
    assert int(g.field("ijust")[i]) == 2
    assert int(g.field("dice_n")) == 2
    assert int(g.field("hcloc")[0][c]) == L.L_DISCARD
    assert actions(g) == 2


def test_feat_requires_matching_icon(origin):
    """Rulebook: Heroic Feat Icons — a feat needs a discarded card with that icon: Throne
    Breaker (strength only) offers no mobility feat."""
    g = setup(origin, "C3", cards=["Throne Breaker"])
    P.add_villain_card(g, "Chauffeur Vance", 0, "D3")
    P.jump(g, "hero_turn")
    c = hcard(g, "Throne Breaker")
    assert L.A_FEAT + 3 * c + 1 in legal(g)
    assert L.A_FEAT + 3 * c + 0 not in legal(g)
    assert L.A_FEAT + 3 * c + 2 not in legal(g)


# --- more Move / Hero Turn / Solve cases ------------------------------------------------------

def test_move_steps_mid_move_also_need_empty_spaces(origin):
    """Rulebook: Move — every step of a move enters an adjacent empty space: after the
    first step, a lackey's space is still not offered."""
    g = setup(origin, "B3")
    P.add_villain_card(g, "Chauffeur Vance", 0, "D3")
    P.jump(g, "hero_turn")
    step(g, "C3")
    assert g.decision == "move"
    assert L.A_SPACE + sp(g, "D3") not in legal(g)
    assert L.A_SPACE + sp(g, "C4") in legal(g)


def test_heroes_take_actions_in_any_order(duo):
    """Rulebook: The Game Round / Hero Turn — heroes may collectively take their actions in
    any order, one at a time: hero 1 may act before hero 0 has finished."""
    g = heroes_at(duo, "C3", "F5", keep_schemes=False)
    P.jump(g, "hero_turn")
    assert g.current_seat == 0
    assert PASS in legal(g)  # hand the initiative on
    g.apply(PASS)
    assert g.current_seat == 1 and g.decision == "main"
    move_one(g, "F4")
    assert int(g.field("hactions")[1]) == 1
    assert int(g.field("hactions")[0]) == 2


def test_solve_justice_distributed_among_problems(origin):
    """Rulebook: Rolling and Resolving Hero Dice step 7b / Rescuing Bystanders — successes
    may be split among the problems in the target space (the Scheme card and a captured
    bystander in panel 2)."""
    g = setup(origin, "panel 2")
    i = set_scheme(g, 0, "Hostages at the Counter")
    capture(g, 2, 1)
    roll_solve(g, "panel 2", [SUCCESS, SUCCESS])
    assert g.decision == "assign"
    assert legal(g) == {L.A_TARGET + L.T_I0 + i, L.A_TARGET + L.T_CAPTURED}
    g.apply(L.A_TARGET + L.T_CAPTURED)
    g.apply(L.A_TARGET + L.T_I0 + i)
    assert int(g.field("captured")[2]) == 0
    assert int(g.field("ijust")[i]) == 1
    assert clues_held(g) == 1


def test_per_hero_scheme_danger(duo):
    """Rulebook: Per Hero — Case the Lobby's danger 2 per hero is 4 with two heroes: 3
    justice do not solve it."""
    g = Game(duo, seed=0)
    P.clear_board(g)
    i = set_scheme(g, 0, "Case the Lobby")
    set_scheme(g, 1, "Crack the Vault")
    P.place_hero(g, 0, "panel 1")
    P.place_hero(g, 1, "B7")
    roll_solve(g, "panel 1", [BURST, SUCCESS, SUCCESS])
    assert int(g.field("ijust")[i]) == 3
    assert int(g.field("iside")[i]) == 0
    assert int(g.field("vil_hidden")) == 2


def test_scheming_villain_inflicts_after_solve_in_its_panel(origin):
    """Rulebook: Solve / Enemy Cards — villains are enemies: after a Solve in the villain's
    panel, the Scheming villain (inflict 1) inflicts the solver."""
    g = setup(origin, "panel 1")
    i = set_scheme(g, 0, "Case the Lobby")  # danger 2
    roll_solve(g, "panel 1", [SUCCESS, SUCCESS])
    assert int(g.field("iside")[i]) == 1
    assert int(g.field("vil_hidden")) == 0
    suffer(g)
    assert int(g.field("hdmg")[0]) == 1


def test_free_solve_from_deduction_still_triggers_inflict(origin):
    """Rulebook: Solve / Heroic Feat Icons — a Solve performed through a deduction feat is
    still a Solve: nearby enemies (1 minion) inflict afterwards."""
    g = setup(origin, "panel 2", cards=["Read the Room"])
    set_scheme(g, 0, "Hostages at the Counter")
    put_minions(g, 2, 1)
    P.force_dice(g, [BLANK, BLANK])
    P.jump(g, "hero_turn")
    g.apply(L.A_FEAT + 3 * hcard(g, "Read the Room") + 2)
    suffer(g)
    assert int(g.field("hdmg")[0]) == 1


def test_effect_justice_solves_and_gains_clue_without_inflict(origin):
    """Rulebook: Scheme Cards / Solve — a card fully solved by effect justice also gives a
    clue; placing justice by an effect is not a Solve action, so nearby enemies do not
    inflict (Read the Room: 1 justice within 1 space on a Gala Firebomb with 2 justice)."""
    g = setup(origin, "C6", cards=["Read the Room"])
    fire = P.add_villain_card(g, "Gala Firebomb", 0, "D6")
    P.set_card(g, "Gala Firebomb", justice=2)
    P.add_villain_card(g, "Chauffeur Vance", 0, "C5")  # an enemy next to the hero
    P.jump(g, "hero_turn")
    g.apply(L.A_PLAY + hcard(g, "Read the Room"))
    assert int(g.field("vloc")[fire]) == L.L_DISCARD
    assert clues_held(g) == 1
    assert g.decision == "main"
    assert int(g.field("hdmg")[0]) == 0


def test_effect_damage_defeating_lackey_gains_clue(origin):
    """Rulebook: Attack / Enemy Cards — defeating an enemy card by otherwise
    dealing sufficient damage (Palace Guard's 2 damage to Chauffeur Vance with 1 damage)
    also gives the hero 1 clue."""
    g = setup(origin, "C3", cards=[])
    guard = P.give_cards(g, 0, ["Palace Guard"], "play")[0]
    vance = P.add_villain_card(g, "Chauffeur Vance", 0, "D3")
    P.set_card(g, "Chauffeur Vance", damage=1)
    P.jump(g, "hero_turn")
    g.apply(L.A_USE + guard)
    assert int(g.field("vloc")[vance]) == L.L_DISCARD
    assert clues_held(g) == 1


def test_empty_clue_deck_reshuffles_discard(origin):
    """Rulebook: Clue Cards — if no cards remain in the clue deck, its discard pile is
    shuffled into a new clue deck (a rescue still gives a clue)."""
    g = setup(origin, "B6")
    f = g.field
    P.discard_from_deck(g, "clue")
    put_bystander(g, "C5")
    P.jump(g, "hero_turn")
    move_one(g, "C5")
    assert clues_held(g) == 1
    assert int(f("clue_n")) == 19


def test_action_card_attack_costs_only_the_play_action(origin):
    """Rulebook: Play 1 Action Card / Actions in Text Effects — playing Throne Breaker costs
    1 action; the Attack in its text (2 extra dice: 5 in all) costs no further action, and
    the Instant is discarded afterwards."""
    g = setup(origin, "C3", cards=["Throne Breaker"])
    bertram = P.add_villain_card(g, "Big Bertram", 0, "D3")  # health 5, defense 0
    P.force_dice(g, [SUCCESS, SUCCESS, SUCCESS, SUCCESS, BLANK, SUCCESS])
    P.jump(g, "hero_turn")
    c = hcard(g, "Throne Breaker")
    g.apply(L.A_PLAY + c)
    assert int(g.field("vdmg")[bertram]) == 4
    assert int(g.field("dice_n")) == 1
    assert int(g.field("hcloc")[0][c]) == L.L_DISCARD
    assert actions(g) == 1
