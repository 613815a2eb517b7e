"""Shared fixtures: compiled scenarios are loaded once per test session."""

from __future__ import annotations

import os

import pytest

# the suite runs on kernels the warm-up compiled; a test that points the cache at an empty
# folder must not start a first run's helper compiling into it (tests/test_shared_compile.py
# starts one on purpose)
os.environ.setdefault("HON_ENV_COMPILE_HELPER", "0")

from hon_env import Game, load_scenario
from hon_env import positions as P


@pytest.fixture(scope="session")
def origin():
    """The Origin Story scenario (1 hero: Majesty vs Dowager in Century Heist)."""
    return load_scenario("origin_story")


@pytest.fixture(scope="session")
def duo():
    """Origin Story content with two Majesty seats (two heroes)."""
    return load_scenario("origin_story", heroes=["majesty", "majesty"])


@pytest.fixture
def hero_turn(origin):
    """A game at the first hero-turn decision with an empty board and Majesty at the start.

    Returns a factory ``make(seed=0, scenario=None)`` so tests can edit before jumping.
    """
    def make(seed: int = 0, scenario=None) -> Game:
        g = Game(scenario or origin, seed=seed)
        P.clear_board(g)
        return g
    return make
