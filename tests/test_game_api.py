"""The ``Game`` facade: errors, copies, serialization, snapshots and action strings."""

from __future__ import annotations

import json

import numpy as np
import pytest
from rules_helpers import every_front_end

from hon_env import N_ACTIONS, Game, IllegalActionError, action_meanings, list_content
from hon_env import positions as P
from hon_env.spec import layout as L


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
    """Two Majesty seats: each string names the deciding seat by its agent name."""
    g = Game(duo, seed=9)
    rng = np.random.default_rng(2)
    seen_kinds = set()
    while not g.is_over:
        for a in g.legal_actions():
            text = g.action_to_string(int(a))
            assert text.startswith(f"{g.current_agent}: ") and len(text) > 10
        seen_kinds.add(g.decision)
        g.apply(int(rng.choice(g.legal_actions())))
    assert "main" in seen_kinds


def test_action_meanings_cover_the_action_space(origin):
    names = action_meanings(origin)
    assert len(names) == N_ACTIONS == L.N_ACTIONS
    assert names[L.A_PASS] == "pass" and names[L.A_DRAW] == "draw"
    assert names[L.A_FOCUS] == "become focused"
    assert action_meanings("origin_story") == names  # a scenario id names the same board
    with pytest.raises(TypeError, match="takes a Scenario or a scenario id, got 3"):
        action_meanings(3)


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


def test_list_content_names_the_nemeses():
    assert set(list_content()["nemeses"]) == {"rampart", "whisperloom"}


def test_nemeses_chosen_through_every_front_end():
    """``nemeses=[...]`` reaches the scenario from Game, the PettingZoo and Gymnasium envs
    and the vector env alike; a string instead of a list is refused."""
    from hon_env import hour_of_need_v8

    g, aec, single, vec = every_front_end(heroes=["majesty"] * 5, nemeses=["whisperloom"])
    assert g.snapshot()["nemeses"][0]["name"] == "Whisperloom"
    assert aec.unwrapped.game.scenario.nemesis_ids == ("whisperloom",)
    par = hour_of_need_v8.parallel_env(n_heroes=2, rules={"nemeses": 1}, nemeses=["rampart"])
    par.reset(seed=0)
    assert par.game.snapshot()["nemeses"][0]["name"] == "Rampart"
    assert single.unwrapped.game.scenario.n_nemeses == 1
    assert (L.field_view(vec.state, "nem_card")[:, 0] == 0).all()
    assert vec.scenario.nemesis_ids == ("whisperloom",)
    with pytest.raises(TypeError, match="list of nemesis ids"):
        hour_of_need_v8.env(nemeses="rampart")


def test_observation_encodes_the_nemeses():
    """The nemesis section: whose threat area, side, damage/justice, distance; the figure
    on the board planes (feature 16 of its space)."""
    from hon_env.spec.obs_features import read, read_row

    g = Game(heroes=["majesty"] * 5, nemeses=["rampart"], seed=0)
    while g.decision == "mulligan":
        g.apply(L.A_PASS)
    panel = int(g.field("nem_pos")[0])
    own, other = g.observation(4), g.observation(0)
    mine, theirs = read_row(own, "nemeses", 0), read_row(other, "nemeses", 0)
    assert mine["own_threat_area"] == 1.0 and mine["other_threat_area"] == 0.0  # seat 4's
    assert theirs["own_threat_area"] == 0.0 and theirs["other_threat_area"] == 1.0
    assert mine["enemy_side"] == 0.0  # Scheme side
    assert mine["left_to_overcome"] == pytest.approx(0.4)  # danger 4 left
    assert read(own, "spaces.nemeses", panel) == 1.0
    assert not any(read_row(own, "nemeses", 1).values())  # no slot 1
    P.set_nemesis(g, 0, side="enemy", where="C3", damage=3)
    g.refresh()
    obs = g.observation(4)
    enemy = read_row(obs, "nemeses", 0)
    assert enemy["enemy_side"] == 1.0 and enemy["damage"] == pytest.approx(3 / 6)
    assert read(obs, "spaces.nemeses", P.space(g, "C3")) == 1.0
    assert read(obs, "spaces.nemeses", panel) == 0.0
    P.set_nemesis(g, 0, defeated=True)
    obs = g.observation(4)
    assert read(obs, "nemeses.defeated") == 1.0 and read(obs, "nemeses.own_threat_area") == 0.0


def test_nemesis_target_named_by_its_card():
    """Targets name the nemesis card dealt to the slot, on its current side."""
    from hon_env.describe import target_name

    g = Game(heroes=["majesty"] * 5, nemeses=["whisperloom"], seed=0)
    assert target_name(g.scenario, L.T_NEM0, g.state[0]) == "Web of Informants"
    assert target_name(g.scenario, L.T_NEM0) == "nemesis 1"
    P.set_nemesis(g, 0, side="enemy")
    assert target_name(g.scenario, L.T_NEM0, g.state[0]) == "Whisperloom Exposed"


# --- optional rules in the snapshot and the renderings -------------------------------------

OPTIONAL_RULES = {"special_minions": ["phase_ii_brinkbots", "hired_muscle"],
                  "crisis_cards": ["abductor_at_large", "cinderwicks_chemical_fire"]}


def _optional_game(rules: dict | None = OPTIONAL_RULES) -> Game:
    """Majesty in Century Heist on a cleared board; with the rules, 2 Brinkbots (1 damage
    kept) in panel 2 and 3 justice on Cinderwick's Chemical Fire."""
    g = Game("origin_story", seed=0, heroes=["majesty"], rules=rules)
    P.clear_board(g)
    P.place_hero(g, 0, "C3")
    if rules:
        P.put_special_minions(g, 0, 2, 2, damage=1)
        g.field("crisis_just")[1] = 3
    P.jump(g, "hero_turn")
    return g


def test_snapshot_lists_special_minions_and_crisis_cards():
    """Rulebook: Minion Cards / Crisis Cards — the snapshot names each special Minion card
    (health, inflict, figures in the supply, per panel its figures and kept damage) and each
    crisis card in the issue play area (text, danger, justice, token space, solved)."""
    g = _optional_game()
    snap = json.loads(json.dumps(g.snapshot()))
    bots, muscle = snap["special_minions"]
    assert (bots["name"], bots["health"], bots["inflict"], bots["supply"]) == (
        "Phase II Brinkbots", 2, 2, 3)
    assert bots["panels"]["Teller Cages"] == {"count": 2, "damage": 1}
    assert bots["panels"]["Marble Lobby"] == {"count": 0, "damage": 0}
    assert (muscle["name"], muscle["health"], muscle["inflict"], muscle["supply"]) == (
        "Hired Muscle", 2, 1, 5)
    abductor, fire = snap["crisis_cards"]
    assert abductor == {"name": "The Abductor at Large", "danger": None, "justice": 0,
                        "token": None, "solved": False,
                        "text": "Setup: capture 1 bystander nearest the villain. Crisis: "
                                "capture 1 bystander nearest the villain."}
    assert fire["name"] == "Cinderwick's Chemical Fire"
    assert (fire["danger"], fire["justice"], fire["token"], fire["solved"]) == (4, 3, "D6",
                                                                                 False)
    assert fire["text"] == ("Crisis: deal 1 damage to each hero. Solved: gain 1 clue.")
    assert {"name": "Cinderwick's Chemical Fire", "space": "D6"} in snap["board"][
        "card_locations"]
    plain = Game("origin_story", seed=0, heroes=["majesty"]).snapshot()
    assert plain["special_minions"] == [] and plain["crisis_cards"] == []


def test_renderings_show_special_minions_and_crisis_cards():
    """The text and image renderings show the special minions of a panel and the crisis
    cards (a crisis token on the map, the cards in the side panel): the image with both
    optional rules differs from the same position without them."""
    from hon_env.render import render_ansi, render_rgb

    g = _optional_game()
    text = render_ansi(g)
    assert "minions 2 (2 Phase II Brinkbots, 1 damage kept)" in text
    assert "Cinderwick's Chemical Fire (crisis token) at D6" in text
    assert "Crisis card: Cinderwick's Chemical Fire (justice 3/4, token at D6)" in text
    assert "Crisis card: The Abductor at Large (stays in play)" in text
    with_rules = render_rgb(g, dpi=40)
    plain = _optional_game(None)
    without = render_rgb(plain, dpi=40)
    assert with_rules.shape == without.shape and with_rules.dtype == np.uint8
    assert with_rules.ndim == 3 and with_rules.shape[2] == 3
    assert (with_rules != without).any()
    # taking the special minions away changes the picture (panel box and side panel)
    P.clear_board(g)
    assert (render_rgb(g, dpi=40) != with_rules).any()
