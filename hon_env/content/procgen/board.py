"""Generated issue boards: a hex map with walls, a start, scheme spaces, perils and
bystanders, in the map text of ``content/board.py``.

The generator keeps to the structure of the hand-made boards: one connected region of at
most ``MAX_SPACES`` spaces, ``n_panels`` scheme spaces spread apart and away from the
start, one peril space per colour and a handful of bystander spaces. Scheme spaces are
never chokepoints: the board stays connected without them, because a hero who enters a
scheme space moves on into its panel.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from hon_env.content.board import PERIL_CELLS, hex_neighbours
from hon_env.spec.tables import MAX_SPACES

Cell = tuple[int, int]

# rows x columns of the map text per board size (the hand-made boards are 6-7 x 8-10)
SIZES = {"small": (6, 8), "medium": (7, 9), "large": (8, 10)}
MIN_SCHEME_GAP = 3  # steps between two scheme spaces, and from the start
ATTEMPTS = 200


def generate_map(rng: np.random.Generator, size: str, n_panels: int, n_bystanders: int
                 ) -> list[str]:
    """A valid map (a list of row strings) drawn from ``rng``.

    Args:
        rng: the generator's random stream (consumed).
        size: a key of ``SIZES``.
        n_panels: scheme spaces numbered 1..n_panels.
        n_bystanders: bystander spaces ``b``.

    Raises:
        RuntimeError: no valid map after ``ATTEMPTS`` draws (cannot happen for the sizes
            above; kept so a bad knob fails loudly instead of looping).
    """
    rows, cols = SIZES[size]
    for _ in range(ATTEMPTS):
        grid = _carve(rng, rows, cols)
        if grid is None:
            continue
        cells = _place(rng, grid, n_panels, n_bystanders)
        if cells is not None:
            return _render(rows, cols, cells)
    raise RuntimeError(f"no valid {size} board with {n_panels} panels after {ATTEMPTS} draws")


def _carve(rng: np.random.Generator, rows: int, cols: int) -> set[Cell] | None:
    """The open cells: a random share walled off, then the largest connected region."""
    wall_share = rng.uniform(0.10, 0.22)
    open_cells = {(r, c) for r in range(rows) for c in range(cols)
                  if rng.random() >= wall_share}
    region = _largest_region(open_cells)
    while len(region) > MAX_SPACES:  # wall off edge cells until the engine's limit holds
        edge = sorted(cell for cell in region if len(_neighbours(cell, region)) < 6)
        region.discard(edge[int(rng.integers(len(edge)))])
        region = _largest_region(region)
    return region if len(region) >= rows * cols // 2 else None


def _place(rng: np.random.Generator, region: set[Cell], n_panels: int, n_bystanders: int
           ) -> dict[Cell, str] | None:
    """Assign the special cells; None when the draw leaves no valid placement."""
    ordered = sorted(region)
    bottom = [cell for cell in ordered if cell[0] >= max(r for r, _ in ordered) - 1]
    start = bottom[int(rng.integers(len(bottom)))]
    dist = _distances(start, region)
    schemes: list[Cell] = []
    ok = [cell for cell in ordered if dist[cell] >= MIN_SCHEME_GAP]
    for _ in range(n_panels):
        if not ok:
            return None
        scheme = ok[int(rng.integers(len(ok)))]
        schemes.append(scheme)
        near = _distances(scheme, region)
        ok = [cell for cell in ok if near.get(cell, MAX_SPACES) >= MIN_SCHEME_GAP]
    walkable = region - set(schemes)
    if len(_largest_region(walkable)) != len(walkable):
        return None  # a scheme space would cut the board in two
    cells = {cell: "." for cell in region}
    cells[start] = "S"
    for number, cell in enumerate(schemes, start=1):
        cells[cell] = str(number)
    free = [cell for cell in ordered if cells[cell] == "." and dist[cell] >= 2]
    need = len(PERIL_CELLS) + n_bystanders
    if len(free) < need:
        return None
    picks = rng.choice(len(free), size=need, replace=False)
    for k, index in enumerate(picks):
        cells[free[int(index)]] = PERIL_CELLS[k] if k < len(PERIL_CELLS) else "b"
    return cells


def _render(rows: int, cols: int, cells: dict[Cell, str]) -> list[str]:
    """The map text: odd rows start with a space, as the hand-made files do."""
    lines = []
    for r in range(rows):
        line = " ".join(cells.get((r, c), "#") for c in range(cols))
        lines.append((" " if r % 2 else "") + line)
    return lines


def _neighbours(cell: Cell, region: set[Cell]) -> list[Cell]:
    return [n for n in hex_neighbours(*cell) if n in region]


def _distances(source: Cell, region: set[Cell]) -> dict[Cell, int]:
    """BFS steps from ``source`` to every cell of its region."""
    dist = {source: 0}
    queue = deque([source])
    while queue:
        cell = queue.popleft()
        for n in _neighbours(cell, region):
            if n not in dist:
                dist[n] = dist[cell] + 1
                queue.append(n)
    return dist


def _largest_region(cells: set[Cell]) -> set[Cell]:
    """The largest connected set of ``cells`` (ties: the one holding the smallest cell)."""
    left, best = set(cells), set()
    for cell in sorted(cells):
        if cell not in left:
            continue
        part = set(_distances(cell, left))
        left -= part
        if len(part) > len(best):
            best = part
    return best
