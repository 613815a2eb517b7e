"""The Two Fronts variant: two villains on one board (docs/variants.md, Two Fronts).

Sources: seed 003 (a two-villain house variant of Sentinels of the Multiverse), cited as
``003 §SECTION``, for what changes; the rulebook (000) for everything else (Setup step 3:
the villain deck, the Villain card on its Scheming side in panel 1, one hidden token per
hero). Engine interpretations: docs/engine.md #46-#48.
"""

from __future__ import annotations

import numpy as np
import pytest
from rules_helpers import SUCCESS, neighbours, remove_schemes, run_program

from hon_env import Game, load_scenario
from hon_env import positions as P
from hon_env.content.errors import ContentError
from hon_env.core import facing
from hon_env.core.validate import first_problem
from hon_env.spec import layout as L
from hon_env.spec.tables import (
    CFG_N_VILLAINS,
    CFG_TF_BLINDSIDE,
    CFG_TF_FLOOR,
    VC_ACTIVATE_PROG,
    VC_SHOWDOWN_PROG,
    VCARDS,
    VDECK,
    VS_DANGER,
    VS_HEALTH,
)

PAIR = ["dowager", "refuser"]
TRIO = ["majesty", "stride", "majesty"]


def two_fronts(heroes=TRIO, seed: int = 0, villain=PAIR, **kw) -> Game:
    return Game("origin_story", heroes=list(heroes), villain=villain, seed=seed, **kw)


def choose_facing(g: Game, faces: list[int]) -> None:
    """Keep every hand, then face villain ``faces[h]`` with hero ``h`` (the last hero's
    choice is made for it when only one villain is left unfaced)."""
    while g.decision == "mulligan":
        g.apply(L.A_PASS)
    for h, v in enumerate(faces):
        if h == len(faces) - 1 and faces[:h].count(v) == 0:
            assert g.decision != "face"
            break
        assert g.decision == "face" and g.current_seat == h
        g.apply(L.A_OPTION + v)
    assert g.field("hface")[:len(faces)].tolist() == faces


def test_two_villains_switch_the_variant_on() -> None:
    """003 §GAME SETUP: a second villain joins the game, from the villain list or the rule."""
    listed = load_scenario("origin_story", heroes=TRIO, villain=PAIR)
    by_rule = load_scenario("origin_story", heroes=TRIO,
                            rules={"two_fronts": {"second_villain": "refuser"}})
    one = load_scenario("origin_story", heroes=TRIO)
    for sc in (listed, by_rule):
        assert sc.two_fronts and sc.n_villains == 2
        assert sc.villain_ids == ("dowager", "refuser")
        assert sc.villain_names == ("Dowager", "Refuser")
        assert len(sc.villain_card_names) == VCARDS
        assert sc.villain_card_names[:VDECK] == one.villain_card_names
        assert int(sc.tables.cfg[CFG_N_VILLAINS]) == 2
        assert sc.tables.vil_stat[1, VS_HEALTH] > 0
    assert np.array_equal(listed.tables.vcard, by_rule.tables.vcard)
    assert not one.two_fronts and one.villain_ids == ("dowager",)
    assert int(one.tables.cfg[CFG_N_VILLAINS]) == 1
    assert not one.tables.vcard[VDECK:, 0].any() and not one.tables.vil_stat[1].any()
    assert listed.rules["two_fronts"] == {"second_villain": None, "per_hero_floor": 1,
                                          "blindside": 1}
    tuned = load_scenario("origin_story", heroes=TRIO, villain=PAIR,
                          rules={"two_fronts": {"per_hero_floor": 3, "blindside": 2}})
    assert int(tuned.tables.cfg[CFG_TF_FLOOR]) == 3
    assert int(tuned.tables.cfg[CFG_TF_BLINDSIDE]) == 2


@pytest.mark.parametrize("kw, match", [
    ({"heroes": ["majesty"], "villain": PAIR}, r"'heroes'.*1 hero against two villains"),
    ({"villain": ["dowager", "dowager"]}, r"'villain\[1\]'.*listed twice"),
    ({"villain": ["dowager", "refuser", "dowager"]}, r"3 villains"),
    ({"villain": ["dowager", "nobody"]}, r"'villain\[1\]'.*no villain 'nobody'"),
    ({"rules": {"two_fronts": True}}, r"'rules.two_fronts'.*needs a second villain"),
    ({"rules": {"two_fronts": {"second_villain": "dowager"}}}, r"different villains"),
    ({"villain": PAIR, "rules": {"two_fronts": {"second_villain": "refuser"}}},
     r"not both"),
    ({"villain": PAIR, "rules": {"two_fronts": {"blindside": 9}}}, r"blindside'.*9"),
    ({"villain": PAIR, "rules": {"two_fronts": {"per_hero_floor": 0}}}, r"per_hero_floor"),
    ({"villain": PAIR, "rules": {"two_fronts": {"flank": 1}}}, r"unknown two_fronts setting"),
    ({"villain": PAIR, "rules": {"villain_agent": True}}, r"cannot be combined"),
])
def test_bad_two_fronts_settings_are_refused(kw: dict, match: str) -> None:
    """003 §GAME SETUP: two different villains, each faced by a hero (so 2 heroes at
    least); a bad setting is an error naming it."""
    kw = {"heroes": TRIO, **kw}
    with pytest.raises(ContentError, match=match):
        load_scenario("origin_story", **kw)


def test_setup_puts_both_villains_on_the_board() -> None:
    """Rulebook Setup step 3, for each villain (003 §GAME SETUP): its own shuffled deck,
    its Villain card Scheming, the first villain in panel 1 and the second in panel 2."""
    g = two_fronts(seed=4)
    sc, f = g.scenario, g.field
    assert g.decision == "mulligan"
    assert int(f("vil_loc")) == sc.tables.scheme_space[1]
    assert int(f("vil2_loc")) == sc.tables.scheme_space[2]
    assert int(f("vil_in_panel")) == 1 and int(f("vil2_in_panel")) == 1
    assert int(f("vil2_side")) == 0 and int(f("vil2_owner")) == -1
    order = f("vdeck2_order")[:int(f("vdeck2_n"))] + VDECK
    present = [i for i in range(VDECK, VCARDS) if sc.tables.vcard[i, 0] == 1]
    assert sorted(order.tolist()) == present  # 3 heroes: no scaling card leaves
    assert order.tolist() != present  # shuffled
    assert (f("vloc")[order] == L.L_DECK).all()
    first = f("vdeck_order")[:int(f("vdeck_n"))]
    assert (first < VDECK).all() and len(first) == int(f("vdeck_n"))
    assert first_problem(g.state[0], sc.tables) is None


def test_each_hero_chooses_a_villain_and_both_are_faced() -> None:
    """003 §GAME SETUP: each hero chooses the villain it faces at the start; at least one
    hero faces each villain (the last chooser is held to the unfaced one)."""
    g = two_fronts(seed=1)
    while g.decision == "mulligan":
        g.apply(L.A_PASS)
    for h in range(2):
        assert g.decision == "face" and g.current_seat == h
        assert set(g.legal_actions()) == {L.A_OPTION, L.A_OPTION + 1}
        assert "face Dowager" in g.action_to_string(L.A_OPTION)
        assert "face Refuser" in g.action_to_string(L.A_OPTION + 1)
        g.apply(L.A_OPTION + 1)
    # the last hero would leave the Dowager unfaced: the single legal answer is taken
    # for it, so the game has moved on past setup
    assert g.decision != "face"
    assert g.field("hface")[:3].tolist() == [1, 1, 0]


def test_facing_is_recorded_and_splits_the_hidden_tokens() -> None:
    """003 §GAME SETUP and rulebook Setup step 3 (one hidden token per hero): each hero's
    token goes on the villain it faces; the total is the one-villain game's."""
    for faces in ([0, 1, 1], [1, 0, 0], [0, 0, 1]):
        g = two_fronts(seed=2)
        choose_facing(g, faces)
        f = g.field
        assert f("hface")[:3].tolist() == faces
        assert int(f("vil_hidden")) == faces.count(0)
        assert int(f("vil2_hidden")) == faces.count(1)


@pytest.mark.parametrize("floor", [1, 2, 3])
def test_villain_values_count_the_heroes_facing_it(floor: int) -> None:
    """003 §THE H ICON: a villain's per-hero values count the heroes facing it, never
    fewer than the floor (rule ``per_hero_floor``; the seed's floor is 3)."""
    g = two_fronts(seed=3, rules={"two_fronts": {"per_hero_floor": floor}})
    choose_facing(g, [0, 1, 1])
    vs, f = g.scenario.tables.vil_stat, g.field
    for v, n in ((0, 1), (1, 2)):
        n = max(n, floor)
        prefix = "vil" if v == 0 else "vil2"
        health = vs[v, VS_HEALTH] * (n if vs[v, VS_HEALTH + 1] else 1)
        danger = vs[v, VS_DANGER] * (n if vs[v, VS_DANGER + 1] else 1)
        assert int(f(f"{prefix}_health")) == health
        assert int(f(f"{prefix}_danger")) == danger


def test_one_villain_keeps_the_second_villain_fields_empty() -> None:
    """With one villain the game is the rulebook's: no facing decision, the second
    villain's card slots removed, its fields untouched (engine.md #46)."""
    g = Game("origin_story", heroes=TRIO, seed=0)
    f = g.field
    assert (f("vloc")[VDECK:] == L.L_REMOVED).all()
    assert not f("hface").any() and not f("vil_out").any()
    assert int(f("vdeck2_n")) == 0 and int(f("vil2_owner")) == -1
    seen = set()
    rng = np.random.default_rng(0)
    for _ in range(200):
        if g.is_over:
            break
        seen.add(g.decision)
        g.apply(int(rng.choice(g.legal_actions())))
    assert "face" not in seen
    row = g.state[0].copy()
    row[L.HFACE + 1] = 1
    assert "hface" in first_problem(row, g.scenario.tables)


# --- facing during the game -------------------------------------------------------------

DUO = ["majesty", "stride"]


def fronts(faces: list[int], seed: int = 0, **rule) -> Game:
    """Two heroes against the Dowager (villain 0) and the Refuser (villain 1), facing
    ``faces``; then a cleared board without Scheme cards, hero 0 at C3, hero 1 at H2."""
    g = Game("origin_story", heroes=DUO, villain=PAIR, seed=seed,
             rules={"two_fronts": rule} if rule else None)
    choose_facing(g, faces)
    P.clear_board(g)
    remove_schemes(g)
    P.place_hero(g, 1, "H2")
    P.place_hero(g, 0, "C3")
    return g


def tallow_inflicts(g: Game) -> int:
    """Damage hero 0 takes when Miss Tallow (a Dowager lackey in its threat area) inflicts
    its owner, suffered in full."""
    tallow = P.add_villain_card(g, "Miss Tallow, Bookkeeper", 0, "G7")
    before = int(g.field("hdmg")[0])
    prog = int(g.scenario.tables.vcard[tallow, VC_ACTIVATE_PROG])
    run_program(g, prog, hero=0, src=L.T_V0 + tallow)
    while g.decision == "damage" and g.current_seat == 0:
        g.apply(L.A_PASS)
    return int(g.field("hdmg")[0]) - before


def test_blindside_adds_damage_from_the_villain_not_faced() -> None:
    """003 §BLINDSIDE: a hero dealt damage by a card of the villain it does not face takes
    1 more (rule ``blindside``); facing that villain, or with one villain, it does not."""
    facing = tallow_inflicts(fronts([0, 1]))
    assert tallow_inflicts(fronts([1, 0])) == facing + 1
    assert tallow_inflicts(fronts([1, 0], blindside=2)) == facing + 2
    one = Game("origin_story", heroes=DUO, seed=0)
    P.clear_board(one)
    remove_schemes(one)
    assert tallow_inflicts(one) == facing


def card_damage(g: Game, name: str, effect: int = VC_ACTIVATE_PROG, where: str | None = "C3",
                seat: int = 0) -> int:
    """Damage hero 0 takes when the Dowager's card ``name`` (in hero ``seat``'s threat
    area, its figure or token at ``where``, next to hero 0; None: left in the deck)
    resolves its effect ``effect`` (a column of the villain card table), every damage
    suffered in full (not paid by a discard) and every inflict given to hero 0."""
    if where:
        card = P.add_villain_card(g, name, seat, where)
    else:  # a card that is not put into play (its Showdown effect alone)
        card = list(g.scenario.villain_card_names).index(name)
    before = int(g.field("hdmg")[0])
    run_program(g, int(g.scenario.tables.vcard[card, effect]), hero=seat,
                src=L.T_V0 + card)
    while not g.is_over and g.current_seat in (0, 1):
        if g.decision in ("damage", "discard_or_damage"):
            g.apply(L.A_PASS if g.decision == "damage" else next(
                a for a in g.legal_actions() if a < L.A_CARD))
        elif g.decision == "pick_hero":
            g.apply(L.A_HERO + (0 - g.current_seat) % 2)
        else:
            break
    return int(g.field("hdmg")[0]) - before


@pytest.mark.parametrize("name, effect, plain", [
    ("Hatchet Hollis", VC_ACTIVATE_PROG, 2),   # a lackey's inflict (inflict 2)
    ("Chauffeur Vance", VC_ACTIVATE_PROG, 1),  # a lackey's inflict (inflict 1)
    ("Gala Firebomb", VC_ACTIVATE_PROG, 2),    # a peril's damage_hero 2
    ("Hatchet Hollis", VC_SHOWDOWN_PROG, 1),   # a Showdown effect's damage_hero 1
])
def test_blindside_covers_every_damage_from_the_villain_not_faced(name, effect, plain):
    """003 §BLINDSIDE: damage dealt by any card of the villain a hero does not face goes
    up by the bonus: a lackey's inflict (given to a hero by the inflict choice), a
    ``damage_hero`` in a peril's or Showdown effect; facing that villain it does not."""
    assert card_damage(fronts([0, 1]), name, effect) == plain
    assert card_damage(fronts([1, 0]), name, effect) == plain + 1
    assert card_damage(fronts([1, 0], blindside=3), name, effect) == plain + 3


def test_blindside_covers_damage_a_hero_chooses_over_a_discard():
    """003 §BLINDSIDE: a Showdown's ``discard_or_damage 2`` (Whispered Threats) that hero 0
    takes as damage is damage dealt by the Dowager's card: 2 facing her, 3 facing the
    Refuser."""
    assert card_damage(fronts([0, 1]), "Whispered Threats", VC_SHOWDOWN_PROG, None) == 2
    assert card_damage(fronts([1, 0]), "Whispered Threats", VC_SHOWDOWN_PROG, None) == 3


def test_blindside_reaches_a_hero_another_hero_picks_to_suffer_an_inflict():
    """003 §BLINDSIDE with the inflict choice: the lackey of the Dowager sits between both
    heroes; hero 1 (facing the Dowager) holds it and gives the inflict to hero 0, who
    faces the Refuser: hero 0 suffers inflict + 1."""
    g = fronts([1, 0])
    P.place_hero(g, 1, "C3")
    assert card_damage(g, "Hatchet Hollis", seat=1) == 3


def attack_targets(g: Game) -> set[int]:
    return {int(a) - L.A_ATTACK for a in g.legal_actions()
            if L.A_ATTACK <= a < L.A_ATTACK + L.MAX_SPACES}


def test_facing_limits_attacks_to_the_faced_villains_cards() -> None:
    """003 §FACING A VILLAIN, §BATTLE: a hero may not attack a lackey of the villain it
    does not face; minions (shared, like the environment) stay open to every hero."""
    for faces, open_to_hero in (([0, 1], True), ([1, 0], False)):
        g = fronts(faces)
        target = next(iter(neighbours(g, "C3")))
        P.add_villain_card(g, "Chauffeur Vance", 0, target)
        P.jump(g, "hero_turn")
        assert g.decision == "main" and g.current_seat == 0
        assert (target in attack_targets(g)) is open_to_hero
    g = fronts([1, 0])
    P.put_minions(g, 1, 1)  # panel 1, nearby from C3's panel side
    P.place_hero(g, 0, int(g.scenario.tables.scheme_space[1]))
    P.jump(g, "hero_turn")
    assert int(g.scenario.tables.scheme_space[1]) in attack_targets(g)


def test_facing_limits_effect_targets() -> None:
    """003 §FACING A VILLAIN: effects a hero resolves (here ``damage_enemy``, a
    D_PICK_TARGET) skip the other villain's cards."""
    from hon_env.core import masks

    for face, allowed in ((0, True), (1, False)):
        g = fronts([face, 1 - face])
        vance = P.add_villain_card(g, "Chauffeur Vance", 0, next(iter(neighbours(g, "C3"))))
        ok = masks.pick_target_ok(g.state, 0, g.scenario.tables, 0, L.T_V0 + vance, 0, 3)
        assert ok is allowed


# --- turning around, the villain turn, a villain's defeat and the win ---------------------

def test_turning_around_costs_an_action_and_keeps_cards_in_play() -> None:
    """003 §TURN SEQUENCE (turn around): a hero gives up part of its turn (here one of its
    two actions) to face the other villain, and its cards in play stay; 003 §GAME SETUP
    (at least one hero faces each villain): a hero that is its villain's last may not."""
    g = two_fronts(TRIO)
    choose_facing(g, [0, 0, 1])
    P.clear_board(g)
    remove_schemes(g)
    P.place_hero(g, 0, "C3")
    in_play = P.give_cards(g, 0, ["Throne Breaker"], zone="play")
    P.jump(g, "hero_turn")
    assert g.decision == "main" and g.current_seat == 0
    actions = int(g.field("hactions")[0])
    assert L.A_TURN in g.legal_actions()
    g.apply(L.A_TURN)
    assert g.field("hface")[:3].tolist() == [1, 0, 1]
    assert int(g.field("hactions")[0]) == actions - 1
    assert int(g.field("hcloc")[0, in_play[0]]) == L.L_PLAY
    T = g.scenario.tables
    assert not facing.can_turn(g.state, 0, T, 1)  # the Dowager's last hero stays
    assert facing.can_turn(g.state, 0, T, 2)
    one = Game("origin_story", heroes=DUO, seed=0)
    P.jump(one, "hero_turn")
    assert one.decision == "main" and L.A_TURN not in one.legal_actions()


def play_villain_turn(g: Game) -> None:
    """Answer the villain turn's decisions with their lowest legal action until it ends."""
    while not g.is_over and int(g.field("turn")) == L.TURN_VILLAIN:
        g.apply(int(g.legal_actions()[0]))


def test_each_hero_draws_from_the_deck_of_the_villain_it_faces() -> None:
    """003 §TURN SEQUENCE (each villain's turn stays as it is), mapped onto the one villain
    turn of Hour of Need (engine.md #47): every hero draws one villain card, from the deck
    of the villain it faces, so two villains split the draws rather than double them."""
    g = fronts([0, 1])
    dowager = P.stack_villain_deck(g, ["Contested Will"])
    refuser = P.stack_villain_deck(g, ["Scrapjaw Hauler"], villain=1)
    assert refuser[0] >= VDECK
    n1, n2 = int(g.field("vdeck_n")), int(g.field("vdeck2_n"))
    P.jump(g, "villain_turn")
    play_villain_turn(g)
    assert (int(g.field("vdeck_n")), int(g.field("vdeck2_n"))) == (n1 - 1, n2 - 1)
    for c in dowager + refuser:
        assert int(g.field("vloc")[c]) != L.L_DECK


def attack(g: Game, where: str | int) -> None:
    g.apply(L.A_ATTACK + P.space(g, where))


def test_a_villain_falls_alone_then_the_heroes_win_when_both_are_down() -> None:
    """003 §THE H ICON (once one villain is destroyed the other's count is every hero) and
    engine.md #50: the first villain defeated leaves the game with its cards in play, its
    heroes turn to the other one, and the game goes on; the heroes win only when the second
    falls too. The Showdown reaction draws from the attacked villain's deck."""
    g = fronts([0, 1])
    T = g.scenario.tables
    near = sorted(neighbours(g, "C3"))
    P.set_villain(g, side="showdown", where=near[0], owner=0,
                  damage=int(g.field("vil_health")) - 1)
    vance = P.add_villain_card(g, "Chauffeur Vance", 1, "H3")
    P.stack_villain_deck(g, ["Contested Will"])  # no Showdown effect
    P.force_dice(g, [SUCCESS] * 12)
    P.jump(g, "hero_turn")
    n2 = int(g.field("vdeck2_n"))
    attack(g, near[0])
    assert not g.is_over
    assert g.field("vil_out").tolist() == [1, 0]
    assert g.field("hface")[:2].tolist() == [1, 1]
    assert int(g.field("vloc")[vance]) == L.L_REMOVED
    assert facing.hero_count_for(g.state, 0, T, 1) == 2
    assert int(g.field("vdeck2_n")) == n2  # the first villain's Showdown drew from its own
    health2 = int(g.field("vil2_health"))
    P.set_villain(g, villain=1, side="showdown", where=near[1], owner=0, damage=health2 - 1)
    hauler = P.stack_villain_deck(g, ["Scrapjaw Hauler"], villain=1)  # no Showdown effect
    P.remask(g)
    assert g.decision == "main" and g.current_seat == 0
    attack(g, near[1])
    assert int(g.field("vloc")[hauler[0]]) != L.L_DECK  # its Showdown card, from its deck
    assert g.is_over and g.outcome == "win"
    assert g.field("vil_out").tolist() == [1, 1]


# --- random play ------------------------------------------------------------------------

ISSUES = ("century_heist", "blackout_gala", "dockside_smuggling", "rooftop_relay")
ROSTER = ("majesty", "stride", "guerilla", "cipher", "vigil", "microguy")


def random_games(villains: list[str], issue: str, n_heroes: int, games: int, seed: int):
    """Random-legal play of ``games`` Two Fronts games; invariants checked every step."""
    from hon_env.core.invariants import violations
    from hon_env.rollout import play_batch, random_policy

    sc = load_scenario("origin_story", heroes=list(ROSTER[:n_heroes]), villain=villains,
                       issue=issue)

    def check(state, masks):
        problems = violations(state, sc.tables, masks)
        assert not problems, problems
        for row in state[L.field_view(state, "outcome") == L.OUT_ONGOING]:
            assert first_problem(row, sc.tables) is None

    seeds = np.arange(games, dtype=np.int64) + 1000 * seed
    return play_batch(sc, seeds, random_policy(np.random.default_rng(seed)), on_step=check)


@pytest.mark.parametrize("issue", ISSUES)
def test_random_play_keeps_invariants(issue: str) -> None:
    """003 §GAME SETUP with every issue, both villain orders and 2-6 heroes: random legal
    play ends every game in a win or a loss (or the caps) with the invariants intact."""
    k = ISSUES.index(issue)
    for n_heroes, villains in ((2 + k, PAIR), (6 - k, PAIR[::-1])):
        res = random_games(villains, issue, n_heroes, games=8, seed=k)
        assert np.isin(res.outcome, [L.OUT_WIN, L.OUT_LOSS, L.OUT_TRUNCATED]).all()


@pytest.mark.slow
@pytest.mark.parametrize("issue", ISSUES)
@pytest.mark.parametrize("n_heroes", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("order", [0, 1])
def test_random_play_sweep(issue: str, n_heroes: int, order: int) -> None:
    """The random-play check over every villain pair (both orders) x issue x 2-6 heroes."""
    villains = PAIR if order == 0 else PAIR[::-1]
    res = random_games(villains, issue, n_heroes, games=64, seed=n_heroes + 10 * order)
    assert np.isin(res.outcome, [L.OUT_WIN, L.OUT_LOSS, L.OUT_TRUNCATED]).all()


def test_replay_records_rebuild_a_two_villain_scenario() -> None:
    """A recorded Two Fronts game names both villains, so replaying rebuilds the same
    scenario whichever way the second villain was given."""
    from hon_env.play.replay import scenario_overrides

    for kw in ({"villain": PAIR}, {"rules": {"two_fronts": {"second_villain": "refuser"}}}):
        sc = load_scenario("origin_story", heroes=TRIO, **kw)
        o = scenario_overrides(sc)
        assert o["villain"] == PAIR
        again = load_scenario("origin_story", **o)
        assert again.villain_ids == sc.villain_ids
        assert again.tables.base.tobytes() == sc.tables.base.tobytes()


def test_snapshot_and_text_render_show_both_villains() -> None:
    """The snapshot and the text board name both villains, their figures (V and W) and the
    villain each hero faces; a one-villain game's snapshot has no second villain."""
    from hon_env.render import render_ansi

    g = two_fronts(seed=5)
    choose_facing(g, [1, 0, 0])
    snap = g.snapshot()
    assert snap["villain"]["name"] == "Dowager" and snap["villain2"]["name"] == "Refuser"
    assert snap["villain2"]["hidden_tokens"] == 1
    assert [h["facing"] for h in snap["heroes"]] == ["Refuser", "Dowager", "Dowager"]
    text = render_ansi(g)
    assert "vs Dowager and Refuser" in text and "Villain 2: Refuser" in text
    assert "faces: Refuser" in text and "W" in text.split("markers")[0]
    one = Game("origin_story", heroes=TRIO, seed=5).snapshot()
    assert "villain2" not in one and "facing" not in one["heroes"][0]


def test_image_render_draws_both_villains() -> None:
    """The image renderer's scene (``rgb_array``, hon-play) draws the second villain's
    figure (W) beside the first's (V), names both villains and the facing of each hero."""
    from hon_env.views.scene import scene

    def texts(g: Game) -> list[str]:
        return [str(p[3]) for p in scene(g) if p[0] == "text"]

    g = two_fronts(seed=5)
    choose_facing(g, [1, 0, 0])
    shown = texts(g)
    assert "V" in shown and "W" in shown
    assert any("vs Dowager and Refuser" in t for t in shown)
    assert any(t.startswith("Villain 2 (W): Refuser") for t in shown)
    assert any("faces Refuser" in t for t in shown)
    one = texts(Game("origin_story", heroes=TRIO, seed=5))
    assert "W" not in one and not any("Villain 2" in t for t in one)
    from hon_env.render import render_rgb

    frame = render_rgb(g, dpi=50)
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.std() > 0


def test_eval_command_plays_the_scenarios_villains(tmp_path) -> None:
    """``hon-eval --scenario two_fronts``: the scenario's team against both its villains
    (one row, named ``a+b``); ``--villains a+b`` picks another pair."""
    import json

    from agents.cli.evaluate import main

    out = tmp_path / "rows.json"
    main(["--policy", "random", "--scenario", "two_fronts", "--games", "2", "--json",
          str(out)])
    rows = json.loads(out.read_text())
    assert [(r["villain"], r["issue"], tuple(r["heroes"])) for r in rows] == [
        ("dowager+refuser", "century_heist", ("majesty", "stride", "guerilla"))]
    main(["--policy", "random", "--scenario", "two_fronts", "--villains", "refuser+dowager",
          "--issues", "rooftop_relay", "--games", "2", "--json", str(out)])
    assert [r["villain"] for r in json.loads(out.read_text())] == ["refuser+dowager"]


def test_scripted_team_focuses_one_villain() -> None:
    """The scripted team's facing choice (docs/baselines.md; 003 §GAME SETUP: at least one
    hero faces each villain): the second seat holds the second villain alone and every
    other hero faces the first, so four heroes split three and one."""
    from agents import load_policy

    policy = load_policy("heuristic")
    g = two_fronts(["majesty", "stride", "guerilla", "cipher"], seed=3)
    while g.decision in ("mulligan", "face"):
        g.apply(int(policy.act(g.observation()[None], g.legal_mask()[None],
                               np.array([g.current_seat]), engine=g.engine)[0]))
    assert g.field("hface")[:4].tolist() == [0, 1, 0, 0]


def test_scripted_cunning_choice_weighs_the_inflicting_villain() -> None:
    """Rulebook Ploy Icons (Cunning: the villain schemes, or inflicts the hero) with 003
    §BLINDSIDE: the scripted team lets the villain inflict only when the hero survives it,
    counting the inflict of the villain whose card it is and the blindside bonus when the
    hero does not face that villain."""
    from agents import HeuristicPolicy
    from hon_env.core.interp import F_PLOY
    from hon_env.core.queries import enemy_inflict

    g = two_fronts(seed=2)
    choose_facing(g, [0, 1, 0])
    state, tabs = g.engine
    T = tabs[0]
    policy = HeuristicPolicy()
    mask = np.zeros((1, L.N_ACTIONS), np.int8)
    mask[0, L.A_OPTION:L.A_OPTION + 2] = 1

    def answer(card: int, damage_left: int) -> int:
        s = state.copy()
        s[0, L.DEC_KIND], s[0, L.DEC_HERO], s[0, L.DEC_A] = L.D_CUNNING, 0, 0
        top = L.STACK + s[0, L.SP] * L.STACK_W
        s[0, top:top + 6] = (F_PLOY, card, 0, 0, 0, L.T_VILLAIN)
        s[0, L.SP] += 1
        s[0, L.HDMG] = _hero_health(s, T) - damage_left
        assert s[0, L.HDMG] >= 0
        return int(policy.act(None, mask, None, engine=(s, tabs))[0]) - L.A_OPTION

    first = int(enemy_inflict(state, 0, T, L.T_VILLAIN))
    second = int(enemy_inflict(state, 0, T, L.T_VILLAIN2)) + int(T.cfg[CFG_TF_BLINDSIDE])
    # hero 0 faces the first villain: a card of the second hits from behind
    assert answer(0, first + 1) == 1  # the first villain's card: it survives, inflict
    assert answer(L.VDECK, second + 1) == 1
    assert answer(L.VDECK, second) == 0  # it would fall to the second's blindside: scheme
    assert answer(0, second) == (1 if second > first else 0)


def _hero_health(s: np.ndarray, T) -> int:
    from hon_env.core.queries import hero_health

    return int(hero_health(s, 0, T, 0))
