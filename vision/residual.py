"""The residual: where a photo's board differs from what the calibration expects there.

The expected board is the calibration's solved photo with each identified card pasted where
its card lies now (:func:`paste_cards`) and shifted to the light on it now
(:func:`relight_cards`); what still differs beyond the board's noise (:func:`objects_mask`)
is an object: a pawn, a gem, a hand.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from .pixels import colour_distance, median

# OpenCV's type stubs return loosely typed arrays: the aliases name the intent only.
F32 = NDArray[Any]
F64 = NDArray[Any]
U8 = NDArray[Any]


def residual(lab: F32, expected: F32, expected_blur: F32 | None = None) -> F32:
    """Per-pixel Lab difference, blurred so that a one-pixel misalignment of edges fades.

    ``expected_blur``, if given, is :func:`residual_blur` of ``expected``, made once (the
    calibration board's is the same for every reading).
    """
    a = residual_blur(lab)
    b = residual_blur(expected) if expected_blur is None else expected_blur
    return colour_distance(a, b)


def residual_blur(lab: F32) -> F32:
    """The blur a residual compares images under."""
    out: F32 = cv2.blur(lab, (5, 5))
    return out


def paste_cards(dst: F32, ref: F32, srcs: F64, quads: F64) -> None:
    """The calibration's cards at corners ``srcs`` (n x 4 x 2) drawn into ``dst`` at
    corners ``quads`` (turned, nudged: the cards as they lie now), in place.

    One remap for all the cards: each target pixel inside a quad samples the calibration
    board through its card's homography (a warp per card cost three times as much).
    """
    H, W = dst.shape[:2]
    lows = (np.floor(quads.min(axis=1)) - 1).astype(np.intp).tolist()
    highs = (np.ceil(quads.max(axis=1)) + 2).astype(np.intp).tolist()
    # Each card's points written straight into the remap's float32 maps and the list of
    # target pixels, made room for as every card's whole box: the same values as
    # concatenating per-card float64 lists and converting them, without those copies.
    room = sum(
        max(0, x1 - x0) * max(0, y1 - y0) for (x0, y0), (x1, y1) in zip(lows, highs, strict=True)
    )
    rows = -(-room // REMAP_ROW)
    grid = np.zeros((2, rows * REMAP_ROW), np.float32)
    at_px = np.empty(room, np.intp)  # target pixels, as y * W + x
    n = 0
    for src, quad, (x0, y0), (x1, y1) in zip(srcs, quads, lows, highs, strict=True):
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
        if x1 - x0 < 4 or y1 - y0 < 4:
            continue
        inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(inside, np.round(quad - (x0, y0)).astype(np.int32), 1)
        nz = cv2.findNonZero(inside)  # (x, y) in row order, as np.nonzero gives them
        if nz is None:
            continue
        xy = nz.reshape(-1, 2)
        m = cv2.getPerspectiveTransform(quad.astype(np.float32), src.astype(np.float32))
        pts = np.empty((3, len(xy)))
        pts[:2] = xy.T
        pts[0] += x0
        pts[1] += y0
        pts[2] = 1.0
        p = m @ pts
        k = n + len(xy)
        # (divided in float64, rounded to float32 on the way out, as astype rounds)
        np.divide(p[:2], p[2], out=grid[:, n:k], casting="same_kind")
        idx = at_px[n:k]
        np.multiply(xy[:, 1], W, out=idx)
        idx += xy[:, 0]
        idx += y0 * W + x0
        n = k
    if n == 0:
        return
    # remap wants its maps under 32k wide: fold the list of points into rows
    rows = -(-n // REMAP_ROW)
    used = grid[:, : rows * REMAP_ROW]
    got = cv2.remap(
        ref, used[0].reshape(rows, -1), used[1].reshape(rows, -1), cv2.INTER_LINEAR
    ).reshape(-1, 3)[:n]
    at_px = at_px[:n]
    if dst.flags.c_contiguous and got.flags.c_contiguous:
        # each pixel's channels moved as one item: ~3x cheaper than indexing rows of three
        item = np.dtype((np.void, got.itemsize * got.shape[1]))
        np.put(dst.reshape(H * W, -1).view(item).reshape(-1), at_px, got.view(item).reshape(-1))
    else:
        dst[at_px // W, at_px % W] = got


REMAP_ROW = 1024


def relight_cards(lab: F32, expected: F32, centres: F64, size: tuple[int, int]) -> F32:
    """Shift each card of ``expected`` (in place) to the light on it now; return the shifts
    ((cards, 3) Lab, zero for a card not shifted).

    The room's light is matched over the whole board before, but a lamp's pool, the
    vignette or a card tilted a little changes each card's light on its own; unmatched,
    a whole card differs from its expectation and its art of a pawn's colour becomes a
    phantom. A pawn, its shadow or a gem hide well under half a card, so the median
    difference over the card is the light.
    """
    w, h = size
    hh, ww = lab.shape[:2]
    boxes = []
    out: F32 = np.zeros((len(centres), 3), np.float32)
    inside = []
    for n, (cx, cy) in enumerate(centres.tolist()):
        x0, y0 = round(cx - w / 2), round(cy - h / 2)
        # (a card always lies inside the board: the margin is most of a card)
        if min(x0, y0) >= 0 and x0 + w <= ww and y0 + h <= hh:
            boxes.append((x0, y0))
            inside.append(n)
    if not boxes:
        return out
    # One median over all cards at once (a quarter of each card's pixels is plenty).
    diff = np.stack(
        [
            lab[y : y + h : 2, x : x + w : 2] - expected[y : y + h : 2, x : x + w : 2]
            for x, y in boxes
        ]
    )
    # (cards, channels, pixels): each channel's pixels contiguous for the partition
    flat = np.ascontiguousarray(diff.reshape(len(boxes), -1, 3).transpose(0, 2, 1))
    mid = flat.shape[2] // 2  # (the middle element: a partition is 4x faster than median)
    shifts = np.partition(flat, mid, axis=2)[:, :, mid].astype(np.float32)
    for (x, y), shift in zip(boxes, shifts.tolist(), strict=True):
        # (in place, float32 as numpy's +=; numpy broadcasting a last axis of three is slow)
        card = expected[y : y + h, x : x + w]
        scalar: Any = tuple(shift)  # (the stubs know no scalar second operand)
        cv2.add(card, scalar, dst=card)
    out[inside] = shifts
    return out


def objects_mask(res: F32, floor: float, mads: float = 6.0) -> U8:
    """Pixels that differ from the expectation by much more (``mads`` median absolute
    deviations) than the board's usual noise."""
    sample = res[::3, ::3]
    med = float(median(sample))
    mad = float(median(np.abs(sample - med))) + 1e-3
    thr = max(floor, med + mads * mad)
    mask = (res > thr).astype(np.uint8)
    out: U8 = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return out
