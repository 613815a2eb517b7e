"""Enemy movement ties, answered by the villain agent (rules ``villain_agent``,
``enemy_ties: "villain"``; ``CFG_VTIES``).

The rulebook (Movement and Targeting Priority) lets the players pick the target of an
enemy that is equally near several, and the path when several shortest paths exist; the
fixed tie-break (``geometry.move_enemy``, docs/engine.md #6) answers both in every other
game. With the option on, the interpreter's ``F_ENEMY_MOVE`` op walks the figure one step
at a time and parks ``D_ENEMY_TARGET`` or ``D_ENEMY_STEP`` for the villain whenever two or
more answers tie. These functions list the answers; the op and the masks share them.

The op's stack entry (``pending_move``) is (F_ENEMY_MOVE, steps left, toward + 4 * (target
+ 1), current space, hero, moving enemy); the figure stays recorded at its starting space
until the move ends, as in ``move_enemy``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hon_env.core.geometry import FAR, bfs_to_goals, bystander_at, goal_toward, is_empty
from hon_env.core.queries import enemy_pos
from hon_env.spec import layout as L
from hon_env.spec import tables as TB


@njit(cache=True)
def figure_at(s, b, T, sp):
    """A hero (in a panel too) or ally figure has location ``sp``: a target of kind 0."""
    for h in range(T.cfg[TB.CFG_N_HEROES]):
        if s[b, L.HLOC + h] == sp or s[b, L.ALLY_LOC + h] == sp:
            return True
    return False


@njit(cache=True)
def target_kind(s, b, T, sp, toward):
    """0 when the enemy heads for the hero or ally figure on ``sp``, 1 for its bystander
    (a space with both is a hero target, as in ``geometry.enemy_move_target``)."""
    return 0 if toward != 2 and figure_at(s, b, T, sp) else 1


@njit(cache=True)
def _is_target(s, b, T, sp, toward):
    if toward != 2 and figure_at(s, b, T, sp):
        return True
    return toward != 1 and bystander_at(s, b, T, sp)


@njit(cache=True)
def target_options(s, b, T, here, toward, out):
    """The spaces of the targets nearest ``here`` (``toward``: ops.TOWARD_*), ascending,
    into ``out``. Returns (count, moves): ``moves`` is False when none of them would move
    the enemy (it is already near each hero target), so no choice is needed."""
    n_sp = T.cfg[TB.CFG_N_SPACES]
    best = FAR
    for sp in range(n_sp):
        if T.dist[here, sp] < best and _is_target(s, b, T, sp, toward):
            best = T.dist[here, sp]
    n = 0
    moves = False
    if best == FAR:
        return 0, moves
    for sp in range(n_sp):
        if T.dist[here, sp] == best and _is_target(s, b, T, sp, toward):
            out[n] = sp
            n += 1
            if best > 1 or (best == 1 and target_kind(s, b, T, sp, toward) == 1):
                moves = True
    return n, moves


@njit(cache=True)
def step_options(s, b, T, pos, cur, goal, through_figures, out):
    """The next spaces on a shortest path from ``cur`` to the ``goal`` spaces, ascending
    by neighbour slot, into ``out``; returns their count (0: the move ends here).

    A villain (``through_figures``) steps by map distance, passing figures; any other enemy
    steps through empty spaces only (``pos``: where it is recorded, counted as empty).
    """
    n = 0
    if through_figures:
        best = FAR
        dn = np.full(6, FAR, np.int64)
        for k in range(6):
            nb = T.adj[cur, k]
            if nb < 0:
                continue
            for g in range(T.cfg[TB.CFG_N_SPACES]):
                if goal[g] and T.dist[nb, g] < dn[k]:
                    dn[k] = T.dist[nb, g]
            best = min(best, dn[k])
        if best == FAR:
            return 0
        for k in range(6):
            if T.adj[cur, k] >= 0 and dn[k] == best:
                out[n] = T.adj[cur, k]
                n += 1
        return n
    d = bfs_to_goals(s, b, T, goal, pos)
    if goal[cur] or d[cur] == 0:
        return 0
    best = d[cur]
    for k in range(6):
        nb = T.adj[cur, k]
        if nb >= 0 and d[nb] < best and is_empty(s, b, T, nb):
            best = d[nb]
    if best == d[cur]:
        return 0
    for k in range(6):
        nb = T.adj[cur, k]
        if nb >= 0 and d[nb] == best and is_empty(s, b, T, nb):
            out[n] = nb
            n += 1
    return n


@njit(cache=True)
def pending_move(s, b):
    """(enemy, steps left, toward, target or -1, current space) of the F_ENEMY_MOVE entry
    on top of the stack (read while a tie decision is pending)."""
    base = L.STACK + (s[b, L.SP] - 1) * L.STACK_W
    packed = s[b, base + 2]
    return s[b, base + 5], s[b, base + 1], packed % 4, packed // 4 - 1, s[b, base + 3]


@njit(cache=True)
def pending_step_options(s, b, T, out):
    """``step_options`` of the pending move."""
    t, _, toward, target, cur = pending_move(s, b)
    pos = enemy_pos(s, b, T, t)
    through = t == L.T_VILLAIN
    goal, _ = goal_toward(s, b, T, cur, pos, target, target_kind(s, b, T, target, toward),
                          through)
    return step_options(s, b, T, pos, cur, goal, through, out)


@njit(cache=True)
def tie_mask(s, b, T, out):
    """Legal answers of D_ENEMY_TARGET and D_ENEMY_STEP: the SPACE of each tied target or
    next space. Writes ``out`` (already zeroed); returns (count, last legal action)."""
    options = np.empty(TB.MAX_SPACES, np.int64)
    if s[b, L.DEC_KIND] == L.D_ENEMY_TARGET:
        _, _, toward, _, cur = pending_move(s, b)
        n, _ = target_options(s, b, T, cur, toward, options)
    else:
        n = pending_step_options(s, b, T, options)
    last = -1
    for i in range(n):
        last = L.A_SPACE + options[i]
        out[last] = 1
    return n, last
