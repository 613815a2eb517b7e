"""Effect lists: validation against the op vocabulary and compilation to program rows.

An effect in YAML is a list of op mappings (see ``ops.py``). ``parse_effect`` checks one
list for a context (``hero``, ``villain`` or ``activate``) and returns an ``Effect``;
``ProgramStore.add`` compiles it into the shared program table and returns its id.

Compiled layout of one program (``prog[id]``, ``PROG_LEN`` rows of ``(code, a, b, c)``)::

    row 0   (code, a, b, c)      params fill a, b, c in the order ops.py declares them
    ...
    row k   (30, count, at_least, skip)   an ``if``: when the test fails, skip the next
    row k+1 ...                           ``skip`` rows (its flattened ``then`` ops)
    ...
    (0, 0, 0, 0)                 code 0 ends the program (absent when all rows are used)

Issue counters (``counter: gold``, ``count: counter:gold``) depend on the issue in play, so
a villain or hero effect keeps their names until it is compiled for a scenario. Likewise
``figure: own`` (a special Bystander card's own figures) stays a name until the card is
compiled into its row of the ``sby`` table, and becomes that row + 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from hon_env.content.errors import (
    Where,
    as_list,
    as_mapping,
    check_int,
    check_str,
    read_bool,
    type_name,
)
from hon_env.spec.ops import (
    COUNT_COUNTER_BASE,
    COUNT_NAMES,
    FIGURE_ANY,
    FIGURE_OWN,
    OP_BY_NAME,
    PANEL_NAMES,
    SIMPLE_ENUMS,
    OpSpec,
    Param,
)
from hon_env.spec.tables import MAX_PANELS, MAX_PROGS, PROG_LEN

CONTEXTS = ("hero", "ally", "villain", "activate")
COUNTER_PREFIX = "counter:"

Row = tuple[int, int, int, int]


@dataclass(frozen=True)
class Op:
    """One validated op. ``args`` holds one value per parameter (``skip`` excluded): an int,
    or a name resolved at compile: a counter name (str) for ``counter`` / ``count:
    counter:NAME``, ``"own"`` for ``figure: own``."""

    spec: OpSpec
    args: tuple[int | str, ...]
    then: tuple[Op, ...]  # the ``then`` ops of an ``if``; empty otherwise
    where: Where  # location of the op mapping, for compile-time errors
    per_hero: bool = False  # an ``if`` whose ``at_least`` is per hero (at_least_per_hero)


@dataclass(frozen=True)
class Effect:
    """A validated effect list and where it was written."""

    ops: tuple[Op, ...]
    where: Where

    def __bool__(self) -> bool:
        return bool(self.ops)


def empty_effect(where: Where) -> Effect:
    """An effect with no ops (compiles to program id -1)."""
    return Effect((), where)


def parse_effect(
    raw: object,
    context: str,
    where: Where,
    counters: tuple[str, ...] | None = None,
    exhaust: bool = False,
    own_figures: bool = False,
) -> Effect:
    """Validate a YAML effect list for ``context``.

    Args:
        raw: the YAML value (a list of op mappings).
        context: ``hero``, ``villain`` or ``activate``; each op's ``where`` must allow it.
        where: location of the list (for errors).
        counters: the issue's counter names when known (checked now), else None (checked
            when compiled).
        exhaust: True inside an ``exhaust`` ability, the only place ``prevent`` is allowed.
        own_figures: True in a special Bystander card's effects, the only place
            ``figure: own`` is allowed.

    Returns:
        The ``Effect``; raises ``ContentError`` on any problem.
    """
    if context not in CONTEXTS:
        raise ValueError(f"unknown effect context {context!r}")
    items = as_list(raw, where)
    ops = tuple(
        _parse_op(item, context, where.index(i), counters, exhaust, own_figures)
        for i, item in enumerate(items)
    )
    return Effect(ops, where)


def _parse_op(
    raw: object, context: str, where: Where, counters: tuple[str, ...] | None, exhaust: bool,
    own_figures: bool = False,
) -> Op:
    """Validate one op mapping; returns the ``Op``."""
    data = as_mapping(raw, where)
    if "op" not in data:
        raise where.key("op").error("missing required key")
    name = data["op"]
    if not isinstance(name, str) or name not in OP_BY_NAME:
        raise where.key("op").error(
            f"unknown op {name!r} (known: {', '.join(sorted(OP_BY_NAME))})"
        )
    spec = OP_BY_NAME[name]
    if context not in spec.where:
        raise where.key("op").error(
            f"op {name!r} cannot be used in a {context} effect "
            f"(allowed in: {', '.join(sorted(spec.where))})"
        )
    if name == "prevent" and not exhaust:
        raise where.key("op").error("op 'prevent' is only allowed inside an exhaust ability")
    params = _written_params(spec)
    allowed = {"op"} | {p.name for p in params} | (
        {"then", "at_least_per_hero"} if name == "if" else set())
    for key in data:
        if key not in allowed:
            hint = " (computed from 'then')" if name == "if" and key == "skip" else ""
            raise where.key(key).error(
                f"unknown key for op {name!r}{hint} (allowed: {', '.join(sorted(allowed))})"
            )
    args = tuple(_parse_param(p, data, where, counters) for p in params)
    for p, value in zip(params, args, strict=True):
        if p.enum == "figure" and value == FIGURE_OWN and not own_figures:
            raise where.key(p.name).error(
                "figure 'own' is only allowed in a special Bystander card's effects")
    then: tuple[Op, ...] = ()
    per_hero = False
    if name == "if":
        per_hero = read_bool(data, "at_least_per_hero", where, default=False)
        if "then" not in data:
            raise where.key("then").error("missing required key")
        then = parse_effect(data["then"], context, where.key("then"), counters, exhaust,
                            own_figures).ops
        if not then:
            raise where.key("then").error("an 'if' needs at least one op in 'then'")
    return Op(spec, args, then, where, per_hero)


def _written_params(spec: OpSpec) -> tuple[Param, ...]:
    """The parameters written in YAML: all but an ``if``'s ``skip`` (computed)."""
    return tuple(p for p in spec.params if not (spec.name == "if" and p.name == "skip"))


def _parse_param(
    param: Param, data: dict[str, Any], where: Where, counters: tuple[str, ...] | None
) -> int | str:
    """Validate one parameter value (or its default); returns an int or a counter name."""
    loc = where.key(param.name)
    if param.name not in data:
        if param.default is None:
            raise loc.error("missing required key")
        value = param.default
    else:
        value = data[param.name]
    if param.enum is None:
        return check_int(value, loc, param.lo, param.hi)
    return _parse_enum(param.enum, value, loc, counters)


def _parse_enum(
    enum: str, value: object, where: Where, counters: tuple[str, ...] | None
) -> int | str:
    """Resolve an enumerated parameter name to its integer (counter names stay names)."""
    if enum == "panel":
        if isinstance(value, int) and not isinstance(value, bool):
            return check_int(value, where, 1, MAX_PANELS)
        if not isinstance(value, str) or value not in PANEL_NAMES:
            raise where.error(
                f"expected a panel number 1..{MAX_PANELS} or one of "
                f"{', '.join(PANEL_NAMES)}, got {type_name(value)}"
            )
        return PANEL_NAMES[value]
    if enum in SIMPLE_ENUMS:
        names = SIMPLE_ENUMS[enum]
        return names[check_str(value, where, names)]
    if enum == "count":
        if isinstance(value, str) and value.startswith(COUNTER_PREFIX):
            return _check_counter(value[len(COUNTER_PREFIX):], where, counters)
        if not isinstance(value, str) or value not in COUNT_NAMES:
            raise where.error(
                f"expected one of {', '.join(COUNT_NAMES)} or {COUNTER_PREFIX}NAME, "
                f"got {type_name(value)}"
            )
        return COUNT_NAMES[value]
    if enum == "counter":
        return _check_counter(check_str(value, where), where, counters)
    if enum == "figure":
        return FIGURE_ANY if check_str(value, where, ("any", FIGURE_OWN)) == "any" else FIGURE_OWN
    raise ValueError(f"unknown enum {enum!r} in ops.py")


def _check_counter(name: str, where: Where, counters: tuple[str, ...] | None) -> str:
    """Check a counter name against the issue's counters when they are known."""
    if counters is not None and name not in counters:
        declared = ", ".join(counters) if counters else "none"
        raise where.error(f"unknown counter {name!r} (the issue declares: {declared})")
    return name


def compile_rows(effect: Effect, counters: tuple[str, ...], n_panels: int,
                 own: int = -1, n_heroes: int = 1) -> list[Row]:
    """Compile an effect to program rows for an issue with ``counters`` and ``n_panels``;
    ``own`` is the ``sby`` row of the special Bystander card the effect belongs to (-1:
    none); ``n_heroes`` multiplies the per-hero thresholds (``at_least_per_hero``)."""
    rows: list[Row] = []
    for op in effect.ops:
        rows.extend(_compile_op(op, counters, n_panels, own, n_heroes))
    return rows


def _compile_op(op: Op, counters: tuple[str, ...], n_panels: int, own: int,
                n_heroes: int = 1) -> list[Row]:
    """Compile one op (an ``if`` with its flattened ``then``) to rows."""
    params = _written_params(op.spec)
    values = [_resolve(p, v, op.where.key(p.name), counters, n_panels, own)
              for p, v in zip(params, op.args, strict=True)]
    then_rows: list[Row] = []
    if op.spec.name == "if":
        if op.per_hero:
            values[1] *= n_heroes  # the rulebook's per hero icon on the threshold
        for sub in op.then:
            then_rows.extend(_compile_op(sub, counters, n_panels, own, n_heroes))
        values.append(len(then_rows))
    values += [0] * (3 - len(values))
    return [(op.spec.code, values[0], values[1], values[2]), *then_rows]


def _resolve(
    param: Param, value: int | str, where: Where, counters: tuple[str, ...], n_panels: int,
    own: int = -1,
) -> int:
    """Turn a parsed parameter into its compiled integer for this scenario."""
    if param.enum == "figure" and value == FIGURE_OWN:
        if own < 0:
            raise where.error("figure 'own' is only allowed in a special Bystander card's "
                              "effects")
        return own + 1
    if param.enum == "panel" and isinstance(value, int) and value > n_panels:
        raise where.error(f"panel {value} does not exist (the issue board has {n_panels})")
    if not isinstance(value, str):
        return value
    _check_counter(value, where, counters)
    index = counters.index(value)
    return COUNT_COUNTER_BASE + index if param.enum == "count" else index


class ProgramStore:
    """The shared program table of a scenario: ``prog`` [MAX_PROGS, PROG_LEN, 4] int32.

    Identical programs (e.g. copies of one card) share one id.
    """

    def __init__(self, n_heroes: int = 1) -> None:
        self.n_heroes = n_heroes  # multiplies per-hero ``if`` thresholds
        self.prog = np.zeros((MAX_PROGS, PROG_LEN, 4), dtype=np.int32)
        self.count = 0
        self._ids: dict[tuple[Row, ...], int] = {}

    def add(
        self, effect: Effect, counters: tuple[str, ...] = (), n_panels: int = MAX_PANELS,
        own: int = -1,
    ) -> int:
        """Compile ``effect`` and store it; returns its program id, or -1 for no ops.

        ``own`` is the ``sby`` row of the special Bystander card whose effect this is."""
        if not effect:
            return -1
        return self.add_rows(compile_rows(effect, counters, n_panels, own, self.n_heroes),
                             effect.where)

    def add_rows(self, rows: list[Row], where: Where) -> int:
        """Store compiled rows; returns the program id (-1 for no rows)."""
        if not rows:
            return -1
        if len(rows) > PROG_LEN:
            raise where.error(f"effect compiles to {len(rows)} ops, more than the {PROG_LEN} "
                              "a program holds")
        key = tuple(rows)
        if key in self._ids:
            return self._ids[key]
        if self.count >= MAX_PROGS:
            raise where.error(f"more than {MAX_PROGS} distinct effect programs in the scenario")
        pid = self.count
        self.prog[pid, : len(rows)] = np.asarray(rows, dtype=np.int32)
        self._ids[key] = pid
        self.count += 1
        return pid
