"""Rulebook chapters: Crisis Cards, A Crisis Occurs and the Crisis Cards optional rule;
for crisis cards with a danger value also Problem Cards, Solve and Character and Problem
Cards.

The switch is ``rules={"crisis_cards": [id, ...]}`` (ids from ``configs/content/crises/``,
at most MAX_CRISES). Gameplay tests raise a crisis with the ``crisis`` op on a cleared
one-hero board. Cinderwick's Chemical Fire (danger 4, its crisis token on the red peril
space, D6 in Century Heist) is the crisis card with a danger value.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from rules_helpers import (
    BLANK,
    BURST,
    SUCCESS,
    clues_held,
    edited_content,
    event,
    invariant_checker,
    legal,
    put_bystander,
    roll_solve,
    run_op,
    setup,
    sp,
    suffer,
)

from hon_env import ContentError, Game, list_content, load_scenario
from hon_env import positions as P
from hon_env.content.loader import parse_crisis
from hon_env.core import interp
from hon_env.core.invariants import violations
from hon_env.describe import action_meanings
from hon_env.rollout import play_batch, random_policy
from hon_env.spec import layout as L
from hon_env.spec.obs_features import read, read_row
from hon_env.spec.ops import OP_CRISIS, OP_JUSTICE
from hon_env.spec.tables import MAX_CRISES

ABDUCTOR = "abductor_at_large"
MEANER = "mr_meaners_smear_campaign"
FIRE = "cinderwicks_chemical_fire"
FIRE_NAME = "Cinderwick's Chemical Fire"
FIRE_DANGER = 4
TOKEN = "D6"  # the red peril space of Century Heist: Cinderwick's crisis token


def crisis_scenario(ids, **kw):
    return load_scenario("origin_story", heroes=["majesty"], rules={"crisis_cards": ids}, **kw)


# --- content and the switch ---------------------------------------------------------------

def test_crisis_cards_are_a_content_kind():
    """Rulebook: Crisis Cards — optional crisis cards are listed like other content."""
    assert {ABDUCTOR, MEANER, FIRE} <= set(list_content()["crises"])


@pytest.mark.parametrize("value,message", [
    (["no_such_crisis"], "no crisis 'no_such_crisis'"),
    ([f"c{i}" for i in range(MAX_CRISES + 1)], f"at most {MAX_CRISES}"),
    ([ABDUCTOR, ABDUCTOR], "listed twice"),
    (ABDUCTOR, "expected a list"),
])
def test_crisis_cards_switch_is_validated(value, message):
    """Rulebook: Crisis Cards — each crisis card is one card (no repeats); a bad switch is
    a load error naming the rule."""
    with pytest.raises(ContentError, match=message) as err:
        load_scenario("origin_story", rules={"crisis_cards": value})
    assert "crisis_cards" in str(err.value)


def test_crisis_card_needs_a_crisis_effect(tmp_path: Path):
    """Rulebook: Crisis Cards — a crisis card adds a Crisis effect, so it must have one."""
    path = tmp_path / "quiet.yaml"
    path.write_text("format_version: 1\nid: quiet\nkind: crisis\nname: Quiet\ncrisis: []\n")
    with pytest.raises(ContentError, match="needs a Crisis effect"):
        parse_crisis(path)


CARD_TESTS = {  # one scenario test per crisis card (docs/card_coverage.md)
    ABDUCTOR: "test_crisis_card_setup_effect_follows_the_issue_setup",
    MEANER: "test_crisis_card_effect_can_ask_the_active_hero",
    "lowtiders_storm_surge": "test_storm_surge_advances_the_villain_at_a_crisis",
    FIRE: "test_cinderwicks_chemical_fire",
}


def test_every_crisis_card_is_tested_here():
    """Card coverage: every crisis card of the content folder has a scenario test here, and
    docs/card_coverage.md lists it."""
    assert set(CARD_TESTS) == set(list_content()["crises"])
    doc = (Path(__file__).resolve().parents[1] / "docs" / "card_coverage.md").read_text()
    for name in CARD_TESTS.values():
        assert callable(globals()[name]) and f"`{name}`" in doc, name


# --- setup and crises -------------------------------------------------------------------------

def test_crisis_card_setup_effect_follows_the_issue_setup():
    """Rulebook: Crisis Cards (optional rule) — the Setup effect of each crisis card is
    followed during setup: The Abductor at Large captures 1 more bystander."""
    with_card = crisis_scenario([ABDUCTOR])
    plain = load_scenario("origin_story", heroes=["majesty"])
    for seed in range(3):
        g, base = Game(with_card, seed=seed), Game(plain, seed=seed)
        assert int(g.field("captured").sum()) == int(base.field("captured").sum()) + 1
        assert not violations(g.state, with_card.tables)


def test_crisis_resolves_crisis_cards_after_the_issue_overview():
    """Rulebook: Crisis Cards / A Crisis Occurs — a crisis resolves the Issue Overview's
    Crisis effect, then each crisis card's, as one crisis: Century Heist captures the
    bystander nearest the villain, then the Abductor captures the next one."""
    sc = crisis_scenario([ABDUCTOR])
    g = setup(sc, "B1")
    put_bystander(g, "D6")  # nearest the villain (E7)
    put_bystander(g, "C1")
    run_op(g, OP_CRISIS)
    f = g.field
    assert event(g, "crises") == 1
    assert int(f("bystander_on")[sp(g, "D6")]) == 0
    assert int(f("bystander_on")[sp(g, "C1")]) == 0
    assert int(f("captured").sum()) == 2


def test_crisis_card_effect_can_ask_the_active_hero():
    """Rulebook: Crisis Cards — Mr. Meaner's Smear Campaign makes the active hero discard
    1 card or suffer 1 damage at every crisis."""
    sc = crisis_scenario([MEANER])
    g = setup(sc, "B1")
    run_op(g, OP_CRISIS)
    assert event(g, "crises") == 1
    assert g.decision == "discard_or_damage"
    assert g.current_seat == 0


# --- random play --------------------------------------------------------------------------------

def test_random_play_with_crisis_cards_keeps_invariants():
    """Random legal play with both crisis cards ends in a win or a loss with the
    invariants intact at every step, and crises happen."""
    rng = np.random.default_rng(5)
    sc = load_scenario("origin_story", heroes=["majesty", "stride"],
                       rules={"crisis_cards": [ABDUCTOR, MEANER]})

    check = invariant_checker(sc)

    res = play_batch(sc, np.arange(16, dtype=np.int64), random_policy(rng), on_step=check)
    assert np.isin(res.outcome, [L.OUT_WIN, L.OUT_LOSS]).all()


def test_storm_surge_advances_the_villain_at_a_crisis():
    """Rulebook: Crisis Cards — Lowtider's Storm Surge makes the villain advance at every
    crisis, after the Issue Overview's effect."""
    sc = crisis_scenario(["lowtiders_storm_surge"])
    g = setup(sc, "B1")
    before = event(g, "villain_advances")
    run_op(g, OP_CRISIS)
    assert event(g, "crises") == 1
    assert event(g, "villain_advances") == before + 1


@pytest.mark.slow
def test_random_play_with_every_optional_card_rule_on_every_pair():
    """Every villain x issue pair with both special Minion cards, every crisis card and (for
    small teams) the Nemesis rule together: the invariants hold and every game ends."""
    rng = np.random.default_rng(3)
    content = list_content()
    k = 0
    for villain in content["villains"]:
        for issue in content["issues"]:
            for size in (1, 3, 5):
                team = list(rng.choice(content["heroes"], size=size))
                rules = {"special_minions": sorted(content["minions"])[:2],
                         "crisis_cards": sorted(content["crises"])[:MAX_CRISES],
                         "nemeses": 1 if size < 5 else 0}
                sc = load_scenario("origin_story", heroes=team, villain=villain, issue=issue,
                                   rules=rules)

                check = invariant_checker(sc, team)

                res = play_batch(sc, np.arange(16, dtype=np.int64) + 100 * k,
                                 random_policy(rng), on_step=check)
                assert np.isin(res.outcome, [L.OUT_WIN, L.OUT_LOSS]).all()
                k += 1


# --- crisis cards with a danger value ------------------------------------------------------

def fire_game(where="D5", cards=("Throne Breaker",), heroes=("majesty",), others=()):
    """A cleared board with Cinderwick's Chemical Fire (crisis slot 0 after ``others``)."""
    sc = load_scenario("origin_story", heroes=list(heroes),
                       rules={"crisis_cards": [*others, FIRE]})
    return setup(sc, where, cards)


def fire_slot(g: Game) -> int:
    return g.scenario.crisis_card_names.index(FIRE_NAME)


def solve_at_token(g: Game, faces) -> None:
    P.force_dice(g, list(faces))
    P.jump(g, "hero_turn")
    g.apply(L.A_SOLVE + sp(g, TOKEN))


def test_crisis_card_with_danger_value_puts_its_token_on_the_map():
    """Rulebook: Crisis Cards — crisis tokens represent where heroes can solve a crisis card
    with a danger value: Cinderwick's token stands on the red peril space from setup; a crisis
    card without a danger value has no token. Every seed, every issue board."""
    for issue in list_content()["issues"]:
        sc = load_scenario("origin_story", heroes=["majesty"], issue=issue,
                           rules={"crisis_cards": [ABDUCTOR, FIRE]})
        red = int(sc.tables.peril_space[0])
        for seed in range(2):
            g = Game(sc, seed=seed)
            assert g.field("crisis_pos").tolist() == [-1, red, -1, -1]
            assert g.field("crisis_just").tolist() == [0] * MAX_CRISES
            assert not violations(g.state, sc.tables)


def test_solve_at_the_token_places_justice_on_the_crisis_card():
    """Rulebook: Crisis Cards / Solve — a hero near the crisis token may Solve there; with
    the crisis card the only problem in the space every success is justice on it."""
    g = fire_game("D5")
    k = fire_slot(g)
    solve_at_token(g, [SUCCESS, SUCCESS])
    suffer(g)
    assert int(g.field("crisis_just")[k]) == 2
    assert int(g.field("crisis_pos")[k]) == sp(g, TOKEN)
    assert event(g, "justice_placed") == 2 and event(g, "problems_solved") == 0


def test_solve_assigns_successes_between_the_crisis_and_a_peril_there():
    """Rulebook: Rolling and Resolving Hero Dice 7b — successes are distributed among the
    problems in the target space: the crisis card (target T_CRISIS0 + k) and the Gala
    Firebomb peril token sharing the red peril space."""
    g = fire_game("D5")
    k = fire_slot(g)
    bomb = P.add_villain_card(g, "Gala Firebomb", 0)
    solve_at_token(g, [SUCCESS, SUCCESS])
    assert g.decision == "assign"
    assert legal(g) == {L.A_TARGET + L.T_V0 + bomb, L.A_TARGET + L.T_CRISIS0 + k}
    assert g.action_to_string(L.A_TARGET + L.T_CRISIS0 + k).endswith(FIRE_NAME)
    g.apply(L.A_TARGET + L.T_CRISIS0 + k)
    g.apply(L.A_TARGET + L.T_V0 + bomb)
    suffer(g)
    assert int(g.field("crisis_just")[k]) == 1 and int(g.field("vjust")[bomb]) == 1


def test_crisis_card_cannot_be_solved_from_elsewhere():
    """Rulebook: Problem Cards / Crisis Cards — the token is where the card is solved: a
    hero two spaces away has no Solve there and a justice effect of range 1 cannot pick it;
    next to the token both can."""
    far = fire_game("C5")  # two spaces from D6
    P.jump(far, "hero_turn")
    assert L.A_SOLVE + sp(far, TOKEN) not in legal(far)
    run_op(far, OP_JUSTICE, 1, 1)
    assert far.decision == "main"  # no problem in range: the effect does nothing
    assert int(far.field("crisis_just")[fire_slot(far)]) == 0
    near = fire_game("E6")
    P.jump(near, "hero_turn")
    assert L.A_SOLVE + sp(near, TOKEN) in legal(near)


def test_justice_effect_can_target_the_crisis_card():
    """Rulebook: Crisis Cards — crisis cards with a danger value can be targeted by other
    effects that place justice (a justice op of range 3, with a second problem in range)."""
    g = fire_game("C5")
    k = fire_slot(g)
    bomb = P.add_villain_card(g, "Gala Firebomb", 0, "D5")
    P.jump(g, "hero_turn")
    run_op(g, OP_JUSTICE, 2, 3)
    assert g.decision == "pick_target"
    assert legal(g) == {L.A_TARGET + L.T_V0 + bomb, L.A_TARGET + L.T_CRISIS0 + k}
    g.apply(L.A_TARGET + L.T_CRISIS0 + k)
    assert int(g.field("crisis_just")[k]) == 2


def test_solved_crisis_card_gives_a_clue_runs_its_solved_effect_and_leaves_play():
    """Rulebook: Problem Cards / Character and Problem Cards — justice equal to the danger
    value solves the card: the hero who placed the final justice gains 1 clue, Cinderwick's
    Solved effect gives that hero 1 more, and the card leaves play with its token."""
    g = fire_game("D5")
    k = fire_slot(g)
    g.field("crisis_just")[k] = FIRE_DANGER - 1
    solve_at_token(g, [SUCCESS, BLANK])
    suffer(g)
    assert clues_held(g) == 2
    assert event(g, "problems_solved") == 1
    assert int(g.field("crisis_out")[k]) == 1
    assert int(g.field("crisis_pos")[k]) == -1 and int(g.field("crisis_just")[k]) == 0
    assert L.A_SOLVE + sp(g, TOKEN) not in legal(g)
    # (the hand-built position breaks unrelated invariants: ``setup`` removes the Schemes)
    assert not [v for v in violations(g.state, g.scenario.tables) if "crisis" in v]
    card = g.snapshot()["crisis_cards"][k]
    assert card["solved"] and card["token"] is None


def test_solved_effect_resolves_before_the_nearby_enemies_inflict():
    """Rulebook: Character and Problem Cards — a card reaching its danger value is solved
    before the players complete any other effect: the Solved effect's clue is in hand when
    the enemies near the solver inflict after the Solve."""
    g = fire_game("D5")
    k = fire_slot(g)
    P.add_villain_card(g, "Chauffeur Vance", 0, "C5")  # next to D5: inflicts after a Solve
    g.field("crisis_just")[k] = FIRE_DANGER - 1
    solve_at_token(g, [SUCCESS, BLANK])
    assert g.decision == "damage"
    assert clues_held(g) == 2


def test_solved_crisis_card_no_longer_resolves_its_crisis_effect():
    """Rulebook: Crisis Cards / A Crisis Occurs — Cinderwick's Crisis effect (each hero
    suffers 1 damage) resolves at every crisis while the card is in play, and no longer once
    it is solved; the Issue Overview's Crisis effect still resolves."""
    g = fire_game("B1", heroes=("majesty", "stride"))
    g.field("hloc")[1] = sp(g, "C1")
    run_op(g, OP_CRISIS)
    suffer(g)
    assert g.field("hdmg")[:2].tolist() == [1, 1]
    k = fire_slot(g)
    g.field("crisis_pos")[k] = -1
    g.field("crisis_out")[k] = 1
    put_bystander(g, "D6")
    run_op(g, OP_CRISIS)
    suffer(g)
    assert event(g, "crises") == 2
    assert g.field("hdmg")[:2].tolist() == [1, 1]
    assert int(g.field("captured").sum()) == 1  # the Century Heist crisis still captures


def test_danger_per_hero_and_token_in_a_panel(tmp_path: Path):
    """Rulebook: Problem Cards — a danger value with the per-hero icon scales with the
    heroes; a problem located in a scheme panel can only be solved from inside that panel
    (a crisis token on panel 2's scheme space)."""
    root = tmp_path / "configs"
    shutil.copytree(Path(__file__).resolve().parents[1] / "configs", root)
    (root / "content" / "crises" / "vault_fire.yaml").write_text(
        "format_version: 1\nid: vault_fire\nkind: crisis\nname: Vault Fire\n"
        "danger: 2\ndanger_per_hero: true\ntoken: {at: panel_2}\n"
        "crisis: [{op: advance}]\n")
    sc = load_scenario("origin_story", heroes=["majesty", "stride"],
                       rules={"crisis_cards": ["vault_fire"]}, content_dir=root / "content")
    g = setup(sc, "G5")  # next to panel 2's scheme space, not in the panel
    g.field("hloc")[1] = sp(g, "B1")
    assert g.snapshot()["crisis_cards"][0]["danger"] == 4
    P.jump(g, "hero_turn")
    assert L.A_SOLVE + sp(g, "panel 2") not in legal(g)
    P.place_hero(g, 0, "panel 2")
    roll_solve(g, "panel 2", [SUCCESS, SUCCESS])
    suffer(g)
    assert int(g.field("crisis_just")[0]) == 2 and int(g.field("crisis_out")[0]) == 0


@pytest.mark.parametrize("text,message", [
    ("danger: 3\n", "needs a crisis token"),
    ("token: {at: start}\n", "only a crisis card with a danger value"),
    ("solved: [{op: gain_clue}]\n", "only a crisis card with a danger value"),
    ("danger: 3\ntoken: {at: peril_pink}\n", "not a location"),
    ("danger: 3\ntoken: {at: start, near: 1}\n", "unknown key"),
    ("danger: 0\ntoken: {at: start}\n", "danger"),
])
def test_crisis_card_danger_keys_are_validated(tmp_path: Path, text, message):
    """Content: a danger value needs a crisis token at a known location; a token or a
    Solved effect without a danger value is an error naming the field."""
    path = tmp_path / "bad.yaml"
    path.write_text("format_version: 1\nid: bad\nkind: crisis\nname: Bad\n"
                    "crisis: [{op: advance}]\n" + text)
    with pytest.raises(ContentError, match=message):
        parse_crisis(path)


def test_crisis_token_location_is_checked_against_the_board(tmp_path: Path):
    """Content: crisis cards are issue-agnostic, so a token in a panel the board lacks is a
    load error naming the crisis card file and field."""
    root = tmp_path / "configs"
    shutil.copytree(Path(__file__).resolve().parents[1] / "configs", root)
    (root / "content" / "crises" / "far_fire.yaml").write_text(
        "format_version: 1\nid: far_fire\nkind: crisis\nname: Far Fire\n"
        "danger: 2\ntoken: {at: panel_6}\ncrisis: [{op: advance}]\n")
    with pytest.raises(ContentError, match="not a location on this board") as err:
        load_scenario("origin_story", rules={"crisis_cards": ["far_fire"]},
                      content_dir=root / "content")
    assert "far_fire.yaml" in str(err.value) and "token.at" in str(err.value)


def test_observation_and_names_show_the_crisis_card():
    """The observation's crisis block (present, danger value, solved, danger, justice,
    justice needed, distance, solvable from here) and the crisis-token board feature; the
    action meanings name the crisis target."""
    g = fire_game("D5", others=(ABDUCTOR,))
    P.jump(g, "hero_turn")
    g.field("crisis_just")[1] = 1
    obs = g.observation(0)
    assert read_row(obs, "crises", 0) == {
        "present": 1, "has_danger": 0, "solved": 0, "danger": 0, "justice": 0,
        "justice_needed": 0, "distance": 0, "solvable_here": 0}
    assert read_row(obs, "crises", 1) == pytest.approx({
        "present": 1, "has_danger": 1, "solved": 0, "danger": 0.4, "justice": 0.25,
        "justice_needed": 0.3, "distance": 0.1, "solvable_here": 1})
    assert read(obs, "spaces.crisis_tokens", sp(g, TOKEN)) == 1.0
    assert read(obs, "spaces.crisis_tokens", sp(g, "D5")) == 0.0
    names = action_meanings(g.scenario)
    assert names[L.A_TARGET + L.T_CRISIS0 + 1] == f"target {FIRE_NAME}"
    assert names[L.A_TARGET + L.T_CRISIS0 + 2] == "target crisis card 3"


def test_cinderwicks_chemical_fire():
    """Card scenario, Cinderwick's Chemical Fire (danger 4, token on the red peril space):
    at a crisis each hero suffers 1 damage; solving it gives the solver 2 clues (the problem
    card's and its Solved effect's) and ends the damage."""
    g = fire_game("D7", cards=())
    run_op(g, OP_CRISIS)
    suffer(g)
    assert int(g.field("hdmg")[0]) == 1
    solve_at_token(g, [BURST, BURST, SUCCESS, SUCCESS])  # Majesty's 2 dice: 4 successes
    suffer(g)
    assert clues_held(g) == 2
    assert g.snapshot()["crisis_cards"][0]["solved"]
    damage = int(g.field("hdmg")[0])
    run_op(g, OP_CRISIS)
    suffer(g)
    assert int(g.field("hdmg")[0]) == damage


def test_random_play_with_a_crisis_card_with_danger_value_keeps_invariants():
    """Random legal play with Cinderwick's Chemical Fire (and the Abductor) ends every game
    with the invariants intact at every step, including the crisis token and justice ones,
    and some games solve the fire."""
    rng = np.random.default_rng(11)
    sc = load_scenario("origin_story", heroes=["majesty", "cipher"],
                       rules={"crisis_cards": [ABDUCTOR, FIRE]})

    check = invariant_checker(sc)

    seen = []
    res = play_batch(sc, np.arange(64, dtype=np.int64), random_policy(rng),
                     on_step=lambda s, m: (check(s, m), seen.append(
                         L.field_view(s, "crisis_out")[:, 1].copy())))
    assert np.isin(res.outcome, [L.OUT_WIN, L.OUT_LOSS]).all()
    assert np.max(seen, axis=0).sum() > 0  # the fire was solved in some game


@pytest.mark.slow
def test_random_play_with_a_crisis_card_with_danger_value_many_games():
    """A few hundred random games with Cinderwick's Chemical Fire over every issue board and
    team sizes 1-4: no invariant is ever violated and every game ends."""
    rng = np.random.default_rng(12)
    content = list_content()
    for i, issue in enumerate(content["issues"]):
        for size in (1, 2, 4):
            team = list(rng.choice(content["heroes"], size=size))
            sc = load_scenario("origin_story", heroes=team, issue=issue,
                               rules={"crisis_cards": [FIRE, MEANER]})

            check = invariant_checker(sc)

            res = play_batch(sc, np.arange(25, dtype=np.int64) + 1000 * i + size,
                             random_policy(rng), on_step=check)
            assert np.isin(res.outcome, [L.OUT_WIN, L.OUT_LOSS]).all()


# --- cards with the Crisis trait inside the villain and issue decks --------------------------

def _decks_with_crisis_trait(tmp_path: Path, villain_extra: str, issue_extra: str):
    """A copy of the content folder where Dowager's Hired Help and Century Heist's Thermal
    Drill carry extra keys (the shipped decks have no Crisis-trait card)."""
    content = edited_content(tmp_path, {
        "villains/dowager.yaml": ("    ploys: [minion_2, minion_3]\n", villain_extra),
        "issues/century_heist.yaml": ("  - name: Thermal Drill\n", issue_extra)})
    return load_scenario("origin_story", content_dir=content)


def test_deck_cards_with_the_crisis_trait_join_the_issue_play_area(tmp_path: Path):
    """Rulebook: Crisis Cards — a card with the Crisis trait goes to the issue play area
    when it enters play (right of the cards already there) and adds its Crisis effect,
    resolved after the Issue Overview's at every crisis; it never returns to its deck."""
    sc = _decks_with_crisis_trait(
        tmp_path, "    crisis: [{op: place_minions, n: 2, panel: 3}]\n",
        "    crisis: [{op: gain_clue, n: 1}]\n")
    g = setup(sc, "B1")
    hired = P.stack_villain_deck(g, ["Hired Help"])[0]
    drill = P.stack_issue_deck(g, ["Thermal Drill"])[0]
    f = g.field
    for zone, n, i, op in ((f("vloc"), f("vdeck_n"), hired, interp.F_VCARD_END),
                           (f("iloc"), f("ideck_n"), drill, interp.F_ICARD_END)):
        n[...] -= 1  # drawn from the top of its deck, resolved: now the end of the card
        zone[i] = L.L_PENDING
        run_op(g, op, a=i)
    assert int(f("vloc")[hired]) == int(f("iloc")[drill]) == L.L_ISSUE_AREA
    assert g.snapshot()["issue"]["crisis_area"] == ["Hired Help", "Thermal Drill"]
    minions, clues = int(f("minions")[3]), clues_held(g)
    run_op(g, OP_CRISIS)
    assert event(g, "crises") == 1
    assert int(f("minions")[3]) == minions + 2 and clues_held(g) == clues + 1
    run_op(g, OP_CRISIS)  # they stay: every crisis resolves them again
    assert int(f("minions")[3]) == minions + 4
    assert not [v for v in violations(g.state, sc.tables) if "deck" in v]


@pytest.mark.parametrize("villain_extra,issue_extra,message", [
    ("    crisis: []\n", "", "needs at least one op"),
    ("    crisis: [{op: gain_focus}]\n", "", "cannot be used in a villain effect"),
    ("", "    stays: {danger: 2, location: start}\n    crisis: [{op: scheme}]\n",
     "cannot also have this"),
])
def test_crisis_trait_is_validated(tmp_path: Path, villain_extra, issue_extra, message):
    """Rulebook: Crisis Cards — a Crisis-trait card needs a villain-context Crisis effect,
    and it cannot also stay as a problem (or attach, or be a bystander): it lives in the
    issue play area."""
    with pytest.raises(ContentError, match=message):
        _decks_with_crisis_trait(tmp_path, villain_extra, issue_extra)


def test_crisis_trait_only_on_ploy_and_issue_cards(tmp_path: Path):
    """Rulebook: Crisis Cards — lackeys and perils keep their figure or token in a threat
    area, so only Ploy and issue cards take the Crisis trait."""
    content = edited_content(tmp_path, {"villains/dowager.yaml": (
        "    activate: [{op: enemy_move, n: 3}, {op: inflict}]\n", "    crisis: [{op: scheme}]\n")})
    with pytest.raises(ContentError, match="Chauffeur Vance.*crisis.*unknown key"):
        load_scenario("origin_story", content_dir=content)
