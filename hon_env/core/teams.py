"""Per-game content in one batch: which scenario of a pool each game plays.

A vector env may hold several compiled scenarios (``Tables`` records stacked in one
array: different heroes, villain or issue; same array shapes, as every scenario has). Each
game draws its row of that array when it starts, from its episode seed alone (a stream of
its own: the game's generator is not used), and keeps it in its ``team`` state field for
the kernels and scripted policies that read the tables. Game ``i``'s episode with seed
``s`` is therefore exactly ``Game(pool[pick_team(s, K)], seed=s)``. With one scenario
every game plays row 0 and nothing else changes.
"""

from __future__ import annotations

from numba import njit

from hon_env.core.rng import _fmix32

_TEAM_SALT = 0x5EA7ED17  # separates this stream from the game's and the headlines'


@njit(cache=True)
def pick_team(seed, n_tables):
    """Row in ``[0, n_tables)`` of the tables a game with episode ``seed`` plays."""
    if n_tables <= 1:
        return 0
    seed = int(seed)
    h = _fmix32(((seed & 0xFFFFFFFF) ^ _TEAM_SALT) & 0xFFFFFFFF)
    h = _fmix32((h ^ ((seed >> 32) & 0xFFFFFFFF)) & 0xFFFFFFFF)
    return (h * n_tables) // 0x100000000
