"""Pawn-sized changes on the board that nothing found explains: their cards are in doubt.

The pawn finder answers only for blobs of a learned pawn colour that are shaped and sized
like a pawn. A pawn seen badly (a colour drifted with the light, its shade split from its
lit side, half of it over a card's edge) leaves no such blob and would be missed silently,
and the referee would take its card for empty. What stays true of any standing pawn is that
the board differs from the expected one over a pawn-sized, compact patch: such a patch that
no pawn or gem found (or already doubted) accounts for makes its card uncertain.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine.grid import Cell

from .board import BoardGeometry
from .pawns import cell_of

U8 = NDArray[Any]
F64 = NDArray[Any]


def unexplained_cells(
    mask: U8,
    geometry: BoardGeometry,
    pawn_area: float,
    offset: tuple[float, float],
    explained: Iterable[tuple[float, float]],
) -> set[Cell]:
    """Cards under residual blobs of a pawn's size that no point of ``explained`` lies in.

    ``mask`` is the significant residual (board px), ``pawn_area`` the smallest learned pawn
    blob area (board px), ``offset`` a typical blob-to-foot offset (board px: the blob is
    the pawn's body, seen above its foot), and ``explained`` the board points of what was
    found or doubted (pawn blobs, gems). Both the card under the blob and the card under the
    foot it implies are returned: a pawn leaning over a border may stand on either.
    """
    # Half resolution is enough for pawn-sized patches (and four times cheaper).
    m2: U8 = np.ascontiguousarray(mask[::2, ::2])
    n, _, stats, cents = cv2.connectedComponentsWithStats(m2)
    if n <= 1:
        return set()
    points = np.array(list(explained), np.float64).reshape(-1, 2) / 2.0
    out: set[Cell] = set()
    for k in range(1, n):
        x0, y0, w, h, npx = (int(v) for v in stats[k])
        if 4 * npx < UNEXPLAINED_AREA * pawn_area:
            continue
        if min(w, h) < MIN_SIDE or max(w, h) > MAX_ASPECT * min(w, h) or npx < MIN_FILL * w * h:
            continue  # a sliver along a moved card's edge, not a pawn
        if len(points):
            inside = (
                (points[:, 0] >= x0 - REACH)
                & (points[:, 0] < x0 + w + REACH)
                & (points[:, 1] >= y0 - REACH)
                & (points[:, 1] < y0 + h + REACH)
            )
            if inside.any():
                continue
        cx, cy = 2.0 * float(cents[k][0]) + 0.5, 2.0 * float(cents[k][1]) + 0.5
        for x, y in ((cx, cy), (cx - offset[0], cy - offset[1])):
            pos = cell_of(geometry, x, y)
            if not pos.outside:
                out.add(pos.cell)
    return out


UNEXPLAINED_AREA = 0.6  # x the smallest learned pawn area: smaller patches are noise or light
MIN_SIDE = 3  # half-res px
MAX_ASPECT = 3.0  # a standing pawn (with its shadow) is compact
MIN_FILL = 0.35  # share of its bounding box the patch fills
REACH = 2  # half-res px around a patch's box within which a found object explains it
