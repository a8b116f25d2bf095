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

import numpy as np
from numpy.typing import NDArray
from zefiria.engine.grid import Cell

from .board import BoardGeometry
from .pawns import cell_of
from .pixels import components, percentile_below

U8 = NDArray[Any]
F32 = NDArray[Any]
F64 = NDArray[Any]


def unexplained_cells(
    mask: U8,
    res: F32,
    geometry: BoardGeometry,
    pawn_area: float,
    biggest: float,
    offset: tuple[float, float],
    explained: Iterable[tuple[float, float]],
) -> set[Cell]:
    """Cards under residual blobs of a pawn's size that no point of ``explained`` lies in.

    ``mask`` is the significant part of the residual ``res`` (board px), ``pawn_area`` and
    ``biggest`` the smallest and the biggest learned pawn blob areas (board px), ``offset`` a
    typical blob-to-foot offset (board px: the blob is the pawn's body, seen above its foot),
    and ``explained`` the board points of what was found (pawn blobs, gems, red doubts). Both
    the card under the blob and the card under the foot it implies are returned: a pawn
    leaning over a border may stand on either.
    """
    # Half resolution is enough for pawn-sized patches (and four times cheaper).
    m2: U8 = np.ascontiguousarray(mask[::2, ::2])
    n, labels, stats, cents = components(m2)
    if n <= 1:
        return set()
    points = np.array(list(explained), np.float64).reshape(-1, 2) / 2.0
    out: set[Cell] = set()
    for k in range(1, n):
        x0, y0, w, h, npx = (int(v) for v in stats[k])
        if not UNEXPLAINED_AREA * pawn_area <= 4 * npx <= UNEXPLAINED_MAX * biggest:
            continue  # noise, or far bigger than a pawn with its shadow: light, a moved card
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
        inside_blob = labels[y0 : y0 + h, x0 : x0 + w] == k
        change = res[::2, ::2][y0 : y0 + h, x0 : x0 + w][inside_blob]
        if percentile_below(change, 90, UNEXPLAINED_STRONG):
            continue  # a faint change all over: light or a card's art a little off
        cx, cy = 2.0 * float(cents[k][0]) + 0.5, 2.0 * float(cents[k][1]) + 0.5
        for x, y in ((cx, cy), (cx - offset[0], cy - offset[1])):
            pos = cell_of(geometry, x, y)
            if not pos.outside:
                out.add(pos.cell)
    return out


UNEXPLAINED_AREA = 0.6  # x the smallest learned pawn area: smaller patches are noise or light
# x the biggest learned area: a pawn with its shadow. DEV seed 22 (60 photos): patches 4-14x
# a pawn were a third of the unexplained doubts, none of them a pawn (light, moved cards)
UNEXPLAINED_MAX = 3.0
# Lab: a standing pawn changes part of its patch at least this much (its dark side, its
# top); DEV seed 22 (72 photos): two thirds of the patches no pawn made stayed under it,
# and 3 of the 17 made by a pawn seen too badly to be named
UNEXPLAINED_STRONG = 20.0
MIN_SIDE = 3  # half-res px
MAX_ASPECT = 2.5  # a standing pawn (with its shadow) is compact
MIN_FILL = 0.4  # share of its bounding box the patch fills
REACH = 2  # half-res px around a patch's box within which a found object explains it
