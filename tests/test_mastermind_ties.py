"""The Mastermind variant's ``enemy_ties`` option: the villain agent breaks enemy target
and path ties (rules ``villain_agent``, ``enemy_ties: "villain"``; docs/mastermind.md).

Sources: the rulebook (000, Enemy Activation and Inflict Effects: Movement and Targeting
Priority) leaves both ties to the players; seed 004 (§3-§4: the opposition is a player
who makes the opposition's choices) hands them to the villain.
"""

from __future__ import annotations

import numpy as np
import pytest
from rules_helpers import dist, remove_schemes, run_op

from agents.villains import ScriptedVillain
from hon_env import Game, load_scenario, vector_env
from hon_env import positions as P
from hon_env.content.errors import ContentError
from hon_env.core.invariants import violations
from hon_env.errors import StateError
from hon_env.spec import layout as L
from hon_env.spec import obs_features as F
from hon_env.spec import ops
from hon_env.spec.ops import TOWARD_ANY, TOWARD_HERO
from hon_env.spec.tables import CFG_VTIES, SP_BYSTANDER, SP_PLAIN

LACKEY = "Hatchet Hollis"


def ties_game(ties: str = "villain", heroes: list[str] | None = None) -> Game:
    """A cleared board without Scheme cards (one hero unless ``heroes``)."""
    g = Game("origin_story", seed=0, heroes=heroes,
             rules={"villain_agent": {"enemy_ties": ties}})
    P.clear_board(g)
    remove_schemes(g)
    return g


def plain_spaces(g: Game) -> list[int]:
    kinds = g.scenario.tables.space_kind
    return [s for s in range(len(g.scenario.space_labels)) if kinds[s] in (SP_PLAIN,
                                                                         SP_BYSTANDER)]


def target_tie(g: Game) -> tuple[int, int, int, int]:
    """(lackey, bystander y, bystander z, hero): y and z 3 spaces from the lackey, 4 or more
    apart, the hero 6 or more from all three; the first such spaces by index."""
    T = g.scenario.tables
    spaces = plain_spaces(g)
    for x in spaces:
        ring = [s for s in spaces if T.dist[x, s] == 3]
        for y in ring:
            for z in ring:
                if z <= y or T.dist[y, z] < 4:
                    continue
                for h in spaces:
                    if min(T.dist[h, x], T.dist[h, y], T.dist[h, z]) >= 6:
                        return x, y, z, h
    raise AssertionError("no target tie on this board")


def path_tie(g: Game) -> tuple[int, int, list[int]]:
    """(lackey, hero, first steps): the hero 3 spaces away, several neighbours of the
    lackey 2 from the hero (each starts a shortest path to a space near the hero)."""
    T = g.scenario.tables
    spaces = set(plain_spaces(g))
    for x in sorted(spaces):
        for h in sorted(spaces):
            if T.dist[x, h] != 3:
                continue
            steps = [int(n) for n in T.adj[x] if n >= 0 and T.dist[n, h] == 2]
            if len(steps) >= 2 and set(steps) <= spaces:
                return x, h, sorted(steps)
    raise AssertionError("no path tie on this board")


def lackey_between_bystanders(ties: str = "villain"):
    g = ties_game(ties)
    x, y, z, h = target_tie(g)
    P.place_hero(g, 0, h)
    i = P.add_villain_card(g, LACKEY, 0, x)
    P.put_bystander(g, y)
    P.put_bystander(g, z)
    P.jump(g, "hero_turn")
    return g, i, (x, y, z)


def lackey_with_two_paths(ties: str = "villain", bystander_on: int = 1):
    """A lackey 3 from the hero with several first steps; a bystander on the
    ``bystander_on``-th of them."""
    g = ties_game(ties)
    x, h, steps = path_tie(g)
    P.place_hero(g, 0, h)
    i = P.add_villain_card(g, LACKEY, 0, x)
    P.put_bystander(g, steps[bystander_on])
    P.jump(g, "hero_turn")
    return g, i, x, steps


def spaces_of(actions) -> set[int]:
    return {int(a) - L.A_SPACE for a in actions}


# --------------------------------------------------------------------------- the setting

def test_setting_default_and_cfg():
    """The option is off ("fixed") by default; "villain" sets its cfg column."""
    on = load_scenario("origin_story", rules={"villain_agent": True})
    assert on.rules["villain_agent"]["enemy_ties"] == "fixed"
    assert int(on.tables.cfg[CFG_VTIES]) == 0
    ties = load_scenario("origin_story", rules={"villain_agent": {"enemy_ties": "villain"}})
    assert int(ties.tables.cfg[CFG_VTIES]) == 1


@pytest.mark.parametrize("value", ["heroes", "players", True, 1, None])
def test_bad_setting_values_are_refused(value):
    """A bad ``enemy_ties`` value is a ContentError naming the key and the allowed values."""
    with pytest.raises(ContentError, match=r"villain_agent.enemy_ties.*fixed, villain"):
        load_scenario("origin_story", rules={"villain_agent": {"enemy_ties": value}})


# --------------------------------------------------------------------------- target ties

def test_equidistant_targets_give_the_villain_a_target_decision():
    """Rulebook, Movement and Targeting Priority: an enemy equally near several targets
    moves toward the one the players choose; here (004 §4) the villain chooses. Exactly the
    tied targets' spaces are legal, and the enemy moves toward the chosen one."""
    g, i, (x, y, z) = lackey_between_bystanders()
    run_op(g, ops.OP_ENEMY_MOVE, 2, TOWARD_ANY, 0, 0, L.T_V0 + i)
    assert g.decision == "enemy_target" and g.current_seat == L.VILLAIN_SEAT
    assert spaces_of(g.legal_actions()) == {y, z}
    assert int(g.state[0, L.DEC_A]) == L.T_V0 + i and int(g.state[0, L.DEC_B]) == x
    assert "moves toward the target on" in g.action_to_string(L.A_SPACE + z)
    g.apply(L.A_SPACE + z)  # not the fixed tie-break's pick (the lower space, y)
    while g.decision == "enemy_step":  # any shortest path toward z
        g.apply(g.legal_actions()[0])
    now = int(g.field("vpos")[i])
    assert dist(g, now, z) == 1 and dist(g, now, y) > 1
    assert int(g.field("vpos")[i]) != x and g.current_seat != L.VILLAIN_SEAT


def test_fixed_setting_moves_as_before_without_a_decision():
    """docs/engine.md #6 (Movement and Targeting Priority with the fixed tie-break): with
    ``enemy_ties: fixed`` the same position asks nothing and heads for the lower space,
    exactly as the game without the villain agent does."""
    g, i, (x, y, z) = lackey_between_bystanders("fixed")
    run_op(g, ops.OP_ENEMY_MOVE, 2, TOWARD_ANY, 0, 0, L.T_V0 + i)
    assert g.decision == "main"
    now = int(g.field("vpos")[i])
    assert dist(g, now, y) == 1
    base = Game("origin_story", seed=0)
    P.clear_board(base)
    remove_schemes(base)
    P.place_hero(base, 0, int(g.field("hloc")[0]))
    j = P.add_villain_card(base, LACKEY, 0, x)
    P.put_bystander(base, y)
    P.put_bystander(base, z)
    P.jump(base, "hero_turn")
    run_op(base, ops.OP_ENEMY_MOVE, 2, TOWARD_ANY, 0, 0, L.T_V0 + j)
    assert int(base.field("vpos")[j]) == now


# --------------------------------------------------------------------------- path ties

@pytest.mark.parametrize("take", [0, 1])
def test_path_tie_gives_a_step_decision_and_the_chosen_path_is_taken(take):
    """Rulebook, Movement and Targeting Priority: among shortest paths of equal length the
    players (here the villain) decide; every first step of a shortest path is legal, and
    the enemy steps where the villain says. It captures the bystander on one path (Each
    time an enemy moves into a space with a bystander) and not on the other."""
    g, i, x, steps = lackey_with_two_paths()
    run_op(g, ops.OP_ENEMY_MOVE, 1, TOWARD_HERO, 0, 0, L.T_V0 + i)
    assert g.decision == "enemy_step" and g.current_seat == L.VILLAIN_SEAT
    assert spaces_of(g.legal_actions()) == set(steps)
    assert "steps to" in g.action_to_string(L.A_SPACE + steps[take])
    g.apply(L.A_SPACE + steps[take])
    assert int(g.field("vpos")[i]) == steps[take]
    captured = take == 1  # the bystander stands on steps[1]
    assert int(g.field("bystander_on")[steps[1]]) == int(not captured)
    assert int(g.field("captured").sum()) == int(captured)


def test_path_tie_with_the_fixed_setting_takes_the_first_step():
    """docs/engine.md #6: with ``enemy_ties: fixed`` the path tie asks nothing."""
    g, i, x, steps = lackey_with_two_paths("fixed")
    run_op(g, ops.OP_ENEMY_MOVE, 1, TOWARD_HERO, 0, 0, L.T_V0 + i)
    assert g.decision == "main" and int(g.field("vpos")[i]) in steps


def test_villain_figure_target_tie_and_capture():
    """Rulebook, Movement and Targeting Priority (villains pass figures and capture on the
    way) with the villain picking the target: the villain heads for the chosen bystander,
    captures it and leaves the other."""
    g = ties_game()
    x, y, z, h = target_tie(g)
    P.place_hero(g, 0, h)
    P.set_villain(g, side="showdown", where=x)
    P.put_bystander(g, y)
    P.put_bystander(g, z)
    P.jump(g, "hero_turn")
    run_op(g, ops.OP_VILLAIN_MOVE, 3, TOWARD_ANY)
    assert g.decision == "enemy_target" and spaces_of(g.legal_actions()) == {y, z}
    assert int(g.state[0, L.DEC_A]) == L.T_VILLAIN
    g.apply(L.A_SPACE + z)
    while g.decision == "enemy_step":  # any shortest path: 3 steps reach z
        g.apply(g.legal_actions()[-1])
    assert int(g.field("vil_loc")) == z
    assert int(g.field("bystander_on")[z]) == 0 and int(g.field("bystander_on")[y]) == 1


# --------------------------------------------------------------------------- observation, agents

def test_observation_section_shows_the_pending_tie():
    """The ``enemy_ties`` observation section (every seat sees it): the option, the kind of
    tie pending, the moving figure's space and steps left; zeros in the rulebook's game."""
    g, i, x, steps = lackey_with_two_paths()
    run_op(g, ops.OP_ENEMY_MOVE, 1, TOWARD_HERO, 0, 0, L.T_V0 + i)
    for seat in (0, L.VILLAIN_SEAT):
        obs = g.observation(seat)
        assert F.read(obs, "enemy_ties.on") == 1.0
        assert F.read(obs, "enemy_ties.step_choice") == 1.0
        assert F.read(obs, "enemy_ties.target_choice") == 0.0
        assert F.read(obs, "enemy_ties.steps_left") == pytest.approx(0.1)
        assert np.flatnonzero(F.read(obs, "enemy_ties.mover_space")).tolist() == [x]
        assert F.read(obs, "enemy_ties.target_space").sum() == 1.0
    base = Game("origin_story", seed=0)
    assert not base.observation(0)[F.feature_slice("enemy_ties.on").start:F.OFF_OWN_CARDS].any()


def test_scripted_villain_takes_the_capturing_step():
    """agents/villains.py: at a path tie the scripted villain steps onto a bystander."""
    g, i, x, steps = lackey_with_two_paths()
    run_op(g, ops.OP_ENEMY_MOVE, 1, TOWARD_HERO, 0, 0, L.T_V0 + i)
    mask = np.zeros(L.N_ACTIONS, np.int8)
    mask[g.legal_actions()] = 1
    action = ScriptedVillain()._one(g.state[0], g.scenario.tables, mask)
    assert action == L.A_SPACE + steps[1]


def test_state_validation_of_tie_decisions():
    """A saved state cannot give a hero the villain's tie decision."""
    g, i, x, steps = lackey_with_two_paths()
    run_op(g, ops.OP_ENEMY_MOVE, 1, TOWARD_HERO, 0, 0, L.T_V0 + i)
    bad = g.state.copy()
    bad[0, L.DEC_HERO] = 0
    with pytest.raises(StateError, match="enemy_step decision belongs to the villain"):
        Game.from_array(g.scenario, bad)
    Game.from_array(g.scenario, g.state.copy())  # the real state loads


def test_random_games_with_the_option_keep_the_invariants():
    """Random games (two heroes, the villain choosing every tie) meet tie decisions of
    both kinds, never break an engine invariant and never stop on an engine error."""
    env = vector_env(64, seed=11, heroes=["majesty", "stride"], observations=False,
                     rules={"villain_agent": {"enemy_ties": "villain"}})
    env.reset()
    rng = np.random.default_rng(1)
    seen = {L.D_ENEMY_TARGET: 0, L.D_ENEMY_STEP: 0}
    ended = step = 0
    while ended < 200:
        kinds = L.field_view(env.state, "dec_kind")
        for k in seen:
            seen[k] += int((kinds == k).sum())
        _, _, term, trunc, _ = env.step(env.sample_actions(rng))
        ended += int((term | trunc).sum())
        step += 1
        if step % 20 == 0:
            assert not violations(env.state, env.scenario.tables, env.masks)
            assert not L.field_view(env.state, "error").any()
    assert not violations(env.state, env.scenario.tables, env.masks)
    assert seen[L.D_ENEMY_TARGET] > 0 and seen[L.D_ENEMY_STEP] > 0, seen


def fixed_pick(g: Game) -> int:
    """The answer the fixed tie-break (docs/engine.md #6) gives to the pending tie: a hero
    target first (lowest seat), then an ally figure, then the lowest space; the first next
    space in neighbour order."""
    legal = set(int(a) for a in g.legal_actions())
    if g.decision == "enemy_step":
        cur = int(g.state[0, L.DEC_B])
        return next(L.A_SPACE + int(n) for n in g.scenario.tables.adj[cur]
                    if L.A_SPACE + int(n) in legal)
    for field in ("hloc", "ally_loc"):
        for loc in g.field(field)[:g.scenario.n_heroes]:
            if L.A_SPACE + int(loc) in legal:
                return L.A_SPACE + int(loc)
    return min(legal)


def live(g: Game) -> np.ndarray:
    """The state row with the stack slots past the stack pointer (stale) zeroed."""
    row = g.state[0].copy()
    row[L.STACK + int(row[L.SP]) * L.STACK_W:L.STACK + L.STACK_DEPTH * L.STACK_W] = 0
    return row


@pytest.mark.parametrize("seed", range(6))
def test_villain_answering_like_the_fixed_rule_replays_the_fixed_game(seed):
    """Movement and Targeting Priority, docs/engine.md #6 and #44: a villain that answers
    every tie as the fixed tie-break does plays exactly the fixed game. At every other
    decision both games are in the same state (the decision counter aside): a move
    without ties asks nothing, and a move parked at a tie resumes where it stopped."""
    kw = dict(heroes=["majesty", "stride"], seed=seed)
    fixed = Game("origin_story", rules={"villain_agent": {"enemy_ties": "fixed"}}, **kw)
    tied = Game("origin_story", rules={"villain_agent": {"enemy_ties": "villain"}}, **kw)
    keep = np.ones(L.STATE_LEN, bool)
    keep[L.DECISIONS] = False
    rng = np.random.default_rng(seed)
    ties = steps = 0
    while True:
        while tied.decision in ("enemy_target", "enemy_step"):
            tied.apply(fixed_pick(tied))
            ties += 1
        np.testing.assert_array_equal(live(fixed)[keep], live(tied)[keep])
        if fixed.is_over:
            break
        a = int(rng.choice(fixed.legal_actions()))
        fixed.apply(a)
        tied.apply(a)
        steps += 1
    assert tied.is_over and fixed.outcome == tied.outcome and steps > 50
    if seed == 0:
        assert ties > 0  # the games met ties (seed 0 does)


@pytest.mark.parametrize("seed", range(4))
def test_moves_from_random_positions_match_the_fixed_rule(seed):
    """Movement and Targeting Priority and Empty Spaces (docs/engine.md #6, #8): from random
    positions (two heroes, three bystanders, a lackey and the revealed villain), villain
    and lackey moves answered as the fixed tie-break answers give the fixed result:
    the villain passing figures, capturing and retargeting, the lackey walking around
    figures."""
    rng = np.random.default_rng(seed)
    for _ in range(15):
        games = [ties_game(ties, ["majesty", "stride"]) for ties in ("fixed", "villain")]
        spaces = [int(x) for x in rng.choice(plain_spaces(games[0]), 7, replace=False)]
        op, steps, toward = int(rng.choice([ops.OP_VILLAIN_MOVE, ops.OP_ENEMY_MOVE])), \
            int(rng.integers(1, 6)), int(rng.integers(0, 3))
        for g in games:
            P.place_hero(g, 0, spaces[0])
            P.place_hero(g, 1, spaces[1])
            P.set_villain(g, side="showdown", where=spaces[2])
            i = P.add_villain_card(g, LACKEY, 0, spaces[3])
            for s in spaces[4:]:
                P.put_bystander(g, s)
            P.jump(g, "hero_turn")
            run_op(g, op, steps, toward, 0, 0, L.T_V0 + i)
        while games[1].decision in ("enemy_target", "enemy_step"):
            games[1].apply(fixed_pick(games[1]))
        for name in ("vil_loc", "vpos", "bystander_on", "captured", "hloc"):
            np.testing.assert_array_equal(games[0].field(name), games[1].field(name))
