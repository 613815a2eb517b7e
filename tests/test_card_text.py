"""Card text per card of a compiled scenario (``hon_env.content.card_text``), which the
front ends show beside a card, and the cards actions and targets name
(``describe.action_card`` / ``target_card``)."""

from __future__ import annotations

import numpy as np
import pytest

from hon_env import Game, load_scenario
from hon_env.content.card_text import KINDS, CardRef, card_name, card_text
from hon_env.content.loader import DEFAULT_CONTENT_DIR
from hon_env.describe import action_card

RULES = {"special_minions": ["hired_muscle"], "special_bystanders": ["foremans_crew"],
         "crisis_cards": ["abductor_at_large", "cinderwicks_chemical_fire"],
         "allies": ["crabman", "lox_lee"]}


@pytest.fixture(scope="module")
def rich():
    """Two heroes with every optional card kind in play."""
    return load_scenario("origin_story", heroes=["majesty", "microguy"], rules=RULES)


def _every_ref(sc) -> list[CardRef]:
    """Every card of every kind the scenario names."""
    refs = [CardRef("hero_card", k, h) for h in range(sc.n_heroes)
            for k in range(len(sc.hero_card_names[h]))]
    refs += [CardRef("hero", h) for h in range(sc.n_heroes)]
    refs += [CardRef("villain", v) for v in range(sc.n_villains)]
    refs += [CardRef("ally", h) for h in range(sc.n_heroes) if sc.ally_names[h]]
    pool = sc.rules["draft"]["pool"] if sc.rules["draft"] else ()
    refs += [CardRef("draft", k) for k in range(len(pool))]
    for kind, names in (("villain_card", sc.villain_card_names),
                        ("issue_card", sc.issue_card_names), ("clue", sc.clue_names),
                        ("nemesis", sc.nemesis_names),
                        ("special_minion", sc.special_minion_names),
                        ("special_bystander", sc.special_bystander_names),
                        ("crisis", sc.crisis_card_names)):
        refs += [CardRef(kind, k) for k in range(len(names))]
    return refs


@pytest.mark.parametrize("name", ["rich", "two_fronts", "draft_pick"])
def test_every_card_of_a_scenario_has_text(name, rich):
    """Every card, of every kind, is found in its file under the scenario's name (the
    helper checks the name: a wrong index mapping raises) and has words."""
    sc = rich if name == "rich" else load_scenario(name)
    refs = _every_ref(sc)
    kinds = {r.kind for r in refs}
    if name == "rich":
        assert kinds == set(KINDS) - {"draft"}
    for ref in refs:
        text = card_text(sc, *ref)
        assert text and not text.startswith("—"), (ref, text)
        assert card_name(sc, *ref)


def test_known_cards_read_as_the_catalogue_does(rich):
    hand = rich.hero_card_names[0]
    assert card_text(rich, "hero_card", hand.index("Backhand")) == (
        "deal 1 damage to an enemy within 1 (instant; feats: toughness)")
    assert card_text(rich, "hero_card", hand.index("Throne Breaker")) == (
        "attack with +2 dice (instant, action; feats: strength)")
    assert "Regal Bearing (exhaust): prevent 1 damage" in card_text(rich, "hero", 0)
    assert "Armored Chassis (passive): armor 1" in card_text(rich, "hero", 1)
    hollis = rich.villain_card_names.index("Hatchet Hollis")
    assert card_text(rich, "villain_card", hollis).startswith(
        "lackey (red): health 4, defense 1, inflict 2; activate: ")
    assert card_text(rich, "ally", 0).startswith("Health 7, attack 3, solve 0; Ability: "
                                                 "Hydraulic Claws (exhaust)")
    # the same cell as docs/content.md's deck table (one generator for both)
    assert "| Backhand | 2 | instant |  |  | toughness | deal 1 damage to an enemy within 1 |" \
        in (DEFAULT_CONTENT_DIR.parents[1] / "docs" / "content.md").read_text()


def test_bad_references_are_named(rich, tmp_path):
    with pytest.raises(ValueError, match="unknown card kind 'spell'"):
        card_text(rich, "spell", 0)
    with pytest.raises(IndexError, match="hero card 20 does not exist"):
        card_text(rich, "hero_card", 20)
    with pytest.raises(IndexError, match="seat 9 does not exist"):
        card_name(rich, "hero_card", 0, seat=9)
    solo = load_scenario("origin_story")
    with pytest.raises(IndexError, match="seat 0 has no ally"):
        card_text(solo, "ally", 0)
    # a content folder whose card differs from the compiled one is refused
    other = tmp_path / "content" / "heroes"
    other.mkdir(parents=True)
    text = (DEFAULT_CONTENT_DIR / "heroes" / "majesty.yaml").read_text()
    (other / "majesty.yaml").write_text(text.replace("name: Backhand", "name: Slap"))
    k = rich.hero_card_names[0].index("Backhand")
    with pytest.raises(ValueError, match="'Slap', the scenario names 'Backhand'"):
        card_text(rich, "hero_card", k, content_dir=tmp_path / "content")


def test_actions_name_their_cards(rich):
    """Random legal play: every action naming a card gives a card whose name the action's
    words contain (a nemesis by its side's name, the Hero card and Focus by the hero)."""
    rng = np.random.default_rng(0)
    g = Game(rich, seed=3)
    seen = set()
    for _ in range(600):
        if g.is_over:
            break
        for a in g.legal_actions():
            ref = action_card(rich, g.state[0], int(a))
            if ref is None:
                continue
            words = g.action_to_string(int(a))
            names = [card_name(rich, *ref)]
            if ref.kind == "nemesis":
                names += list(rich.nemesis_side_names[ref.index])
            assert any(n in words for n in names), (words, ref)
            assert card_text(rich, *ref)
            seen.add(ref.kind)
        g.apply(int(rng.choice(g.legal_actions())))
    assert {"hero_card", "hero", "clue", "ally", "villain_card"} <= seen
