"""Check a state from outside before any kernel reads it.

The kernels index arrays with state values and trust them (no bounds checks in the fast
build), so a corrupted state could read or write outside its row. ``first_problem``
finds, in this order:

1. a field outside its legal range, as declared next to the field in ``layout.RANGES``
   (per-scenario limits such as the number of heroes or map spaces resolved by
   ``scenario_limits``; for fields with a ``live`` count only the entries in use);
2. a seat past the scenario's heroes whose per-seat fields differ from a new game's (a
   state saved from a game with more heroes);
3. interpreter stack entries in use that the engine could not have pushed: an unknown op,
   a content op whose arguments match no row of the scenario's programs, a flow op whose
   arguments are out of their range (``FLOW_ARGS``); bystander queue entries naming no
   program or seat; a pending decision that the op on top of the stack does not ask
   (``DECISION_OPS``); a running game with an empty stack; a game over with a pending
   decision; an all-zero random generator.

``validate_state`` raises ``StateError`` naming the field, the value and the legal range,
and with ``invariants=True`` (``Game.from_bytes``) also runs ``core/invariants.py``, so a
loaded state is both safe for the kernels and consistent.
"""

from __future__ import annotations

import numpy as np

from hon_env.core import stack as I
from hon_env.core.draft_checks import draft_problems, draft_rows
from hon_env.errors import StateError
from hon_env.spec import layout as L
from hon_env.spec import ops
from hon_env.spec import tables as TB

# Flow ops: legal (lo, hi) of arguments a, b, c; None = not read by the op. Symbols as in
# layout.RANGES ("heroes": a seat, "spaces": a map space).
_SEAT = (0, "heroes")
_AMOUNT = (-L.BIG, L.BIG)
_SPACE = (0, "spaces")
FLOW_ARGS: dict[int, tuple] = {
    I.F_ROUND: (None, None, None),
    I.F_VDRAW: (_SEAT, None, None),
    I.F_PLOY: ((0, TB.VCARDS), (0, TB.MAX_PLOYS), None),
    I.F_VCARD_END: ((0, TB.VCARDS), None, None),
    I.F_HERO_TURN: (None, None, None),
    I.F_MAIN: (None, None, None),
    I.F_AFTER_THREAT: (None, None, None),
    I.F_THREAT: (_SEAT, None, None),
    I.F_ACTIVATE: ((0, L.N_TARGETS), None, None),
    I.F_HERO_TURN_END: (None, None, None),
    I.F_ISSUE_TURN: (None, None, None),
    I.F_ICARD_END: ((0, TB.IDECK), None, None),
    I.F_RETURN: (None, None, None),
    I.F_MULLIGAN: (None, None, None),
    I.F_MOVE: ((0, L.BIG), None, None),
    I.F_ROLL_BEGIN: ((1, 3), _SPACE, _AMOUNT),
    I.F_CLUE_DICE: (None, None, None),
    I.F_ROLL: (None, None, None),
    I.F_SHOWDOWN: (None, None, None),
    I.F_FOCUS: (None, None, None),
    I.F_ASSIGN: (None, None, None),
    I.F_ROLL_END: (None, None, None),
    I.F_POST_SOLVE: (None, None, None),
    I.F_HERO_DAMAGE: (_SEAT, _AMOUNT, (0, 2)),
    I.F_DISCARD_OR_DAMAGE: (_SEAT, _AMOUNT, None),
    I.F_CRISIS: (None, None, None),
    I.F_CRISIS_END: (None, None, None),
    I.F_PLAY_END: ((0, TB.HERO_DECK), None, None),
    I.F_SCHEME_ONCE: ((0, TB.VILLAINS), None, None),
    I.F_INFLICT: (_AMOUNT, (0, 1 << (L.ALLY_BIT + TB.MAX_HEROES)), None),
    I.F_NEMESIS_SETUP: (None, None, None),
    I.F_ALLY_STRIKE: ((1, 3), _SPACE, None),
    I.F_EFFECT_BEGIN: ((0, L.STACK_DEPTH), None, None),
    I.F_EFFECT_END: ((0, L.LATCH_SPENT + 1), None, None),
    I.F_ENEMY_MOVE: ((0, L.BIG), (0, 4 * (TB.MAX_SPACES + 1)), _SPACE),
    I.F_FACE: (None, None, None),
}
# Content op entries the interpreter pushes itself, besides program rows: a hero's Place,
# Attack and Solve actions (interp.op_main); OP_PLACE with a range comes from board_mech.
_SYNTHETIC_ROWS = ((ops.OP_PLACE, 0, 0, 0), (ops.OP_ATTACK, 0, 1, 0), (ops.OP_SOLVE, 0, 1, 0))

# The ops that park each decision kind (interp: park calls), i.e. what must be on top of
# the stack while that decision is pending.
DECISION_OPS: dict[int, tuple[int, ...]] = {
    L.D_MULLIGAN: (I.F_MULLIGAN,),
    L.D_MAIN: (I.F_MAIN,),
    L.D_MOVE: (I.F_MOVE,),
    L.D_PLACE: (ops.OP_PLACE, ops.OP_ALLY_MOVE),
    L.D_CUNNING: (I.F_PLOY,),
    L.D_CLUE_DICE: (I.F_CLUE_DICE,),
    L.D_FOCUS_SPEND: (I.F_FOCUS,),
    L.D_ASSIGN: (I.F_ASSIGN,),
    L.D_DAMAGE: (I.F_HERO_DAMAGE,),
    L.D_DISCARD_OR_DAMAGE: (I.F_DISCARD_OR_DAMAGE,),
    L.D_PICK_HERO: (ops.OP_HEAL, I.F_INFLICT),
    L.D_PICK_TARGET: (ops.OP_DAMAGE_ENEMY, ops.OP_JUSTICE, ops.OP_EXHAUST_THREAT),
    L.D_ATTACK_SPACE: (ops.OP_ATTACK, ops.OP_ALLY_ATTACK),
    L.D_SOLVE_SPACE: (ops.OP_SOLVE, ops.OP_ALLY_SOLVE),
    L.D_RESCUE: (ops.OP_RESCUE,),
    L.D_VPLAY: (I.F_VDRAW, I.F_SHOWDOWN),
    L.D_ENEMY_TARGET: (I.F_ENEMY_MOVE,),
    L.D_ENEMY_STEP: (I.F_ENEMY_MOVE,),
    L.D_FACE: (I.F_FACE,),
}
# Decisions the villain agent may own (Mastermind variant), with the cfg switch that hands
# each one to it (D_VPLAY is always the villain's).
_VILLAIN_DECISIONS = {L.D_VPLAY: None, L.D_CUNNING: TB.CFG_VCUNNING,
                      L.D_PICK_HERO: TB.CFG_VINFLICT, L.D_ENEMY_TARGET: TB.CFG_VTIES,
                      L.D_ENEMY_STEP: TB.CFG_VTIES}


def scenario_limits(T: np.record) -> dict[str, int]:
    """The per-scenario bounds that ``layout.RANGES`` names by string."""
    nh = int(T.cfg[TB.CFG_N_HEROES])
    return {"heroes": nh, "spaces": int(T.cfg[TB.CFG_N_SPACES]),
            "nemesis_pool": int(T.cfg[TB.CFG_NEMESIS_POOL]),
            "deciders": L.VILLAIN_SEAT + 1 if T.cfg[TB.CFG_VHAND] > 0 else nh,
            "tables": draft_rows(T)}  # a state of one scenario plays row 0 (a draft: any)


def _bound(v: int | str, limits: dict[str, int]) -> int:
    return limits[v] if isinstance(v, str) else int(v)


def _range_text(lo: int, hi: int) -> str:
    return f"[{lo}, {hi - 1}]"


def _fresh_row(T: np.record) -> np.ndarray:
    """Row of a new game of these tables (what unused seats must look like)."""
    from hon_env.core.kernels import GAME_SETUP, game_run  # kernels only when a state is checked

    state = np.zeros((1, L.STATE_LEN), np.int32)
    game_run(state, T.base.view(np.ndarray), GAME_SETUP, np.int64(0),
             np.zeros(L.N_ACTIONS, np.int8))
    return state[0]


def _field_problem(row: np.ndarray, name: str, limits: dict[str, int]) -> str | None:
    """The first value of field ``name`` outside its declared range, described."""
    lo_s, hi_s, live, _ = L.RANGES[name]
    start, shape = L.FIELDS[name]
    size = int(np.prod(shape)) if shape else 1
    values = row[start:start + size].astype(np.int64)
    if live is not None:
        if name in ("stack", "sby_queue"):
            return None  # entries are checked one by one in _stack_problem
        values = values[:int(row[L.FIELDS[live][0]])]
    lo, hi = _bound(lo_s, limits), _bound(hi_s, limits)
    bad = np.flatnonzero((values < lo) | (values >= hi))
    if not bad.size:
        return None
    k = int(bad[0])
    where = f"{name}{list(np.unravel_index(k, shape)) if shape else ''}"
    return (f"field {where} = {int(values[k])} is outside its legal range "
            f"{_range_text(lo, hi)}")


def _seat_problem(row: np.ndarray, T: np.record) -> str | None:
    nh = int(T.cfg[TB.CFG_N_HEROES])
    if nh >= TB.MAX_HEROES:
        return None
    fresh = _fresh_row(T)
    for name, (_, _, _, seat) in L.RANGES.items():
        if not seat:
            continue
        start, shape = L.FIELDS[name]
        per = int(np.prod(shape[1:])) if len(shape) > 1 else 1
        got = row[start + nh * per:start + TB.MAX_HEROES * per]
        want = fresh[start + nh * per:start + TB.MAX_HEROES * per]
        if not np.array_equal(got, want):
            k = int(np.flatnonzero(got != want)[0])
            return (f"field {name}[{nh + k // per}] = {int(got[k])}, but the scenario has "
                    f"{nh} hero(es): seats past the last must hold {int(want[k])} "
                    f"(a state from a game with more heroes?)")
    return None


def _program_rows(T: np.record) -> set[tuple[int, int, int, int]]:
    rows = {tuple(int(x) for x in r) for r in T.prog.reshape(-1, 4) if r[0] != 0}
    rows.update(_SYNTHETIC_ROWS)
    rows.update((ops.OP_PLACE, a, 0, 0) for (op, a, _, _) in list(rows) if op == ops.OP_BOARD_MECH)
    return rows


def _stack_problem(row: np.ndarray, T: np.record, limits: dict[str, int],
                   programs_only: bool) -> str | None:
    nh = limits["heroes"]
    sp = int(row[L.SP])
    programs = None
    for k in range(sp):
        op, a, b, c, h, src = (int(x) for x in row[L.STACK + k * L.STACK_W:
                                                   L.STACK + (k + 1) * L.STACK_W])
        entry = f"stack entry {k} (op {op}, args {a}, {b}, {c}, hero {h}, source {src})"
        if not -1 <= h < nh:
            return f"{entry}: hero {h} is outside [-1, {nh - 1}]"
        if not -1 <= src < L.N_TARGETS:
            return f"{entry}: source {src} is outside [-1, {L.N_TARGETS - 1}]"
        if op in FLOW_ARGS:
            for name, v, spec in zip("abc", (a, b, c), FLOW_ARGS[op], strict=True):
                if spec is None:
                    continue
                lo, hi = _bound(spec[0], limits), _bound(spec[1], limits)
                if not lo <= v < hi:
                    return f"{entry}: argument {name} = {v} is outside {_range_text(lo, hi)}"
        elif 0 < op < ops.N_CONTENT_OPS:
            if not programs_only:
                continue
            programs = programs if programs is not None else _program_rows(T)
            if (op, a, b, c) not in programs:
                return f"{entry}: no program of this scenario has this op and arguments"
        else:
            return f"{entry}: {op} is not an op code"
    n_progs = T.prog.shape[0]
    for k in range(int(row[L.SBY_QN])):
        pid, h = int(row[L.SBY_QUEUE + 2 * k]), int(row[L.SBY_QUEUE + 2 * k + 1])
        if not (0 <= pid < n_progs and T.prog[pid, 0, 0] != 0):
            return f"field sby_queue[{k}] names program {pid}, which this scenario lacks"
        if not 0 <= h < nh:
            return f"field sby_queue[{k}] names seat {h}, outside [0, {nh - 1}]"
    return None


def _villain_problem(row: np.ndarray, T: np.record) -> str | None:
    """Who owns the pending decision, and the villain's hand (Mastermind variant)."""
    kind, who = int(row[L.DEC_KIND]), int(row[L.DEC_HERO])
    nh, cap = int(T.cfg[TB.CFG_N_HEROES]), int(T.cfg[TB.CFG_VHAND])
    if kind != L.D_NONE:
        if who >= nh and who != L.VILLAIN_SEAT:
            return f"field dec_hero = {who}: a seat past the {nh} heroes that is not the villain"
        switch = _VILLAIN_DECISIONS.get(kind, -1)
        villain_may = kind in _VILLAIN_DECISIONS and (switch is None or T.cfg[switch] != 0)
        if who == L.VILLAIN_SEAT and not villain_may:
            return (f"field dec_hero = {who} (the villain) owns a {L.DECISION_NAMES[kind]} "
                    "decision, which this scenario gives to a hero")
        if kind in (L.D_VPLAY, L.D_ENEMY_TARGET, L.D_ENEMY_STEP) and who != L.VILLAIN_SEAT:
            return (f"field dec_hero = {who}: a {L.DECISION_NAMES[kind]} decision belongs to "
                    "the villain")
    held = int((row[L.VLOC:L.VLOC + TB.VDECK] == L.L_HAND).sum())
    if held > cap:
        return (f"field vloc: the villain holds {held} cards in hand, this scenario allows "
                f"{cap}")
    return None


def _two_fronts_problem(row: np.ndarray, T: np.record) -> str | None:
    """A one-villain game keeps the second villain's fields as a new game leaves them."""
    if T.cfg[TB.CFG_N_VILLAINS] >= 2:
        return None
    if int(row[L.DEC_KIND]) == L.D_FACE:
        return "field dec_kind = face: this scenario has one villain, no facing to choose"
    for name in ("hface", "vil_out"):
        start, shape = L.FIELDS[name]
        if row[start:start + shape[0]].any():
            return f"field {name}: this scenario has one villain, so it must be all 0"
    second = row[L.VLOC + TB.VDECK:L.VLOC + TB.VCARDS]
    if (second != L.L_REMOVED).any():
        return (f"field vloc[{TB.VDECK + int(np.flatnonzero(second != L.L_REMOVED)[0])}]: "
                "this scenario has one villain, its second villain's cards are removed")
    return None


def _flow_problem(row: np.ndarray) -> str | None:
    kind, sp = int(row[L.DEC_KIND]), int(row[L.SP])
    if row[L.OUTCOME] != L.OUT_ONGOING:
        if kind != L.D_NONE:
            return f"field dec_kind = {kind}: a finished game has no pending decision (0)"
        return None
    if sp == 0:
        return "field sp = 0: a running game needs an op on its interpreter stack"
    if kind != L.D_NONE:
        if kind not in DECISION_OPS:  # the draft's decision: only while drafting runs
            return (f"field dec_kind = {kind} ({L.DECISION_NAMES[kind]}): that decision is "
                    "pending only during the draft (drafting = 1)")
        op = int(row[L.STACK + (sp - 1) * L.STACK_W])
        if op not in DECISION_OPS[kind]:
            return (f"field dec_kind = {kind} ({L.DECISION_NAMES[kind]}) does not match the "
                    f"op on top of the stack ({op}; that decision needs one of "
                    f"{list(DECISION_OPS[kind])})")
    return None


def first_problem(row: np.ndarray, T: np.record, *, programs_only: bool = True) -> str | None:
    """The first reason the kernels must not run state ``row`` (``[STATE_LEN]`` int32) with
    tables ``T``, or None. Reads nothing out of bounds itself. With ``programs_only=False``
    content ops on the stack may carry any arguments (positions built by hand push their
    own effects, see ``Game.refresh``)."""
    limits = scenario_limits(T)
    if row[L.DRAFTING] != 0:  # no game set up yet: only the draft's fields may be set
        for name in L.FIELDS:
            problem = _field_problem(row, name, limits) if name.startswith(
                ("dec_", "draft")) else None
            if problem:
                return problem
        problems = draft_problems(row, T)
        return f"draft: {problems[0]}" if problems else None
    for name in L.FIELDS:
        if L.RANGES[name][2] is None:
            problem = _field_problem(row, name, limits)
            if problem:
                return problem
    for name in L.FIELDS:
        if L.RANGES[name][2] is not None:
            problem = _field_problem(row, name, limits)
            if problem:
                return problem
    if not row[L.RNG:L.RNG + 4].any():
        return "field rng = [0, 0, 0, 0]: the random generator needs a non-zero word"
    return (_seat_problem(row, T) or _villain_problem(row, T) or _two_fronts_problem(row, T)
            or _stack_problem(row, T, limits, programs_only) or _flow_problem(row))


def validate_state(state: np.ndarray, T: np.record, *, invariants: bool = True) -> None:
    """Raise ``StateError`` unless every row of ``state`` (``[B, STATE_LEN]`` int32) is safe
    for the kernels (``first_problem``) and, with ``invariants``, consistent
    (``core/invariants.py``). Without ``invariants`` (``Game.refresh``: a position built
    by hand) content ops on the stack are not matched against the scenario's programs
    either."""
    if state.dtype != np.int32 or state.ndim != 2 or state.shape[1] != L.STATE_LEN:
        raise StateError(f"a state is an int32 array of shape [B, {L.STATE_LEN}], got "
                         f"{state.dtype} {state.shape}")
    for i, row in enumerate(state):
        problem = first_problem(row, T, programs_only=invariants)
        if problem:
            field = problem.split()[1].split("[")[0] if problem.startswith("field") else "stack"
            raise StateError(f"invalid state (game {i}): {problem}", field=field)
    if invariants:
        from hon_env.core.invariants import violations

        found = violations(state, T)
        if found:
            raise StateError("inconsistent state: " + "; ".join(found[:5]))
