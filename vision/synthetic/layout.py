"""Where each card lies on the table: uneven gaps, small shifts and turns, as players leave them.

Table coordinates are millimetres on the table plane, x to the right and y down (towards the
bottom row), with the grid's centre at the origin.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine import ALL_CELLS, SIZE, Cell

from .design import CARD_MM

Points = NDArray[np.float64]

# The card's own corners around its centre: top-left, top-right, bottom-right, bottom-left.
_CORNERS = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]) * np.array(CARD_MM)


@dataclass(frozen=True)
class Layout:
    """Each cell's card centre (mm) and turn (degrees, clockwise in the image), row-major."""

    centres: tuple[tuple[float, float], ...]
    angles: tuple[float, ...]

    def centre(self, cell: Cell) -> tuple[float, float]:
        return self.centres[cell[0] * SIZE + cell[1]]

    def angle(self, cell: Cell) -> float:
        return self.angles[cell[0] * SIZE + cell[1]]

    def corners(self, cell: Cell) -> Points:
        """The card's corners in table mm (TL, TR, BR, BL as the card is read)."""
        return to_table(self, cell, _CORNERS)

    def extent(self) -> tuple[float, float, float, float]:
        """Bounding box of all cards: (x0, y0, x1, y1) in mm."""
        pts = np.concatenate([self.corners((r, c)) for r in range(SIZE) for c in range(SIZE)])
        return (
            float(pts[:, 0].min()),
            float(pts[:, 1].min()),
            float(pts[:, 0].max()),
            float(pts[:, 1].max()),
        )

    def nudged(self, seed: int, mm: float = 1.5, deg: float = 1.0) -> Layout:
        """The same layout after some play: every card a little off where it was.

        Cards never end up on top of each other: a card whose nudge would do that stays put.
        """
        rng = np.random.default_rng([seed, 0x2D6E])
        shifts = rng.normal(0.0, mm / 2, (SIZE * SIZE, 2)).clip(-mm, mm)
        turns = rng.normal(0.0, deg / 2, SIZE * SIZE).clip(-deg, deg)
        still: set[Cell] = set()
        while True:  # ends: `still` only grows, and with every card still nothing overlaps
            moved = Layout(
                centres=tuple(
                    (x, y) if cell in still else (x + float(dx), y + float(dy))
                    for cell, (x, y), (dx, dy) in zip(ALL_CELLS, self.centres, shifts, strict=True)
                ),
                angles=tuple(
                    a if cell in still else a + float(t)
                    for cell, a, t in zip(ALL_CELLS, self.angles, turns, strict=True)
                ),
            )
            clashes = moved.overlaps()
            if not clashes or still >= set(ALL_CELLS):
                return moved
            still |= {cell for pair in clashes for cell in pair}

    def overlapping(self, clearance_mm: float = 0.0) -> bool:
        """Whether any two neighbouring cards overlap, or come closer than ``clearance_mm``."""
        return bool(self.overlaps(clearance_mm))

    def overlaps(self, clearance_mm: float = 0.0) -> list[tuple[Cell, Cell]]:
        """The pairs of neighbouring cards that overlap (by more than a sliver)."""
        grow = np.array([1.0 + clearance_mm / CARD_MM[0], 1.0 + clearance_mm / CARD_MM[1]])
        quads = {
            cell: to_table(self, cell, _CORNERS * grow).astype(np.float32) for cell in ALL_CELLS
        }
        pairs = []
        for r, c in ALL_CELLS:
            for other in ((r, c + 1), (r + 1, c - 1), (r + 1, c), (r + 1, c + 1)):
                if other in quads:
                    area, _ = cv2.intersectConvexConvex(quads[(r, c)], quads[other])
                    if area > 0.5:
                        pairs.append(((r, c), other))
        return pairs


def to_table(layout: Layout, cell: Cell, local: Points) -> Points:
    """Points given in mm around the card's centre (card axes) to table mm."""
    a = np.radians(layout.angle(cell))
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return np.asarray(np.asarray(local, np.float64) @ rot.T + layout.centre(cell), np.float64)


def random_layout(seed: int) -> Layout:
    """A hand-laid grid: a typical gap for the table, each gap and card a bit off it.

    Where the cards' turns and shifts would make neighbours overlap (narrow gaps), they are
    tamed: players laying cards close together lay them straighter.
    """
    rng = np.random.default_rng([seed, 0x1A40])
    gap = rng.uniform(2.0, 14.0)
    col_gaps = (gap * rng.uniform(0.5, 1.5, (SIZE, SIZE - 1))).clip(0.5, None)  # per row
    row_gaps = (gap * rng.uniform(0.5, 1.5, SIZE - 1)).clip(0.5, None)
    turn_spread = rng.uniform(0.5, 3.0)
    w, h = CARD_MM
    ys = np.concatenate([[0.0], np.cumsum(h + row_gaps)]) - (4 * h + row_gaps.sum()) / 2
    grid: list[tuple[float, float]] = []
    for r in range(SIZE):
        xs = np.concatenate([[0.0], np.cumsum(w + col_gaps[r])])
        xs = xs - xs[-1] / 2 + rng.normal(0.0, 1.5)  # rows are not quite aligned either
        grid.extend((float(xs[c]), float(ys[r])) for c in range(SIZE))
    shifts = rng.normal(0.0, 1.2, (SIZE * SIZE, 2)).clip(-3.0, 3.0)
    turns = rng.normal(0.0, turn_spread, SIZE * SIZE).clip(-5.0, 5.0)
    for f in (1.0, 0.7, 0.5, 0.35, 0.2, 0.1, 0.0):
        layout = Layout(
            centres=tuple(
                (x + f * float(dx), y + f * float(dy))
                for (x, y), (dx, dy) in zip(grid, shifts, strict=True)
            ),
            angles=tuple(f * float(t) for t in turns),
        )
        if not layout.overlapping(clearance_mm=1.5):  # room left for later nudges
            break
    return layout
