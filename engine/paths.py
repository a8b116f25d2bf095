"""Paths on the grid: what a Breeze overflies and where a Fly can reach.

Everything here works on cell *indices* (``0..24``, row-major, see :func:`grid.index`) and a
25-long ``blocked`` sequence (``True`` where a card is occupied or anchored), because the
legal-move generator calls it many times per state and tuples of ints are the cheapest thing
Python has.

A Breeze costs the number of cards the moving card overflies, the swapped card included: the
length of the shortest orthogonal path between the two cells whose *inner* cells are all free.

>>> free = [False] * 25
>>> breeze_cost((0, 0), (0, 1), free), breeze_cost((0, 0), (1, 1), free)
(1, 2)
>>> blocked = [False] * 25
>>> blocked[index((0, 1))] = blocked[index((1, 0))] = True  # both ways round are blocked
>>> breeze_cost((0, 0), (1, 1), blocked) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence

from .grid import ALL_CELLS, SIZE, Cell, index, is_edge, neighbours, on_grid

CELLS = SIZE * SIZE
UNREACHABLE = -1

# Orthogonal neighbours of every cell, by index.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(index(n) for n in neighbours(c)) for c in ALL_CELLS
)

# The four diagonal rays from every cell, nearest cell first (Etesia's bishop Fly).
DIAGONAL_RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        ray
        for ray in (
            tuple(
                index((r + dr * k, c + dc * k))
                for k in range(1, SIZE)
                if on_grid((r + dr * k, c + dc * k))
            )
            for dr, dc in ((-1, -1), (-1, 1), (1, 1), (1, -1))
        )
        if ray
    )
    for r, c in ALL_CELLS
)

# Austro's cross: the row and the column of the cell he stands beside, as a mask per centre.
CROSSES: tuple[tuple[bool, ...], ...] = tuple(
    tuple(cell[0] == centre[0] or cell[1] == centre[1] for cell in ALL_CELLS)
    for centre in ALL_CELLS
)

EDGE_INDICES: tuple[int, ...] = tuple(index(c) for c in ALL_CELLS if is_edge(c))


def breeze_distances(
    source: int, blocked: Sequence[bool], region: Sequence[bool] | None = None
) -> list[int]:
    """Breeze cost from ``source`` to every cell (``UNREACHABLE`` = -1 where there is no path).

    A breadth-first search that *reaches* blocked cells but never *passes through* them: a
    blocked cell may only be the end of a path, and the caller refuses it as an end anyway
    (except Skyron's own card, which is always the source). ``region`` restricts every cell
    of the path, both ends included (Austro's cross). The source itself is never an inner
    cell, so its own state does not matter.
    """
    dist = [UNREACHABLE] * CELLS
    dist[source] = 0
    frontier = [source]
    d = 0
    while frontier:
        d += 1
        following: list[int] = []
        for i in frontier:
            for n in NEIGHBOURS[i]:
                if dist[n] < 0 and (region is None or region[n]):
                    dist[n] = d
                    if not blocked[n]:
                        following.append(n)
        frontier = following
    return dist


def breeze_cost(
    a: Cell, b: Cell, blocked: Sequence[bool], region: Sequence[bool] | None = None
) -> int | None:
    """The AP a Breeze swapping ``a`` and ``b`` costs, or ``None`` when no path is clear."""
    d = breeze_distances(index(a), blocked, region)[index(b)]
    return None if d < 0 else d


def diagonal_reach(source: int, blocked: Sequence[bool]) -> list[int]:
    """Cells Etesia reaches with one diagonal Fly: each ray up to the first blocked card."""
    out: list[int] = []
    for ray in DIAGONAL_RAYS[source]:
        for i in ray:
            if blocked[i]:
                break
            out.append(i)
    return out


def diagonal_between(a: Cell, b: Cell) -> list[Cell] | None:
    """The cells strictly between ``a`` and ``b`` on a diagonal, or ``None`` if not diagonal.

    >>> diagonal_between((0, 0), (3, 3))
    [(1, 1), (2, 2)]
    >>> diagonal_between((0, 0), (1, 2)) is None
    True
    """
    dr, dc = b[0] - a[0], b[1] - a[1]
    if dr == 0 or abs(dr) != abs(dc):
        return None
    sr, sc = (1 if dr > 0 else -1), (1 if dc > 0 else -1)
    return [(a[0] + sr * k, a[1] + sc * k) for k in range(1, abs(dr))]


def is_adjacent(a: Cell, b: Cell) -> bool:
    """Orthogonally adjacent (sharing a side)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
