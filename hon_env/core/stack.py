"""The interpreter's stack (``core/interp.py``): the flow op codes, the primitives that
push, pop and park entries, and the rule helpers that push ops (a hero's defeat, a
wrecked mech, owed threat phases, the crisis latch, counted values).

Each game owns a stack of entries ``(op, a, b, c, hero, src)``: content ops 1..37
(``spec/ops.py``) and the flow ops below, from 64.
"""

from __future__ import annotations

from numba import int32, int64, njit, void

from hon_env.core.effects import bystanders_on_map, leave_mech
from hon_env.core.facing import vil_col
from hon_env.core.failure import fail
from hon_env.core.fame import credit
from hon_env.core.geometry import captives
from hon_env.core.queries import hero_form, villain_panel
from hon_env.core.zones import threat_count
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


@njit(int64(_STATE, int64, int64, int64, int64, int64), cache=True)
def answer_or_park(s, b, kind, h, a, bb):
    """How an op asks a question: the stored answer (cleared), or -1 after parking
    decision ``kind`` for hero ``h`` with context ``a``/``bb``, when the op runs for the
    first time; the op returns then and runs again once the answer is stored."""
    ch = take_choice(s, b)
    if ch < 0:
        park(s, b, kind, h, a, bb)
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
