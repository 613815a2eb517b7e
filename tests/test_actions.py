"""``hon_env.actions``: each named constructor lands in its segment of the flat action space
(``describe.segment_of``) with the meaning ``action_meanings`` gives it, names resolve like
indices, and out-of-range or unknown values are refused."""

from __future__ import annotations

import pytest

from hon_env import Game, action_meanings
from hon_env import actions as A
from hon_env import positions as P
from hon_env.describe import segment_of
from hon_env.spec import layout as L


@pytest.fixture
def g(origin):
    g = Game(origin, seed=0)
    P.clear_board(g)
    P.place_hero(g, 0, "C3")
    P.empty_hand(g, 0)
    P.give_cards(g, 0, ["Throne Breaker", "Herald's Call"])
    P.give_cards(g, 0, ["Palace Guard"], "play")
    P.jump(g, "hero_turn")
    return g


def test_numbered_constructors_round_trip(origin):
    """Every constructor with an index k gives the k-th action of its segment."""
    names = action_meanings(origin)
    cases = [
        (A.pass_(), "pass", 0), (A.yield_initiative(), "pass", 0), (A.suffer(), "pass", 0),
        (A.draw(), "draw", 0), (A.focus(), "focus", 0),
        (A.move(5), "space", 5), (A.place(7), "space", 7), (A.rescue(9), "space", 9),
        (A.attack(11), "attack", 11), (A.solve(12), "solve", 12),
        (A.play(3), "play", 3), (A.use(4), "use", 4), (A.use("hero"), "use", L.USE_HERO_CARD),
        (A.use("ally"), "use", L.USE_ALLY_CARD),
        (A.feat(2, "strength"), "feat", 2 * 3 + 1), (A.clue(1), "clue", 1),
        (A.option(1), "option", 1), (A.choose(0), "option", 0),
        (A.target(L.T_VILLAIN), "target", L.T_VILLAIN), (A.hero(2), "hero", 2),
        (A.card(6), "card", 6),
    ]
    for action, seg, k in cases:
        assert segment_of(action) == A.segment(action) == (seg, k)
        assert isinstance(action, int)
    assert names[A.move(5)] == f"space {names[A.move(5)].split(' ', 1)[1]}"
    assert names[A.feat(2, "strength")] == "feat strength discarding card 2"
    assert names[A.use("hero")] == "use hero card ability"
    assert names[A.target("minions")] == "target minions"
    assert names[A.focus()] == "become focused"


def test_every_index_of_every_segment(origin):
    """Each segment's whole range round-trips; one past its end is refused."""
    build = {"space": A.move, "attack": A.attack, "solve": A.solve, "play": A.play,
             "use": A.use, "clue": A.clue, "option": A.option, "target": A.target,
             "hero": A.hero, "card": A.card, "draft": A.draft}
    for seg, start, size in L.SEGMENTS:
        if seg not in build:
            continue
        for k in range(size):
            assert build[seg](k) == start + k
        with pytest.raises(ValueError, match=f"{seg} index {size} is outside"):
            build[seg](size)
        with pytest.raises(TypeError, match="must be an int"):
            build[seg](True)


def test_names_resolve_in_a_game(g):
    """Space labels, card names and target names need the game; they give the same index as
    the numbers, and the result is a legal answer where it should be."""
    assert A.move("C4", g) == A.move(P.space(g, "C4"))
    assert A.play("Herald's Call", g) == L.A_PLAY + P.hero_card_index(g, 0, "Herald's Call")
    assert A.use("Palace Guard", g) == L.A_USE + P.hero_card_index(g, 0, "Palace Guard")
    assert A.card("Throne Breaker", g) == L.A_CARD + P.hero_card_index(g, 0, "Throne Breaker")
    assert A.feat("Throne Breaker", "mobility", g) == (
        L.A_FEAT + 3 * P.hero_card_index(g, 0, "Throne Breaker"))
    assert A.target(g.scenario.villain_name, g) == L.A_TARGET + L.T_VILLAIN
    assert A.target("captured bystanders") == L.A_TARGET + L.T_CAPTURED
    name = next(n for n in g.scenario.clue_names if n)
    assert A.clue(name, g) == L.A_CLUE + g.scenario.clue_names.index(name)
    assert A.hero("majesty", g) == A.hero(0)
    assert {A.move("C4", g), A.draw(), A.play("Herald's Call", g)} <= set(
        g.legal_actions().tolist())
    vance = P.add_villain_card(g, "Chauffeur Vance", 0, "D3")
    assert A.attack("Chauffeur Vance", g) == A.attack("D3", g) == A.attack(P.space(g, "D3"))
    assert A.target("Chauffeur Vance", g) == L.A_TARGET + L.T_V0 + vance
    assert A.attack("Chauffeur Vance", g) in g.legal_actions()
    g.apply(A.play("Throne Breaker", g))
    assert g.field("hcloc")[0][P.hero_card_index(g, 0, "Throne Breaker")] != L.L_HAND


def test_names_without_a_game_or_unknown_are_refused(g):
    with pytest.raises(ValueError, match="pass the game"):
        A.move("C4")
    with pytest.raises(ValueError, match="unknown space 'Q1'"):
        A.move("Q1", g)
    with pytest.raises(ValueError, match="has no card .Herald's Call. in play"):
        A.use("Herald's Call", g)
    with pytest.raises(ValueError, match="feat kind must be one of"):
        A.feat(0, "speed")
    with pytest.raises(ValueError, match="no clue card 'Nope'"):
        A.clue("Nope", g)
    with pytest.raises(ValueError, match="no seat named 'spark'"):
        A.hero("spark", g)
    with pytest.raises(ValueError, match="no card named 'Nobody'"):
        A.target("Nobody", g)
