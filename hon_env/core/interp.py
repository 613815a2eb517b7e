"""The resumable interpreter: game flow and card effects as ops on a per-game stack.

Each game owns a stack of entries ``(op, a, b, c, hero, src)``. ``run`` executes the top
entry until a decision is needed; an op that needs an answer *parks* (writes DEC_* and
returns without popping) and runs again once ``apply_action`` stores the answer in
CHOICE. A decision with a single legal answer is answered automatically, so every
decision a hero sees has a real choice.

Op codes 1..37 are the content ops of ``content/ops.py``; codes from 64 are flow ops::

    F_ROUND -> F_VDRAW(h).. -> F_RETURN -> F_HERO_TURN -> F_MAIN <-> actions
            -> F_THREAT(h) -> F_AFTER_THREAT -> ... -> F_HERO_TURN_END -> F_RETURN
            -> F_ISSUE_TURN -> F_RETURN -> F_ROUND
"""

from __future__ import annotations

from numba import njit

from hon_env.content.ops import (
    AWAY_FROM_VILLAIN,
    COUNT_ACTIVE_DAMAGE,
    COUNT_ACTIVE_IN_MECH,
    COUNT_ACTIVE_PILOTING,
    COUNT_ACTIVE_THREATS,
    COUNT_BYSTANDER_SUPPLY,
    COUNT_BYSTANDERS_MAP,
    COUNT_CAPTURED_TOTAL,
    COUNT_COUNTER_BASE,
    COUNT_MINION_SUPPLY,
    COUNT_MINIONS_TOTAL,
    COUNT_MINIONS_VILLAIN_PANEL,
    COUNT_ROUND,
    COUNT_VILLAIN_HIDDEN,
    COUNT_VILLAIN_PANEL,
    N_CONTENT_OPS,
    OP_ADVANCE,
    OP_ALLY_ATTACK,
    OP_ALLY_MOVE,
    OP_ALLY_SOLVE,
    OP_ATTACK,
    OP_BOARD_MECH,
    OP_CAPTURE,
    OP_COUNTER_ADD,
    OP_CRISIS,
    OP_DAMAGE_ENEMY,
    OP_DAMAGE_HERO,
    OP_DEFEAT_BYSTANDERS,
    OP_DISCARD_OR_DAMAGE,
    OP_DRAW,
    OP_EJECT,
    OP_ENEMY_MOVE,
    OP_EXHAUST_THREAT,
    OP_FORTIFY,
    OP_GAIN_CLUE,
    OP_GAIN_FOCUS,
    OP_HEAL,
    OP_HEAL_VILLAIN,
    OP_IF,
    OP_INFLICT,
    OP_INFLICT_OWNER,
    OP_JUSTICE,
    OP_MOVE,
    OP_MOVE_AWAY,
    OP_PLACE,
    OP_PLACE_BYSTANDERS,
    OP_PLACE_MINIONS,
    OP_RESCUE,
    OP_SCHEME,
    OP_SOLVE,
    OP_VILLAIN_INFLICT,
    OP_VILLAIN_MOVE,
    PANEL_ALL,
    PANEL_VILLAIN,
    WHO_ACTIVE,
    WHO_EACH,
)
from hon_env.content.tables import (
    ABIL_ACTION,
    AL_ABILITY,
    AL_ABILITY_PROG,
    AL_ATTACK,
    AL_SOLVE,
    CFG_CRISIS_PROG,
    CFG_FOCUS_TO_FLIP,
    CFG_MAX_DECISIONS,
    CFG_MAX_ROUNDS,
    CFG_MINION_INFLICT,
    CFG_MOVE,
    CFG_N_HEROES,
    CFG_N_PANELS,
    CFG_N_SPACES,
    CFG_START_SPACE,
    CFG_TOUGHNESS,
    CFG_VHAND,
    CFG_VSHOWDOWN,
    CL_ATTACK_DICE,
    CL_PROG,
    CL_SOLVE_DICE,
    CR_CRISIS_PROG,
    CR_PRESENT,
    DECK_CRISES,
    DF_BURST,
    DF_FOCUS,
    DF_SUCCESS,
    FORM_MECH,
    FORM_PILOT,
    HC_ABILITY,
    HC_ABILITY_PROG,
    HC_ACTION,
    HC_CONSTANT,
    HC_NAME_ID,
    HC_PLAY_PROG,
    HC_UNIQUE,
    HERO_DECK,
    HS_ABILITY,
    HS_ABILITY_PROG,
    IC_ACTIVATE_PROG,
    IC_BACK_ACTIVATE_PROG,
    IC_BYSTANDER,
    IC_CRISIS_PROG,
    IC_EFFECT_PROG,
    IC_LOCATION,
    IC_STAYS,
    IC_TYPE,
    IT_SCHEME,
    MAX_CRISES,
    NEMESES,
    NM_ACTIVATE_PROG,
    NM_SCHEME_PROG,
    NM_SETUP_PROG,
    PLOY_BYSTANDER,
    PLOY_CUNNING,
    PLOY_SPECIAL,
    PROG_LEN,
    SM_DEFEAT_PROG,
    SM_INFLICT,
    SPECIAL_MINIONS,
    VC_ACTIVATE_PROG,
    VC_ATTACH,
    VC_COLOR,
    VC_CRISIS_PROG,
    VC_NPLOYS,
    VC_PLOY0,
    VC_SHOWDOWN_PROG,
    VC_SPECIAL_PROG,
    VC_TYPE,
    VS_ACTIVATE_PROG,
    VT_LACKEY,
    VT_PERIL,
)
from hon_env.core import layout as L
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
from hon_env.core.failure import fail
from hon_env.core.geometry import (
    bystander_at,
    captives,
    is_empty,
    move_enemy,
    nearest_empty,
    panel_of_space,
)
from hon_env.core.layout import (
    A_ATTACK,
    A_CARD,
    A_CLUE,
    A_DRAW,
    A_FEAT,
    A_FOCUS,
    A_HERO,
    A_OPTION,
    A_PASS,
    A_PLAY,
    A_SOLVE,
    A_SPACE,
    A_TARGET,
    A_USE,
    ACTIVE,
    ACTOR,
    ALLY_BIT,
    ALLY_EXH,
    ALLY_LOC,
    ASSIGN,
    BYSTANDER_SUPPLY,
    CHOICE,
    CLUE_LOC,
    COUNTERS,
    CRISIS_AREA,
    CRISIS_AREA_N,
    CRISIS_DEPTH,
    CRISIS_LATCH,
    CRISIS_OUT,
    D_ASSIGN,
    D_ATTACK_SPACE,
    D_CLUE_DICE,
    D_CUNNING,
    D_DAMAGE,
    D_DISCARD_OR_DAMAGE,
    D_FOCUS_SPEND,
    D_MAIN,
    D_MOVE,
    D_MULLIGAN,
    D_NONE,
    D_PICK_HERO,
    D_PICK_TARGET,
    D_PLACE,
    D_RESCUE,
    D_SOLVE_SPACE,
    DEC_A,
    DEC_B,
    DEC_HERO,
    DEC_KIND,
    DECISIONS,
    DEF_BONUS,
    DICE_N,
    DICE_QUEUE,
    ERR_ISSUE_AREA_FULL,
    ERR_NO_LEGAL_ACTION,
    ERR_STACK_EMPTY,
    ERR_STACK_OVERFLOW,
    ERR_STEP_BUDGET,
    ERR_UNKNOWN_OP,
    ERROR,
    ERROR_ACTION,
    ERROR_DEC,
    ERROR_SEAT,
    EV_CRISES,
    EV_HERO_DAMAGE,
    EV_HERO_DEFEATS,
    EV_MECH_WRECKS,
    EVENTS,
    HACTIONS,
    HCEXH,
    HCLOC,
    HDECK_N,
    HDECK_ORDER,
    HDEFEATED,
    HDMG,
    HEXH,
    HFOCUS,
    HLOC,
    HPILOT_DMG,
    HSIDE,
    HTHREAT_DONE,
    HYIELDS,
    IDECK,
    IEXH,
    IJUST,
    ILOC,
    IOWNER,
    IPOS,
    ISIDE,
    L_ATTACHED,
    L_DECK,
    L_DISCARD,
    L_ISSUE_AREA,
    L_MULLIGAN,
    L_PENDING,
    L_PLAY,
    L_THREAT,
    LATCH_OPEN,
    LATCH_SPENT,
    LOSS_CAP_DECISIONS,
    LOSS_CAP_ROUNDS,
    LOSS_ISSUE_DECK,
    MINION_SUPPLY,
    MINIONS,
    N_ACTIONS,
    N_TARGETS,
    NEM_CARD,
    NEM_EXH,
    NEM_OWNER,
    NEM_POS,
    NEM_SIDE,
    OUT_LOSS,
    OUT_ONGOING,
    OUT_TRUNCATED,
    OUTCOME,
    ROLL_ALLY,
    ROLL_DICE,
    ROLL_FOCUS,
    ROLL_HERO,
    ROLL_KIND,
    ROLL_SHOWDOWN,
    ROLL_SPACE,
    ROLL_SUCC,
    ROUND,
    SBY_QN,
    SBY_QUEUE,
    SMIN,
    SP,
    STACK,
    STACK_DEPTH,
    STACK_W,
    STEP_BUDGET,
    T_ALLY0,
    T_CAPTURED,
    T_I0,
    T_MINION,
    T_NEM0,
    T_V0,
    T_VILLAIN,
    THREAT_OWED,
    THREAT_RUNNING,
    TURN,
    TURN_HERO,
    TURN_ISSUE,
    TURN_VILLAIN,
    USE_ALLY_CARD,
    USE_HERO_CARD,
    VATTACH,
    VDECK,
    VDMG,
    VEXH,
    VIL_DAMAGE,
    VIL_EXH,
    VIL_HIDDEN,
    VIL_IN_PANEL,
    VIL_LOC,
    VIL_OWNER,
    VIL_SIDE,
    VJUST,
    VLOC,
    VOWNER,
    VPOS,
)
from hon_env.core.masks import (
    ally_can_attack_at,
    ally_can_solve_at,
    can_attack_at,
    can_solve_at,
    can_step,
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
    enemy_in_space,
    enemy_inflict,
    hero_form,
    hero_health,
    is_enemy_card,
    move_bonus,
    nem_in_play,
    problem_in_space,
    roll_solver,
    solve_dice,
    target_space,
    villain_panel,
)
from hon_env.core.rng import randint, shuffle_slice
from hon_env.core.zones import (
    fewest_threats,
    gain_clue,
    held_clue,
    hero_draw,
    issue_draw,
    threat_count,
    villain_draw,
)

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


# --- stack primitives -----------------------------------------------------------------

@njit(cache=True)
def push(s, b, op, a, bb, c, h, src):
    """Push one entry; overflowing the fixed stack is an engine bug: the game stops with
    ERR_STACK_OVERFLOW (core/failure.py) and the entry is dropped."""
    sp = s[b, SP]
    if sp >= STACK_DEPTH:
        fail(s, b, ERR_STACK_OVERFLOW)
        return
    base = STACK + sp * STACK_W
    s[b, base] = op
    s[b, base + 1] = a
    s[b, base + 2] = bb
    s[b, base + 3] = c
    s[b, base + 4] = h
    s[b, base + 5] = src
    s[b, SP] = sp + 1


@njit(cache=True)
def pop(s, b):
    s[b, SP] -= 1


@njit(cache=True)
def top(s, b, k):
    """Field ``k`` (0 op, 1 a, 2 b, 3 c, 4 hero, 5 src) of the top entry."""
    return s[b, STACK + (s[b, SP] - 1) * STACK_W + k]


@njit(cache=True)
def set_top(s, b, k, v):
    s[b, STACK + (s[b, SP] - 1) * STACK_W + k] = v


@njit(cache=True)
def push_ops(s, b, T, pid, h, src):
    """Push the ops of program ``pid`` so that they run first to last (no effect scope:
    they belong to the effect already resolving)."""
    if pid < 0:
        return
    n = 0
    while n < PROG_LEN and T.prog[pid, n, 0] != 0:
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
    end = s[b, SP]
    push(s, b, F_EFFECT_END, 0, 0, 0, h, src)
    push_ops(s, b, T, pid, h, src)
    push(s, b, F_EFFECT_BEGIN, end, 0, 0, h, src)


@njit(cache=True)
def op_effect_begin(s, b, end):
    """An effect starts: its F_EFFECT_END (stack entry ``end``) keeps the enclosing
    effect's crisis latch, and this effect has triggered no crisis yet."""
    pop(s, b)
    s[b, STACK + end * STACK_W + 1] = s[b, CRISIS_LATCH]
    s[b, CRISIS_LATCH] = LATCH_OPEN


@njit(cache=True)
def park(s, b, kind, h, a, bb):
    s[b, DEC_KIND] = kind
    s[b, DEC_HERO] = h
    s[b, DEC_A] = a
    s[b, DEC_B] = bb


@njit(cache=True)
def take_choice(s, b):
    """The stored answer (and clear it), or -1 when the op runs for the first time."""
    ch = s[b, CHOICE]
    if ch >= 0:
        s[b, CHOICE] = -1
        s[b, DEC_KIND] = D_NONE
    return ch


@njit(cache=True)
def on_board(s, b, h):
    return h >= 0 and s[b, HLOC + h] >= 0


# --- rule helpers that push ops ------------------------------------------------------

@njit(cache=True)
def crisis(s, b):
    push(s, b, F_CRISIS, 0, 0, 0, s[b, ACTIVE], -1)


@njit(cache=True)
def effect_crisis(s, b):
    """A crisis occurs, unless the card or effect resolving now already triggered one
    (rulebook: A Crisis Occurs). Outside any effect (CRISIS_LATCH 0) every cause counts."""
    latch = s[b, CRISIS_LATCH]
    if latch == LATCH_SPENT:
        return
    if latch == LATCH_OPEN:
        s[b, CRISIS_LATCH] = LATCH_SPENT
    crisis(s, b)


@njit(cache=True)
def defeat_hero(s, b, T, h):
    """Hero ``h`` is defeated (rulebook: Dealing and Suffering Damage, hero defeat)."""
    s[b, HDMG + h] = 0
    s[b, HPILOT_DMG + h] = 0
    s[b, HSIDE + h] = 0
    s[b, HFOCUS + h] = 0
    s[b, HLOC + h] = -1
    s[b, HDEFEATED + h] = 1
    s[b, EVENTS + EV_HERO_DEFEATS] += 1
    if s[b, TURN] == TURN_HERO:
        s[b, HACTIONS + h] = 0
        if s[b, HTHREAT_DONE + h] == 0:
            # their threat phase follows the effect that defeated them (engine.md #19)
            if s[b, CRISIS_LATCH] == 0:
                s[b, HTHREAT_DONE + h] = THREAT_RUNNING
                push(s, b, F_THREAT, h, 0, 0, h, -1)
            else:
                s[b, HTHREAT_DONE + h] = THREAT_OWED
    effect_crisis(s, b)


@njit(cache=True)
def push_owed_threat_phases(s, b, T):
    """Push the threat phase of each hero defeated during the effect that just ended
    (lowest seat first)."""
    for h in range(T.cfg[CFG_N_HEROES] - 1, -1, -1):
        if s[b, HTHREAT_DONE + h] == THREAT_OWED:
            s[b, HTHREAT_DONE + h] = THREAT_RUNNING
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
    s[b, EVENTS + EV_MECH_WRECKS] += 1


@njit(cache=True)
def count_value(s, b, T, kind, h):
    """The quantity an ``if`` op tests (content/ops.py COUNT_*)."""
    if kind == COUNT_MINIONS_VILLAIN_PANEL:
        return s[b, MINIONS + villain_panel(s, b, T)]
    if kind == COUNT_MINIONS_TOTAL or kind == COUNT_CAPTURED_TOTAL:
        n = 0
        for k in range(1, T.cfg[CFG_N_PANELS] + 1):
            n += s[b, MINIONS + k] if kind == COUNT_MINIONS_TOTAL else captives(s, b, T, k)
        return n
    if kind == COUNT_BYSTANDERS_MAP:
        return bystanders_on_map(s, b, T)
    if kind == COUNT_MINION_SUPPLY:
        return s[b, MINION_SUPPLY]
    if kind == COUNT_BYSTANDER_SUPPLY:
        return s[b, BYSTANDER_SUPPLY]
    if kind == COUNT_VILLAIN_HIDDEN:
        return s[b, VIL_HIDDEN]
    if kind == COUNT_ACTIVE_THREATS:
        return threat_count(s, b, h) if h >= 0 else 0
    if kind == COUNT_ACTIVE_DAMAGE:
        return s[b, HDMG + h] if h >= 0 else 0
    if kind == COUNT_VILLAIN_PANEL:
        return villain_panel(s, b, T)
    if kind == COUNT_ROUND:
        return s[b, ROUND]
    if kind == COUNT_ACTIVE_PILOTING or kind == COUNT_ACTIVE_IN_MECH:
        want = FORM_PILOT if kind == COUNT_ACTIVE_PILOTING else FORM_MECH
        return 1 if on_board(s, b, h) and hero_form(s, b, T, h) == want else 0
    if kind >= COUNT_COUNTER_BASE:
        return s[b, COUNTERS + kind - COUNT_COUNTER_BASE]
    return 0



# --- the round ------------------------------------------------------------------------

@njit(cache=True)
def op_round(s, b, T):
    """Start a round: villain turn, hero turn, issue turn (rulebook: The Game Round)."""
    pop(s, b)
    s[b, ROUND] += 1
    s[b, DEF_BONUS] = 0
    s[b, DEF_BONUS + 1] = 0
    if s[b, ROUND] > T.cfg[CFG_MAX_ROUNDS]:
        end_game(s, b, OUT_TRUNCATED, LOSS_CAP_ROUNDS)
        return
    push(s, b, F_ROUND, 0, 0, 0, -1, -1)
    push(s, b, F_RETURN, 0, 0, 0, -1, -1)
    push(s, b, F_ISSUE_TURN, 0, 0, 0, -1, -1)
    push(s, b, F_RETURN, 0, 0, 0, -1, -1)
    push(s, b, F_HERO_TURN, 0, 0, 0, -1, -1)
    push(s, b, F_RETURN, 0, 0, 0, -1, -1)
    # heroes draw villain cards in seat order (the rulebook lets the players pick the order)
    for h in range(T.cfg[CFG_N_HEROES] - 1, -1, -1):
        push(s, b, F_VDRAW, h, 0, 0, h, -1)
    s[b, TURN] = TURN_VILLAIN


@njit(cache=True)
def place_figure_card(s, b, T, c, h):
    """A drawn Lackey or Peril card enters ``h``'s threat area with its figure or token."""
    typ = T.vcard[c, VC_TYPE]
    s[b, VLOC + c] = L_THREAT
    s[b, VOWNER + c] = h
    s[b, VDMG + c] = 0
    s[b, VJUST + c] = 0
    s[b, VEXH + c] = 0
    s[b, VPOS + c] = -1
    color = T.vcard[c, VC_COLOR]
    if typ == VT_LACKEY:
        sp = T.lackey_space[color] if color >= 0 else -1
        if sp < 0:
            sp = T.cfg[CFG_START_SPACE]
        if not is_empty(s, b, T, sp):
            sp = nearest_empty(s, b, T, sp, False, -1)
    else:
        sp = T.peril_space[color] if color >= 0 else -1
        if sp < 0:
            sp = T.cfg[CFG_START_SPACE]
        sp = nearest_empty(s, b, T, sp, True, -1)
    s[b, VPOS + c] = sp


@njit(cache=True)
def next_villain_card(s, b, T, h, showdown):
    """The villain card that resolves against hero ``h`` now: the top of the villain deck
    (rulebook), or with the villain agent (core/mastermind.py) the card it picks from its
    hand. Returns the card, moved to L_PENDING; NO_CARD when none is left anywhere; PARKED
    when the villain must choose first (D_VPLAY parked, the caller returns unpopped)."""
    if T.cfg[CFG_VHAND] == 0 or (showdown == 1 and T.cfg[CFG_VSHOWDOWN] == 0):
        return villain_draw(s, b)
    ch = take_choice(s, b)
    if ch >= 0:
        c = ch - A_TARGET - T_V0
        s[b, VLOC + c] = L_PENDING
        return c
    if fill_hand(s, b, T) == 0:
        return NO_CARD
    park(s, b, L.D_VPLAY, L.VILLAIN_SEAT, h, showdown)
    return PARKED


@njit(cache=True)
def op_vdraw(s, b, T, h):
    """Hero ``h`` draws and resolves one villain card (rulebook: Villain Turn)."""
    s[b, ACTIVE] = h
    c = next_villain_card(s, b, T, h, 0)
    if c == PARKED:
        return
    pop(s, b)
    if c < 0:
        return
    # the whole card is one effect: its ploy icons (special ones too) share one latch
    push(s, b, F_EFFECT_END, s[b, CRISIS_LATCH], 0, 0, h, T_V0 + c)
    s[b, CRISIS_LATCH] = LATCH_OPEN
    typ = T.vcard[c, VC_TYPE]
    if typ == VT_LACKEY or typ == VT_PERIL:
        place_figure_card(s, b, T, c, h)
    push(s, b, F_VCARD_END, c, 0, 0, h, T_V0 + c)
    for k in range(T.vcard[c, VC_NPLOYS] - 1, -1, -1):
        push(s, b, F_PLOY, c, k, 0, h, T_V0 + c)


@njit(cache=True)
def op_ploy(s, b, T, c, k, h):
    """Resolve ploy icon ``k`` of villain card ``c`` (rulebook: Ploy Icons)."""
    icon = T.vcard[c, VC_PLOY0 + k]
    if icon == PLOY_CUNNING:
        ch = take_choice(s, b)
        if ch < 0:
            who = cunning_decider(T, h)
            park(s, b, D_CUNNING, who, h if who != h else 0, 0)
            return
        pop(s, b)
        if ch == A_OPTION:
            push(s, b, F_SCHEME_ONCE, 0, 0, 0, h, T_VILLAIN)
        elif on_board(s, b, h):
            push(s, b, F_HERO_DAMAGE, h, enemy_inflict(s, b, T, T_VILLAIN), 0, h, T_VILLAIN)
        return
    pop(s, b)
    if icon == PLOY_BYSTANDER:
        if place_bystander(s, b, T, h):
            effect_crisis(s, b)
    elif icon == PLOY_SPECIAL:
        push_ops(s, b, T, T.vcard[c, VC_SPECIAL_PROG], h, T_V0 + c)
    elif icon >= 1:
        if place_minions(s, b, T, 1, icon):
            effect_crisis(s, b)


@njit(cache=True)
def op_vcard_end(s, b, T, c):
    """A resolved Ploy card is discarded, stays attached to its host (Attaching Cards), or,
    with the Crisis trait, joins the issue play area (Crisis Cards)."""
    pop(s, b)
    if s[b, VLOC + c] != L_PENDING:
        return
    if T.vcard[c, VC_CRISIS_PROG] >= 0:
        enter_issue_area(s, b, T_V0 + c)
        s[b, VLOC + c] = L_ISSUE_AREA
        return
    host = attach_host(s, b, T, T.vcard[c, VC_ATTACH])
    if host >= 0:
        s[b, VLOC + c] = L_ATTACHED
        s[b, VATTACH + c] = host
    else:
        s[b, VLOC + c] = L_DISCARD


@njit(cache=True)
def enter_issue_area(s, b, t):
    """Card target ``t`` (a villain or issue card with the Crisis trait) joins the issue
    play area at its right end; it stays there for the rest of the game."""
    n = s[b, CRISIS_AREA_N]
    if n >= DECK_CRISES:  # the loader caps the Crisis cards of the decks at DECK_CRISES
        fail(s, b, ERR_ISSUE_AREA_FULL)
        return
    s[b, CRISIS_AREA + n] = t
    s[b, CRISIS_AREA_N] = n + 1


@njit(cache=True)
def op_scheme_once(s, b, T, h):
    """The villain schemes: its panel's Scheme effect (rulebook: Villain Schemes)."""
    pop(s, b)
    push_prog(s, b, T, T.panel_prog[villain_panel(s, b, T)], s[b, ACTIVE], T_VILLAIN)


@njit(cache=True)
def op_hero_turn(s, b, T):
    """Ready play areas, hand out two action tokens each, give the first seat the initiative."""
    pop(s, b)
    s[b, TURN] = TURN_HERO
    for h in range(T.cfg[CFG_N_HEROES]):
        s[b, HEXH + h] = 0
        s[b, ALLY_EXH + h] = 0
        for c in range(HERO_DECK):
            if s[b, HCLOC + h * HERO_DECK + c] == L_PLAY:
                s[b, HCEXH + h * HERO_DECK + c] = 0
        s[b, HACTIONS + h] = 2
        s[b, HYIELDS + h] = 0
        s[b, HTHREAT_DONE + h] = 0
    s[b, ACTOR] = 0
    push(s, b, F_MAIN, 0, 0, 0, 0, -1)


@njit(cache=True)
def op_after_threat(s, b, T):
    """Pass the initiative on, or end the hero turn when every hero is done."""
    pop(s, b)
    nxt = yield_target(s, b, T, s[b, ACTOR])
    if nxt >= 0:
        s[b, ACTOR] = nxt
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
    if s[b, VIL_OWNER] == h:
        push(s, b, F_ACTIVATE, T_VILLAIN, 0, 0, h, T_VILLAIN)
    for k in range(NEMESES - 1, -1, -1):
        if nem_in_play(s, b, k) and s[b, NEM_OWNER + k] == h:
            push(s, b, F_ACTIVATE, T_NEM0 + k, 0, 0, h, T_NEM0 + k)
    for i in range(IDECK - 1, -1, -1):
        if s[b, ILOC + i] == L_THREAT and s[b, IOWNER + i] == h:
            push(s, b, F_ACTIVATE, T_I0 + i, 0, 0, h, T_I0 + i)
    for i in range(VDECK - 1, -1, -1):
        if s[b, VLOC + i] == L_THREAT and s[b, VOWNER + i] == h:
            push(s, b, F_ACTIVATE, T_V0 + i, 0, 0, h, T_V0 + i)


@njit(cache=True)
def op_activate(s, b, T, t, h):
    """Activate one threat-area card; an exhausted card readies instead (Activating Enemies)."""
    pop(s, b)
    if t == T_VILLAIN:
        if s[b, VIL_OWNER] != h:
            return
        if s[b, VIL_EXH] == 1:
            s[b, VIL_EXH] = 0
            return
        push_prog(s, b, T, T.vil_stat[VS_ACTIVATE_PROG], h, t)
    elif t > T_VILLAIN:
        # a nemesis: its Scheme-side Activate effect while scheming, else its enemy one
        k = t - T_NEM0
        if not nem_in_play(s, b, k) or s[b, NEM_OWNER + k] != h:
            return
        if s[b, NEM_EXH + k] == 1:
            s[b, NEM_EXH + k] = 0
            return
        col = NM_ACTIVATE_PROG if s[b, NEM_SIDE + k] == 1 else NM_SCHEME_PROG
        push_prog(s, b, T, T.nemesis[s[b, NEM_CARD + k], col], h, t)
    elif t < T_I0:
        if s[b, VLOC + t] != L_THREAT or s[b, VOWNER + t] != h:
            return
        if s[b, VEXH + t] == 1:
            s[b, VEXH + t] = 0
            return
        push_prog(s, b, T, T.vcard[t, VC_ACTIVATE_PROG], h, t)
    else:
        i = t - T_I0
        if s[b, ILOC + i] != L_THREAT or s[b, IOWNER + i] != h:
            return
        if s[b, IEXH + i] == 1:
            s[b, IEXH + i] = 0
            return
        if T.icard[i, IC_TYPE] == IT_SCHEME:
            if s[b, ISIDE + i] == 1:
                push_prog(s, b, T, T.icard[i, IC_BACK_ACTIVATE_PROG], h, t)
        else:
            push_prog(s, b, T, T.icard[i, IC_ACTIVATE_PROG], h, t)


@njit(cache=True)
def op_hero_turn_end(s, b, T):
    """Each hero draws 1 card; the action tokens flip back (rulebook: Hero Turn)."""
    pop(s, b)
    for h in range(T.cfg[CFG_N_HEROES]):
        hero_draw(s, b, h)
        s[b, HACTIONS + h] = 0


@njit(cache=True)
def op_issue_turn(s, b, T):
    """Draw and resolve one issue card; an empty issue deck loses (rulebook: Issue Turn).

    The issue card's "active hero" (and the threat area for a card that stays) is the hero
    with the fewest threat-area cards, lowest seat first.
    """
    pop(s, b)
    s[b, TURN] = TURN_ISSUE
    c = issue_draw(s, b)
    if c < 0:
        end_game(s, b, OUT_LOSS, LOSS_ISSUE_DECK)
        return
    h = fewest_threats(s, b, T)
    s[b, ACTIVE] = h
    push(s, b, F_ICARD_END, c, 0, 0, h, T_I0 + c)
    push_prog(s, b, T, T.icard[c, IC_EFFECT_PROG], h, T_I0 + c)


@njit(cache=True)
def op_icard_end(s, b, T, c, h):
    pop(s, b)
    if s[b, ILOC + c] != L_PENDING:
        return
    if T.icard[c, IC_CRISIS_PROG] >= 0:
        enter_issue_area(s, b, T_I0 + c)
        s[b, ILOC + c] = L_ISSUE_AREA
    elif T.icard[c, IC_BYSTANDER] == 1:
        place_character(s, b, T, c)
    elif T.icard[c, IC_STAYS] == 1:
        s[b, ILOC + c] = L_THREAT
        s[b, IOWNER + c] = h
        s[b, IJUST + c] = 0
        s[b, IEXH + c] = 0
        s[b, IPOS + c] = T.icard[c, IC_LOCATION]
    else:
        s[b, ILOC + c] = L_DISCARD


@njit(cache=True)
def op_return(s, b, T):
    """Heroes defeated during the turn now return to an empty space near the start."""
    pop(s, b)
    for h in range(T.cfg[CFG_N_HEROES]):
        if s[b, HDEFEATED + h] == 1:
            s[b, HDEFEATED + h] = 0
            sp = nearest_empty(s, b, T, T.cfg[CFG_START_SPACE], False, -1)
            move_hero_to(s, b, T, h, sp)


@njit(cache=True)
def op_mulligan(s, b, T, h):
    """Opening mulligan: mark cards one at a time, then redraw and shuffle them back."""
    ch = take_choice(s, b)
    if ch < 0:
        park(s, b, D_MULLIGAN, h, 0, 0)
        return
    base = HCLOC + h * HERO_DECK
    if ch >= A_CARD:
        s[b, base + ch - A_CARD] = L_MULLIGAN
        return
    pop(s, b)
    marked = 0
    for c in range(HERO_DECK):
        if s[b, base + c] == L_MULLIGAN:
            marked += 1
    for _ in range(marked):
        hero_draw(s, b, h)
    n = s[b, HDECK_N + h]
    for c in range(HERO_DECK):
        if s[b, base + c] == L_MULLIGAN:
            s[b, base + c] = L_DECK
            s[b, HDECK_ORDER + h * HERO_DECK + n] = c
            n += 1
    s[b, HDECK_N + h] = n
    shuffle_slice(s, b, HDECK_ORDER + h * HERO_DECK, n)


# --- the hero turn menu -----------------------------------------------------------------

@njit(cache=True)
def play_card(s, b, T, h, c):
    """Play hero card ``c`` from hand (rulebook: Play 1 Action Card, Unique Cards)."""
    base = HCLOC + h * HERO_DECK
    if T.hcard[h, c, HC_CONSTANT] == 1:
        if T.hcard[h, c, HC_UNIQUE] == 1:
            for o in range(HERO_DECK):
                if (s[b, base + o] == L_PLAY
                        and T.hcard[h, o, HC_NAME_ID] == T.hcard[h, c, HC_NAME_ID]):
                    s[b, base + o] = L_DISCARD
        s[b, base + c] = L_PLAY
        s[b, HCEXH + h * HERO_DECK + c] = 0
    else:
        s[b, base + c] = L_PENDING
        push(s, b, F_PLAY_END, c, 0, 0, h, -1)
    push_prog(s, b, T, T.hcard[h, c, HC_PLAY_PROG], h, -1)


@njit(cache=True)
def use_ability(s, b, T, h, i):
    """Use the ability of card ``i`` in play (USE_HERO_CARD: the Hero card, USE_ALLY_CARD:
    the Ally card); exhausts the card unless it is an Action ability. Returns (kind, prog).
    """
    if i == USE_HERO_CARD:
        side = s[b, HSIDE + h]
        kind = T.hero_stat[h, side, HS_ABILITY]
        pid = T.hero_stat[h, side, HS_ABILITY_PROG]
        if kind != ABIL_ACTION:
            s[b, HEXH + h] = 1
    elif i == USE_ALLY_CARD:
        kind = T.ally[h, AL_ABILITY]
        pid = T.ally[h, AL_ABILITY_PROG]
        if kind != ABIL_ACTION:
            s[b, ALLY_EXH + h] = 1
    else:
        kind = T.hcard[h, i, HC_ABILITY]
        pid = T.hcard[h, i, HC_ABILITY_PROG]
        if kind != ABIL_ACTION:
            s[b, HCEXH + h * HERO_DECK + i] = 1
    return kind, pid


@njit(cache=True)
def op_main(s, b, T):
    """The actor's menu: actions, free plays, yielding, or ending into the threat phase."""
    h = s[b, ACTOR]
    ch = take_choice(s, b)
    if ch < 0:
        if s[b, HLOC + h] < 0:
            # a defeated hero loses their remaining actions and goes to their threat phase
            s[b, HACTIONS + h] = 0
            ch = A_PASS
        else:
            park(s, b, D_MAIN, h, 0, 0)
            return
    if ch == A_PASS:
        if s[b, HACTIONS + h] > 0:
            s[b, HYIELDS + h] += 1
            s[b, ACTOR] = yield_target(s, b, T, h)
            return
        pop(s, b)
        push(s, b, F_AFTER_THREAT, 0, 0, 0, h, -1)
        if s[b, HTHREAT_DONE + h] == 0:  # not already taken on their defeat
            s[b, HTHREAT_DONE + h] = THREAT_RUNNING
            push(s, b, F_THREAT, h, 0, 0, h, -1)
        return
    if ch == A_DRAW:
        s[b, HACTIONS + h] -= 1
        hero_draw(s, b, h)
    elif ch < A_ATTACK:
        s[b, HACTIONS + h] -= 1
        move_hero_to(s, b, T, h, ch - A_SPACE)
        steps = T.cfg[CFG_MOVE] + move_bonus(s, b, T, h) - 1
        push(s, b, F_MOVE, steps, 0, 0, h, -1)
    elif ch < A_SOLVE:
        s[b, HACTIONS + h] -= 1
        push(s, b, F_ROLL_BEGIN, 1, ch - A_ATTACK, 0, h, -1)
    elif ch < A_PLAY:
        s[b, HACTIONS + h] -= 1
        push(s, b, F_ROLL_BEGIN, 2, ch - A_SOLVE, 0, h, -1)
    elif ch < A_USE:
        c = ch - A_PLAY
        if T.hcard[h, c, HC_ACTION] == 1:
            s[b, HACTIONS + h] -= 1
        play_card(s, b, T, h, c)
    elif ch < A_FEAT:
        kind, pid = use_ability(s, b, T, h, ch - A_USE)
        if kind == ABIL_ACTION:
            s[b, HACTIONS + h] -= 1
        push_prog(s, b, T, pid, h, -1)
    elif ch < A_CLUE:
        c = (ch - A_FEAT) // 3
        k = (ch - A_FEAT) % 3
        s[b, HCLOC + h * HERO_DECK + c] = L_DISCARD
        if k == 0:
            push(s, b, OP_PLACE, 0, 0, 0, h, -1)
        elif k == 1:
            push(s, b, OP_ATTACK, 0, 1, 0, h, -1)
        else:
            push(s, b, OP_SOLVE, 0, 1, 0, h, -1)
    elif ch < A_FOCUS:
        i = held_clue(s, b, h, ch - A_CLUE)
        s[b, CLUE_LOC + i] = -2
        push_prog(s, b, T, T.clue[i, CL_PROG], h, -1)
    elif ch == A_FOCUS:
        s[b, HFOCUS + h] -= T.cfg[CFG_FOCUS_TO_FLIP]
        turn_focused(s, b, T, h)


@njit(cache=True)
def op_move(s, b, T, left, h):
    """One step of a Move; entering a bystander's space rescues it (rulebook: Move)."""
    if left <= 0 or not on_board(s, b, h):
        pop(s, b)
        return
    ch = take_choice(s, b)
    if ch < 0:
        park(s, b, D_MOVE, h, left, 0)
        return
    if ch == A_PASS:
        pop(s, b)
        return
    move_hero_to(s, b, T, h, ch - A_SPACE)
    set_top(s, b, 1, left - 1)


# --- dice rolls -------------------------------------------------------------------------

@njit(cache=True)
def start_roll(s, b, kind, sp, h, dice, succ, ally):
    """Reset the ROLL_* fields for an Attack (kind 1) or Solve (2) by hero ``h`` at ``sp``
    with ``dice`` to roll and ``succ`` successes already in hand (``ally`` 1: its ally's
    diceless strike), and push the last two steps: assign the successes, then apply them.
    """
    s[b, ROLL_KIND] = kind
    s[b, ROLL_HERO] = h
    s[b, ROLL_SPACE] = sp
    s[b, ROLL_ALLY] = ally
    s[b, ROLL_DICE] = dice
    s[b, ROLL_SUCC] = succ
    s[b, ROLL_FOCUS] = 0
    s[b, ROLL_SHOWDOWN] = -1
    for t in range(N_TARGETS):
        s[b, ASSIGN + t] = 0
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
        park(s, b, D_CLUE_DICE, h, 0, 0)
        return
    if ch == A_PASS:
        pop(s, b)
        return
    i = held_clue(s, b, h, ch - A_CLUE)
    s[b, CLUE_LOC + i] = -2
    col = CL_ATTACK_DICE if s[b, ROLL_KIND] == 1 else CL_SOLVE_DICE
    s[b, ROLL_DICE] += T.clue[i, col]


@njit(cache=True)
def next_face(s, b):
    """The next die face: a forced face if any is queued, else a uniform draw."""
    q = s[b, DICE_N]
    if q > 0:
        f = s[b, DICE_QUEUE]
        for k in range(q - 1):
            s[b, DICE_QUEUE + k] = s[b, DICE_QUEUE + k + 1]
        s[b, DICE_N] = q - 1
        return f
    return randint(s, b, 6)


@njit(cache=True)
def op_roll(s, b, T):
    """Steps 3-4: roll the pool; each burst is a success that adds one more die."""
    pop(s, b)
    left = s[b, ROLL_DICE]
    succ = 0
    focus = 0
    while left > 0:
        left -= 1
        f = next_face(s, b)
        succ += T.dice[f, DF_SUCCESS]
        focus += T.dice[f, DF_FOCUS]
        left += T.dice[f, DF_BURST]
    s[b, ROLL_SUCC] = succ
    s[b, ROLL_FOCUS] = focus


@njit(cache=True)
def op_showdown(s, b, T, h):
    """Step 5: attacking the revealed villain's space draws a card for its Showdown effect."""
    if s[b, VIL_SIDE] != 1 or s[b, VIL_IN_PANEL] == 1 or s[b, VIL_LOC] != s[b, ROLL_SPACE]:
        pop(s, b)
        return
    c = next_villain_card(s, b, T, h, 1)
    if c == PARKED:
        return
    pop(s, b)
    if c < 0:
        return
    s[b, ROLL_SHOWDOWN] = c
    s[b, ACTIVE] = h
    push_prog(s, b, T, T.vcard[c, VC_SHOWDOWN_PROG], h, T_V0 + c)


@njit(cache=True)
def op_focus(s, b, h):
    """Step 6: spend focus tokens to turn focus results into successes."""
    if s[b, HFOCUS + h] == 0 or s[b, ROLL_FOCUS] == 0:
        pop(s, b)
        return
    ch = take_choice(s, b)
    if ch < 0:
        park(s, b, D_FOCUS_SPEND, h, 0, 0)
        return
    pop(s, b)
    k = ch - A_OPTION
    s[b, HFOCUS + h] -= k
    s[b, ROLL_FOCUS] -= k
    s[b, ROLL_SUCC] += k


@njit(cache=True)
def assign_candidates(s, b, T):
    """How many targets in the roll's space can take successes, and the last of them."""
    n = 0
    last = -1
    sp = s[b, ROLL_SPACE]
    solver = roll_solver(s, b)
    for t in range(N_TARGETS):
        if s[b, ROLL_KIND] == 1:
            ok = enemy_in_space(s, b, T, t, sp)
        else:
            ok = problem_in_space(s, b, T, t, sp, solver)
        if ok:
            n += 1
            last = t
    return n, last


@njit(cache=True)
def op_assign(s, b, T, h):
    """Step 7: distribute successes among the targets in the space, one at a time."""
    if s[b, ROLL_SUCC] == 0:
        pop(s, b)
        return
    ch = take_choice(s, b)
    if ch < 0:
        n, last = assign_candidates(s, b, T)
        if n == 0:
            s[b, ROLL_SUCC] = 0
            pop(s, b)
        elif n == 1:
            s[b, ASSIGN + last] += s[b, ROLL_SUCC]
            s[b, ROLL_SUCC] = 0
            pop(s, b)
        else:
            park(s, b, D_ASSIGN, h, s[b, ROLL_SUCC], 0)
        return
    s[b, ASSIGN + ch - A_TARGET] += 1
    s[b, ROLL_SUCC] -= 1


@njit(cache=True)
def op_roll_end(s, b, T, h):
    """Steps 7-8 applied: damage (less defense) or justice, then leftover focus.

    After a Solve the nearby enemies inflict (F_POST_SOLVE), pushed first so that the
    effects of a card solved by this roll resolve before it ("immediately solved before
    the players complete any other effect").
    """
    pop(s, b)
    kind = s[b, ROLL_KIND]
    sp = s[b, ROLL_SPACE]
    ally = s[b, ROLL_ALLY] == 1
    attacker = -1 if ally else h  # an ally has no pierce of its hero's
    if kind == 2 and not ally:  # an ally's Solve ignores nearby enemies
        push(s, b, F_POST_SOLVE, 0, 0, 0, h, -1)
    for t in range(N_TARGETS):
        n = s[b, ASSIGN + t]
        if n == 0:
            continue
        s[b, ASSIGN + t] = 0
        if kind == 1:
            if t == T_MINION:
                # normal minions first, then each special Minion card's; every special
                # minion defeated resolves its card's effect for this hero
                panel = panel_of_space(T, sp)
                left = kill_minions(s, b, T, panel, n)
                for j in range(SPECIAL_MINIONS):
                    killed, left = hurt_special_minions(s, b, T, panel, j, left)
                    for _ in range(killed):
                        push_prog(s, b, T, T.smin[j, SM_DEFEAT_PROG], h, T_MINION)
            else:
                damage_enemy_card(s, b, T, t, n - enemy_defense(s, b, T, t, attacker), h)
        elif t == T_CAPTURED:
            rescue_captured(s, b, T, h, panel_of_space(T, sp), n)
        else:
            push_prog(s, b, T, place_justice(s, b, T, t, n, h), h, -1)
    gain_focus(s, b, T, h, s[b, ROLL_FOCUS])
    c = s[b, ROLL_SHOWDOWN]
    if c >= 0 and s[b, VLOC + c] == L_PENDING:
        s[b, VLOC + c] = L_DISCARD
    s[b, ROLL_SHOWDOWN] = -1
    s[b, ROLL_KIND] = 0
    s[b, ROLL_ALLY] = 0


@njit(cache=True)
def op_ally_strike(s, b, T, kind, sp, h):
    """An ally Attacks (kind 1) or Solves (kind 2) space ``sp`` (rulebook: Ally Cards and
    Figures): no dice; its attack or solve value is distributed like successes among the
    targets there (steps 7-8 of a roll), credited to its hero ``h``. Writes the ROLL_*
    fields and pushes the assign and roll-end steps."""
    pop(s, b)
    start_roll(s, b, kind, sp, h, 0, T.ally[h, AL_ATTACK if kind == 1 else AL_SOLVE], 1)


@njit(cache=True)
def op_post_solve(s, b, T, h):
    """After a Solve, each enemy near the solver inflicts them (rulebook: Solve).

    Each enemy (each minion too) is its own damage instance, so toughness and armour apply
    to each separately.
    """
    pop(s, b)
    if not on_board(s, b, h):
        return
    here = s[b, HLOC + h]
    for t in range(T_MINION - 1, -1, -1):
        near = False
        if t == T_VILLAIN:
            near = s[b, VIL_LOC] >= 0 and T.dist[here, s[b, VIL_LOC]] <= 1
        elif is_enemy_card(s, b, T, t):
            sp = target_space(s, b, T, t)
            near = sp >= 0 and T.dist[here, sp] <= 1
        if near and enemy_inflict(s, b, T, t) > 0:
            push(s, b, F_HERO_DAMAGE, h, enemy_inflict(s, b, T, t), 0, h, t)
    for k in range(T.cfg[CFG_N_PANELS], 0, -1):
        if T.dist[here, T.scheme_space[k]] > 1:
            continue
        if T.cfg[CFG_MINION_INFLICT] > 0:
            for _ in range(normal_minions(s, b, k)):
                push(s, b, F_HERO_DAMAGE, h, T.cfg[CFG_MINION_INFLICT], 0, h, T_MINION)
        for j in range(SPECIAL_MINIONS):  # special minions inflict their card's value
            if T.smin[j, SM_INFLICT] > 0:
                for _ in range(s[b, SMIN + k * SPECIAL_MINIONS + j]):
                    push(s, b, F_HERO_DAMAGE, h, T.smin[j, SM_INFLICT], 0, h, T_MINION)


# --- damage to heroes ---------------------------------------------------------------------

@njit(cache=True)
def op_hero_damage(s, b, T, h, n):
    """Hero ``h`` is dealt ``n`` damage, with a window for toughness feats and prevention.

    Armour applies once per damage instance. Damage reaching health defeats the hero.
    """
    if not on_board(s, b, h):
        pop(s, b)
        return
    if top(s, b, 3) == 0:
        n = n - armor(s, b, T, h)
        set_top(s, b, 3, 1)
        set_top(s, b, 2, n)
    if n <= 0:
        pop(s, b)
        return
    ch = take_choice(s, b)
    if ch < 0:
        park(s, b, D_DAMAGE, h, n, 0)
        return
    if ch >= A_CARD:
        s[b, HCLOC + h * HERO_DECK + ch - A_CARD] = L_DISCARD
        set_top(s, b, 2, n - T.cfg[CFG_TOUGHNESS])
        return
    if ch >= A_USE and ch < A_FEAT:
        kind, pid = use_ability(s, b, T, h, ch - A_USE)
        set_top(s, b, 2, n - T.prog[pid, 0, 1])
        return
    if ch == A_FOCUS:
        # becoming Focused before the damage lands (engine.md #14); the window stays open
        s[b, HFOCUS + h] -= T.cfg[CFG_FOCUS_TO_FLIP]
        turn_focused(s, b, T, h)
        return
    pop(s, b)
    s[b, HDMG + h] += n
    s[b, EVENTS + EV_HERO_DAMAGE] += n
    if s[b, HDMG + h] >= hero_health(s, b, T, h):
        if hero_form(s, b, T, h) == FORM_MECH:
            wreck_mech(s, b, T, h)
        else:
            defeat_hero(s, b, T, h)


@njit(cache=True)
def op_discard_or_damage(s, b, h, n):
    if not on_board(s, b, h):
        pop(s, b)
        return
    ch = take_choice(s, b)
    if ch < 0:
        park(s, b, D_DISCARD_OR_DAMAGE, h, n, 0)
        return
    pop(s, b)
    if ch >= A_CARD:
        s[b, HCLOC + h * HERO_DECK + ch - A_CARD] = L_DISCARD
    else:
        push(s, b, F_HERO_DAMAGE, h, n, 0, h, -1)


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
    if s[b, CRISIS_DEPTH] > 0:
        return
    s[b, EVENTS + EV_CRISES] += 1
    s[b, CRISIS_DEPTH] = 1
    push(s, b, F_CRISIS_END, 0, 0, 0, -1, -1)
    # pushed last to first, so they run first to last: the Issue Overview, the optional
    # crisis cards (there since setup), then deck cards with the Crisis trait as they came
    for k in range(s[b, CRISIS_AREA_N] - 1, -1, -1):
        t = s[b, CRISIS_AREA + k]
        pid = T.vcard[t, VC_CRISIS_PROG] if t < T_I0 else T.icard[t - T_I0, IC_CRISIS_PROG]
        push_ops(s, b, T, pid, s[b, ACTIVE], t)
    for k in range(MAX_CRISES - 1, -1, -1):
        if T.crisis[k, CR_PRESENT] == 1 and s[b, CRISIS_OUT + k] == 0:  # not solved
            push_ops(s, b, T, T.crisis[k, CR_CRISIS_PROG], s[b, ACTIVE], -1)
    push_ops(s, b, T, T.cfg[CFG_CRISIS_PROG], s[b, ACTIVE], -1)


@njit(cache=True)
def op_inflict_choice(s, b, T, n, seats, h):
    """Several heroes (or ally figures) are near an inflicting enemy: the deciding hero picks
    who suffers it. ``seats`` has bit h for hero h and bit ALLY_BIT + h for h's ally."""
    ch = take_choice(s, b)
    if ch < 0:
        park(s, b, D_PICK_HERO, inflict_decider(T, h), seats, 0)
        return
    pop(s, b)
    if ch < A_HERO:  # an ally figure takes it (rulebook: Ally Cards and Figures)
        damage_ally(s, b, T, ch - A_TARGET - T_ALLY0, n)
        return
    target = (hero_origin(inflict_decider(T, h)) + ch - A_HERO) % T.cfg[CFG_N_HEROES]
    push(s, b, F_HERO_DAMAGE, target, n, 0, target, -1)


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
    for k in range(NEMESES):
        if not nem_in_play(s, b, k):
            continue
        best = 1
        best_n = 1 << 30
        for p in range(1, T.cfg[CFG_N_PANELS] + 1):
            n = enemies_in_panel(s, b, T, p)
            if n <= best_n:  # ties go to the higher-numbered panel
                best, best_n = p, n
        s[b, NEM_POS + k] = T.scheme_space[best]
    for k in range(NEMESES - 1, -1, -1):
        if nem_in_play(s, b, k):
            push_prog(s, b, T, T.nemesis[s[b, NEM_CARD + k], NM_SETUP_PROG],
                      s[b, NEM_OWNER + k], T_NEM0 + k)


# --- content ops ------------------------------------------------------------------------

@njit(cache=True)
def seats_within(s, b, T, h, rng):
    """Bitmask of heroes on the board within ``rng`` spaces of hero ``h`` (0: only ``h``)."""
    mask = 0
    here = s[b, HLOC + h]
    if here < 0:
        return 0
    for o in range(T.cfg[CFG_N_HEROES]):
        loc = s[b, HLOC + o]
        if loc >= 0 and (o == h or (rng > 0 and T.dist[here, loc] <= rng)):
            mask |= 1 << o
    return mask


@njit(cache=True)
def heroes_for(s, b, T, who, h):
    """Bitmask of the heroes a villain-side op with ``who`` affects."""
    if who == WHO_ACTIVE:
        return (1 << h) if on_board(s, b, h) else 0
    mask = 0
    for o in range(T.cfg[CFG_N_HEROES]):
        loc = s[b, HLOC + o]
        if loc < 0:
            continue
        if who == WHO_EACH or (s[b, VIL_LOC] >= 0 and T.dist[loc, s[b, VIL_LOC]] <= 1):
            mask |= 1 << o
    return mask


@njit(cache=True)
def any_pick_target(s, b, T, h, kind, rng):
    for t in range(N_TARGETS):
        if pick_target_ok(s, b, T, h, t, kind, rng):
            return True
    return False


@njit(cache=True)
def any_space(s, b, T, h, kind, rng):
    """Is there a space within ``rng`` for a free Attack (kind 1), Solve (2) or rescue (3)?"""
    here = s[b, HLOC + h]
    if here < 0:
        return False
    for k in range(T.cfg[CFG_N_SPACES] if rng > 1 or kind == 3 else 7):
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
    for sp in range(T.cfg[CFG_N_SPACES]):
        if kind == 1 and ally_can_attack_at(s, b, T, h, sp, rng):
            return True
        if kind == 2 and ally_can_solve_at(s, b, T, h, sp, rng):
            return True
    return False


@njit(cache=True)
def enemy_pos(s, b, T, t):
    """Map space of an enemy card that has a figure (lackey, issue enemy, villain on map)."""
    if t == T_VILLAIN:
        return s[b, VIL_LOC] if s[b, VIL_IN_PANEL] == 0 else -1
    if t >= 0 and t < T_MINION and is_enemy_card(s, b, T, t):
        return target_space(s, b, T, t)
    return -1


@njit(cache=True)
def set_enemy_pos(s, b, t, sp):
    if t == T_VILLAIN:
        s[b, VIL_LOC] = sp
    elif t > T_VILLAIN:
        s[b, NEM_POS + t - T_NEM0] = sp
    elif t < T_I0:
        s[b, VPOS + t] = sp
    else:
        s[b, IPOS + t - T_I0] = sp


@njit(cache=True)
def op_choice_effect(s, b, T, op, a, bb, h):
    """Hero effects that ask a question first (targets, spaces, heroes)."""
    if not on_board(s, b, h):
        pop(s, b)
        return
    ch = take_choice(s, b)
    if ch < 0:
        if op == OP_HEAL:
            seats = seats_within(s, b, T, h, bb)
            if seats == 0:
                pop(s, b)
            else:
                park(s, b, D_PICK_HERO, h, seats, 0)
        elif op == OP_DAMAGE_ENEMY or op == OP_JUSTICE or op == OP_EXHAUST_THREAT:
            kind = 0 if op == OP_DAMAGE_ENEMY else (1 if op == OP_JUSTICE else 2)
            rng = bb if op != OP_EXHAUST_THREAT else 0
            if any_pick_target(s, b, T, h, kind, rng):
                park(s, b, D_PICK_TARGET, h, kind, rng)
            else:
                pop(s, b)
        elif op == OP_ATTACK or op == OP_SOLVE:
            rng = max(1, bb)
            if any_space(s, b, T, h, 1 if op == OP_ATTACK else 2, rng):
                park(s, b, D_ATTACK_SPACE if op == OP_ATTACK else D_SOLVE_SPACE, h, rng, 0)
            else:
                pop(s, b)
        elif op == OP_PLACE:
            park(s, b, D_PLACE, h, a, 0)
        elif op == OP_RESCUE:
            if any_space(s, b, T, h, 3, a):
                park(s, b, D_RESCUE, h, a, 0)
            else:
                pop(s, b)
        elif op == OP_ALLY_MOVE:
            if s[b, ALLY_LOC + h] >= 0:
                park(s, b, D_PLACE, h, a, 1)
            else:
                pop(s, b)
        elif op == OP_ALLY_ATTACK or op == OP_ALLY_SOLVE:
            kind = 1 if op == OP_ALLY_ATTACK else 2
            value = T.ally[h, AL_ATTACK if kind == 1 else AL_SOLVE]
            if value > 0 and any_ally_space(s, b, T, h, kind, a):
                park(s, b, D_ATTACK_SPACE if kind == 1 else D_SOLVE_SPACE, h, a, 1)
            else:
                pop(s, b)
        return
    pop(s, b)
    if op == OP_HEAL:
        o = (h + ch - A_HERO) % T.cfg[CFG_N_HEROES]
        s[b, HDMG + o] = max(0, s[b, HDMG + o] - a)
    elif op == OP_DAMAGE_ENEMY:
        damage_enemy_card(s, b, T, ch - A_TARGET, a, h)
    elif op == OP_JUSTICE:
        push_prog(s, b, T, place_justice(s, b, T, ch - A_TARGET, a, h), h, -1)
    elif op == OP_EXHAUST_THREAT:
        t = ch - A_TARGET
        if t == T_VILLAIN:
            s[b, VIL_EXH] = 1
        elif t > T_VILLAIN:
            s[b, NEM_EXH + t - T_NEM0] = 1
        elif t < T_I0:
            s[b, VEXH + t] = 1
        else:
            s[b, IEXH + t - T_I0] = 1
    elif op == OP_ATTACK:
        push(s, b, F_ROLL_BEGIN, 1, ch - A_ATTACK, a, h, -1)
    elif op == OP_SOLVE:
        push(s, b, F_ROLL_BEGIN, 2, ch - A_SOLVE, a, h, -1)
    elif op == OP_PLACE:
        move_hero_to(s, b, T, h, ch - A_SPACE)
    elif op == OP_RESCUE:
        sp = ch - A_SPACE
        if bystander_at(s, b, T, sp):
            rescue_on_map(s, b, T, h, sp)
        else:
            rescue_captured(s, b, T, h, panel_of_space(T, sp), 1)
    elif op == OP_ALLY_MOVE:
        move_ally_to(s, b, T, h, ch - A_SPACE)
    elif op == OP_ALLY_ATTACK:
        push(s, b, F_ALLY_STRIKE, 1, ch - A_ATTACK, 0, h, -1)
    elif op == OP_ALLY_SOLVE:
        push(s, b, F_ALLY_STRIKE, 2, ch - A_SOLVE, 0, h, -1)


@njit(cache=True)
def move_hero_away(s, b, T, h, origin, steps):
    """Forced movement (rulebook: Forced Movement): each step must end farther from
    ``origin``; the farthest such step is taken (lowest index on ties), else the hero stops.
    """
    for _ in range(steps):
        here = s[b, HLOC + h]
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
def push_hero_damage(s, b, mask, n, op, nh):
    """Push one damage (or discard-or-damage) entry per seat in ``mask``, seat order."""
    for o in range(nh - 1, -1, -1):
        if (mask >> o) & 1:
            push(s, b, op, o, n, 0, o, -1)


@njit(cache=True)
def op_content(s, b, T, op, a, bb, c, h, src):
    """Run one content op (content/ops.py) for hero ``h`` with source card ``src``."""
    nh = T.cfg[CFG_N_HEROES]
    if op in (OP_HEAL, OP_DAMAGE_ENEMY, OP_JUSTICE, OP_EXHAUST_THREAT, OP_ATTACK, OP_SOLVE,
              OP_PLACE, OP_RESCUE, OP_ALLY_MOVE, OP_ALLY_ATTACK, OP_ALLY_SOLVE):
        op_choice_effect(s, b, T, op, a, bb, h)
        return
    pop(s, b)
    if op == OP_GAIN_FOCUS:
        gain_focus(s, b, T, h, a)
    elif op == OP_DRAW:
        if on_board(s, b, h):
            for _ in range(a):
                hero_draw(s, b, h)
    elif op == OP_GAIN_CLUE:
        for _ in range(a):
            gain_clue(s, b, T, h)
    elif op == OP_MOVE:
        push(s, b, F_MOVE, a, 0, 0, h, -1)
    elif op == OP_PLACE_MINIONS:
        short = False
        if a > 0 and bb == PANEL_ALL:
            for k in range(1, T.cfg[CFG_N_PANELS] + 1):
                short = place_minions(s, b, T, a, k) or short
        else:
            panel = villain_panel(s, b, T) if bb == PANEL_VILLAIN else bb
            short = place_minions(s, b, T, a, panel)
        if short:
            effect_crisis(s, b)
    elif op == OP_PLACE_BYSTANDERS:
        short = False
        for _ in range(a):
            if bb > 0:  # figure: own, compiled to the card's sby row + 1
                place_own_figure(s, b, T, bb - 1, h)
            else:
                short = place_bystander(s, b, T, h) or short
        if short:
            effect_crisis(s, b)
    elif op == OP_CAPTURE:
        capture_nearest_villain(s, b, T, a, h)
    elif op == OP_DEFEAT_BYSTANDERS:
        if defeat_bystanders(s, b, T, a, h):
            effect_crisis(s, b)
    elif op == OP_SCHEME:
        for _ in range(a):
            push(s, b, F_SCHEME_ONCE, 0, 0, 0, h, T_VILLAIN)
    elif op == OP_ADVANCE:
        for _ in range(a):
            advance_villain(s, b, T)
    elif op == OP_VILLAIN_INFLICT:
        if on_board(s, b, h):
            push(s, b, F_HERO_DAMAGE, h, enemy_inflict(s, b, T, T_VILLAIN), 0, h, -1)
    elif op == OP_DAMAGE_HERO:
        push_hero_damage(s, b, heroes_for(s, b, T, bb, h), a, F_HERO_DAMAGE, nh)
    elif op == OP_DISCARD_OR_DAMAGE:
        push_hero_damage(s, b, heroes_for(s, b, T, bb, h), a, F_DISCARD_OR_DAMAGE, nh)
    elif op == OP_CRISIS:
        effect_crisis(s, b)
    elif op == OP_COUNTER_ADD:
        add_counter(s, b, T, a, bb)
    elif op == OP_HEAL_VILLAIN:
        s[b, VIL_DAMAGE] = max(0, s[b, VIL_DAMAGE] - a)
    elif op == OP_VILLAIN_MOVE or op == OP_ENEMY_MOVE:
        t = T_VILLAIN if op == OP_VILLAIN_MOVE else src
        pos = enemy_pos(s, b, T, t)
        if pos >= 0:
            set_enemy_pos(s, b, t, move_enemy(s, b, T, pos, a, t == T_VILLAIN, bb, h))
    elif op == OP_MOVE_AWAY:
        origin = s[b, VIL_LOC] if c == AWAY_FROM_VILLAIN else enemy_pos(s, b, T, src)
        if origin >= 0:
            mask = heroes_for(s, b, T, bb, h)
            for o in range(nh):
                if (mask >> o) & 1:
                    move_hero_away(s, b, T, o, origin, a)
    elif op == OP_INFLICT:
        pos = enemy_pos(s, b, T, src)
        if src == T_VILLAIN:
            pos = s[b, VIL_LOC]
        if pos >= 0:
            seats = 0
            for o in range(nh):
                loc = s[b, HLOC + o]
                if loc >= 0 and T.dist[pos, loc] <= 1:
                    seats |= 1 << o
                loc = s[b, ALLY_LOC + o]  # enemies treat ally figures as heroes
                if loc >= 0 and T.dist[pos, loc] <= 1:
                    seats |= 1 << (ALLY_BIT + o)
            n = enemy_inflict(s, b, T, src) + a
            if seats != 0 and n > 0:
                push(s, b, F_INFLICT, n, seats, 0, h if h >= 0 else 0, src)
    elif op == OP_INFLICT_OWNER:
        n = enemy_inflict(s, b, T, src) + a
        if on_board(s, b, h) and n > 0:
            push(s, b, F_HERO_DAMAGE, h, n, 0, h, src)
    elif op == OP_FORTIFY:
        s[b, DEF_BONUS + bb] += a
    elif op == OP_BOARD_MECH:
        if on_board(s, b, h) and hero_form(s, b, T, h) == FORM_PILOT:
            turn_focused(s, b, T, h)
            if a > 0:
                # the mech lands within range and the pilot climbs in there: a "move to"
                push(s, b, OP_PLACE, a, 0, 0, h, src)
    elif op == OP_EJECT:
        if on_board(s, b, h):
            leave_mech(s, b, T, h)
    elif op == OP_IF:
        if count_value(s, b, T, a, h) < bb:
            s[b, SP] -= c


# --- the interpreter loop ---------------------------------------------------------------

@njit(cache=True)
def step_op(s, b, T):
    """Execute (part of) the top stack entry."""
    op = top(s, b, 0)
    a = top(s, b, 1)
    bb = top(s, b, 2)
    c = top(s, b, 3)
    h = top(s, b, 4)
    src = top(s, b, 5)
    if 0 < op < N_CONTENT_OPS:
        op_content(s, b, T, op, a, bb, c, h, src)
    elif op == F_ROUND:
        op_round(s, b, T)
    elif op == F_VDRAW:
        op_vdraw(s, b, T, a)
    elif op == F_PLOY:
        op_ploy(s, b, T, a, bb, h)
    elif op == F_VCARD_END:
        op_vcard_end(s, b, T, a)
    elif op == F_HERO_TURN:
        op_hero_turn(s, b, T)
    elif op == F_MAIN:
        op_main(s, b, T)
    elif op == F_AFTER_THREAT:
        op_after_threat(s, b, T)
    elif op == F_THREAT:
        op_threat(s, b, T, a)
    elif op == F_ACTIVATE:
        op_activate(s, b, T, a, h)
    elif op == F_HERO_TURN_END:
        op_hero_turn_end(s, b, T)
    elif op == F_ISSUE_TURN:
        op_issue_turn(s, b, T)
    elif op == F_ICARD_END:
        op_icard_end(s, b, T, a, h)
    elif op == F_RETURN:
        op_return(s, b, T)
    elif op == F_MULLIGAN:
        op_mulligan(s, b, T, h)
    elif op == F_MOVE:
        op_move(s, b, T, a, h)
    elif op == F_ROLL_BEGIN:
        op_roll_begin(s, b, T, a, bb, c, h)
    elif op == F_CLUE_DICE:
        op_clue_dice(s, b, T, h)
    elif op == F_ROLL:
        op_roll(s, b, T)
    elif op == F_SHOWDOWN:
        op_showdown(s, b, T, h)
    elif op == F_FOCUS:
        op_focus(s, b, h)
    elif op == F_ASSIGN:
        op_assign(s, b, T, h)
    elif op == F_ROLL_END:
        op_roll_end(s, b, T, h)
    elif op == F_POST_SOLVE:
        op_post_solve(s, b, T, h)
    elif op == F_HERO_DAMAGE:
        op_hero_damage(s, b, T, a, bb)
    elif op == F_DISCARD_OR_DAMAGE:
        op_discard_or_damage(s, b, a, bb)
    elif op == F_CRISIS:
        op_crisis(s, b, T)
    elif op == F_CRISIS_END:
        pop(s, b)
        s[b, CRISIS_DEPTH] = 0
    elif op == F_PLAY_END:
        pop(s, b)
        base = HCLOC + h * HERO_DECK + a
        if s[b, base] == L_PENDING:
            s[b, base] = L_DISCARD
    elif op == F_SCHEME_ONCE:
        op_scheme_once(s, b, T, h)
    elif op == F_INFLICT:
        op_inflict_choice(s, b, T, a, bb, h)
    elif op == F_NEMESIS_SETUP:
        op_nemesis_setup(s, b, T)
    elif op == F_ALLY_STRIKE:
        op_ally_strike(s, b, T, a, bb, h)
    elif op == F_EFFECT_BEGIN:
        op_effect_begin(s, b, a)
    elif op == F_EFFECT_END:
        pop(s, b)
        s[b, CRISIS_LATCH] = a
        push_owed_threat_phases(s, b, T)
    else:
        fail(s, b, ERR_UNKNOWN_OP)


@njit(cache=True)
def push_special_bystander_effects(s, b, T):
    """Push the special Bystander card effects queued by rescues, captures and defeats
    (core/bystanders.py), first queued on top, so they resolve in order before the op that
    was next (engine.md #41). Called only between ops, never while a decision is
    pending."""
    n = s[b, SBY_QN]
    s[b, SBY_QN] = 0
    for k in range(n - 1, -1, -1):
        push_prog(s, b, T, s[b, SBY_QUEUE + 2 * k], s[b, SBY_QUEUE + 2 * k + 1], -1)


@njit(cache=True)
def run(s, b, T, mask):
    """Run game ``b`` until a hero must decide or the game ends.

    Reads and writes row ``b`` of the state; writes the legal mask of the pending
    decision into ``mask`` (all zeros once the game is over or stopped by an engine error,
    core/failure.py). Runs at most STEP_BUDGET ops: a longer run is a loop and stops the
    game with ERR_STEP_BUDGET.
    """
    for _ in range(STEP_BUDGET):
        if s[b, ERROR] != 0:
            mask[:] = 0
            return
        if s[b, OUTCOME] != OUT_ONGOING:
            s[b, DEC_KIND] = D_NONE
            mask[:] = 0
            return
        if s[b, SBY_QN] > 0 and s[b, DEC_KIND] == D_NONE:
            push_special_bystander_effects(s, b, T)
        if s[b, DEC_KIND] != D_NONE and s[b, CHOICE] < 0:
            n, last = legal_mask(s, b, T, mask)
            if n == 0:
                fail(s, b, ERR_NO_LEGAL_ACTION)
                continue
            if n > 1:
                return
            s[b, CHOICE] = last
        if s[b, SP] <= 0:
            fail(s, b, ERR_STACK_EMPTY)
            continue
        step_op(s, b, T)
    fail(s, b, ERR_STEP_BUDGET)
    mask[:] = 0


@njit(cache=True)
def apply_action(s, b, T, action, mask):
    """Answer game ``b``'s pending decision with ``action`` and run to the next decision.

    ``mask`` must hold the current legal mask (as left by ``run``). Returns 0 when the
    action was applied, 1 when it is illegal (nothing changes), 2 when the game is over,
    3 when the game stopped on an engine error (now or before; ``error_*`` fields say what
    and where, the mask is all zeros).
    """
    if s[b, ERROR] != 0:
        return 3
    if s[b, OUTCOME] != OUT_ONGOING:
        return 2
    if action < 0 or action >= N_ACTIONS or mask[action] == 0:
        return 1
    kind = s[b, DEC_KIND]
    seat = s[b, DEC_HERO]
    s[b, CHOICE] = action
    s[b, DECISIONS] += 1
    run(s, b, T, mask)
    if s[b, ERROR] != 0:
        s[b, ERROR_DEC] = kind
        s[b, ERROR_SEAT] = seat
        s[b, ERROR_ACTION] = action
        return 3
    if s[b, OUTCOME] == OUT_ONGOING and s[b, DECISIONS] >= T.cfg[CFG_MAX_DECISIONS]:
        end_game(s, b, OUT_TRUNCATED, LOSS_CAP_DECISIONS)
        s[b, DEC_KIND] = D_NONE
        mask[:] = 0
    return 0
