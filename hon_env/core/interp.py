"""The resumable interpreter: game flow and card effects as ops on a per-game stack.

Each game owns a stack of entries ``(op, a, b, c, hero, src)``. ``run`` executes the top
entry until a decision is needed; an op that needs an answer *parks* (writes DEC_* and
returns without popping) and runs again once ``apply_action`` stores the answer in
CHOICE. A decision with a single legal answer is answered automatically, so every
decision a hero sees has a real choice.

Op codes 1..37 are the content ops of ``spec/ops.py``; codes from 64 are flow ops::

    F_ROUND -> F_VDRAW(h).. -> F_RETURN -> F_HERO_TURN -> F_MAIN <-> actions
            -> F_THREAT(h) -> F_AFTER_THREAT -> ... -> F_HERO_TURN_END -> F_RETURN
            -> F_ISSUE_TURN -> F_RETURN -> F_ROUND
"""

from __future__ import annotations

import numpy as np
from numba import int32, int64, njit, void

from hon_env.core.effects import (
    add_counter,
    advance_villain,
    bystanders_on_map,
    capture_nearest_villain,
    damage_ally,
    damage_enemy_card,
    defeat_bystanders,
    end_game,
    gain_focus,
    hurt_special_minions,
    kill_minions,
    leave_mech,
    move_ally_to,
    move_hero_to,
    normal_minions,
    place_bystander,
    place_character,
    place_justice,
    place_minions,
    place_own_figure,
    rescue_captured,
    rescue_on_map,
    turn_focused,
)
from hon_env.core.enemy_ties import step_options, target_kind, target_options
from hon_env.core.episode import at_decision_cap, past_round_cap
from hon_env.core.facing import (
    blindside,
    card_villain,
    def_bonus_col,
    source_villain,
    target_villain,
    two_villains,
    vil_col,
    villain_active,
)
from hon_env.core.failure import fail
from hon_env.core.fame import credit
from hon_env.core.geometry import (
    bystander_at,
    captives,
    capture_at,
    goal_toward,
    is_empty,
    is_empty_except,
    move_enemy,
    nearest_empty,
    panel_of_space,
)
from hon_env.core.masks import (
    ally_can_attack_at,
    ally_can_solve_at,
    can_attack_at,
    can_solve_at,
    can_step,
    can_take_success,
    legal_mask,
    near_space,
    pick_target_ok,
    rescuable_at,
    yield_target,
)
from hon_env.core.mastermind import (
    NO_CARD,
    PARKED,
    cunning_decider,
    fill_hand,
    hero_origin,
    inflict_decider,
)
from hon_env.core.queries import (
    armor,
    attach_host,
    attack_dice,
    enemies_in_panel,
    enemy_defense,
    enemy_inflict,
    enemy_pos,
    hero_form,
    hero_health,
    is_enemy_card,
    move_bonus,
    nem_in_play,
    solve_dice,
    target_space,
    villain_panel,
)
from hon_env.core.rng import randint, shuffle_slice
from hon_env.core.two_fronts import face_villain, open_fronts
from hon_env.core.zones import (
    fewest_threats,
    gain_clue,
    held_clue,
    hero_draw,
    issue_draw,
    threat_count,
    villain_draw,
)
from hon_env.spec import layout as L
from hon_env.spec import ops
from hon_env.spec import tables as TB

# flow op codes
F_ROUND = 64
F_VDRAW = 65  # a: seat drawing a villain card
F_PLOY = 66  # a: villain card, b: icon index, hero: active hero
F_VCARD_END = 67  # a: villain card
F_HERO_TURN = 68
F_MAIN = 69
F_AFTER_THREAT = 70
F_THREAT = 71  # a: seat
F_ACTIVATE = 72  # a: target (T_*), hero: threat-area owner
F_HERO_TURN_END = 73
F_ISSUE_TURN = 74
F_ICARD_END = 75  # a: issue card, hero: holder
F_RETURN = 76  # defeated heroes come back
F_MULLIGAN = 77  # hero: seat
F_MOVE = 78  # a: steps left, hero: mover
F_ROLL_BEGIN = 79  # a: 1 attack / 2 solve, b: target space, c: extra dice, hero
F_CLUE_DICE = 80
F_ROLL = 81
F_SHOWDOWN = 82
F_FOCUS = 83
F_ASSIGN = 84
F_ROLL_END = 85
F_POST_SOLVE = 86  # hero: the solver
F_HERO_DAMAGE = 87  # a: seat, b: damage, c: 1 once armour was applied
F_DISCARD_OR_DAMAGE = 88  # a: seat, b: damage
F_CRISIS = 89
F_CRISIS_END = 90
F_PLAY_END = 91  # a: card, hero: player
F_SCHEME_ONCE = 92
F_INFLICT = 93  # a: damage, b: bitmask of seats that may suffer it, hero: decider
F_NEMESIS_SETUP = 94  # place the nemesis figures, then resolve their Setup effects
F_ALLY_STRIKE = 95  # a: 1 attack / 2 solve, b: target space, hero: the ally's hero
F_EFFECT_BEGIN = 96  # a: stack index of the effect's F_EFFECT_END
F_EFFECT_END = 97  # a: the crisis latch of the enclosing effect, restored here
# An enemy move whose ties the villain breaks (core/enemy_ties.py): a steps left,
# b toward + 4 * (target + 1), c its current space, src the moving enemy
F_ENEMY_MOVE = 98
F_FACE = 99  # hero: seat choosing the villain it faces (Two Fronts setup)


# --- stack primitives -----------------------------------------------------------------
# Explicit signatures: numba compiles a jitted callee once per distinct argument types, and
# a constant argument is its own type (``Literal[int](64)``), so ``push`` alone compiled in
# 64 versions (one per constant op and argument mix) on a first run. With the signature
# given, every call converts its arguments to it and each primitive compiles once.
_STATE = int32[:, ::1]

@njit(void(_STATE, int64, int64, int64, int64, int64, int64, int64), cache=True)
def push(s, b, op, a, bb, c, h, src):
    """Push one entry; overflowing the fixed stack is an engine bug: the game stops with
    ERR_STACK_OVERFLOW (core/failure.py) and the entry is dropped."""
    sp = s[b, L.SP]
    if sp >= L.STACK_DEPTH:
        fail(s, b, L.ERR_STACK_OVERFLOW)
        return
    base = L.STACK + sp * L.STACK_W
    s[b, base] = op
    s[b, base + 1] = a
    s[b, base + 2] = bb
    s[b, base + 3] = c
    s[b, base + 4] = h
    s[b, base + 5] = src
    s[b, L.SP] = sp + 1


@njit(void(_STATE, int64), cache=True)
def pop(s, b):
    s[b, L.SP] -= 1


@njit(int32(_STATE, int64, int64), cache=True)
def top(s, b, k):
    """Field ``k`` (0 op, 1 a, 2 b, 3 c, 4 hero, 5 src) of the top entry."""
    return s[b, L.STACK + (s[b, L.SP] - 1) * L.STACK_W + k]


@njit(void(_STATE, int64, int64, int64), cache=True)
def set_top(s, b, k, v):
    s[b, L.STACK + (s[b, L.SP] - 1) * L.STACK_W + k] = v


@njit(cache=True)
def push_ops(s, b, T, pid, h, src):
    """Push the ops of program ``pid`` so that they run first to last (no effect scope:
    they belong to the effect already resolving)."""
    if pid < 0:
        return
    n = 0
    while n < TB.PROG_LEN and T.prog[pid, n, 0] != 0:
        n += 1
    for i in range(n - 1, -1, -1):
        push(s, b, T.prog[pid, i, 0], T.prog[pid, i, 1], T.prog[pid, i, 2], T.prog[pid, i, 3],
             h, src)


@njit(cache=True)
def push_prog(s, b, T, pid, h, src):
    """Push program ``pid`` as one effect: its ops between F_EFFECT_BEGIN and F_EFFECT_END,
    so that the effect triggers at most one crisis (see ``effect_crisis``)."""
    if pid < 0:
        return
    end = s[b, L.SP]
    push(s, b, F_EFFECT_END, 0, 0, 0, h, src)
    push_ops(s, b, T, pid, h, src)
    push(s, b, F_EFFECT_BEGIN, end, 0, 0, h, src)


@njit(cache=True)
def op_effect_begin(s, b, end):
    """An effect starts: its F_EFFECT_END (stack entry ``end``) keeps the enclosing
    effect's crisis latch, and this effect has triggered no crisis yet."""
    pop(s, b)
    s[b, L.STACK + end * L.STACK_W + 1] = s[b, L.CRISIS_LATCH]
    s[b, L.CRISIS_LATCH] = L.LATCH_OPEN


@njit(void(_STATE, int64, int64, int64, int64, int64), cache=True)
def park(s, b, kind, h, a, bb):
    s[b, L.DEC_KIND] = kind
    s[b, L.DEC_HERO] = h
    s[b, L.DEC_A] = a
    s[b, L.DEC_B] = bb


@njit(cache=True)
def take_choice(s, b):
    """The stored answer (and clear it), or -1 when the op runs for the first time."""
    ch = s[b, L.CHOICE]
    if ch >= 0:
        s[b, L.CHOICE] = -1
        s[b, L.DEC_KIND] = L.D_NONE
    return ch


@njit(cache=True)
def on_board(s, b, h):
    return h >= 0 and s[b, L.HLOC + h] >= 0


# --- rule helpers that push ops ------------------------------------------------------

@njit(cache=True)
def crisis(s, b):
    push(s, b, F_CRISIS, 0, 0, 0, s[b, L.ACTIVE], -1)


@njit(cache=True)
def effect_crisis(s, b):
    """A crisis occurs, unless the card or effect resolving now already triggered one
    (rulebook: A Crisis Occurs). Outside any effect (CRISIS_LATCH 0) every cause counts."""
    latch = s[b, L.CRISIS_LATCH]
    if latch == L.LATCH_SPENT:
        return
    if latch == L.LATCH_OPEN:
        s[b, L.CRISIS_LATCH] = L.LATCH_SPENT
    crisis(s, b)


@njit(cache=True)
def defeat_hero(s, b, T, h):
    """Hero ``h`` is defeated (rulebook: Dealing and Suffering Damage, hero defeat)."""
    s[b, L.HDMG + h] = 0
    s[b, L.HPILOT_DMG + h] = 0
    s[b, L.HSIDE + h] = 0
    s[b, L.HFOCUS + h] = 0
    s[b, L.HLOC + h] = -1
    s[b, L.HDEFEATED + h] = 1
    credit(s, b, T, L.EV_HERO_DEFEATS, h, 1)
    if s[b, L.TURN] == L.TURN_HERO:
        s[b, L.HACTIONS + h] = 0
        if s[b, L.HTHREAT_DONE + h] == 0:
            # their threat phase follows the effect that defeated them (engine.md #19)
            if s[b, L.CRISIS_LATCH] == 0:
                s[b, L.HTHREAT_DONE + h] = L.THREAT_RUNNING
                push(s, b, F_THREAT, h, 0, 0, h, -1)
            else:
                s[b, L.HTHREAT_DONE + h] = L.THREAT_OWED
    effect_crisis(s, b)


@njit(cache=True)
def push_owed_threat_phases(s, b, T):
    """Push the threat phase of each hero defeated during the effect that just ended
    (lowest seat first)."""
    for h in range(T.cfg[TB.CFG_N_HEROES] - 1, -1, -1):
        if s[b, L.HTHREAT_DONE + h] == L.THREAT_OWED:
            s[b, L.HTHREAT_DONE + h] = L.THREAT_RUNNING
            push(s, b, F_THREAT, h, 0, 0, h, -1)


@njit(cache=True)
def wreck_mech(s, b, T, h):
    """Hero ``h``'s mech side reached its health: the mech is wrecked, not the hero.

    Our reading of Micro-guy's Pilot Token: the mech is a figure of its own, so losing it
    is not a hero defeat (no crisis, the hero keeps their focus and actions). The card
    flips back to the pilot side and the pilot token stays in the space; damage beyond the
    mech's health is lost with it.
    """
    leave_mech(s, b, T, h)
    credit(s, b, T, L.EV_MECH_WRECKS, h, 1)


@njit(cache=True)
def count_value(s, b, T, kind, h, v):
    """The quantity an ``if`` op tests (spec/ops.py COUNT_*); ``v`` is "the villain"
    (``facing.source_villain``)."""
    if kind == ops.COUNT_MINIONS_VILLAIN_PANEL:
        return s[b, L.MINIONS + villain_panel(s, b, T, v)]
    if kind == ops.COUNT_MINIONS_TOTAL or kind == ops.COUNT_CAPTURED_TOTAL:
        n = 0
        for k in range(1, T.cfg[TB.CFG_N_PANELS] + 1):
            n += s[b, L.MINIONS + k] if kind == ops.COUNT_MINIONS_TOTAL else captives(s, b, T, k)
        return n
    if kind == ops.COUNT_BYSTANDERS_MAP:
        return bystanders_on_map(s, b, T)
    if kind == ops.COUNT_MINION_SUPPLY:
        return s[b, L.MINION_SUPPLY]
    if kind == ops.COUNT_BYSTANDER_SUPPLY:
        return s[b, L.BYSTANDER_SUPPLY]
    if kind == ops.COUNT_VILLAIN_HIDDEN:
        return s[b, vil_col(L.VIL_HIDDEN, v)]
    if kind == ops.COUNT_ACTIVE_THREATS:
        return threat_count(s, b, h) if h >= 0 else 0
    if kind == ops.COUNT_ACTIVE_DAMAGE:
        return s[b, L.HDMG + h] if h >= 0 else 0
    if kind == ops.COUNT_VILLAIN_PANEL:
        return villain_panel(s, b, T, v)
    if kind == ops.COUNT_ROUND:
        return s[b, L.ROUND]
    if kind == ops.COUNT_ACTIVE_PILOTING or kind == ops.COUNT_ACTIVE_IN_MECH:
        want = TB.FORM_PILOT if kind == ops.COUNT_ACTIVE_PILOTING else TB.FORM_MECH
        return 1 if on_board(s, b, h) and hero_form(s, b, T, h) == want else 0
    if kind >= ops.COUNT_COUNTER_BASE:
        return s[b, L.COUNTERS + kind - ops.COUNT_COUNTER_BASE]
    return 0



# --- the round ------------------------------------------------------------------------

@njit(cache=True)
def op_round(s, b, T):
    """Start a round: villain turn, hero turn, issue turn (rulebook: The Game Round)."""
    pop(s, b)
    s[b, L.ROUND] += 1
    for v in range(TB.VILLAINS):
        s[b, def_bonus_col(v)] = 0
        s[b, def_bonus_col(v) + 1] = 0
    if past_round_cap(s, b, T):
        end_game(s, b, T, L.OUT_TRUNCATED, L.LOSS_CAP_ROUNDS)
        return
    push(s, b, F_ROUND, 0, 0, 0, -1, -1)
    push(s, b, F_RETURN, 0, 0, 0, -1, -1)
    push(s, b, F_ISSUE_TURN, 0, 0, 0, -1, -1)
    push(s, b, F_RETURN, 0, 0, 0, -1, -1)
    push(s, b, F_HERO_TURN, 0, 0, 0, -1, -1)
    push(s, b, F_RETURN, 0, 0, 0, -1, -1)
    # heroes draw villain cards in seat order (the rulebook lets the players pick the order)
    for h in range(T.cfg[TB.CFG_N_HEROES] - 1, -1, -1):
        push(s, b, F_VDRAW, h, 0, 0, h, -1)
    s[b, L.TURN] = L.TURN_VILLAIN


@njit(cache=True)
def place_figure_card(s, b, T, c, h):
    """A drawn Lackey or Peril card enters ``h``'s threat area with its figure or token."""
    typ = T.vcard[c, TB.VC_TYPE]
    s[b, L.VLOC + c] = L.L_THREAT
    s[b, L.VOWNER + c] = h
    s[b, L.VDMG + c] = 0
    s[b, L.VJUST + c] = 0
    s[b, L.VEXH + c] = 0
    s[b, L.VPOS + c] = -1
    color = T.vcard[c, TB.VC_COLOR]
    if typ == TB.VT_LACKEY:
        sp = T.lackey_space[color] if color >= 0 else -1
        if sp < 0:
            sp = T.cfg[TB.CFG_START_SPACE]
        if not is_empty(s, b, T, sp):
            sp = nearest_empty(s, b, T, sp, False, -1)
    else:
        sp = T.peril_space[color] if color >= 0 else -1
        if sp < 0:
            sp = T.cfg[TB.CFG_START_SPACE]
        sp = nearest_empty(s, b, T, sp, True, -1)
    s[b, L.VPOS + c] = sp


@njit(cache=True)
def next_villain_card(s, b, T, h, showdown, v):
    """The villain card that resolves against hero ``h`` now: the top of villain ``v``'s
    deck (rulebook), or with the villain agent (core/mastermind.py) the card it picks from its
    hand. Returns the card, moved to L_PENDING; NO_CARD when none is left anywhere; PARKED
    when the villain must choose first (D_VPLAY parked, the caller returns unpopped)."""
    if T.cfg[TB.CFG_VHAND] == 0 or (showdown == 1 and T.cfg[TB.CFG_VSHOWDOWN] == 0):
        return villain_draw(s, b, v)
    ch = take_choice(s, b)
    if ch >= 0:
        c = L.vcard_of(L.action_target(ch))
        s[b, L.VLOC + c] = L.L_PENDING
        return c
    if fill_hand(s, b, T) == 0:
        return NO_CARD
    park(s, b, L.D_VPLAY, L.VILLAIN_SEAT, h, showdown)
    return PARKED


@njit(cache=True)
def op_vdraw(s, b, T, h):
    """Hero ``h`` draws and resolves one villain card (rulebook: Villain Turn): with two
    villains, from the deck of the villain ``h`` faces (engine.md #47)."""
    s[b, L.ACTIVE] = h
    c = next_villain_card(s, b, T, h, 0, s[b, L.HFACE + h])
    if c == PARKED:
        return
    pop(s, b)
    if c < 0:
        return
    # the whole card is one effect: its ploy icons (special ones too) share one latch
    t = L.vcard_target(c)
    push(s, b, F_EFFECT_END, s[b, L.CRISIS_LATCH], 0, 0, h, t)
    s[b, L.CRISIS_LATCH] = L.LATCH_OPEN
    typ = T.vcard[c, TB.VC_TYPE]
    if typ == TB.VT_LACKEY or typ == TB.VT_PERIL:
        place_figure_card(s, b, T, c, h)
    push(s, b, F_VCARD_END, c, 0, 0, h, t)
    for k in range(T.vcard[c, TB.VC_NPLOYS] - 1, -1, -1):
        push(s, b, F_PLOY, c, k, 0, h, t)


@njit(cache=True)
def op_ploy(s, b, T, c, k, h):
    """Resolve ploy icon ``k`` of villain card ``c`` (rulebook: Ploy Icons)."""
    icon = T.vcard[c, TB.VC_PLOY0 + k]
    v = card_villain(c)
    if icon == TB.PLOY_CUNNING:
        ch = take_choice(s, b)
        if ch < 0:
            who = cunning_decider(T, h)
            park(s, b, L.D_CUNNING, who, h if who != h else 0, 0)
            return
        pop(s, b)
        vt = L.villain_target(v)
        if ch == L.A_OPTION:
            push(s, b, F_SCHEME_ONCE, v, 0, 0, h, vt)
        elif on_board(s, b, h):
            push(s, b, F_HERO_DAMAGE, h, enemy_inflict(s, b, T, vt), 0, h, vt)
        return
    pop(s, b)
    if icon == TB.PLOY_BYSTANDER:
        if place_bystander(s, b, T, h, v):
            effect_crisis(s, b)
    elif icon == TB.PLOY_SPECIAL:
        push_ops(s, b, T, T.vcard[c, TB.VC_SPECIAL_PROG], h, L.vcard_target(c))
    elif icon >= 1:
        if place_minions(s, b, T, 1, icon):
            effect_crisis(s, b)


@njit(cache=True)
def op_vcard_end(s, b, T, c):
    """A resolved Ploy card is discarded, stays attached to its host (Attaching Cards), or,
    with the Crisis trait, joins the issue play area (Crisis Cards)."""
    pop(s, b)
    if s[b, L.VLOC + c] != L.L_PENDING:
        return
    if T.vcard[c, TB.VC_CRISIS_PROG] >= 0:
        enter_issue_area(s, b, L.vcard_target(c))
        s[b, L.VLOC + c] = L.L_ISSUE_AREA
        return
    host = attach_host(s, b, T, T.vcard[c, TB.VC_ATTACH])
    if host >= 0:
        s[b, L.VLOC + c] = L.L_ATTACHED
        s[b, L.VATTACH + c] = host
    else:
        s[b, L.VLOC + c] = L.L_DISCARD


@njit(cache=True)
def enter_issue_area(s, b, t):
    """Card target ``t`` (a villain or issue card with the Crisis trait) joins the issue
    play area at its right end; it stays there for the rest of the game."""
    n = s[b, L.CRISIS_AREA_N]
    if n >= TB.DECK_CRISES:  # the loader caps the Crisis cards of the decks at DECK_CRISES
        fail(s, b, L.ERR_ISSUE_AREA_FULL)
        return
    s[b, L.CRISIS_AREA + n] = t
    s[b, L.CRISIS_AREA_N] = n + 1


@njit(cache=True)
def op_scheme_once(s, b, T, v):
    """Villain ``v`` schemes: its panel's Scheme effect (rulebook: Villain Schemes), with
    that villain as the effect's source (its "the villain")."""
    pop(s, b)
    if not villain_active(s, b, T, v):
        return
    push_prog(s, b, T, T.panel_prog[villain_panel(s, b, T, v)], s[b, L.ACTIVE],
              L.villain_target(v))


@njit(cache=True)
def op_hero_turn(s, b, T):
    """Ready play areas, hand out two action tokens each, give the first seat the initiative."""
    pop(s, b)
    s[b, L.TURN] = L.TURN_HERO
    for h in range(T.cfg[TB.CFG_N_HEROES]):
        s[b, L.HEXH + h] = 0
        s[b, L.ALLY_EXH + h] = 0
        for c in range(TB.HERO_DECK):
            if s[b, L.HCLOC + h * TB.HERO_DECK + c] == L.L_PLAY:
                s[b, L.HCEXH + h * TB.HERO_DECK + c] = 0
        s[b, L.HACTIONS + h] = 2
        s[b, L.HYIELDS + h] = 0
        s[b, L.HTHREAT_DONE + h] = 0
    s[b, L.ACTOR] = 0
    push(s, b, F_MAIN, 0, 0, 0, 0, -1)


@njit(cache=True)
def op_after_threat(s, b, T):
    """Pass the initiative on, or end the hero turn when every hero is done."""
    pop(s, b)
    nxt = yield_target(s, b, T, s[b, L.ACTOR])
    if nxt >= 0:
        s[b, L.ACTOR] = nxt
        push(s, b, F_MAIN, 0, 0, 0, nxt, -1)
    else:
        push(s, b, F_HERO_TURN_END, 0, 0, 0, -1, -1)


@njit(cache=True)
def op_threat(s, b, T, h):
    """Hero ``h``'s threat phase: activate each card now in their threat area.

    Cards are taken in a fixed order (villain cards, issue cards, nemeses, then the Villain
    card); the rulebook leaves the order to the players. Cards that arrive during the phase
    are not in the list and do not activate (rulebook: Threat Phase).
    """
    pop(s, b)
    for v in range(TB.VILLAINS - 1, -1, -1):
        if s[b, vil_col(L.VIL_OWNER, v)] == h and villain_active(s, b, T, v):
            push(s, b, F_ACTIVATE, L.villain_target(v), 0, 0, h, L.villain_target(v))
    for k in range(TB.NEMESES - 1, -1, -1):
        if nem_in_play(s, b, k) and s[b, L.NEM_OWNER + k] == h:
            push(s, b, F_ACTIVATE, L.T_NEM0 + k, 0, 0, h, L.T_NEM0 + k)
    for i in range(L.IDECK - 1, -1, -1):
        if s[b, L.ILOC + i] == L.L_THREAT and s[b, L.IOWNER + i] == h:
            push(s, b, F_ACTIVATE, L.T_I0 + i, 0, 0, h, L.T_I0 + i)
    for i in range(TB.VCARDS - 1, -1, -1):
        if s[b, L.VLOC + i] == L.L_THREAT and s[b, L.VOWNER + i] == h:
            push(s, b, F_ACTIVATE, L.vcard_target(i), 0, 0, h, L.vcard_target(i))


@njit(cache=True)
def op_activate(s, b, T, t, h):
    """Activate one threat-area card; an exhausted card readies instead (Activating Enemies)."""
    pop(s, b)
    if L.is_villain_target(t):
        v = target_villain(t)
        if s[b, vil_col(L.VIL_OWNER, v)] != h or not villain_active(s, b, T, v):
            return
        if s[b, vil_col(L.VIL_EXH, v)] == 1:
            s[b, vil_col(L.VIL_EXH, v)] = 0
            return
        push_prog(s, b, T, T.vil_stat[v, TB.VS_ACTIVATE_PROG], h, t)
    elif L.is_vcard_target(t):
        c = L.vcard_of(t)
        if s[b, L.VLOC + c] != L.L_THREAT or s[b, L.VOWNER + c] != h:
            return
        if s[b, L.VEXH + c] == 1:
            s[b, L.VEXH + c] = 0
            return
        push_prog(s, b, T, T.vcard[c, TB.VC_ACTIVATE_PROG], h, t)
    elif t > L.T_VILLAIN:
        # a nemesis: its Scheme-side Activate effect while scheming, else its enemy one
        k = t - L.T_NEM0
        if not nem_in_play(s, b, k) or s[b, L.NEM_OWNER + k] != h:
            return
        if s[b, L.NEM_EXH + k] == 1:
            s[b, L.NEM_EXH + k] = 0
            return
        col = TB.NM_ACTIVATE_PROG if s[b, L.NEM_SIDE + k] == 1 else TB.NM_SCHEME_PROG
        push_prog(s, b, T, T.nemesis[s[b, L.NEM_CARD + k], col], h, t)
    else:
        i = t - L.T_I0
        if s[b, L.ILOC + i] != L.L_THREAT or s[b, L.IOWNER + i] != h:
            return
        if s[b, L.IEXH + i] == 1:
            s[b, L.IEXH + i] = 0
            return
        if T.icard[i, TB.IC_TYPE] == TB.IT_SCHEME:
            if s[b, L.ISIDE + i] == 1:
                push_prog(s, b, T, T.icard[i, TB.IC_BACK_ACTIVATE_PROG], h, t)
        else:
            push_prog(s, b, T, T.icard[i, TB.IC_ACTIVATE_PROG], h, t)


@njit(cache=True)
def op_hero_turn_end(s, b, T):
    """Each hero draws 1 card; the action tokens flip back (rulebook: Hero Turn)."""
    pop(s, b)
    for h in range(T.cfg[TB.CFG_N_HEROES]):
        hero_draw(s, b, h)
        s[b, L.HACTIONS + h] = 0


@njit(cache=True)
def op_issue_turn(s, b, T):
    """Draw and resolve one issue card; an empty issue deck loses (rulebook: Issue Turn).

    The issue card's "active hero" (and the threat area for a card that stays) is the hero
    with the fewest threat-area cards, lowest seat first.
    """
    pop(s, b)
    s[b, L.TURN] = L.TURN_ISSUE
    c = issue_draw(s, b)
    if c < 0:
        end_game(s, b, T, L.OUT_LOSS, L.LOSS_ISSUE_DECK)
        return
    h = fewest_threats(s, b, T)
    s[b, L.ACTIVE] = h
    push(s, b, F_ICARD_END, c, 0, 0, h, L.T_I0 + c)
    push_prog(s, b, T, T.icard[c, TB.IC_EFFECT_PROG], h, L.T_I0 + c)


@njit(cache=True)
def op_icard_end(s, b, T, c, h):
    pop(s, b)
    if s[b, L.ILOC + c] != L.L_PENDING:
        return
    if T.icard[c, TB.IC_CRISIS_PROG] >= 0:
        enter_issue_area(s, b, L.T_I0 + c)
        s[b, L.ILOC + c] = L.L_ISSUE_AREA
    elif T.icard[c, TB.IC_BYSTANDER] == 1:
        place_character(s, b, T, c, source_villain(s, b, T, L.T_I0 + c, h))
    elif T.icard[c, TB.IC_STAYS] == 1:
        s[b, L.ILOC + c] = L.L_THREAT
        s[b, L.IOWNER + c] = h
        s[b, L.IJUST + c] = 0
        s[b, L.IEXH + c] = 0
        s[b, L.IPOS + c] = T.icard[c, TB.IC_LOCATION]
    else:
        s[b, L.ILOC + c] = L.L_DISCARD


@njit(cache=True)
def op_return(s, b, T):
    """Heroes defeated during the turn now return to an empty space near the start."""
    pop(s, b)
    for h in range(T.cfg[TB.CFG_N_HEROES]):
        if s[b, L.HDEFEATED + h] == 1:
            s[b, L.HDEFEATED + h] = 0
            sp = nearest_empty(s, b, T, T.cfg[TB.CFG_START_SPACE], False, -1)
            move_hero_to(s, b, T, h, sp)


@njit(cache=True)
def op_mulligan(s, b, T, h):
    """Opening mulligan: mark cards one at a time, then redraw and shuffle them back."""
    ch = take_choice(s, b)
    if ch < 0:
        park(s, b, L.D_MULLIGAN, h, 0, 0)
        return
    base = L.HCLOC + h * TB.HERO_DECK
    if ch >= L.A_CARD:
        s[b, base + ch - L.A_CARD] = L.L_MULLIGAN
        return
    pop(s, b)
    marked = 0
    for c in range(TB.HERO_DECK):
        if s[b, base + c] == L.L_MULLIGAN:
            marked += 1
    for _ in range(marked):
        hero_draw(s, b, h)
    n = s[b, L.HDECK_N + h]
    for c in range(TB.HERO_DECK):
        if s[b, base + c] == L.L_MULLIGAN:
            s[b, base + c] = L.L_DECK
            s[b, L.HDECK_ORDER + h * TB.HERO_DECK + n] = c
            n += 1
    s[b, L.HDECK_N + h] = n
    shuffle_slice(s, b, L.HDECK_ORDER + h * TB.HERO_DECK, n)


@njit(cache=True)
def op_face(s, b, T, h):
    """Two Fronts setup: hero ``h`` chooses the villain it faces (D_FACE, OPTION v); after
    the last hero the fronts open (core/two_fronts.py: hidden tokens, per-hero values)."""
    ch = take_choice(s, b)
    if ch < 0:
        park(s, b, L.D_FACE, h, 0, 0)
        return
    pop(s, b)
    s[b, L.HFACE + h] = ch - L.A_OPTION
    if h == T.cfg[TB.CFG_N_HEROES] - 1:
        open_fronts(s, b, T)


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
        push(s, b, F_PLAY_END, c, 0, 0, h, -1)
    push_prog(s, b, T, T.hcard[h, c, TB.HC_PLAY_PROG], h, -1)


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
    ch = take_choice(s, b)
    if ch < 0:
        if s[b, L.HLOC + h] < 0:
            # a defeated hero loses their remaining actions and goes to their threat phase
            s[b, L.HACTIONS + h] = 0
            ch = L.A_PASS
        else:
            park(s, b, L.D_MAIN, h, 0, 0)
            return
    if ch == L.A_PASS:
        if s[b, L.HACTIONS + h] > 0:
            s[b, L.HYIELDS + h] += 1
            s[b, L.ACTOR] = yield_target(s, b, T, h)
            return
        pop(s, b)
        push(s, b, F_AFTER_THREAT, 0, 0, 0, h, -1)
        if s[b, L.HTHREAT_DONE + h] == 0:  # not already taken on their defeat
            s[b, L.HTHREAT_DONE + h] = L.THREAT_RUNNING
            push(s, b, F_THREAT, h, 0, 0, h, -1)
        return
    if ch == L.A_DRAW:
        s[b, L.HACTIONS + h] -= 1
        hero_draw(s, b, h)
    elif ch < L.A_ATTACK:
        s[b, L.HACTIONS + h] -= 1
        move_hero_to(s, b, T, h, ch - L.A_SPACE)
        steps = T.cfg[TB.CFG_MOVE] + move_bonus(s, b, T, h) - 1
        push(s, b, F_MOVE, steps, 0, 0, h, -1)
    elif ch < L.A_SOLVE:
        s[b, L.HACTIONS + h] -= 1
        push(s, b, F_ROLL_BEGIN, 1, ch - L.A_ATTACK, 0, h, -1)
    elif ch < L.A_PLAY:
        s[b, L.HACTIONS + h] -= 1
        push(s, b, F_ROLL_BEGIN, 2, ch - L.A_SOLVE, 0, h, -1)
    elif ch < L.A_USE:
        c = ch - L.A_PLAY
        if T.hcard[h, c, TB.HC_ACTION] == 1:
            s[b, L.HACTIONS + h] -= 1
        play_card(s, b, T, h, c)
    elif ch < L.A_FEAT:
        kind, pid = use_ability(s, b, T, h, ch - L.A_USE)
        if kind == TB.ABIL_ACTION:
            s[b, L.HACTIONS + h] -= 1
        push_prog(s, b, T, pid, h, -1)
    elif ch < L.A_CLUE:
        c = (ch - L.A_FEAT) // 3
        k = (ch - L.A_FEAT) % 3
        s[b, L.HCLOC + h * TB.HERO_DECK + c] = L.L_DISCARD
        if k == 0:
            push(s, b, ops.OP_PLACE, 0, 0, 0, h, -1)
        elif k == 1:
            push(s, b, ops.OP_ATTACK, 0, 1, 0, h, -1)
        else:
            push(s, b, ops.OP_SOLVE, 0, 1, 0, h, -1)
    elif ch < L.A_FOCUS:
        i = held_clue(s, b, h, ch - L.A_CLUE)
        s[b, L.CLUE_LOC + i] = -2
        push_prog(s, b, T, T.clue[i, TB.CL_PROG], h, -1)
    elif ch == L.A_FOCUS:
        s[b, L.HFOCUS + h] -= T.cfg[TB.CFG_FOCUS_TO_FLIP]
        turn_focused(s, b, T, h)
    elif ch == L.A_TURN:
        # turning around costs one action; the hero's cards in play stay (003 §TURN SEQUENCE)
        s[b, L.HACTIONS + h] -= 1
        face_villain(s, b, T, h, 1 - s[b, L.HFACE + h])


@njit(cache=True)
def op_move(s, b, T, left, h):
    """One step of a Move; entering a bystander's space rescues it (rulebook: Move)."""
    if left <= 0 or not on_board(s, b, h):
        pop(s, b)
        return
    ch = take_choice(s, b)
    if ch < 0:
        park(s, b, L.D_MOVE, h, left, 0)
        return
    if ch == L.A_PASS:
        pop(s, b)
        return
    move_hero_to(s, b, T, h, ch - L.A_SPACE)
    set_top(s, b, 1, left - 1)


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
    push(s, b, F_ROLL_END, 0, 0, 0, h, -1)
    push(s, b, F_ASSIGN, 0, 0, 0, h, -1)


@njit(cache=True)
def op_roll_begin(s, b, T, kind, sp, extra, h):
    """Steps 1-2 of Rolling and Resolving Hero Dice: target chosen, gather dice."""
    pop(s, b)
    if not on_board(s, b, h):
        return
    base = attack_dice(s, b, T, h) if kind == 1 else solve_dice(s, b, T, h)
    start_roll(s, b, kind, sp, h, max(0, base + extra), 0, 0)
    push(s, b, F_FOCUS, 0, 0, 0, h, -1)
    if kind == 1:
        push(s, b, F_SHOWDOWN, 0, 0, 0, h, -1)
    push(s, b, F_ROLL, 0, 0, 0, h, -1)
    push(s, b, F_CLUE_DICE, 0, 0, 0, h, -1)


@njit(cache=True)
def op_clue_dice(s, b, T, h):
    """Before rolling, discard clue cards for their bonus dice (rulebook: Clue Cards)."""
    ch = take_choice(s, b)
    if ch < 0:
        park(s, b, L.D_CLUE_DICE, h, 0, 0)
        return
    if ch == L.A_PASS:
        pop(s, b)
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
    pop(s, b)
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
        pop(s, b)
        return
    c = next_villain_card(s, b, T, h, 1, v)
    if c == PARKED:
        return
    pop(s, b)
    if c < 0:
        return
    s[b, L.ROLL_SHOWDOWN] = c
    s[b, L.ACTIVE] = h
    push_prog(s, b, T, T.vcard[c, TB.VC_SHOWDOWN_PROG], h, L.vcard_target(c))


@njit(cache=True)
def op_focus(s, b, h):
    """Step 6: spend focus tokens to turn focus results into successes."""
    if s[b, L.HFOCUS + h] == 0 or s[b, L.ROLL_FOCUS] == 0:
        pop(s, b)
        return
    ch = take_choice(s, b)
    if ch < 0:
        park(s, b, L.D_FOCUS_SPEND, h, 0, 0)
        return
    pop(s, b)
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
        pop(s, b)
        return
    ch = take_choice(s, b)
    if ch < 0:
        n, last = assign_candidates(s, b, T)
        if n == 0:
            s[b, L.ROLL_SUCC] = 0
            pop(s, b)
        elif n == 1:
            s[b, L.ASSIGN + last] += s[b, L.ROLL_SUCC]
            s[b, L.ROLL_SUCC] = 0
            pop(s, b)
        else:
            park(s, b, L.D_ASSIGN, h, s[b, L.ROLL_SUCC], 0)
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
    pop(s, b)
    kind = s[b, L.ROLL_KIND]
    sp = s[b, L.ROLL_SPACE]
    ally = s[b, L.ROLL_ALLY] == 1
    attacker = -1 if ally else h  # an ally has no pierce of its hero's
    if kind == 2 and not ally:  # an ally's Solve ignores nearby enemies
        push(s, b, F_POST_SOLVE, 0, 0, 0, h, -1)
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
                left = kill_minions(s, b, T, panel, n, h)
                for j in range(TB.SPECIAL_MINIONS):
                    killed, left = hurt_special_minions(s, b, T, panel, j, left, h)
                    for _ in range(killed):
                        push_prog(s, b, T, T.smin[j, TB.SM_DEFEAT_PROG], h, L.T_MINION)
            else:
                damage_enemy_card(s, b, T, t, n - enemy_defense(s, b, T, t, attacker), h)
        elif t == L.T_CAPTURED:
            rescue_captured(s, b, T, h, panel_of_space(T, sp), n)
        else:
            push_prog(s, b, T, place_justice(s, b, T, t, n, h), h, -1)
    gain_focus(s, b, T, h, s[b, L.ROLL_FOCUS])
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
    pop(s, b)
    start_roll(s, b, kind, sp, h, 0, T.ally[h, TB.AL_ATTACK if kind == 1 else TB.AL_SOLVE], 1)


@njit(cache=True)
def op_post_solve(s, b, T, h):
    """After a Solve, each enemy near the solver inflicts them (rulebook: Solve).

    Each enemy (each minion too) is its own damage instance, so toughness and armour apply
    to each separately.
    """
    pop(s, b)
    if not on_board(s, b, h):
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
        elif is_enemy_card(s, b, T, t):
            sp = target_space(s, b, T, t)
            near = sp >= 0 and T.dist[here, sp] <= 1
        if near and enemy_inflict(s, b, T, t) > 0:
            push(s, b, F_HERO_DAMAGE, h, enemy_inflict(s, b, T, t), 0, h, t)
    for k in range(T.cfg[TB.CFG_N_PANELS], 0, -1):
        if T.dist[here, T.scheme_space[k]] > 1:
            continue
        if T.cfg[TB.CFG_MINION_INFLICT] > 0:
            for _ in range(normal_minions(s, b, k)):
                push(s, b, F_HERO_DAMAGE, h, T.cfg[TB.CFG_MINION_INFLICT], 0, h, L.T_MINION)
        for j in range(TB.SPECIAL_MINIONS):  # special minions inflict their card's value
            if T.smin[j, TB.SM_INFLICT] > 0:
                for _ in range(s[b, L.SMIN + k * TB.SPECIAL_MINIONS + j]):
                    push(s, b, F_HERO_DAMAGE, h, T.smin[j, TB.SM_INFLICT], 0, h, L.T_MINION)


# --- damage to heroes ---------------------------------------------------------------------

@njit(cache=True)
def op_hero_damage(s, b, T, h, n):
    """Hero ``h`` is dealt ``n`` damage, with a window for toughness feats and prevention.

    Armour applies once per damage instance, after the Two Fronts blindside bonus (damage
    from the villain ``h`` does not face, by the entry's source). Damage reaching health
    defeats the hero.
    """
    if not on_board(s, b, h):
        pop(s, b)
        return
    if top(s, b, 3) == 0:
        n = n + blindside(s, b, T, h, top(s, b, 5)) - armor(s, b, T, h)
        set_top(s, b, 3, 1)
        set_top(s, b, 2, n)
    if n <= 0:
        pop(s, b)
        return
    ch = take_choice(s, b)
    if ch < 0:
        park(s, b, L.D_DAMAGE, h, n, 0)
        return
    if ch >= L.A_CARD:
        s[b, L.HCLOC + h * TB.HERO_DECK + ch - L.A_CARD] = L.L_DISCARD
        set_top(s, b, 2, n - T.cfg[TB.CFG_TOUGHNESS])
        return
    if ch >= L.A_USE and ch < L.A_FEAT:
        kind, pid = use_ability(s, b, T, h, ch - L.A_USE)
        set_top(s, b, 2, n - T.prog[pid, 0, 1])
        return
    if ch == L.A_FOCUS:
        # becoming Focused before the damage lands (engine.md #14); the window stays open
        s[b, L.HFOCUS + h] -= T.cfg[TB.CFG_FOCUS_TO_FLIP]
        turn_focused(s, b, T, h)
        return
    pop(s, b)
    s[b, L.HDMG + h] += n
    credit(s, b, T, L.EV_HERO_DAMAGE, h, n)
    if s[b, L.HDMG + h] >= hero_health(s, b, T, h):
        if hero_form(s, b, T, h) == TB.FORM_MECH:
            wreck_mech(s, b, T, h)
        else:
            defeat_hero(s, b, T, h)


@njit(cache=True)
def op_discard_or_damage(s, b, h, n):
    """Hero ``h`` discards a card or suffers ``n`` damage; the damage keeps the entry's
    source (its villain's blindside bonus, Two Fronts)."""
    if not on_board(s, b, h):
        pop(s, b)
        return
    ch = take_choice(s, b)
    if ch < 0:
        park(s, b, L.D_DISCARD_OR_DAMAGE, h, n, 0)
        return
    src = top(s, b, 5)
    pop(s, b)
    if ch >= L.A_CARD:
        s[b, L.HCLOC + h * TB.HERO_DECK + ch - L.A_CARD] = L.L_DISCARD
    else:
        push(s, b, F_HERO_DAMAGE, h, n, 0, h, src)


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
    pop(s, b)
    if s[b, L.CRISIS_DEPTH] > 0:
        return
    s[b, L.EVENTS + L.EV_CRISES] += 1
    s[b, L.CRISIS_DEPTH] = 1
    push(s, b, F_CRISIS_END, 0, 0, 0, -1, -1)
    # pushed last to first, so they run first to last: the Issue Overview, the optional
    # crisis cards (there since setup), then deck cards with the Crisis trait as they came
    for k in range(s[b, L.CRISIS_AREA_N] - 1, -1, -1):
        t = s[b, L.CRISIS_AREA + k]
        if L.is_vcard_target(t):
            pid = T.vcard[L.vcard_of(t), TB.VC_CRISIS_PROG]
        else:
            pid = T.icard[t - L.T_I0, TB.IC_CRISIS_PROG]
        push_ops(s, b, T, pid, s[b, L.ACTIVE], t)
    for k in range(TB.MAX_CRISES - 1, -1, -1):
        if T.crisis[k, TB.CR_PRESENT] == 1 and s[b, L.CRISIS_OUT + k] == 0:  # not solved
            push_ops(s, b, T, T.crisis[k, TB.CR_CRISIS_PROG], s[b, L.ACTIVE], -1)
    push_ops(s, b, T, T.cfg[TB.CFG_CRISIS_PROG], s[b, L.ACTIVE], -1)


@njit(cache=True)
def op_inflict_choice(s, b, T, n, seats, h):
    """Several heroes (or ally figures) are near an inflicting enemy: the deciding hero picks
    who suffers it. ``seats`` has bit h for hero h and bit ALLY_BIT + h for h's ally."""
    ch = take_choice(s, b)
    if ch < 0:
        park(s, b, L.D_PICK_HERO, inflict_decider(T, h), seats, 0)
        return
    src = top(s, b, 5)  # the inflicting enemy: its villain's blindside bonus (Two Fronts)
    pop(s, b)
    if ch < L.A_HERO:  # an ally figure takes it (rulebook: Ally Cards and Figures)
        damage_ally(s, b, T, ch - L.A_TARGET - L.T_ALLY0, n)
        return
    target = (hero_origin(inflict_decider(T, h)) + ch - L.A_HERO) % T.cfg[TB.CFG_N_HEROES]
    push(s, b, F_HERO_DAMAGE, target, n, 0, target, src)


@njit(cache=True)
def op_nemesis_setup(s, b, T):
    """5-6 players steps 1a-1b, after the rest of setup (rulebook: Playing with 5-6
    Players; also the Nemesis optional rule).

    One at a time, in slot order, each nemesis figure goes to the highest-numbered scheme
    panel with the fewest enemies (each placed figure counts for the next); then each
    nemesis's Setup effect resolves, its owner acting as the active hero. Writes NEM_POS
    and pushes the Setup programs.
    """
    pop(s, b)
    for k in range(TB.NEMESES):
        if not nem_in_play(s, b, k):
            continue
        best = 1
        best_n = 1 << 30
        for p in range(1, T.cfg[TB.CFG_N_PANELS] + 1):
            n = enemies_in_panel(s, b, T, p)
            if n <= best_n:  # ties go to the higher-numbered panel
                best, best_n = p, n
        s[b, L.NEM_POS + k] = T.scheme_space[best]
    for k in range(TB.NEMESES - 1, -1, -1):
        if nem_in_play(s, b, k):
            push_prog(s, b, T, T.nemesis[s[b, L.NEM_CARD + k], TB.NM_SETUP_PROG],
                      s[b, L.NEM_OWNER + k], L.T_NEM0 + k)


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
        return (1 << h) if on_board(s, b, h) else 0
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
        if pick_target_ok(s, b, T, h, t, kind, rng):
            return True
    return False


@njit(cache=True)
def any_space(s, b, T, h, kind, rng):
    """Is there a space within ``rng`` for a free Attack (kind 1), Solve (2) or rescue (3)?"""
    here = s[b, L.HLOC + h]
    if here < 0:
        return False
    for k in range(T.cfg[TB.CFG_N_SPACES] if rng > 1 or kind == 3 else 7):
        sp = k if rng > 1 or kind == 3 else near_space(T, here, k)
        if sp < 0:
            continue
        if kind == 1 and can_attack_at(s, b, T, h, sp, rng):
            return True
        if kind == 2 and can_solve_at(s, b, T, h, sp, rng):
            return True
        if kind == 3 and T.dist[here, sp] <= rng and rescuable_at(s, b, T, sp):
            return True
    return False


@njit(cache=True)
def any_ally_space(s, b, T, h, kind, rng):
    """Is there a space within ``rng`` of seat ``h``'s ally figure for its Attack (kind 1)
    or Solve (2)?"""
    for sp in range(T.cfg[TB.CFG_N_SPACES]):
        if kind == 1 and ally_can_attack_at(s, b, T, h, sp, rng):
            return True
        if kind == 2 and ally_can_solve_at(s, b, T, h, sp, rng):
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


@njit(cache=True)
def op_choice_effect(state, game, tables, op, a, bb, hero):
    """Hero effects that ask a question first (targets, spaces, heroes): the first run
    parks the question (or drops the effect when nothing qualifies), the second resolves
    the answer."""
    if not on_board(state, game, hero):
        pop(state, game)
        return
    ch = take_choice(state, game)
    if ch < 0:
        ask_choice_effect(state, game, tables, op, a, bb, hero)
    else:
        pop(state, game)
        resolve_choice_effect(state, game, tables, op, a, hero, ch)


@njit(cache=True)
def ask_choice_effect(state, game, tables, op, a, bb, hero):
    """Park the question of choice effect ``op``, or pop it when no answer qualifies."""
    if op == ops.OP_HEAL:
        seats = seats_within(state, game, tables, hero, bb)
        if seats == 0:
            pop(state, game)
        else:
            park(state, game, L.D_PICK_HERO, hero, seats, 0)
    elif op == ops.OP_DAMAGE_ENEMY or op == ops.OP_JUSTICE or op == ops.OP_EXHAUST_THREAT:
        kind = 0 if op == ops.OP_DAMAGE_ENEMY else (1 if op == ops.OP_JUSTICE else 2)
        rng = bb if op != ops.OP_EXHAUST_THREAT else 0
        if any_pick_target(state, game, tables, hero, kind, rng):
            park(state, game, L.D_PICK_TARGET, hero, kind, rng)
        else:
            pop(state, game)
    elif op == ops.OP_ATTACK or op == ops.OP_SOLVE:
        rng = max(1, bb)
        if any_space(state, game, tables, hero, 1 if op == ops.OP_ATTACK else 2, rng):
            kind = L.D_ATTACK_SPACE if op == ops.OP_ATTACK else L.D_SOLVE_SPACE
            park(state, game, kind, hero, rng, 0)
        else:
            pop(state, game)
    elif op == ops.OP_PLACE:
        park(state, game, L.D_PLACE, hero, a, 0)
    elif op == ops.OP_RESCUE:
        if any_space(state, game, tables, hero, 3, a):
            park(state, game, L.D_RESCUE, hero, a, 0)
        else:
            pop(state, game)
    elif op == ops.OP_ALLY_MOVE:
        if state[game, L.ALLY_LOC + hero] >= 0:
            park(state, game, L.D_PLACE, hero, a, 1)
        else:
            pop(state, game)
    elif op == ops.OP_ALLY_ATTACK or op == ops.OP_ALLY_SOLVE:
        kind = 1 if op == ops.OP_ALLY_ATTACK else 2
        value = tables.ally[hero, TB.AL_ATTACK if kind == 1 else TB.AL_SOLVE]
        if value > 0 and any_ally_space(state, game, tables, hero, kind, a):
            park(state, game, L.D_ATTACK_SPACE if kind == 1 else L.D_SOLVE_SPACE, hero, a, 1)
        else:
            pop(state, game)


@njit(cache=True)
def resolve_choice_effect(state, game, tables, op, a, hero, ch):
    """Carry out choice effect ``op`` of ``hero`` with the chosen action ``ch``."""
    if op == ops.OP_HEAL:
        o = (hero + ch - L.A_HERO) % tables.cfg[TB.CFG_N_HEROES]
        state[game, L.HDMG + o] = max(0, state[game, L.HDMG + o] - a)
    elif op == ops.OP_DAMAGE_ENEMY:
        damage_enemy_card(state, game, tables, L.action_target(ch), a, hero)
    elif op == ops.OP_JUSTICE:
        pid = place_justice(state, game, tables, L.action_target(ch), a, hero)
        push_prog(state, game, tables, pid, hero, -1)
    elif op == ops.OP_EXHAUST_THREAT:
        exhaust_target(state, game, L.action_target(ch))
    elif op == ops.OP_ATTACK:
        push(state, game, F_ROLL_BEGIN, 1, ch - L.A_ATTACK, a, hero, -1)
    elif op == ops.OP_SOLVE:
        push(state, game, F_ROLL_BEGIN, 2, ch - L.A_SOLVE, a, hero, -1)
    elif op == ops.OP_PLACE:
        move_hero_to(state, game, tables, hero, ch - L.A_SPACE)
    elif op == ops.OP_RESCUE:
        sp = ch - L.A_SPACE
        if bystander_at(state, game, tables, sp):
            rescue_on_map(state, game, tables, hero, sp)
        else:
            rescue_captured(state, game, tables, hero, panel_of_space(tables, sp), 1)
    elif op == ops.OP_ALLY_MOVE:
        move_ally_to(state, game, tables, hero, ch - L.A_SPACE)
    elif op == ops.OP_ALLY_ATTACK:
        push(state, game, F_ALLY_STRIKE, 1, ch - L.A_ATTACK, 0, hero, -1)
    elif op == ops.OP_ALLY_SOLVE:
        push(state, game, F_ALLY_STRIKE, 2, ch - L.A_SOLVE, 0, hero, -1)


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
        for k in range(6):
            sp = T.adj[here, k]
            if sp >= 0 and can_step(s, b, T, h, sp) and T.dist[sp, origin] > best_d:
                best, best_d = sp, T.dist[sp, origin]
        if best < 0:
            return
        move_hero_to(s, b, T, h, best)


@njit(cache=True)
def push_hero_damage(s, b, mask, n, op, nh, src):
    """Push one damage (or discard-or-damage) entry per seat in ``mask``, seat order, each
    with the effect's source ``src`` (whose villain sets the blindside bonus)."""
    for o in range(nh - 1, -1, -1):
        if (mask >> o) & 1:
            push(s, b, op, o, n, 0, o, src)


@njit(cache=True)
def op_content(state, game, tables, op, a, bb, c, hero, src):
    """Run one content op (spec/ops.py) for ``hero`` with source card ``src``.

    Effects that ask a question run in two steps (``op_choice_effect``); every other op is
    popped first and then carried out by its family's function (each returns False for an
    op that is not its own). ``prevent`` is only an ability answered in the damage window:
    run as an op it does nothing."""
    if is_choice_effect(op):
        op_choice_effect(state, game, tables, op, a, bb, hero)
        return
    pop(state, game)
    v = source_villain(state, game, tables, src, hero)
    if op == ops.OP_IF:
        if count_value(state, game, tables, a, hero, v) < bb:
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


@njit(cache=True)
def hero_effect(state, game, tables, op, a, hero, src):
    """Ops on ``hero`` themselves: focus, cards, clues, movement, mech forms."""
    if op == ops.OP_GAIN_FOCUS:
        gain_focus(state, game, tables, hero, a)
    elif op == ops.OP_DRAW:
        if on_board(state, game, hero):
            for _ in range(a):
                hero_draw(state, game, hero)
    elif op == ops.OP_GAIN_CLUE:
        for _ in range(a):
            gain_clue(state, game, tables, hero)
    elif op == ops.OP_MOVE:
        push(state, game, F_MOVE, a, 0, 0, hero, -1)
    elif op == ops.OP_BOARD_MECH:
        if on_board(state, game, hero) and hero_form(state, game, tables, hero) == TB.FORM_PILOT:
            turn_focused(state, game, tables, hero)
            if a > 0:
                # the mech lands within range and the pilot climbs in there: a "move to"
                push(state, game, ops.OP_PLACE, a, 0, 0, hero, src)
    elif op == ops.OP_EJECT:
        if on_board(state, game, hero):
            leave_mech(state, game, tables, hero)
    else:
        return False
    return True


@njit(cache=True)
def token_effect(state, game, tables, op, a, bb, hero, v):
    """Ops on the tokens of the board: minions, bystanders, captives, crises (``v``: "the
    villain")."""
    if op == ops.OP_PLACE_MINIONS:
        short = False
        if a > 0 and bb == ops.PANEL_ALL:
            for k in range(1, tables.cfg[TB.CFG_N_PANELS] + 1):
                short = place_minions(state, game, tables, a, k) or short
        else:
            panel = villain_panel(state, game, tables, v) if bb == ops.PANEL_VILLAIN else bb
            short = place_minions(state, game, tables, a, panel)
        if short:
            effect_crisis(state, game)
    elif op == ops.OP_PLACE_BYSTANDERS:
        short = False
        for _ in range(a):
            if bb > 0:  # figure: own, compiled to the card's sby row + 1
                place_own_figure(state, game, tables, bb - 1, hero, v)
            else:
                short = place_bystander(state, game, tables, hero, v) or short
        if short:
            effect_crisis(state, game)
    elif op == ops.OP_CAPTURE:
        capture_nearest_villain(state, game, tables, a, hero, v)
    elif op == ops.OP_DEFEAT_BYSTANDERS:
        if defeat_bystanders(state, game, tables, a, hero, v):
            effect_crisis(state, game)
    elif op == ops.OP_CRISIS:
        effect_crisis(state, game)
    else:
        return False
    return True


@njit(cache=True)
def harm_effect(state, game, tables, op, a, bb, hero, src, v):
    """Ops that damage heroes (and ally figures): pushed as damage frames, one per seat
    (``v``: "the villain")."""
    nh = tables.cfg[TB.CFG_N_HEROES]
    if op == ops.OP_VILLAIN_INFLICT:
        if on_board(state, game, hero):
            vt = L.villain_target(v)
            n = enemy_inflict(state, game, tables, vt)
            push(state, game, F_HERO_DAMAGE, hero, n, 0, hero, vt if two_villains(tables) else -1)
    elif op == ops.OP_DAMAGE_HERO:
        seats = heroes_for(state, game, tables, bb, hero, v)
        push_hero_damage(state, game, seats, a, F_HERO_DAMAGE, nh, src)
    elif op == ops.OP_DISCARD_OR_DAMAGE:
        seats = heroes_for(state, game, tables, bb, hero, v)
        push_hero_damage(state, game, seats, a, F_DISCARD_OR_DAMAGE, nh, src)
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
                push(state, game, F_INFLICT, n, seats, 0, hero if hero >= 0 else 0, src)
    elif op == ops.OP_INFLICT_OWNER:
        n = enemy_inflict(state, game, tables, src) + a
        if on_board(state, game, hero) and n > 0:
            push(state, game, F_HERO_DAMAGE, hero, n, 0, hero, src)
    else:
        return False
    return True


@njit(cache=True)
def villain_effect(state, game, tables, op, a, bb, c, hero, src, v):
    """Ops of the villain side: scheming, advancing, healing, enemy movement, forced
    movement of heroes, counters and fortification (``v``: "the villain")."""
    vt = L.villain_target(v)
    if op == ops.OP_SCHEME:
        for _ in range(a):
            push(state, game, F_SCHEME_ONCE, v, 0, 0, hero, vt)
    elif op == ops.OP_ADVANCE:
        for _ in range(a):
            advance_villain(state, game, tables, v)
    elif op == ops.OP_HEAL_VILLAIN:
        dmg = vil_col(L.VIL_DAMAGE, v)
        state[game, dmg] = max(0, state[game, dmg] - a)
    elif op == ops.OP_VILLAIN_MOVE or op == ops.OP_ENEMY_MOVE:
        t = vt if op == ops.OP_VILLAIN_MOVE else src
        pos = enemy_pos(state, game, tables, t)
        if pos >= 0 and tables.cfg[TB.CFG_VTIES] != 0:
            push(state, game, F_ENEMY_MOVE, a, bb, pos, hero, t)  # the villain breaks ties
        elif pos >= 0:
            to = move_enemy(state, game, tables, pos, a, L.is_villain_target(t), bb, hero)
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
        add_counter(state, game, tables, a, bb)
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
    ch = take_choice(s, b)
    if pos < 0:  # no figure on the map (cannot happen between a park and its answer)
        pop(s, b)
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
                park(s, b, L.D_ENEMY_TARGET, L.VILLAIN_SEAT, t, cur)
                set_top(s, b, 1, left)
                set_top(s, b, 2, toward)
                set_top(s, b, 3, cur)
                return
            target = options[0]
        dest = target
        kind = target_kind(s, b, T, target, toward)
        goal, heading = goal_toward(s, b, T, cur, pos, target, kind, through)
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
                    park(s, b, L.D_ENEMY_STEP, L.VILLAIN_SEAT, t, cur)
                    set_top(s, b, 1, left)
                    set_top(s, b, 2, toward + 4 * (target + 1))
                    set_top(s, b, 3, cur)
                    return
            cur = options[0]
            n = 0
            left -= 1
            if bystander_at(s, b, T, cur):
                capture_at(s, b, T, cur, h)
        if through and left > 0 and goal[cur] and T.dist[cur, target] == 0:
            target = -1  # a villain goes on after capturing its bystander target
            continue
        break
    pop(s, b)
    if through and cur != pos and not is_empty_except(s, b, T, cur, pos):
        cur = nearest_empty(s, b, T, cur, False, dest)
    set_enemy_pos(s, b, t, cur)


# --- the interpreter loop ---------------------------------------------------------------

@njit(cache=True)
def step_op(state, game, tables):
    """Execute (part of) the top stack entry: a content op, or a flow op of the round,
    of a dice roll, of damage to heroes or of an effect's bookkeeping."""
    op = top(state, game, 0)
    a = top(state, game, 1)
    bb = top(state, game, 2)
    c = top(state, game, 3)
    h = top(state, game, 4)
    src = top(state, game, 5)
    if 0 < op < ops.N_CONTENT_OPS:
        op_content(state, game, tables, op, a, bb, c, h, src)
    elif not step_turn_op(state, game, tables, op, a, bb, h):
        if not step_roll_op(state, game, tables, op, a, bb, c, h):
            if not step_damage_op(state, game, tables, op, a, bb, h):
                if not step_effect_op(state, game, tables, op, a):
                    fail(state, game, L.ERR_UNKNOWN_OP)


@njit(cache=True)
def step_turn_op(state, game, tables, op, a, bb, hero):
    """Flow ops of the round: villain, hero and issue turns, their cards and phases.
    Returns False for an op of another family."""
    if op == F_ROUND:
        op_round(state, game, tables)
    elif op == F_VDRAW:
        op_vdraw(state, game, tables, a)
    elif op == F_PLOY:
        op_ploy(state, game, tables, a, bb, hero)
    elif op == F_VCARD_END:
        op_vcard_end(state, game, tables, a)
    elif op == F_SCHEME_ONCE:
        op_scheme_once(state, game, tables, a)
    elif op == F_HERO_TURN:
        op_hero_turn(state, game, tables)
    elif op == F_MAIN:
        op_main(state, game, tables)
    elif op == F_MOVE:
        op_move(state, game, tables, a, hero)
    elif op == F_PLAY_END:
        pop(state, game)
        base = L.HCLOC + hero * TB.HERO_DECK + a
        if state[game, base] == L.L_PENDING:
            state[game, base] = L.L_DISCARD
    elif op == F_AFTER_THREAT:
        op_after_threat(state, game, tables)
    elif op == F_THREAT:
        op_threat(state, game, tables, a)
    elif op == F_ACTIVATE:
        op_activate(state, game, tables, a, hero)
    elif op == F_HERO_TURN_END:
        op_hero_turn_end(state, game, tables)
    elif op == F_ISSUE_TURN:
        op_issue_turn(state, game, tables)
    elif op == F_ICARD_END:
        op_icard_end(state, game, tables, a, hero)
    elif op == F_RETURN:
        op_return(state, game, tables)
    elif op == F_MULLIGAN:
        op_mulligan(state, game, tables, hero)
    elif op == F_NEMESIS_SETUP:
        op_nemesis_setup(state, game, tables)
    elif op == F_ENEMY_MOVE:
        op_enemy_move(state, game, tables, a, bb, top(state, game, 3), hero,
                      top(state, game, 5))
    elif op == F_FACE:
        op_face(state, game, tables, hero)
    else:
        return False
    return True


@njit(cache=True)
def step_roll_op(state, game, tables, op, a, bb, c, hero):
    """Flow ops of an Attack or Solve dice roll, from its start to what follows a solve.
    Returns False for an op of another family."""
    if op == F_ROLL_BEGIN:
        op_roll_begin(state, game, tables, a, bb, c, hero)
    elif op == F_ALLY_STRIKE:
        op_ally_strike(state, game, tables, a, bb, hero)
    elif op == F_CLUE_DICE:
        op_clue_dice(state, game, tables, hero)
    elif op == F_ROLL:
        op_roll(state, game, tables)
    elif op == F_SHOWDOWN:
        op_showdown(state, game, tables, hero)
    elif op == F_FOCUS:
        op_focus(state, game, hero)
    elif op == F_ASSIGN:
        op_assign(state, game, tables, hero)
    elif op == F_ROLL_END:
        op_roll_end(state, game, tables, hero)
    elif op == F_POST_SOLVE:
        op_post_solve(state, game, tables, hero)
    else:
        return False
    return True


@njit(cache=True)
def step_damage_op(state, game, tables, op, a, bb, hero):
    """Flow ops that deal damage to heroes and let them answer it.
    Returns False for an op of another family."""
    if op == F_HERO_DAMAGE:
        op_hero_damage(state, game, tables, a, bb)
    elif op == F_DISCARD_OR_DAMAGE:
        op_discard_or_damage(state, game, a, bb)
    elif op == F_INFLICT:
        op_inflict_choice(state, game, tables, a, bb, hero)
    else:
        return False
    return True


@njit(cache=True)
def step_effect_op(state, game, tables, op, a):
    """Flow ops that bracket an effect: crises it causes and what is owed when it ends.
    Returns False for an op of another family."""
    if op == F_CRISIS:
        op_crisis(state, game, tables)
    elif op == F_CRISIS_END:
        pop(state, game)
        state[game, L.CRISIS_DEPTH] = 0
    elif op == F_EFFECT_BEGIN:
        op_effect_begin(state, game, a)
    elif op == F_EFFECT_END:
        pop(state, game)
        state[game, L.CRISIS_LATCH] = a
        push_owed_threat_phases(state, game, tables)
    else:
        return False
    return True


@njit(cache=True)
def push_special_bystander_effects(s, b, T):
    """Push the special Bystander card effects queued by rescues, captures and defeats
    (core/bystanders.py), first queued on top, so they resolve in order before the op that
    was next (engine.md #41). Called only between ops, never while a decision is
    pending."""
    n = s[b, L.SBY_QN]
    s[b, L.SBY_QN] = 0
    for k in range(n - 1, -1, -1):
        push_prog(s, b, T, s[b, L.SBY_QUEUE + 2 * k], s[b, L.SBY_QUEUE + 2 * k + 1], -1)


@njit(cache=True)
def run(s, b, T, mask):
    """Run game ``b`` until a hero must decide or the game ends.

    Reads and writes row ``b`` of the state; writes the legal mask of the pending
    decision into ``mask`` (all zeros once the game is over or stopped by an engine error,
    core/failure.py). Runs at most STEP_BUDGET ops: a longer run is a loop and stops the
    game with ERR_STEP_BUDGET.
    """
    for _ in range(L.STEP_BUDGET):
        if s[b, L.ERROR] != 0:
            mask[:] = 0
            return
        if s[b, L.OUTCOME] != L.OUT_ONGOING:
            s[b, L.DEC_KIND] = L.D_NONE
            mask[:] = 0
            return
        if s[b, L.SBY_QN] > 0 and s[b, L.DEC_KIND] == L.D_NONE:
            push_special_bystander_effects(s, b, T)
        if s[b, L.DEC_KIND] != L.D_NONE and s[b, L.CHOICE] < 0:
            n, last = legal_mask(s, b, T, mask)
            if n == 0:
                fail(s, b, L.ERR_NO_LEGAL_ACTION)
                continue
            if n > 1:
                return
            s[b, L.CHOICE] = last
        if s[b, L.SP] <= 0:
            fail(s, b, L.ERR_STACK_EMPTY)
            continue
        step_op(s, b, T)
    fail(s, b, L.ERR_STEP_BUDGET)
    mask[:] = 0


@njit(cache=True)
def apply_action(s, b, T, action, mask):
    """Answer game ``b``'s pending decision with ``action`` and run to the next decision.

    ``mask`` must hold the current legal mask (as left by ``run``). Returns 0 when the
    action was applied, 1 when it is illegal (nothing changes), 2 when the game is over,
    3 when the game stopped on an engine error (now or before; ``error_*`` fields say what
    and where, the mask is all zeros).
    """
    if s[b, L.ERROR] != 0:
        return 3
    if s[b, L.OUTCOME] != L.OUT_ONGOING:
        return 2
    if action < 0 or action >= L.N_ACTIONS or mask[action] == 0:
        return 1
    kind = s[b, L.DEC_KIND]
    seat = s[b, L.DEC_HERO]
    s[b, L.CHOICE] = action
    s[b, L.DECISIONS] += 1
    run(s, b, T, mask)
    if s[b, L.ERROR] != 0:
        s[b, L.ERROR_DEC] = kind
        s[b, L.ERROR_SEAT] = seat
        s[b, L.ERROR_ACTION] = action
        return 3
    if at_decision_cap(s, b, T):
        end_game(s, b, T, L.OUT_TRUNCATED, L.LOSS_CAP_DECISIONS)
        s[b, L.DEC_KIND] = L.D_NONE
        mask[:] = 0
    return 0
