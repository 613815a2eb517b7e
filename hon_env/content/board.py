"""Issue boards: the hex map, its spaces and the scheme panels.

A board's ``map`` is a list of hex rows. Cells are separated by spaces; odd rows (1, 3, ...)
sit half a hex to the right ("odd-r" offset layout)::

    row 0    A1  B1  C1  D1            cells:  #  no space     .  plain
    row 1      A2  B2  C2  D2                  S  hero start   b  bystander
    row 2    A3  B3  C3  D3                    r g u y  peril red/green/blue/yellow
                                               1..6  scheme space of panel 1..6

Neighbours of (row, col): (row, col-1) and (row, col+1); on an even row
(row±1, col-1) and (row±1, col); on an odd row (row±1, col) and (row±1, col+1).

Spaces are numbered in reading order (row by row, left to right), skipping ``#``. A space's
label is its column letter and its row number from 1 (``C2`` = row 1, col 2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from hon_env.content.effects import Effect, parse_effect
from hon_env.content.errors import Where, as_list, as_mapping, check_keys, read_str
from hon_env.spec.tables import (
    COLOR_NAMES,
    MAX_PANELS,
    MAX_SPACES,
    N_COLORS,
    SP_BYSTANDER,
    SP_NONE,
    SP_PERIL,
    SP_PLAIN,
    SP_SCHEME,
    SP_START,
)

UNREACHABLE = 999  # dist value between spaces with no path (and for padding slots)
PERIL_CELLS = "rguy"  # peril colours in COLOR_NAMES order (u: blue)
CELL_KINDS = {".": SP_PLAIN, "S": SP_START, "b": SP_BYSTANDER}
CELL_ALPHABET = "# . S b r g u y 1 2 3 4 5 6"

# (d_row, d_col) of the six neighbours, for even and odd rows: E, NE, NW, W, SW, SE.
_EVEN_NEIGHBOURS = ((0, 1), (-1, 0), (-1, -1), (0, -1), (1, -1), (1, 0))
_ODD_NEIGHBOURS = ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, 0), (1, 1))


@dataclass(frozen=True)
class Panel:
    """A scheme panel: its number (1..), name, colour index and Scheme effect."""

    number: int
    name: str
    color: int
    scheme: Effect


@dataclass(frozen=True)
class Board:
    """A parsed board. Arrays have the fixed capacities of ``tables.py``."""

    n_spaces: int
    start: int  # space index of the hero start space
    rowcol: tuple[tuple[int, int], ...]  # (row, col) of each space in the map text
    labels: tuple[str, ...]  # human label of each space, e.g. "C2"
    panels: tuple[Panel, ...]  # panel k at index k - 1
    space_kind: np.ndarray  # [MAX_SPACES] SP_*
    space_arg: np.ndarray  # [MAX_SPACES] peril colour / scheme panel number, else -1
    adj: np.ndarray  # [MAX_SPACES, 6] neighbour spaces (E, NE, NW, W, SW, SE order), -1 padded
    dist: np.ndarray  # [MAX_SPACES, MAX_SPACES] steps; UNREACHABLE off the map
    scheme_space: np.ndarray  # [MAX_PANELS + 1] space of panel k (index k), -1
    peril_space: np.ndarray  # [N_COLORS] peril space of each colour, -1
    lackey_space: np.ndarray  # [N_COLORS] scheme space whose panel has that colour, -1
    where: Where  # location of the ``board`` mapping, for later errors


def space_label(row: int, col: int) -> str:
    """The human label of map cell (row, col): column letters then row number from 1."""
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return f"{letters}{row + 1}"


def hex_neighbours(row: int, col: int) -> list[tuple[int, int]]:
    """The six (row, col) cells around (row, col) in the odd-r layout."""
    deltas = _ODD_NEIGHBOURS if row % 2 else _EVEN_NEIGHBOURS
    return [(row + dr, col + dc) for dr, dc in deltas]


def parse_board(raw: object, where: Where, counters: tuple[str, ...]) -> Board:
    """Validate a ``board`` mapping (``map`` and ``panels``) and build its tables.

    Args:
        raw: the YAML value of the issue's ``board`` key.
        where: its location (file-level, card ``-``).
        counters: the issue's counter names, for the panels' Scheme effects.

    Returns:
        The ``Board``; raises ``ContentError`` on any problem.
    """
    data = as_mapping(raw, where)
    check_keys(data, where, ("map", "panels"))
    cells = _parse_map(data["map"], where.key("map"))
    rowcol = tuple(rc for rc, _ in cells)
    index = {rc: i for i, rc in enumerate(rowcol)}
    kind, arg = _space_kinds([c for _, c in cells])
    start = _find_start(kind, where.key("map"))
    scheme_space = _scheme_spaces(kind, arg, where.key("map"))
    peril_space = _peril_spaces(kind, arg, where.key("map"))
    panels = _parse_panels(data["panels"], where.key("panels"), len(scheme_space) - 1, counters)
    adj = _adjacency(rowcol, index)
    dist = _distances(adj, len(rowcol))
    _check_connected(dist, rowcol, where.key("map"))
    lackey = np.full(N_COLORS, -1, dtype=np.int32)
    for p in panels:
        lackey[p.color] = scheme_space[p.number]
    return Board(
        n_spaces=len(rowcol),
        start=start,
        rowcol=rowcol,
        labels=tuple(space_label(r, c) for r, c in rowcol),
        panels=panels,
        space_kind=_padded(kind, SP_NONE),
        space_arg=_padded(arg, -1),
        adj=adj,
        dist=dist,
        scheme_space=_padded(scheme_space, -1, MAX_PANELS + 1),
        peril_space=np.asarray(peril_space, dtype=np.int32),
        lackey_space=lackey,
        where=where,
    )


def _parse_map(raw: object, where: Where) -> list[tuple[tuple[int, int], str]]:
    """Read the map rows; returns ((row, col), cell) for every real space in reading order."""
    rows = as_list(raw, where)
    if not rows:
        raise where.error("the map has no rows")
    cells = []
    width = None
    for r, line in enumerate(rows):
        if not isinstance(line, str):
            raise where.index(r).error(f"expected a row string, got {type(line).__name__}")
        width = len(line.split()) if width is None else width
        if len(line.split()) != width:
            raise where.index(r).error(
                f"row {r + 1} has {len(line.split())} cells, row 1 has {width}: every row "
                "needs the same number of cells (pad with '#')")
        for c, cell in enumerate(line.split()):
            if len(cell) != 1 or cell not in CELL_ALPHABET.split():
                raise where.index(r).error(
                    f"cell {space_label(r, c)} is {cell!r}, not one of: {CELL_ALPHABET}"
                )
            if cell != "#":
                cells.append(((r, c), cell))
    if not cells:
        raise where.error("the map has no spaces")
    if len(cells) > MAX_SPACES:
        raise where.error(f"the map has {len(cells)} spaces, more than {MAX_SPACES}")
    return cells


def _space_kinds(cells: list[str]) -> tuple[list[int], list[int]]:
    """SP_* kind and argument (peril colour / panel number / -1) of each cell."""
    kind, arg = [], []
    for cell in cells:
        if cell in CELL_KINDS:
            kind.append(CELL_KINDS[cell])
            arg.append(-1)
        elif cell in PERIL_CELLS:
            kind.append(SP_PERIL)
            arg.append(PERIL_CELLS.index(cell))
        else:
            kind.append(SP_SCHEME)
            arg.append(int(cell))
    return kind, arg


def _find_start(kind: list[int], where: Where) -> int:
    """The index of the single start space ``S``."""
    starts = [i for i, k in enumerate(kind) if k == SP_START]
    if len(starts) != 1:
        raise where.error(f"the map needs exactly one start space 'S', found {len(starts)}")
    return starts[0]


def _scheme_spaces(kind: list[int], arg: list[int], where: Where) -> list[int]:
    """Scheme space of each panel number (index k; index 0 is -1); checks 1..n, once each."""
    found: dict[int, int] = {}
    for i, (k, a) in enumerate(zip(kind, arg, strict=True)):
        if k == SP_SCHEME:
            if a in found:
                raise where.error(f"scheme space '{a}' appears more than once")
            found[a] = i
    if not found:
        raise where.error("the map has no scheme spaces (digits 1..6)")
    n = max(found)
    missing = [k for k in range(1, n + 1) if k not in found]
    if missing:
        raise where.error(
            f"scheme spaces must be numbered 1..{n} without gaps; missing {missing}"
        )
    return [-1] + [found[k] for k in range(1, n + 1)]


def _peril_spaces(kind: list[int], arg: list[int], where: Where) -> list[int]:
    """Peril space of each colour (-1 when absent); at most one per colour."""
    peril = [-1] * N_COLORS
    for i, (k, a) in enumerate(zip(kind, arg, strict=True)):
        if k == SP_PERIL:
            if peril[a] != -1:
                raise where.error(
                    f"more than one {COLOR_NAMES[a]} peril space '{PERIL_CELLS[a]}'"
                )
            peril[a] = i
    return peril


def _parse_panels(
    raw: object, where: Where, n_panels: int, counters: tuple[str, ...]
) -> tuple[Panel, ...]:
    """Read ``panels`` (one entry per scheme space 1..n_panels); colours must differ."""
    if not isinstance(raw, dict):
        raise where.error("expected a mapping from panel number to panel")
    entries: dict[int, Any] = {}
    for key, value in raw.items():
        number = _panel_number(key, where)
        if number > n_panels:
            raise where.key(key).error(
                f"panel {number} has no scheme space '{number}' on the map (1..{n_panels})"
            )
        entries[number] = value
    panels = []
    seen_colors: dict[int, int] = {}
    for number in range(1, n_panels + 1):
        if number not in entries:
            raise where.key(number).error(f"scheme space '{number}' has no panel entry")
        panel = _parse_panel(number, entries[number], where.key(number), counters)
        if panel.color in seen_colors:
            raise where.key(number).key("color").error(
                f"colour {COLOR_NAMES[panel.color]} is already used by panel "
                f"{seen_colors[panel.color]}"
            )
        seen_colors[panel.color] = number
        panels.append(panel)
    return tuple(panels)


def _panel_number(key: object, where: Where) -> int:
    """A ``panels`` key: an integer 1..MAX_PANELS (YAML ``1:``) or its digit string."""
    if isinstance(key, str) and key.isdigit():
        key = int(key)
    if isinstance(key, bool) or not isinstance(key, int) or not 1 <= key <= MAX_PANELS:
        raise where.key(str(key)).error(f"panel keys must be numbers 1..{MAX_PANELS}")
    return key


def _parse_panel(number: int, raw: object, where: Where, counters: tuple[str, ...]) -> Panel:
    """One panel entry: ``name``, ``color`` and its ``scheme`` effect (villain context)."""
    data = as_mapping(raw, where)
    check_keys(data, where, ("name", "color", "scheme"))
    name = read_str(data, "name", where)
    color = COLOR_NAMES.index(read_str(data, "color", where, choices=COLOR_NAMES))
    scheme = parse_effect(data["scheme"], "villain", where.key("scheme"), counters)
    return Panel(number, name, color, scheme)


def _adjacency(rowcol: tuple[tuple[int, int], ...], index: dict[tuple[int, int], int]
               ) -> np.ndarray:
    """[MAX_SPACES, 6] neighbour space indices (fixed direction order), -1 padded."""
    adj = np.full((MAX_SPACES, 6), -1, dtype=np.int32)
    for i, (r, c) in enumerate(rowcol):
        near = [index[rc] for rc in hex_neighbours(r, c) if rc in index]
        adj[i, : len(near)] = near
    return adj


def _distances(adj: np.ndarray, n: int) -> np.ndarray:
    """[MAX_SPACES, MAX_SPACES] step distances; UNREACHABLE where there is no path.

    Breadth-first from every space at once: row ``s`` of ``frontier`` holds the spaces
    first reached from ``s`` at the current step, and one product with the adjacency
    matrix takes every row a step further (a Python queue per space cost 10 ms a board,
    most of a generated scenario's first use)."""
    dist = np.full((MAX_SPACES, MAX_SPACES), UNREACHABLE, dtype=np.int32)
    a = np.zeros((n, n), dtype=np.float32)
    u, slot = np.nonzero(adj[:n] >= 0)
    a[u, adj[u, slot]] = 1.0
    seen = np.eye(n, dtype=bool)
    frontier = seen
    near = dist[:n, :n]  # a view: writing it writes dist
    near[seen] = 0
    step = 0
    while frontier.any():
        step += 1
        frontier = (frontier.astype(np.float32) @ a > 0) & ~seen
        seen |= frontier
        near[frontier] = step
    return dist


def _check_connected(dist: np.ndarray, rowcol: tuple[tuple[int, int], ...], where: Where
                     ) -> None:
    """Every space must be reachable from space 0."""
    cut = [i for i in range(len(rowcol)) if dist[0, i] == UNREACHABLE]
    if cut:
        labels = ", ".join(space_label(*rowcol[i]) for i in cut)
        raise where.error(f"the map is not connected: cannot reach {labels} from "
                          f"{space_label(*rowcol[0])}")


def _padded(values: list[int], fill: int, size: int = MAX_SPACES) -> np.ndarray:
    """``values`` as an int32 array of length ``size``, padded with ``fill``."""
    out = np.full(size, fill, dtype=np.int32)
    out[: len(values)] = values
    return out


def resolve_location(board: Board, tag: object, where: Where) -> int:
    """The space index of a location tag: ``panel_K``, ``start`` or ``peril_COLOUR``."""
    n_panels = len(board.panels)
    tags = ["start"] + [f"panel_{k}" for k in range(1, n_panels + 1)]
    tags += [f"peril_{c}" for i, c in enumerate(COLOR_NAMES) if board.peril_space[i] >= 0]
    if not isinstance(tag, str) or tag not in tags:
        raise where.error(f"{tag!r} is not a location on this board (one of: {', '.join(tags)})")
    if tag == "start":
        return board.start
    if tag.startswith("panel_"):
        return int(board.scheme_space[int(tag[len("panel_"):])])
    return int(board.peril_space[COLOR_NAMES.index(tag[len("peril_"):])])
