"""Pawn-sized changes on the board that nothing found explains: their cards are in doubt.

The pawn finder answers only for blobs of a learned pawn colour that are shaped and sized
like a pawn. A pawn seen badly (a colour drifted with the light, its shade split from its
lit side, half of it over a card's edge) leaves no such blob and would be missed silently,
and the referee would take its card for empty. What stays true of any standing pawn is that
the board differs from the expected one over a pawn-sized, compact patch: such a patch that
no pawn or gem found (or already doubted) accounts for makes its card uncertain.

A pawn on a card whose light changed since the calibration (a glare come or gone, a lamp's
pool) joins that change in one patch far bigger than a pawn. Inside it, the pawn is still a
compact core of strong change that hides the card's print, where the light's change keeps it:
such a core makes its card uncertain too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray
from zefiria.engine.grid import Cell

from .board import BoardGeometry
from .pawn_shape import compact
from .pawns import GREY_PAWN, PAWN_SIGMAS, cell_of, pawn_distances, see_through
from .pixels import components, median, percentile_below

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
    lab: F32,
    expected: F32,
    pawn_colours: tuple[F32, F32] | None = None,
) -> set[Cell]:
    """Cards under residual blobs of a pawn's size that no point of ``explained`` lies in.

    ``mask`` is the significant part of the residual ``res`` (board px), ``pawn_area`` and
    ``biggest`` the smallest and the biggest learned pawn blob areas (board px), ``offset`` a
    typical blob-to-foot offset (board px: the blob is the pawn's body, seen above its foot),
    and ``explained`` the board points of what was found (pawn blobs, gems, red doubts). Both
    the card under the blob and the card under the foot it implies are returned: a pawn
    leaning over a border may stand on either. ``lab`` and ``expected`` are the board seen
    and expected, for the print under a strong core. ``pawn_colours`` (the learned colours
    and their inverse covariances) let a patch shaped like a tall pawn leaning, too long
    for one standing, be a doubt when it has a coloured pawn's colour (see LEANING_SHARE).
    """
    # Half resolution is enough for pawn-sized patches (and four times cheaper).
    m2: U8 = np.ascontiguousarray(mask[::2, ::2])
    n, labels, stats, cents = components(m2)
    if n <= 1:
        return set()
    points = np.array(list(explained), np.float64).reshape(-1, 2) / 2.0
    out: set[Cell] = set()
    boxes = stats.tolist()  # (Python ints at once: a numpy row per object costs more)
    for k in range(1, n):
        x0, y0, w, h, npx = boxes[k]
        if UNEXPLAINED_MAX * biggest < 4 * npx <= CORE_PATCH_MAX * biggest:
            core = _pawn_core(labels, k, (x0, y0, w, h), res, lab, expected, pawn_area, biggest)
            if core is None or _explained(points, core[:4]):
                continue
            cx, cy = core[4:]
        else:
            if not UNEXPLAINED_AREA * pawn_area <= 4 * npx <= UNEXPLAINED_MAX * biggest:
                continue  # noise, or far bigger than a pawn with its shadow: light, a moved card
            if not compact(w, h, npx, leaning=True) or _explained(points, (x0, y0, w, h)):
                continue  # a sliver along a moved card's edge, not a pawn; or a pawn found
            inside_blob = labels[y0 : y0 + h, x0 : x0 + w] == k
            if not compact(w, h, npx) and not _pawn_coloured(
                inside_blob, lab, x0, y0, pawn_colours
            ):
                continue  # too long for a pawn standing, and no coloured pawn's: a card's strip
            change = res[::2, ::2][y0 : y0 + h, x0 : x0 + w][inside_blob]
            if percentile_below(change, 90, UNEXPLAINED_STRONG) and not _shaded_body(
                change, lab, expected, inside_blob, x0, y0
            ):
                continue  # a faint change all over: light or a card's art a little off
            cx, cy = 2.0 * float(cents[k][0]) + 0.5, 2.0 * float(cents[k][1]) + 0.5
        for x, y in ((cx, cy), (cx - offset[0], cy - offset[1])):
            pos = cell_of(geometry, x, y)
            if not pos.outside:
                out.add(pos.cell)
    return out


def _explained(points: F64, box: tuple[int, int, int, int]) -> bool:
    """Whether a found object's point (half-res px) lies in or beside a patch's box."""
    x0, y0, w, h = box
    if not len(points):
        return False
    inside = (
        (points[:, 0] >= x0 - REACH)
        & (points[:, 0] < x0 + w + REACH)
        & (points[:, 1] >= y0 - REACH)
        & (points[:, 1] < y0 + h + REACH)
    )
    return bool(inside.any())


def _pawn_coloured(
    blob: NDArray[np.bool_], lab: F32, x0: int, y0: int, pawn_colours: tuple[F32, F32] | None
) -> bool:
    """Whether ``LEANING_SHARE`` of a patch (``blob`` at (x0, y0), half-res px) or more lies
    within ``PAWN_SIGMAS`` of one coloured pawn's learned colour (Lab, ``pawn_colours``)."""
    if pawn_colours is None:
        return False
    colours, icovs = pawn_colours
    coloured = np.hypot(colours[:, 1], colours[:, 2]) > GREY_PAWN
    if not coloured.any():
        return False
    h, w = blob.shape
    pix = lab[2 * y0 : 2 * (y0 + h) : 2, 2 * x0 : 2 * (x0 + w) : 2][blob]
    near = pawn_distances(pix.astype(np.float32), colours[coloured], icovs[coloured]) < PAWN_SIGMAS
    return bool(near.mean(axis=0).max() >= LEANING_SHARE)


def _shaded_body(
    change: F32, lab: F32, expected: F32, blob: NDArray[np.bool_], x0: int, y0: int
) -> bool:
    """Whether a faint patch (``change``: its pixels' residual) is a pawn the colour of its
    card: a body lit on one side and shaded on the other, where the card was even, hiding
    its print. (Its colour barely differs from the card's, so its change stays faint; a
    change of light shifts the lightness evenly, and the print shows through it.)

    ``blob`` is the patch at (x0, y0), half-res px; ``lab`` and ``expected`` the board seen
    and expected (board px)."""
    if percentile_below(change, 90, BODY_FAINTEST):
        return False
    h, w = blob.shape
    rows, cols = slice(2 * y0, 2 * (y0 + h), 2), slice(2 * x0, 2 * (x0 + w), 2)
    seen = lab[rows, cols, 0][blob].astype(np.float64)
    card = expected[rows, cols, 0][blob].astype(np.float64)
    if float(np.std(seen - card)) < BODY_SPREAD:
        return False
    if float(np.std(seen) - np.std(card)) < BODY_ADDED:
        return False
    return see_through(lab, expected, blob, x0, y0) < BODY_SEE_THROUGH


def _pawn_core(
    labels: NDArray[Any],
    k: int,
    box: tuple[int, int, int, int],
    res: F32,
    lab: F32,
    expected: F32,
    pawn_area: float,
    biggest: float,
) -> tuple[int, int, int, int, float, float] | None:
    """The one pawn-like core of strong change in the big patch ``k`` of ``labels`` (half-res,
    within ``box``), as its box (half-res px) and centre (board px), or None."""
    bx, by, bw, bh = box
    change = res[::2, ::2][by : by + bh, bx : bx + bw]
    strong = ((labels[by : by + bh, bx : bx + bw] == k) & (change >= CORE_STRONG)).astype(np.uint8)
    n, cores, stats, cents = components(strong)
    found = None
    for j in range(1, n):
        x0, y0, w, h, npx = (int(v) for v in stats[j])
        if not UNEXPLAINED_AREA * pawn_area <= 4 * npx <= CORE_AREA * biggest:
            continue
        if not compact(w, h, npx):
            continue
        if found is not None:
            return None  # two cores: the light's pattern, not one pawn
        core = cores[y0 : y0 + h, x0 : x0 + w] == j
        if float(median(change[y0 : y0 + h, x0 : x0 + w][core])) < CORE_MEDIAN:
            return None
        if see_through(lab, expected, core, bx + x0, by + y0) >= CORE_SEE_THROUGH:
            return None  # the print shows through: the light changed over the card
        cx, cy = (2.0 * (b + float(c)) + 0.5 for b, c in zip((bx, by), cents[j], strict=True))
        found = (bx + x0, by + y0, w, h, cx, cy)
    return found


UNEXPLAINED_AREA = 0.6  # x the smallest learned pawn area: smaller patches are noise or light
# x the biggest learned area: a pawn with its shadow. DEV seed 22 (60 photos): patches 4-14x
# a pawn were a third of the unexplained doubts, none of them a pawn (light, moved cards)
UNEXPLAINED_MAX = 3.0
# Lab: a standing pawn changes part of its patch at least this much (its dark side, its
# top); DEV seed 22 (72 photos): two thirds of the patches no pawn made stayed under it,
# and 3 of the 17 made by a pawn seen too badly to be named
UNEXPLAINED_STRONG = 20.0
# A patch up to this (x the biggest learned area) is looked into for a pawn's core: a pawn
# joined to the change of light around it (a glare come or gone over its card). DEV seed 5
# and fresh 3000-3999 seed 11 and 8000-8999 seed 61 (480 photos each): such patches with one
# compact core held 25 pawns missed, and 206 where no pawn stood (the light's change); the
# core's tests below keep 19 of the pawns and 25 of the others.
CORE_PATCH_MAX = 12.0
CORE_STRONG = 20.0  # Lab: the core is where the patch changes this much
CORE_AREA = 3.0  # x the biggest learned area: a pawn's body seen whole is up to 2.5x
CORE_MEDIAN = 26.0  # Lab, the core's median change: pawns 30 (median), light 25
# the print's correlation inside the core: pawns 0.31 (median), 0.75 (90th percentile);
# light 0.88 (median), 0.19 (10th percentile)
CORE_SEE_THROUGH = 0.7
# A faint patch is a pawn the colour of its card (a green pawn on a green card, a grey one
# on a grey card) when its lightness changed unevenly (BODY_SPREAD, Lab L: std of seen minus
# expected), spreads more than the card's did there (BODY_ADDED), and the print does not
# show through (BODY_SEE_THROUGH), its change at least BODY_FAINTEST (90th percentile).
# Measured on DEV seed 5 and fresh 8000-8999 seed 61 (480 photos each, 6 per session): of
# the faint patches, 13 held a pawn missed silently and 1931 none; these keep 8 and 22.
BODY_FAINTEST = 15.0
BODY_SPREAD = 8.0
BODY_ADDED = 4.0
BODY_SEE_THROUGH = 0.7
# A patch too long for a pawn standing (pawn_shape.MAX_ASPECT) but not for a tall one
# leaning (SLIM_ASPECT, THICK) is a doubt when this share of it has a coloured pawn's colour:
# fresh deck 13027 (seed 47 #221) had Skyron seen as a purple bar 17 x 6 half-res px, and
# 3012 (seed 11 #98) likewise, both missed silently (neither look names a patch so long).
# Such patches of any colour are mostly strips along a moved card's edge (their pixels
# 0-0.2 of any coloured pawn's, the two Skyrons 0.5), and of a grey pawn's colour often
# (a card's grey edge or shadow), so a grey one is left out. See docs/vision.md.
LEANING_SHARE = 0.3
REACH = 2  # half-res px around a patch's box within which a found object explains it
