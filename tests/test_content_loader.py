"""Content loader and compiler: a small valid content set compiles to exact tables, and
broken files fail with a ContentError naming file, card and field.

Every test writes its own fixture content into ``tmp_path`` (``content/`` + ``scenarios/``)
so it does not depend on the real content under ``configs/``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from hon_env.content import ContentError, Scenario, list_content, load_scenario
from hon_env.content.board import UNREACHABLE
from hon_env.content.effects import ProgramStore, parse_effect
from hon_env.content.errors import Where
from hon_env.spec import tables as TB
from hon_env.spec.ops import (
    COUNT_ACTIVE_DAMAGE,
    COUNT_ACTIVE_IN_MECH,
    COUNT_COUNTER_BASE,
    COUNT_ROUND,
    OP_BY_NAME,
)

# --------------------------------------------------------------------------- fixture content

# Spaces in reading order:          0:1  1:.  2:b  3:2
#                                     4:.  5:S  6:.  7:.
#                                   8:3  9:r  10:. 11:4
MAP = ["1 . b 2", " . S . .", "3 r . 4"]


def base_docs() -> dict[str, dict[str, Any]]:
    """A minimal valid content set, keyed by relative file path."""
    hero = {
        "format_version": 1, "id": "tester", "kind": "hero", "name": "Tester",
        "hero_card": {
            "normal": {"health": 10, "attack": 3, "solve": 2},
            "focused": {"health": 12, "attack": 4, "solve": 3,
                        "ability": {"name": "Tough", "kind": "passive", "armor": 1}},
        },
        "cards": [
            {"name": "Punch", "count": 10, "type": "instant", "action": True,
             "feats": ["strength"], "effect": [{"op": "attack", "dice": 1}]},
            {"name": "Plan", "count": 9, "type": "instant", "effect": [
                {"op": "gain_focus"},
                {"op": "if", "count": "active_hero_damage", "at_least": 2, "then": [
                    {"op": "heal", "n": 1},
                    {"op": "if", "count": "round", "at_least": 3, "then": [{"op": "draw"}]},
                ]},
            ]},
            {"name": "Shield", "type": "constant", "unique": True, "feats": ["toughness"],
             "ability": {"kind": "exhaust", "effect": [{"op": "prevent", "n": 2}]}},
        ],
    }
    lackeys = [
        {"name": f"{c.title()} Goon", "type": "lackey", "color": c, "health": h, "inflict": 1,
         "activate": [{"op": "enemy_move", "n": 2}, {"op": "inflict"}]}
        for c, h in (("red", 3), ("green", 4), ("blue", "-"), ("yellow", 2))
    ]
    villain = {
        "format_version": 1, "id": "baddie", "kind": "villain", "name": "Baddie",
        "villain_card": {
            "scheming": {"danger": 3, "danger_per_hero": True, "inflict": 1},
            "showdown": {"health": 8, "health_per_hero": True, "defense": 1, "inflict": 2,
                         "activate": [{"op": "inflict_owner"}]},
        },
        "cards": [
            *lackeys,
            {"name": "Fire", "type": "peril", "color": "red", "count": 3, "danger": 2,
             "activate": [{"op": "crisis"}]},
            {"name": "Plot", "type": "ploy", "count": 20, "ploys": ["minion_1", "cunning"]},
            {"name": "Twist", "type": "ploy", "count": 2, "ploys": ["special", "bystander"],
             "special": [{"op": "scheme"}], "scaling": "five_six"},
        ],
    }
    issue = {
        "format_version": 1, "id": "heist", "kind": "issue", "name": "Heist",
        "counters": ["loot"],
        "loss": {"counter": "loot", "at_least": 3},
        "overview": {"setup": [{"op": "place_minions", "n": 1, "panel": 1}],
                     "crisis": [{"op": "counter_add", "counter": "loot"}]},
        "board": {
            "map": list(MAP),
            "panels": {
                1: {"name": "Lobby", "color": "red", "scheme": [{"op": "place_minions"}]},
                2: {"name": "Vault", "color": "green",
                    "scheme": [{"op": "counter_add", "counter": "loot", "n": 1}]},
                3: {"name": "Office", "color": "blue", "scheme": [{"op": "advance"}]},
                4: {"name": "Roof", "color": "yellow", "scheme": [{"op": "crisis"}]},
            },
        },
        "schemes": [
            {"name": "Scheme One", "panel": 1, "danger": 2,
             "back": {"name": "Done", "type": "none"}},
            {"name": "Scheme Two", "panel": 2, "danger": 3,
             "back": {"name": "Mess", "type": "problem", "danger": 2}},
            {"name": "Scheme Three", "panel": 3, "danger": 3,
             "back": {"name": "Guard", "type": "enemy", "health": 4, "inflict": 1,
                      "activate": [{"op": "enemy_move"}, {"op": "inflict"}]}},
            {"name": "Scheme Four", "panel": 4, "danger": 2, "danger_per_hero": True},
        ],
        "cards": [
            {"name": "Alarm", "count": 9,
             "effect": [{"op": "place_minions", "n": 1, "panel": "all"}]},
            {"name": "Trap", "effect": [{"op": "crisis"}],
             "stays": {"danger": 2, "location": "start",
                       "activate": [{"op": "if", "count": "counter:loot", "at_least": 1,
                                     "then": [{"op": "inflict_owner"}]}]}},
        ],
    }
    clues = {
        "format_version": 1, "id": "test_clues", "kind": "clues",
        "cards": [
            {"name": "Boost", "count": 10, "dice": {"attack": 1}},
            {"name": "Tip", "count": 10, "effect": [{"op": "move", "n": 2}]},
        ],
    }
    nemesis = {
        "format_version": 1, "id": "nemo", "kind": "nemesis", "name": "Nemo",
        "setup": [{"op": "place_minions", "n": 1, "panel": "villain"}],
        "scheme": {"name": "Nemo Plots", "danger": 4,
                   "activate": [{"op": "damage_hero", "n": 1}]},
        "enemy": {"name": "Nemo Fights", "health": 6, "defense": 1, "inflict": 2,
                  "activate": [{"op": "enemy_move", "n": 2}, {"op": "inflict"}]},
    }
    scenario = {
        "format_version": 1, "id": "test_story", "heroes": ["tester"], "villain": "baddie",
        "issue": "heist", "clues": "test_clues", "caps": {"max_rounds": 12},
    }
    return {
        "content/heroes/tester.yaml": hero,
        "content/villains/baddie.yaml": villain,
        "content/issues/heist.yaml": issue,
        "content/clues/test_clues.yaml": clues,
        "content/nemeses/nemo.yaml": nemesis,
        "scenarios/test_story.yaml": scenario,
    }


Edit = Callable[[dict[str, dict[str, Any]]], None]


def write_content(root: Path, edit: Edit | None = None) -> Path:
    """Write the fixture (after ``edit`` changes the dicts); returns the content dir."""
    docs = base_docs()
    if edit is not None:
        edit(docs)
    for rel, doc in docs.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return root / "content"


def load(root: Path, edit: Edit | None = None, **kwargs: Any) -> Scenario:
    """Write the fixture content and compile its scenario."""
    return load_scenario("test_story", content_dir=write_content(root, edit), **kwargs)


def error_pattern(file: str, card: str, field: str, message: str = "") -> str:
    """A regex for a ContentError message naming file, card and field."""
    return (re.escape(file) + r": card " + re.escape(card) + r": field "
            + re.escape(f"'{field}'") + r": .*" + re.escape(message))


def load_refused(root: Path, edit: Edit | None, file: str, card: str, field: str,
                 message: str, **kwargs: Any) -> None:
    """Loading the fixture content as ``load`` does raises a ContentError naming file, card,
    field and message (``error_pattern``)."""
    with pytest.raises(ContentError, match=error_pattern(file, card, field, message)):
        load(root, edit, **kwargs)


def arguments_refused(root: Path, field: str, message: str, **kwargs: Any) -> None:
    """``load_refused`` for a bad ``load_scenario`` argument (of the unedited content)."""
    load_refused(root, None, "load_scenario() arguments", "-", field, message, **kwargs)


# --------------------------------------------------------------------------- valid content


def test_hero_roster_is_the_content_directorys_sorted_heroes(tmp_path: Path) -> None:
    """``Scenario.hero_roster`` lists the content directory's hero ids, sorted, and
    ``Tables.hero_roster`` gives each seat's index in it (-1 for an empty seat); more
    heroes than the observation's one-hot holds is a ContentError naming the folder."""
    import copy

    from hon_env.spec.tables import MAX_ROSTER

    def extra(n: int) -> Edit:
        def edit(docs: dict) -> None:
            for k in range(n):
                hero = copy.deepcopy(docs["content/heroes/tester.yaml"])
                hero["id"] = f"aaa{k:02d}"
                docs[f"content/heroes/aaa{k:02d}.yaml"] = hero
        return edit

    scen = load(tmp_path / "a", extra(2))
    assert scen.hero_roster == ("aaa00", "aaa01", "tester")
    assert scen.tables.hero_roster.tolist() == [2] + [-1] * (TB.MAX_HEROES - 1)
    with pytest.raises(ContentError, match=f"{MAX_ROSTER + 1} heroes in the content "
                                           f"directory.*at most {MAX_ROSTER}"):
        load(tmp_path / "b", extra(MAX_ROSTER))


def test_valid_content_compiles_with_fixed_shapes(tmp_path: Path) -> None:
    scen = load(tmp_path)
    t = scen.tables
    shapes = {
        "cfg": (TB.CFG_N_COLS,), "prog": (TB.MAX_PROGS, TB.PROG_LEN, 4),
        "hero_stat": (TB.MAX_HEROES, 2, TB.HS_NCOLS),
        "hcard": (TB.MAX_HEROES, TB.HERO_DECK, TB.HC_NCOLS),
        "vil_stat": (TB.VILLAINS, TB.VS_NCOLS), "vcard": (TB.VCARDS, TB.VC_NCOLS),
        "icard": (TB.IDECK, TB.IC_NCOLS),
        "clue": (TB.CLUE_DECK, 4), "panel_prog": (TB.MAX_PANELS + 1,),
        "space_kind": (TB.MAX_SPACES,), "space_arg": (TB.MAX_SPACES,), "adj": (TB.MAX_SPACES, 6),
        "dist": (TB.MAX_SPACES, TB.MAX_SPACES), "scheme_space": (TB.MAX_PANELS + 1,),
        "peril_space": (4,), "lackey_space": (4,), "dice": (6, 3),
        "nemesis": (TB.NEMESIS_POOL, TB.NM_NCOLS), "smin": (TB.SPECIAL_MINIONS, TB.SM_NCOLS),
        "sby": (TB.SPECIAL_BYSTANDERS, TB.SB_NCOLS),
        "crisis": (TB.MAX_CRISES, TB.CR_NCOLS), "ally": (TB.MAX_HEROES, TB.AL_NCOLS),
        "hero_roster": (TB.MAX_HEROES,),
            "fame": (TB.N_FAME,), "headline": (TB.HEADLINE_POOL, TB.HL_NCOLS),
        "draft_roster": (TB.MAX_DRAFT_POOL,),
    }
    assert set(shapes) == set(t.dtype.names)
    for name, shape in shapes.items():
        array = getattr(t, name)
        assert array.shape == shape, name
        assert array.dtype == np.int32, name


def test_valid_content_exact_values(tmp_path: Path) -> None:
    scen = load(tmp_path)
    t = scen.tables
    assert t.cfg[TB.CFG_N_HEROES] == 1 and t.cfg[TB.CFG_N_SPACES] == 12
    assert t.cfg[TB.CFG_N_PANELS] == 4 and t.cfg[TB.CFG_N_SCHEMES] == 4
    assert t.cfg[TB.CFG_START_SPACE] == 5 and t.cfg[TB.CFG_MAX_ROUNDS] == 12
    assert t.cfg[TB.CFG_LOSS_COUNTER] == 0 and t.cfg[TB.CFG_LOSS_AT_LEAST] == 3
    # hero health per side; empty seats are zero
    assert t.hero_stat[0, :, TB.HS_HEALTH].tolist() == [10, 12]
    assert not t.hero_stat[1:].any() and not t.hcard[1:].any()
    # lackey health column; "-" compiles to DASH (-1)
    assert t.vcard[:4, TB.VC_HEALTH].tolist() == [3, 4, -1, 2]
    assert t.vcard[:5, TB.VC_COLOR].tolist() == [0, 1, 2, 3, 0]
    assert t.vcard[7, TB.VC_ACTIVATE_PROG] == -1  # ploy card: no activate
    assert t.vcard[7, TB.VC_NPLOYS] == 2
    assert t.vcard[7, TB.VC_PLOY0:TB.VC_PLOY0 + 3].tolist() == [1, 10, -1]
    # copies share a name id; the constant's exhaust ability is kind 2
    assert t.hcard[0, :, TB.HC_NAME_ID].tolist() == [0] * 10 + [1] * 9 + [2]
    assert t.hcard[0, 19, TB.HC_ABILITY] == 2 and t.hcard[0, 19, TB.HC_PLAY_PROG] == -1
    assert scen.hero_card_names[0][10] == "Plan" and len(scen.villain_card_names) == TB.VDECK


def test_if_compiles_with_flattened_skip(tmp_path: Path) -> None:
    t = load(tmp_path).tables
    rows = t.prog[t.hcard[0, 10, TB.HC_PLAY_PROG]]
    code = {name: spec.code for name, spec in OP_BY_NAME.items()}
    assert rows[:6].tolist() == [
        [code["gain_focus"], 1, 0, 0],
        [code["if"], COUNT_ACTIVE_DAMAGE, 2, 3],  # skips heal + the inner if + draw
        [code["heal"], 1, 0, 0],
        [code["if"], COUNT_ROUND, 3, 1],
        [code["draw"], 1, 0, 0],
        [0, 0, 0, 0],
    ]


def test_counter_names_resolve(tmp_path: Path) -> None:
    scen = load(tmp_path)
    t = scen.tables
    trap = scen.issue_card_names.index("Trap")
    assert scen.counter_names == ("loot",)
    assert t.prog[t.icard[trap, 15], 0].tolist() == [30, COUNT_COUNTER_BASE + 0, 1, 1]
    assert t.prog[t.panel_prog[2], 0].tolist() == [OP_BY_NAME["counter_add"].code, 0, 1, 0]


def test_board_tables(tmp_path: Path) -> None:
    scen = load(tmp_path)
    t = scen.tables
    assert t.space_kind[5] == TB.SP_START and t.space_kind[9] == TB.SP_PERIL
    assert t.space_kind[[0, 3, 8, 11]].tolist() == [TB.SP_SCHEME] * 4
    assert t.scheme_space.tolist() == [-1, 0, 3, 8, 11, -1, -1]
    assert t.peril_space.tolist() == [9, -1, -1, -1]
    assert t.lackey_space.tolist() == [0, 3, 8, 11]  # panels 1..4 are red, green, blue, yellow
    # S at (row 1, col 1), an odd row: E, NE, NW, W, SW, SE
    assert t.adj[5].tolist() == [6, 2, 1, 4, 9, 10]
    assert t.adj[0].tolist() == [1, 4, -1, -1, -1, -1]
    assert t.dist[0, 11] == 4 and t.dist[0, 3] == 3 and t.dist[5, 5] == 0
    assert (t.dist == t.dist.T).all()
    assert t.dist[0, 12] == UNREACHABLE and t.dist[12, 12] == UNREACHABLE
    assert scen.space_labels[:4] == ("A1", "B1", "C1", "D1") and scen.space_labels[5] == "B2"
    assert scen.space_rowcol[5] == (1, 1)
    assert scen.panel_names == ("", "Lobby", "Vault", "Office", "Roof")


def test_issue_deck_order_and_locations(tmp_path: Path) -> None:
    scen = load(tmp_path)
    t = scen.tables
    assert t.icard[:4, TB.IC_TYPE].tolist() == [TB.IT_SCHEME] * 4
    assert t.icard[4:, TB.IC_TYPE].tolist() == [TB.IT_ISSUE] * 10
    assert t.icard[:4, TB.IC_PANEL].tolist() == [1, 2, 3, 4]
    # none: -1; problem back defaults to its panel's scheme space; enemy stands there
    assert t.icard[:4, TB.IC_LOCATION].tolist() == [-1, 3, 8, -1]
    assert t.icard[13, TB.IC_LOCATION] == 5  # Trap stays at the start space
    assert scen.issue_card_names[:2] == ("Scheme One", "Scheme Two")


def test_overrides_and_listing(tmp_path: Path) -> None:
    scen = load(tmp_path, heroes=["tester", "tester"], rules={"move": 4},
                caps={"max_decisions": 99})
    assert scen.hero_ids == ("tester", "tester") and scen.tables.cfg[TB.CFG_N_HEROES] == 2
    assert scen.tables.hero_stat[1, 0, TB.HS_HEALTH] == 10
    assert scen.rules["move"] == 4 and scen.caps == {"max_rounds": 12, "max_decisions": 99}
    by_path = load_scenario(tmp_path / "scenarios" / "test_story.yaml",
                            content_dir=tmp_path / "content", villain="baddie")
    assert by_path.id == "test_story" and by_path.villain_name == "Baddie"
    assert list_content(tmp_path / "content") == {
        "heroes": ["tester"], "villains": ["baddie"], "issues": ["heist"],
        "clues": ["test_clues"], "nemeses": ["nemo"], "minions": [], "bystanders": [],
        "crises": [], "allies": [],
        "scenarios": ["test_story"],
    }


def test_identical_programs_are_shared(tmp_path: Path) -> None:
    t = load(tmp_path).tables
    assert len(set(t.hcard[0, :10, TB.HC_PLAY_PROG].tolist())) == 1


# --------------------------------------------------------------------------- broken content

HERO = "heroes/tester.yaml"
VILLAIN = "villains/baddie.yaml"
ISSUE = "issues/heist.yaml"


def _hero_card(docs: dict[str, Any], i: int) -> dict[str, Any]:
    return docs["content/heroes/tester.yaml"]["cards"][i]


def _villain(docs: dict[str, Any]) -> dict[str, Any]:
    return docs["content/villains/baddie.yaml"]


def _issue(docs: dict[str, Any]) -> dict[str, Any]:
    return docs["content/issues/heist.yaml"]


def test_unknown_op(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _hero_card(docs, 0)["effect"] = [{"op": "fly", "n": 1}]

    load_refused(tmp_path, edit, HERO, "'Punch' (#1)", "effect[0].op", "unknown op 'fly'")


def test_unknown_key(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _hero_card(docs, 1)["colour"] = "red"

    load_refused(tmp_path, edit, HERO, "'Plan' (#2)", "colour", "unknown key")


def test_unknown_op_parameter(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _hero_card(docs, 0)["effect"] = [{"op": "attack", "dice": 1, "reach": 2}]

    load_refused(tmp_path, edit,
                 HERO, "'Punch' (#1)", "effect[0].reach", "unknown key for op 'attack'")


def test_out_of_range_number(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _hero_card(docs, 1)["effect"][1]["then"][0]["n"] = 25

    load_refused(tmp_path, edit,
                 HERO, "'Plan' (#2)", "effect[1].then[0].n", "25 is above the maximum 20")


def test_out_of_range_stat(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _villain(docs)["cards"][0]["health"] = 0

    load_refused(tmp_path, edit, VILLAIN, "'Red Goon' (#1)", "health", "0 is below the minimum 1")


def test_missing_reference(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        docs["scenarios/test_story.yaml"]["villain"] = "nobody"

    load_refused(tmp_path, edit, "scenarios/test_story.yaml", "-", "villain", "no villain 'nobody'")


def test_missing_reference_from_arguments(tmp_path: Path) -> None:
    arguments_refused(tmp_path, "heroes[1]", "no hero 'ghost'", heroes=["tester", "ghost"])


def test_wrong_deck_size(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _hero_card(docs, 0)["count"] = 9

    load_refused(tmp_path, edit,
                 HERO, "-", "cards", "the hero deck has 19 cards after count, needs exactly 20")


def test_issue_needs_four_schemes(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _issue(docs)["schemes"].pop()
        _issue(docs)["cards"][0]["count"] = 10

    load_refused(tmp_path, edit, ISSUE, "-", "schemes", "3 Scheme")


def test_op_in_wrong_context(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _issue(docs)["cards"][0]["effect"] = [{"op": "gain_focus"}]

    load_refused(tmp_path, edit,
                 ISSUE, "'Alarm' (#1)", "effect[0].op",
                 "op 'gain_focus' cannot be used in a villain effect")


def test_prevent_only_in_exhaust_ability(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _hero_card(docs, 0)["effect"] = [{"op": "prevent"}]

    load_refused(tmp_path, edit,
                 HERO, "'Punch' (#1)", "effect[0].op", "only allowed inside an exhaust ability")


def _with_forms(docs: dict[str, Any]) -> None:
    """Give the fixture hero a pilot side and a mech side."""
    sides = docs["content/heroes/tester.yaml"]["hero_card"]
    sides["normal"]["form"] = "pilot"
    sides["focused"]["form"] = "mech"


def test_hero_forms_compile(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _with_forms(docs)
        _hero_card(docs, 0)["effect"] = [
            {"op": "board_mech", "range": 2},
            {"op": "if", "count": "active_hero_in_mech", "then": [{"op": "eject"}]}]
        _hero_card(docs, 2)["passive"] = {"armor": 1, "form": "mech"}

    t = load(tmp_path, edit).tables
    assert t.hero_stat[0, :, TB.HS_FORM].tolist() == [TB.FORM_PILOT, TB.FORM_MECH]
    assert t.hcard[0, 19, TB.HC_FORM] == TB.FORM_MECH and t.hcard[0, 19, TB.HC_ARMOR] == 1
    assert t.hcard[0, :19, TB.HC_FORM].tolist() == [0] * 19
    code = {name: spec.code for name, spec in OP_BY_NAME.items()}
    rows = t.prog[t.hcard[0, 0, TB.HC_PLAY_PROG]]
    assert rows[:3].tolist() == [[code["board_mech"], 2, 0, 0],
                                 [code["if"], COUNT_ACTIVE_IN_MECH, 1, 1],
                                 [code["eject"], 0, 0, 0]]


def test_fixture_hero_has_figure_form(tmp_path: Path) -> None:
    t = load(tmp_path).tables
    assert t.hero_stat[0, :, TB.HS_FORM].tolist() == [TB.FORM_FIGURE, TB.FORM_FIGURE]


def test_forms_come_as_a_pilot_and_mech_pair(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        docs["content/heroes/tester.yaml"]["hero_card"]["normal"]["form"] = "pilot"

    load_refused(tmp_path, edit,
                 HERO, "'Tester' (hero card)", "hero_card.focused.form", "form 'mech'")


def test_mech_cannot_be_the_normal_side(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        docs["content/heroes/tester.yaml"]["hero_card"]["normal"]["form"] = "mech"

    load_refused(tmp_path, edit,
                 HERO, "'Tester' (hero card)", "hero_card.normal.form", "form 'pilot'")


def test_form_op_needs_a_hero_with_forms(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _hero_card(docs, 0)["effect"] = [{"op": "attack"}, {"op": "board_mech"}]

    load_refused(tmp_path, edit,
                 HERO, "'Punch' (#1)", "effect[1].op", "'board_mech' refers to pilot and mech")


def test_form_count_needs_a_hero_with_forms(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _hero_card(docs, 2)["ability"]["effect"] = [
            {"op": "if", "count": "active_hero_piloting", "then": [{"op": "prevent"}]}]

    load_refused(tmp_path, edit,
                 HERO, "'Shield' (#3)", "ability.effect[0].count", "'if' refers to pilot")


def test_passive_form_needs_a_hero_with_forms(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _hero_card(docs, 2)["passive"] = {"move": 1, "form": "pilot"}

    load_refused(tmp_path, edit,
                 HERO, "'Shield' (#3)", "passive.form", "Tester has no pilot and mech forms")


def test_passive_form_needs_numbers(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _with_forms(docs)
        _hero_card(docs, 2)["passive"] = {"form": "mech"}

    load_refused(tmp_path, edit, HERO, "'Shield' (#3)", "passive.form", "needs passive numbers")


def test_clue_cards_cannot_use_form_ops(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        docs["content/clues/test_clues.yaml"]["cards"][1]["effect"] = [{"op": "eject"}]

    load_refused(tmp_path, edit,
                 "clues/test_clues.yaml", "'Tip' (#2)", "effect[0].op", "clue cards cannot use it")


def test_special_icon_without_effect(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        del _villain(docs)["cards"][-1]["special"]

    load_refused(tmp_path, edit,
                 VILLAIN, "'Twist' (#7)", "special", "'special' ploy icon but no special effect")


def test_map_with_two_starts(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _issue(docs)["board"]["map"][2] = "3 r S 4"

    load_refused(tmp_path, edit, ISSUE, "-", "board.map", "exactly one start space 'S', found 2")


def test_map_not_connected(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _issue(docs)["board"]["map"] = ["1 . b 2", " # # # #", "3 r S 4"]

    load_refused(tmp_path, edit, ISSUE, "-", "board.map", "the map is not connected")


def test_scheme_space_without_panel(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        del _issue(docs)["board"]["panels"][4]

    load_refused(tmp_path, edit,
                 ISSUE, "-", "board.panels.4", "scheme space '4' has no panel entry")


def test_unknown_counter(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _villain(docs)["cards"][-1]["special"] = [{"op": "counter_add", "counter": "gold"}]

    load_refused(tmp_path, edit,
                 VILLAIN, "'Twist' (#7)", "special[0].counter", "unknown counter 'gold'")


def test_minion_icon_beyond_the_board(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _villain(docs)["cards"][5]["ploys"] = ["minion_6"]

    load_refused(tmp_path, edit, VILLAIN, "'Plot' (#6)", "ploys[0]", "minion_6 names panel 6")


def test_unknown_rule(tmp_path: Path) -> None:
    arguments_refused(tmp_path, "rules.speed", "unknown rule", rules={"speed": 2})


def test_duplicate_yaml_key(tmp_path: Path) -> None:
    content = write_content(tmp_path)
    path = content / "clues" / "test_clues.yaml"
    path.write_text(path.read_text() + "id: test_clues\n")
    with pytest.raises(ContentError, match=r"clues/test_clues\.yaml: card -: .*duplicate key"):
        load_scenario("test_story", content_dir=content)


def test_panel_number_beyond_the_board(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _issue(docs)["cards"][0]["effect"] = [{"op": "place_minions", "panel": 5}]

    load_refused(tmp_path, edit, ISSUE, "'Alarm' (#1)", "effect[0].panel", "panel 5 does not exist")


# --------------------------------------------------------------------------- program store


def test_program_store_limits() -> None:
    where = Where("x.yaml", "'Card' (#1)", "effect")
    store = ProgramStore()
    assert store.add(parse_effect([], "hero", where)) == -1
    full = parse_effect([{"op": "draw"}] * TB.PROG_LEN, "hero", where)
    assert store.add(full) == 0
    too_long = parse_effect([{"op": "draw"}] * (TB.PROG_LEN + 1), "hero", where)
    with pytest.raises(ContentError, match=error_pattern(
            "x.yaml", "'Card' (#1)", "effect", f"more than the {TB.PROG_LEN}")):
        store.add(too_long)
    nested = parse_effect(
        [{"op": "if", "count": "round", "at_least": 1, "then": [{"op": "draw"}] * TB.PROG_LEN}],
        "hero", where)
    with pytest.raises(ContentError, match="compiles to 25 ops"):
        store.add(nested)


# --------------------------------------------------------------------------- real content

REAL_SCENARIO = Path(__file__).resolve().parents[1] / "configs" / "scenarios" / "origin_story.yaml"


@pytest.mark.skipif(not REAL_SCENARIO.is_file(), reason="origin_story content not written yet")
def test_real_origin_story_compiles() -> None:
    scen = load_scenario("origin_story")
    assert scen.n_heroes >= 1 and len(scen.villain_card_names) == TB.VDECK
    assert len(scen.issue_card_names) == TB.IDECK and len(scen.clue_names) == TB.CLUE_LIST


# --------------------------------------------------------------------------- nemeses and 5-6 heroes

NEMESIS = "nemeses/nemo.yaml"
NEMO_CARD = "'Nemo' (nemesis card)"


def _nemesis(docs: dict[str, Any]) -> dict[str, Any]:
    return docs["content/nemeses/nemo.yaml"]


def _second_nemesis(docs: dict[str, Any]) -> None:
    """Add a second nemesis, ``rival``, to the fixture content."""
    rival = {**_nemesis(docs), "id": "rival", "name": "Rival"}
    rival.pop("setup")
    rival["scheme"] = {"name": "Rival Plots", "danger": "-"}
    docs["content/nemeses/rival.yaml"] = rival


def test_nemesis_compiles_to_exact_values(tmp_path: Path) -> None:
    scen = load(tmp_path)
    t = scen.tables
    assert scen.nemesis_ids == ("nemo",) and scen.nemesis_names == ("Nemo",)
    assert scen.nemesis_side_names == (("Nemo Plots", "Nemo Fights"),)
    assert t.cfg[TB.CFG_N_NEMESES] == 0 and t.cfg[TB.CFG_NEMESIS_POOL] == 1  # 1 hero: none dealt
    row = t.nemesis[0]
    assert row[TB.NM_PRESENT] == 1 and row[TB.NM_DANGER] == 4 and row[TB.NM_HEALTH] == 6
    code = {name: spec.code for name, spec in OP_BY_NAME.items()}
    assert t.prog[row[TB.NM_SCHEME_PROG], 0].tolist() == [code["damage_hero"], 1, 0, 0]
    assert t.prog[row[TB.NM_ACTIVATE_PROG], 0, 0] == code["enemy_move"]
    assert t.prog[row[TB.NM_SETUP_PROG], 0].tolist() == [code["place_minions"], 1, 0, 0]
    assert not t.nemesis[1:].any()


def test_nemeses_dealt_by_hero_count_and_rule(tmp_path: Path) -> None:
    """Heroes beyond the 4 Scheme cards each need a nemesis; the Nemesis rule adds more."""
    content = write_content(tmp_path, _second_nemesis)
    for n_heroes, added, need in ((4, 0, 0), (5, 0, 1), (6, 0, 2), (1, 1, 1), (5, 1, 2)):
        scen = load_scenario("test_story", content_dir=content, heroes=["tester"] * n_heroes,
                             rules={"nemeses": added})
        assert scen.n_nemeses == need, (n_heroes, added)
    assert load_scenario("test_story", content_dir=content).nemesis_ids == ("nemo", "rival")
    picked = load_scenario("test_story", content_dir=content, nemeses=["rival"])
    assert picked.nemesis_ids == ("rival",) and picked.tables.nemesis[0, TB.NM_DANGER] == -1


def test_nemesis_pool_from_the_scenario_file(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _second_nemesis(docs)
        docs["scenarios/test_story.yaml"]["nemeses"] = ["rival"]

    assert load(tmp_path, edit).nemesis_ids == ("rival",)


# a change to the nemesis card's file: (the change, the field its error names, what it says)
BAD_NEMESES: dict[str, tuple[Callable[[dict[str, Any]], object], str, str]] = {
    "unknown_key": (lambda nemo: nemo["enemy"].update(speed=3), "enemy.speed", "unknown key"),
    "unknown_op": (lambda nemo: nemo["scheme"].update(activate=[{"op": "gloat"}]),
                   "scheme.activate[0].op", "unknown op 'gloat'"),
    "setup_op_in_wrong_context": (lambda nemo: nemo.update(setup=[{"op": "inflict"}]),
                                  "setup[0].op", "cannot be used in a villain effect"),
    "bad_number": (lambda nemo: nemo["enemy"].update(health=0), "enemy.health",
                   "0 is below the minimum 1"),
    "missing_side": (lambda nemo: nemo["scheme"].pop("danger"), "scheme.danger",
                     "missing required key"),
    # caught when the scenario compiles the card, not when the file is read
    "unknown_counter_is_caught_at_compile": (
        lambda nemo: nemo.update(setup=[{"op": "counter_add", "counter": "gold"}]),
        "setup[0].counter", "unknown counter 'gold'"),
}


@pytest.mark.parametrize("change,field,message", BAD_NEMESES.values(), ids=BAD_NEMESES)
def test_bad_nemesis_card(tmp_path: Path, change: Callable[[dict[str, Any]], object],
                          field: str, message: str) -> None:
    load_refused(tmp_path, lambda docs: change(_nemesis(docs)), NEMESIS, NEMO_CARD, field,
                 message)


def test_nemesis_wrong_kind(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _nemesis(docs)["kind"] = "villain"

    load_refused(tmp_path, edit, NEMESIS, "-", "kind", "'villain'")


def test_missing_nemesis_reference(tmp_path: Path) -> None:
    arguments_refused(tmp_path, "nemeses[1]", "no nemesis 'ghost'", nemeses=["nemo", "ghost"])


def test_missing_nemesis_reference_in_scenario(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        docs["scenarios/test_story.yaml"]["nemeses"] = ["ghost"]

    load_refused(tmp_path, edit,
                 "scenarios/test_story.yaml", "-", "nemeses[0]", "no nemesis 'ghost'")


def test_nemesis_listed_twice(tmp_path: Path) -> None:
    arguments_refused(tmp_path, "nemeses[1]", "listed twice", nemeses=["nemo", "nemo"])


def test_nemesis_pool_too_small(tmp_path: Path) -> None:
    """Six heroes and four Scheme cards need two nemeses; one card cannot supply them."""
    arguments_refused(tmp_path, "nemeses", "needs 2 nemeses",
                      heroes=["tester"] * 6, nemeses=["nemo"])
    # the default pool: one file
    arguments_refused(tmp_path, "heroes", "needs 2 nemeses", heroes=["tester"] * 6)


def test_too_many_nemeses(tmp_path: Path) -> None:
    content = write_content(tmp_path, _second_nemesis)
    with pytest.raises(ContentError, match=error_pattern(
            "load_scenario() arguments", "-", "rules.nemeses", "3 nemeses")):
        load_scenario("test_story", content_dir=content, heroes=["tester"] * 6,
                      rules={"nemeses": 1})
    with pytest.raises(ContentError, match=error_pattern(
            "load_scenario() arguments", "-", "rules.nemeses", "3 is above the maximum 2")):
        load_scenario("test_story", content_dir=content, rules={"nemeses": 3})


def test_extra_clues_doubles_the_clue_deck(tmp_path: Path) -> None:
    scen = load(tmp_path, rules={"extra_clues": True})
    t = scen.tables
    assert len(scen.clue_names) == TB.CLUE_DECK == 2 * TB.CLUE_LIST
    assert scen.clue_names[TB.CLUE_LIST:] == scen.clue_names[:TB.CLUE_LIST]
    assert t.clue[:, 0].sum() == TB.CLUE_DECK
    assert (t.clue[TB.CLUE_LIST:] == t.clue[:TB.CLUE_LIST]).all()
    plain = load(tmp_path).tables
    assert plain.clue[:, 0].sum() == TB.CLUE_LIST and not plain.clue[TB.CLUE_LIST:].any()


def test_extra_clues_must_be_a_boolean(tmp_path: Path) -> None:
    arguments_refused(tmp_path, "rules.extra_clues", "expected true or false",
                      rules={"extra_clues": 1})


# --------------------------------------------------------------------------- unsafe files

def test_non_utf8_file_names_the_file(tmp_path: Path) -> None:
    content = write_content(tmp_path)
    hero = content / "heroes" / "tester.yaml"
    hero.write_bytes(hero.read_bytes().replace(b"Tester", b"Test\xe9r", 1))
    with pytest.raises(ContentError, match=r"heroes/tester\.yaml.*not UTF-8 text: byte 0xe9"):
        load_scenario("test_story", content_dir=content)


@pytest.mark.parametrize("depth", [25, 300])
def test_nesting_depth_is_limited_naming_file_and_field(tmp_path: Path, depth: int) -> None:
    """``if`` nested deep is a ContentError naming the file (and, when the YAML parser
    gets that far, the field where the limit is passed), never a RecursionError."""
    import json

    content = write_content(tmp_path)
    hero = content / "heroes" / "tester.yaml"
    doc = yaml.safe_load(hero.read_text())
    effect: list[Any] = [{"op": "draw"}]
    for _ in range(depth):
        effect = [{"op": "if", "count": "round", "at_least": 1, "then": effect}]
    doc["cards"][0]["effect"] = effect
    hero.write_text(json.dumps(doc))  # JSON is YAML; yaml.safe_dump recurses too deep
    field = r"field 'cards\[0\]\.effect(\[0\]\.then)+.*" if depth < 100 else ""
    with pytest.raises(ContentError, match=r"heroes/tester\.yaml.*" + field + "nested deeper"):
        load_scenario("test_story", content_dir=content)


def test_deeply_nested_flow_yaml_is_a_content_error(tmp_path: Path) -> None:
    content = write_content(tmp_path)
    hero = content / "heroes" / "tester.yaml"
    hero.write_text(hero.read_text() + "extra: " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(ContentError, match=r"heroes/tester\.yaml.*nested deeper"):
        load_scenario("test_story", content_dir=content)


def test_ragged_map_rows_are_refused_naming_the_row(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _issue(docs)["board"]["map"] = ["1 . b 2", " . S .", "3 r . 4"]

    with pytest.raises(ContentError, match=re.escape("issues/heist.yaml") + r".*field "
                       r"'board\.map\[1\]'.*row 2 has 3 cells, row 1 has 4"):
        load(tmp_path, edit)


# --------------------------------------------------------------------------- caching

def test_scenarios_are_cached_until_a_file_changes(tmp_path: Path) -> None:
    """The same arguments give the same Scenario object; an edited content file is read
    again (a changed hero name shows), and restoring it gives back an equal scenario."""
    import os

    content = write_content(tmp_path)
    first = load_scenario("test_story", content_dir=content)
    assert load_scenario("test_story", content_dir=content) is first
    assert load_scenario("test_story", content_dir=content, rules={"move": 4}) is not first
    hero = content / "heroes" / "tester.yaml"
    before = hero.read_text()
    hero.write_text(before.replace("name: Tester", "name: Retset", 1))
    os.utime(hero, ns=(first_ns := 10**18, first_ns))  # a stamp unlike the first one
    changed = load_scenario("test_story", content_dir=content)
    assert changed is not first and changed.hero_names == ("Retset",)
    hero.write_text(before)
    again = load_scenario("test_story", content_dir=content)
    assert again.hero_names == ("Tester",) and again is first  # same content, same object


def test_same_size_edit_within_the_clock_tick_is_seen(tmp_path: Path) -> None:
    """A file rewritten with the same size and the same mtime (a coarse clock) is still
    re-read: recent stamps are checked by content hash."""
    import os

    content = write_content(tmp_path)
    hero = content / "heroes" / "tester.yaml"
    st = hero.stat()
    first = load_scenario("test_story", content_dir=content)
    hero.write_text(hero.read_text().replace("name: Tester", "name: Tasted", 1))
    os.utime(hero, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert load_scenario("test_story", content_dir=content).hero_names == ("Tasted",)
    assert first.hero_names == ("Tester",)


def test_a_cached_scenario_cannot_be_changed(tmp_path: Path) -> None:
    scen = load(tmp_path, rules={"move": 4})
    with pytest.raises(ValueError, match="read-only"):
        scen.tables.hero_stat[0, 0, 0] = 99
    with pytest.raises(TypeError):
        scen.rules["move"] = 5  # type: ignore[index]
    with pytest.raises(AttributeError):
        scen.hero_ids = ("x",)  # type: ignore[misc]


def test_each_file_is_parsed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hon_env.content import loader

    content = write_content(tmp_path)
    reads: list[str] = []
    real = loader.read_yaml
    monkeypatch.setattr(loader, "read_yaml", lambda p: reads.append(p.name) or real(p))
    load_scenario("test_story", content_dir=content)
    load_scenario("test_story", content_dir=content, heroes=["tester", "tester"])
    load_scenario("test_story", content_dir=content, rules={"move": 4})
    assert reads and len(reads) == len(set(reads)), reads


# --------------------------------------------------------------------------- per hero values


def test_per_hero_loss_threshold_multiplies_by_the_heroes() -> None:
    """Rulebook, per hero icon: a value with the icon is multiplied by the number of heroes;
    ``loss.at_least_per_hero`` puts it on the villain's objective threshold."""
    for n in (1, 3, 6):
        t = load_scenario("origin_story", heroes=["majesty"] * n).tables
        assert t.cfg[TB.CFG_LOSS_AT_LEAST] == 3 * n


def test_per_hero_if_threshold_compiles_multiplied() -> None:
    """Rulebook, per hero icon: ``at_least_per_hero`` on an ``if`` multiplies its
    threshold by the heroes when the scenario compiles; the ops inside are unchanged."""
    where = Where("x.yaml", "'Card' (#1)", "effect")
    raw = [{"op": "if", "count": "minions_in_villain_panel", "at_least": 2,
            "at_least_per_hero": True, "then": [{"op": "advance"}]}]
    for n in (1, 4):
        store = ProgramStore(n)
        pid = store.add(parse_effect(raw, "villain", where))
        plain = store.add(parse_effect([{**raw[0], "at_least_per_hero": False}], "villain",
                                       where))
        assert store.prog[pid, 0, 2] == 2 * n and store.prog[plain, 0, 2] == 2
        assert store.prog[pid, 1].tolist() == store.prog[plain, 1].tolist()
    with pytest.raises(ContentError, match=error_pattern(
            "x.yaml", "'Card' (#1)", "effect[0].at_least_per_hero", "expected true or false")):
        parse_effect([{**raw[0], "at_least_per_hero": 2}], "villain", where)
    with pytest.raises(ContentError, match="unknown key for op 'advance'"):
        parse_effect([{"op": "advance", "at_least_per_hero": True}], "villain", where)


def test_per_hero_loss_key_is_checked(tmp_path: Path) -> None:
    def edit(docs: dict[str, Any]) -> None:
        _issue(docs)["loss"]["at_least_per_hero"] = "yes"

    load_refused(tmp_path, edit, ISSUE, "-", "loss.at_least_per_hero", "expected true or false")


def test_every_content_kind_is_declared_once_and_loads_by_kind() -> None:
    """One table per kind of file (folder, top-level keys, parser); ``load(kind, id)`` is
    what each ``load_<kind>`` does, and an unknown kind is named."""
    from hon_env.content import loader

    assert set(loader.FILE_KEYS) == set(loader.PARSERS) == set(loader.KIND_DIRS)
    assert loader.load("hero", "majesty") is loader.load_hero("majesty")
    assert loader.load("villain", "refuser").name == loader.load_villain("refuser").name
    with pytest.raises(ValueError, match="unknown content kind 'sidekick'"):
        loader.load("sidekick", "robin")
    with pytest.raises(ContentError, match="no hero 'nobody'"):
        loader.load("hero", "nobody")


def _bfs_distances(adj: np.ndarray, n: int) -> np.ndarray:
    """Reference: one queue per space, over the ``adj`` table."""
    dist = np.full((adj.shape[0], adj.shape[0]), UNREACHABLE, dtype=np.int32)
    for s in range(n):
        dist[s, s], queue = 0, [s]
        for u in queue:
            for v in adj[u]:
                if v >= 0 and dist[s, v] == UNREACHABLE:
                    dist[s, v] = dist[s, u] + 1
                    queue.append(v)
    return dist


def test_board_distances_are_breadth_first_step_counts_on_every_board() -> None:
    """Issue board: G Map: the map's distance table counts steps between adjacent spaces;
    on every shipped issue's board and on generated ones of every size it equals a plain
    breadth-first search, unreachable cells included."""
    from hon_env.content.procgen import Knobs, generated_scenarios

    boards = [load_scenario(heroes=["majesty"], villain="dowager", issue=issue)
              for issue in list_content()["issues"]]
    for size in ("small", "medium", "large"):
        boards += generated_scenarios(range(4), ["majesty", "stride"], Knobs(size=size))
    for scen in boards:
        t = scen.tables
        assert (t.dist == _bfs_distances(t.adj, len(scen.space_labels))).all()
