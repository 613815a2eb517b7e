"""Teams drawn from a roster: ``random_teams(roster, n_heroes)`` is every team of
``n_heroes`` different heroes, each combination once, seated in an order drawn once per
combination from ``TEAM_ORDER_SEED`` (so that no hero always sits first).

The vector env's pool (``heroes="random"``, ``hon_env/envs/pool.py``) and the generalist
benchmark tasks (``train: all``, ``hon_env/tasks.py``) both seat these teams.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

RANDOM_TEAMS = "random"  # ``heroes=`` value asking for every team of the roster
TEAM_ORDER_SEED = 20_261_126  # seat order of each combination of "random" (fixed: reproducible)


def random_teams(roster: Sequence[str], n_heroes: int) -> list[list[str]]:
    """Every combination of ``n_heroes`` different heroes of ``roster``, each seated in an
    order drawn from ``TEAM_ORDER_SEED`` (see the module documentation)."""
    if not 1 <= n_heroes <= len(roster):
        raise ValueError(f"heroes='random' needs 1 to {len(roster)} heroes (the content's "
                         f"roster: {list(roster)}), got n_heroes={n_heroes}")
    rng = np.random.default_rng(TEAM_ORDER_SEED)
    return [[team[k] for k in rng.permutation(n_heroes)]
            for team in itertools.combinations(sorted(roster), n_heroes)]
