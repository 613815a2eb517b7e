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

Inside rolls, damage, inflicts and heals it plays as the per-hero team does. Like it, it
reads only what the players see (positions, damage, justice, cards in play, threat areas,
the deciding hero's hand), never deck orders or the random generator; it is
deterministic and every action it returns is legal under the mask.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from agents.heuristic import (
    BIG,
    FINISH_BONUS,
    KIND_ATTACK,
    KIND_SOLVE,
    ScriptedTeamPolicy,
    attack_weight,
    decide,
    first_legal,
    free_action,
    go_to,
    health_left,
    in_reach,
    left_to_finish,
    owned_by,
    reach_cost,
    roll_action,
    solve_weight,
    space_value,
    support_card,
    toward,
)
from hon_env.content import tables as TB
from hon_env.core import layout as L
from hon_env.core.facing import may_affect, vil_col, villain_active
from hon_env.core.geometry import FAR, bystander_at, captives, panel_of_space
from hon_env.core.masks import yield_target
from hon_env.core.queries import (
    enemy_in_space,
    enemy_inflict,
    hero_health,
    is_enemy_card,
    move_bonus,
    nem_in_play,
)

MINION_THREAT = 2  # a minion in the villain's panel: it brings the villain's advance nearer
PROTECT_BONUS = 3  # an enemy in a wounded teammate's threat area
WOUNDED_LEFT = 2  # health left at or below which a hero counts as wounded
ONE_HERO_WORK = 3  # damage or justice one hero can be counted on for in a turn
TAKEN_DIVISOR = 4  # a goal other heroes already cover weighs this much less
MAX_GOALS = 96
T_BYSTANDER = -1  # goal code: a bystander token on the map (walking through rescues it)
# goal rows: (space, inside, target, kind)
G_SP, G_IN, G_T, G_KIND = 0, 1, 2, 3


# --- what matters to the team ------------------------------------------------------------

@njit(cache=True)
def villain_panel(s, b, T):
    """The scheme panel the villain stands in or schemes from, or 0 off the panels."""
    loc = s[b, L.VIL_LOC]
    return panel_of_space(T, loc) if loc >= 0 else 0


@njit(cache=True)
def wounded(s, b, T, o):
    """Is hero ``o`` wounded (at most WOUNDED_LEFT or half their health left)?"""
    if s[b, L.HLOC + o] < 0:
        return False
    left = health_left(s, b, T, o)
    return left <= WOUNDED_LEFT or 2 * left <= hero_health(s, b, T, o)


@njit(cache=True)
def protect_bonus(s, b, T, t, h):
    """Extra weight of enemy ``t`` for hero ``h`` when it threatens a wounded teammate."""
    n = T.cfg[TB.CFG_N_HEROES]
    for o in range(n):
        if o != h and owned_by(s, b, t, o) and wounded(s, b, T, o):
            return PROTECT_BONUS
    return 0


@njit(cache=True)
def co_attack_weight(s, b, T, t, h, sp):
    """How much hero ``h`` wants to damage target ``t`` (a minion: one in space ``sp``)."""
    if t == L.T_MINION:
        p = panel_of_space(T, sp) if sp >= 0 else 0
        return MINION_THREAT if p > 0 and p == villain_panel(s, b, T) else 1
    return attack_weight(s, b, T, t, h) + protect_bonus(s, b, T, t, h)


@njit(cache=True)
def co_solve_weight(s, b, T, t, h):
    """How much hero ``h`` wants to place justice on problem ``t``."""
    return solve_weight(s, b, T, t, h)


@njit(cache=True)
def co_space_value(s, b, T, h, sp, kind):
    """Total team weight of what hero ``h`` could attack (1) or solve (2) in ``sp`` now:
    the per-hero value plus the enemies that threaten wounded teammates."""
    v = space_value(s, b, T, h, sp, kind)
    if kind == KIND_ATTACK:
        for t in range(L.N_TARGETS):
            if t != L.T_MINION and may_affect(s, b, T, h, t) and enemy_in_space(s, b, T, t, sp):
                v += protect_bonus(s, b, T, t, h)
    return v


@njit(cache=True)
def co_best_space(s, b, T, h, mask, base, kind):
    """Legal ``base + sp`` whose space holds the most team weight, and that weight."""
    best_a, best_v = -1, 0
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        if mask[base + sp]:
            v = co_space_value(s, b, T, h, sp, kind)
            if best_a < 0 or v > best_v:
                best_a, best_v = base + sp, v
    return best_a, best_v


# --- goals, shared out --------------------------------------------------------------------

@njit(cache=True)
def add_goal(g, n, sp, inside, t, kind):
    if sp < 0 or n >= MAX_GOALS:
        return n
    g[n, G_SP], g[n, G_IN], g[n, G_T], g[n, G_KIND] = sp, inside, t, kind
    return n + 1


@njit(cache=True)
def list_goals(s, b, T, g):
    """Every goal on the board into ``g`` [MAX_GOALS, 4]; returns how many (the targets of
    ``heuristic.goal_of``, plus the minions of the villain's panel)."""
    n = 0
    for i in range(TB.VCARDS):  # both villains' decks (Two Fronts)
        if s[b, L.VLOC + i] != L.L_THREAT or s[b, L.VPOS + i] < 0:
            continue
        if T.vcard[i, TB.VC_TYPE] == TB.VT_LACKEY:
            n = add_goal(g, n, s[b, L.VPOS + i], 0, L.vcard_target(i), KIND_ATTACK)
        elif T.vcard[i, TB.VC_TYPE] == TB.VT_PERIL:
            n = add_goal(g, n, s[b, L.VPOS + i], 0, L.vcard_target(i), KIND_SOLVE)
    for i in range(TB.IDECK):
        t = L.T_I0 + i
        pos = s[b, L.IPOS + i]
        if s[b, L.ILOC + i] != L.L_THREAT or pos < 0:
            continue
        inside = 1 if panel_of_space(T, pos) > 0 else 0
        if is_enemy_card(s, b, T, t):
            n = add_goal(g, n, pos, 0, t, KIND_ATTACK)
        elif T.icard[i, TB.IC_TYPE] == TB.IT_SCHEME:
            if s[b, L.ISIDE + i] == 0:
                n = add_goal(g, n, pos, 1, t, KIND_SOLVE)
            elif T.icard[i, TB.IC_BACK] == TB.BACK_PROBLEM:
                n = add_goal(g, n, pos, inside, t, KIND_SOLVE)
        elif T.icard[i, TB.IC_TYPE] == TB.IT_ISSUE and T.icard[i, TB.IC_STAYS] == 1:
            n = add_goal(g, n, pos, inside, t, KIND_SOLVE)
    for k in range(TB.NEMESES):
        t = L.T_NEM0 + k
        pos = s[b, L.NEM_POS + k]
        if not nem_in_play(s, b, k) or pos < 0:
            continue
        if s[b, L.NEM_SIDE + k] == 1:
            n = add_goal(g, n, pos, 0, t, KIND_ATTACK)
        else:
            n = add_goal(g, n, pos, 1, t, KIND_SOLVE)
    for v in range(TB.VILLAINS):
        if not villain_active(s, b, T, v):
            continue
        vloc = s[b, vil_col(L.VIL_LOC, v)]
        t = L.villain_target(v)
        if vloc >= 0:
            if s[b, vil_col(L.VIL_SIDE, v)] == 1:
                n = add_goal(g, n, vloc, 0, t, KIND_ATTACK)
            elif (s[b, vil_col(L.VIL_HIDDEN, v)] == 0
                  and s[b, vil_col(L.VIL_IN_PANEL, v)] == 1):
                n = add_goal(g, n, vloc, 1, t, KIND_SOLVE)
    for k in range(TB.MAX_CRISES):
        pos = s[b, L.CRISIS_POS + k]
        if pos >= 0:
            n = add_goal(g, n, pos, 1 if panel_of_space(T, pos) > 0 else 0, L.T_CRISIS0 + k,
                         KIND_SOLVE)
    for p in range(1, T.cfg[TB.CFG_N_PANELS] + 1):
        if captives(s, b, T, p) > 0:
            n = add_goal(g, n, T.scheme_space[p], 1, L.T_CAPTURED, KIND_SOLVE)
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        if T.space_kind[sp] != TB.SP_NONE and bystander_at(s, b, T, sp):
            n = add_goal(g, n, sp, 1, T_BYSTANDER, KIND_SOLVE)
    return n


@njit(cache=True)
def goal_weight(s, b, T, g, j, h):
    """Team weight of goal row ``j`` for hero ``h`` (0 for another villain's card: Two
    Fronts heroes only reach the villain they face)."""
    sp, t, kind = g[j, G_SP], g[j, G_T], g[j, G_KIND]
    if not may_affect(s, b, T, h, t):
        return 0
    if t == T_BYSTANDER:
        return 2
    if t == L.T_CAPTURED:
        return co_solve_weight(s, b, T, t, h) * captives(s, b, T, panel_of_space(T, sp))
    if kind == KIND_ATTACK:
        return co_attack_weight(s, b, T, t, h, sp)
    return co_solve_weight(s, b, T, t, h)


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
                w = goal_weight(s, b, T, g, j, o) * 1000
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


# --- decisions --------------------------------------------------------------------------

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


@njit(cache=True)
def co_decide_main(s, b, T, h, mask):
    """The per-hero menu with team weights, shared-out goals and initiative hand-over."""
    a = free_action(s, b, T, mask)
    if a >= 0:
        return a
    atk_a, atk_v = co_best_space(s, b, T, h, mask, L.A_ATTACK, KIND_ATTACK)
    slv_a, slv_v = co_best_space(s, b, T, h, mask, L.A_SOLVE, KIND_SOLVE)
    a = roll_action(s, b, T, h, mask, atk_a, atk_v, slv_a, slv_v)
    if a >= 0:
        return a
    if s[b, L.HACTIONS + h] == 0:
        return L.A_PASS
    if should_yield(s, b, T, h, mask):
        return L.A_PASS
    a = support_card(T, h, mask)
    if a >= 0:
        return a
    goal, inside = team_goal(s, b, T, h)
    a = go_to(s, b, T, h, mask, goal, inside)
    if a >= 0:
        return a
    if mask[L.A_DRAW]:
        return L.A_DRAW
    return first_legal(mask)


@njit(cache=True)
def co_assign(s, b, T, h, mask):
    """Where the next success goes: the heaviest target by team weight, finishing first."""
    kind = s[b, L.ROLL_KIND]
    succ = s[b, L.ROLL_SUCC]
    sp = s[b, L.ROLL_SPACE]
    best_a, best_v = -1, -BIG
    for t in range(L.N_TARGETS):
        if not mask[L.target_action(t)]:
            continue
        if kind == KIND_ATTACK:
            w = co_attack_weight(s, b, T, t, h, sp)
        else:
            w = co_solve_weight(s, b, T, t, h)
        if left_to_finish(s, b, T, t, kind) <= succ:
            w += FINISH_BONUS
        if w > best_v:
            best_a, best_v = L.target_action(t), w
    return best_a


@njit(cache=True)
def co_pick_target(s, b, T, h, mask):
    """Damage/justice from an effect goes to the heaviest target by team weight;
    exhausting a threat card stops the enemy that inflicts most."""
    kind = s[b, L.DEC_A]
    best_a, best_v = -1, -BIG
    for t in range(L.N_TARGETS):
        if not mask[L.target_action(t)]:
            continue
        if kind == 0:
            w = co_attack_weight(s, b, T, t, h, -1)
        elif kind == 1:
            w = co_solve_weight(s, b, T, t, h)
        else:
            w = enemy_inflict(s, b, T, t) if is_enemy_card(s, b, T, t) else 0
        if w > best_v:
            best_a, best_v = L.target_action(t), w
    return best_a


@njit(cache=True)
def co_decide(s, b, T, mask):
    """The coordinated team's action for game ``b`` (reads the state row and ``mask``)."""
    kind = s[b, L.DEC_KIND]
    h = s[b, L.DEC_HERO]
    if kind == L.D_MAIN:
        return co_decide_main(s, b, T, h, mask)
    if kind == L.D_MOVE or (kind == L.D_PLACE and s[b, L.DEC_B] != 1):
        goal, inside = team_goal(s, b, T, h)
        if goal >= 0:
            a = toward(s, b, T, h, mask, L.A_SPACE, goal, inside, kind == L.D_MOVE)
            if a >= 0:
                return a
        return L.A_PASS if mask[L.A_PASS] else first_legal(mask)
    if kind == L.D_ATTACK_SPACE:
        return co_best_space(s, b, T, h, mask, L.A_ATTACK, KIND_ATTACK)[0]
    if kind == L.D_SOLVE_SPACE:
        return co_best_space(s, b, T, h, mask, L.A_SOLVE, KIND_SOLVE)[0]
    if kind == L.D_ASSIGN:
        return co_assign(s, b, T, h, mask)
    if kind == L.D_PICK_TARGET:
        return co_pick_target(s, b, T, h, mask)
    return decide(s, b, T, mask)


@njit(cache=True, parallel=True)
def coordinated_actions(state, tabs, masks, out):
    """Coordinated actions for every game: reads ``state`` [B, STATE_LEN], the scenario
    tables ``tabs`` (record array: game b plays row ``state[b, TEAM]``) and ``masks``
    [B, N_ACTIONS]; writes ``out`` [B]."""
    for b in prange(state.shape[0]):
        a = co_decide(state, b, tabs[state[b, L.TEAM]], masks[b])
        out[b] = a if a >= 0 and masks[b, a] else first_legal(masks[b])


class CoordinatedPolicy(ScriptedTeamPolicy):
    """The coordinated scripted team as a ``Policy`` (``load_policy("heuristic")``)."""

    name = "heuristic"

    def _actions(self, state: np.ndarray, tabs: np.ndarray, masks: np.ndarray,
                 out: np.ndarray) -> None:
        coordinated_actions(state, tabs, masks, out)
