"""Rulebook chapters: Rolling and Resolving Hero Dice, Focus Tokens, Becoming Focused,
Clue Cards, and the Showdown reaction of Attack.

Die faces are forced (rules_helpers: BLANK, SUCCESS, SUCCESS_FOCUS, FOCUS, BURST).
Majesty attacks with 3 dice and solves with 2 (Focused: 3 + 1 attack dice, armour 1).
"""

from __future__ import annotations

from rules_helpers import (
    BLANK,
    BURST,
    FOCUS,
    PASS,
    SUCCESS,
    SUCCESS_FOCUS,
    legal,
    roll_attack,
    setup,
    suffer,
    vcard,
)

from hon_env import Game, Scenario
from hon_env import positions as P
from hon_env.spec import layout as L


def bertram(g: Game, where="D3") -> int:
    return P.add_villain_card(g, "Big Bertram", 0, where)


def bertram_game(scenario: Scenario, **hero: object) -> tuple[Game, int]:
    """Majesty on C3 (``setup``) with Big Bertram on D3 and the hero's ``hero`` values set
    (``P.set_hero``); returns the game and Big Bertram's card."""
    g = setup(scenario)
    b = bertram(g)
    if hero:
        P.set_hero(g, 0, **hero)
    return g, b


# --- Rolling and Resolving Hero Dice ------------------------------------------------------

def test_burst_is_success_and_adds_a_die(origin):
    """Rulebook: Rolling and Resolving Hero Dice step 4 — each burst notes a success and
    rolls 1 additional die: 3 dice + 2 bursts = 5 dice, 2 successes."""
    g, b = bertram_game(origin)
    roll_attack(g, "D3", [BURST, BURST, BLANK, BLANK, BLANK, SUCCESS])
    assert int(g.field("vdmg")[b]) == 2
    assert int(g.field("dice_n")) == 1  # exactly 5 dice were rolled


def test_bursts_repeat_until_none_left(origin):
    """Rulebook: Rolling and Resolving Hero Dice step 4 — repeat until no bursts are left:
    a burst on an added die adds another die."""
    g, b = bertram_game(origin)
    roll_attack(g, "D3", [BURST, BLANK, BLANK, BURST, SUCCESS, SUCCESS])
    assert int(g.field("vdmg")[b]) == 3  # burst + burst + success
    assert int(g.field("dice_n")) == 1


def test_unspent_focus_results_become_focus_tokens(origin):
    """Rulebook: Rolling and Resolving Hero Dice step 8 — each unspent focus result gives
    the active hero 1 focus token (a success+focus face gives both)."""
    g, b = bertram_game(origin)
    roll_attack(g, "D3", [FOCUS, SUCCESS_FOCUS, BLANK])
    assert int(g.field("vdmg")[b]) == 1
    assert int(g.field("hfocus")[0]) == 2


def test_focus_tokens_capped_at_five(origin):
    """Rulebook: Focus Tokens — each hero can have up to five focus tokens (a Focused hero
    with 4 focus rolling 3 unspent focus results ends with 5)."""
    g, _ = bertram_game(origin, focused=True, focus=4)
    roll_attack(g, "D3", [FOCUS, FOCUS, FOCUS, BLANK])  # Focused: 3 + 1 attack dice
    assert g.decision == "focus_spend"
    g.apply(L.A_OPTION + 0)
    assert int(g.field("hfocus")[0]) == 5
    assert int(g.field("hside")[0]) == 1
    assert int(g.field("dice_n")) == 0


def test_spending_focus_converts_focus_results_to_successes(origin):
    """Rulebook: Rolling and Resolving Hero Dice step 6 — the hero may spend focus tokens to
    convert an equal number of focus results into successes; converted results are spent
    and give no focus in step 8."""
    g, b = bertram_game(origin, focus=2)
    roll_attack(g, "D3", [FOCUS, FOCUS, BLANK])
    assert g.decision == "focus_spend"
    assert legal(g) == {L.A_OPTION + k for k in range(3)}
    g.apply(L.A_OPTION + 2)
    assert int(g.field("vdmg")[b]) == 2
    assert int(g.field("hfocus")[0]) == 0


def test_partial_focus_spend_keeps_other_focus_result(origin):
    """Rulebook: Rolling and Resolving Hero Dice steps 6 and 8 — converting 1 of 2 focus
    results: 1 success, and the unconverted result becomes a focus token."""
    g, b = bertram_game(origin, focus=2)
    roll_attack(g, "D3", [FOCUS, FOCUS, BLANK])
    g.apply(L.A_OPTION + 1)
    assert int(g.field("vdmg")[b]) == 1
    assert int(g.field("hfocus")[0]) == 2  # 2 - 1 spent + 1 gained


def test_focus_spend_limited_by_focus_results(origin):
    """Rulebook: Rolling and Resolving Hero Dice step 6 — focus converts focus *results*:
    with 5 tokens but 1 focus result, at most 1 can be converted."""
    g, _ = bertram_game(origin, focus=5, focused=True)
    roll_attack(g, "D3", [FOCUS, BLANK, BLANK, BLANK])
    assert g.decision == "focus_spend"
    assert legal(g) == {L.A_OPTION, L.A_OPTION + 1}


def test_gaining_focus_past_five_flips_to_focused_keeping_remainder(origin):
    """Rulebook: Becoming Focused / Focus Tokens — a hero gaining an excess of five focus
    during the hero turn discards 5 to flip to their Focused side and keeps the remainder
    (4 + 3 = 7: Focused with 2)."""
    g, _ = bertram_game(origin, focus=4)
    roll_attack(g, "D3", [FOCUS, FOCUS, FOCUS])
    g.apply(L.A_OPTION + 0)
    assert int(g.field("hside")[0]) == 1
    assert int(g.field("hfocus")[0]) == 2
    assert g.snapshot()["heroes"][0]["health"] == 12  # the Focused side's health


def test_becoming_focused_by_discarding_five_focus(origin):
    """Rulebook: Becoming Focused — during the hero turn a hero may discard 5 focus tokens
    to flip their Hero card to its Focused side (not an action)."""
    g = setup(origin)
    P.set_hero(g, 0, focus=5)
    P.jump(g, "hero_turn")
    assert L.A_FOCUS in legal(g)
    g.apply(L.A_FOCUS)
    assert int(g.field("hside")[0]) == 1
    assert int(g.field("hfocus")[0]) == 0
    assert int(g.field("hactions")[0]) == 2
    assert L.A_FOCUS not in legal(g)


def test_cannot_become_focused_with_four_focus(origin):
    """Rulebook: Becoming Focused — it takes 5 focus tokens."""
    g = setup(origin)
    P.set_hero(g, 0, focus=4)
    P.jump(g, "hero_turn")
    assert L.A_FOCUS not in legal(g)


def test_focused_side_adds_attack_die(origin):
    """Rulebook: Becoming Focused — the Focused side's values apply (Majesty's Sovereign
    Fury: +1 attack die, 4 dice in all)."""
    g, b = bertram_game(origin, focused=True)
    roll_attack(g, "D3", [SUCCESS] * 5)
    assert int(g.field("vdmg")[b]) == 4
    assert int(g.field("dice_n")) == 1


# --- Clue Cards ---------------------------------------------------------------------------

def test_clue_bonus_dice_before_roll(origin):
    """Rulebook: Clue Cards — before rolling, a hero may discard clue cards to add their
    bonus dice to their own Attack (Perfect Opening: +2 attack dice, 5 dice)."""
    g, b = bertram_game(origin)
    i = P.give_clue(g, 0, "Perfect Opening")
    roll_attack(g, "D3", [SUCCESS] * 6)
    assert g.decision == "clue_dice"
    assert legal(g) == {PASS, L.A_CLUE + i}
    g.apply(L.A_CLUE + i)
    assert int(g.field("clue_loc")[i]) == -2  # discarded
    assert int(g.field("vloc")[b]) == L.L_DISCARD  # 5 damage: Big Bertram defeated
    assert int(g.field("dice_n")) == 1


def test_clue_bonus_dice_declined(origin):
    """Rulebook: Clue Cards — using a clue for dice is optional; passing keeps the clue."""
    g, b = bertram_game(origin)
    i = P.give_clue(g, 0, "Perfect Opening")
    roll_attack(g, "D3", [SUCCESS] * 6)
    g.apply(PASS)
    assert int(g.field("clue_loc")[i]) == 0
    assert int(g.field("vdmg")[b]) == 3
    assert int(g.field("dice_n")) == 3


def test_clue_dice_only_for_matching_roll(origin):
    """Rulebook: Clue Cards — the clue's dice icons say which roll it helps: Hunch (solve
    dice only) cannot add dice to an Attack."""
    g, b = bertram_game(origin)
    i = P.give_clue(g, 0, "Hunch")
    roll_attack(g, "D3", [SUCCESS] * 4)
    assert g.decision == "main"  # no clue-dice question was asked
    assert int(g.field("clue_loc")[i]) == 0
    assert int(g.field("vdmg")[b]) == 3


def test_clue_text_effect_from_hero_turn_menu(origin):
    """Rulebook: Clue Cards — a hero may discard a clue card at any time during the hero
    turn to use its text effect (Deep Breath: gain 2 focus), without spending an action."""
    g = setup(origin)
    i = P.give_clue(g, 0, "Deep Breath")
    P.jump(g, "hero_turn")
    assert L.A_CLUE + i in legal(g)
    g.apply(L.A_CLUE + i)
    assert int(g.field("hfocus")[0]) == 2
    assert int(g.field("clue_loc")[i]) == -2
    assert int(g.field("hactions")[0]) == 2


def test_dice_only_clue_has_no_text_effect(origin):
    """Rulebook: Clue Cards — a clue with only bonus dice (Lucky Break) has no text effect
    to use from the menu."""
    g = setup(origin)
    i = P.give_clue(g, 0, "Lucky Break")
    P.jump(g, "hero_turn")
    assert L.A_CLUE + i not in legal(g)


# --- Showdown reaction (Attack) -------------------------------------------------------------

def test_attacking_revealed_villain_draws_card_for_showdown_effect(origin):
    """Rulebook: Attack / Rolling and Resolving Hero Dice step 5 — attacking the space of
    the villain on its Showdown side, the hero draws a villain card and applies its
    Showdown effect (Family Heirlooms: heal the villain 1); the card is then discarded."""
    g = setup(origin)
    P.set_villain(g, side="showdown", where="D3", owner=0, damage=3)
    heir = P.stack_villain_deck(g, ["Family Heirlooms"])[0]
    n = int(g.field("vdeck_n"))
    roll_attack(g, "D3", [BLANK, BLANK, BLANK])
    assert int(g.field("vil_damage")) == 2
    assert int(g.field("vdeck_n")) == n - 1
    assert int(g.field("vloc")[heir]) == L.L_DISCARD
    # the card's ploy icons are not resolved (no minion placed in panel 4)
    assert int(g.field("minions")[4]) == 0


def test_showdown_reaction_then_damage_with_villain_defense(origin):
    """Rulebook: Rolling and Resolving Hero Dice steps 5 and 7 — the Showdown effect
    resolves before successes are spent; the villain's defense (1) reduces the damage."""
    g = setup(origin)
    P.set_villain(g, side="showdown", where="D3", owner=0, damage=3)
    P.stack_villain_deck(g, ["Family Heirlooms"])
    roll_attack(g, "D3", [SUCCESS, SUCCESS, BLANK])
    assert int(g.field("vil_damage")) == 3 - 1 + (2 - 1)


def test_showdown_effect_can_damage_attacker(origin):
    """Rulebook: Rolling and Resolving Hero Dice step 5 — Charity Gala's Showdown effect
    deals 1 damage to the attacking hero."""
    g = setup(origin)
    P.set_villain(g, side="showdown", where="D3", owner=0)
    P.stack_villain_deck(g, ["Charity Gala"])
    roll_attack(g, "D3", [BLANK, BLANK, BLANK])
    assert g.decision == "damage"
    suffer(g)
    assert int(g.field("hdmg")[0]) == 1
    assert int(g.field("vloc")[vcard(g, "Charity Gala")]) == L.L_DISCARD


def test_attacking_lackey_draws_no_villain_card(origin):
    """Rulebook: Attack — only attacks on the villain's space draw a Showdown card."""
    g, _ = bertram_game(origin)
    P.set_villain(g, side="showdown", where="H2", owner=0)
    n = int(g.field("vdeck_n"))
    roll_attack(g, "D3", [BLANK, BLANK, BLANK])
    assert int(g.field("vdeck_n")) == n
