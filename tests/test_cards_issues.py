"""Scenario tests for the four issues: overview Setup and Crisis effects, the Scheme
effect of every panel, the Activate effects of flipped Scheme cards, and every issue card
(drawn in the issue turn, and the Activate effect of the cards that stay).

Each test compares the countable public state (``rules_helpers.summary``) before and after
the effect: the change must be exactly what the card prints, so a missing or extra op
fails. Majesty plays alone against Dowager on a cleared board with no Scheme cards (unless
a test deals one), holding one card (Throne Breaker) so that "discard 1 card or suffer
damage" is a real choice; the helper discards.

Scheme spaces (panels 1-4) and start spaces of the boards:

    century_heist       E7 H5 A3 H1, start B7
    blackout_gala       C7 A3 E1 I3, start E7
    dockside_smuggling  B1 G1 I3 G7, start A5
    rooftop_relay       B1 G3 J4 J1, start E6
"""

from __future__ import annotations

import pytest
from rules_helpers import (
    answer_until,
    capture,
    changes,
    dist,
    put_bystander,
    put_issue_in_threat,
    put_minions,
    run_op,
    scenario,
    set_scheme,
    setup,
    sp,
    space_at,
    summary,
    threat_phase_changes,
)

from hon_env import Game
from hon_env import positions as P
from hon_env.spec import layout as L
from hon_env.spec import ops
from hon_env.spec.tables import CFG_START_SPACE, IC_STAYS, IC_TYPE, IT_SCHEME

STOP_CARD = "A Word in the Right Ear"  # Dowager's lone-cunning card stops the next round
ISSUES = ("century_heist", "blackout_gala", "dockside_smuggling", "rooftop_relay")


def issue_game(issue: str, hero_at: str | None = None, *, villain_panel: int = 1,
               bystanders=(), minions=None, captured=None, counters=None,
               round_: int | None = None) -> Game:
    """Majesty on ``hero_at`` (default: the start space), the villain scheming in
    ``villain_panel``, and the listed pieces: bystanders on spaces, minions and captives
    per panel, issue counters by name."""
    sc = scenario(("majesty",), "dowager", issue)
    start = sc.space_labels[int(sc.tables.cfg[CFG_START_SPACE])]
    g = setup(sc, hero_at or start, cards=("Throne Breaker",))
    P.set_villain(g, side="scheming", where=f"panel {villain_panel}")
    for where in bystanders:
        put_bystander(g, where)
    for panel, n in (minions or {}).items():
        put_minions(g, panel, n)
    for panel, n in (captured or {}).items():
        capture(g, panel, n)
    for name, n in (counters or {}).items():
        P.set_counter(g, name, n)
    if round_ is not None:
        g.field("round")[...] = round_
    return g


def until_next_villain_card(g: Game) -> list:
    """Answer questions until the stacked lone-cunning card of the next villain turn."""
    seen = answer_until(g, stop=lambda g: g.decision == "cunning")
    assert g.decision == "cunning", g.decision
    return seen


# --- Issue Overview: Setup and Crisis --------------------------------------------------------

@pytest.mark.parametrize("issue,minions", [
    ("century_heist", [0, 1, 0, 2]),
    ("blackout_gala", [1, 1, 0, 0]),
    ("dockside_smuggling", [1, 1, 0, 0]),
    ("rooftop_relay", [0, 1, 0, 1]),
])
def test_overview_setup_places_minions(issue, minions):
    """Rulebook: Setup 2d — the Issue Overview's Setup effect runs once at setup (each
    issue places minions in named panels; the rest of the supply stays)."""
    g = Game(scenario(("majesty",), "dowager", issue), seed=0)
    assert [int(x) for x in g.field("minions")[1:5]] == minions
    assert int(g.field("minion_supply")) == 10 - sum(minions)


CRISIS = [
    # capture the bystander next to the villain, then scheme in the Marble Lobby (1 minion)
    ("century_heist", {"bystanders": ["D7"]},
     {"captured": 1, "bystanders_on_map": -1, "minions1": 1, "minion_supply": -1}),
    # capture one, then the Ballroom scheme captures the other (2 captives: no advance)
    ("blackout_gala", {"bystanders": ["D7", "B6"]}, {"captured": 2, "bystanders_on_map": -2}),
    # 1 minion on the Cargo Ship, then the Bonded Warehouse scheme adds 1 in panel 1
    ("dockside_smuggling", {}, {"minions4": 1, "minions1": 1, "minion_supply": -2}),
    # 1 minion in the villain's panel, the Stairwell Hatch scheme adds a 2nd: it advances
    ("rooftop_relay", {}, {"minions1": 2, "minion_supply": -2, "villain": "G3"}),
]


@pytest.mark.parametrize("issue,pieces,expected", CRISIS, ids=[c[0] for c in CRISIS])
def test_overview_crisis_effect(issue, pieces, expected):
    """Rulebook: A Crisis Occurs — a crisis resolves the Issue Overview's Crisis effect
    (the villain schemes in panel 1 in each of them)."""
    g = issue_game(issue, **pieces)
    P.jump(g, "hero_turn")
    before = summary(g)
    run_op(g, ops.OP_CRISIS)
    assert changes(before, summary(g)) == expected | {"crises": 1}


# --- panel Scheme effects ---------------------------------------------------------------------

PANELS = [
    # issue, panel, pieces, expected change
    ("century_heist", 1, {}, {"minions1": 1}),
    ("century_heist", 1, {"minions": {1: 1}}, {"minions1": 1, "villain": "H5"}),
    ("century_heist", 2, {"bystanders": ["G6"], "minions": {2: 2}},
     {"captured": 1, "bystanders_on_map": -1, "minions2": 1, "villain": "A3"}),
    ("century_heist", 3, {"hero_at": "A4"}, {"minions3": 1, "damage0": 1}),
    ("century_heist", 4, {}, {"gold": 1, "minion_supply": 0}),
    ("blackout_gala", 1, {"bystanders": ["D7"]}, {"captured": 1, "bystanders_on_map": -1}),
    ("blackout_gala", 1, {"bystanders": ["D7"], "captured": {3: 2}},
     {"captured": 1, "bystanders_on_map": -1, "villain": "A3"}),
    ("blackout_gala", 2, {"hero_at": "A4", "minions": {2: 2}},
     {"minions2": 1, "damage0": 1, "villain": "E1"}),
    ("blackout_gala", 3, {"bystanders": ["D1"], "captured": {1: 2}, "minions": {3: 1}},
     {"captured": 1, "bystanders_on_map": -1}),
    ("blackout_gala", 3, {"bystanders": ["D1"], "captured": {1: 2}, "minions": {3: 2}},
     {"captured": 1, "bystanders_on_map": -1, "villain": "I3"}),
    ("blackout_gala", 4, {"captured": {4: 1}}, {}),
    ("blackout_gala", 4, {"captured": {4: 2}},
     {"captured": -1, "bystanders_defeated": 1, "hostages": 1}),
    ("dockside_smuggling", 1, {"minions": {1: 1}}, {"minions1": 1, "villain": "G1"}),
    ("dockside_smuggling", 2, {"bystanders": ["F1"], "captured": {4: 2}},
     {"captured": 1, "bystanders_on_map": -1, "villain": "I3"}),
    ("dockside_smuggling", 3, {"hero_at": "H3"}, {"minions3": 1, "hero0": "moved 2"}),
    ("dockside_smuggling", 4, {}, {"crates": 1, "minion_supply": 0}),
    ("rooftop_relay", 1, {"minions": {1: 1}}, {"minions1": 1, "villain": "G3"}),
    # near the Water Tower: 1 damage, pushed 2 away; before round 3 no advance
    ("rooftop_relay", 2, {"hero_at": "F3", "minions": {2: 2}},
     {"damage0": 1, "hero0": "moved 2", "minions2": 1}),
    # from round 3 with 2 minions it advances first, then its minion joins the new panel
    ("rooftop_relay", 2, {"minions": {2: 2}, "round_": 3}, {"villain": "J4", "minions3": 1}),
    ("rooftop_relay", 3, {"minions": {3: 2}}, {"minions3": 1, "villain": "J1"}),
    ("rooftop_relay", 4, {}, {"signal": 1, "minions4": 1}),
]


def _start(g: Game) -> tuple[int, int, dict]:
    """Stack the stop card on the villain deck; return the hero's space, the villain's space
    and the ``summary`` before the effect."""
    P.stack_villain_deck(g, [STOP_CARD])
    return int(g.field("hloc")[0]), int(g.field("vil_loc")), summary(g)


def _split_forced_move(got: dict, expected: dict) -> tuple[dict, bool]:
    """A copy of ``expected`` without a ``"hero0": "moved 2"`` entry (then ``hero0`` is taken
    out of ``got`` too), and whether that entry was there."""
    expected = dict(expected)
    moved = expected.pop("hero0", None) == "moved 2"
    if moved:
        got.pop("hero0")
    return expected, moved


@pytest.mark.parametrize("issue,panel,pieces,expected", PANELS,
                         ids=[f"{i}-{p}-{k}" for k, (i, p, _, _) in enumerate(PANELS)])
def test_panel_scheme_effect(issue, panel, pieces, expected):
    """Rulebook: Villain Schemes / Issue board F (Scheme panels) — when the villain schemes
    (here: a cunning icon, answered "scheme") the Scheme effect of its panel resolves;
    "advance" moves it to the next panel."""
    g = issue_game(issue, villain_panel=panel, **pieces)
    hero, villain, before = _start(g)
    P.jump(g, "villain_turn")
    assert g.decision == "cunning"
    g.apply(L.A_OPTION)  # the villain schemes
    answer_until(g)
    got = changes(before, summary(g))
    expected, moved = _split_forced_move(got, expected)
    if moved:  # forced movement: check the distance
        assert dist(g, int(g.field("hloc")[0]), villain) == dist(g, hero, villain) + 2
    placed = sum(v for k, v in expected.items() if k.startswith("minions"))
    expected.setdefault("minion_supply", -placed)
    expected = {k: v for k, v in expected.items() if v != 0}
    assert got == expected


# --- flipped Scheme cards (problem and enemy sides) -------------------------------------------

def flip(g: Game, name: str) -> int:
    """Deal Scheme card ``name`` to Majesty and turn it to its other side (as if solved;
    its figure or problem stays at its panel's scheme space)."""
    i = set_scheme(g, 0, name)
    P.flip_scheme(g, i, where=int(g.field("ipos")[i]))
    return i


BACKS = [
    # issue, Scheme card, pieces, expected change in Majesty's threat phase
    ("century_heist", "Hostages at the Counter", {"captured": {3: 1}}, {}),
    ("century_heist", "Hostages at the Counter", {"captured": {3: 2}},
     {"crises": 1, "minions1": 1, "minion_supply": -1}),
    ("century_heist", "Crack the Vault", {}, {"minions4": 1, "minion_supply": -1}),
    ("blackout_gala", "Smash the Chandeliers", {"bystanders": ["G2", "H3"]}, {}),
    ("blackout_gala", "Smash the Chandeliers", {"bystanders": ["G2", "H3", "D7"]},
     {"captured": 1, "bystanders_on_map": -1}),
    ("blackout_gala", "Bring Round the Van", {"captured": {3: 1}}, {}),
    # the crisis captures D7 (3 captives), the Ballroom scheme finds none and advances
    ("blackout_gala", "Bring Round the Van", {"captured": {3: 2}, "bystanders": ["D7"]},
     {"crises": 1, "captured": 1, "bystanders_on_map": -1, "villain": "A3"}),
    ("dockside_smuggling", "Grease the Inspector", {"counters": {"crates": 1}}, {}),
    ("dockside_smuggling", "Grease the Inspector", {"counters": {"crates": 2}},
     {"crises": 1, "minions4": 1, "minions1": 1, "minion_supply": -2}),
    ("dockside_smuggling", "Open the Cargo Hold", {}, {"minions4": 1, "minion_supply": -1}),
    ("rooftop_relay", "Realign the Dish", {"counters": {"signal": 1}}, {}),
    ("rooftop_relay", "Realign the Dish", {"counters": {"signal": 2}},
     {"crises": 1, "minions1": 2, "minion_supply": -2, "villain": "G3"}),
]


@pytest.mark.parametrize("issue,scheme,pieces,expected", BACKS,
                         ids=[f"{s}-{k}" for k, (_, s, _, _) in enumerate(BACKS)])
def test_flipped_scheme_problem_activates(issue, scheme, pieces, expected):
    """Rulebook: Double-Sided Cards / Threat Phase — a solved Scheme card shows its other
    side; a problem side in the threat area resolves its Activate effect each threat
    phase (the conditional ones only when their count is reached)."""
    g = issue_game(issue, **pieces)
    flip(g, scheme)
    assert threat_phase_changes(g) == expected


ENEMY_BACKS = [
    # issue, Scheme card (enemy side), Majesty's distance from its figure, move, damage
    ("century_heist", "Cut the Cameras", 3, 2, 1),  # Night Watchman Turned
    ("blackout_gala", "Cut the Mains", 3, 2, 2),  # Live-Wire Doorman
    ("dockside_smuggling", "Hotwire the Gantry", 1, 0, 2),  # Runaway Crane Hook
    ("dockside_smuggling", "Hotwire the Gantry", 2, 0, 0),  # it never moves
    ("rooftop_relay", "Splice the Relay", 2, 1, 2),  # Relay Sentinel
]


@pytest.mark.parametrize("issue,scheme,d,move,hit", ENEMY_BACKS,
                         ids=[f"{s}-{d}" for _, s, d, _, _ in ENEMY_BACKS])
def test_flipped_scheme_enemy_activates(issue, scheme, d, move, hit):
    """Rulebook: Activating Enemies — a Scheme card's enemy side stands at its panel's
    scheme space; in the threat phase it moves toward Majesty and inflicts if near."""
    g = issue_game(issue)
    i = flip(g, scheme)
    home = int(g.field("ipos")[i])
    P.place_hero(g, 0, space_at(g, home, d))
    got = threat_phase_changes(g)
    assert got == ({"damage0": hit} if hit else {})
    assert dist(g, int(g.field("ipos")[i]), home) == move


def test_live_wire_doorman_ignores_bystanders():
    """Rulebook: Movement and Targeting Priority — Live-Wire Doorman moves toward heroes
    only; a bystander next to its panel is neither approached nor captured."""
    g = issue_game("blackout_gala")
    i = flip(g, "Cut the Mains")
    home = int(g.field("ipos")[i])
    P.place_hero(g, 0, space_at(g, home, 3))
    side = next(s for s in range(len(g.scenario.space_labels)) if dist(g, s, home) == 1
                and g.scenario.tables.space_kind[s] == 1
                and dist(g, s, int(g.field("hloc")[0])) >= 3)
    put_bystander(g, side)
    assert threat_phase_changes(g) == {"damage0": 2}
    assert int(g.field("bystander_on")[side]) == 1


def test_flooded_roof_pushes_one_away_and_damages():
    """Rulebook: Forced Movement — Flooded Roof moves its hero 1 space farther from the
    villain (panel 1), then deals 1 damage."""
    g = issue_game("rooftop_relay", "C3")
    flip(g, "Drain the Water Tower")
    before = dist(g, "C3", "panel 1")
    got = threat_phase_changes(g)
    assert got.pop("damage0") == 1 and set(got) == {"hero0"}
    assert dist(g, int(g.field("hloc")[0]), "panel 1") == before + 1


# --- issue cards (issue turn) -----------------------------------------------------------------

MIN = "minion_supply"
BYS = "bystander_supply"
MAP = "bystanders_on_map"
DISCARD = {"hand0": -1}
ISSUE_CARDS = [
    # issue, card, pieces, expected change
    ("century_heist", "Gabby Woods, Night Teller", {"bystanders": ["D7"]}, {MAP: -1, BYS: 1}),
    ("century_heist", "Shift Change", {}, {"minions1": 1, "minions4": 1, MIN: -2}),
    ("century_heist", "Thermal Drill", {}, {"minions1": 1, MIN: -1}),
    ("century_heist", "Panic on the Street", {}, {BYS: -1, "captured": 1}),
    # the scheming villain cannot move on the map; 2 minions in its panel: it advances
    ("century_heist", "Getaway Route", {"minions": {1: 2}}, {"villain": "H5"}),
    ("century_heist", "Getaway Route", {"minions": {1: 1}}, {}),
    ("century_heist", "Rubber Bullets", {}, {"damage0": 1} | DISCARD),
    ("century_heist", "Inside Man", {}, {"minions1": 1, MIN: -1}),
    ("century_heist", "Inside Man", {"villain_panel": 4}, {"minions4": 1, MIN: -1, "gold": 1}),
    ("century_heist", "Laser Grid", {}, {"minions3": 1, MIN: -1}),
    ("century_heist", "Jammed Phone Lines", {"bystanders": ["D7"]}, {"captured": 1, MAP: -1}),
    ("century_heist", "Count the Take", {}, {"minions1": 1, MIN: -1, MAP: 1, BYS: -1}),
    ("blackout_gala", "Lights Out", {}, {"minions1": 1, MIN: -1, MAP: 1, BYS: -1}),
    ("blackout_gala", "Spilled Champagne", {}, {MAP: 2, BYS: -2}),
    ("blackout_gala", "Ransom Note on the Podium", {}, DISCARD),
    # 3 captives: the villain schemes (Ballroom: nothing to capture, 3 captives: advance)
    ("blackout_gala", "Ransom Note on the Podium", {"captured": {3: 3}},
     {"villain": "A3"} | DISCARD),
    ("blackout_gala", "Backup Generator Sabotaged", {"bystanders": ["D7"]},
     {"captured": 1, MAP: -1}),
    ("blackout_gala", "Masked Waiters", {}, {"minions1": 1, "minions3": 1, MIN: -2}),
    ("blackout_gala", "Stampede in the Dark", {}, {"damage0": 1, "hero0": "moved 2"}),
    ("blackout_gala", "Candlelit Scramble", {}, {BYS: -1, "captured": 1}),
    ("blackout_gala", "Ballroom Doors Barred", {"bystanders": ["D7"]}, {"captured": 1, MAP: -1}),
    ("blackout_gala", "Sparking Fuse Panel", {}, {"minions2": 1, MIN: -1}),
    ("dockside_smuggling", "Night Shift Stevedores", {},
     {"minions1": 1, "minions3": 1, MIN: -2}),
    ("dockside_smuggling", "High Tide", {}, {"minions1": 1, MIN: -1}),
    ("dockside_smuggling", "Harbour Fog", {}, {"hero0": "moved 2", MAP: 1, BYS: -1}),
    ("dockside_smuggling", "Dock Workers Held Back", {}, {BYS: -1, "captured": 1}),
    ("dockside_smuggling", "Tally the Contraband", {}, {"minions1": 1, MIN: -1}),
    ("dockside_smuggling", "Tally the Contraband", {"villain_panel": 4},
     {"minions4": 1, MIN: -1, "crates": 1}),
    ("dockside_smuggling", "Bribed Harbour Patrol", {}, {"damage0": 1} | DISCARD),
    ("dockside_smuggling", "Forklift Stampede", {}, {"minions1": 1, MIN: -1}),
    ("dockside_smuggling", "Signal Lantern on the Pier", {}, {MAP: 1, BYS: -1}),
    ("dockside_smuggling", "Cut the Mooring Lines", {"minions": {2: 4}}, DISCARD),
    # 5 minions on the board: the villain schemes (Bonded Warehouse: 1 minion)
    ("dockside_smuggling", "Cut the Mooring Lines", {"minions": {2: 5}},
     {"minions1": 1, MIN: -1} | DISCARD),
    ("rooftop_relay", "Crew on the Fire Escape", {}, {"minions1": 1, "minions2": 1, MIN: -2}),
    ("rooftop_relay", "Gale-Force Gust", {"hero_at": "C3"}, {"hero0": "moved 2", "damage0": 1}),
    ("rooftop_relay", "Test Broadcast", {}, {}),
    ("rooftop_relay", "Test Broadcast", {"villain_panel": 3}, {"minions3": 1, MIN: -1}),
    ("rooftop_relay", "Test Broadcast", {"villain_panel": 4},
     {"signal": 1, "minions4": 1, MIN: -1}),
    ("rooftop_relay", "Hijacked Frequencies", {}, {"minions1": 1, MIN: -1}),
    ("rooftop_relay", "Sightseers on the Roof", {}, {MAP: 2, BYS: -2}),
    ("rooftop_relay", "Rooftop Hostage", {"bystanders": ["A1"]},
     {"captured": 1, MAP: -1} | DISCARD),
    ("rooftop_relay", "Boost the Amplifier", {"minions": {2: 4}}, {"minions3": 1, MIN: -1}),
    ("rooftop_relay", "Boost the Amplifier", {"minions": {2: 5}},
     {"minions1": 1, "minions3": 1, MIN: -2}),
    ("rooftop_relay", "Searchlight Sweep", {}, {"minions1": 1, MIN: -1}),
    ("rooftop_relay", "Dangling Power Cable", {}, {MAP: 1, BYS: -1}),
]

STAYS_AT = {  # cards that stay in the threat area as a problem, and where
    "Laser Grid": "panel 3", "Jammed Phone Lines": "B7", "Ballroom Doors Barred": "panel 1",
    "Sparking Fuse Panel": "panel 2", "Forklift Stampede": "panel 1",
    "Signal Lantern on the Pier": "G5", "Searchlight Sweep": "panel 1",
    "Dangling Power Cable": "B4",
}


@pytest.mark.parametrize("issue,card,pieces,expected", ISSUE_CARDS,
                         ids=[f"{c}-{k}" for k, (_, c, _, _) in enumerate(ISSUE_CARDS)])
def test_issue_card_effect(issue, card, pieces, expected):
    """Rulebook: Issue Turn — the drawn issue card's effect resolves with the hero holding
    the fewest threat cards as the active hero; the card is then discarded, or stays in
    that hero's threat area as a problem at its printed location."""
    g = issue_game(issue, **pieces)
    i = P.stack_issue_deck(g, [card])[0]
    hero, villain, before = _start(g)
    P.jump(g, "issue_turn")
    until_next_villain_card(g)
    got = changes(before, summary(g))
    expected, moved = _split_forced_move(got, expected)
    if moved:  # forced movement: check the distance
        assert dist(g, int(g.field("hloc")[0]), villain) == dist(g, hero, villain) + 2
    assert got == expected
    if card in STAYS_AT:
        assert int(g.field("iloc")[i]) == L.L_THREAT and int(g.field("iowner")[i]) == 0
        assert int(g.field("ipos")[i]) == sp(g, STAYS_AT[card])
    elif g.scenario.issue_card_names[i] != "Gabby Woods, Night Teller":
        assert int(g.field("iloc")[i]) == L.L_DISCARD


def test_every_issue_card_is_played():
    """Guard: the tables here draw every issue card (Scheme cards aside) of each issue, and
    activate every card that stays."""
    staying = set()
    for issue in ISSUES:
        sc = scenario(("majesty",), "dowager", issue)
        T = sc.tables
        cards = {n for i, n in enumerate(sc.issue_card_names)
                 if n and T.icard[i, IC_TYPE] != IT_SCHEME}
        assert cards == {c for i, c, _, _ in ISSUE_CARDS if i == issue}, issue
        staying |= {n for i, n in enumerate(sc.issue_card_names) if n and T.icard[i, IC_STAYS]}
    assert staying == set(STAYS_AT) == {c for _, c, _, _ in STAYING}


def test_getaway_route_moves_a_revealed_villain_three():
    """Rulebook: Movement and Targeting Priority — Getaway Route moves the villain on its
    Showdown side 3 spaces toward the nearest hero."""
    g = issue_game("century_heist", "C3")
    start = space_at(g, "C3", 5)
    P.set_villain(g, side="showdown", where=start, owner=0)
    P.stack_issue_deck(g, ["Getaway Route"])
    P.stack_villain_deck(g, [STOP_CARD])
    P.jump(g, "issue_turn")
    until_next_villain_card(g)
    assert dist(g, int(g.field("vil_loc")), "C3") == 2


# --- staying issue cards (threat phase) -------------------------------------------------------

STAYING = [
    # issue, card, pieces, expected change in the holder's threat phase
    ("century_heist", "Laser Grid", {}, {"damage0": 1}),
    ("century_heist", "Jammed Phone Lines", {}, {}),
    ("century_heist", "Jammed Phone Lines", {"bystanders": ["D7"]}, {"captured": 1, MAP: -1}),
    ("blackout_gala", "Ballroom Doors Barred", {}, {}),
    ("blackout_gala", "Ballroom Doors Barred", {"bystanders": ["D7"]},
     {"captured": 1, MAP: -1}),
    ("blackout_gala", "Sparking Fuse Panel", {}, {"damage0": 1}),
    ("dockside_smuggling", "Forklift Stampede", {}, {"damage0": 1}),
    ("dockside_smuggling", "Signal Lantern on the Pier", {}, {}),
    ("dockside_smuggling", "Signal Lantern on the Pier", {"counters": {"crates": 1}},
     {"minions4": 1, MIN: -1}),
    ("rooftop_relay", "Searchlight Sweep", {}, {"damage0": 1}),
    ("rooftop_relay", "Dangling Power Cable", {"counters": {"signal": 1}}, {"damage0": 1}),
    ("rooftop_relay", "Dangling Power Cable", {"counters": {"signal": 2}},
     {"damage0": 1, "minions4": 1, MIN: -1}),
]


@pytest.mark.parametrize("issue,card,pieces,expected", STAYING,
                         ids=[f"{c}-{k}" for k, (_, c, _, _) in enumerate(STAYING)])
def test_staying_issue_card_activates(issue, card, pieces, expected):
    """Rulebook: Threat Phase / Problem Cards — an issue card that stays is a problem in
    its holder's threat area and resolves its Activate effect in their threat phase."""
    g = issue_game(issue, **pieces)
    put_issue_in_threat(g, 0, card, STAYS_AT[card])
    assert threat_phase_changes(g) == expected
