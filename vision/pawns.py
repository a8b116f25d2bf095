"""Pawns and gems: objects on the table that the calibrated board does not explain.

The *residual* of a reading is where the board differs from what the calibration says it
should look like once the identified cards are put in their places (the solved photo's own
crops) and the bare table around them. Pawns are residual blobs of a learned pawn colour;
red gems are small residual blobs of strongly red chroma that no pawn colour explains.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine.grid import SIZE, Cell
from zefiria.engine.spirits import CALIBRATION_ORDER, Spirit
from zefiria.engine.state import Position

from .board import BoardGeometry

# OpenCV's type stubs return loosely typed arrays: the aliases name the intent only.
F32 = NDArray[Any]
F64 = NDArray[Any]
U8 = NDArray[Any]

PAWN_SIGMAS = 3.0  # Mahalanobis distance within which a pixel has a pawn's colour
PAWN_COLOUR_RADIUS = 18.0  # Lab distance used to keep reddish pawns out of the gem mask


def residual(lab: F32, expected: F32) -> F32:
    """Per-pixel Lab difference, blurred so that a one-pixel misalignment of edges fades."""
    a = cv2.blur(lab, (5, 5))
    b = cv2.blur(expected, (5, 5))
    d: F32 = np.sqrt(((a - b) ** 2).sum(axis=-1))
    return d


def objects_mask(res: F32, floor: float) -> U8:
    """Pixels that differ from the expectation by much more than the board's usual noise."""
    sample = res[::3, ::3]
    med = float(np.median(sample))
    mad = float(np.median(np.abs(sample - med))) + 1e-3
    thr = max(floor, med + 6.0 * mad)
    mask = (res > thr).astype(np.uint8)
    out: U8 = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return out


def cell_of(geometry: BoardGeometry, x: float, y: float) -> Position:
    """The card under board pixel (x, y), or the edge cell beside it when off the grid."""
    col, row = geometry.board_to_lattice(x, y)
    r, c = int(np.floor(row)), int(np.floor(col))
    if 0 <= r < SIZE and 0 <= c < SIZE:
        return Position((r, c))
    return Position((min(max(r, 0), SIZE - 1), min(max(c, 0), SIZE - 1)), outside=True)


def _pawn_distances(pix: F32, colours: F32, icovs: F32) -> F32:
    diff = pix[:, None, :] - colours[None, :, :]
    d: F32 = np.sqrt(np.maximum(np.einsum("npi,pij,npj->np", diff, icovs, diff), 0))
    return d


def pawn_blobs(
    lab: F32, expected: F32, mask: U8, colours: F32, icovs: F32
) -> list[tuple[float, float, float] | None]:
    """For each pawn colour, its largest blob: (area, x, y) in board px, or None."""
    out: list[tuple[float, float, float] | None] = [None] * len(colours)
    # Pawns are big: half resolution finds them as well, four times faster.
    lab, expected, mask = lab[::2, ::2], expected[::2, ::2], mask[::2, ::2]
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return out
    d = _pawn_distances(lab[ys, xs], colours, icovs)
    # A pixel is a pawn's when it has the pawn's colour and the card or table expected there
    # does not: card art that happens to share a pawn's colour is no pawn.
    d_exp = _pawn_distances(expected[ys, xs], colours, icovs)
    nearest = d.argmin(axis=1)
    dmin = d.min(axis=1)
    exp_near = d_exp[np.arange(len(nearest)), nearest]
    close = (dmin < PAWN_SIGMAS) & (exp_near > PAWN_SIGMAS)
    for i in range(len(colours)):
        sel = close & (nearest == i)
        if not sel.any():
            continue
        m: U8 = np.zeros(mask.shape, np.uint8)
        m[ys[sel], xs[sel]] = 1
        m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        n, _, stats, cents = cv2.connectedComponentsWithStats(m)
        if n <= 1:
            continue
        k = int(np.argmax(stats[1:, cv2.CC_STAT_AREA])) + 1
        area = float(stats[k, cv2.CC_STAT_AREA]) * 4
        out[i] = (area, 2 * float(cents[k][0]) + 0.5, 2 * float(cents[k][1]) + 0.5)
    return out


def find_pawns(
    lab: F32,
    expected: F32,
    mask: U8,
    colours: F32,
    icovs: F32,
    offsets: F64,
    areas: F64,
    geometry: BoardGeometry,
) -> tuple[dict[Spirit, Position], set[Spirit]]:
    """Pawns seen, and those whose place is doubtful (a blob too small or ambiguous)."""
    found: dict[Spirit, Position] = {}
    doubtful: set[Spirit] = set()
    blobs = pawn_blobs(lab, expected, mask, colours, icovs)
    for i, spirit in enumerate(CALIBRATION_ORDER):
        blob = blobs[i]
        if blob is None or blob[0] < 0.45 * areas[i]:
            continue
        area, x, y = blob
        found[spirit] = cell_of(geometry, x - offsets[i][0], y - offsets[i][1])
        if area < 0.5 * areas[i] or area > 2.5 * areas[i]:
            doubtful.add(spirit)
    return found, doubtful


def find_gems(
    lab: F32,
    expected: F32,
    mask: U8,
    colours: F32,
    card_area: float,
    geometry: BoardGeometry,
) -> tuple[list[Cell], list[Cell]]:
    """Cells with a red gem, and cells where a red blob's meaning is doubtful.

    The gems were not in the calibration photos, so their colour is a prior: strongly red
    chroma (Lab a* well above the hue's b*), in a blob far smaller than a card and unlike any
    pawn's learned colour.
    """
    a = lab[..., 1]
    b = lab[..., 2]
    # Red, and much redder than the card expected there (red card art is no gem).
    red = mask.astype(bool) & (a > 30.0) & (a > 0.9 * np.abs(b)) & (a - expected[..., 1] > 20.0)
    ys, xs = np.nonzero(red)
    for col in colours:
        if col[1] > 25.0 and len(ys):  # a reddish pawn: keep its colour out of the gem mask
            near = np.sqrt(((lab[ys, xs] - col) ** 2).sum(axis=-1)) < PAWN_COLOUR_RADIUS * 0.8
            red[ys[near], xs[near]] = False
    m = red.astype(np.uint8)
    n, _, stats, cents = cv2.connectedComponentsWithStats(m)
    gems: list[Cell] = []
    doubts: list[Cell] = []
    for k in range(1, n):
        area = float(stats[k, cv2.CC_STAT_AREA])
        if area < 0.004 * card_area:
            continue
        pos = cell_of(geometry, float(cents[k][0]), float(cents[k][1]))
        if pos.outside:
            continue
        if area > 0.2 * card_area:
            doubts.append(pos.cell)
        elif area >= 0.008 * card_area:
            if pos.cell not in gems:
                gems.append(pos.cell)
        else:
            doubts.append(pos.cell)
    return gems, doubts
