"""The glory seeker: a scripted hero who plays for its own fame (the Fame variant,
``docs/variants.md``), next to heroes who play the coordinated team's rules.

A glory seeker follows the per-hero menu of ``agents.heuristic`` (free things first, then
a roll on the best target in reach, a support card, a step toward a goal, a draw), but it
weighs every target by the fame it pays *this hero* (``content/fame.py``'s default table),
not by what the team needs to win:

- **Weights.** A minion is worth 1 (each one of a panel counts), a lackey, issue enemy or
  nemesis 2, the revealed villain 3 (the final blow) + 1 (its damage pays at the end and
  the most-damage award), a Scheme card 2, solving the villain card 2, a captive or a
  bystander 1, any other problem 1. Kills that it can finish this roll weigh
  ``FINISH_BONUS`` more (fame is paid to the hero who lands the last point); work that
  someone else will finish is worth nothing to it, so justice or damage that does not
  finish a target weighs half.
- **Goal.** The space with the most fame in reach per Move needed, attacking or solving.
- **Never a team player.** It does not yield the initiative and it gives heals to itself
  when it may (other decisions: as the per-hero team).

``agents.scripted.GloryTeamPolicy(seats)`` plays the listed seats as glory seekers and
every other seat as the coordinated team (``agents.coordinated``):
``load_policy("glory_one")`` makes seat 0 the glory seeker, ``load_policy("glory_all")``
every hero. Like the scripted teams it
reads only public state (and its own hand), is deterministic and always legal.
"""

from __future__ import annotations

from numba import njit

from agents.heuristic import consider
from agents.target_weights import GLORY, GLORY_SCALE, KIND_ATTACK, KIND_SOLVE, space_worth
from hon_env.core.geometry import bystander_at, panel_of_space
from hon_env.core.queries import move_bonus
from hon_env.spec import layout as L
from hon_env.spec import tables as TB


@njit(cache=True)
def glory_goal(s, b, T, h):
    """The space with the most fame per Move needed: (space, inside its panel), (-1, 0)."""
    here = s[b, L.HLOC + h]
    if here < 0:
        return -1, 0
    step = max(1, T.cfg[TB.CFG_MOVE] + move_bonus(s, b, T, h))
    best = (0, -1, 0)
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        attack = space_worth(GLORY, s, b, T, h, sp, KIND_ATTACK)
        best = consider(best, T, here, step, sp, 0, attack)
        inside = 1 if panel_of_space(T, sp) > 0 else 0
        solve = space_worth(GLORY, s, b, T, h, sp, KIND_SOLVE)
        best = consider(best, T, here, step, sp, inside, solve)
        if T.space_kind[sp] != TB.SP_NONE and bystander_at(s, b, T, sp):
            best = consider(best, T, here, step, sp, 1, GLORY_SCALE)
    return best[1], best[2]
