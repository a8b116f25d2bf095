"""Which island is this card? Appearance features and the cost of each cell-island pairing.

A card is compared with the 25 templates learned at calibration as a small Lab image split
into regions. Pawns and gems cover part of a card, so a pairing's cost is the mean of its
best-matching regions only (a trimmed mean): a pawn on a few regions cannot make the right
island look wrong. The cost matrix then goes to the joint assignment (each island once).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from .pixels import colour_distance

# OpenCV's type stubs return loosely typed arrays: the aliases name the intent only.
F32 = NDArray[Any]
F64 = NDArray[Any]
U8 = NDArray[Any]

FEATURE_SIZE = (24, 32)  # (w, h) of a card's identity feature image
REGIONS = (6, 8)  # (columns, rows) of regions compared separately
CAP = 20.0  # Lab distance at which a region counts as simply "different"
L_WEIGHT = 0.25  # lightness follows the room light (gradients, glare) more than chroma


def crop_cards(lab: F32, centres: F64, size: tuple[int, int]) -> F32:
    """Identity features of the cards centred at ``centres`` (N x 2 board px) on ``lab``."""
    w, h = size
    n = len(centres)
    fw, fh = FEATURE_SIZE
    if n == 0:
        return np.empty((0, fh, fw, 3), np.float32)
    # The cards stacked into one tall image and resized at once: each card's rows map onto
    # its own output rows with the same area weights (an integer multiple of the card's
    # height apart), so each comes out as resized alone, for one call instead of 25.
    tall = np.empty((n * h, w, lab.shape[2]), lab.dtype)
    for i, (cx, cy) in enumerate(centres.tolist()):
        x0, y0 = round(cx - w / 2), round(cy - h / 2)
        patch = lab[max(0, y0) : y0 + h, max(0, x0) : x0 + w]
        if patch.shape[:2] != (h, w):
            patch = _padded(lab, x0, y0, w, h)
        tall[i * h : (i + 1) * h] = patch
    small = cv2.resize(tall, (fw, fh * n), interpolation=cv2.INTER_AREA)
    out: F32 = small.reshape(n, fh, fw, -1).astype(np.float32, copy=False)
    return out


def _padded(lab: F32, x0: int, y0: int, w: int, h: int) -> F32:
    pad = max(w, h)
    big = cv2.copyMakeBorder(lab, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    out: F32 = big[y0 + pad : y0 + pad + h, x0 + pad : x0 + pad + w]
    return out


def region_means(cells: F32) -> F32:
    """(n, regions * 3) mean Lab of each region, weighted like the pixel distances."""
    n, th, tw, _ = cells.shape
    cols, rows = REGIONS
    ry, rx = th // rows, tw // cols
    weight = np.array([L_WEIGHT, 1.0, 1.0], np.float32)
    # (the weight tiled along rows: numpy broadcasting a last axis of three is slow)
    w = np.multiply(cells.reshape(n, th, tw * 3), np.tile(weight, tw))
    w = w.reshape(n, rows, ry, cols, rx, 3)
    # The regions' sums added pixel by pixel in the order numpy's mean over axes (2, 4)
    # adds them (row by row, in float32): the same values, ~4x faster.
    total = w[:, :, 0, :, 0].copy()
    for a in range(ry):
        for b in range(rx):
            if a or b:
                total += w[:, :, a, :, b]
    # (divided as numpy's mean divides: by an intp count, into the float32 sums)
    np.true_divide(total, np.intp(ry * rx), out=total, casting="unsafe")
    out: F32 = total.reshape(n, rows * cols, 3)
    # A card's overall lightness is the light's, not the print's: compare its pattern only.
    out[..., 0] -= out[..., 0].mean(axis=1, keepdims=True)
    return out


def coarse_costs(cells: F32, templates: F32) -> F32:
    """A cheap first opinion on every pairing: capped distances of region means only."""
    return region_costs(region_means(cells), region_means(templates))


def region_costs(cells: F32, templates: F32) -> F32:
    """:func:`coarse_costs` of cells and templates given as their :func:`region_means`
    (a profile's templates' once for all its readings)."""
    d = colour_distance(cells[:, None], templates[None, :])
    out: F32 = np.minimum(d, CAP).mean(axis=-1)
    return out


# Costs are the print misfit (mean squared, normalised print) plus colour (in units of the
# deck's typical difference between two islands), weighted.
COLOUR_WEIGHT = 2.0
# A card whose print fits some island this closely (per pixel; 2 for unrelated prints) is
# seen clearly: between islands of nearly its colour, its print decides...
CLEAN_PRINT = 0.1
# ...and colour counts in full only beyond this much above its nearest island's. A deck
# printed in five colours, five islands each, its numbers faint (fresh deck 8002): the
# light on a card now against where its island lay at calibration moved its colour cost by
# up to 0.45 among its colour's islands, twice the weight of a print that told them apart.
COLOUR_NEAR = 0.3
# Within COLOUR_NEAR, colour counts this share: it still settles what the print leaves
# nearly tied. (Left out, the held-out decks lost 9 cards in clear view whose colours
# were right and prints nearly tied; see docs/vision.md)
COLOUR_TIE = 0.1


def pairing_costs(print_cost: F32, colour: F32) -> F32:
    """(cells, islands) cost of each pairing for the assignment: the print's misfit plus
    the colours' cost, weighted (``colour`` in units of the deck's typical difference).

    Colour tells islands of different colours apart; between islands of one colour its
    differences are mostly the light's. On a card seen clearly (``CLEAN_PRINT``) they count
    in full only beyond ``COLOUR_NEAR`` (within it, ``COLOUR_TIE`` of them: enough to settle
    a near tie of the prints). On a card partly hidden or blurred, whose print fits no
    island closely, colour keeps its full say: a pawn over two cards of one colour left
    their prints telling them apart the wrong way round, and colour the right way (fresh
    deck 6005 #47)."""
    lo = colour.min(axis=1, keepdims=True)
    clean = print_cost.min(axis=1, keepdims=True) < CLEAN_PRINT
    d = colour - lo
    beyond = lo + COLOUR_TIE * np.minimum(d, COLOUR_NEAR) + np.maximum(d - COLOUR_NEAR, 0.0)
    out: F32 = print_cost + COLOUR_WEIGHT * np.where(clean, beyond, colour)
    return out


def match_lighting(lab: F32, ref: F32, mask: U8, ref_quartiles: F64 | None = None) -> F32:
    """``lab`` with each channel's quartiles on the cards matched to the calibration's.

    ``ref_quartiles``, if given, are :func:`quartiles` of ``ref`` on ``mask`` (the same for
    every reading of a profile: taken once).
    """
    qa = quartiles(lab, mask)
    qb = quartiles(ref, mask) if ref_quartiles is None else ref_quartiles
    scale = np.clip((qb[2] - qb[0]) / np.maximum(qa[2] - qa[0], 1e-3), 0.5, 2.0)
    # (lab - qa[1]) * scale + qb[1] in float64 as the quartiles, on rows of interleaved
    # channels with the per-channel constants tiled along them: broadcast over a last axis
    # of three, numpy loops three values at a time (ten times slower).
    rows = np.ascontiguousarray(lab).reshape(lab.shape[0], -1)
    reps = rows.shape[1] // 3
    x = np.subtract(rows, np.tile(qa[1], reps))
    x *= np.tile(scale, reps)
    x += np.tile(qb[1], reps)
    out: F32 = x.astype(np.float32).reshape(lab.shape)
    return out


def quartiles(lab: F32, mask: U8) -> F64:
    """(3, channels): each channel's quartiles on ``mask``, on 1/64 of the pixels (thousands:
    quartiles need no more)."""
    sel = mask[::8, ::8].astype(bool)
    out: F64 = np.percentile(lab[::8, ::8][sel], (25, 50, 75), axis=0)
    return out


def crop_grey(grey: F32, centre: tuple[float, float], size: tuple[int, int]) -> F32:
    """A (h, w) crop of the fine board centred at ``centre`` (fine px), edge-replicated."""
    w, h = size
    x0, y0 = round(centre[0] - w / 2), round(centre[1] - h / 2)
    H, W = grey.shape
    if x0 >= 0 and y0 >= 0 and x0 + w <= W and y0 + h <= H:
        return grey[y0 : y0 + h, x0 : x0 + w]
    return _padded(grey[..., None], x0, y0, w, h)[..., 0]


SOFTEN_SIGMA = 1.5  # fine px: fades printed textures and moire, keeps numbers and icons
LIGHT_BOX = 19  # fine px: anything smoother than ~this is lighting, not print


def soften(grey: F32, sigma: float = SOFTEN_SIGMA, light_box: int = LIGHT_BOX) -> F32:
    """Fine-board grey with fine textures blurred away.

    Decks with striped or hatched art change from photo to photo at that scale (moire, a
    pixel of shift); numbers and icons are bigger and survive the blur.
    """
    fine = cv2.GaussianBlur(grey, (0, 0), sigma)
    # Minus the large-scale light: gradients of room light, vignetting and glare differ from
    # photo to photo; printed detail does not. (Two box blurs: a cheap wide Gaussian.)
    k = (light_box, light_box)
    light = cv2.blur(
        cv2.blur(grey, k, borderType=cv2.BORDER_REFLECT), k, borderType=cv2.BORDER_REFLECT
    )
    out: F32 = fine - light
    return out
