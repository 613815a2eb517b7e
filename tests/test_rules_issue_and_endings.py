"""Rulebook chapters: Issue Turn, Problem Cards / Scheme Cards (issue side), A Crisis
Occurs (the Issue Overview's Crisis effect), and how the game ends: the heroes win by
defeating the villain and lose when the issue deck runs out or the villain completes the
issue's objective (Century Heist: 3 gold)."""

from __future__ import annotations

import pytest
from rules_helpers import (
    BLANK,
    BURST,
    SUCCESS,
    clues_held,
    event,
    put_bystander,
    put_issue_in_threat,
    set_scheme,
    setup,
    sp,
    suffer,
)

from hon_env import Game
from hon_env import positions as P
from hon_env.spec import layout as L


def gold(g: Game) -> int:
    return int(g.field("counters")[g.scenario.counter_names.index("gold")])


# --- Issue Turn --------------------------------------------------------------------------

def test_empty_issue_deck_loses(origin):
    """Rulebook: Issue Turn — if the heroes cannot draw an issue card because none remain
    in the issue deck, they immediately lose."""
    g = setup(origin)
    P.discard_from_deck(g, "issue")
    P.jump(g, "issue_turn")
    assert g.is_over
    assert g.outcome == "loss"
    assert g.loss_reason == "issue_deck_empty"
    assert len(g.legal_actions()) == 0
    with pytest.raises(RuntimeError):
        g.apply(L.A_PASS)


def test_issue_card_resolved_and_discarded_then_new_round(origin):
    """Rulebook: Issue Turn / End of Round — the heroes draw and resolve 1 issue card
    (Inside Man: 1 minion in the villain's panel), discard it, and a new round begins with
    a villain turn."""
    g = setup(origin)
    n = int(g.field("ideck_n"))
    inside = P.stack_issue_deck(g, ["Inside Man"])[0]
    P.stack_villain_deck(g, ["A Word in the Right Ear"])
    P.jump(g, "issue_turn")
    assert g.decision == "cunning"
    assert int(g.field("round")) == 2
    assert int(g.field("iloc")[inside]) == L.L_DISCARD
    assert int(g.field("ideck_n")) == n - 1
    assert [int(x) for x in g.field("minions")[1:5]] == [1, 0, 0, 0]
    assert gold(g) == 0


def test_staying_issue_card_goes_to_threat_area_as_problem(origin):
    """Rulebook: Issue Turn / Problem Cards — an issue card that says it stays is not
    discarded: it goes to a hero's threat area as a problem with its solve location (Laser
    Grid: 1 minion in panel 3, then stays, located in panel 3)."""
    g = setup(origin)
    grid = P.stack_issue_deck(g, ["Laser Grid"])[0]
    P.stack_villain_deck(g, ["A Word in the Right Ear"])
    P.jump(g, "issue_turn")
    f = g.field
    assert int(f("iloc")[grid]) == L.L_THREAT
    assert int(f("iowner")[grid]) == 0
    assert int(f("ipos")[grid]) == sp(g, "panel 3")
    assert int(f("ijust")[grid]) == 0
    assert int(f("minions")[3]) == 1


def test_staying_issue_card_activates_in_threat_phase(origin):
    """Rulebook: Threat Phase — a problem issue card in the threat area activates (Laser
    Grid deals 1 damage to the active hero)."""
    g = setup(origin, "C3")
    put_issue_in_threat(g, 0, "Laser Grid", "panel 3")
    P.jump(g, "hero_turn")
    g.apply(L.A_SPACE + sp(g, "D3"))
    g.apply(L.A_PASS)
    g.apply(L.A_SPACE + sp(g, "C3"))
    g.apply(L.A_PASS)
    assert g.decision == "damage" and int(g.field("dec_a")) == 1
    suffer(g)
    assert int(g.field("hdmg")[0]) == 1


def test_solving_issue_problem_discards_it_and_gains_clue(origin):
    """Rulebook: Problem Cards / Solve Actions — a problem with justice equal to its danger
    value is solved and discarded; the solver draws 1 clue (Laser Grid, danger 3, solved
    from panel 3)."""
    g = setup(origin, "panel 3")
    grid = put_issue_in_threat(g, 0, "Laser Grid", "panel 3")
    P.force_dice(g, [BURST, SUCCESS, SUCCESS])
    P.jump(g, "hero_turn")
    g.apply(L.A_SOLVE + sp(g, "panel 3"))
    assert int(g.field("iloc")[grid]) == L.L_DISCARD
    assert int(g.field("iowner")[grid]) == -1
    assert clues_held(g) == 1


def test_issue_problem_at_map_space_solvable_when_near(origin):
    """Rulebook: Problem Cards — a problem located in a map space (Jammed Phone Lines: the
    hero start space) is solved by a hero near that space."""
    g = setup(origin, "C7")  # adjacent to the start space B7
    jam = put_issue_in_threat(g, 0, "Jammed Phone Lines", "B7")
    P.force_dice(g, [SUCCESS, SUCCESS])
    P.jump(g, "hero_turn")
    assert L.A_SOLVE + sp(g, "B7") in g.legal_actions()
    g.apply(L.A_SOLVE + sp(g, "B7"))
    assert int(g.field("iloc")[jam]) == L.L_DISCARD
    assert clues_held(g) == 1


def test_flipped_scheme_overcome_is_removed_from_game(origin):
    """Rulebook: Scheme Cards — a Scheme card overcome (solved) on its non-Scheme side is
    removed from the game; the solver gains 1 clue (Frightened Customers, danger 2)."""
    g = setup(origin, "panel 2")
    i = set_scheme(g, 0, "Hostages at the Counter")
    P.flip_scheme(g, i)
    P.force_dice(g, [SUCCESS, SUCCESS])
    P.jump(g, "hero_turn")
    g.apply(L.A_SOLVE + sp(g, "panel 2"))
    assert int(g.field("iloc")[i]) == L.L_REMOVED
    assert clues_held(g) == 1
    assert int(g.field("vil_hidden")) == 0  # the flipped side had no hidden token to remove


def test_flipped_scheme_enemy_defeated_is_removed_and_gains_clue(origin):
    """Rulebook: Scheme Cards / Enemy Cards — a flipped Scheme card that is an enemy (Night
    Watchman Turned: health 4, defense 1) defeated by an attack is removed from the game and
    the hero gains 1 clue."""
    g = setup(origin, "C3")
    i = set_scheme(g, 0, "Cut the Cameras")
    P.flip_scheme(g, i, where="D3")
    P.set_card(g, i + L.T_I0, damage=2)
    P.force_dice(g, [SUCCESS, SUCCESS, SUCCESS])
    P.jump(g, "hero_turn")
    assert L.A_ATTACK + sp(g, "D3") in g.legal_actions()
    g.apply(L.A_ATTACK + sp(g, "D3"))  # 3 successes - defense 1 = 2 damage: 4 of 4
    assert int(g.field("iloc")[i]) == L.L_REMOVED
    assert int(g.field("ipos")[i]) == -1
    assert clues_held(g) == 1


# --- A Crisis Occurs ---------------------------------------------------------------------------

def test_crisis_resolves_issue_overview_crisis_effect(origin):
    """Rulebook: A Crisis Occurs — when a crisis occurs, each Crisis effect in play is
    resolved (Century Heist: capture the bystander nearest the villain, then the villain
    schemes: Marble Lobby places 1 minion in the villain's panel)."""
    g = setup(origin, "B1")
    put_bystander(g, "D6")  # D6 is the bystander nearest the villain (adjacent to E7)
    put_bystander(g, "C1")
    g.field("minion_supply")[...] = 1
    P.stack_villain_deck(g, ["Hired Help"])  # minion 2 (the last minion), minion 3 fails
    P.jump(g, "villain_turn")
    f = g.field
    assert event(g, "crises") == 1
    assert int(f("bystander_on")[sp(g, "D6")]) == 0
    assert int(f("bystander_on")[sp(g, "C1")]) == 1
    assert int(f("captured")[1]) == 1  # the panel nearest D6 is panel 1 (E7)
    assert int(f("minions")[2]) == 1


def test_issue_card_running_out_twice_is_one_crisis(origin):
    """Rulebook: A Crisis Occurs — a single card or effect triggers at most a single crisis:
    Shift Change places a minion in the villain's panel and one in panel 4 with the supply
    empty, and only one crisis occurs. The next card (Hired Help in the next villain turn,
    also short) triggers its own."""
    g = setup(origin, "B1")
    g.field("minion_supply")[...] = 0
    P.stack_issue_deck(g, ["Shift Change"])
    P.stack_villain_deck(g, ["Hired Help"])
    P.jump(g, "issue_turn")
    assert int(g.field("round")) == 2 and g.decision == "main"
    assert event(g, "crises") == 2
    assert int(g.field("minions").sum()) == 0


# --- Endings ---------------------------------------------------------------------------------

def test_defeating_villain_wins(origin):
    """Rulebook: Revealing the Villain / Dealing and Suffering Damage — when the villain is
    defeated the heroes win (Dowager, health 6, 5 damage, defense 1: 2 successes)."""
    g = setup(origin, "C3")
    P.set_villain(g, side="showdown", where="D3", owner=0, damage=5)
    P.stack_villain_deck(g, ["Contested Will"])  # no Showdown effect
    P.force_dice(g, [SUCCESS, SUCCESS, BLANK])
    P.jump(g, "hero_turn")
    g.apply(L.A_ATTACK + sp(g, "D3"))
    assert g.is_over
    assert g.outcome == "win"
    assert g.snapshot()["outcome"] == "win"
    assert len(g.legal_actions()) == 0


def test_villain_not_defeated_below_health(origin):
    """Rulebook: Defense Value — 2 successes against defense 1 deal only 1 damage: the
    villain with 4 damage (of 6) survives."""
    g = setup(origin, "C3")
    P.set_villain(g, side="showdown", where="D3", owner=0, damage=4)
    P.stack_villain_deck(g, ["Contested Will"])
    P.force_dice(g, [SUCCESS, SUCCESS, BLANK])
    P.jump(g, "hero_turn")
    g.apply(L.A_ATTACK + sp(g, "D3"))
    assert not g.is_over
    assert int(g.field("vil_damage")) == 5


def test_villain_scheming_in_vault_adds_gold(origin):
    """Rulebook: Villain Schemes — the villain schemes with its current panel's effect
    (Century Vault: add 1 gold)."""
    g = setup(origin)
    P.set_villain(g, where="panel 4")
    P.stack_villain_deck(g, ["A Word in the Right Ear"])
    P.jump(g, "villain_turn")
    g.apply(L.A_OPTION)  # scheme
    assert gold(g) == 1
    assert not g.is_over


def test_gold_reaching_three_loses(origin):
    """Rulebook: Overview / The Game Round — heroes lose if the villain completes the
    issue's objective (Century Heist: the gold counter reaches 3; Thermal Drill makes the
    villain scheme in the Century Vault)."""
    g = setup(origin)
    P.set_villain(g, where="panel 4")
    P.set_counter(g, "gold", 2)
    P.stack_issue_deck(g, ["Thermal Drill"])
    P.jump(g, "issue_turn")
    assert gold(g) == 3
    assert g.is_over
    assert g.outcome == "loss"
    assert g.loss_reason == "villain_objective"


def test_issue_turn_draws_exactly_one_issue_card(origin):
    """Rulebook: Issue Turn — exactly 1 issue card is drawn per issue turn."""
    g = setup(origin)
    n = int(g.field("ideck_n"))
    shift = P.stack_issue_deck(g, ["Shift Change"])[0]
    P.stack_villain_deck(g, ["A Word in the Right Ear"])
    P.jump(g, "issue_turn")
    assert int(g.field("ideck_n")) == n - 1
    assert int(g.field("iloc")[shift]) == L.L_DISCARD
    # Shift Change: 1 minion in the villain's panel (1) and 1 in panel 4
    assert [int(x) for x in g.field("minions")[1:5]] == [1, 0, 0, 1]
