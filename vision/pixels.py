"""Small array helpers for the per-reading hot paths, exact to the numpy they replace."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

F32 = NDArray[Any]
U8 = NDArray[Any]


def colour_distance(a: F32, b: F32) -> F32:
    """Euclidean distance over the last axis (3 channels) of ``a - b``, per pixel.

    The same values as ``np.sqrt(((a - b) ** 2).sum(axis=-1))`` (the squares added in
    channel order, in the inputs' precision), about ten times faster: numpy reduces a last
    axis of three one short loop at a time.
    """
    d = np.subtract(a, b)
    np.multiply(d, d, out=d)
    s = d[..., 0] + d[..., 1]
    s += d[..., 2]
    out: F32 = np.sqrt(s, out=s)
    return out


def shown_nearby(
    lab: F32, expected: F32, ys: NDArray[np.intp], xs: NDArray[np.intp], reach: int, within: float
) -> float:
    """Share of the pixels at (``ys``, ``xs``) (board px) whose colour in ``lab`` the
    ``expected`` board shows within ``within`` Lab somewhere up to ``reach`` px each way
    (beyond the board: nowhere). A card nudged further than the reading matched brings its
    own edge or print where the expected card had other art; a thing come onto the card
    brings colours that were nowhere near. All shifts at once: (pixels, 2 reach + 1,
    2 reach + 1) distances."""
    hh, ww = expected.shape[:2]
    step = np.arange(-reach, reach + 1)
    y = ys[:, None, None] + step[None, :, None]
    x = xs[:, None, None] + step[None, None, :]
    on_board = (y >= 0) & (y < hh) & (x >= 0) & (x < ww)
    near = expected[np.clip(y, 0, hh - 1), np.clip(x, 0, ww - 1)]
    dist = colour_distance(near, lab[ys, xs][:, None, None, :])
    dist[~on_board] = np.inf
    return float((dist.min(axis=(1, 2)) < within).mean())


def percentile_below(a: F32, q: float, threshold: float) -> bool:
    """``float(np.percentile(a, q)) < threshold`` (linear interpolation, float ``a``), by
    counting: the percentile lies between two neighbouring order statistics (numpy's
    interpolation never leaves them), so it is below the threshold when both are and not
    when neither is; only when they straddle it (or for a threshold float32 cannot hold, or
    NaN) is np.percentile asked. 58 -> 5 us on 120 values; the same answer on 160000
    random sets (1-300 values, ties at the threshold, q 5, 50 and 90)."""
    flat = a.ravel()
    n = flat.size
    # (``flat < threshold`` compares in float32: exact when float32 holds the threshold)
    if n == 0 or float(np.float32(threshold)) != threshold or np.isnan(flat).any():
        return bool(float(np.percentile(a, q)) < threshold)
    virtual = (n - 1) * (q / 100)  # numpy's virtual index for linear interpolation
    below = int(np.count_nonzero(flat < threshold))
    if virtual >= n - 1:
        return below == n  # (the largest value alone)
    k = math.floor(virtual)
    if below >= k + 2:
        return True
    if below <= k:
        return False
    return bool(float(np.percentile(a, q)) < threshold)


def median(a: F32, axis: int | None = None) -> Any:
    """``np.median(a, axis)``, the same values and dtype, by one partition: numpy's median
    costs ~55 us of overhead a call on this machine, and a reading asks for ~40 of them on
    a few dozen to a few thousand values (62 -> 4 us on 9 values of three channels).

    The middle value, or the two middle values added in the input's precision and halved
    (what numpy's mean of them does, exactly: halving is exact); an integer input's median
    is a float64, as numpy's. Empty or NaN-holding inputs go to np.median itself."""
    a = np.asarray(a)  # (as numpy's, a list of numbers will do)
    x = a.ravel() if axis is None else a
    ax = 0 if axis is None else axis
    n = x.shape[ax]
    if n == 0 or (x.dtype.kind == "f" and np.isnan(x).any()):
        return np.median(a, axis=axis)
    h = n // 2
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    if n % 2:
        return np.take(np.partition(x, h, axis=ax), h, axis=ax)
    p = np.partition(x, (h - 1, h), axis=ax)
    both = np.take(p, h - 1, axis=ax) + np.take(p, h, axis=ax)
    return both / x.dtype.type(2)


def strided(a: F32, shape: tuple[int, ...], strides: tuple[int, ...]) -> F32:
    """``np.lib.stride_tricks.as_strided(a, shape, strides, writeable=False)``: the same
    read-only view of ``a``, made by the array constructor when ``a`` is C-contiguous (a
    third of as_strided's cost, which adds up over a reading's few dozen views)."""
    if not a.flags.c_contiguous:
        out: F32 = np.lib.stride_tricks.as_strided(a, shape, strides, writeable=False)
        return out
    view: F32 = np.ndarray(shape, a.dtype, buffer=a, strides=strides)
    view.flags.writeable = False
    return view


def components(mask: U8) -> tuple[int, NDArray[Any], NDArray[Any], NDArray[Any]]:
    """``cv2.connectedComponentsWithStats(mask)`` (8-way, int32 labels), the same labels,
    stats and centroids, ~3x faster on the board's masks.

    Grana's block-based decision tree (BBDT) instead of the default Spaghetti labelling:
    both label 2x2 blocks in raster order and number components in the order met, so the
    results are the same; Spaghetti's large decision forest costs more than it saves on
    150-300 px images (154 px: 145 -> 45 us). OpenCV's labelling with stats is also ~4x
    slower on an odd-sized image (the 307 px board), so an odd mask is labelled with a row
    or column of background added, and the background's own stats (label 0) recomputed
    for the mask itself. Checked against OpenCV's on 8000 random masks (1-330 px, full,
    empty, with full rows and columns) and on every mask of 37 DEV readings.
    """
    H, W = mask.shape
    if H % 2 == 0 and W % 2 == 0:
        n, labels, stats, cents = cv2.connectedComponentsWithStatsWithAlgorithm(
            mask, 8, cv2.CV_32S, cv2.CCL_BBDT
        )
        return int(n), labels, stats, cents
    padded = cv2.copyMakeBorder(mask, 0, H % 2, 0, W % 2, cv2.BORDER_CONSTANT, value=0)
    n, labels, stats, cents = cv2.connectedComponentsWithStatsWithAlgorithm(
        padded, 8, cv2.CV_32S, cv2.CCL_BBDT
    )
    area = H * W - int(stats[1:, cv2.CC_STAT_AREA].sum())
    if area == 0:  # no background at all: OpenCV's own figures for an empty label
        n, labels, stats, cents = cv2.connectedComponentsWithStats(mask)
        return int(n), labels, stats, cents
    # The background's coordinate sums: the foreground's are the padded image's all less its
    # background's, which are integers under 2**53 (centroid times area, exact once rounded).
    hp, wp = padded.shape
    padded_area = int(stats[0, cv2.CC_STAT_AREA])
    fx = hp * wp * (wp - 1) // 2 - round(float(cents[0, 0]) * padded_area)
    fy = wp * hp * (hp - 1) // 2 - round(float(cents[0, 1]) * padded_area)
    cents[0] = ((H * W * (W - 1) // 2 - fx) / area, (W * H * (H - 1) // 2 - fy) / area)
    if all(not side.all() for side in (mask[0], mask[-1], mask[:, 0], mask[:, -1])):
        stats[0] = (0, 0, W, H, area)  # background on all four sides: the whole image
    else:
        zero = mask == 0
        cols, rows = np.flatnonzero(zero.any(axis=0)), np.flatnonzero(zero.any(axis=1))
        stats[0] = (cols[0], rows[0], cols[-1] - cols[0] + 1, rows[-1] - rows[0] + 1, area)
    return int(n), labels[:H, :W], stats, cents


def warp_samples(
    matrices: list[NDArray[Any]], dsize: tuple[int, int], src_size: tuple[int, int]
) -> tuple[F32, F32] | None:
    """Where ``cv2.warpPerspective(src, m, dsize, flags=INTER_LINEAR | WARP_INVERSE_MAP,
    borderMode=BORDER_REPLICATE)`` samples a source of ``src_size`` (w, h) for each of the
    ``matrices``: the float32 x and y maps (each matrix's below the last's) that make
    ``cv2.remap(src, x, y, INTER_LINEAR)`` give the same images stacked, or None when a
    sample lies within a pixel or two of the source's edge.

    They are the coordinates OpenCV computes, read back by warping two ramps (each pixel
    its own column, its own row): OpenCV's linear interpolation ``p0 + f (p1 - p0)`` of a
    ramp (``p1 - p0 = 1``) returns ``floor(x) + (x - floor(x))``, the coordinate itself,
    exactly. Near the edge the replicated border would flatten the ramps, so those maps
    are refused (every sample and its neighbours then lie inside the source as well).
    """
    w, h = src_size
    ramp = np.arange(max(w, h), dtype=np.float32)
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    border = cv2.BORDER_REPLICATE
    maps = []
    for ramps in (np.tile(ramp[:w], (h, 1)), np.repeat(ramp[:h, None], w, axis=1)):
        maps.append(
            np.concatenate(
                [
                    cv2.warpPerspective(ramps, m, dsize, flags=flags, borderMode=border)
                    for m in matrices
                ]
            )
        )
    xs, ys = maps
    inside = (
        float(xs.min()) >= 1.0
        and float(xs.max()) < w - 2
        and float(ys.min()) >= 1.0
        and float(ys.max()) < h - 2
    )
    return (xs, ys) if inside else None


def noise_photo(size: tuple[int, int]) -> U8:
    """A (h, w, 3) photo of uniform noise, the same every time: for checking that two ways
    of making an image agree (every pixel's value tells)."""
    w, h = size
    out: U8 = np.random.default_rng(0).integers(0, 256, (h, w, 3), dtype=np.uint8)
    return out


@dataclass(frozen=True)
class Resampling:
    """A fixed warp (:func:`warp_samples`) as one remap of the part of the source it reads."""

    x0: int  # the source region read: columns x0..x1 - 1, rows y0..y1 - 1
    y0: int
    x1: int
    y1: int
    map_x: F32  # each sample's x less x0 (exact: float32 minus an integer below it)
    map_y: F32  # each sample's y less y0

    @classmethod
    def of(cls, xs: F32, ys: F32) -> Resampling:
        x0, y0 = int(np.floor(xs.min())), int(np.floor(ys.min()))
        # (each sample reads its pixel and the next one over, right and down)
        x1, y1 = int(np.floor(xs.max())) + 2, int(np.floor(ys.max())) + 2
        return cls(x0, y0, x1, y1, xs - np.float32(x0), ys - np.float32(y0))

    def __call__(self, region: U8) -> U8:
        """The warped image of the source cut to ``[y0:y1, x0:x1]``."""
        out: U8 = cv2.remap(
            region, self.map_x, self.map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        return out
