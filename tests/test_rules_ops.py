"""Rules reached through effect ops that the Origin Story cards do not print yet.

Each test runs one op on a hand-built hero-turn position by pushing it on the game's
interpreter stack, exactly as a card effect would.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from rules_helpers import dist, edited_content, run_op, sp

from hon_env import Game
from hon_env import positions as P
from hon_env.spec import layout as L
from hon_env.spec import ops
from hon_env.spec.ops import (
    AWAY_FROM_VILLAIN,
    TOWARD_ANY,
    TOWARD_BYSTANDER,
    TOWARD_HERO,
    WHO_ACTIVE,
)
from hon_env.spec.tables import HS_ATTACK, VC_DEFENSE, VC_HEALTH, VC_SCALING


def hero_turn_game(origin, hero_at: str) -> Game:
    g = Game(origin, seed=0)
    P.clear_board(g)
    P.place_hero(g, 0, hero_at)
    P.jump(g, "hero_turn")
    return g


def test_forced_movement_steps_away_from_the_villain(origin):
    """Rulebook: Forced Movement — each space moved into is farther from the element."""
    g = hero_turn_game(origin, "D4")
    villain = int(g.field("vil_loc"))
    before = dist(g, "D4", villain)
    run_op(g, ops.OP_MOVE_AWAY, 2, WHO_ACTIVE, AWAY_FROM_VILLAIN)
    after = int(g.scenario.tables.dist[int(g.field("hloc")[0]), villain])
    assert after == before + 2


def test_forced_movement_stops_when_no_space_is_farther(origin):
    """Rulebook: Forced Movement — if no space is farther away, the hero does not move."""
    g = Game(origin, seed=0)
    P.clear_board(g)
    T = g.scenario.tables
    villain = int(g.field("vil_loc"))
    n = int(T.cfg[1])
    farthest = max((s for s in range(n) if T.space_kind[s] not in (0, 5)),
                   key=lambda s: (T.dist[villain, s], -s))
    assert all(T.dist[villain, x] <= T.dist[villain, farthest] for x in T.adj[farthest] if x >= 0)
    P.place_hero(g, 0, int(farthest))
    P.jump(g, "hero_turn")
    run_op(g, ops.OP_MOVE_AWAY, 3, WHO_ACTIVE, AWAY_FROM_VILLAIN)
    assert int(g.field("hloc")[0]) == farthest


def _lackey_game(origin):
    g = hero_turn_game(origin, "B5")
    i = P.add_villain_card(g, "Hatchet Hollis", 0, "F3")
    P.put_bystander(g, "H3")
    g.refresh()
    return g, i


def test_enemy_moves_toward_nearest_target_by_default(origin):
    """Rulebook: Movement and Targeting Priority — an enemy moves toward the hero or
    bystander nearest it (here the bystander two spaces away, not the hero)."""
    g, i = _lackey_game(origin)
    assert dist(g, "F3", "H3") < dist(g, "F3", "B5")
    run_op(g, ops.OP_ENEMY_MOVE, 3, TOWARD_ANY, 0, 0, L.T_V0 + i)
    assert g.field("bystander_on")[sp(g, "H3")] == 0  # walked in and captured it
    assert int(g.field("captured").sum()) == 1


def test_enemy_told_to_move_toward_heroes_ignores_bystanders(origin):
    """Rulebook: Movement and Targeting Priority — effects that name a target type make the
    enemy ignore nearer targets of other types."""
    g, i = _lackey_game(origin)
    start = dist(g, "F3", "B5")
    run_op(g, ops.OP_ENEMY_MOVE, 2, TOWARD_HERO, 0, 0, L.T_V0 + i)
    now = int(g.field("vpos")[i])
    assert dist(g, now, "B5") == start - 2
    assert g.field("bystander_on")[sp(g, "H3")] == 1
    run_op(g, ops.OP_ENEMY_MOVE, 2, TOWARD_BYSTANDER, 0, 0, L.T_V0 + i)
    assert dist(g, int(g.field("vpos")[i]), "H3") < dist(g, now, "H3")


def test_attack_effect_with_range_targets_distant_spaces(origin):
    """Rulebook: Rolling and Resolving Hero Dice, step 1a — some effects let heroes target
    spaces at a distance; a plain Attack only reaches nearby spaces."""
    g = hero_turn_game(origin, "B5")
    i = P.add_villain_card(g, "Hatchet Hollis", 0, "E5")
    g.refresh()
    assert dist(g, "B5", "E5") == 3
    assert L.A_ATTACK + sp(g, "E5") not in g.legal_actions()
    T = g.scenario.tables
    dice = int(T.hero_stat[0, 0, HS_ATTACK])
    P.force_dice(g, [1] * dice)  # all plain successes
    run_op(g, ops.OP_ATTACK, 0, 3)  # the only target in range is chosen automatically
    dealt = dice - int(T.vcard[i, VC_DEFENSE])
    if dealt >= int(T.vcard[i, VC_HEALTH]):
        assert g.field("vloc")[i] == L.L_DISCARD
    else:
        assert int(g.field("vdmg")[i]) == dealt
    assert int(g.field("hactions")[0]) == 2  # an effect's Attack spends no action


def test_villain_blocked_at_the_end_lands_nearest_its_destination(origin):
    """Rulebook: Empty Spaces — a villain passes through figures but must end on an empty
    space; if blocked, it takes the empty space near that one which is nearest its
    destination."""
    g = hero_turn_game(origin, "F1")
    P.set_villain(g, side="showdown", where="B1")
    P.add_villain_card(g, "Hatchet Hollis", 0, "D1")
    g.refresh()
    assert dist(g, "B1", "D1") == 2
    run_op(g, ops.OP_VILLAIN_MOVE, 2, TOWARD_ANY)
    assert int(g.field("vil_loc")) == sp(g, "E1")


def test_five_six_scaling_cards_leave_with_five_heroes(origin):
    """Rulebook: Setup 3a — with exactly 5 or 6 heroes the 5/6-marked villain cards are
    removed; with 2-4 heroes nothing is removed."""
    five = Game(origin.id, seed=0, heroes=["majesty"] * 5)
    four = Game(origin.id, seed=0, heroes=["majesty"] * 4)
    marked = np.flatnonzero(five.scenario.tables.vcard[:, VC_SCALING] == 5)
    assert marked.size > 0
    assert (five.field("vloc")[marked] == L.L_REMOVED).all()
    assert (four.field("vloc")[marked] != L.L_REMOVED).all()


def test_defeat_bystanders_takes_captives_first_else_crisis(origin):
    """Rulebook: Defeating Bystanders — a defeated bystander leaves the game for good."""
    g = hero_turn_game(origin, "B5")
    panel = 1
    P.put_bystander(g, f"panel {panel}", 2)
    supply = int(g.field("bystander_supply"))
    run_op(g, ops.OP_DEFEAT_BYSTANDERS, 1)
    assert int(g.field("captured")[panel]) == 1
    assert int(g.field("bystanders_defeated")) == 1
    assert int(g.field("bystander_supply")) == supply
    g.field("captured")[panel] = 0
    g.field("bystanders_defeated")[...] += 1
    crises = int(g.field("events")[L.EV_CRISES])
    run_op(g, ops.OP_DEFEAT_BYSTANDERS, 1)
    assert int(g.field("events")[L.EV_CRISES]) == crises + 1


def test_rescue_effect_reaches_a_bystander_within_range(origin):
    """Rulebook: Rescuing Bystanders — other effects may rescue a bystander from the map;
    the hero returns it to the supply and gains a clue."""
    g = hero_turn_game(origin, "B5")
    target = next(s for s in range(int(g.scenario.tables.cfg[1]))
                  if g.scenario.tables.dist[sp(g, "B5"), s] == 2
                  and g.scenario.tables.space_kind[s] not in (0, 5))
    P.put_bystander(g, target)
    clues = int(np.sum(g.field("clue_loc") == 0))
    run_op(g, ops.OP_RESCUE, 2)
    assert g.field("bystander_on")[target] == 0
    assert int(np.sum(g.field("clue_loc") == 0)) == clues + 1


def test_exhausting_a_threat_card_stops_its_next_activation(origin):
    """Rulebook: Exhausted Cards / Activating Enemies — an exhausted enemy readies instead
    of activating."""
    g = hero_turn_game(origin, "B5")
    i = P.add_villain_card(g, "Hatchet Hollis", 0, "C5")
    g.refresh()
    run_op(g, ops.OP_EXHAUST_THREAT)
    # the Scheme card in the threat area is a candidate too, so the hero picks
    assert g.decision == "pick_target"
    assert L.A_TARGET + L.T_V0 + i in g.legal_actions()
    g.apply(L.A_TARGET + L.T_V0 + i)
    assert g.field("vexh")[i] == 1
    damage = int(g.field("hdmg")[0])
    P.set_hero(g, 0, actions=0)
    g.refresh()
    g.apply(L.A_PASS)  # end actions: the threat phase runs
    assert g.field("vexh")[i] == 0
    assert int(g.field("hdmg")[0]) == damage


def _pierce_scenario(tmp_path, pierce: int):
    """Origin Story content where one of Majesty's constant cards gives ``pierce``."""
    import shutil

    import yaml

    from hon_env import load_scenario
    root = Path(__file__).resolve().parents[1] / "configs"
    shutil.copytree(root, tmp_path / "configs")
    path = tmp_path / "configs" / "content" / "heroes" / "majesty.yaml"
    data = yaml.safe_load(path.read_text())
    card = next(c for c in data["cards"] if c["type"] == "constant" and "ability" not in c)
    card.setdefault("passive", {})["pierce"] = pierce
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return load_scenario("origin_story", content_dir=tmp_path / "configs" / "content"), card


def test_defense_modifiers_positive_before_negative(tmp_path):
    """Rulebook: Defense Value — defense reduces attack damage; positive modifications apply
    before negative ones, and effect damage ignores defense."""
    sc, card = _pierce_scenario(tmp_path, 2)
    g = Game(sc, seed=0)
    P.clear_board(g)
    P.place_hero(g, 0, "B5")
    P.jump(g, "hero_turn")
    T = sc.tables
    lackeys = [i for i in range(L.VDECK) if T.vcard[i, 1] == 1 and sc.villain_card_names[i]]
    i = max(lackeys, key=lambda k: (T.vcard[k, VC_HEALTH], k))
    P.add_villain_card(g, sc.villain_card_names[i], 0, "C5")
    P.give_cards(g, 0, [card["name"]], zone="play")
    g.refresh()
    run_op(g, ops.OP_FORTIFY, 1, 1)  # lackeys +1 defense this round
    dice = int(T.hero_stat[0, 0, HS_ATTACK]) + card["passive"].get("attack_dice", 0)
    P.force_dice(g, [1] * dice)
    g.apply(L.A_ATTACK + sp(g, "C5"))
    defense = max(0, int(T.vcard[i, VC_DEFENSE]) + 1 - 2)
    expected = dice - defense
    if expected >= int(T.vcard[i, VC_HEALTH]):
        assert g.field("vloc")[i] == L.L_DISCARD
    else:
        assert int(g.field("vdmg")[i]) == expected


def test_fortify_lasts_until_the_end_of_the_round(origin):
    """Rulebook: Defense Value — a round-long defense bonus is gone the next round."""
    g = hero_turn_game(origin, "B5")
    run_op(g, ops.OP_FORTIFY, 2, 0)
    assert int(g.field("def_bonus")[0]) == 2
    P.jump(g, "issue_turn")  # runs the issue turn, then the next round starts
    assert int(g.field("round")) >= 2
    assert int(g.field("def_bonus")[0]) == 0


def test_attached_card_joins_its_host_and_leaves_with_it(origin):
    """Rulebook: Attaching Cards — an attached card sits under its host, does not count as a
    card of the threat area, and is discarded when its host leaves play."""
    g = Game(origin, seed=0)
    P.clear_board(g)
    P.place_hero(g, 0, "B5")
    lackey = P.add_villain_card(g, "Hatchet Hollis", 0, "C5")
    contract = P.stack_villain_deck(g, ["Bodyguard Contract"])[0]
    threats_before = len(g.snapshot()["heroes"][0]["threat_area"])
    P.jump(g, "villain_turn")
    assert g.field("vloc")[contract] == L.L_ATTACHED
    assert g.field("vattach")[contract] == L.T_V0 + lackey
    area = g.snapshot()["heroes"][0]["threat_area"]
    assert len(area) == threats_before
    host = next(c for c in area if c["card"] == "Hatchet Hollis")
    assert host["attached"] == ["Bodyguard Contract"]
    health = int(g.scenario.tables.vcard[lackey, VC_HEALTH])
    run_op(g, ops.OP_DAMAGE_ENEMY, health, 12)
    if g.decision == "pick_target":
        g.apply(L.A_TARGET + L.T_V0 + lackey)
    assert g.field("vloc")[lackey] == L.L_DISCARD
    assert g.field("vloc")[contract] == L.L_DISCARD


def test_attached_card_adds_defense_to_its_host(origin):
    """Rulebook: Attaching Cards / Defense Value — the contract gives its lackey +1 defense."""
    g = Game(origin, seed=0)
    P.clear_board(g)
    P.place_hero(g, 0, "B5")
    lackey = P.add_villain_card(g, "Hatchet Hollis", 0, "C5")
    P.stack_villain_deck(g, ["Bodyguard Contract"])
    P.jump(g, "villain_turn")
    T = g.scenario.tables
    dice = int(T.hero_stat[0, 0, HS_ATTACK])
    P.force_dice(g, [1] * dice)
    assert g.decision == "main"
    g.apply(L.A_ATTACK + sp(g, "C5"))
    dealt = dice - (int(T.vcard[lackey, VC_DEFENSE]) + 1)
    if dealt >= int(T.vcard[lackey, VC_HEALTH]):
        assert g.field("vloc")[lackey] == L.L_DISCARD
    else:
        assert int(g.field("vdmg")[lackey]) == dealt


def test_attaching_card_without_a_host_is_discarded(origin):
    """Rulebook: Attaching Cards — with no lackey in play the contract has nothing to join."""
    g = Game(origin, seed=0)
    P.clear_board(g)
    P.place_hero(g, 0, "B5")
    contract = P.stack_villain_deck(g, ["Bodyguard Contract"])[0]
    P.jump(g, "villain_turn")
    assert g.field("vloc")[contract] == L.L_DISCARD


def test_bystander_character_replaces_a_bystander_and_is_rescued(origin):
    """Rulebook: Replacing Bystanders / Bystander Characters — the character takes a
    bystander's place (that bystander returns to the supply) and is rescued like one."""
    g = Game(origin, seed=0)
    P.clear_board(g)
    P.place_hero(g, 0, "B5")
    target = sp(g, "C5")
    P.put_bystander(g, target)
    supply = int(g.field("bystander_supply"))
    gabby = P.stack_issue_deck(g, ["Gabby Woods, Night Teller"])[0]
    P.jump(g, "issue_turn")  # the issue card is drawn, then the next round starts
    assert g.field("iloc")[gabby] == L.L_BOARD
    assert int(g.field("ipos")[gabby]) == target
    assert g.field("bystander_on")[target] == 0
    assert int(g.field("bystander_supply")) == supply + 1
    P.jump(g, "hero_turn")
    clues = int(np.sum(g.field("clue_loc") == 0))
    assert L.A_SPACE + target in g.legal_actions()
    g.apply(L.A_SPACE + target)  # step into her space
    assert g.field("iloc")[gabby] == L.L_DISCARD
    assert int(np.sum(g.field("clue_loc") == 0)) == clues + 1


def test_bystander_character_is_captured_and_rescued_from_a_panel(origin):
    """Rulebook: Captured Bystanders / Bystander Characters — an enemy walking into her
    space captures her; a Solve success rescues her from the panel."""
    g = hero_turn_game(origin, "B5")
    gabby = g.scenario.issue_card_names.index("Gabby Woods, Night Teller")
    T = g.scenario.tables
    g.field("iloc")[gabby] = L.L_BOARD
    g.field("ipos")[gabby] = sp(g, "H3")
    _capture_by_lackey(g)
    panel_space = int(g.field("ipos")[gabby])
    assert T.space_kind[panel_space] == 5  # now held in a scheme panel
    _rescue_by_solve(g, panel_space)
    assert g.field("iloc")[gabby] == L.L_DISCARD


def _capture_by_lackey(g: Game) -> None:
    """Hatchet Hollis, put at F3, moves 3 toward the nearest bystander (capturing it)."""
    i = P.add_villain_card(g, "Hatchet Hollis", 0, "F3")
    g.refresh()
    run_op(g, ops.OP_ENEMY_MOVE, 3, TOWARD_BYSTANDER, 0, 0, L.T_V0 + i)


def _rescue_by_solve(g: Game, panel_space: int) -> None:
    """Hero 0 steps into the panel and Solves there, every success on the captives."""
    P.place_hero(g, 0, panel_space)
    g.refresh()
    P.force_dice(g, [1] * 6)
    run_op(g, ops.OP_SOLVE, 0, 1)
    if g.decision == "solve_space":
        g.apply(L.A_SOLVE + panel_space)
    while g.decision == "assign":
        g.apply(L.A_TARGET + L.T_CAPTURED)


GABBY = "    bystander: true   # a bystander character: her token replaces a bystander\n"


def _gabby_with_effects(tmp_path: Path):
    """Origin Story whose Gabby Woods card prints a rescued and a captured effect (the
    shipped card has none): a copy of the content folder with two keys added."""
    from hon_env import load_scenario

    content = edited_content(tmp_path, {"issues/century_heist.yaml": (
        GABBY, "    rescued: [{op: draw, n: 2}]\n"
               "    captured: [{op: counter_add, counter: gold, n: 1}]\n")})
    return load_scenario("origin_story", content_dir=content)


def test_bystander_character_card_effects_on_rescue_and_capture(tmp_path):
    """Rulebook: Bystander Characters — a character's card lists its own exceptions: her
    captured effect resolves when an enemy captures her (for the hero of the capturing
    effect), her rescued effect for the hero who rescues her, after the op that did it."""
    sc = _gabby_with_effects(tmp_path)
    g = hero_turn_game(sc, "B5")
    gabby = sc.issue_card_names.index("Gabby Woods, Night Teller")
    g.field("iloc")[gabby] = L.L_BOARD
    g.field("ipos")[gabby] = sp(g, "H3")
    gold = int(g.field("counters")[0])
    _capture_by_lackey(g)
    assert int(g.field("counters")[0]) == gold + 1  # captured: the villain's gold
    hand = int(np.sum(g.field("hcloc")[0] == L.L_HAND))
    _rescue_by_solve(g, int(g.field("ipos")[gabby]))
    assert g.field("iloc")[gabby] == L.L_DISCARD
    assert int(np.sum(g.field("hcloc")[0] == L.L_HAND)) == hand + 2  # rescued: draw 2


def test_only_bystander_characters_have_rescued_effects(tmp_path):
    """Rulebook: Bystander Characters — only a bystander character's card lists its own
    exceptions: the loader refuses ``rescued`` on another issue card, and an Attack in a
    rescued effect (it can resolve in the middle of a roll)."""
    from hon_env import ContentError, load_scenario

    content = edited_content(tmp_path / "a", {"issues/century_heist.yaml": (
        "  - name: Thermal Drill\n", "    rescued: [{op: draw}]\n")})
    with pytest.raises(ContentError, match="Thermal Drill.*rescued.*only a bystander"):
        load_scenario("origin_story", content_dir=content)
    content = edited_content(tmp_path / "b", {"issues/century_heist.yaml": (
        GABBY, "    rescued: [{op: attack}]\n")})
    with pytest.raises(ContentError, match="Gabby Woods.*cannot be used in a rescued"):
        load_scenario("origin_story", content_dir=content)
