"""The grid's outline from its four straight sides, when something else joins the cards.

The cards' mask is the photo's pixels unlike the table. A lamp's pool of light on the table
beside the grid (or glare on cloth) is unlike the table's border too, and when the cards lie
close together the pool and the grid make one blob: the corners of that blob's hull are then
partly the pool's, and the lattice fitted to them runs off over the table. The grid's sides
are straight lines, each made of five cards' outer edges; a pool's rim is ragged. So each
side is the straight line that most of the mask's boundary facing that way lies on
(a Hough transform restricted to that side's facing), and the four lines meet in the
outline's corners. :func:`side_support` says how much of an outline's perimeter lies on the
mask's edge, to choose between this outline and the hull's.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

F64 = NDArray[Any]
U8 = NDArray[Any]

# A side may be turned this much from the photo's axes: the grid turned up to ~15 degrees,
# plus the perspective of a camera up to ~35 degrees off vertical, which converges the
# left and right sides (see shared/spec/reading.md).
MAX_SIDE_TURN = 40.0
TURN_STEP = 0.5  # degrees between the directions tried
NEAR_EDGE = 2  # px (at the searched size): a point this close to the mask's edge is on it
SUPPORT_SAMPLES = 200  # points probed along each side of an outline


def facing_edges(mask: U8) -> tuple[U8, U8, U8, U8]:
    """Boundary pixels of ``mask`` with the mask to their right, left, below and above:
    the left, right, top and bottom sides of what it covers."""
    m = (mask > 0).astype(np.float32)
    gx = cv2.Sobel(m, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(m, cv2.CV_32F, 0, 1, ksize=3)
    # (a 45-degree corner has |gx| = |gy|: it counts for both sides it joins)
    strong = 1.0
    left = (gx >= strong) & (gx >= np.abs(gy))
    right = (gx <= -strong) & (-gx >= np.abs(gy))
    top = (gy >= strong) & (gy >= np.abs(gx))
    bottom = (gy <= -strong) & (-gy >= np.abs(gx))
    u8 = np.uint8
    return left.astype(u8), right.astype(u8), top.astype(u8), bottom.astype(u8)


def _outer_line(points: F64, side: int, centre: F64) -> tuple[float, float] | None:
    """(angle of the normal in radians, rho) of the outermost strong line ``points`` lie on.

    ``points`` are (x, y) of the mask's edge facing ``side`` (0 left, 1 right, 2 top,
    3 bottom). The gaps between columns (rows) of cards that stand apart have edges facing
    the same way, as long and straight as the grid's own side: of the lines nearly as strong
    as the strongest, the one furthest out (seen from ``centre``) is the grid's side.
    """
    if len(points) < 2:
        return None
    base = 0.0 if side < 2 else 90.0
    angles = np.radians(base + np.arange(-MAX_SIDE_TURN, MAX_SIDE_TURN + TURN_STEP, TURN_STEP))
    rho = points[:, 0:1] * np.cos(angles) + points[:, 1:2] * np.sin(angles)  # (n, angles)
    lo = float(np.floor(rho.min()))
    bins = np.floor(rho - lo).astype(np.intp)
    n_bins = int(bins.max()) + 2
    votes = np.zeros((len(angles), n_bins - 1), np.int64)
    for k in range(len(angles)):
        hist = np.bincount(bins[:, k], minlength=n_bins)
        # (a straight side wobbles by a pixel where its cards sit a little off each other)
        votes[k] = hist[:-1] + hist[1:]
    strong = np.argwhere(votes >= STRONG_SHARE * votes.max())
    ang = angles[strong[:, 0]]
    rhos = lo + strong[:, 1] + 1.0
    # How far out each strong line passes the centre, along the side's outward normal
    # (the normal points along +x or +y: left and top sides lie out towards -rho).
    out = rhos - (centre[0] * np.cos(ang) + centre[1] * np.sin(ang))
    k = int(np.argmin(out) if side in (0, 2) else np.argmax(out))
    # The strongest line within a few px of the outermost one: a turned copy of the same
    # side passes its peak by a bin or two.
    near = np.abs(out - out[k]) <= OUTER_BAND
    pick = strong[near][int(np.argmax(votes[strong[near, 0], strong[near, 1]]))]
    return float(angles[pick[0]]), lo + pick[1] + 1.0


STRONG_SHARE = 0.6  # of the strongest line's votes: a line this strong may be the side
OUTER_BAND = 3.0  # px: lines this close to the outermost are the same side


def straight_outline(mask: U8) -> F64 | None:
    """Corners (TL, TR, BR, BL) where the mask's four straightest sides meet, or None."""
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return None
    centre = np.array([xs.mean(), ys.mean()])
    lines = []
    for side, edge in enumerate(facing_edges(mask)):
        ys, xs = np.nonzero(edge)
        line = _outer_line(np.c_[xs, ys].astype(np.float64), side, centre)
        if line is None:
            return None
        lines.append(line)
    left, right, top, bottom = lines
    corners = []
    for v, hz in ((left, top), (right, top), (right, bottom), (left, bottom)):
        a = np.array([[np.cos(v[0]), np.sin(v[0])], [np.cos(hz[0]), np.sin(hz[0])]])
        if abs(np.linalg.det(a)) < 1e-6:
            return None
        corners.append(np.linalg.solve(a, np.array([v[1], hz[1]])))
    out: F64 = np.array(corners)
    # (four lines can meet in a crossed "bow tie": no outline)
    return out if cv2.isContourConvex(out.astype(np.float32)) else None


def side_support(mask: U8, quad: F64) -> float:
    """Share of the outline's perimeter lying on the mask's edge facing the same way (the
    weakest of its four sides counts: a side along a pool's rim is the one that fails)."""
    near = np.ones((2 * NEAR_EDGE + 1, 2 * NEAR_EDGE + 1), np.uint8)
    h, w = mask.shape[:2]
    shares = []
    sides = ((3, 0), (1, 2), (0, 1), (2, 3))  # left, right, top, bottom as corner pairs
    for edge, (a, b) in zip(facing_edges(mask), sides, strict=True):
        on = cv2.dilate(edge, near)
        t = np.linspace(0.0, 1.0, SUPPORT_SAMPLES)[:, None]
        pts = np.rint(quad[a] + (quad[b] - quad[a]) * t).astype(np.intp)
        inside = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
        hits = np.zeros(len(pts), bool)
        hits[inside] = on[pts[inside, 1], pts[inside, 0]] > 0
        shares.append(float(hits.mean()))
    return min(shares)
