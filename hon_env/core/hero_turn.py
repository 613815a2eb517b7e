"""A hero's turn on the interpreter's stack: the action menu (move, attack, solve, play a
card, use an ability), Attack and Solve dice rolls from the first die to what follows a
solve, and damage to heroes (armour, discarding instead, crises, inflict choices)."""

from __future__ import annotations

from numba import njit

from hon_env.core import effects, queries, stack
from hon_env.core.facing import blindside, target_villain, vil_col, villain_active
from hon_env.core.fame import credit
from hon_env.core.geometry import panel_of_space
from hon_env.core.masks import can_take_success, yield_target
from hon_env.core.mastermind import PARKED, hero_origin, inflict_decider
from hon_env.core.rng import randint
from hon_env.core.round_flow import next_villain_card
from hon_env.core.two_fronts import face_villain
from hon_env.core.zones import held_clue, hero_draw
from hon_env.spec import layout as L
from hon_env.spec import ops
from hon_env.spec import tables as TB

# --- the hero turn menu -----------------------------------------------------------------

@njit(cache=True)
def play_card(s, b, T, h, c):
    """Play hero card ``c`` from hand (rulebook: Play 1 Action Card, Unique Cards)."""
    base = L.HCLOC + h * TB.HERO_DECK
    if T.hcard[h, c, TB.HC_CONSTANT] == 1:
        if T.hcard[h, c, TB.HC_UNIQUE] == 1:
            for o in range(TB.HERO_DECK):
                if (s[b, base + o] == L.L_PLAY
                        and T.hcard[h, o, TB.HC_NAME_ID] == T.hcard[h, c, TB.HC_NAME_ID]):
                    s[b, base + o] = L.L_DISCARD
        s[b, base + c] = L.L_PLAY
        s[b, L.HCEXH + h * TB.HERO_DECK + c] = 0
    else:
        s[b, base + c] = L.L_PENDING
        stack.push(s, b, stack.F_PLAY_END, c, 0, 0, h, -1)
    stack.push_prog(s, b, T, T.hcard[h, c, TB.HC_PLAY_PROG], h, -1)


@njit(cache=True)
def use_ability(s, b, T, h, i):
    """Use the ability of card ``i`` in play (USE_HERO_CARD: the Hero card, USE_ALLY_CARD:
    the Ally card); exhausts the card unless it is an Action ability. Returns (kind, prog).
    """
    if i == L.USE_HERO_CARD:
        side = s[b, L.HSIDE + h]
        kind = T.hero_stat[h, side, TB.HS_ABILITY]
        pid = T.hero_stat[h, side, TB.HS_ABILITY_PROG]
        if kind != TB.ABIL_ACTION:
            s[b, L.HEXH + h] = 1
    elif i == L.USE_ALLY_CARD:
        kind = T.ally[h, TB.AL_ABILITY]
        pid = T.ally[h, TB.AL_ABILITY_PROG]
        if kind != TB.ABIL_ACTION:
            s[b, L.ALLY_EXH + h] = 1
    else:
        kind = T.hcard[h, i, TB.HC_ABILITY]
        pid = T.hcard[h, i, TB.HC_ABILITY_PROG]
        if kind != TB.ABIL_ACTION:
            s[b, L.HCEXH + h * TB.HERO_DECK + i] = 1
    return kind, pid


@njit(cache=True)
def op_main(s, b, T):
    """The actor's menu: actions, free plays, yielding, or ending into the threat phase."""
    h = s[b, L.ACTOR]
    ch = stack.take_choice(s, b)
    if ch < 0:
        if s[b, L.HLOC + h] < 0:
            # a defeated hero loses their remaining actions and goes to their threat phase
            s[b, L.HACTIONS + h] = 0
            ch = L.A_PASS
        else:
            stack.park(s, b, L.D_MAIN, h, 0, 0)
            return
    if ch == L.A_PASS:
        if s[b, L.HACTIONS + h] > 0:
            s[b, L.HYIELDS + h] += 1
            s[b, L.ACTOR] = yield_target(s, b, T, h)
            return
        stack.pop(s, b)
        stack.push(s, b, stack.F_AFTER_THREAT, 0, 0, 0, h, -1)
        if s[b, L.HTHREAT_DONE + h] == 0:  # not already taken on their defeat
            s[b, L.HTHREAT_DONE + h] = L.THREAT_RUNNING
            stack.push(s, b, stack.F_THREAT, h, 0, 0, h, -1)
        return
    if ch == L.A_DRAW:
        s[b, L.HACTIONS + h] -= 1
        hero_draw(s, b, h)
    elif ch < L.A_ATTACK:
        s[b, L.HACTIONS + h] -= 1
        effects.move_hero_to(s, b, T, h, ch - L.A_SPACE)
        steps = T.cfg[TB.CFG_MOVE] + queries.move_bonus(s, b, T, h) - 1
        stack.push(s, b, stack.F_MOVE, steps, 0, 0, h, -1)
    elif ch < L.A_SOLVE:
        s[b, L.HACTIONS + h] -= 1
        stack.push(s, b, stack.F_ROLL_BEGIN, 1, ch - L.A_ATTACK, 0, h, -1)
    elif ch < L.A_PLAY:
        s[b, L.HACTIONS + h] -= 1
        stack.push(s, b, stack.F_ROLL_BEGIN, 2, ch - L.A_SOLVE, 0, h, -1)
    elif ch < L.A_USE:
        c = ch - L.A_PLAY
        if T.hcard[h, c, TB.HC_ACTION] == 1:
            s[b, L.HACTIONS + h] -= 1
        play_card(s, b, T, h, c)
    elif ch < L.A_FEAT:
        kind, pid = use_ability(s, b, T, h, ch - L.A_USE)
        if kind == TB.ABIL_ACTION:
            s[b, L.HACTIONS + h] -= 1
        stack.push_prog(s, b, T, pid, h, -1)
    elif ch < L.A_CLUE:
        c = (ch - L.A_FEAT) // 3
        k = (ch - L.A_FEAT) % 3
        s[b, L.HCLOC + h * TB.HERO_DECK + c] = L.L_DISCARD
        if k == 0:
            stack.push(s, b, ops.OP_PLACE, 0, 0, 0, h, -1)
        elif k == 1:
            stack.push(s, b, ops.OP_ATTACK, 0, 1, 0, h, -1)
        else:
            stack.push(s, b, ops.OP_SOLVE, 0, 1, 0, h, -1)
    elif ch < L.A_FOCUS:
        i = held_clue(s, b, h, ch - L.A_CLUE)
        s[b, L.CLUE_LOC + i] = -2
        stack.push_prog(s, b, T, T.clue[i, TB.CL_PROG], h, -1)
    elif ch == L.A_FOCUS:
        s[b, L.HFOCUS + h] -= T.cfg[TB.CFG_FOCUS_TO_FLIP]
        effects.turn_focused(s, b, T, h)
    elif ch == L.A_TURN:
        # turning around costs one action; the hero's cards in play stay (003 §TURN SEQUENCE)
        s[b, L.HACTIONS + h] -= 1
        face_villain(s, b, T, h, 1 - s[b, L.HFACE + h])


@njit(cache=True)
def op_move(s, b, T, left, h):
    """One step of a Move; entering a bystander's space rescues it (rulebook: Move)."""
    if left <= 0 or not stack.on_board(s, b, h):
        stack.pop(s, b)
        return
    ch = stack.answer_or_park(s, b, L.D_MOVE, h, left, 0)
    if ch < 0:
        return
    if ch == L.A_PASS:
        stack.pop(s, b)
        return
    effects.move_hero_to(s, b, T, h, ch - L.A_SPACE)
    stack.set_top(s, b, 1, left - 1)


# --- dice rolls -------------------------------------------------------------------------

@njit(cache=True)
def start_roll(s, b, kind, sp, h, dice, succ, ally):
    """Reset the ROLL_* fields for an Attack (kind 1) or Solve (2) by hero ``h`` at ``sp``
    with ``dice`` to roll and ``succ`` successes already in hand (``ally`` 1: its ally's
    diceless strike), and push the last two steps: assign the successes, then apply them.
    """
    s[b, L.ROLL_KIND] = kind
    s[b, L.ROLL_HERO] = h
    s[b, L.ROLL_SPACE] = sp
    s[b, L.ROLL_ALLY] = ally
    s[b, L.ROLL_DICE] = dice
    s[b, L.ROLL_SUCC] = succ
    s[b, L.ROLL_FOCUS] = 0
    s[b, L.ROLL_SHOWDOWN] = -1
    for t in range(L.N_TARGETS):
        s[b, L.ASSIGN + t] = 0
    stack.push(s, b, stack.F_ROLL_END, 0, 0, 0, h, -1)
    stack.push(s, b, stack.F_ASSIGN, 0, 0, 0, h, -1)


@njit(cache=True)
def op_roll_begin(s, b, T, kind, sp, extra, h):
    """Steps 1-2 of Rolling and Resolving Hero Dice: target chosen, gather dice."""
    stack.pop(s, b)
    if not stack.on_board(s, b, h):
        return
    base = queries.attack_dice(s, b, T, h) if kind == 1 else queries.solve_dice(s, b, T, h)
    start_roll(s, b, kind, sp, h, max(0, base + extra), 0, 0)
    stack.push(s, b, stack.F_FOCUS, 0, 0, 0, h, -1)
    if kind == 1:
        stack.push(s, b, stack.F_SHOWDOWN, 0, 0, 0, h, -1)
    stack.push(s, b, stack.F_ROLL, 0, 0, 0, h, -1)
    stack.push(s, b, stack.F_CLUE_DICE, 0, 0, 0, h, -1)


@njit(cache=True)
def op_clue_dice(s, b, T, h):
    """Before rolling, discard clue cards for their bonus dice (rulebook: Clue Cards)."""
    ch = stack.answer_or_park(s, b, L.D_CLUE_DICE, h, 0, 0)
    if ch < 0:
        return
    if ch == L.A_PASS:
        stack.pop(s, b)
        return
    i = held_clue(s, b, h, ch - L.A_CLUE)
    s[b, L.CLUE_LOC + i] = -2
    col = TB.CL_ATTACK_DICE if s[b, L.ROLL_KIND] == 1 else TB.CL_SOLVE_DICE
    s[b, L.ROLL_DICE] += T.clue[i, col]


@njit(cache=True)
def next_face(s, b):
    """The next die face: a forced face if any is queued, else a uniform draw."""
    q = s[b, L.DICE_N]
    if q > 0:
        f = s[b, L.DICE_QUEUE]
        for k in range(q - 1):
            s[b, L.DICE_QUEUE + k] = s[b, L.DICE_QUEUE + k + 1]
        s[b, L.DICE_N] = q - 1
        return f
    return randint(s, b, 6)


@njit(cache=True)
def op_roll(s, b, T):
    """Steps 3-4: roll the pool; each burst is a success that adds one more die."""
    stack.pop(s, b)
    left = s[b, L.ROLL_DICE]
    succ = 0
    focus = 0
    while left > 0:
        left -= 1
        f = next_face(s, b)
        succ += T.dice[f, TB.DF_SUCCESS]
        focus += T.dice[f, TB.DF_FOCUS]
        left += T.dice[f, TB.DF_BURST]
    s[b, L.ROLL_SUCC] = succ
    s[b, L.ROLL_FOCUS] = focus


@njit(cache=True)
def showdown_villain(s, b, T, sp):
    """The revealed villain whose figure stands in map space ``sp`` (the first villain's
    before the second's), or -1."""
    for v in range(TB.VILLAINS):
        if (villain_active(s, b, T, v) and s[b, vil_col(L.VIL_SIDE, v)] == 1
                and s[b, vil_col(L.VIL_IN_PANEL, v)] == 0 and s[b, vil_col(L.VIL_LOC, v)] == sp):
            return v
    return -1


@njit(cache=True)
def op_showdown(s, b, T, h):
    """Step 5: attacking the revealed villain's space draws a card for its Showdown effect
    (with two villains, from the deck of the one attacked: the one in that space)."""
    v = showdown_villain(s, b, T, s[b, L.ROLL_SPACE])
    if v < 0:
        stack.pop(s, b)
        return
    c = next_villain_card(s, b, T, h, 1, v)
    if c == PARKED:
        return
    stack.pop(s, b)
    if c < 0:
        return
    s[b, L.ROLL_SHOWDOWN] = c
    s[b, L.ACTIVE] = h
    stack.push_prog(s, b, T, T.vcard[c, TB.VC_SHOWDOWN_PROG], h, L.vcard_target(c))


@njit(cache=True)
def op_focus(s, b, h):
    """Step 6: spend focus tokens to turn focus results into successes."""
    if s[b, L.HFOCUS + h] == 0 or s[b, L.ROLL_FOCUS] == 0:
        stack.pop(s, b)
        return
    ch = stack.answer_or_park(s, b, L.D_FOCUS_SPEND, h, 0, 0)
    if ch < 0:
        return
    stack.pop(s, b)
    k = ch - L.A_OPTION
    s[b, L.HFOCUS + h] -= k
    s[b, L.ROLL_FOCUS] -= k
    s[b, L.ROLL_SUCC] += k


@njit(cache=True)
def assign_candidates(s, b, T):
    """How many targets in the roll's space can take successes, and the last of them."""
    n = 0
    last = -1
    for t in range(L.N_TARGETS):
        if can_take_success(s, b, T, t):
            n += 1
            last = t
    return n, last


@njit(cache=True)
def op_assign(s, b, T, h):
    """Step 7: distribute successes among the targets in the space, one at a time."""
    if s[b, L.ROLL_SUCC] == 0:
        stack.pop(s, b)
        return
    ch = stack.take_choice(s, b)
    if ch < 0:
        n, last = assign_candidates(s, b, T)
        if n == 0:
            s[b, L.ROLL_SUCC] = 0
            stack.pop(s, b)
        elif n == 1:
            s[b, L.ASSIGN + last] += s[b, L.ROLL_SUCC]
            s[b, L.ROLL_SUCC] = 0
            stack.pop(s, b)
        else:
            stack.park(s, b, L.D_ASSIGN, h, s[b, L.ROLL_SUCC], 0)
        return
    s[b, L.ASSIGN + L.action_target(ch)] += 1
    s[b, L.ROLL_SUCC] -= 1


@njit(cache=True)
def op_roll_end(s, b, T, h):
    """Steps 7-8 applied: damage (less defense) or justice, then leftover focus.

    After a Solve the nearby enemies inflict (F_POST_SOLVE), pushed first so that the
    effects of a card solved by this roll resolve before it ("immediately solved before
    the players complete any other effect").
    """
    stack.pop(s, b)
    kind = s[b, L.ROLL_KIND]
    sp = s[b, L.ROLL_SPACE]
    ally = s[b, L.ROLL_ALLY] == 1
    attacker = -1 if ally else h  # an ally has no pierce of its hero's
    if kind == 2 and not ally:  # an ally's Solve ignores nearby enemies
        stack.push(s, b, stack.F_POST_SOLVE, 0, 0, 0, h, -1)
    for t in range(L.N_TARGETS):
        n = s[b, L.ASSIGN + t]
        if n == 0:
            continue
        s[b, L.ASSIGN + t] = 0
        if kind == 1:
            if t == L.T_MINION:
                # normal minions first, then each special Minion card's; every special
                # minion defeated resolves its card's effect for this hero
                panel = panel_of_space(T, sp)
                left = effects.kill_minions(s, b, T, panel, n, h)
                for j in range(TB.SPECIAL_MINIONS):
                    killed, left = effects.hurt_special_minions(s, b, T, panel, j, left, h)
                    for _ in range(killed):
                        stack.push_prog(s, b, T, T.smin[j, TB.SM_DEFEAT_PROG], h, L.T_MINION)
            else:
                dmg = n - queries.enemy_defense(s, b, T, t, attacker)
                effects.damage_enemy_card(s, b, T, t, dmg, h)
        elif t == L.T_CAPTURED:
            effects.rescue_captured(s, b, T, h, panel_of_space(T, sp), n)
        else:
            stack.push_prog(s, b, T, effects.place_justice(s, b, T, t, n, h), h, -1)
    effects.gain_focus(s, b, T, h, s[b, L.ROLL_FOCUS])
    c = s[b, L.ROLL_SHOWDOWN]
    if c >= 0 and s[b, L.VLOC + c] == L.L_PENDING:
        s[b, L.VLOC + c] = L.L_DISCARD
    s[b, L.ROLL_SHOWDOWN] = -1
    s[b, L.ROLL_KIND] = 0
    s[b, L.ROLL_ALLY] = 0


@njit(cache=True)
def op_ally_strike(s, b, T, kind, sp, h):
    """An ally Attacks (kind 1) or Solves (kind 2) space ``sp`` (rulebook: Ally Cards and
    Figures): no dice; its attack or solve value is distributed like successes among the
    targets there (steps 7-8 of a roll), credited to its hero ``h``. Writes the ROLL_*
    fields and pushes the assign and roll-end steps."""
    stack.pop(s, b)
    start_roll(s, b, kind, sp, h, 0, T.ally[h, TB.AL_ATTACK if kind == 1 else TB.AL_SOLVE], 1)


@njit(cache=True)
def op_post_solve(s, b, T, h):
    """After a Solve, each enemy near the solver inflicts them (rulebook: Solve).

    Each enemy (each minion too) is its own damage instance, so toughness and armour apply
    to each separately.
    """
    stack.pop(s, b)
    if not stack.on_board(s, b, h):
        return
    here = s[b, L.HLOC + h]
    for j in range(L.T_MINION + L.N_TARGETS - L.T_W0 - 1, -1, -1):
        # the rulebook's targets below the minions, then the second villain's
        t = j if j < L.T_MINION else L.T_W0 + j - L.T_MINION
        near = False
        if L.is_villain_target(t):
            v = target_villain(t)
            loc = s[b, vil_col(L.VIL_LOC, v)]
            near = villain_active(s, b, T, v) and loc >= 0 and T.dist[here, loc] <= 1
        elif queries.is_enemy_card(s, b, T, t):
            sp = queries.target_space(s, b, T, t)
            near = sp >= 0 and T.dist[here, sp] <= 1
        if near and queries.enemy_inflict(s, b, T, t) > 0:
            stack.push(s, b, stack.F_HERO_DAMAGE, h, queries.enemy_inflict(s, b, T, t), 0, h, t)
    for k in range(T.cfg[TB.CFG_N_PANELS], 0, -1):
        if T.dist[here, T.scheme_space[k]] > 1:
            continue
        if T.cfg[TB.CFG_MINION_INFLICT] > 0:
            for _ in range(effects.normal_minions(s, b, k)):
                dmg = T.cfg[TB.CFG_MINION_INFLICT]
                stack.push(s, b, stack.F_HERO_DAMAGE, h, dmg, 0, h, L.T_MINION)
        for j in range(TB.SPECIAL_MINIONS):  # special minions inflict their card's value
            if T.smin[j, TB.SM_INFLICT] > 0:
                for _ in range(s[b, L.SMIN + k * TB.SPECIAL_MINIONS + j]):
                    dmg = T.smin[j, TB.SM_INFLICT]
                    stack.push(s, b, stack.F_HERO_DAMAGE, h, dmg, 0, h, L.T_MINION)


# --- damage to heroes ---------------------------------------------------------------------

@njit(cache=True)
def op_hero_damage(s, b, T, h, n):
    """Hero ``h`` is dealt ``n`` damage, with a window for toughness feats and prevention.

    Armour applies once per damage instance, after the Two Fronts blindside bonus (damage
    from the villain ``h`` does not face, by the entry's source). Damage reaching health
    defeats the hero.
    """
    if not stack.on_board(s, b, h):
        stack.pop(s, b)
        return
    if stack.top(s, b, 3) == 0:
        n = n + blindside(s, b, T, h, stack.top(s, b, 5)) - queries.armor(s, b, T, h)
        stack.set_top(s, b, 3, 1)
        stack.set_top(s, b, 2, n)
    if n <= 0:
        stack.pop(s, b)
        return
    ch = stack.answer_or_park(s, b, L.D_DAMAGE, h, n, 0)
    if ch < 0:
        return
    if ch >= L.A_CARD:
        s[b, L.HCLOC + h * TB.HERO_DECK + ch - L.A_CARD] = L.L_DISCARD
        stack.set_top(s, b, 2, n - T.cfg[TB.CFG_TOUGHNESS])
        return
    if ch >= L.A_USE and ch < L.A_FEAT:
        kind, pid = use_ability(s, b, T, h, ch - L.A_USE)
        stack.set_top(s, b, 2, n - T.prog[pid, 0, 1])
        return
    if ch == L.A_FOCUS:
        # becoming Focused before the damage lands (engine.md #14); the window stays open
        s[b, L.HFOCUS + h] -= T.cfg[TB.CFG_FOCUS_TO_FLIP]
        effects.turn_focused(s, b, T, h)
        return
    stack.pop(s, b)
    s[b, L.HDMG + h] += n
    credit(s, b, T, L.EV_HERO_DAMAGE, h, n)
    if s[b, L.HDMG + h] >= queries.hero_health(s, b, T, h):
        if queries.hero_form(s, b, T, h) == TB.FORM_MECH:
            stack.wreck_mech(s, b, T, h)
        else:
            stack.defeat_hero(s, b, T, h)


@njit(cache=True)
def op_discard_or_damage(s, b, h, n):
    """Hero ``h`` discards a card or suffers ``n`` damage; the damage keeps the entry's
    source (its villain's blindside bonus, Two Fronts)."""
    if not stack.on_board(s, b, h):
        stack.pop(s, b)
        return
    ch = stack.answer_or_park(s, b, L.D_DISCARD_OR_DAMAGE, h, n, 0)
    if ch < 0:
        return
    src = stack.top(s, b, 5)
    stack.pop(s, b)
    if ch >= L.A_CARD:
        s[b, L.HCLOC + h * TB.HERO_DECK + ch - L.A_CARD] = L.L_DISCARD
    else:
        stack.push(s, b, stack.F_HERO_DAMAGE, h, n, 0, h, src)


@njit(cache=True)
def op_crisis(s, b, T):
    """A crisis: resolve each Crisis effect in play (rulebook: A Crisis Occurs).

    Reads the Issue Overview's and the crisis cards' Crisis programs; writes the stack,
    CRISIS_DEPTH and the crisis event counter. Effects resolve left to right across the
    issue play area: the Issue Overview first, then the crisis cards in the order they
    were added (each one joins to the right). Crises raised while crisis effects resolve
    are ignored, which keeps one effect from triggering more than one crisis and
    guarantees the chain ends. A crisis card the heroes solved has left play and is
    skipped.
    """
    stack.pop(s, b)
    if s[b, L.CRISIS_DEPTH] > 0:
        return
    s[b, L.EVENTS + L.EV_CRISES] += 1
    s[b, L.CRISIS_DEPTH] = 1
    stack.push(s, b, stack.F_CRISIS_END, 0, 0, 0, -1, -1)
    # pushed last to first, so they run first to last: the Issue Overview, the optional
    # crisis cards (there since setup), then deck cards with the Crisis trait as they came
    for k in range(s[b, L.CRISIS_AREA_N] - 1, -1, -1):
        t = s[b, L.CRISIS_AREA + k]
        if L.is_vcard_target(t):
            pid = T.vcard[L.vcard_of(t), TB.VC_CRISIS_PROG]
        else:
            pid = T.icard[t - L.T_I0, TB.IC_CRISIS_PROG]
        stack.push_ops(s, b, T, pid, s[b, L.ACTIVE], t)
    for k in range(TB.MAX_CRISES - 1, -1, -1):
        if T.crisis[k, TB.CR_PRESENT] == 1 and s[b, L.CRISIS_OUT + k] == 0:  # not solved
            stack.push_ops(s, b, T, T.crisis[k, TB.CR_CRISIS_PROG], s[b, L.ACTIVE], -1)
    stack.push_ops(s, b, T, T.cfg[TB.CFG_CRISIS_PROG], s[b, L.ACTIVE], -1)


@njit(cache=True)
def op_inflict_choice(s, b, T, n, seats, h):
    """Several heroes (or ally figures) are near an inflicting enemy: the deciding hero picks
    who suffers it. ``seats`` has bit h for hero h and bit ALLY_BIT + h for h's ally."""
    ch = stack.answer_or_park(s, b, L.D_PICK_HERO, inflict_decider(T, h), seats, 0)
    if ch < 0:
        return
    src = stack.top(s, b, 5)  # the inflicting enemy: its villain's blindside bonus (Two Fronts)
    stack.pop(s, b)
    if ch < L.A_HERO:  # an ally figure takes it (rulebook: Ally Cards and Figures)
        effects.damage_ally(s, b, T, ch - L.A_TARGET - L.T_ALLY0, n)
        return
    target = (hero_origin(inflict_decider(T, h)) + ch - L.A_HERO) % T.cfg[TB.CFG_N_HEROES]
    stack.push(s, b, stack.F_HERO_DAMAGE, target, n, 0, target, src)


@njit(cache=True)
def op_nemesis_setup(s, b, T):
    """5-6 players steps 1a-1b, after the rest of setup (rulebook: Playing with 5-6
    Players; also the Nemesis optional rule).

    One at a time, in slot order, each nemesis figure goes to the highest-numbered scheme
    panel with the fewest enemies (each placed figure counts for the next); then each
    nemesis's Setup effect resolves, its owner acting as the active hero. Writes NEM_POS
    and pushes the Setup programs.
    """
    stack.pop(s, b)
    for k in range(TB.NEMESES):
        if not queries.nem_in_play(s, b, k):
            continue
        best = 1
        best_n = 1 << 30
        for p in range(1, T.cfg[TB.CFG_N_PANELS] + 1):
            n = queries.enemies_in_panel(s, b, T, p)
            if n <= best_n:  # ties go to the higher-numbered panel
                best, best_n = p, n
        s[b, L.NEM_POS + k] = T.scheme_space[best]
    for k in range(TB.NEMESES - 1, -1, -1):
        if queries.nem_in_play(s, b, k):
            stack.push_prog(s, b, T, T.nemesis[s[b, L.NEM_CARD + k], TB.NM_SETUP_PROG],
                      s[b, L.NEM_OWNER + k], L.T_NEM0 + k)
