"""The content ops (``spec/ops.py``) on the interpreter's stack: one dispatch per family
(hero, token, harm, villain effects), the ops that ask a question (``park``, then
``resolve_choice_effect`` with the answer) and the enemy moves whose ties a player
breaks."""

from __future__ import annotations

import numpy as np
from numba import njit

from hon_env.core import effects, geometry, masks, stack
from hon_env.core.enemy_ties import step_options, target_kind, target_options
from hon_env.core.facing import def_bonus_col, source_villain, target_villain, two_villains, vil_col
from hon_env.core.queries import enemy_inflict, enemy_pos, hero_form, villain_panel
from hon_env.core.zones import gain_clue, hero_draw
from hon_env.spec import layout as L
from hon_env.spec import ops
from hon_env.spec import tables as TB

# --- content ops ------------------------------------------------------------------------

@njit(cache=True)
def seats_within(s, b, T, h, rng):
    """Bitmask of heroes on the board within ``rng`` spaces of hero ``h`` (0: only ``h``)."""
    mask = 0
    here = s[b, L.HLOC + h]
    if here < 0:
        return 0
    for o in range(T.cfg[TB.CFG_N_HEROES]):
        loc = s[b, L.HLOC + o]
        if loc >= 0 and (o == h or (rng > 0 and T.dist[here, loc] <= rng)):
            mask |= 1 << o
    return mask


@njit(cache=True)
def heroes_for(s, b, T, who, h, v):
    """Bitmask of the heroes a villain-side op with ``who`` affects (``v``: "the villain",
    for the heroes near it)."""
    vloc = s[b, vil_col(L.VIL_LOC, v)]
    if who == ops.WHO_ACTIVE:
        return (1 << h) if stack.on_board(s, b, h) else 0
    mask = 0
    for o in range(T.cfg[TB.CFG_N_HEROES]):
        loc = s[b, L.HLOC + o]
        if loc < 0:
            continue
        if who == ops.WHO_EACH or (vloc >= 0 and T.dist[loc, vloc] <= 1):
            mask |= 1 << o
    return mask


@njit(cache=True)
def any_pick_target(s, b, T, h, kind, rng):
    for t in range(L.N_TARGETS):
        if masks.pick_target_ok(s, b, T, h, t, kind, rng):
            return True
    return False


@njit(cache=True)
def any_space(s, b, T, h, kind, rng):
    """Is there a space within ``rng`` for a free Attack (kind 1), Solve (2) or rescue (3)?"""
    here = s[b, L.HLOC + h]
    if here < 0:
        return False
    if kind == 3:
        for sp in range(T.cfg[TB.CFG_N_SPACES]):
            if T.dist[here, sp] <= rng and masks.rescuable_at(s, b, T, sp):
                return True
        return False
    if kind != 1 and kind != 2:
        return False
    _, targets = masks.strike_targets(s, b, T, h, kind == 1, False)
    for k in range(T.cfg[TB.CFG_N_SPACES] if rng > 1 else 7):
        sp = k if rng > 1 else masks.near_space(T, here, k)
        if sp >= 0 and masks.in_reach(T, here, sp, rng, targets):
            return True
    return False


@njit(cache=True)
def any_ally_space(s, b, T, h, kind, rng):
    """Is there a space within ``rng`` of seat ``h``'s ally figure for its Attack (kind 1)
    or Solve (2)?"""
    if kind != 1 and kind != 2:
        return False
    here, targets = masks.strike_targets(s, b, T, h, kind == 1, True)
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        if masks.in_reach(T, here, sp, rng, targets):
            return True
    return False


@njit(cache=True)
def set_enemy_pos(s, b, t, sp):
    if L.is_villain_target(t):
        s[b, vil_col(L.VIL_LOC, target_villain(t))] = sp
    elif L.is_vcard_target(t):
        s[b, L.VPOS + L.vcard_of(t)] = sp
    elif t > L.T_VILLAIN:
        s[b, L.NEM_POS + t - L.T_NEM0] = sp
    elif t < L.T_I0:
        s[b, L.VPOS + t] = sp
    else:
        s[b, L.IPOS + t - L.T_I0] = sp


@njit(cache=True, inline="always")
def op_choice_effect(state, game, tables, op, a, bb, hero):
    """Hero effects that ask a question first (targets, spaces, heroes): the first run
    parks the question (or drops the effect when nothing qualifies), the second resolves
    the answer."""
    if not stack.on_board(state, game, hero):
        stack.pop(state, game)
        return
    ch = stack.take_choice(state, game)
    if ch < 0:
        ask_choice_effect(state, game, tables, op, a, bb, hero)
    else:
        stack.pop(state, game)
        resolve_choice_effect(state, game, tables, op, a, hero, ch)


@njit(cache=True)
def ask_choice_effect(state, game, tables, op, a, bb, hero):
    """Park the question of choice effect ``op``, or pop it when no answer qualifies."""
    if op == ops.OP_HEAL:
        seats = seats_within(state, game, tables, hero, bb)
        if seats == 0:
            stack.pop(state, game)
        else:
            stack.park(state, game, L.D_PICK_HERO, hero, seats, 0)
    elif op == ops.OP_DAMAGE_ENEMY or op == ops.OP_JUSTICE or op == ops.OP_EXHAUST_THREAT:
        kind = 0 if op == ops.OP_DAMAGE_ENEMY else (1 if op == ops.OP_JUSTICE else 2)
        rng = bb if op != ops.OP_EXHAUST_THREAT else 0
        if any_pick_target(state, game, tables, hero, kind, rng):
            stack.park(state, game, L.D_PICK_TARGET, hero, kind, rng)
        else:
            stack.pop(state, game)
    elif op == ops.OP_ATTACK or op == ops.OP_SOLVE:
        rng = max(1, bb)
        if any_space(state, game, tables, hero, 1 if op == ops.OP_ATTACK else 2, rng):
            kind = L.D_ATTACK_SPACE if op == ops.OP_ATTACK else L.D_SOLVE_SPACE
            stack.park(state, game, kind, hero, rng, 0)
        else:
            stack.pop(state, game)
    elif op == ops.OP_PLACE:
        stack.park(state, game, L.D_PLACE, hero, a, 0)
    elif op == ops.OP_RESCUE:
        if any_space(state, game, tables, hero, 3, a):
            stack.park(state, game, L.D_RESCUE, hero, a, 0)
        else:
            stack.pop(state, game)
    elif op == ops.OP_ALLY_MOVE:
        if state[game, L.ALLY_LOC + hero] >= 0:
            stack.park(state, game, L.D_PLACE, hero, a, 1)
        else:
            stack.pop(state, game)
    elif op == ops.OP_ALLY_ATTACK or op == ops.OP_ALLY_SOLVE:
        kind = 1 if op == ops.OP_ALLY_ATTACK else 2
        value = tables.ally[hero, TB.AL_ATTACK if kind == 1 else TB.AL_SOLVE]
        if value > 0 and any_ally_space(state, game, tables, hero, kind, a):
            stack.park(state, game, L.D_ATTACK_SPACE if kind == 1 else L.D_SOLVE_SPACE, hero, a, 1)
        else:
            stack.pop(state, game)


@njit(cache=True)
def resolve_choice_effect(state, game, tables, op, a, hero, ch):
    """Carry out choice effect ``op`` of ``hero`` with the chosen action ``ch``."""
    if op == ops.OP_HEAL:
        o = (hero + ch - L.A_HERO) % tables.cfg[TB.CFG_N_HEROES]
        state[game, L.HDMG + o] = max(0, state[game, L.HDMG + o] - a)
    elif op == ops.OP_DAMAGE_ENEMY:
        effects.damage_enemy_card(state, game, tables, L.action_target(ch), a, hero)
    elif op == ops.OP_JUSTICE:
        pid = effects.place_justice(state, game, tables, L.action_target(ch), a, hero)
        stack.push_prog(state, game, tables, pid, hero, -1)
    elif op == ops.OP_EXHAUST_THREAT:
        exhaust_target(state, game, L.action_target(ch))
    elif op == ops.OP_ATTACK:
        stack.push(state, game, stack.F_ROLL_BEGIN, 1, ch - L.A_ATTACK, a, hero, -1)
    elif op == ops.OP_SOLVE:
        stack.push(state, game, stack.F_ROLL_BEGIN, 2, ch - L.A_SOLVE, a, hero, -1)
    elif op == ops.OP_PLACE:
        effects.move_hero_to(state, game, tables, hero, ch - L.A_SPACE)
    elif op == ops.OP_RESCUE:
        sp = ch - L.A_SPACE
        if geometry.bystander_at(state, game, tables, sp):
            effects.rescue_on_map(state, game, tables, hero, sp)
        else:
            panel = geometry.panel_of_space(tables, sp)
            effects.rescue_captured(state, game, tables, hero, panel, 1)
    elif op == ops.OP_ALLY_MOVE:
        effects.move_ally_to(state, game, tables, hero, ch - L.A_SPACE)
    elif op == ops.OP_ALLY_ATTACK:
        stack.push(state, game, stack.F_ALLY_STRIKE, 1, ch - L.A_ATTACK, 0, hero, -1)
    elif op == ops.OP_ALLY_SOLVE:
        stack.push(state, game, stack.F_ALLY_STRIKE, 2, ch - L.A_SOLVE, 0, hero, -1)


@njit(cache=True)
def exhaust_target(state, game, t):
    """Exhaust threat card ``t`` (T_* numbering)."""
    if L.is_villain_target(t):
        state[game, vil_col(L.VIL_EXH, target_villain(t))] = 1
    elif L.is_vcard_target(t):
        state[game, L.VEXH + L.vcard_of(t)] = 1
    elif t > L.T_VILLAIN:
        state[game, L.NEM_EXH + t - L.T_NEM0] = 1
    elif t < L.T_I0:
        state[game, L.VEXH + t] = 1
    else:
        state[game, L.IEXH + t - L.T_I0] = 1


@njit(cache=True)
def move_hero_away(s, b, T, h, origin, steps):
    """Forced movement (rulebook: Forced Movement): each step must end farther from
    ``origin``; the farthest such step is taken (lowest index on ties), else the hero stops.
    """
    for _ in range(steps):
        here = s[b, L.HLOC + h]
        best = -1
        best_d = T.dist[here, origin]
        occ = geometry.occupied_spaces(s, b, T)
        for k in range(6):
            sp = T.adj[here, k]
            if sp >= 0 and masks.can_step(T, here, sp, occ) and T.dist[sp, origin] > best_d:
                best, best_d = sp, T.dist[sp, origin]
        if best < 0:
            return
        effects.move_hero_to(s, b, T, h, best)


@njit(cache=True)
def push_hero_damage(s, b, mask, n, op, nh, src):
    """Push one damage (or discard-or-damage) entry per seat in ``mask``, seat order, each
    with the effect's source ``src`` (whose villain sets the blindside bonus)."""
    for o in range(nh - 1, -1, -1):
        if (mask >> o) & 1:
            stack.push(s, b, op, o, n, 0, o, src)


@njit(cache=True, inline="always")
def op_content(state, game, tables, op, a, bb, c, hero, src):
    """Run one content op (spec/ops.py) for ``hero`` with source card ``src``.

    Effects that ask a question run in two steps (``op_choice_effect``); every other op is
    popped first and then carried out by its family's function (each returns False for an
    op that is not its own). ``prevent`` is only an ability answered in the damage window:
    run as an op it does nothing."""
    if is_choice_effect(op):
        op_choice_effect(state, game, tables, op, a, bb, hero)
        return
    stack.pop(state, game)
    v = source_villain(state, game, tables, src, hero)
    if op == ops.OP_IF:
        if stack.count_value(state, game, tables, a, hero, v) < bb:
            state[game, L.SP] -= c  # skip the next c entries of the program
    elif not hero_effect(state, game, tables, op, a, hero, src):
        if not token_effect(state, game, tables, op, a, bb, hero, v):
            if not harm_effect(state, game, tables, op, a, bb, hero, src, v):
                villain_effect(state, game, tables, op, a, bb, c, hero, src, v)


@njit(cache=True)
def is_choice_effect(op):
    """Does content op ``op`` ask its hero a question before it resolves?"""
    return (op == ops.OP_HEAL or op == ops.OP_DAMAGE_ENEMY or op == ops.OP_JUSTICE
            or op == ops.OP_EXHAUST_THREAT or op == ops.OP_ATTACK or op == ops.OP_SOLVE
            or op == ops.OP_PLACE or op == ops.OP_RESCUE or op == ops.OP_ALLY_MOVE
            or op == ops.OP_ALLY_ATTACK or op == ops.OP_ALLY_SOLVE)


@njit(cache=True, inline="always")
def hero_effect(state, game, tables, op, a, hero, src):
    """Ops on ``hero`` themselves: focus, cards, clues, movement, mech forms."""
    if op == ops.OP_GAIN_FOCUS:
        effects.gain_focus(state, game, tables, hero, a)
    elif op == ops.OP_DRAW:
        if stack.on_board(state, game, hero):
            for _ in range(a):
                hero_draw(state, game, hero)
    elif op == ops.OP_GAIN_CLUE:
        for _ in range(a):
            gain_clue(state, game, tables, hero)
    elif op == ops.OP_MOVE:
        stack.push(state, game, stack.F_MOVE, a, 0, 0, hero, -1)
    elif op == ops.OP_BOARD_MECH:
        if (stack.on_board(state, game, hero)
                and hero_form(state, game, tables, hero) == TB.FORM_PILOT):
            effects.turn_focused(state, game, tables, hero)
            if a > 0:
                # the mech lands within range and the pilot climbs in there: a "move to"
                stack.push(state, game, ops.OP_PLACE, a, 0, 0, hero, src)
    elif op == ops.OP_EJECT:
        if stack.on_board(state, game, hero):
            effects.leave_mech(state, game, tables, hero)
    else:
        return False
    return True


@njit(cache=True, inline="always")
def token_effect(state, game, tables, op, a, bb, hero, v):
    """Ops on the tokens of the board: minions, bystanders, captives, crises (``v``: "the
    villain")."""
    if op == ops.OP_PLACE_MINIONS:
        short = False
        if a > 0 and bb == ops.PANEL_ALL:
            for k in range(1, tables.cfg[TB.CFG_N_PANELS] + 1):
                short = effects.place_minions(state, game, tables, a, k) or short
        else:
            panel = villain_panel(state, game, tables, v) if bb == ops.PANEL_VILLAIN else bb
            short = effects.place_minions(state, game, tables, a, panel)
        if short:
            stack.effect_crisis(state, game)
    elif op == ops.OP_PLACE_BYSTANDERS:
        short = False
        for _ in range(a):
            if bb > 0:  # figure: own, compiled to the card's sby row + 1
                effects.place_own_figure(state, game, tables, bb - 1, hero, v)
            else:
                short = effects.place_bystander(state, game, tables, hero, v) or short
        if short:
            stack.effect_crisis(state, game)
    elif op == ops.OP_CAPTURE:
        effects.capture_nearest_villain(state, game, tables, a, hero, v)
    elif op == ops.OP_DEFEAT_BYSTANDERS:
        if effects.defeat_bystanders(state, game, tables, a, hero, v):
            stack.effect_crisis(state, game)
    elif op == ops.OP_CRISIS:
        stack.effect_crisis(state, game)
    else:
        return False
    return True


@njit(cache=True, inline="always")
def harm_effect(state, game, tables, op, a, bb, hero, src, v):
    """Ops that damage heroes (and ally figures): pushed as damage frames, one per seat
    (``v``: "the villain")."""
    nh = tables.cfg[TB.CFG_N_HEROES]
    if op == ops.OP_VILLAIN_INFLICT:
        if stack.on_board(state, game, hero):
            vt = L.villain_target(v)
            n = enemy_inflict(state, game, tables, vt)
            by = vt if two_villains(tables) else -1
            stack.push(state, game, stack.F_HERO_DAMAGE, hero, n, 0, hero, by)
    elif op == ops.OP_DAMAGE_HERO:
        seats = heroes_for(state, game, tables, bb, hero, v)
        push_hero_damage(state, game, seats, a, stack.F_HERO_DAMAGE, nh, src)
    elif op == ops.OP_DISCARD_OR_DAMAGE:
        seats = heroes_for(state, game, tables, bb, hero, v)
        push_hero_damage(state, game, seats, a, stack.F_DISCARD_OR_DAMAGE, nh, src)
    elif op == ops.OP_INFLICT:
        pos = enemy_pos(state, game, tables, src)
        if L.is_villain_target(src):
            pos = state[game, vil_col(L.VIL_LOC, target_villain(src))]
        if pos >= 0:
            seats = 0
            for o in range(nh):
                loc = state[game, L.HLOC + o]
                if loc >= 0 and tables.dist[pos, loc] <= 1:
                    seats |= 1 << o
                loc = state[game, L.ALLY_LOC + o]  # enemies treat ally figures as heroes
                if loc >= 0 and tables.dist[pos, loc] <= 1:
                    seats |= 1 << (L.ALLY_BIT + o)
            n = enemy_inflict(state, game, tables, src) + a
            if seats != 0 and n > 0:
                stack.push(state, game, stack.F_INFLICT, n, seats, 0, hero if hero >= 0 else 0, src)
    elif op == ops.OP_INFLICT_OWNER:
        n = enemy_inflict(state, game, tables, src) + a
        if stack.on_board(state, game, hero) and n > 0:
            stack.push(state, game, stack.F_HERO_DAMAGE, hero, n, 0, hero, src)
    else:
        return False
    return True


@njit(cache=True, inline="always")
def villain_effect(state, game, tables, op, a, bb, c, hero, src, v):
    """Ops of the villain side: scheming, advancing, healing, enemy movement, forced
    movement of heroes, counters and fortification (``v``: "the villain")."""
    vt = L.villain_target(v)
    if op == ops.OP_SCHEME:
        for _ in range(a):
            stack.push(state, game, stack.F_SCHEME_ONCE, v, 0, 0, hero, vt)
    elif op == ops.OP_ADVANCE:
        for _ in range(a):
            effects.advance_villain(state, game, tables, v)
    elif op == ops.OP_HEAL_VILLAIN:
        dmg = vil_col(L.VIL_DAMAGE, v)
        state[game, dmg] = max(0, state[game, dmg] - a)
    elif op == ops.OP_VILLAIN_MOVE or op == ops.OP_ENEMY_MOVE:
        t = vt if op == ops.OP_VILLAIN_MOVE else src
        pos = enemy_pos(state, game, tables, t)
        if pos >= 0 and tables.cfg[TB.CFG_VTIES] != 0:
            # the villain breaks ties
            stack.push(state, game, stack.F_ENEMY_MOVE, a, bb, pos, hero, t)
        elif pos >= 0:
            to = geometry.move_enemy(state, game, tables, pos, a, L.is_villain_target(t), bb, hero)
            set_enemy_pos(state, game, t, to)
    elif op == ops.OP_MOVE_AWAY:
        if c == ops.AWAY_FROM_VILLAIN:
            origin = state[game, vil_col(L.VIL_LOC, v)]
        else:
            origin = enemy_pos(state, game, tables, src)
        if origin >= 0:
            mask = heroes_for(state, game, tables, bb, hero, v)
            for o in range(tables.cfg[TB.CFG_N_HEROES]):
                if (mask >> o) & 1:
                    move_hero_away(state, game, tables, o, origin, a)
    elif op == ops.OP_COUNTER_ADD:
        effects.add_counter(state, game, tables, a, bb)
    elif op == ops.OP_FORTIFY:
        state[game, def_bonus_col(v) + bb] += a
    else:
        return False
    return True


@njit(cache=True)
def op_enemy_move(s, b, T, left, packed, cur, h, t):
    """Enemy ``t`` moves ``left`` more spaces from ``cur`` (``packed``: toward + 4 *
    (target + 1)), the villain agent breaking the ties (enemy_ties "villain"): the same
    move as ``geometry.move_enemy`` where nothing ties, else D_ENEMY_TARGET when several
    targets are nearest and D_ENEMY_STEP when several next spaces are on a shortest path.
    Parks with the entry rewritten (steps left, target, current space) and resumes there;
    the figure stays recorded at its start until the move ends. Captures as it walks (for
    hero ``h``); a villain passes figures, must end on an empty space and heads for its
    next target after capturing its bystander target. Reads the board; writes the enemy's
    position, captures, this stack entry and the decision fields."""
    toward = packed % 4
    target = packed // 4 - 1
    pos = enemy_pos(s, b, T, t)
    ch = stack.take_choice(s, b)
    if pos < 0:  # no figure on the map (cannot happen between a park and its answer)
        stack.pop(s, b)
        return
    through = t == L.T_VILLAIN
    options = np.empty(TB.MAX_SPACES, np.int64)
    n = 0
    if ch >= 0 and target < 0:
        target = ch - L.A_SPACE
    elif ch >= 0:
        n, options[0] = 1, ch - L.A_SPACE  # the chosen step, taken below
    dest = target
    while True:
        if target < 0:  # pick the target: the nearest, the villain choosing among ties
            if left <= 0:
                break
            k, moves = target_options(s, b, T, cur, toward, options)
            if k == 0 or not moves:
                break
            if k > 1:
                stack.park(s, b, L.D_ENEMY_TARGET, L.VILLAIN_SEAT, t, cur)
                stack.set_top(s, b, 1, left)
                stack.set_top(s, b, 2, toward)
                stack.set_top(s, b, 3, cur)
                return
            target = options[0]
        dest = target
        kind = target_kind(s, b, T, target, toward)
        goal, heading = geometry.goal_toward(s, b, T, cur, pos, target, kind, through)
        if heading < 0:  # already where it should be: it does not move
            break
        while left > 0:
            if through and goal[cur]:
                break
            if n == 0:
                n = step_options(s, b, T, pos, cur, goal, through, options)
                if n == 0:
                    break
                if n > 1:
                    stack.park(s, b, L.D_ENEMY_STEP, L.VILLAIN_SEAT, t, cur)
                    stack.set_top(s, b, 1, left)
                    stack.set_top(s, b, 2, toward + 4 * (target + 1))
                    stack.set_top(s, b, 3, cur)
                    return
            cur = options[0]
            n = 0
            left -= 1
            if geometry.bystander_at(s, b, T, cur):
                geometry.capture_at(s, b, T, cur, h)
        if through and left > 0 and goal[cur] and T.dist[cur, target] == 0:
            target = -1  # a villain goes on after capturing its bystander target
            continue
        break
    stack.pop(s, b)
    if through and cur != pos and not geometry.is_empty_except(s, b, T, cur, pos):
        cur = geometry.nearest_empty(s, b, T, cur, False, dest)
    set_enemy_pos(s, b, t, cur)
