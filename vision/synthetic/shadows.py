"""Soft shadows cast on the table and the cards, accumulated as one mask per layer."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
Points = NDArray[np.float64]


class Shadows:
    """A shadow mask drawn at quarter size: shadows are blurry anyway, and it is cheaper."""

    S = 4

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.mask = np.zeros((size[1] // self.S + 1, size[0] // self.S + 1), np.uint8)
        self.empty = True

    def fill(self, pts: Points) -> None:
        """Add a shadow polygon given in image pixels."""
        poly = np.round(pts / self.S * 8).astype(np.int32)
        cv2.fillPoly(self.mask, [poly], 255, cv2.LINE_AA, 3)
        self.empty = False

    def apply(self, img: Image, softness_px: float, strength: float) -> Image:
        """Darken ``img`` under the shadows, blurred by ``softness_px`` (a penumbra)."""
        if self.empty or strength <= 0:
            return img
        m = cv2.GaussianBlur(self.mask, (0, 0), max(0.7, softness_px / self.S))
        keep = 255 - (m.astype(np.float32) * strength).astype(np.uint8)
        full = cv2.resize(keep, self.size, interpolation=cv2.INTER_LINEAR)
        out = cv2.multiply(img, cv2.merge([full, full, full]), scale=1.0 / 255.0)
        return np.asarray(out, np.uint8)
