"""Pawns beside a hand: the part of a hand's reach that is a pawn's colour, not the hand's.

A hand over the table puts its whole reach out of the pawn search (``hand.hand_over_cards``):
fingertips, its shadow and a card it pushes are nothing to read. But players point at and
pick up pawns, so the pawns a hand leaves visible stand in its reach, often touching a
finger (DEV seed 21: 15 of the 63 pawns missed were beside a hand, none hidden by it).

A pawn's colour that the hand itself does not have tells the pawn from the hand: of the
changed pixels in the reach, those of one pawn's colour lie in one blob (the pawn) and
nowhere else on the hand. Only such pixels are handed back to the pawn search, which then
judges their blob as anywhere else (shape, size, print showing through). A colour the hand
has anywhere (a tan hand and the orange pawn, a dark sleeve and the black one) is not.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from .pawn_shape import slender
from .pawns import GROW_SIGMAS, closed_pixels, pawn_distances
from .pixels import components

F32 = NDArray[Any]
U8 = NDArray[Any]


def pawns_in_reach(
    lab: F32,
    expected: F32,
    mask: U8,
    reach: NDArray[np.bool_],
    colours: F32,
    icovs: F32,
    areas: NDArray[np.float64],
) -> NDArray[np.bool_]:
    """The pixels of ``reach`` (board px) left to the pawn search: changed (``mask``), of a
    pawn's colour (and the expected board's is not) and within a pawn's size (``areas``:
    each pawn's learned blob area, board px) of that colour's biggest patch there, when the
    rest of the reach holds almost none of it, the patch is no sliver and their colour is
    far from the card's."""
    h, w = mask.shape[:2]
    keep: NDArray[np.bool_] = np.zeros((h, w), bool)
    # (half resolution, as the pawn search: a pawn is big)
    r2 = reach[::2, ::2] & (mask[::2, ::2] > 0)
    ys, xs = np.nonzero(r2)
    if len(xs) == 0:
        return keep
    d = pawn_distances(lab[::2, ::2][ys, xs], colours, icovs)
    d_exp = pawn_distances(expected[::2, ::2][ys, xs], colours, icovs)
    nearest = d.argmin(axis=1)
    idx = np.arange(len(xs))
    # (the loosest colour the search grows a pawn over: what the hand must not have)
    close = (d[idx, nearest] < GROW_SIGMAS) & (d_exp[idx, nearest] > GROW_SIGMAS)
    hand_px = len(xs)
    keep2 = np.zeros(r2.shape, np.uint8)
    for i in range(len(colours)):
        sel = close & (nearest == i)
        count = int(sel.sum())
        if count == 0:
            continue
        # (closed, as the pawn search's own blobs: a speck of art does not break a pawn)
        n, labels, stats, cents = components(closed_pixels(r2.shape, ys[sel], xs[sel]))
        if n < 2:
            continue
        k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        # The pawn: its colour within a pawn's size of its biggest patch (a pawn's lit top
        # and shaded side can part, fresh 6000-6999)
        radius = NEAR * float(np.sqrt(areas[i] / 4.0 / np.pi))
        cx, cy = cents[k]
        near = (xs[sel] - cx) ** 2 + (ys[sel] - cy) ** 2 <= radius * radius
        inside = int(near.sum())
        # The hand has this colour too: scattered over it, or a second patch of it
        if count - inside > max(STRAY_PX, STRAY_SHARE * (hand_px - inside)):
            continue
        # A sliver along the hand's edge (its shadow over card art of a pawn's colour,
        # fresh 8000-8999 seed 47 #37) is no pawn, nor any part of it
        if slender(labels == k):
            continue
        # A pawn hides the card: its colour is far from the card's, not the card's art a
        # little changed (the hand's shadow on the green card of #37 again: 13 Lab; the
        # pawns beside a hand on DEV seed 21, 60-120)
        py, px = ys[sel][near], xs[sel][near]
        change = lab[::2, ::2][py, px].mean(axis=0) - expected[::2, ::2][py, px].mean(axis=0)
        if float(np.linalg.norm(change)) < HIDES:
            continue
        keep2[py, px] = 1
    if keep2.any():
        keep[:] = np.repeat(np.repeat(keep2 > 0, 2, axis=0), 2, axis=1)[:h, :w]
    return keep


# A pawn's colour found on this many of the reach's other changed pixels (half res) is the
# hand's as well: a few stray pixels of noise are allowed, no patch of it.
STRAY_PX = 4
STRAY_SHARE = 0.002
HIDES = 25.0  # Lab: how far a pawn's mean colour is from the card's it stands on, at least
NEAR = 1.5  # pawn radii (of its learned area) around its biggest patch: the pawn's pixels
