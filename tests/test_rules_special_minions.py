"""Rulebook chapters: Minions, Minion Cards and the Special Minions optional rule.

The switch is ``rules={"special_minions": [id, ...]}`` (at most 2 special Minion cards from
``configs/content/minions/``). Gameplay tests build positions by hand with
``positions.put_special_minions`` on a cleared one-hero board.
"""

from __future__ import annotations

import numpy as np
import pytest
from rules_helpers import (
    BLANK,
    SUCCESS,
    assert_switch_refused,
    bad_switch_values,
    clues_held,
    invariant_checker,
    roll_attack,
    roll_solve,
    setup,
    special_cards_reach_every_front_end,
    suffer,
)

from hon_env import ContentError, Game, list_content, load_scenario
from hon_env import positions as P
from hon_env.core import interp
from hon_env.core.invariants import violations
from hon_env.rollout import play_batch, random_policy
from hon_env.spec import layout as L
from hon_env.spec.obs_features import read_row
from hon_env.spec.tables import SM_HEALTH, SM_INFLICT

BOTH = ["phase_ii_brinkbots", "hired_muscle"]
BRINKBOTS = 0  # rows of Tables.smin in rule order
MUSCLE = 1


def special_scenario(ids=tuple(BOTH), **rules):
    return load_scenario("origin_story", heroes=["majesty"],
                         rules={"special_minions": list(ids), **rules})


def minion_problems(g: Game) -> list[str]:
    """Invariant violations about minions (hand-built positions may break unrelated ones,
    such as a hero's damage set by ``set_hero``)."""
    return [v for v in violations(g.state, g.scenario.tables) if "minion" in v]


@pytest.fixture(scope="module")
def both():
    return special_scenario()


# --- content and the switch ---------------------------------------------------------------

def test_minion_cards_are_a_content_kind():
    """Rulebook: Minion Cards — special Minion cards are listed like other content."""
    assert set(BOTH) <= set(list_content()["minions"])


@pytest.mark.parametrize("value,message", bad_switch_values(
    "minion", "phase_ii_brinkbots", "hired_muscle", "hired_muscle"))
def test_special_minions_switch_is_validated(value, message):
    """Rulebook: Special Minions — at most 2 different special Minion cards; a bad switch
    is a load error naming the rule."""
    assert_switch_refused("special_minions", value, message)


def test_special_minions_need_five_supply_tokens_each():
    """Rulebook: Special Minions — each card replaces 5 minion tokens of the supply."""
    with pytest.raises(ContentError, match="replace 5 minion tokens"):
        special_scenario(minions=9)
    special_scenario(minions=10)


# --- setup ----------------------------------------------------------------------------------

def test_setup_swaps_in_five_figures_per_card_and_runs_setup_effects(both):
    """Rulebook: Special Minions — each card brings 5 special figures into the supply (the
    total stays 10) and its Setup effect is followed: the Brinkbots card places 1 minion in
    the villain's panel."""
    plain = load_scenario("origin_story", heroes=["majesty"])
    for seed in range(4):
        g, base = Game(both, seed=seed), Game(plain, seed=seed)
        f = g.field
        assert int(f("smin_supply").sum() + f("smin").sum()) == 10
        assert (f("smin_supply") + f("smin").sum(axis=0) == 5).all()
        assert int(f("minions").sum()) == int(base.field("minions").sum()) + 1
        assert int(f("minion_supply") + f("minions").sum()) == 10
        assert not minion_problems(g)


# --- placement --------------------------------------------------------------------------------

def test_placement_draws_from_the_mixed_supply(both):
    """Rulebook: Minions / Special Minions — a placed minion comes from the supply. With two
    cards all 10 figures of the supply are special, so placed minions are special ones."""
    g = setup(both, "C3")
    f = g.field
    assert int(f("minion_supply")) == int(f("smin_supply").sum()) == 10
    interp.place_minions(g.state, 0, both.tables, 3, 2)
    assert int(f("minions")[2]) == 3
    assert int(f("smin")[2].sum()) == 3
    assert int(f("smin_supply").sum()) == 7
    assert not minion_problems(g)


def test_placement_mixes_normal_and_special_figures():
    """Rulebook: Special Minions — with one card the supply holds 5 normal and 5 special
    figures; over many placements both kinds turn up, in about that proportion."""
    one = special_scenario(["phase_ii_brinkbots"])
    special = 0
    for seed in range(40):
        g = setup(one, "C3", seed=seed)
        interp.place_minions(g.state, 0, one.tables, 1, 2)
        assert int(g.field("minions")[2]) == 1
        special += int(g.field("smin")[2].sum())
    assert 8 <= special <= 32


# --- damage and defeat ------------------------------------------------------------------------

def test_special_minion_keeps_damage_below_its_health(both):
    """Rulebook: Minion Cards — a special minion with 2 health keeps damage that does not
    defeat it (normal minions in its panel are defeated first). With one special Minion
    card the supply keeps 5 normal minions."""
    assert both.tables.smin[BRINKBOTS, SM_HEALTH] == 2
    g = setup(special_scenario(["phase_ii_brinkbots"]), "G5")
    P.put_special_minions(g, BRINKBOTS, 2, 1)
    P.put_minions(g, 2, 1)  # one normal minion beside it
    roll_attack(g, "panel 2", [SUCCESS, SUCCESS, BLANK])
    f = g.field
    assert int(f("minions")[2]) == 1  # the normal one fell
    assert int(f("smin")[2, BRINKBOTS]) == 1
    assert int(f("smin_dmg")[2, BRINKBOTS]) == 1
    assert int(f("hdmg")[0]) == 0
    assert not minion_problems(g)


def test_defeated_special_minion_resolves_its_card_effect(both):
    """Rulebook: Minion Cards — a defeated special minion returns to the supply; the
    Brinkbots card deals 1 damage to the hero who defeated it, Hired Muscle gives them a
    clue."""
    g = setup(both, "G5")
    P.put_special_minions(g, BRINKBOTS, 2, 1, damage=1)
    P.put_special_minions(g, MUSCLE, 2, 1)
    supply = int(g.field("smin_supply")[BRINKBOTS])
    roll_attack(g, "panel 2", [SUCCESS, SUCCESS, SUCCESS])
    suffer(g)
    f = g.field
    assert int(f("minions")[2]) == 0
    assert int(f("smin_supply")[BRINKBOTS]) == supply + 1
    assert (f("smin_dmg")[2] == 0).all()
    assert int(f("hdmg")[0]) == 1  # the Brinkbot's sparks
    assert clues_held(g) == 1  # the bruiser talked
    assert not minion_problems(g)


def test_special_minions_inflict_their_card_value_after_solve(both):
    """Rulebook: Solve / Minion Cards — after a Solve each nearby minion inflicts: a
    Brinkbot (inflict 2) and a normal minion (inflict 1) deal 3."""
    from rules_helpers import set_scheme

    assert both.tables.smin[BRINKBOTS, SM_INFLICT] == 2
    g = setup(special_scenario(["phase_ii_brinkbots"]), "panel 2")
    set_scheme(g, 0, "Hostages at the Counter")
    P.put_special_minions(g, BRINKBOTS, 2, 1)
    P.put_minions(g, 2, 1)
    roll_solve(g, "panel 2", [SUCCESS, BLANK])
    suffer(g)
    assert int(g.field("hdmg")[0]) == 3


def test_observation_shows_special_minions(both):
    """The special minion section: card present, figures per panel, damage kept."""
    g = setup(both, "G5")
    P.put_special_minions(g, BRINKBOTS, 3, 2, damage=1)
    obs = g.observation(0)
    bots = read_row(obs, "special_minions", BRINKBOTS)
    assert bots["present"] == 1.0
    assert bots["panel_figures"][3 - 1] == pytest.approx(2 / 5)  # panel 3
    assert bots["panel_damage"][3 - 1] == pytest.approx(1 / 2)


# --- random play --------------------------------------------------------------------------------

@pytest.mark.parametrize("ids", [BOTH, ["phase_ii_brinkbots"]])
def test_random_play_with_special_minions_keeps_invariants(ids):
    """Random legal play with the Special Minions rule ends in a win or a loss with the
    invariants (figure conservation, kept damage below health) intact at every step."""
    rng = np.random.default_rng(7)
    sc = load_scenario("origin_story", heroes=["majesty", "guerilla"],
                       rules={"special_minions": ids})
    seen = np.zeros(16, bool)

    def check(state, masks):
        problems = violations(state, sc.tables, masks)
        assert not problems, problems
        seen[:] |= L.field_view(state, "smin").sum(axis=(1, 2)) > 0

    res = play_batch(sc, np.arange(16, dtype=np.int64), random_policy(rng), on_step=check)
    assert np.isin(res.outcome, [L.OUT_WIN, L.OUT_LOSS]).all()
    assert seen.any()


def test_special_minions_through_every_front_end():
    """``rules={"special_minions": [...]}`` reaches the scenario from Game, the PettingZoo
    and Gymnasium envs and the vector env alike; a bad id is refused up front."""
    vec = special_cards_reach_every_front_end("minion", "hired_muscle", "Hired Muscle", "smin")
    smin = L.field_view(vec.state, "smin_supply")
    assert (smin[:, 0] + L.field_view(vec.state, "smin")[:, :, 0].sum(axis=1) == 5).all()


@pytest.mark.slow
@pytest.mark.parametrize("card", sorted(list_content()["minions"]))
def test_random_play_with_special_minions_on_every_pair(card):
    """Every villain x issue pair with each special Minion card (and with both), teams of
    1 to 4: random legal play keeps the invariants and ends every game."""
    rng = np.random.default_rng(11)
    content = list_content()
    for k, (villain, issue) in enumerate((v, i) for v in content["villains"]
                                         for i in content["issues"]):
        for ids in ([card], sorted(content["minions"])[:2]):
            team = list(rng.choice(content["heroes"], size=1 + k % 4))
            sc = load_scenario("origin_story", heroes=team, villain=villain, issue=issue,
                               rules={"special_minions": ids})

            check = invariant_checker(sc, team)

            res = play_batch(sc, np.arange(24, dtype=np.int64) + 100 * k,
                             random_policy(rng), on_step=check)
            assert np.isin(res.outcome, [L.OUT_WIN, L.OUT_LOSS]).all()


def test_text_render_names_special_minions(both):
    """The text rendering says which of a panel's minions are special figures and the
    damage kept on them."""
    from hon_env.render import render_ansi

    g = setup(both, "G5")
    P.put_special_minions(g, BRINKBOTS, 2, 2, damage=1)
    text = render_ansi(g)
    assert "minions 2 (2 Phase II Brinkbots, 1 damage kept)" in text
