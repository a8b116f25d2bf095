"""A photo's light matched to the calibration's on the bare table around the grid.

The camera is fixed and the table never changes, so the table's pixels in a game photo and
in the calibration photo differ only by the light: the camera's exposure (which scales the
light, so ``L + 16``, a* and b* by one factor in CIE Lab) and the lamp's colour (a shift of
a* and b*). Both are measured there, pixel against pixel.

The cards cannot serve as well: they are shuffled between the photos, and under a light
that falls off across the table (or a lamp's pool) a deck whose light cards lay together at
calibration (islands of a colour are numbered together) spreads its lightness differently
once they are scattered; matching the cards' quartiles then stretched a whole photo's
contrast by up to 1.8x (DEV seed 22 #100: every pawn lost in the residual).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine.grid import SIZE

from .board import BoardGeometry
from .pixels import median

F32 = NDArray[Any]
U8 = NDArray[Any]


def table_ring(geometry: BoardGeometry) -> NDArray[np.bool_]:
    """Board pixels of the bare table around the grid (a card's protruding edge excluded)."""
    side = geometry.board_size[0]
    p = geometry.pitch
    a = round((geometry.margin - RING_GAP) * p)
    b = round((geometry.margin + SIZE + RING_GAP) * p)
    ring = np.ones((side, side), bool)
    ring[max(a, 0) : b, max(a, 0) : b] = False
    return ring


def table_pixels(ref: F32, ring: NDArray[np.bool_]) -> tuple[NDArray[np.intp], F32]:
    """The ring's pixels that measure the light (a third of them each way, neither clipped
    nor noise-bound in ``ref``): their flat indices in the board, in row order, and
    ``ref``'s Lab there. The same for every reading of a profile."""
    w = ring.shape[1]
    ys, xs = np.nonzero(ring[::3, ::3])
    idx = 3 * ys * w + 3 * xs
    then = ref.reshape(-1, 3)[idx]
    usable = (then[:, 0] > DARKEST) & (then[:, 0] < LIGHTEST)
    return idx[usable], then[usable]


def match_exposure(
    lab: F32,
    ref: F32,
    ring: NDArray[np.bool_],
    table: tuple[NDArray[np.intp], F32] | None = None,
) -> F32 | None:
    """``lab`` with the table's exposure and colour matched to ``ref``'s, or None when the
    table shows too little (too dark, too bright, or a ring too narrow) to measure them.

    ``table``, if given, is :func:`table_pixels` of ``ref`` and ``ring`` (made once)."""
    idx, then = table_pixels(ref, ring) if table is None else table
    if len(idx) < MIN_PIXELS:
        return None
    seen = lab.reshape(-1, 3)[idx]
    # The light's scale measured on luminance, then taken to the (L + 16) scale it is on
    # the cards (a cube root): below L 8, L is linear in luminance and a near-black table
    # would understate it. Above, the same as the (L + 16) ratio.
    ratio = float(median(luminance(seen[:, 0]) / luminance(then[:, 0])))
    gain = ratio ** (1.0 / 3.0)
    if not MIN_GAIN <= gain <= MAX_GAIN:
        return None  # a light changed this much is no exposure drift: the cards decide
    shift = median(seen[:, 1:] / gain - then[:, 1:], axis=0)
    # one pass over the board: L -> (L + 16) / gain - 16, a*, b* -> a*, b* / gain - shift
    m = np.zeros((3, 4), np.float32)
    np.fill_diagonal(m, 1.0 / gain)
    m[:, 3] = (16.0 / gain - 16.0, -shift[0], -shift[1])
    out: F32 = cv2.transform(np.ascontiguousarray(lab, np.float32), m)
    return out


def luminance(lightness: F32) -> F32:
    """CIE relative luminance Y (white 1) of Lab lightness L: L's inverse."""
    y: F32 = np.where(
        lightness > TOE_L, ((lightness + 16.0) / 116.0) ** 3, lightness / (24389.0 / 27.0)
    )
    return y


RING_GAP = 0.15  # cells beyond the grid's edge where cards may still protrude
# L: table pixels darker than DARKEST (or lighter than LIGHTEST) are clipped, no measure of
# the light. (DARKEST was 12, for noise: a near-black table, L 3-11 in all its pixels, then
# measured nothing and the cards' quartiles stretched the photo, DEV decks and fresh deck
# 3016: the table lifted to L 33 and every pawn lost in the residual. The median over
# hundreds of pixels is steady on the noise there.)
DARKEST = 2.0
LIGHTEST = 92.0
TOE_L = 8.0  # L where CIE lightness turns from a cube root of luminance to linear
MIN_PIXELS = 400  # table pixels (a third of them in each direction) needed
MIN_GAIN = 0.6  # the (L + 16) scale within which the light is matched on the table
MAX_GAIN = 1.6
