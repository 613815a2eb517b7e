"""Random-legal play over every villain x issue pair the content folder defines.

Each pair is played with every hero alone and with teams of 2 to 6 heroes drawn from every
hero defined (distinct heroes while the roster allows); the invariants of
hon_env.core.invariants hold at every step and every game ends in a win or a loss.
"""

from __future__ import annotations

import itertools
import zlib

import numpy as np
import pytest

from hon_env import list_content, load_scenario
from hon_env.core import layout as L
from hon_env.core.invariants import violations
from hon_env.rollout import play_batch, random_policy

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
