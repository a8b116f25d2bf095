"""Cells with no card on them: the bare table shows there.

Between games the cards are cleared away, and at the start of one they are laid out card by
card. Nothing else in the reader expects an empty grid, and it took one for whatever else
hides the cards: on DEV seed 5's twelve tables, the cleared grid was refused as "hand or
object over the cards" (7), "image too dark" (3: a dark table where the cards were) and
"image is blurred" (2: a plain table has no print), sending the players to fix the wrong
thing. The contract's reason for it is "no grid found".

The table around the grid is in every photo (the ring the light is matched on, see
exposure.py), so a cell whose middle shows only the colours found on that ring has no card.
A card that shares the table's colours cannot be told from it this way: measured on the
calibration board, where every card lies, each such card asks for one more bare cell.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from zefiria.engine.grid import ALL_CELLS, Cell

from .board import BoardGeometry
from .hand import cards_region

F32 = NDArray[Any]

NO_GRID = "no grid found"  # how the reason begins (the contract's words)

# The table's colours: a Lab histogram of the ring (L* by 8.3, a* and b* by 8), each bin
# smoothed with its neighbours so that noise and a little light falloff stay inside it
BINS = (12, 24, 24)
LOW = np.array([0.0, -96.0, -96.0], np.float32)
HIGH = np.array([100.0, 96.0, 96.0], np.float32)
COMMON = 2e-4  # share of the ring's pixels a bin must hold to be one of the table's colours
INSET = 0.2  # a cell's middle (cells in from each side): a nudged or turned card covers it
# share of a cell's middle in the table's colours for it to be bare. The 320 cached tuning
# photos (DEV seed 5, fresh 3000-3099 seed 11, 5000-5099 seed 13, 6000-6099 seed 17; a
# quarter with a hand), every card on the table: at most 3 bare cells beyond the cards that
# look bare at calibration (a dark hand on wood); a cleared grid's cells: 1.0 at the median
BARE = 0.8
BARE_CELLS = 7  # this many bare cells (the reader's HAND_CELLS): no grid to read
# ... and nearly every cell while an arm is seen beside the grid (a cleared table can show
# a change there, where the cards' edges and shadows lay: fresh 6003, every cell bare). A
# hand and arm of the table's colour cover a few cards, not the grid; a camera pushed or
# turned far shows the table where the grid's edge lay, and something else seen beside it
# as an arm: DEV seed 5 and fresh 3000-3099 seed 11, 6000-6099 seed 17, pushed 8% and 15%
# and turned 20 degrees, showed 17 bare cells at most
ARM_BARE_CELLS = 23


def table_colours(lab: F32, ring: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """The colours of the table (Lab bins) on the ``ring`` of the calibration board, where
    nothing but the table lies (an arm reaching in now would add its own)."""
    return _common(lab[::2, ::2][ring[::2, ::2]])


def table_shares(lab: F32, colours: NDArray[np.bool_], geometry: BoardGeometry) -> F32:
    """(25,) each cell's share of its middle in the table's ``colours``, at half the board's
    resolution (``lab`` matched to the calibration's light)."""
    q = _bins(lab[::2, ::2])
    like = colours[q[..., 0], q[..., 1], q[..., 2]]
    return np.array(
        [float(like[cards_region([c], geometry, like.shape, 2, INSET)].mean()) for c in ALL_CELLS]
    )


def bare_cells(lab: F32, colours: NDArray[np.bool_], geometry: BoardGeometry) -> list[Cell]:
    """The cells whose middle shows the table's ``colours`` (``lab`` matched to the
    calibration's light)."""
    shares = table_shares(lab, colours, geometry)
    return [c for c, s in zip(ALL_CELLS, shares, strict=True) if s > BARE]


def no_grid(
    lab: F32,
    colours: NDArray[np.bool_],
    geometry: BoardGeometry,
    calibrated: F32,
    arm_seen: bool = False,
) -> str | None:
    """The reading's reason if too many cells are bare to read a grid (more with an arm
    seen beside it), else None.

    ``calibrated`` is the calibration board's :func:`table_shares`: the cards that look
    bare there (an orange deck's cards on a red-brown wood) may look bare on any cell now,
    so that many more bare cells are needed."""
    bare = bare_cells(lab, colours, geometry)
    like_table = int((calibrated > BARE).sum())
    n = len(bare)
    need = BARE_CELLS + like_table
    if n < (max(ARM_BARE_CELLS, need) if arm_seen else need):
        return None
    # (a count of cells that look bare: a card of the table's colours among them is there)
    gone = (
        "no card on the table"
        if n == len(ALL_CELLS)
        else f"the bare table shows on {n} of the 25 cells"
    )
    return (
        f"{NO_GRID}: {gone} (cleared away, or not laid out yet?); lay out the 25 island cards "
        "where they were calibrated"
    )


def table_unseen(lab: F32, colours: NDArray[np.bool_], ring: NDArray[np.bool_]) -> str | None:
    """The reading's reason if the table around the grid (``ring``) hardly shows the table's
    ``colours`` (``lab`` matched to the calibration's light), else None.

    A hand or an arm reaching in covers part of that ring, never most of it; a frame of
    noise from a faulty camera, or a lens covered, shows no table anywhere, and was taken
    for a hand over the cards."""
    q = _bins(lab[::2, ::2][ring[::2, ::2]])
    share = float(colours[q[:, 0], q[:, 1], q[:, 2]].mean()) if len(q) else 1.0
    if share >= TABLE_SEEN:
        return None
    return (
        f"{VIEW_LOST}: the table around the grid is not seen ({share:.0%} of it as "
        "calibrated); is the lens covered, the camera faulty or turned away?"
    )


VIEW_LOST = "camera view lost"  # how the reason begins
# Share of the ring in the table's colours below which the table is not seen: the 320
# cached tuning photos (DEV seed 5, fresh 3000-3099 seed 11; a quarter with a hand) show
# 0.92 at least, 1.0 at the median; frames of random noise 0.01-0.14 (two profiles).
TABLE_SEEN = 0.5


def _bins(lab: F32) -> NDArray[np.intp]:
    q = (np.clip(lab, LOW, HIGH - 1e-3) - LOW) / (HIGH - LOW) * np.array(BINS, np.float32)
    out: NDArray[np.intp] = q.astype(np.intp)
    return out


def _common(pixels: F32) -> NDArray[np.bool_]:
    """The Lab bins common among ``pixels`` (N, 3), after a [1, 2, 1] smoothing each way."""
    q = _bins(pixels)
    hist = np.zeros(BINS, np.float64)
    np.add.at(hist, (q[:, 0], q[:, 1], q[:, 2]), 1.0)
    for axis in range(3):
        padded = np.pad(hist, [(1, 1) if a == axis else (0, 0) for a in range(3)])
        n = hist.shape[axis]
        hist = (
            padded.take(range(0, n), axis=axis)
            + 2 * padded.take(range(1, n + 1), axis=axis)
            + padded.take(range(2, n + 2), axis=axis)
        ) / 4.0
    out: NDArray[np.bool_] = hist > COMMON * max(len(pixels), 1)
    return out
