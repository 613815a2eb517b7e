"""Board queries: occupancy, nearness, nearest spaces and enemy movement.

Every element has a map space: a figure in a scheme panel (heroes, the villain and
nemeses while scheming, minions, captured bystanders) counts as standing in that panel's
scheme space, so "near" is one test, ``dist <= 1`` (rulebook: Near and Nearby; Scheme
Panels vs. Scheme Spaces). Hero figures never occupy a scheme space: a hero whose location
is a scheme space is in the panel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hon_env.core.bystanders import capture_into, character_event
from hon_env.core.facing import vcard_slots, vil_col, villain_active
from hon_env.spec import layout as L
from hon_env.spec import tables as TB

FAR = 999
# what the figure-position helpers below return for "no such figure": equal to no value a
# position field holds, -1 (off the map) included, so that ``helper(...) == sp`` is the
# old per-space test for every ``sp``
NOWHERE = -(1 << 31)


@njit(cache=True)
def hero_occupies(s, b, T, sp):
    """1 if a hero figure physically stands in map space ``sp`` (not in a panel)."""
    if T.space_kind[sp] == TB.SP_SCHEME:
        return False
    for h in range(T.cfg[TB.CFG_N_HEROES]):
        if s[b, L.HLOC + h] == sp:
            return True
    return False


@njit(cache=True)
def ally_at(s, b, T, sp):
    """Seat whose ally figure stands in map space ``sp``, or -1 (rulebook: Ally Cards and
    Figures). Ally figures never enter scheme panels."""
    for h in range(T.cfg[TB.CFG_N_HEROES]):
        if s[b, L.ALLY_LOC + h] == sp:
            return h
    return -1


@njit(cache=True, inline="always")
def _lackey_space(s, b, T, i):
    """Space of villain card ``i``'s lackey figure, or ``NOWHERE`` (not a lackey in play)."""
    if s[b, L.VLOC + i] == L.L_THREAT and T.vcard[i, TB.VC_TYPE] == TB.VT_LACKEY:
        return s[b, L.VPOS + i]
    return NOWHERE


@njit(cache=True, inline="always")
def _villain_space(s, b, T, v):
    """Space of villain ``v``'s figure on the map, or ``NOWHERE`` (scheming in its panel,
    or out)."""
    if villain_active(s, b, T, v) and s[b, vil_col(L.VIL_IN_PANEL, v)] == 0:
        return s[b, vil_col(L.VIL_LOC, v)]
    return NOWHERE


@njit(cache=True, inline="always")
def _issue_enemy_space(s, b, T, i):
    """Space of issue card ``i``'s enemy figure (its flipped Enemy back), or ``NOWHERE``."""
    if (s[b, L.ILOC + i] == L.L_THREAT and s[b, L.ISIDE + i] == 1
            and T.icard[i, TB.IC_BACK] == TB.BACK_ENEMY):
        return s[b, L.IPOS + i]
    return NOWHERE


@njit(cache=True, inline="always")
def _nemesis_enemy_space(s, b, k):
    """Space of nemesis ``k``'s enemy figure, or ``NOWHERE`` (a scheming nemesis is in its
    panel)."""
    if s[b, L.NEM_OWNER + k] >= 0 and s[b, L.NEM_SIDE + k] == 1:
        return s[b, L.NEM_POS + k]
    return NOWHERE


@njit(cache=True)
def enemy_occupies(s, b, T, sp):
    """1 if an enemy figure (lackey, villain or nemesis on the map, issue enemy) stands in
    ``sp``. A scheming nemesis, like a scheming villain, is in its panel, not on the map."""
    for i in range(vcard_slots(T)):
        if _lackey_space(s, b, T, i) == sp:
            return True
    for v in range(TB.VILLAINS):
        if _villain_space(s, b, T, v) == sp:
            return True
    for i in range(L.IDECK):
        if _issue_enemy_space(s, b, T, i) == sp:
            return True
    for k in range(TB.NEMESES):
        if _nemesis_enemy_space(s, b, k) == sp:
            return True
    return False


@njit(cache=True)
def occupied_spaces(s, b, T):
    """``occ[sp]`` is ``not is_empty(s, b, T, sp)`` for every map space, from one pass over
    the figures rather than one per space (a move's path search asks it of every space).
    Reads row ``b``; returns a new bool array of ``MAX_SPACES``."""
    occ = np.zeros(TB.MAX_SPACES, np.bool_)
    for h in range(T.cfg[TB.CFG_N_HEROES]):
        loc = s[b, L.HLOC + h]
        if loc >= 0 and T.space_kind[loc] != TB.SP_SCHEME:  # as hero_occupies
            occ[loc] = True
        loc = s[b, L.ALLY_LOC + h]
        if loc >= 0:
            occ[loc] = True
    for i in range(vcard_slots(T)):
        _mark(occ, _lackey_space(s, b, T, i))
    for v in range(TB.VILLAINS):
        _mark(occ, _villain_space(s, b, T, v))
    for i in range(L.IDECK):
        _mark(occ, _issue_enemy_space(s, b, T, i))
    for k in range(TB.NEMESES):
        _mark(occ, _nemesis_enemy_space(s, b, k))
    return occ


@njit(cache=True, inline="always")
def _mark(flags, sp):
    if sp >= 0:
        flags[sp] = True


@njit(cache=True)
def is_empty(s, b, T, sp):
    """An empty space holds no figure; tokens (bystanders, perils) do not count."""
    return (not hero_occupies(s, b, T, sp) and ally_at(s, b, T, sp) < 0
            and not enemy_occupies(s, b, T, sp))


@njit(cache=True)
def peril_token_at(s, b, T, sp):
    for i in range(vcard_slots(T)):
        if (s[b, L.VLOC + i] == L.L_THREAT and s[b, L.VPOS + i] == sp
                and T.vcard[i, TB.VC_TYPE] == TB.VT_PERIL):
            return True
    return False


@njit(cache=True)
def nearest_empty(s, b, T, origin, skip_perils, prefer_toward):
    """The empty space nearest ``origin`` (``origin`` itself if empty).

    Ties go to the space nearest ``prefer_toward`` (when >= 0), then to the lowest index.
    With ``skip_perils`` a space holding a peril token also counts as taken.
    Returns -1 when the map has no empty space.
    """
    best = -1
    best_d = FAR
    best_t = FAR
    occ = occupied_spaces(s, b, T)
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        if T.space_kind[sp] == TB.SP_NONE or occ[sp]:
            continue
        if skip_perils and peril_token_at(s, b, T, sp):
            continue
        d = T.dist[origin, sp]
        t = T.dist[prefer_toward, sp] if prefer_toward >= 0 else 0
        if d < best_d or (d == best_d and t < best_t):
            best, best_d, best_t = sp, d, t
    return best


@njit(cache=True)
def nearest_empty_map(s, b, T, origin):
    """The empty map space (not a scheme space) nearest ``origin``, lowest index on ties;
    -1 when there is none."""
    best = -1
    best_d = FAR
    occ = occupied_spaces(s, b, T)
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        kind = T.space_kind[sp]
        if kind == TB.SP_NONE or kind == TB.SP_SCHEME or occ[sp]:
            continue
        if T.dist[origin, sp] < best_d:
            best, best_d = sp, T.dist[origin, sp]
    return best


@njit(cache=True)
def nearest_panel(T, sp):
    """Scheme panel nearest map space ``sp``; ties go to the higher-numbered panel."""
    best = 1
    best_d = FAR
    for k in range(1, T.cfg[TB.CFG_N_PANELS] + 1):
        d = T.dist[sp, T.scheme_space[k]]
        if d <= best_d:
            best, best_d = k, d
    return best


@njit(cache=True)
def panel_of_space(T, sp):
    """Panel number whose scheme space is ``sp``, or 0."""
    if sp >= 0 and T.space_kind[sp] == TB.SP_SCHEME:
        return T.space_arg[sp]
    return 0


@njit(cache=True, inline="always")
def _character_space(s, b, i):
    """Space of issue card ``i``'s bystander character token, or ``NOWHERE`` (not on the
    board)."""
    return s[b, L.IPOS + i] if s[b, L.ILOC + i] == L.L_BOARD else NOWHERE


@njit(cache=True)
def character_on(s, b, sp):
    """Issue card index of a bystander character token on space ``sp``, or -1."""
    for i in range(L.IDECK):
        if _character_space(s, b, i) == sp:
            return i
    return -1


@njit(cache=True)
def bystander_at(s, b, T, sp):
    """A bystander (token or character) stands on map space ``sp`` (not in a panel)."""
    if T.space_kind[sp] == TB.SP_SCHEME:
        return False
    return s[b, L.BYSTANDER_ON + sp] == 1 or character_on(s, b, sp) >= 0


@njit(cache=True)
def bystander_spaces(s, b, T):
    """``bys[sp]`` is ``bystander_at(s, b, T, sp)`` for every map space, from one pass
    (the searches for the nearest bystander ask it of every space). Reads row ``b``;
    returns a new bool array of ``MAX_SPACES``."""
    bys = np.zeros(TB.MAX_SPACES, np.bool_)
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        bys[sp] = s[b, L.BYSTANDER_ON + sp] == 1
    for i in range(L.IDECK):
        _mark(bys, _character_space(s, b, i))
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        if T.space_kind[sp] == TB.SP_SCHEME:
            bys[sp] = False
    return bys


@njit(cache=True)
def captives(s, b, T, p):
    """Captured bystanders in panel ``p``, bystander characters included."""
    n = s[b, L.CAPTURED + p]
    sp = T.scheme_space[p]
    for i in range(L.IDECK):
        if s[b, L.ILOC + i] == L.L_BOARD and s[b, L.IPOS + i] == sp:
            n += 1
    return n


@njit(cache=True)
def capture_at(s, b, T, sp, h):
    """Capture the bystanders on ``sp``: they go to the panel nearest that space.

    ``h`` is the hero the capturing effect resolves for (a special figure's captured effect
    resolves for them).
    """
    p = nearest_panel(T, sp)
    if s[b, L.BYSTANDER_ON + sp] == 1:
        s[b, L.BYSTANDER_ON + sp] = 0
        j = s[b, L.SBY_ON + sp]
        s[b, L.SBY_ON + sp] = -1
        capture_into(s, b, T, p, j, h)
    i = character_on(s, b, sp)
    if i >= 0:
        s[b, L.IPOS + i] = T.scheme_space[p]
        s[b, L.EVENTS + L.EV_CAPTURES] += 1
        character_event(s, b, T, i, True, h)


@njit(cache=True)
def bfs_to_goals(s, b, T, goal, mover_at):
    """Steps from every space to the nearest goal space, moving only through empty spaces.

    ``goal`` is a 0/1 vector over spaces. The mover's own space counts as empty.
    """
    n = T.cfg[TB.CFG_N_SPACES]
    occ = occupied_spaces(s, b, T)
    d = np.full(TB.MAX_SPACES, FAR, np.int32)
    queue = np.empty(TB.MAX_SPACES, np.int32)
    head = 0
    tail = 0
    for sp in range(n):
        if goal[sp]:
            d[sp] = 0
            queue[tail] = sp
            tail += 1
    while head < tail:
        cur = queue[head]
        head += 1
        for k in range(6):
            nb = T.adj[cur, k]
            if nb < 0 or d[nb] != FAR:
                continue
            if nb != mover_at and occ[nb]:
                continue
            d[nb] = d[cur] + 1
            queue[tail] = nb
            tail += 1
    return d


@njit(cache=True)
def enemy_move_target(s, b, T, pos, toward):
    """Space of the nearest hero or ally figure (kind 0) or map bystander (kind 1).

    ``toward`` limits the targets (ops.TOWARD_*: 0 any, 1 heroes, 2 bystanders); enemies
    treat ally figures as heroes (rulebook: Ally Cards and Figures). Rulebook ties are the
    players' choice; we break them toward heroes, then allies, then the lowest seat or
    space index. Returns (-1, -1) when there is no target.
    """
    best = -1
    kind = -1
    best_d = FAR
    if toward != 2:
        for h in range(T.cfg[TB.CFG_N_HEROES]):
            loc = s[b, L.HLOC + h]
            if loc >= 0 and T.dist[pos, loc] < best_d:
                best, kind, best_d = loc, 0, T.dist[pos, loc]
        for h in range(T.cfg[TB.CFG_N_HEROES]):
            loc = s[b, L.ALLY_LOC + h]
            if loc >= 0 and T.dist[pos, loc] < best_d:
                best, kind, best_d = loc, 0, T.dist[pos, loc]
    if toward != 1:
        bys = bystander_spaces(s, b, T)
        for sp in range(T.cfg[TB.CFG_N_SPACES]):
            if bys[sp] and T.dist[pos, sp] < best_d:
                best, kind, best_d = sp, 1, T.dist[pos, sp]
    return best, kind


@njit(cache=True)
def _enemy_goal(s, b, T, pos, toward, through_figures):
    """The spaces that end an enemy's move from ``pos``: (goal vector, target space).

    Near its hero target (a space at distance 1 it may end on), or its bystander target's
    space. The target is -1 when there is none or the enemy is already where it should be.
    """
    target, kind = enemy_move_target(s, b, T, pos, toward)
    if target < 0:
        return np.zeros(TB.MAX_SPACES, np.int32), -1
    return goal_toward(s, b, T, pos, pos, target, kind, through_figures)


@njit(cache=True)
def goal_toward(s, b, T, here, mover_at, target, kind, through_figures):
    """The spaces that end a move from ``here`` toward ``target`` (kind 0: a hero or ally
    figure, 1: a bystander): (goal vector, target space), the target -1 when the enemy is
    already where it should be. ``mover_at`` is where the moving figure is recorded (its
    own space counts as empty)."""
    goal = np.zeros(TB.MAX_SPACES, np.int32)
    if kind == 0:
        if T.dist[here, target] <= 1:
            return goal, -1
        for sp in range(T.cfg[TB.CFG_N_SPACES]):
            if T.space_kind[sp] != TB.SP_NONE and T.dist[sp, target] <= 1 and sp != target:
                if sp == mover_at or through_figures or is_empty(s, b, T, sp):
                    goal[sp] = 1
    else:
        if here == target:
            return goal, -1
        goal[target] = 1
    return goal, target


@njit(cache=True)
def _villain_walk(s, b, T, pos, steps, toward, h):
    """A villain's move (through figures): see ``move_enemy``.

    Capturing a bystander does not stop a villain (rulebook: Movement and Targeting
    Priority): when the space it reaches held its bystander target, it picks the next
    nearest target from there and spends the rest of its move on it.
    """
    n = T.cfg[TB.CFG_N_SPACES]
    goal, target = _enemy_goal(s, b, T, pos, toward, True)
    if target < 0:
        return pos
    cur = pos
    left = steps
    while left > 0:
        if goal[cur]:
            if T.dist[cur, target] > 0:
                break  # near its hero target
            goal, nxt_target = _enemy_goal(s, b, T, cur, toward, True)
            if nxt_target < 0:
                break
            target = nxt_target
            continue
        nxt = -1
        best = FAR
        for k in range(6):
            nb = T.adj[cur, k]
            if nb < 0:
                continue
            dn = FAR
            for g in range(n):
                if goal[g] and T.dist[nb, g] < dn:
                    dn = T.dist[nb, g]
            if dn < best:
                best, nxt = dn, nb
        if nxt < 0:
            break
        cur = nxt
        left -= 1
        if bystander_at(s, b, T, cur):
            capture_at(s, b, T, cur, h)
    if cur != pos and not is_empty_except(s, b, T, cur, pos):
        # blocked at the end: the empty space near it that is nearest the destination
        cur = nearest_empty(s, b, T, cur, False, target)
    return cur


@njit(cache=True)
def move_enemy(s, b, T, pos, steps, through_figures, toward, h):
    """Move an enemy figure from ``pos`` up to ``steps`` spaces toward its target.

    Returns the new space. Bystanders on spaces it enters are captured (``h``: the hero the
    moving effect resolves for, see ``capture_at``). Enemies stop once near their hero
    target or on their bystander's space; a villain (``through_figures``: it passes
    occupied spaces but must end on an empty one) goes on toward its next target after
    capturing its bystander target.
    """
    if through_figures:
        return _villain_walk(s, b, T, pos, steps, toward, h)
    goal, target = _enemy_goal(s, b, T, pos, toward, False)
    if target < 0:
        return pos
    d = bfs_to_goals(s, b, T, goal, pos)
    cur = pos
    for _ in range(steps):
        if goal[cur] or d[cur] == 0:
            break
        nxt = -1
        best = d[cur]
        for k in range(6):
            nb = T.adj[cur, k]
            if nb >= 0 and d[nb] < best and is_empty(s, b, T, nb):
                best, nxt = d[nb], nb
        if nxt < 0:
            break
        cur = nxt
        if bystander_at(s, b, T, cur):
            capture_at(s, b, T, cur, h)
    return cur


@njit(cache=True)
def is_empty_except(s, b, T, sp, mover_at):
    """Empty, counting the moving figure (still recorded at ``mover_at``) as gone."""
    if sp == mover_at:
        return True
    return is_empty(s, b, T, sp)
