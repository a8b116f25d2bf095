"""The lens's barrel distortion: straight card edges bow a little towards the image corners.

A one-coefficient radial model about the image centre, with r measured in half-diagonals:
a point at radius r moves to r * (1 + k1 * r^2). The Pi camera's lens has a mild barrel
(k1 slightly negative); the homography in the truth is the distortion-free part.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
Points = NDArray[np.float64]


def distort_points(pts: Points, size: tuple[int, int], k1: float) -> Points:
    """Where ideal pinhole pixels ``pts`` (N x 2) land in the distorted photo."""
    if k1 == 0.0:
        return np.asarray(pts, np.float64)
    centre, radius = _frame(size)
    d = (np.asarray(pts, np.float64) - centre) / radius
    r2 = (d * d).sum(axis=1, keepdims=True)
    return np.asarray(centre + d * (1 + k1 * r2) * radius, np.float64)


def distort_image(img: Image, k1: float) -> Image:
    if k1 == 0.0:
        return img
    h, w = img.shape[:2]
    map_x, map_y = _maps(w, h, round(k1, 4))
    out = cv2.remap(img, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return np.asarray(out, np.uint8)


def _frame(size: tuple[int, int]) -> tuple[Points, float]:
    w, h = size
    return np.array([(w - 1) / 2, (h - 1) / 2]), float(np.hypot(w, h) / 2)


@lru_cache(maxsize=8)
def _maps(w: int, h: int, k1: float) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """For each photo pixel, the ideal pixel it shows: the model inverted by fixed point."""
    centre, radius = _frame((w, h))
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    dx = (xs - np.float32(centre[0])) / np.float32(radius)
    dy = (ys - np.float32(centre[1])) / np.float32(radius)
    ux, uy = dx.copy(), dy.copy()
    for _ in range(6):  # |k1| <= 0.05: converges to well under 0.01 px
        scale = 1 + np.float32(k1) * (ux * ux + uy * uy)
        ux, uy = dx / scale, dy / scale
    map_x = ux * np.float32(radius) + np.float32(centre[0])
    map_y = uy * np.float32(radius) + np.float32(centre[1])
    return map_x.astype(np.float32), map_y.astype(np.float32)
