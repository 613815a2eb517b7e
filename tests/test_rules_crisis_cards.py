"""Rulebook chapters: Crisis Cards, A Crisis Occurs and the Crisis Cards optional rule.

The switch is ``rules={"crisis_cards": [id, ...]}`` (ids from ``configs/content/crises/``,
at most MAX_CRISES). Gameplay tests raise a crisis with the ``crisis`` op on a cleared
one-hero board.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from rules_helpers import event, put_bystander, run_op, setup, sp

from hon_env import ContentError, Game, list_content, load_scenario
from hon_env.content.loader import parse_crisis
from hon_env.content.tables import MAX_CRISES
from hon_env.core import layout as L
from hon_env.core.interp import OP_CRISIS
from hon_env.core.invariants import violations
from hon_env.rollout import play_batch, random_policy

ABDUCTOR = "abductor_at_large"
MEANER = "mr_meaners_smear_campaign"


def crisis_scenario(ids, **kw):
    return load_scenario("origin_story", heroes=["majesty"], rules={"crisis_cards": ids}, **kw)


# --- content and the switch ---------------------------------------------------------------

def test_crisis_cards_are_a_content_kind():
    """Rulebook: Crisis Cards — optional crisis cards are listed like other content."""
    assert {ABDUCTOR, MEANER} <= set(list_content()["crises"])


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

    def check(state, masks):
        problems = violations(state, sc.tables, masks)
        assert not problems, problems

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

                def check(state, masks, sc=sc, team=team):
                    problems = violations(state, sc.tables, masks)
                    assert not problems, (team, problems)

                res = play_batch(sc, np.arange(16, dtype=np.int64) + 100 * k,
                                 random_policy(rng), on_step=check)
                assert np.isin(res.outcome, [L.OUT_WIN, L.OUT_LOSS]).all()
                k += 1
