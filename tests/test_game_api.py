"""The ``Game`` facade: errors, copies, serialization, snapshots and action strings."""

from __future__ import annotations

import json

import numpy as np
import pytest

from hon_env import N_ACTIONS, Game, IllegalActionError, action_meanings, list_content
from hon_env import positions as P
from hon_env.core import layout as L


def _play_random(g: Game, rng: np.random.Generator, max_steps: int = 10_000) -> None:
    for _ in range(max_steps):
        if g.is_over:
            return
        g.apply(int(rng.choice(g.legal_actions())))


def test_illegal_action_names_action_and_legal_ones(origin):
    g = Game(origin, seed=1)
    illegal = int(np.flatnonzero(g.legal_mask() == 0)[0])
    before = g.state.copy()
    with pytest.raises(IllegalActionError) as err:
        g.apply(illegal)
    msg = str(err.value)
    assert f"action {illegal}" in msg and "legal:" in msg and "keep hand" in msg
    np.testing.assert_array_equal(g.state, before)
    with pytest.raises(IllegalActionError, match="out of range"):
        g.apply(N_ACTIONS + 5)


def test_apply_after_the_end_raises(origin):
    g = Game(origin, seed=2)
    _play_random(g, np.random.default_rng(0))
    assert g.is_over and g.outcome in ("win", "loss") and g.current_agent is None
    assert g.legal_actions().size == 0
    with pytest.raises(RuntimeError, match="over"):
        g.apply(0)


def test_clone_is_independent(origin):
    g = Game(origin, seed=3)
    c = g.clone()
    c.apply(int(c.legal_actions()[-1]))
    assert not np.array_equal(g.state, c.state)
    assert g.decision == "mulligan"


def test_bytes_round_trip_continues_identically(origin):
    g = Game(origin, seed=4)
    rng = np.random.default_rng(5)
    for _ in range(15):
        g.apply(int(rng.choice(g.legal_actions())))
    h = Game.from_bytes(origin, g.to_bytes())
    np.testing.assert_array_equal(h.legal_mask(), g.legal_mask())
    a, b = np.random.default_rng(6), np.random.default_rng(6)
    _play_random(g, a)
    _play_random(h, b)
    np.testing.assert_array_equal(g.state, h.state)
    with pytest.raises(ValueError, match="bytes"):
        Game.from_bytes(origin, b"123")


def test_snapshot_is_json_and_named(origin):
    g = Game(origin, seed=8)
    _play_random(g, np.random.default_rng(1), max_steps=30)
    snap = json.loads(json.dumps(g.snapshot()))
    hero = snap["heroes"][0]
    assert hero["id"] == "majesty" and hero["health"] > 0
    assert {"round", "turn", "villain", "supplies", "board", "issue", "events"} <= set(snap)
    assert snap["villain"]["hidden_tokens"] == int(g.field("vil_hidden"))
    assert set(snap["issue"]["counters"]) == {"gold"}


def test_every_legal_action_has_a_contextual_string(duo):
    g = Game(duo, seed=9)
    rng = np.random.default_rng(2)
    seen_kinds = set()
    while not g.is_over:
        for a in g.legal_actions():
            text = g.action_to_string(int(a))
            assert text.startswith(("Majesty", "Majesty")) and len(text) > 10
        seen_kinds.add(g.decision)
        g.apply(int(rng.choice(g.legal_actions())))
    assert "main" in seen_kinds


def test_action_meanings_cover_the_action_space(origin):
    names = action_meanings(origin)
    assert len(names) == N_ACTIONS == L.N_ACTIONS
    assert names[L.A_PASS] == "pass" and names[L.A_DRAW] == "draw"
    assert names[L.A_FOCUS] == "become focused"


def test_agents_and_list_content(duo):
    g = Game(duo, seed=0)
    assert g.agents == ["majesty", "majesty_2"]
    content = list_content()
    assert "majesty" in content["heroes"] and "dowager" in content["villains"]
    assert "century_heist" in content["issues"] and "origin_story" in content["scenarios"]


def test_jump_to_hero_turn_gives_main_menu(origin):
    g = Game(origin, seed=0)
    P.clear_board(g)
    P.place_hero(g, 0, "panel 1")
    P.jump(g, "hero_turn")
    assert g.decision == "main" and g.current_agent == "majesty"
    assert int(g.field("hactions")[0]) == 2
    with pytest.raises(ValueError, match="jump target"):
        P.jump(g, "lunch")
