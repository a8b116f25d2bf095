"""Whether a photo is in focus: its cards' prints as sharp as at calibration.

A camera out of focus (its lens turned, fogged or smudged, or the table shaken during the
exposure) blurs every card. The reading copes with a little blur, but a lot leaves most
cells in doubt, and the cards' looks then pass for a hand, a moved camera or cards that no
longer look as calibrated: messages that send the player to fix the wrong thing. The cards'
fine print tells blur apart from all of these.

:func:`sharpness` against the calibration's, on DEV seed 5 and fresh decks 3000-3999 seed
11, 5000-5999 seed 13 and 6000-6999 seed 17 (160 photos, a quarter with a hand): 0.75-1.16
unblurred (median 1.01); 0.21-0.63 blurred by a Gaussian of 3 photo px, where every photo
still read with fewer than half its cells null; at most 0.45 in the photos blurred 4-14 px
that left more than half their cells null. 48 photos each with a hand over the cards
(fresh decks 3000-3099 seed 21): 0.84 at least unblurred, all read.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

U8 = NDArray[Any]

OUT_OF_FOCUS = "image is blurred"  # how the reason begins (the referee words it its way)
BLURRED = 0.6  # x the calibration's sharpness: a photo this much softer is out of focus
RANKED = 3  # the deck's sharpness is its prints' 3rd sharpest (see sharpness)
SOFTEN = 0.7  # print px


def sharpness(prints: U8) -> float:
    """How sharp a stack of card prints (cards, h, w) is: each print's mean absolute
    Laplacian over its standard deviation (its light and exposure cancel out), the
    ``RANKED``-th sharpest of them.

    Not the median: a hand over most cards leaves only a few sharp ones to tell; a pawn or
    a gem adds an edge to a card, the odd one a photo cannot rest on alone.
    """
    # (softened a little first: a print blurred flat still steps by whole grey levels,
    # a Laplacian of its own that kept a blurred photo of a soft deck at half the sharpness)
    p = np.stack([cv2.GaussianBlur(x, (0, 0), SOFTEN) for x in prints.astype(np.float32)])
    inner = p[:, 1:-1, 1:-1]
    lap = 4.0 * inner - p[:, :-2, 1:-1] - p[:, 2:, 1:-1] - p[:, 1:-1, :-2] - p[:, 1:-1, 2:]
    each = np.abs(lap).mean(axis=(1, 2)) / (p.std(axis=(1, 2)) + 1.0)
    rank = min(RANKED, len(each))
    return float(np.sort(each)[-rank])


def out_of_focus(prints: U8, calibrated: float) -> str | None:
    """Why a photo is unreadable when its ``prints`` are much softer than the calibration's
    (``calibrated``: :func:`sharpness` of its prints), else None."""
    ratio = sharpness(prints) / max(calibrated, 1e-6)
    if ratio >= BLURRED:
        return None
    return (
        f"{OUT_OF_FOCUS}: the cards' print is {ratio:.0%} as sharp as at calibration "
        "(camera out of focus, lens smudged or fogged, or the table shaken?); clean the "
        "lens, check the focus and retake"
    )


# At calibration there is no earlier photo to compare with: the photo's own sharpest edges
# (the cards' outlines on the table) say how far the lens spreads a step.
EDGE_SPREAD = 2.8  # photo px (a Gaussian's sigma): a calibration photo blurred beyond this
EDGE_STEP = 40  # grey levels: the edges measured rise at least this much within...
EDGE_REACH = 31  # ...this square (photo px)
EDGE_TOP = 99  # percentile: the steepest edges only, where a blurred step is at its steepest


def edge_spread(photo_bgr: U8) -> float:
    """How far a photo spreads its sharpest edges: the sigma (photo px) of the Gaussian blur
    that makes a step as steep as them, 0.0 when it has no strong edge to tell.

    A step of height h blurred by sigma rises at most h / (sigma sqrt(2 pi)) per pixel, so
    the steepest pixels of edges that rise ``EDGE_STEP`` or more within ``EDGE_REACH`` give
    sigma as the rise around them over their slope (the median of them).
    """
    grey = cv2.cvtColor(photo_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    # (Sobel's 3x3 kernel weighs a unit slope as 8)
    slope = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)) / 8.0
    box = np.ones((EDGE_REACH, EDGE_REACH), np.uint8)
    rise = cv2.dilate(grey, box) - cv2.erode(grey, box)
    strong = rise > EDGE_STEP
    if not strong.any():
        return 0.0
    steep = strong & (slope >= np.percentile(slope[strong], EDGE_TOP)) & (slope > 0)
    return float(np.median(rise[steep] / (math.sqrt(2 * math.pi) * slope[steep])))


def photo_out_of_focus(photo_bgr: U8, name: str) -> str | None:
    """Why a calibration photo (``name``: "solved photo", ...) cannot be used when its edges
    spread beyond ``EDGE_SPREAD``, else None."""
    spread = edge_spread(photo_bgr)
    if spread <= EDGE_SPREAD:
        return None
    return (
        f"{name}: {OUT_OF_FOCUS} (its sharpest edges spread over {spread:.1f} px, a sharp "
        "photo's over 1-2); wipe the camera's lens, check its focus, and retake"
    )
