"""Whether the camera moved since calibration: the grid's corners against where they were.

The reader warps every photo by the grid calibration found, so a camera knocked on its
mast, turned or zoomed shows the cards a little off their calibrated places in the board
image. Up to a few board px the reading's own per-card alignment follows them; beyond
that every card fits its island badly, and what the reading made of it was misleading:
"hand or object over the cards" with no hand to take away, or an "ok" reading with every
card in doubt and a pawn or a gem found on cards it could not tell. The players must put
the camera back or calibrate again, and only a reason that says so tells them.

Measured only when a reading is about to fail or leaves many cells in doubt (see
:mod:`.reader`), and at calibration between its two photos: the calibration's board and
this photo's, around each of the grid's four outer corners, by phase
correlation (OpenCV's ``phaseCorrelate``). The cards in the grid change from photo to
photo, but the gaps between them and the table around them do not: at each corner the
pattern is the grid's edge against the table, unlike anywhere a card's pitch away, so
each window's peak is the grid's own shift there. A turned camera moves the four corners
different ways, a zoom moves them apart: each is measured on its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine.grid import SIZE

from .board import BoardGeometry

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]

WINDOW = 2.5  # cells: the side of the window around each of the grid's corners
# Phase correlation's response (1 for a pure shift) below which a window's peak is no
# measurement: a hand over that corner, a small blurred grid, or a photo unlike the
# calibration's altogether. (Under 0.25 a corner of an unmoved camera was measured a whole
# card off now and then, the grid's own pattern a pitch away: fresh deck 3024.)
RELIABLE = 0.25
# Share of a cell beyond which the grid moved (at three corners at least: see Drift.size).
# Photos of an unmoved camera measure 0.044 at most (432 photos of DEV seed 21 and fresh
# decks 3000-3999 seed 11, a fourth with a hand over the cards); of the same sessions'
# photos taken again with the camera turned 1-2 degrees, pushed 1-2% or zoomed 3%, 209 of
# the 246 whose readings failed measure 0.06 or more (docs/vision.md, "The camera moved").
MOVED = 0.06
# What a reason refusing a photo for it starts with (the referee tells the players so)
CAMERA_MOVED = "camera moved"


@dataclass(frozen=True)
class Drift:
    """How far the grid's four outer corners lie from where they were calibrated."""

    shifts: F64  # (4, 2) board px (x, y): top-left, top-right, bottom-left, bottom-right
    responses: F64  # (4,) each window's phase-correlation response

    def size(self) -> float | None:
        """The distance (board px) at least three of the reliably measured corners moved, or
        None when fewer than three were measured (a hand over two corners, a photo of
        something else). A moved camera moves every corner; one corner measured wrong (a
        card's pitch off, or a card nudged there) does not make a move."""
        ok = self.responses >= RELIABLE
        if int(ok.sum()) < 3:
            return None
        return float(np.sort(np.hypot(self.shifts[ok, 0], self.shifts[ok, 1]))[-3])


@cache
def _hanning(side: int) -> F32:
    window: F32 = np.asarray(cv2.createHanningWindow((side, side), cv2.CV_32F), np.float32)
    return window


def grid_drift(lab: F32, ref: F32, geometry: BoardGeometry) -> Drift:
    """The grid's shift at each outer corner from the calibration board ``ref`` to the board
    ``lab`` (both board Lab images of the same geometry), measured at half resolution."""
    now = np.ascontiguousarray(lab[::2, ::2, 0], np.float32)
    was = np.ascontiguousarray(ref[::2, ::2, 0], np.float32)
    pitch = geometry.pitch
    side = max(8, round(WINDOW * pitch / 2) // 2 * 2)
    side = min(side, now.shape[0] // 2 * 2, now.shape[1] // 2 * 2)
    window = _hanning(side)
    first = geometry.margin * pitch
    last = first + SIZE * pitch
    shifts, responses = [], []
    for cx, cy in ((first, first), (last, first), (first, last), (last, last)):
        x0 = min(max(0, round(cx / 2 - side / 2)), now.shape[1] - side)
        y0 = min(max(0, round(cy / 2 - side / 2)), now.shape[0] - side)
        box = (slice(y0, y0 + side), slice(x0, x0 + side))
        (dx, dy), response = cv2.phaseCorrelate(was[box], now[box], window)
        shifts.append((2.0 * dx, 2.0 * dy))
        responses.append(response)
    return Drift(np.array(shifts, np.float64), np.array(responses, np.float64))


def moved_by(lab: F32, ref: F32, geometry: BoardGeometry) -> float | None:
    """How far (a share of a cell) the grid moved from ``ref`` to ``lab``, if it moved
    (``MOVED`` or more); None if it did not, or if that cannot be told."""
    size = grid_drift(lab, ref, geometry).size()
    if size is None or size < MOVED * geometry.pitch:
        return None
    return size / geometry.pitch


def camera_moved(lab: F32, ref: F32, geometry: BoardGeometry) -> str | None:
    """The reason to refuse a photo taken after the camera moved, or None if it did not
    (or if that cannot be told)."""
    share = moved_by(lab, ref, geometry)
    if share is None:
        return None
    return (
        f"{CAMERA_MOVED}: the cards lie {share:.2f} of a card from where they were calibrated"
        " (mast bumped or turned?); put the camera back as it was, or calibrate again"
    )
