"""Content errors and the strict field readers that raise them.

Every content problem is reported as a ``ContentError`` whose message names the file, the
card and the field path, e.g.::

    configs/content/heroes/majesty.yaml: card 'Crown Strike' (#3): field 'effect[1].n':
    25 is above the maximum 20

The card is ``-`` for file-level fields (ids, counters, the board). Card numbers ``#N``
count the entries of the file's ``cards`` list from 1 (``schemes #N`` for Scheme cards);
field paths are relative to that card and index lists from 0, as YAML path tools do.

``Where`` carries that location through the validators; the ``read_*`` helpers below read
one field of a YAML mapping, check its type and range, and raise with the right location.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from hon_env.spec.tables import DASH

_MISSING: Any = object()  # marks a required field (distinct from any YAML value)


class ContentError(ValueError):
    """A content file is invalid; ``file``, ``card`` and ``field`` say where."""

    def __init__(self, file: str, card: str, field: str, message: str) -> None:
        self.file = file
        self.card = card
        self.field = field
        self.detail = message
        super().__init__(f"{file}: card {card}: field '{field or '-'}': {message}")


@dataclass(frozen=True)
class Where:
    """A location in the content: file shown to humans, card label, field path."""

    file: str
    card: str = "-"
    field: str = ""

    def key(self, name: str | int) -> Where:
        """The location of mapping key ``name`` below this one."""
        path = f"{self.field}.{name}" if self.field else str(name)
        return Where(self.file, self.card, path)

    def index(self, i: int) -> Where:
        """The location of list item ``i`` (0-based) below this one."""
        return Where(self.file, self.card, f"{self.field}[{i}]")

    def for_card(self, name: object, label: str) -> Where:
        """The location of a card: its name and a label such as ``#3`` or ``hero card``."""
        card = f"{name!r} ({label})" if isinstance(name, str) else f"({label})"
        return Where(self.file, card, "")

    def error(self, message: str) -> ContentError:
        """A ``ContentError`` at this location (the caller raises it)."""
        return ContentError(self.file, self.card, self.field, message)


def type_name(value: object) -> str:
    """A short YAML-ish name for the type of ``value``, for error messages."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"a boolean ({value})"
    if isinstance(value, int):
        return f"an integer ({value})"
    if isinstance(value, float):
        return f"a number ({value})"
    if isinstance(value, str):
        return f"a string ({value!r})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def as_mapping(value: object, where: Where) -> dict[str, Any]:
    """Check that ``value`` is a mapping with string keys; return it."""
    if not isinstance(value, dict):
        raise where.error(f"expected a mapping, got {type_name(value)}")
    for k in value:
        if not isinstance(k, str):
            raise where.error(f"keys must be names, got {type_name(k)}")
    return value


def rule_settings(raw: object, where: Where, rule: str,
                  known: Collection[str]) -> Iterator[tuple[str, Any, Where]]:
    """``(key, value, where)`` of each setting of optional rule ``rule`` given as a mapping
    (a resolved rule handed back as read-only mappings is accepted); a key outside
    ``known`` raises naming the known ones."""
    if isinstance(raw, Mapping):
        raw = {k: dict(v) if isinstance(v, Mapping) else v for k, v in raw.items()}
    for key, value in as_mapping(raw, where).items():
        at = where.key(key)
        if key not in known:
            raise at.error(f"unknown {rule} setting (known: {', '.join(sorted(known))})")
        yield key, value, at


def one_of(value: Any, where: Where, choices: Collection[Any]) -> Any:
    """Check that ``value`` is one of ``choices`` (a setting's names); return it."""
    if value not in choices:
        raise where.error(f"expected one of {', '.join(map(str, choices))}, got {value!r}")
    return value


def as_list(value: object, where: Where) -> list[Any]:
    """Check that ``value`` is a list; return it."""
    if not isinstance(value, list):
        raise where.error(f"expected a list, got {type_name(value)}")
    return value


def check_keys(
    data: Mapping[str, Any], where: Where, required: Iterable[str], optional: Iterable[str] = ()
) -> None:
    """Reject keys of ``data`` outside required+optional and required keys that are absent."""
    required = tuple(required)
    allowed = set(required) | set(optional)
    for k in data:
        if k not in allowed:
            raise where.key(k).error(f"unknown key (allowed: {', '.join(sorted(allowed))})")
    for k in required:
        if k not in data:
            raise where.key(k).error("missing required key")


def read_int(
    data: Mapping[str, Any],
    key: str,
    where: Where,
    lo: int,
    hi: int,
    default: Any = _MISSING,
    dash: bool = False,
) -> int:
    """Read integer ``data[key]`` in [lo, hi] (or ``"-"`` as DASH when ``dash``)."""
    if key not in data:
        if default is _MISSING:
            raise where.key(key).error("missing required key")
        return default
    return check_int(data[key], where.key(key), lo, hi, dash)


def check_int(value: object, where: Where, lo: int, hi: int, dash: bool = False) -> int:
    """Check that ``value`` is an integer in [lo, hi] (or ``"-"`` when ``dash``)."""
    if dash and value == "-":
        return DASH
    if isinstance(value, bool) or not isinstance(value, int):
        wanted = "an integer or '-'" if dash else "an integer"
        raise where.error(f"expected {wanted}, got {type_name(value)}")
    if value < lo:
        raise where.error(f"{value} is below the minimum {lo}")
    if value > hi:
        raise where.error(f"{value} is above the maximum {hi}")
    return value


def read_bool(data: Mapping[str, Any], key: str, where: Where, default: Any = _MISSING) -> bool:
    """Read boolean ``data[key]`` (``true``/``false``)."""
    if key not in data:
        if default is _MISSING:
            raise where.key(key).error("missing required key")
        return default
    value = data[key]
    if not isinstance(value, bool):
        raise where.key(key).error(f"expected true or false, got {type_name(value)}")
    return value


def read_str(
    data: Mapping[str, Any],
    key: str,
    where: Where,
    default: Any = _MISSING,
    choices: Iterable[str] | None = None,
) -> str:
    """Read non-empty string ``data[key]``, one of ``choices`` when given."""
    if key not in data:
        if default is _MISSING:
            raise where.key(key).error("missing required key")
        return default
    return check_str(data[key], where.key(key), choices)


def check_str(value: object, where: Where, choices: Iterable[str] | None = None) -> str:
    """Check that ``value`` is a non-empty string, one of ``choices`` when given."""
    if not isinstance(value, str) or not value.strip():
        raise where.error(f"expected a non-empty string, got {type_name(value)}")
    if choices is not None:
        choices = tuple(choices)
        if value not in choices:
            raise where.error(f"{value!r} is not one of {', '.join(choices)}")
    return value
