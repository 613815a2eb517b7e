"""Rulebook chapters: Bystanders (Rescuing, Captured, Defeating Bystanders) and the Special
Bystanders optional rule.

The switch is ``rules={"special_bystanders": [id, ...]}`` (at most 2 special Bystander cards
from ``configs/content/bystanders/``). Gameplay tests build positions by hand with
``positions.put_special_bystander`` on a cleared board.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from rules_helpers import (
    BLANK,
    SUCCESS,
    assert_switch_refused,
    bad_switch_values,
    capture,
    clues_held,
    dist,
    event,
    hand,
    move_one,
    put_bystander,
    run_op,
    run_program,
    setup,
    sp,
    space_at,
    special_cards_reach_every_front_end,
    suffer,
    threat_phase_changes,
)

from hon_env import ContentError, Game, list_content, load_scenario
from hon_env import positions as P
from hon_env.content.loader import parse_bystander, parse_crisis
from hon_env.core.invariants import violations
from hon_env.rollout import play_batch, random_policy
from hon_env.spec import layout as L
from hon_env.spec.obs_features import read_row
from hon_env.spec.ops import OP_CAPTURE, OP_DEFEAT_BYSTANDERS, OP_PLACE_BYSTANDERS, OP_RESCUE
from hon_env.spec.tables import (
    MAX_CRISES,
    SB_CAPTURED_PROG,
    SB_DEFEATED_PROG,
    SB_RESCUED_PROG,
    SB_SETUP_PROG,
    SBE_CAPTURED,
    SBE_DEFEATED,
    SBE_RESCUED,
)

CONFIGS = Path(__file__).resolve().parents[1] / "configs"
BOTH = ["foremans_crew", "panicked_tourists"]
CREW = 0  # rows of Tables.sby in rule order
TOURISTS = 1


def special_scenario(ids=tuple(BOTH), heroes=("majesty",), **rules):
    return load_scenario("origin_story", heroes=list(heroes),
                         rules={"special_bystanders": list(ids), **rules})


def bystander_problems(g: Game) -> list[str]:
    """Invariant violations about bystanders (hand-built positions may break unrelated
    ones, such as a hero's damage set by ``set_hero``)."""
    return [v for v in violations(g.state, g.scenario.tables) if "bystander" in v]


def figures(g: Game, card: int) -> dict[str, int]:
    """Where special Bystander card ``card``'s figures are."""
    f = g.field
    return {"supply": int(f("sby_supply")[card]), "map": int((f("sby_on") == card).sum()),
            "captured": int(f("sby_capt")[:, card].sum()),
            "defeated": int(f("sby_defeated")[card])}


def fired(g: Game, card: int, ev: int) -> int:
    return int(g.field("sby_events")[card, ev])


@pytest.fixture(scope="module")
def both():
    return special_scenario()


@pytest.fixture(scope="module")
def mixed():
    """Both cards and 12 bystanders: 4 normal tokens besides the 8 special figures."""
    return special_scenario(bystanders=12)


@pytest.fixture(scope="module")
def duo():
    """Two heroes, both cards, 4 normal tokens besides the special figures."""
    return special_scenario(heroes=("majesty", "guerilla"), bystanders=12)


def duo_setup(sc, seat0="C3", seat1="G5") -> Game:
    """A cleared two-hero board, both heroes holding one card."""
    g = setup(sc, seat0)
    P.place_hero(g, 1, seat1)
    P.empty_hand(g, 1)
    P.give_cards(g, 1, ["Primal Roar"])
    return g


# --- content and the switch ---------------------------------------------------------------

def test_bystander_cards_are_a_content_kind():
    """Rulebook: Special Bystanders — special Bystander cards are listed like other
    content."""
    assert set(BOTH) <= set(list_content()["bystanders"])


@pytest.mark.parametrize("value,message", bad_switch_values(
    "bystander", "foremans_crew", "panicked_tourists", "foremans_crew"))
def test_special_bystanders_switch_is_validated(value, message):
    """Rulebook: Special Bystanders — at most 2 different special Bystander cards; a bad
    switch is a load error naming the rule."""
    assert_switch_refused("special_bystanders", value, message)


def test_special_bystanders_need_four_tokens_each():
    """Rulebook: Special Bystanders — each card replaces 4 normal bystander tokens, so the
    game needs 4 tokens per card (rule ``bystanders``, 8 by default)."""
    with pytest.raises(ContentError, match="replace 4 bystander tokens"):
        special_scenario(bystanders=7)
    with pytest.raises(ContentError, match="replace 4 bystander tokens"):
        special_scenario(["foremans_crew"], bystanders=3)
    special_scenario(bystanders=8)


GOOD = ("format_version: 1\nid: {id}\nkind: bystander\nname: Test Crowd\n"
        "captured: [{{op: place_minions, n: 1}}]\n")


@pytest.mark.parametrize("extra,field,message", [
    ("colour: red\n", "colour", "unknown key"),
    ("rescued: [{op: draw, n: 99}]\n", "rescued[0].n", "above the maximum 20"),
    ("defeated: [{op: explode}]\n", "defeated[0].op", "unknown op 'explode'"),
    ("rescued: [{op: attack, dice: 1}]\n", "rescued[0].op", "cannot be used in a rescued"),
    ("rescued: [{op: advance}]\n", "rescued[0].op", "cannot be used in a hero effect"),
    ("setup: [{op: place_bystanders, figure: mine}]\n", "setup[0].figure",
     "'mine' is not one of any, own"),
])
def test_broken_bystander_file_names_file_card_and_field(tmp_path: Path, extra, field,
                                                         message):
    """Rulebook: Special Bystanders — a special Bystander card is content like any other: a
    broken one is a load error that names the file, the card and the field (unknown key,
    bad number, unknown op, an op out of its context)."""
    path = tmp_path / "test_crowd.yaml"
    path.write_text(GOOD.format(id="test_crowd") + extra)
    with pytest.raises(ContentError, match=message) as err:
        parse_bystander(path)
    assert err.value.file.endswith("test_crowd.yaml")
    assert err.value.field == field
    if field != "colour":  # top-level keys are file fields (card "-")
        assert "Test Crowd" in err.value.card


def test_bystander_card_needs_an_effect(tmp_path: Path):
    """Rulebook: Special Bystanders — a special Bystander card gives its figures abilities;
    one without a rescued, captured or defeated effect is an error."""
    path = tmp_path / "idle.yaml"
    path.write_text("format_version: 1\nid: idle\nkind: bystander\nname: Idle\n"
                    "setup: [{op: place_bystanders, n: 1, figure: own}]\n")
    with pytest.raises(ContentError, match="needs a rescued, captured or defeated"):
        parse_bystander(path)


def test_own_figures_only_in_bystander_cards(tmp_path: Path):
    """Rulebook: Special Bystanders — ``figure: own`` names a special Bystander card's own
    figures, so other content may not use it."""
    path = tmp_path / "grab.yaml"
    path.write_text("format_version: 1\nid: grab\nkind: crisis\nname: Grab\n"
                    "crisis: [{op: place_bystanders, figure: own}]\n")
    with pytest.raises(ContentError, match="only allowed in a special Bystander") as err:
        parse_crisis(path)
    assert err.value.field == "crisis[0].figure"


# --- setup ----------------------------------------------------------------------------------

def test_setup_swaps_in_four_figures_per_card(both):
    """Rulebook: Special Bystanders — each card replaces 4 normal bystander tokens with its
    4 figures: with two cards all 8 bystanders of the game are special, the total stays 8."""
    for seed in range(4):
        g = Game(both, seed=seed)
        f = g.field
        for card in (CREW, TOURISTS):
            assert sum(figures(g, card).values()) == 4
        assert int(f("bystander_supply") + f("bystander_on").sum() + f("captured").sum()) == 8
        assert int(f("bystander_on").sum()) == int((f("sby_on") >= 0).sum())  # none normal
        assert int(f("bystander_supply")) == int(f("sby_supply").sum())
        assert not bystander_problems(g)


def test_setup_effect_is_followed(tmp_path: Path):
    """Rulebook: Special Bystanders — during setup the Setup effect of each card is
    followed: one of the Foreman's crew takes the place of a normal bystander on the map.
    Compared with the same games played with a copy of the card that has no Setup effect,
    the map holds one more crew figure (the same draws: the Setup effect draws nothing)."""
    shutil.copytree(CONFIGS, tmp_path / "configs")
    card = tmp_path / "configs" / "content" / "bystanders" / "foremans_crew.yaml"
    card.write_text("\n".join(line for line in card.read_text().splitlines()
                               if not line.startswith("setup:")) + "\n")
    without = load_scenario("origin_story", heroes=["majesty"],
                            rules={"special_bystanders": ["foremans_crew"]},
                            content_dir=tmp_path / "configs" / "content")
    one = special_scenario(["foremans_crew"])
    for seed in range(6):
        g, base = Game(one, seed=seed), Game(without, seed=seed)
        drawn = figures(base, CREW)["map"]
        assert figures(g, CREW)["map"] == min(4, drawn + 1)
        assert figures(g, CREW)["captured"] == 0
        assert int(g.field("bystander_on").sum()) == 5  # Century Heist: 5 bystander spaces
        assert not bystander_problems(g)


def test_own_figure_replaces_the_normal_bystander_nearest_the_villain():
    """Rulebook: Replacing Bystanders — the crew figure of the Setup effect replaces a
    normal bystander (the one nearest the villain, engine.md #42), which returns to the
    supply; with none to replace it is placed like any bystander."""
    one = special_scenario(["foremans_crew"])
    g = setup(one, "C3")
    near, far = "D6", "B1"
    assert dist(g, near, "panel 1") < dist(g, far, "panel 1")
    put_bystander(g, near)
    put_bystander(g, far)
    supply = int(g.field("bystander_supply"))
    run_program(g, int(one.tables.sby[CREW, SB_SETUP_PROG]))
    f = g.field
    assert int(f("sby_on")[sp(g, near)]) == CREW and int(f("sby_on")[sp(g, far)]) == -1
    assert int(f("bystander_supply")) == supply  # one crew out, one normal token back
    assert figures(g, CREW) == {"supply": 3, "map": 1, "captured": 0, "defeated": 0}
    assert not bystander_problems(g)


# --- placing bystanders ---------------------------------------------------------------------

def test_placement_draws_from_the_mixed_supply(both):
    """Rulebook: Special Bystanders / Ploy Icons — a placed bystander comes from the supply.
    With two cards all 8 bystanders are special, so a placed bystander is a special
    figure."""
    g = setup(both, "C3")
    run_op(g, OP_PLACE_BYSTANDERS, 1)
    f = g.field
    placed = np.flatnonzero(f("bystander_on"))
    assert len(placed) == 1
    assert int(f("sby_on")[placed[0]]) in (CREW, TOURISTS)
    assert int(f("sby_supply").sum()) == 7
    assert not bystander_problems(g)


def test_placement_mixes_normal_and_special_figures():
    """Rulebook: Special Bystanders — with one card the supply holds 4 normal tokens and
    4 figures; over many placements both kinds turn up, in about that proportion."""
    one = special_scenario(["panicked_tourists"])
    special = 0
    for seed in range(40):
        g = setup(one, "C3", seed=seed)
        run_op(g, OP_PLACE_BYSTANDERS, 1)
        assert int(g.field("bystander_on").sum()) == 1
        special += int((g.field("sby_on") >= 0).sum())
    assert 8 <= special <= 32


def test_no_random_draw_without_special_figures():
    """Rulebook: Special Bystanders — without special figures in the supply placing a
    bystander draws no random number, so games without the rule keep their trajectories
    (engine.md #40)."""
    plain = load_scenario("origin_story", heroes=["majesty"])
    g = setup(plain, "C3")
    rng = g.field("rng").copy()
    run_op(g, OP_PLACE_BYSTANDERS, 2)
    assert int(g.field("bystander_on").sum()) == 2
    assert (g.field("rng") == rng).all()


def test_placed_figure_captured_when_the_map_is_full(both):
    """Rulebook: Captured Bystanders — a bystander placed while 4 are on the map is captured
    in the panel nearest the villain; a special figure captured that way resolves its
    card's captured effect (Panicked Tourists: a minion in the villain's panel)."""
    g = setup(both, "C3")
    for where in ("B1", "D6", "F3", "C5"):
        P.put_special_bystander(g, CREW, where)
    run_op(g, OP_PLACE_BYSTANDERS, 1)
    f = g.field
    tourists = figures(g, TOURISTS)["captured"]
    assert int(f("captured")[1]) == 1  # the villain schemes in panel 1
    assert int(f("minions")[1]) == tourists  # a minion came only with a tourist
    assert fired(g, TOURISTS, SBE_CAPTURED) == tourists
    assert not bystander_problems(g)


# --- rescuing --------------------------------------------------------------------------------

def test_moving_onto_a_special_figure_rescues_it_for_the_mover(both):
    """Rulebook: Rescuing Bystanders / Special Bystanders — a hero entering a space with a
    special figure rescues it like any bystander (a clue, the figure back to the supply)
    and its card's rescued effect resolves for that hero: the Foreman's crew gives a card."""
    g = setup(both, "C3")
    target = "D3"
    assert dist(g, "C3", target) == 1
    P.put_special_bystander(g, CREW, target)
    P.jump(g, "hero_turn")
    cards = len(hand(g))
    move_one(g, target)
    f = g.field
    assert int(f("bystander_on")[sp(g, target)]) == 0
    assert figures(g, CREW) == {"supply": 4, "map": 0, "captured": 0, "defeated": 0}
    assert clues_held(g) == 1 and event(g, "rescues") == 1
    assert len(hand(g)) == cards + 1
    assert fired(g, CREW, SBE_RESCUED) == 1
    assert not bystander_problems(g)


def test_rescue_effect_resolves_for_the_rescuing_hero(duo):
    """Rulebook: Special Bystanders — "rescued" effects are for the hero who rescued: hero 2
    rescues with an effect (the rescue op) outside their own turn and draws, hero 1 not."""
    g = duo_setup(duo)
    P.put_special_bystander(g, CREW, "G6")
    P.jump(g, "hero_turn")
    before = [len(hand(g, 0)), len(hand(g, 1))]
    run_op(g, OP_RESCUE, 12, hero=1)
    assert [len(hand(g, 0)), len(hand(g, 1))] == [before[0], before[1] + 1]
    assert clues_held(g, 1) == 1 and clues_held(g, 0) == 0
    assert g.decision == "main" and g.current_seat == 0  # the turn goes on
    assert not bystander_problems(g)


def test_ally_rescue_resolves_for_its_hero():
    """Rulebook: Special Bystanders / Ally Cards and Figures — an ally figure that lands on
    a special figure rescues it for its hero (engine.md #38, #41): the hero gains the clue
    and the Foreman's crew card gives the hero a card."""
    sc = special_scenario(["foremans_crew"], allies=["ji_yoo_rhee"])
    g = setup(sc, "C3")
    P.place_ally(g, 0, space_at(g, "C3", 3))
    dest = space_at(g, int(g.field("ally_loc")[0]), 2, exclude=("C3",))
    P.put_special_bystander(g, CREW, dest)
    P.jump(g, "hero_turn")
    cards = len(hand(g))
    g.apply(L.A_USE + L.USE_ALLY_CARD)
    g.apply(L.A_SPACE + dest)
    assert int(g.field("sby_on")[dest]) == -1 and figures(g, CREW)["supply"] == 4
    assert clues_held(g) == 1 and len(hand(g)) == cards + 1
    assert not bystander_problems(g)


def test_solve_rescues_special_captives_first(mixed):
    """Rulebook: Captured Bystanders / Rescuing Bystanders — successes spent on captives
    rescue special figures before normal ones (engine.md #42); each returns to the supply
    and the crew figure's rescued effect resolves for the solver."""
    g = setup(mixed, "panel 2")
    capture(g, 2, 1)  # a normal captive ...
    P.put_special_bystander(g, CREW, "panel 2")  # ... and a crew figure
    P.force_dice(g, [SUCCESS, BLANK])
    P.jump(g, "hero_turn")
    cards = len(hand(g))
    g.apply(L.A_SOLVE + sp(g, "panel 2"))
    suffer(g)
    f = g.field
    assert int(f("captured")[2]) == 1 and int(f("sby_capt")[2, CREW]) == 0
    assert figures(g, CREW)["supply"] == 4
    assert len(hand(g)) == cards + 1 and clues_held(g) == 1
    assert not bystander_problems(g)


# --- capturing and defeating -------------------------------------------------------------------

def test_captured_special_figure_resolves_its_captured_effect(duo):
    """Rulebook: Captured Bystanders / Special Bystanders — a capture puts the figure in the
    panel nearest it (a captive stays special) and resolves its card's captured effect:
    Panicked Tourists bring a minion into the villain's panel."""
    g = duo_setup(duo)
    P.put_special_bystander(g, TOURISTS, "D6")
    P.jump(g, "hero_turn")
    run_op(g, OP_CAPTURE, 1, hero=1)
    f = g.field
    assert int(f("bystander_on").sum()) == 0
    assert figures(g, TOURISTS)["captured"] == 1 and int(f("captured").sum()) == 1
    assert int(f("minions")[1]) == 1  # the villain is in panel 1
    assert fired(g, TOURISTS, SBE_CAPTURED) == 1
    assert not bystander_problems(g)


def test_enemy_moving_onto_a_figure_captures_it(both):
    """Rulebook: Movement and Targeting Priority — a lackey moving into a special figure's
    space captures it into the panel nearest it (B3: panel 3); the figure's captured effect
    resolves in that threat phase (a tourist: a minion in the villain's panel 1)."""
    g = setup(both, "H6")
    vance = P.add_villain_card(g, "Chauffeur Vance", 0, "D1")
    P.put_special_bystander(g, TOURISTS, "B3")
    assert dist(g, "D1", "B3") == 3 < dist(g, "D1", "H6")
    got = threat_phase_changes(g)
    assert got == {"minions1": 1, "captured": 1, "bystanders_on_map": -1, "minion_supply": -1}
    f = g.field
    assert int(f("vpos")[vance]) == sp(g, "B3")
    assert int(f("sby_capt")[3, TOURISTS]) == 1 and int(f("captured")[3]) == 1
    assert not bystander_problems(g)


def test_defeat_takes_normal_captives_first(duo):
    """Rulebook: Defeating Bystanders — defeated bystanders leave the game. Normal captives
    of a panel go before special figures (engine.md #42); a defeated special figure is out
    of the game for good and its card's defeated effect resolves for the hero of the
    defeating effect: Panicked Tourists make hero 2 discard a card or suffer 1 damage."""
    g = duo_setup(duo)
    capture(g, 2, 1)
    P.put_special_bystander(g, TOURISTS, "panel 2")
    P.jump(g, "hero_turn")
    run_op(g, OP_DEFEAT_BYSTANDERS, 1, hero=1)
    f = g.field
    assert int(f("bystanders_defeated")) == 1 and figures(g, TOURISTS)["captured"] == 1
    assert g.decision == "main"
    run_op(g, OP_DEFEAT_BYSTANDERS, 1, hero=1)
    assert int(f("bystanders_defeated")) == 2
    assert figures(g, TOURISTS) == {"supply": 3, "map": 0, "captured": 0, "defeated": 1}
    assert g.decision == "discard_or_damage" and g.current_seat == 1
    assert fired(g, TOURISTS, SBE_DEFEATED) == 1
    assert not bystander_problems(g)


# --- the cards -------------------------------------------------------------------------------

def test_foremans_crew_card(both):
    """Rulebook: Special Bystanders — Foreman's Crew (a beneficial card): Setup places one
    of its figures (replacing a normal bystander);
    a rescued crew figure gives the rescuer a card; capturing or defeating one does
    nothing more."""
    T = both.tables
    assert T.sby[CREW, SB_SETUP_PROG] >= 0 and T.sby[CREW, SB_RESCUED_PROG] >= 0
    assert T.sby[CREW, SB_CAPTURED_PROG] == -1 and T.sby[CREW, SB_DEFEATED_PROG] == -1
    g = setup(both, "C3")
    P.put_special_bystander(g, CREW, "D6")
    P.jump(g, "hero_turn")
    run_op(g, OP_CAPTURE, 1)
    run_op(g, OP_DEFEAT_BYSTANDERS, 1)
    assert figures(g, CREW)["defeated"] == 1
    assert int(g.field("minions").sum()) == 0 and g.decision == "main"


def test_panicked_tourists_card(both):
    """Rulebook: Special Bystanders — Panicked Tourists (a detrimental card): no Setup
    effect and nothing when rescued; a captured tourist
    places a minion in the villain's panel, a defeated one makes the active hero discard a
    card or suffer 1 damage."""
    T = both.tables
    assert T.sby[TOURISTS, SB_SETUP_PROG] == -1 and T.sby[TOURISTS, SB_RESCUED_PROG] == -1
    g = setup(both, "C3")
    P.put_special_bystander(g, TOURISTS, "D3")
    P.jump(g, "hero_turn")
    cards = len(hand(g))
    move_one(g, "D3")
    assert len(hand(g)) == cards and clues_held(g) == 1  # a plain rescue
    P.put_special_bystander(g, TOURISTS, "F3")
    run_op(g, OP_CAPTURE, 1)
    assert int(g.field("minions")[1]) == 1
    P.empty_hand(g, 0)
    run_op(g, OP_DEFEAT_BYSTANDERS, 1)
    suffer(g)  # with an empty hand the hero suffers the damage
    assert int(g.field("hdmg")[0]) == 1
    assert not bystander_problems(g)


# --- observation, rendering, snapshot ----------------------------------------------------------

def test_observation_shows_special_bystanders(both):
    """The special bystander section: card present and its effects, figures in the supply,
    on the map, captured (per panel) and defeated, and a plane of the spaces they stand on."""
    g = setup(both, "C3")
    P.put_special_bystander(g, CREW, "D6")
    P.put_special_bystander(g, CREW, "panel 3")
    obs = g.observation(0)
    crew = read_row(obs, "special_bystanders", CREW)
    assert crew["present"] == 1.0 and crew["has_rescued_effect"] == 1.0
    assert crew["has_captured_effect"] == crew["has_defeated_effect"] == 0.0
    assert crew["supply"] == pytest.approx(2 / 4)
    assert crew["on_map"] == pytest.approx(1 / 4) and crew["captured"] == pytest.approx(1 / 4)
    assert crew["defeated"] == 0.0
    assert crew["panel_captives"].tolist() == pytest.approx([0, 0, 1 / 4, 0, 0, 0])
    assert np.flatnonzero(crew["plane"]).tolist() == [sp(g, "D6")]
    tourists = read_row(obs, "special_bystanders", TOURISTS)
    assert tourists["present"] == 1.0 and tourists["supply"] == 1.0
    assert tourists["has_captured_effect"] == tourists["has_defeated_effect"] == 1.0


def test_snapshot_and_text_render_show_special_bystanders(both):
    """``Game.snapshot()`` lists each card's figures; the text board marks them (B, C) and
    names them in the panel summaries."""
    from hon_env.render import render_ansi

    g = setup(both, "C3")
    P.put_special_bystander(g, CREW, "D6")
    P.put_special_bystander(g, TOURISTS, "panel 2")
    snap = g.snapshot()["special_bystanders"]
    assert snap[0] == {"name": "Foreman's Crew", "supply": 3, "on_map": ["D6"],
                       "captured": {}, "defeated": 0}
    assert snap[1]["captured"] == {g.scenario.panel_names[2]: 1}
    text = render_ansi(g)
    assert "captives 1 (1 Panicked Tourists)" in text
    assert "Special bystanders B: Foreman's Crew: on the map D6" in text
    assert "\\B     /" in text  # the map cell of D6


# --- conservation and random play ---------------------------------------------------------------

def _random_play(sc, seeds, rng) -> np.ndarray:
    """Random legal play checking every invariant at every step; returns the final
    ``sby_events`` [B, 2, 3]."""
    last = {}

    def check(state, masks):
        problems = violations(state, sc.tables, masks)
        assert not problems, problems
        last["events"] = L.field_view(state, "sby_events").copy()

    res = play_batch(sc, seeds, random_policy(rng), on_step=check)
    assert np.isin(res.outcome, [L.OUT_WIN, L.OUT_LOSS]).all()
    return last["events"]


@pytest.mark.parametrize("ids", [BOTH, ["foremans_crew"], ["panicked_tourists"]])
def test_random_play_with_special_bystanders_keeps_invariants(ids):
    """Rulebook: Special Bystanders — random legal play with the rule: normal and special
    bystanders are
    conserved card by card (a rescued figure goes back to the supply, a defeated one
    leaves the game) at every step, every game ends, and the cards' effects happen."""
    sc = special_scenario(ids, heroes=("majesty", "guerilla"))
    events = _random_play(sc, np.arange(96, dtype=np.int64), np.random.default_rng(3))
    assert events[:, :len(ids), SBE_RESCUED].sum() > 0
    assert events[:, :len(ids), SBE_CAPTURED].sum() > 0


def test_special_bystanders_through_every_front_end():
    """``rules={"special_bystanders": [...]}`` reaches the scenario from Game, the
    PettingZoo and Gymnasium envs and the vector env alike; a bad id is refused up front."""
    vec = special_cards_reach_every_front_end("bystander", "panicked_tourists",
                                              "Panicked Tourists", "sby")
    on = L.field_view(vec.state, "sby_on")
    total = (L.field_view(vec.state, "sby_supply")[:, 0] + (on == 0).sum(axis=1)
             + L.field_view(vec.state, "sby_capt")[:, :, 0].sum(axis=1))
    assert (total == 4).all()


@pytest.mark.slow
@pytest.mark.parametrize("card", sorted(list_content()["bystanders"]))
def test_random_play_with_special_bystanders_on_every_pair(card):
    """Rulebook: Special Bystanders — every villain x issue pair with each special Bystander
    card (and with two), teams of 1 to 6; on every other pair together with both special
    Minion cards, every crisis card and (small teams) the Nemesis rule, on the others with
    allies: about 800 random games keep the invariants and end."""
    rng = np.random.default_rng(13)
    content = list_content()
    for k, (villain, issue) in enumerate((v, i) for v in content["villains"]
                                         for i in content["issues"]):
        for m, ids in enumerate(([card], sorted(content["bystanders"])[:2])):
            size = 1 + (2 * k + m) % 6
            team = list(rng.choice(content["heroes"], size=size))
            rules: dict = {"special_bystanders": ids}
            if k % 2:
                rules.update(special_minions=sorted(content["minions"])[:2],
                             crisis_cards=sorted(content["crises"])[:MAX_CRISES],
                             nemeses=1 if size < 5 else 0)
            else:
                n_allies = min(size, len(content["allies"]))  # each Ally card once
                rules["allies"] = [content["allies"][(k + i) % len(content["allies"])]
                                   for i in range(n_allies)]
            sc = load_scenario("origin_story", heroes=team, villain=villain, issue=issue,
                               rules=rules)
            _random_play(sc, np.arange(24, dtype=np.int64) + 100 * k, rng)
