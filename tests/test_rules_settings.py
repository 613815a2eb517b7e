"""Rule settings (``rules=``) checked as a whole, and the engine staying within its rules
at the edges of every setting's range: Focus Tokens, Becoming Focused, and random play
with the smallest and largest values the loader accepts.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from rules_helpers import run_op, setup

from hon_env import load_scenario
from hon_env import positions as P
from hon_env.content import ContentError
from hon_env.content.compile import HERO_DECK
from hon_env.core.invariants import violations
from hon_env.rollout import play_batch, random_policy
from hon_env.spec import layout as L
from hon_env.spec import ops


@pytest.mark.parametrize("rules, field, message", [
    ({"focus_cap": 1}, "rules.focus_cap",
     "focus_cap 1 is less than focus_to_flip 5: .* (allowed: 5..20 with focus_to_flip 5)"),
    ({"focus_to_flip": 6}, "rules.focus_to_flip",
     "focus_to_flip 6 is more than focus_cap 5: .* (allowed: 0..5 with focus_cap 5)"),
    ({"focus_cap": 2, "focus_to_flip": 3}, "rules.focus_to_flip",
     "focus_to_flip 3 is more than focus_cap 2"),
])
def test_flip_cost_above_the_focus_cap_is_refused(rules, field, message):
    """Rulebook: Focus Tokens / Becoming Focused — a hero keeps at most the cap and flips by
    discarding the flip cost, so a cost above the cap could never be paid: the loader
    refuses the pair, naming the rule the caller set and the range it may take."""
    with pytest.raises(ContentError) as err:
        load_scenario("origin_story", rules=rules)
    text = str(err.value)
    assert f"field '{field}'" in text and "load_scenario() arguments" in text
    assert re.search(message.replace("(", r"\(").replace(")", r"\)"), text), text


def test_flip_cost_set_in_the_scenario_file_is_named_there(tmp_path):
    """Rulebook: Focus Tokens — the contradiction is reported where it was written: the
    scenario file's ``rules``, or the ``rules`` argument that lowers the cap."""
    text = (Path(__file__).parents[1] / "configs" / "scenarios" / "origin_story.yaml").read_text()
    path = tmp_path / "origin_story.yaml"
    path.write_text(text.replace("rules: {}", "rules: {focus_to_flip: 4}"))
    assert load_scenario(path).rules["focus_to_flip"] == 4
    with pytest.raises(ContentError, match=r"arguments: .*'rules.focus_cap': focus_cap 3 is"):
        load_scenario(path, rules={"focus_cap": 3})
    path.write_text(text.replace("rules: {}", "rules: {focus_cap: 3}"))
    with pytest.raises(ContentError,
                       match=r"/origin_story.yaml: .*'rules.focus_cap': focus_cap 3 is"):
        load_scenario(path)


def test_fewer_bystanders_than_bystander_spaces_is_refused():
    """Rulebook: Setup 3a (a bystander on each bystander space) — the ``bystanders`` tokens
    must cover the issue map's bystander spaces (Century Heist: 5)."""
    with pytest.raises(ContentError, match=r"field 'rules.bystanders': bystanders 4 is fewer "
                       r"than the 5 bystander spaces .* \(allowed: 5..60 with this issue\)"):
        load_scenario("origin_story", rules={"bystanders": 4})
    assert load_scenario("origin_story", rules={"bystanders": 5}).rules["bystanders"] == 5


@pytest.mark.parametrize("bursts", [[1] * 6, [3, 3, 0, 0, 0, 0], [3] * 6])
def test_dice_whose_rolls_might_never_end_are_refused(bursts):
    """Rulebook: Rolling and Resolving Hero Dice step 4 — each burst rolls one more die, so
    a die with a burst on every face on average (6 or more bursts over its 6 faces) could
    roll forever: the loader refuses it, naming the field and the allowed total."""
    faces = [[1, 0, n] for n in bursts]
    with pytest.raises(ContentError, match=r"field 'rules.dice_faces': the faces hold "
                       rf"{sum(bursts)} bursts .* at most 5 bursts over the 6 faces"):
        load_scenario("origin_story", rules={"dice_faces": faces})
    five = [[1, 0, 1]] * 5 + [[1, 0, 0]]
    loaded = load_scenario("origin_story", rules={"dice_faces": five}).rules["dice_faces"]
    assert [list(face) for face in loaded] == five


@pytest.mark.parametrize("cap, cost, start, gain, side, focus", [
    (5, 5, 4, 3, 1, 2),  # the rulebook's numbers: 7 is past 5, flip for 5, keep 2
    (2, 2, 1, 3, 1, 2),  # 4 past 2: flip for 2, keep 2
    (3, 1, 3, 1, 1, 3),  # 4 past 3: flip for 1, keep 3
    (0, 0, 0, 2, 1, 0),  # nothing is kept; the flip is free
    (20, 20, 18, 1, 0, 19),  # not past the cap: no flip
])
def test_gaining_focus_stays_within_zero_and_the_cap(cap, cost, start, gain, side, focus):
    """Rulebook: Focus Tokens — gaining focus past the cap during the hero turn flips the
    Hero card for the flip cost and keeps the remainder, at most the cap; focus never goes
    below 0 or above the cap whatever the (valid) settings."""
    sc = load_scenario("origin_story", rules={"focus_cap": cap, "focus_to_flip": cost})
    g = setup(sc)
    P.set_hero(g, 0, focus=start)
    P.jump(g, "hero_turn")
    run_op(g, ops.OP_GAIN_FOCUS, gain)
    assert int(g.field("hside")[0]) == side
    assert int(g.field("hfocus")[0]) == focus


@pytest.mark.parametrize("cost", [0, 3])
def test_becoming_focused_costs_the_flip_cost(cost):
    """Rulebook: Becoming Focused — the hero discards the flip cost (``focus_to_flip``)."""
    sc = load_scenario("origin_story", rules={"focus_to_flip": cost})
    g = setup(sc)
    P.set_hero(g, 0, focus=cost + 1)
    P.jump(g, "hero_turn")
    assert L.A_FOCUS in g.legal_actions()
    assert f"discard {cost} focus" in g.action_to_string(L.A_FOCUS)
    g.apply(L.A_FOCUS)
    assert int(g.field("hside")[0]) == 1
    assert int(g.field("hfocus")[0]) == 1


EDGE_RULES = [
    {"focus_cap": 0, "focus_to_flip": 0},
    {"focus_cap": 1, "focus_to_flip": 1},
    {"focus_cap": 20, "focus_to_flip": 0},
    {"focus_cap": 20, "focus_to_flip": 20},
    {"hand_size": 0},
    {"hand_size": HERO_DECK},
    {"minions": 0},
    {"bystanders": 5},  # one per bystander space of Century Heist, none in the supply
    {"max_map_bystanders": 0},
    {"move": 1, "max_yields": 0},
    {"toughness": 0, "minion_health": 10, "minion_inflict": 10},
    {"toughness": 10, "minion_inflict": 0},
    {"dice_faces": [[0, 0, 0]] * 6},
    {"dice_faces": [[3, 3, 1]] * 5 + [[3, 3, 0]]},  # the most bursts a die may hold
]


@pytest.mark.parametrize("rules", EDGE_RULES, ids=[str(r)[:40] for r in EDGE_RULES])
def test_random_play_at_the_edge_settings_keeps_invariants(rules):
    """Rulebook: Focus Tokens, Becoming Focused and the settings the rulebook leaves open —
    random legal play with each setting at the end of its range (two heroes) ends every
    game, every decision has a legal action, and the invariants hold at every step."""
    sc = load_scenario("origin_story", heroes=["majesty", "majesty"], rules=rules)
    cap = sc.rules["focus_cap"]

    def check(state, masks):
        assert not violations(state, sc.tables, masks)
        focus = L.field_view(state, "hfocus")
        assert ((focus >= 0) & (focus <= cap)).all()

    res = play_batch(sc, np.arange(24, dtype=np.int64), random_policy(np.random.default_rng(1)),
                     on_step=check)
    assert np.isin(res.outcome, [L.OUT_WIN, L.OUT_LOSS, L.OUT_TRUNCATED]).all()
