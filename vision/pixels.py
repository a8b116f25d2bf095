"""Small array helpers for the per-reading hot paths, exact to the numpy they replace."""

from __future__ import annotations

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


def components(mask: U8) -> tuple[int, NDArray[Any], NDArray[Any], NDArray[Any]]:
    """``cv2.connectedComponentsWithStats(mask)`` (8-way, int32 labels), by Grana's
    block-based decision tree instead of the default Spaghetti labelling.

    Both label 2x2 blocks in raster order and number components in the order they are met,
    so labels, stats and centroids are the same (checked on 6000 random masks and every
    mask of the DEV readings); on board-sized masks BBDT is ~3x faster here (Spaghetti's
    large decision forest costs more than it saves on ~150-300 px images).
    """
    n, labels, stats, cents = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask, 8, cv2.CV_32S, cv2.CCL_BBDT
    )
    return int(n), labels, stats, cents
