"""Rules reached through effect ops that the Origin Story cards do not print yet.

Each test runs one op on a hand-built hero-turn position by pushing it on the game's
interpreter stack, exactly as a card effect would.
"""

from __future__ import annotations

from rules_helpers import dist, sp

from hon_env import Game
from hon_env import positions as P
from hon_env.content.ops import (
    AWAY_FROM_VILLAIN,
    TOWARD_ANY,
    TOWARD_BYSTANDER,
    TOWARD_HERO,
    WHO_ACTIVE,
)
from hon_env.content.tables import HS_ATTACK, VC_DEFENSE, VC_HEALTH
from hon_env.core import interp
from hon_env.core import layout as L


def run_op(g: Game, code: int, a: int = 0, b: int = 0, c: int = 0, hero: int = 0,
           src: int = -1) -> None:
    """Run one content op for ``hero`` on top of the pending decision."""
    g.field("dec_kind")[...] = L.D_NONE
    g.field("choice")[...] = -1
    interp.push(g.state, 0, code, a, b, c, hero, src)
    g.refresh()


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
    run_op(g, interp.OP_MOVE_AWAY, 2, WHO_ACTIVE, AWAY_FROM_VILLAIN)
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
    run_op(g, interp.OP_MOVE_AWAY, 3, WHO_ACTIVE, AWAY_FROM_VILLAIN)
    assert int(g.field("hloc")[0]) == farthest


def _lackey_game(origin):
    g = hero_turn_game(origin, "B5")
    i = P.add_villain_card(g, "Hatchet Hollis", 0, "F3")
    g.field("bystander_on")[sp(g, "H3")] = 1
    g.field("bystander_supply")[...] -= 1
    g.refresh()
    return g, i


def test_enemy_moves_toward_nearest_target_by_default(origin):
    """Rulebook: Movement and Targeting Priority — an enemy moves toward the hero or
    bystander nearest it (here the bystander two spaces away, not the hero)."""
    g, i = _lackey_game(origin)
    assert dist(g, "F3", "H3") < dist(g, "F3", "B5")
    run_op(g, interp.OP_ENEMY_MOVE, 3, TOWARD_ANY, 0, 0, L.T_V0 + i)
    assert g.field("bystander_on")[sp(g, "H3")] == 0  # walked in and captured it
    assert int(g.field("captured").sum()) == 1


def test_enemy_told_to_move_toward_heroes_ignores_bystanders(origin):
    """Rulebook: Movement and Targeting Priority — effects that name a target type make the
    enemy ignore nearer targets of other types."""
    g, i = _lackey_game(origin)
    start = dist(g, "F3", "B5")
    run_op(g, interp.OP_ENEMY_MOVE, 2, TOWARD_HERO, 0, 0, L.T_V0 + i)
    now = int(g.field("vpos")[i])
    assert dist(g, now, "B5") == start - 2
    assert g.field("bystander_on")[sp(g, "H3")] == 1
    run_op(g, interp.OP_ENEMY_MOVE, 2, TOWARD_BYSTANDER, 0, 0, L.T_V0 + i)
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
    run_op(g, interp.OP_ATTACK, 0, 3)  # the only target in range is chosen automatically
    dealt = dice - int(T.vcard[i, VC_DEFENSE])
    if dealt >= int(T.vcard[i, VC_HEALTH]):
        assert g.field("vloc")[i] == L.L_DISCARD
    else:
        assert int(g.field("vdmg")[i]) == dealt
    assert int(g.field("hactions")[0]) == 2  # an effect's Attack spends no action
