"""Cells of the 5x5 Zefiria grid and the geometry the rules are computed on.

A cell is a ``(row, column)`` pair, row 0 on top. Island ``k`` belongs in cell
``((k - 1) // 5, (k - 1) % 5)`` (reading order).
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum

SIZE = 5
ISLANDS = range(1, SIZE * SIZE + 1)

Cell = tuple[int, int]

ALL_CELLS: tuple[Cell, ...] = tuple((r, c) for r in range(SIZE) for c in range(SIZE))
CORNERS: tuple[Cell, ...] = ((0, 0), (0, SIZE - 1), (SIZE - 1, 0), (SIZE - 1, SIZE - 1))


class Direction(Enum):
    """A compass direction on the grid as the players look at it (north = row 0)."""

    NORTH = (-1, 0)
    EAST = (0, 1)
    SOUTH = (1, 0)
    WEST = (0, -1)

    @property
    def step(self) -> tuple[int, int]:
        return self.value


def index(cell: Cell) -> int:
    """Position of ``cell`` in a row-major tuple of 25."""
    return cell[0] * SIZE + cell[1]


def cell_at(i: int) -> Cell:
    """Inverse of :func:`index`."""
    return divmod(i, SIZE)


def home_cell(island: int) -> Cell:
    """The cell where ``island`` belongs in the solved grid.

    >>> home_cell(1), home_cell(25), home_cell(12)
    ((0, 0), (4, 4), (2, 1))
    """
    return divmod(island - 1, SIZE)


def on_grid(cell: Cell) -> bool:
    return 0 <= cell[0] < SIZE and 0 <= cell[1] < SIZE


def is_corner(cell: Cell) -> bool:
    return cell in CORNERS


def is_edge(cell: Cell) -> bool:
    r, c = cell
    return r in (0, SIZE - 1) or c in (0, SIZE - 1)


def opposite_corner(cell: Cell) -> Cell:
    return (SIZE - 1 - cell[0], SIZE - 1 - cell[1])


def neighbours(cell: Cell) -> Iterator[Cell]:
    """Orthogonally adjacent cells on the grid."""
    r, c = cell
    for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
        n = (r + dr, c + dc)
        if on_grid(n):
            yield n


def manhattan(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def rotate_clockwise(cell: Cell, quarter_turns: int) -> Cell:
    """Where a cell marked on a 5x5 grid card lands when the card turns clockwise.

    >>> rotate_clockwise((0, 0), 1), rotate_clockwise((0, 1), 2)
    ((0, 4), (4, 3))
    """
    r, c = cell
    for _ in range(quarter_turns % 4):
        r, c = c, SIZE - 1 - r
    return (r, c)


def wrap_step(cell: Cell, direction: Direction, steps: int) -> Cell:
    """Count ``steps`` cells towards ``direction``, wrapping to the opposite side."""
    dr, dc = direction.step
    return ((cell[0] + dr * steps) % SIZE, (cell[1] + dc * steps) % SIZE)


def nearest_edge_cells(cell: Cell) -> tuple[Cell, ...]:
    """The edge cells of ``cell``'s row or column nearest to it (several on a tie).

    Austro leaves the grid to the outer side of his card; a card that a storm carried inside
    has no outer side, so he leaves to the nearest one in its row or column (house ruling).
    An edge cell is its own answer.
    """
    if is_edge(cell):
        return (cell,)
    r, c = cell
    options = {
        (0, c): r,
        (SIZE - 1, c): SIZE - 1 - r,
        (r, 0): c,
        (r, SIZE - 1): SIZE - 1 - c,
    }
    best = min(options.values())
    return tuple(sorted(e for e, d in options.items() if d == best))


def in_cross(centre: Cell, cell: Cell) -> bool:
    """True when ``cell`` lies in the row or the column of ``centre`` (Austro's cross)."""
    return cell[0] == centre[0] or cell[1] == centre[1]
