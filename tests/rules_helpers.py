"""Small helpers shared by the rulebook tests (tests/test_rules_*.py).

They only read and write state through the public ``Game`` facade, ``hon_env.positions``
and the layout constants, so every expected value in the tests is stated in rulebook terms.
"""

from __future__ import annotations

import numpy as np

from hon_env import Game
from hon_env import positions as P
from hon_env.content.tables import IC_PANEL, IC_TYPE, IT_SCHEME, SP_BYSTANDER
from hon_env.core import layout as L

PASS = L.A_PASS

# die faces of the default rule (positions.py): 0 blank, 1/2 success, 3 success+focus,
# 4 focus, 5 burst (success + one more die)
BLANK, SUCCESS, SUCCESS_FOCUS, FOCUS, BURST = 0, 1, 3, 4, 5


def sp(g: Game, where: str | int) -> int:
    """Space index of a label (``"D4"``) or ``"panel K"``."""
    return P.space(g, where)


def dist(g: Game, a: str | int, b: str | int) -> int:
    return int(g.scenario.tables.dist[sp(g, a), sp(g, b)])


def neighbours(g: Game, where: str | int) -> set[int]:
    T = g.scenario.tables
    return {int(x) for x in T.adj[sp(g, where)] if x >= 0}


def label(g: Game, space: int) -> str:
    return g.scenario.space_labels[space]


def vcard(g: Game, name: str) -> int:
    return g.scenario.villain_card_names.index(name)


def icard(g: Game, name: str) -> int:
    return g.scenario.issue_card_names.index(name)


def hcard(g: Game, name: str, seat: int = 0) -> int:
    return P.hero_card_index(g, seat, name)


def clue_index(g: Game, name: str) -> int:
    return g.scenario.clue_names.index(name)


def hand(g: Game, seat: int = 0) -> list[int]:
    return [int(c) for c in np.flatnonzero(g.field("hcloc")[seat] == L.L_HAND)]


def hand_names(g: Game, seat: int = 0) -> list[str]:
    names = g.scenario.hero_card_names[seat]
    return sorted(names[c] for c in hand(g, seat))


def clues_held(g: Game, seat: int = 0) -> int:
    return int(np.sum(g.field("clue_loc") == seat))


def event(g: Game, name: str) -> int:
    return int(g.field("events")[L.EVENT_NAMES.index(name)])


def n_schemes(g: Game) -> int:
    T = g.scenario.tables
    return sum(1 for i in range(L.IDECK) if T.icard[i, IC_TYPE] == IT_SCHEME
               and g.scenario.issue_card_names[i])


def scheme_space_of(g: Game, i: int) -> int:
    T = g.scenario.tables
    return int(T.scheme_space[T.icard[i, IC_PANEL]])


def remove_schemes(g: Game) -> None:
    """Take every Scheme card out of the threat areas (out of the game)."""
    f = g.field
    T = g.scenario.tables
    for i in range(L.IDECK):
        if T.icard[i, IC_TYPE] == IT_SCHEME and f("iloc")[i] == L.L_THREAT:
            f("iloc")[i] = L.L_REMOVED
            f("iowner")[i] = -1
            f("ipos")[i] = -1


def set_scheme(g: Game, seat: int, name: str) -> int:
    """Give ``seat`` exactly the named Scheme card (Scheme side up) in their threat area."""
    f = g.field
    T = g.scenario.tables
    for i in range(L.IDECK):
        if (T.icard[i, IC_TYPE] == IT_SCHEME and f("iloc")[i] == L.L_THREAT
                and f("iowner")[i] == seat):
            f("iloc")[i] = L.L_REMOVED
            f("iowner")[i] = -1
            f("ipos")[i] = -1
    i = icard(g, name)
    f("iloc")[i] = L.L_THREAT
    f("iowner")[i] = seat
    f("ipos")[i] = scheme_space_of(g, i)
    f("ijust")[i] = 0
    f("idmg")[i] = 0
    f("iside")[i] = 0
    f("iexh")[i] = 0
    return i


def put_issue_in_threat(g: Game, seat: int, name: str, where: str | int) -> int:
    """Put a (staying) issue card from the issue deck into ``seat``'s threat area."""
    f = g.field
    i = icard(g, name)
    n = int(f("ideck_n"))
    order = [int(x) for x in f("ideck_order")[:n]]
    if i in order:
        order.remove(i)
        f("ideck_order")[:n - 1] = order
        f("ideck_n")[...] = n - 1
    f("iloc")[i] = L.L_THREAT
    f("iowner")[i] = seat
    f("ipos")[i] = sp(g, where)
    f("ijust")[i] = 0
    f("iexh")[i] = 0
    return i


def bystander_spaces(g: Game) -> list[int]:
    T = g.scenario.tables
    return [s for s in range(len(g.scenario.space_labels)) if T.space_kind[s] == SP_BYSTANDER]


def put_bystander(g: Game, where: str | int) -> None:
    """Take a bystander from the supply and put it on a map space."""
    f = g.field
    assert int(f("bystander_supply")) > 0
    f("bystander_supply")[...] -= 1
    f("bystander_on")[sp(g, where)] = 1


def put_minions(g: Game, panel: int, n: int) -> None:
    f = g.field
    assert int(f("minion_supply")) >= n
    f("minion_supply")[...] -= n
    f("minions")[panel] += n


def capture(g: Game, panel: int, n: int) -> None:
    f = g.field
    assert int(f("bystander_supply")) >= n
    f("bystander_supply")[...] -= n
    f("captured")[panel] += n


def legal(g: Game) -> set[int]:
    return {int(a) for a in g.legal_actions()}


def step(g: Game, where: str | int) -> None:
    """A Move step (first step from the main menu or the next step of a Move)."""
    g.apply(L.A_SPACE + sp(g, where))


def pass_while(g: Game, decision: str) -> None:
    """Answer PASS while the pending decision is ``decision``."""
    while not g.is_over and g.decision == decision and PASS in legal(g):
        g.apply(PASS)


def suffer(g: Game) -> None:
    """Suffer pending damage without preventing it."""
    pass_while(g, "damage")


def hero_stat(g: Game, seat: int = 0) -> dict:
    return g.snapshot()["heroes"][seat]


def setup(scenario, where="C3", cards=("Throne Breaker",), seed=0, seat=0) -> Game:
    """Cleared board, no Scheme cards, hero ``seat`` at ``where`` holding only ``cards``."""
    g = Game(scenario, seed=seed)
    P.clear_board(g)
    remove_schemes(g)
    P.place_hero(g, seat, where)
    P.empty_hand(g, seat)
    if cards:
        P.give_cards(g, seat, list(cards))
    return g


def move_one(g: Game, where: str | int) -> None:
    """A Move action of a single step, then stop."""
    step(g, where)
    if g.decision == "move":
        g.apply(PASS)
