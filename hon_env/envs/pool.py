"""Per-game content for the vector env: the pool of scenarios its games draw from.

``vector_env(..., heroes=...)`` takes, besides one team (a list of hero ids, every game
the same), a pool of teams: a list of teams, or ``"random"`` for every team of
``n_heroes`` different heroes of the content's roster (``hon_env.roster.random_teams``:
each combination once, seated in an order drawn once per combination, so that no hero
always sits first). ``scenario`` may also be a list of scenarios (other villains or
issues); the pool is then every scenario with every team. Each game draws its pool entry
when an episode starts (``core/teams.py``); the observation's hero identity section tells
a policy whom it plays.

All entries must agree on what the batch's arrays and rewards assume: the number of heroes,
the villain agent and the Fame reward rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hon_env.content import Scenario
from hon_env.options import EnvOptions
from hon_env.roster import RANDOM_TEAMS, random_teams

MAX_POOL = 1024  # scenarios one batch may hold (each keeps its tables, ~230 KB)


def is_pool(scenario: object, heroes: object) -> bool:
    """Whether these ``scenario``/``heroes`` arguments ask for more than one scenario."""
    many_teams = _is_random(heroes) or (
        isinstance(heroes, Sequence) and not isinstance(heroes, str) and len(heroes) > 0
        and any(isinstance(t, Sequence) and not isinstance(t, str) for t in heroes))
    return many_teams or isinstance(scenario, (list, tuple))


def build_pool(scenario: Any, heroes: Any, options: dict[str, Any]) -> list[EnvOptions]:
    """The options of every pool entry (``scenario`` × teams), validated to agree."""
    scenarios = list(scenario) if isinstance(scenario, (list, tuple)) else [scenario]
    if not scenarios:
        raise ValueError("scenario must name at least one scenario, got an empty list")
    for sc in scenarios:
        if not isinstance(sc, (str, Path, Scenario)):
            raise TypeError(f"a pool's scenarios are ids, paths or Scenario objects, got "
                            f"{type(sc).__name__} {sc!r}")
    out: list[EnvOptions] = []
    for sc in scenarios:
        for team in _teams(sc, heroes, options):
            extra = {} if team is None else {"heroes": team}
            out.append(EnvOptions.build(sc, render_modes=(), **options, **extra))
            if len(out) > MAX_POOL:
                raise ValueError(f"the pool holds more than {MAX_POOL} scenarios: pass fewer "
                                 "teams or scenarios")
    _check_agree(out)
    return out


def _teams(scenario: Any, heroes: Any, options: dict[str, Any]) -> list[list[str] | None]:
    """The teams of one pool scenario: None keeps the scenario's own (or ``n_heroes``')."""
    if heroes is None:
        return [None]
    if _is_random(heroes):
        base = EnvOptions.build(scenario, render_modes=(), **options).scenario
        n = options.get("n_heroes") or base.n_heroes
        return random_teams(base.hero_roster, int(n))
    if isinstance(heroes, str) or not isinstance(heroes, Sequence):
        raise TypeError(f"heroes must be a list of hero ids, a list of teams or "
                        f"{RANDOM_TEAMS!r}, got {heroes!r}")
    if all(isinstance(h, str) for h in heroes):
        return [list(heroes)]
    teams = []
    for team in heroes:
        if isinstance(team, str) or not isinstance(team, Sequence):
            raise TypeError(f"a list of teams holds lists of hero ids, got {team!r}")
        teams.append(list(team))
    if not teams:
        raise ValueError("heroes: a list of teams needs at least one team")
    return teams


def _is_random(heroes: Any) -> bool:
    return isinstance(heroes, str) and heroes == RANDOM_TEAMS


def _check_agree(pool: list[EnvOptions]) -> None:
    first = pool[0]
    for opts in pool[1:]:
        sc, ref = opts.scenario, first.scenario
        for what, a, b in (("heroes", sc.n_heroes, ref.n_heroes),
                           ("villain agent", sc.villain_agent, ref.villain_agent),
                           ("fame rule", sc.fame_rule, ref.fame_rule)):
            if a != b:
                raise ValueError(f"every scenario of a pool must have the same {what}: "
                                 f"{ref.id!r} has {b!r}, {sc.id!r} has {a!r}")
