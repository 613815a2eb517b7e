"""Scenario tests for the villain decks (Dowager, Refuser) and their Villain cards.

Every villain card with an effect beyond its ploy icons is played here: Activate effects
of lackeys and perils in a threat phase, special effects in the villain turn, Showdown
effects when the revealed villain is attacked, and the Villain cards' own Activate
effects. Cards with only ploy icons (Contested Will, Servants' Entrance, Old Money,
Salvage Rights) are covered by the ploy-icon rule tests; Bodyguard Contract's attach rule
by ``test_rules_ops.py``.

Each test compares the countable public state (``rules_helpers.summary``) before and after
the card resolves: the change must be exactly the card's effect, so an extra or missing
op fails. The board is Century Heist (panels: 1 E7, 2 H5, 3 A3, 4 H1), cleared.
"""

from __future__ import annotations

import pytest
from rules_helpers import (
    BLANK,
    SUCCESS,
    answer_until,
    changes,
    dist,
    put_bystander,
    put_minions,
    run_program,
    scenario,
    setup,
    sp,
    space_at,
    summary,
    threat_phase_changes,
)

from hon_env import Game
from hon_env import positions as P
from hon_env.spec import layout as L
from hon_env.spec.tables import VC_SHOWDOWN_PROG, VC_SPECIAL_PROG, VC_TYPE, VT_PLOY

DUO = ("majesty", "majesty")  # two seats keep the "one" and the "5-6" scaling cards
STOP_CARD = {"dowager": "A Word in the Right Ear", "refuser": "Arc Welder"}  # a lone cunning


# --- Showdown effects ---------------------------------------------------------------------------

HEAL = {"villain_damage": -1}
HEAL2 = {"villain_damage": -2}
HIT1 = {"damage0": 1}
HIT2 = {"damage0": 2}
MINION = {"minions2": 1, "minion_supply": -1}  # the villain (G5) is nearest panel 2 (H5)
DISCARD = {"hand0": -1}
SHOWDOWN = [
    ("dowager", "Hatchet Hollis", HIT1),
    ("dowager", "Miss Tallow, Bookkeeper", HEAL),
    ("dowager", "Favours Called In", MINION),
    ("dowager", "Tea with the Board", HEAL),
    ("dowager", "Old Family Retainers", MINION),
    ("dowager", "A Word in the Right Ear", DISCARD),
    ("dowager", "Charity Gala", HIT1),
    ("dowager", "Hired Help", {}),  # moves toward Majesty, already next to it
    ("dowager", "Bodyguard Contract", {}),  # the same
    ("dowager", "Silver Stiletto", HIT2),
    ("dowager", "Family Heirlooms", HEAL),
    ("dowager", "The Dowager's Cane", HIT1),
    ("dowager", "Estate Auction", HEAL2),
    ("dowager", "Pearls and Poison", {"hand0": -1, "damage1": 1}),  # seat 1 holds no card
    ("dowager", "Whispered Threats", DISCARD),
    ("dowager", "Grand Entrance", MINION),
    ("dowager", "Ruthless Matriarch", HIT2),
    ("dowager", "Debts Called In", HEAL),
    ("refuser", "Phase II Brinkbot", HIT1),
    ("refuser", "Rivet Turret", {"def_bonus_villain": 1}),
    ("refuser", "Magnet Mule", {"def_bonus_lackeys": 1}),
    ("refuser", "Drone Nest", MINION),
    ("refuser", "Scrap Run", MINION),
    ("refuser", "Spare Parts Bin", HEAL),
    ("refuser", "Bolted-On Plating", {"def_bonus_villain": 1}),
    ("refuser", "Junkyard Pack", HIT1),
    ("refuser", "Arc Welder", HIT2),
    ("refuser", "Overclocked Servos", {}),  # moves toward Majesty, already next to it
    ("refuser", "Magnetic Sweep", DISCARD),
    ("refuser", "Drone Swarm", MINION),
    ("refuser", "Shrapnel Burst", {"damage0": 1, "damage1": 1}),
    ("refuser", "Tinkerer's Gambit", HIT2),
    ("refuser", "Emergency Reboot", HEAL2),
    ("refuser", "Scrapheap Ambush", MINION),
    ("refuser", "Tin Can Decoys", {"def_bonus_villain": 1}),
    ("refuser", "Junk Barricade", {"def_bonus_villain": 2}),
    ("refuser", "Slim Pickings", DISCARD),
    ("refuser", "Reverse-Engineered Gadget", HIT1),
    ("refuser", "The Big Wrench", HIT2),
]


def showdown_game(villain: str, card: str) -> tuple[Game, int]:
    """Majesty (seat 0, holding one card) on F5 next to the revealed villain on G5; seat 1
    far away on B1 with an empty hand; ``card`` on top of the villain deck."""
    g = setup(scenario(DUO, villain), "F5", cards=("Throne Breaker",))
    P.empty_hand(g, 1)
    P.place_hero(g, 1, "B1")
    P.set_villain(g, side="showdown", where="G5", owner=0, damage=3)
    c = P.stack_villain_deck(g, [card])[0]
    P.jump(g, "hero_turn")
    assert dist(g, "G5", "panel 2") == 1 and dist(g, "F5", "G5") == 1
    return g, c


@pytest.mark.parametrize("villain,card,expected", SHOWDOWN, ids=[c for _, c, _ in SHOWDOWN])
def test_showdown_effect(villain, card, expected):
    """Rulebook: Rolling and Resolving Hero Dice step 5 — attacking the revealed villain,
    the hero draws a villain card and resolves only its Showdown effect (not its ploy
    icons), then discards it. Blank dice: the attack itself changes nothing."""
    g, c = showdown_game(villain, card)
    before = summary(g)
    P.force_dice(g, [BLANK] * 3)
    g.apply(L.A_ATTACK + sp(g, "G5"))
    answer_until(g)
    assert changes(before, summary(g)) == expected
    assert int(g.field("vloc")[c]) == L.L_DISCARD


def test_every_showdown_effect_is_listed():
    """Guard: the table above names every card of both decks that has a Showdown effect."""
    for villain in ("dowager", "refuser"):
        sc = scenario(DUO, villain)
        with_effect = {n for i, n in enumerate(sc.villain_card_names)
                       if n and sc.tables.vcard[i, VC_SHOWDOWN_PROG] >= 0}
        assert with_effect == {c for v, c, _ in SHOWDOWN if v == villain}


@pytest.mark.parametrize("card,defense", [("Tin Can Decoys", 2), ("Junk Barricade", 3)])
def test_showdown_defense_bonus_applies_to_the_same_attack(card, defense):
    """Rulebook: Rolling and Resolving Hero Dice steps 5 and 7 / Defense Value — the
    Showdown effect resolves before successes are spent, so Refuser's raised defense
    (1 printed + the card's bonus) already reduces this attack's 3 successes."""
    g, _ = showdown_game("refuser", card)
    P.force_dice(g, [SUCCESS] * 3)
    g.apply(L.A_ATTACK + sp(g, "G5"))
    assert int(g.field("vil_damage")) == 3 + (3 - defense)


MOVING_SHOWDOWN = [
    ("dowager", "Hired Help", 2, {}),
    ("dowager", "Bodyguard Contract", 2, {}),
    ("dowager", "Grand Entrance", 3, {"minion_supply": -1}),
    ("refuser", "Overclocked Servos", 2, {}),
    ("refuser", "Scrapheap Ambush", 2, {"minion_supply": -1}),
]


@pytest.mark.parametrize("villain,card,n,extra", MOVING_SHOWDOWN,
                         ids=[c for _, c, *_ in MOVING_SHOWDOWN])
def test_showdown_villain_move(villain, card, n, extra):
    """Rulebook: Movement and Targeting Priority — the Showdown effect moves the villain n
    spaces toward the nearest hero (run on its own: an attacker always stands next to the
    villain, so in an attack the move has nowhere to go)."""
    g = setup(scenario(DUO, villain), "C3")
    P.place_hero(g, 1, "B7")
    start = next(s for s in range(len(g.scenario.space_labels))
                 if dist(g, s, "C3") == 5 and dist(g, s, "B7") > 5)
    P.set_villain(g, side="showdown", where=start, owner=0)
    P.jump(g, "hero_turn")
    before = summary(g)
    i = g.scenario.villain_card_names.index(card)
    run_program(g, int(g.scenario.tables.vcard[i, VC_SHOWDOWN_PROG]), hero=0, src=i)
    assert dist(g, int(g.field("vil_loc")), "C3") == 5 - n
    after = changes(before, summary(g))
    after.pop("villain")
    minions = {k: v for k, v in after.items() if k.startswith("minions")}
    assert sum(minions.values()) == -extra.get("minion_supply", 0)
    assert {k: v for k, v in after.items() if not k.startswith("minions")} == extra


# --- special effects (villain turn) ---------------------------------------------------------

def special_game(villain: str, card: str, *, hero_at="C3", bystander=None, minions=None):
    """Two heroes (seat 0 holds one card, seat 1 none, on B1); the villain schemes in
    panel 1 (E7); ``card`` is drawn by seat 0, then seat 1 draws a lone-cunning card, whose
    question stops the test with the special effect and the icons resolved."""
    g = setup(scenario(DUO, villain), hero_at, cards=("Throne Breaker",))
    P.empty_hand(g, 1)
    P.place_hero(g, 1, "B1")
    if bystander:
        put_bystander(g, bystander)
    for panel, n in (minions or {}).items():
        put_minions(g, panel, n)
    P.stack_villain_deck(g, [card, STOP_CARD[villain]])
    return g


def play_special(g: Game) -> list:
    before = summary(g)
    P.jump(g, "villain_turn")
    seen = answer_until(g, stop=lambda g: g.decision == "cunning" and g.current_seat == 1)
    assert g.decision == "cunning" and g.current_seat == 1
    return changes(before, summary(g)), seen


SPECIAL = [
    # villain, card, position options, expected change (icons included)
    ("dowager", "Calling Card", {},
     {"minions1": 1, "minions2": 1, "minions3": 1, "minions4": 1, "minion_supply": -4}),
    # cunning (inflict 1) + 1 damage to each hero near the villain: Majesty on D7, near E7
    ("dowager", "The Dowager's Cane", {"hero_at": "D7"}, {"damage0": 2}),
    ("dowager", "The Dowager's Cane", {}, {"damage0": 1}),  # far from the villain
    # minion_4, cunning, capture the bystander on D7 (nearest the villain)
    ("dowager", "Shell Company", {"bystander": "D7"},
     {"minions4": 1, "minion_supply": -1, "damage0": 1, "captured": 1,
      "bystanders_on_map": -1}),
    # each hero discards or suffers 1: Majesty discards, seat 1 has no card
    ("dowager", "Pearls and Poison", {}, {"hand0": -1, "damage1": 1}),
    # minion_3, minion_4; only 2 minions on the board: no scheme
    ("dowager", "Pay Off the Guards", {},
     {"minions3": 1, "minions4": 1, "minion_supply": -2}),
    # with 4 more in panel 2 there are 6: the villain schemes in the Marble Lobby (+1 minion)
    ("dowager", "Pay Off the Guards", {"minions": {2: 4}},
     {"minions1": 1, "minions3": 1, "minions4": 1, "minion_supply": -3}),
    # two cunning icons (inflict 1 each), then the villain inflicts (1)
    ("dowager", "Ruthless Matriarch", {}, {"damage0": 3}),
    ("dowager", "Debts Called In", {"bystander": "D7"},
     {"minions1": 1, "minion_supply": -1, "captured": 1, "bystanders_on_map": -1}),
    ("refuser", "Bolted-On Plating", {}, {"damage0": 1, "def_bonus_lackeys": 1}),
    ("refuser", "Overclocked Servos", {},
     {"def_bonus_lackeys": 1, "minions1": 1, "minion_supply": -1, "damage0": 1}),
    # bystander icon places one, then the one on D7 (nearest the villain) is captured
    ("refuser", "Magnetic Sweep", {"bystander": "D7"}, {"bystander_supply": -1, "captured": 1}),
    ("refuser", "Shrapnel Burst", {}, {"damage0": 1, "damage1": 1}),
    ("refuser", "Assembly Line", {}, {"minions2": 1, "minions3": 1, "minion_supply": -2}),
    ("refuser", "Assembly Line", {"minions": {4: 4}},
     {"minions1": 1, "minions2": 1, "minions3": 1, "minion_supply": -3}),
    ("refuser", "Emergency Reboot", {}, {"def_bonus_lackeys": 2}),
    ("refuser", "Junk Barricade", {},
     {"minions4": 1, "def_bonus_lackeys": 1, "minions1": 1, "minion_supply": -2}),
    ("refuser", "The Big Wrench", {}, {"damage0": 2}),
]


@pytest.mark.parametrize("villain,card,where,expected", SPECIAL,
                         ids=[f"{c}-{k}" for k, (_, c, _, _) in enumerate(SPECIAL)])
def test_special_effect(villain, card, where, expected):
    """Rulebook: Ploy Icons (special icon) / Resolving Villain Cards — the drawn card's
    icons resolve left to right, the special icon running the card's special effect."""
    g = special_game(villain, card, **where)
    got, _ = play_special(g)
    assert got == expected


def test_every_special_effect_is_listed():
    """Guard: the table above plays every card of both decks that has a special effect."""
    for villain in ("dowager", "refuser"):
        sc = scenario(DUO, villain)
        with_effect = {n for i, n in enumerate(sc.villain_card_names)
                       if n and sc.tables.vcard[i, VC_SPECIAL_PROG] >= 0}
        assert with_effect == {c for v, c, _, _ in SPECIAL if v == villain}


ICONS_ONLY = [
    # villain, card, expected change: only its ploy icons (cunning answered "inflict": 1)
    ("dowager", "Contested Will", {"minions3": 1, "minion_supply": -1, "damage0": 1}),
    ("dowager", "Servants' Entrance",
     {"minions1": 1, "minions3": 1, "minion_supply": -2, "bystanders_on_map": 1,
      "bystander_supply": -1}),
    ("dowager", "Old Money", {"minions2": 1, "minions4": 1, "minion_supply": -2}),
    ("refuser", "Salvage Rights", {"minions4": 1, "minion_supply": -1, "damage0": 1}),
]


@pytest.mark.parametrize("villain,card,expected", ICONS_ONLY, ids=[c for _, c, _ in ICONS_ONLY])
def test_ploy_card_with_icons_only(villain, card, expected):
    """Rulebook: Ploy Icons — a Ploy card without text resolves its icons left to right
    (minion: 1 minion in that panel; bystander: 1 bystander placed; cunning: the active
    hero picks scheme or inflict) and is discarded."""
    g = special_game(villain, card)
    got, _ = play_special(g)
    assert got == expected
    i = g.scenario.villain_card_names.index(card)
    assert int(g.field("vloc")[i]) == L.L_DISCARD


def test_every_ploy_card_is_played_here():
    """Guard: every Ploy card of both decks has a row in one of the tables above."""
    rows = {c for v, c, *_ in SHOWDOWN + SPECIAL + ICONS_ONLY}
    for villain in ("dowager", "refuser"):
        sc = scenario(DUO, villain)
        ploys = {n for i, n in enumerate(sc.villain_card_names)
                 if n and sc.tables.vcard[i, VC_TYPE] == VT_PLOY}
        assert ploys <= rows, ploys - rows


def test_every_villain_card_is_named_here():
    """Guard: every card of both villain decks (lackeys and perils too) is named in a test
    or table of this file."""
    text = open(__file__).read()
    for villain in ("dowager", "refuser"):
        for card in {n for n in scenario(DUO, villain).villain_card_names if n}:
            assert f'"{card}"' in text, (villain, card)


def test_pearls_and_poison_asks_each_hero_in_seat_order():
    """Rulebook: Resolving Villain Cards — "each hero" asks every hero in turn; a hero with
    cards chooses (discard), one without suffers the damage."""
    g = special_game("dowager", "Pearls and Poison")
    P.give_cards(g, 1, ["Backhand"])
    _, seen = play_special(g)
    assert [(k, s) for k, s, _ in seen] == [("discard_or_damage", 0), ("discard_or_damage", 1)]


# --- Activate effects (threat phase) ----------------------------------------------------------

def threat_game(villain: str, cards: dict[str, str | int], hero_at: str = "C3",
                damage: int = 0) -> Game:
    """Majesty alone (no scaling card is activated here) with ``cards`` (name: space) in
    her threat area, at the start of her hero turn."""
    g = setup(scenario(("majesty",), villain), hero_at, cards=())
    P.set_hero(g, 0, damage=damage)
    for name, where in cards.items():
        P.add_villain_card(g, name, 0, where)
    return g


LACKEY_MOVES = [
    # villain, lackey, distance to Majesty at the start, damage dealt
    ("dowager", "Hatchet Hollis", 3, 2),
    ("dowager", "Chauffeur Vance", 4, 1),
    ("dowager", "Big Bertram", 2, 2),
    ("refuser", "Phase II Brinkbot", 3, 2),
    ("refuser", "Magnet Mule", 2, 2),  # inflict 1 + 1
]


@pytest.mark.parametrize("villain,card,d,hit", LACKEY_MOVES, ids=[c for _, c, *_ in LACKEY_MOVES])
def test_lackey_moves_then_inflicts(villain, card, d, hit):
    """Rulebook: Activating Enemies / Enemy Activation and Inflict Effects — the lackey
    moves (d - 1 spaces: exactly its move) to Majesty and inflicts on her."""
    g = threat_game(villain, {})
    i = P.add_villain_card(g, card, 0, space_at(g, "C3", d))
    got = threat_phase_changes(g)
    assert got == {"damage0": hit}
    assert dist(g, int(g.field("vpos")[i]), "C3") == 1


def test_brinkbot_walks_past_a_bystander_to_the_hero():
    """Rulebook: Movement and Targeting Priority — Phase II Brinkbot moves toward heroes
    only: a bystander next to it is neither approached nor captured."""
    g = setup(scenario(("majesty",), "refuser"), "C3")
    start = space_at(g, "C3", 3)
    side = next(s for s in range(len(g.scenario.space_labels))
                if dist(g, s, start) == 1 and dist(g, s, "C3") >= 3
                and g.scenario.tables.space_kind[s] == 1)
    put_bystander(g, side)
    P.add_villain_card(g, "Phase II Brinkbot", 0, start)
    got = threat_phase_changes(g)
    assert got == {"damage0": 2}
    assert int(g.field("bystander_on")[side]) == 1


def test_scrapjaw_hauler_goes_for_bystanders():
    """Rulebook: Movement and Targeting Priority / Captured Bystanders — Scrapjaw Hauler
    moves toward bystanders only, captures the one it walks into and, far from Majesty,
    inflicts on nobody."""
    g = setup(scenario(("majesty",), "refuser"), "B7")
    start = sp(g, "G2")
    target = space_at(g, start, 2)
    assert dist(g, target, "B7") > 2
    put_bystander(g, target)
    hauler = P.add_villain_card(g, "Scrapjaw Hauler", 0, start)
    got = threat_phase_changes(g)
    assert got == {"captured": 1, "bystanders_on_map": -1}
    assert dist(g, int(g.field("vpos")[hauler]), start) == 2


THREAT_EFFECTS = [
    # villain, {card: where}, Majesty's damage, expected change
    ("dowager", {"Miss Tallow, Bookkeeper": "H2"}, 0, {"damage0": 1}),
    ("dowager", {"Gala Firebomb": "D6"}, 0, {"damage0": 2}),
    ("dowager", {"Favours Called In": "B4"}, 0, {"minions1": 1, "minion_supply": -1}),
    ("refuser", {"Rivet Turret": "D3"}, 0,
     {"minions1": 1, "minion_supply": -1, "damage0": 1}),
    ("refuser", {"Sparking Scrap Heap": "D6"}, 0, {"damage0": 2}),
    ("refuser", {"Drone Nest": "G4"}, 0, {"minions1": 1, "minion_supply": -1}),
    # Live Wire Puddle: a crisis once Majesty has 6 damage (Century Heist crisis: capture,
    # then the villain schemes in the Marble Lobby: 1 minion there)
    ("refuser", {"Live Wire Puddle": "B4"}, 4, {"damage0": 1}),
    ("refuser", {"Live Wire Puddle": "B4"}, 5,
     {"damage0": 1, "crises": 1, "minions1": 1, "minion_supply": -1}),
]


@pytest.mark.parametrize("villain,cards,damage,expected", THREAT_EFFECTS,
                         ids=[f"{next(iter(c))}-{d}" for _, c, d, _ in THREAT_EFFECTS])
def test_threat_card_activate_effect(villain, cards, damage, expected):
    """Rulebook: Threat Phase / Card anatomy L (Activate effect) — each card in the hero's
    threat area resolves its Activate effect in her threat phase (Majesty on C3)."""
    g = threat_game(villain, cards, damage=damage)
    assert threat_phase_changes(g) == expected


@pytest.mark.parametrize("others,crisis", [(0, False), (3, True)])
def test_poisoned_punchbowl_crisis_with_four_threat_cards(others, crisis):
    """Rulebook: Threat Phase / A Crisis Occurs — Poisoned Punchbowl deals 1 damage and,
    when its hero holds 4 or more threat-area cards, causes a crisis. The other cards are
    exhausted: they only ready, but still count."""
    g = threat_game("dowager", {"Poisoned Punchbowl": "G4"})
    for name in ("Hatchet Hollis", "Gala Firebomb", "Ransom Notes")[:others]:
        g.field("vexh")[P.add_villain_card(g, name, 0, "H2" if name == "Hatchet Hollis"
                                           else None)] = 1
    expected = {"damage0": 1}
    if crisis:
        expected |= {"crises": 1, "minions1": 1, "minion_supply": -1}
    assert threat_phase_changes(g) == expected


@pytest.mark.parametrize("held,crisis", [(0, False), (2, True)])
def test_ransom_notes_crisis_with_three_captives(held, crisis):
    """Rulebook: Captured Bystanders / A Crisis Occurs — Ransom Notes captures the
    bystander nearest the villain; with 3 or more captives then, a crisis follows."""
    g = threat_game("dowager", {"Ransom Notes": "F1"})
    put_bystander(g, "D7")
    if held:
        P.put_bystander(g, "panel 3", held)
    expected = {"captured": 1, "bystanders_on_map": -1}
    if crisis:  # the crisis finds no bystander left to capture, then the villain schemes
        expected |= {"crises": 1, "minions1": 1, "minion_supply": -1}
    assert threat_phase_changes(g) == expected
    assert int(g.field("captured")[1]) == 1  # D7 is next to panel 1


def test_toppling_junk_tower_pushes_away_then_damages():
    """Rulebook: Forced Movement — Toppling Junk Tower moves Majesty up to 2 spaces, each
    farther from the villain (panel 1, E7), then deals 1 damage."""
    g = threat_game("refuser", {"Toppling Junk Tower": "F1"}, hero_at="D6")
    before = dist(g, "D6", "panel 1")
    got = threat_phase_changes(g)
    assert got.pop("damage0") == 1
    assert set(got) == {"hero0"}
    assert dist(g, int(g.field("hloc")[0]), "panel 1") == before + 2


# --- the Villain cards' Activate effects -----------------------------------------------------

def test_dowager_showdown_activate_moves_then_inflicts():
    """Rulebook: Threat Phase — Dowager's Showdown side in Majesty's threat area moves 2
    toward the nearest hero and inflicts 2 on her."""
    g = setup(scenario(("majesty",), "dowager"), "C3")
    start = space_at(g, "C3", 3)
    P.set_villain(g, side="showdown", where=start, owner=0)
    got = threat_phase_changes(g)
    assert got.pop("damage0") == 2
    assert dist(g, int(g.field("vil_loc")), "C3") == 1
    assert set(got) == {"villain"}


def test_refuser_showdown_activate_calls_a_drone_moves_and_inflicts():
    """Rulebook: Threat Phase — Refuser's Showdown side: 1 minion in his panel (nearest
    panel 2 from G5), move 1 toward the nearest hero (not toward bystanders), inflict 2."""
    g = setup(scenario(("majesty",), "refuser"), "E5")
    put_bystander(g, "G6")  # next to Refuser, ignored: he only moves toward heroes
    P.set_villain(g, side="showdown", where="G5", owner=0)
    assert dist(g, "G5", "E5") == 2
    got = threat_phase_changes(g)
    assert got.pop("damage0") == 2
    assert got.pop("villain") == "F5"
    assert got == {"minions2": 1, "minion_supply": -1}
    assert int(g.field("bystander_on")[sp(g, "G6")]) == 1
