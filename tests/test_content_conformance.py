"""Random-legal play over every villain x issue pair the content folder defines.

Each pair is played with every hero alone and with teams of 2 to 6 heroes drawn from every
hero defined (distinct heroes while the roster allows; 5 and 6 heroes play with nemeses);
the invariants of hon_env.core.invariants hold at every step and every game ends in a win
or a loss. The nemesis tests add the Nemesis rule on small teams and the extra clue deck.
"""

from __future__ import annotations

import itertools
import zlib

import numpy as np
import pytest

from hon_env import list_content, load_scenario
from hon_env.core.invariants import violations
from hon_env.rollout import play_batch, random_policy
from hon_env.spec import layout as L

CONTENT = list_content()
PAIRS = list(itertools.product(CONTENT["villains"], CONTENT["issues"]))


def _teams(rng: np.random.Generator) -> list[list[str]]:
    heroes = CONTENT["heroes"]
    teams = [[h] for h in heroes]
    for size in (2, 3, 4):
        for _ in range(2):
            teams.append(list(rng.choice(heroes, size=size, replace=size > len(heroes))))
    for size in (5, 6):  # distinct heroes once the roster is large enough
        teams.append(list(rng.choice(heroes, size=size, replace=size > len(heroes))))
    return teams


def test_content_has_the_core_box_roster():
    """The roster the content folder must provide (heroes, villains, issues)."""
    assert {"majesty"} <= set(CONTENT["heroes"])
    assert {"dowager"} <= set(CONTENT["villains"])
    assert {"century_heist"} <= set(CONTENT["issues"])


@pytest.mark.parametrize("villain,issue", PAIRS, ids=[f"{v}-{i}" for v, i in PAIRS])
def test_random_play_over_every_pair(villain, issue):
    """Games of every team size end in a win or a loss with the invariants intact."""
    rng = np.random.default_rng(zlib.crc32(f"{villain}/{issue}".encode()))  # stable seed
    for k, team in enumerate(_teams(rng)):
        sc = load_scenario("origin_story", heroes=team, villain=villain, issue=issue)

        def check(state, masks, sc=sc, team=team):
            problems = violations(state, sc.tables, masks)
            assert not problems, (team, problems)

        seeds = np.arange(24, dtype=np.int64) + 1000 * k
        res = play_batch(sc, seeds, random_policy(rng), on_step=check)
        assert np.isin(res.outcome, [L.OUT_WIN, L.OUT_LOSS]).all(), (team, res.outcome)


# 5- and 6-hero games deal nemeses; the Nemesis rule adds them to smaller teams, and the
# extra clue deck rides along. Each case: (team size, rules).
NEMESIS_CASES = [(5, {}), (6, {}), (6, {"extra_clues": True}), (2, {"nemeses": 2}),
                 (1, {"nemeses": 1, "extra_clues": True})]


def _play_with_nemeses(villain: str, issue: str, cases: list[tuple[int, dict]],
                       n_games: int) -> dict[str, int]:
    """Random play of every case on one pair with the invariants checked at every step;
    returns how often a nemesis was seen flipped and defeated (over games)."""
    rng = np.random.default_rng(zlib.crc32(f"nemeses/{villain}/{issue}".encode()))
    seen = {"flipped": 0, "defeated": 0}
    for k, (size, rules) in enumerate(cases):
        team = list(rng.choice(CONTENT["heroes"], size=size, replace=True))
        sc = load_scenario("origin_story", heroes=team, villain=villain, issue=issue,
                           rules=rules)
        assert sc.n_nemeses >= 1
        flipped = np.zeros(n_games, bool)
        defeated = np.zeros(n_games, bool)

        def check(state, masks, sc=sc, team=team, flipped=flipped, defeated=defeated):
            problems = violations(state, sc.tables, masks)
            assert not problems, (team, problems)
            card = L.field_view(state, "nem_card")
            flipped[:] |= (L.field_view(state, "nem_side") == 1).any(axis=1)
            defeated[:] |= ((card >= 0) & (L.field_view(state, "nem_owner") < 0)).any(axis=1)

        seeds = np.arange(n_games, dtype=np.int64) + 1000 * k
        res = play_batch(sc, seeds, random_policy(rng), on_step=check)
        assert np.isin(res.outcome, [L.OUT_WIN, L.OUT_LOSS]).all(), (team, rules, res.outcome)
        seen["flipped"] += int(flipped.sum())
        seen["defeated"] += int(defeated.sum())
    return seen


SHORT_PAIRS = [PAIRS[0], PAIRS[-1]]  # different villains and different issues


@pytest.mark.parametrize("villain,issue", SHORT_PAIRS, ids=[f"{v}-{i}" for v, i in SHORT_PAIRS])
def test_random_play_with_nemeses_short(villain, issue):
    """5 and 6 heroes with nemeses (and the Nemesis rule) end in a win or a loss with the
    invariants intact: a quick sample of the pairs (the slow test plays them all)."""
    _play_with_nemeses(villain, issue, NEMESIS_CASES[:2] + NEMESIS_CASES[3:4], 8)


@pytest.mark.slow
def test_random_play_with_nemeses_every_pair():
    """Every villain x issue pair, 5 and 6 heroes with nemeses, extra clues, the Nemesis
    rule on small teams: 1,920 random games, invariants checked at every step. Random play
    solves nemesis Schemes and defeats nemeses in some of them."""
    seen = {"flipped": 0, "defeated": 0}
    for villain, issue in PAIRS:
        got = _play_with_nemeses(villain, issue, NEMESIS_CASES, 48)
        seen = {k: seen[k] + got[k] for k in seen}
    assert seen["flipped"] > 0 and seen["defeated"] > 0, seen
