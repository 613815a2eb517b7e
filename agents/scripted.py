"""The scripted teams: one menu, played in three styles.

Every scripted hero runs the same menu (``agents.heuristic`` describes it: free things
first, then a roll on the best target in reach, a support card, a step toward a goal, a
draw; inside a roll, each success on the heaviest target). The styles differ only in how
they weigh targets (``agents.target_weights``) and in which goal a hero walks to:

- ``SOLO`` (``heuristic_solo``): every hero on its own, toward its own best target
  (``heuristic.goal_of``);
- ``TEAM`` (``heuristic``, the coordinated team): goals shared out over the team
  (``coordinated.team_goal``), enemies threatening a wounded teammate weigh more, and a
  hero with nothing to roll hands the initiative to a teammate in reach of their goal;
- ``GLORY`` (``glory_one``, ``glory_all``): the fame each target pays the hero
  (``glory.glory_goal``); it never yields and keeps heals for itself.

One batched kernel plays a team whose seats each have a style (``scripted_actions``); the
policies below fix the styles. Every style reads only public state and the deciding
hero's hand, is deterministic, and returns a legal action.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit, prange

from agents.coordinated import should_yield, team_goal
from agents.glory import glory_goal
from agents.heuristic import (
    first_legal,
    free_action,
    go_to,
    goal_of,
    roll_action,
    shared_answer,
    support_card,
    toward,
)
from agents.policy import check_engine
from agents.target_weights import (
    BIG,
    GLORY,
    KIND_ATTACK,
    KIND_SOLVE,
    SOLO,
    TEAM,
    space_worth,
    target_score,
)
from hon_env.spec import layout as L
from hon_env.spec import ops
from hon_env.spec import tables as TB


@njit(cache=True)
def goal(style, s, b, T, h):
    """Hero ``h``'s goal in ``style``: (space, 1 if they must stand inside its panel), or
    (-1, 0) when there is none."""
    if style == TEAM:
        return team_goal(s, b, T, h)
    if style == GLORY:
        return glory_goal(s, b, T, h)
    return goal_of(s, b, T, h)


@njit(cache=True)
def best_space(style, s, b, T, h, mask, base, kind):
    """Legal action ``base + sp`` whose space holds the most weight, and that weight."""
    best_a, best_v = -1, 0
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        if mask[base + sp]:
            v = space_worth(style, s, b, T, h, sp, kind)
            if best_a < 0 or v > best_v:
                best_a, best_v = base + sp, v
    return best_a, best_v


@njit(cache=True)
def best_target(style, s, b, T, h, mask, kind, succ, sp, roll):
    """The legal target action with the best ``target_score`` (lowest target on ties)."""
    best_a, best_v = -1, -BIG
    for t in range(L.N_TARGETS):
        if not mask[L.target_action(t)]:
            continue
        w = target_score(style, s, b, T, t, h, kind, succ, sp, roll)
        if w > best_v:
            best_a, best_v = L.target_action(t), w
    return best_a


@njit(cache=True)
def main_menu(style, s, b, T, h, mask):
    """The hero-turn menu (``agents.heuristic`` lists the order of preferences)."""
    a = free_action(s, b, T, mask)
    if a >= 0:
        return a
    atk_a, atk_v = best_space(style, s, b, T, h, mask, L.A_ATTACK, KIND_ATTACK)
    slv_a, slv_v = best_space(style, s, b, T, h, mask, L.A_SOLVE, KIND_SOLVE)
    a = roll_action(s, b, T, h, mask, atk_a, atk_v, slv_a, slv_v)
    if a >= 0:
        return a
    if s[b, L.HACTIONS + h] == 0:
        return L.A_PASS
    if style == TEAM and should_yield(s, b, T, h, mask):
        return L.A_PASS
    a = support_card(T, h, mask)
    if a >= 0:
        return a
    where, inside = goal(style, s, b, T, h)
    a = go_to(s, b, T, h, mask, where, inside)
    if a >= 0:
        return a
    if mask[L.A_DRAW]:
        return L.A_DRAW
    return first_legal(mask)


@njit(cache=True)
def decide(style, s, b, T, mask):
    """The action of the deciding hero of game ``b``, played in ``style`` (reads the state
    row and ``mask``)."""
    kind = s[b, L.DEC_KIND]
    h = s[b, L.DEC_HERO]
    if kind == L.D_MAIN:
        return main_menu(style, s, b, T, h, mask)
    if kind == L.D_MOVE or (kind == L.D_PLACE and s[b, L.DEC_B] != 1):
        where, inside = goal(style, s, b, T, h)
        if where >= 0:
            a = toward(s, b, T, h, mask, L.A_SPACE, where, inside, kind == L.D_MOVE)
            if a >= 0:
                return a
        return L.A_PASS if mask[L.A_PASS] else first_legal(mask)
    if kind == L.D_ATTACK_SPACE:
        return best_space(style, s, b, T, h, mask, L.A_ATTACK, KIND_ATTACK)[0]
    if kind == L.D_SOLVE_SPACE:
        return best_space(style, s, b, T, h, mask, L.A_SOLVE, KIND_SOLVE)[0]
    if kind == L.D_ASSIGN:
        return best_target(style, s, b, T, h, mask, s[b, L.ROLL_KIND], s[b, L.ROLL_SUCC],
                           s[b, L.ROLL_SPACE], True)
    if kind == L.D_PICK_TARGET:
        # DEC_A: 0 damage, 1 justice, 2 exhaust a threat card (target kind 0)
        effect = s[b, L.DEC_A]
        work = KIND_ATTACK if effect == 0 else (KIND_SOLVE if effect == 1 else 0)
        return best_target(style, s, b, T, h, mask, work, 0, -1, False)
    if style == GLORY and kind == L.D_PICK_HERO and mask[L.A_HERO]:
        top = s[b, L.SP] - 1
        if top >= 0 and s[b, L.STACK + top * L.STACK_W] == ops.OP_HEAL:
            return L.A_HERO  # a heal: itself
    return shared_answer(s, b, T, h, mask)


@njit(cache=True, parallel=True)
def scripted_actions(state, tabs, masks, styles, out):
    """Scripted actions for every game: reads ``state`` [B, STATE_LEN], the scenario
    tables ``tabs`` (record array: game b plays row ``state[b, TEAM]``), ``masks``
    [B, N_ACTIONS] and ``styles`` [MAX_HEROES + 1] (seat h plays ``styles[h]``; the last
    entry answers decisions no hero seat owns); writes ``out`` [B]."""
    for j in prange(state.shape[0]):
        b = np.int64(j)  # prange counts in uint64; the engine's kernels are typed for an int64 row
        # indexed inside the loop: records do not cross prange
        T = tabs[state[b, L.TEAM]]
        h = state[b, L.DEC_HERO]
        style = styles[h] if 0 <= h < styles.shape[0] - 1 else styles[-1]
        a = decide(style, state, b, T, masks[b])
        out[b] = a if a >= 0 and masks[b, a] else first_legal(masks[b])


class ScriptedTeamPolicy:
    """A scripted team as a ``Policy``: each seat plays one style of the menu (``styles``:
    one per seat, then the style of decisions no seat owns)."""

    name = "scripted"
    needs_engine = True

    def __init__(self, styles: Sequence[int], name: str | None = None) -> None:
        if len(styles) != TB.MAX_HEROES + 1 or not set(styles) <= {SOLO, TEAM, GLORY}:
            raise ValueError(f"styles must name {TB.MAX_HEROES + 1} styles (SOLO, TEAM, "
                             f"GLORY), got {list(styles)}")
        self.styles = np.asarray(styles, np.int64)
        if name is not None:
            self.name = name

    def act(self, observations: np.ndarray, masks: np.ndarray, seats: np.ndarray,
            engine=None) -> np.ndarray:
        masks = np.ascontiguousarray(masks, np.int8)
        state, tabs = check_engine(engine, masks.shape[0], type(self).__name__)
        out = np.empty(masks.shape[0], np.int64)
        scripted_actions(state, tabs, masks, self.styles, out)
        return out


class HeuristicPolicy(ScriptedTeamPolicy):
    """The per-hero scripted team (``load_policy("heuristic_solo")``)."""

    name = "heuristic_solo"

    def __init__(self) -> None:
        super().__init__([SOLO] * (TB.MAX_HEROES + 1))


class CoordinatedPolicy(ScriptedTeamPolicy):
    """The coordinated scripted team (``load_policy("heuristic")``)."""

    name = "heuristic"

    def __init__(self) -> None:
        super().__init__([TEAM] * (TB.MAX_HEROES + 1))


class GloryTeamPolicy(ScriptedTeamPolicy):
    """Glory seekers in ``seats`` (every seat: None), the coordinated team in the others."""

    def __init__(self, seats: Sequence[int] | None = None, name: str = "glory") -> None:
        glory = range(TB.MAX_HEROES) if seats is None else seats
        styles = [TEAM] * (TB.MAX_HEROES + 1)
        for h in glory:
            if not 0 <= h < TB.MAX_HEROES:
                raise ValueError(f"glory seats are 0 to {TB.MAX_HEROES - 1}, got {h}")
            styles[h] = GLORY
        super().__init__(styles, name)
