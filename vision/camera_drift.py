"""Whether the camera moved since calibration: the grid's corners against where they were.

The reader warps every photo by the grid calibration found, so a camera knocked on its
mast, turned or zoomed shows the cards a little off their calibrated places in the board
image. Up to a few board px the reading's own per-card alignment follows them; beyond
that every card fits its island badly, and what the reading made of it was misleading:
"hand or object over the cards" with no hand to take away, or an "ok" reading with every
card in doubt and a pawn or a gem found on cards it could not tell. The players must put
the camera back or calibrate again, and only a reason that says so tells them.

Measured only when a reading is about to fail or leaves many cells in doubt (see
:mod:`.reader`; with few doubts, a hidden card or an arm beside the grid has the table
alone asked, :func:`camera_moved_far`), and at calibration between its two photos: the
calibration's board and this photo's, around each of the grid's four outer corners, by
phase correlation (OpenCV's ``phaseCorrelate``). The cards in the grid change from photo to
photo, but the gaps between them and the table around them do not: at each corner the
pattern is the grid's edge against the table, unlike anywhere a card's pitch away, so each
window's peak is the grid's own shift there. A turned camera moves the four corners
different ways, a zoom moves them apart: each is measured on its own.

A camera pushed about a card's pitch or more defeats the corner windows: the grid's own
pattern lies again where it was, and phase correlation measures a fraction of the move or
nothing. Every cell then shows its neighbour's card, and the reading could name those
islands with certainty. What a pitch away cannot fake is the table around the grid: its
edges, matched whole at every shift up to ``REACH`` cells (OpenCV's ``matchTemplate``),
fit best where the grid went (:func:`table_shift`).
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
# The table around the grid (see table_shift) fit best this many cells off...
FAR = 0.4
# ...and this much better (its edges' rms difference) than in place is a camera moved far.
# Photos of an unmoved camera fit best at most 0.19 cells off (530 photos, 154 with a hand:
# DEV seeds 3 and 21, fresh decks 3000-3999 seed 11, 5000-5999 seed 13, 6000-6999 seed 17).
# Of the same sessions' photos taken again with the camera pushed 8-9% of the image (about a
# pitch), every reading failed or doubted; 364 of 366 are named moved so (before: 154), and
# all 62 of them that had read "ok" with islands wrong and certain.
CLEAR = 0.85
REACH = 1.6  # cells: the farthest shift tried
RIM = 0.08  # cells: the outer cards' edges beside the table, left out (cards shift a little)
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


def _edges(grey: F32) -> F32:
    """How strongly brightness changes at each pixel (Sobel gradient magnitude)."""
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    return np.asarray(cv2.magnitude(gx, gy), np.float32)


@cache
def _table_overlap(
    shape: tuple[int, int], pitch: float, margin: float, reach: int
) -> tuple[F32, F32, F32]:
    """For a half-resolution board of ``shape``: the table around the grid (1 there, 0 on
    the grid), how much of it each shift up to ``reach`` px leaves in the picture, and the
    picture padded by ``reach`` (1 in it, 0 around). The same for every photo."""
    first = round((margin - RIM) * pitch)
    last = round((margin + SIZE + RIM) * pitch)
    mask = np.ones(shape, np.float32)
    mask[first:last, first:last] = 0.0
    shown = cv2.copyMakeBorder(
        np.ones(shape, np.float32), reach, reach, reach, reach, cv2.BORDER_CONSTANT, value=0
    )
    count = np.asarray(cv2.matchTemplate(shown, mask, cv2.TM_CCORR), np.float32)
    return mask, count, np.asarray(shown, np.float32)


# The last calibration board's table terms (see _reference): the reader asks about one
# profile's board photo after photo. The board itself is kept, so that it is matched by
# identity and its id cannot be another's.
_LAST: list[tuple[F32, tuple[int, int, float, float, int], tuple[F32, F32, F32, F32]]] = []


def _reference(
    ref: F32, shape: tuple[int, int], pitch: float, margin: float, reach: int
) -> tuple[F32, F32, F32, F32]:
    """For the calibration board ``ref``: the table mask, the overlap counts, the table's
    edges where the mask is, and their squares summed at each shift. The same for every
    photo read against ``ref``."""
    key = (shape[0], shape[1], pitch, margin, reach)
    if _LAST and _LAST[0][0] is ref and _LAST[0][1] == key:
        return _LAST[0][2]
    was = _edges(np.ascontiguousarray(ref[::2, ::2, 0], np.float32))
    mask, count, shown = _table_overlap(shape, pitch, margin, reach)
    table = mask * was
    squares = np.asarray(cv2.matchTemplate(shown, table * was, cv2.TM_CCORR), np.float32)
    terms = (mask, count, table, squares)
    _LAST[:] = [(ref, key, terms)]
    return terms


def table_shift(lab: F32, ref: F32, geometry: BoardGeometry) -> float | None:
    """How far (a share of a cell) the table around the grid moved from ``ref`` to ``lab``,
    if it plainly moved far (``FAR`` or more, fitting ``CLEAR`` times better there than in
    place); None otherwise.

    The edges of ``ref``'s table (half resolution, where the grid is not) are compared with
    ``lab``'s at every shift up to ``REACH`` cells, over the part of the board both show:
    the sum of squared differences is three correlations (the cross term and the two
    squares), divided by a fourth that counts the overlap; each one ``matchTemplate`` call,
    the overlap's and the table's own square the same for every photo. Edges, not
    brightness, so that the room's light, which stays in the picture as the camera moves,
    does not pull the fit back in place."""
    now = _edges(np.ascontiguousarray(lab[::2, ::2, 0], np.float32))
    pitch = geometry.pitch / 2.0
    reach = round(REACH * pitch)
    mask, count, table, table_squares = _reference(ref, now.shape, pitch, geometry.margin, reach)
    padded = cv2.copyMakeBorder(now, reach, reach, reach, reach, cv2.BORDER_CONSTANT, value=0)
    ccorr = cv2.TM_CCORR
    squares = table_squares + cv2.matchTemplate(padded * padded, mask, ccorr)
    cross = cv2.matchTemplate(padded, table, ccorr)
    # (the table shown is a thin ring: a shift of a card or more takes one or two of its
    # sides out of the picture; shifts that leave less than a quarter of it are not tried)
    tried = count > 0.25 * float(mask.sum())
    rms = np.full(count.shape, np.inf, np.float32)
    rms[tried] = np.sqrt(np.maximum(squares[tried] - 2.0 * cross[tried], 0.0) / count[tried])
    y, x = np.unravel_index(int(np.argmin(rms)), rms.shape)
    off = float(np.hypot(x - reach, y - reach)) / pitch
    # (strictly better: a board with no edges at all fits every shift alike, at 0)
    if off < FAR or not rms[y, x] < CLEAR * rms[reach, reach]:
        return None
    return off


def moved_by(lab: F32, ref: F32, geometry: BoardGeometry) -> float | None:
    """How far (a share of a cell) the grid moved from ``ref`` to ``lab``, if it moved
    (``MOVED`` or more at the corners, or far by the table around the grid); None if it did
    not, or if that cannot be told."""
    size = grid_drift(lab, ref, geometry).size()
    if size is not None and size >= MOVED * geometry.pitch:
        return size / geometry.pitch
    # (measured a fraction of a far move or nothing: see table_shift)
    return table_shift(lab, ref, geometry)


def camera_moved(lab: F32, ref: F32, geometry: BoardGeometry) -> str | None:
    """The reason to refuse a photo taken after the camera moved, or None if it did not
    (or if that cannot be told)."""
    return _refusal(moved_by(lab, ref, geometry))


def camera_moved_far(lab: F32, ref: F32, geometry: BoardGeometry) -> str | None:
    """The reason to refuse a photo taken after the camera moved far (about a card's pitch:
    :func:`table_shift`), or None. For readings with few doubts: a small move leaves the
    cards where their own alignment finds them, and a hand over a corner can pull the
    corners' measure over ``MOVED`` (EVAL deck 1002 #18, 0.068 of a cell: a hand photo,
    refused as moved when the corners were asked about every photo with a hand).

    The table's fit is not asked to be clearer there, though a hand is mostly what makes
    such a reading: over a striped table, fresh 6009 #54 (6000-6999 seed 43; one of 342 hand
    scenes on four tuning sets) fit a stripe off, 0.60 of a cell, at 0.64 of the rms in
    place, and is refused as moved. Of the tuning sets' pushed photos read "ok" with few
    doubts and islands wrong and sure, 13 of 14 fit at 0.55 or better but DEV seed 21 #80 at
    0.77: a fit clear to 0.6 would have kept that misread to spare that hand photo."""
    return _refusal(table_shift(lab, ref, geometry))


def _refusal(share: float | None) -> str | None:
    if share is None:
        return None
    return (
        f"{CAMERA_MOVED}: the cards lie {share:.2f} of a card from where they were calibrated"
        " (mast bumped or turned?); put the camera back as it was, or calibrate again"
    )
