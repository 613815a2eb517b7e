"""The coordinated scripted team: the per-hero rules of ``agents.heuristic``, played as a
team.

Every hero still follows the per-hero menu (free things first, then a roll on the best
target in reach, a support card, a step toward a goal, a draw; see ``agents.heuristic``),
but the team decides together where each hero goes and what counts:

- **Shared-out targets.** Every target on the board (enemies, problems, Scheme cards, the
  villain, nemeses, crisis cards, captives, bystander tokens) is a candidate goal. The
  heroes are assigned one at a time, always the
  (hero, goal) pair with the best weight per Move needed; a goal one hero can finish in a
  turn (``ONE_HERO_WORK`` damage or justice, or less) is then taken, and a bigger one
  takes a second hero before it is taken (the villain takes everyone). A taken goal
  weighs a quarter for the others, so two heroes chase the same target only when one
  cannot finish it, or when nothing else is worth the walk.
- **Cover the villain's objective.** The villain advances toward its objective when
  minions pile up in its panel. Successes that go to minions go first to those in the
  villain's panel (``MINION_THREAT``); walking there for minions alone is not worth it
  (measured: it slowed the team more than it delayed the villain).
- **Protect the wounded.** A hero with at most ``WOUNDED_LEFT`` health left, or at most
  half, is wounded: the enemies in their threat area (which activate against them) weigh
  ``PROTECT_BONUS`` more for the other heroes.
- **Hand over the initiative.** A hero with actions left but nothing worth rolling in
  reach yields the initiative (while the rules allow a yield) to the next hero when that
  hero already stands in reach of their goal: the hero best placed acts first.

Its weights (``MINION_THREAT``, ``WOUNDED_LEFT``, ``PROTECT_BONUS``) live with every
style's in ``agents.target_weights``; this module holds its goals (``team_goal``) and the
hand-over (``should_yield``), and ``agents.scripted`` runs the menu. Inside rolls, damage,
inflicts and heals it plays as the per-hero team does. Like it, it
reads only what the players see (positions, damage, justice, cards in play, threat areas,
the deciding hero's hand), never deck orders or the random generator; it is
deterministic and every action it returns is legal under the mask.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.goals import G_IN, G_KIND, G_SP, G_T, MAX_GOALS, T_BYSTANDER, goal_weight, list_goals
from agents.heuristic import in_reach, reach_cost
from agents.target_weights import TEAM, left_to_finish
from hon_env.core.geometry import FAR, captives, panel_of_space
from hon_env.core.masks import yield_target
from hon_env.core.queries import move_bonus
from hon_env.spec import layout as L
from hon_env.spec import tables as TB

ONE_HERO_WORK = 3  # damage or justice one hero can be counted on for in a turn
TAKEN_DIVISOR = 4  # a goal other heroes already cover weighs this much less


# --- goals, shared out --------------------------------------------------------------------

@njit(cache=True)
def goal_work(s, b, T, g, j):
    """Damage or justice goal row ``j`` still needs (BIG: more than any team turn)."""
    t = g[j, G_T]
    if t == T_BYSTANDER:
        return 1
    if t == L.T_CAPTURED:
        return captives(s, b, T, panel_of_space(T, g[j, G_SP]))
    return left_to_finish(s, b, T, t, g[j, G_KIND])


@njit(cache=True)
def team_goal(s, b, T, h):
    """Hero ``h``'s goal once the team's goals are shared out: (space, inside) or (-1, 0).

    Greedy assignment: repeatedly the unassigned hero and goal with the best score
    (weight / (1 + Moves), a taken goal at 1/TAKEN_DIVISOR of its weight) are paired until
    ``h`` has a goal. A goal is taken by one hero when one hero can finish it, by two when
    not, and never for the villain (everyone may join the showdown).
    """
    n_heroes = T.cfg[TB.CFG_N_HEROES]
    g = np.empty((MAX_GOALS, 4), np.int64)
    n = list_goals(s, b, T, g)
    if n == 0 or s[b, L.HLOC + h] < 0:
        return -1, 0
    takers = np.zeros(n, np.int64)
    cap = np.empty(n, np.int64)
    for j in range(n):
        work = goal_work(s, b, T, g, j)
        if L.is_villain_target(g[j, G_T]):
            cap[j] = n_heroes
        elif work > ONE_HERO_WORK:
            cap[j] = 2
        else:
            cap[j] = 1
    done = np.zeros(n_heroes, np.bool_)
    for _ in range(n_heroes):
        best, best_o, best_j = 0, -1, -1
        for o in range(n_heroes):
            here = s[b, L.HLOC + o]
            if done[o] or here < 0:
                continue
            step = max(1, T.cfg[TB.CFG_MOVE] + move_bonus(s, b, T, o))
            for j in range(n):
                w = goal_weight(TEAM, s, b, T, g, j, o) * 1000
                if takers[j] >= cap[j]:
                    w //= TAKEN_DIVISOR
                if w <= 0:
                    continue
                cost = reach_cost(T, here, g[j, G_SP], g[j, G_IN] == 1, step)
                if cost >= FAR:
                    continue
                score = w // (1 + cost)
                # ties: the deciding hero first, then the lower seat (deterministic)
                if score > best or (score == best and o == h and best_o != h):
                    best, best_o, best_j = score, o, j
        if best_o < 0:
            break
        if best_o == h:
            return g[best_j, G_SP], g[best_j, G_IN]
        done[best_o] = True
        takers[best_j] += 1
    return -1, 0


# --- the initiative --------------------------------------------------------------------------

@njit(cache=True)
def should_yield(s, b, T, h, mask):
    """Does hero ``h`` hand the initiative to the next hero, who stands in reach of their
    goal while ``h`` has nothing worth rolling?"""
    if not mask[L.A_PASS] or s[b, L.HACTIONS + h] == 0:
        return False
    if s[b, L.HYIELDS + h] >= T.cfg[TB.CFG_MAX_YIELDS]:
        return False
    o = yield_target(s, b, T, h)
    if o < 0 or s[b, L.HACTIONS + o] == 0:
        return False
    goal, inside = team_goal(s, b, T, o)
    return goal >= 0 and in_reach(s, b, T, o, goal, inside)
