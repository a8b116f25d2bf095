"""Which island is this card? Appearance features and the cost of each cell-island pairing.

A card is compared with the 25 templates learned at calibration as a small Lab image split
into regions. Pawns and gems cover part of a card, so a pairing's cost is the mean of its
best-matching regions only (a trimmed mean): a pawn on a few regions cannot make the right
island look wrong. The cost matrix then goes to the joint assignment (each island once).
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]

FEATURE_SIZE = (24, 32)  # (w, h) of a card's identity feature image
REGIONS = (6, 8)  # (columns, rows) of regions compared separately
CAP = 20.0  # Lab distance at which a region counts as simply "different"
L_WEIGHT = 0.5  # lightness differs more with lighting than chroma does


def crop_cards(lab: F32, centres: F64, size: tuple[int, int]) -> F32:
    """Identity features of the cards centred at ``centres`` (N x 2 board px) on ``lab``."""
    w, h = size
    out = np.empty((len(centres), FEATURE_SIZE[1], FEATURE_SIZE[0], 3), np.float32)
    for i, (cx, cy) in enumerate(centres):
        x0, y0 = round(cx - w / 2), round(cy - h / 2)
        patch = lab[max(0, y0) : y0 + h, max(0, x0) : x0 + w]
        if patch.shape[:2] != (h, w):
            patch = _padded(lab, x0, y0, w, h)
        out[i] = cv2.resize(patch, FEATURE_SIZE, interpolation=cv2.INTER_AREA)
    return out


def _padded(lab: F32, x0: int, y0: int, w: int, h: int) -> F32:
    pad = max(w, h)
    big = cv2.copyMakeBorder(lab, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    out: F32 = big[y0 + pad : y0 + pad + h, x0 + pad : x0 + pad + w]
    return out


def region_distances(cells: F32, templates: F32) -> F32:
    """(cells, templates, regions) mean Lab distance of each region of each pairing."""
    weight = np.array([L_WEIGHT, 1.0, 1.0], np.float32)
    a = cells * weight
    b = templates * weight
    n, th, tw, _ = cells.shape
    d = np.sqrt(((a[:, None] - b[None, :]) ** 2).sum(axis=-1))  # (n, m, h, w)
    cols, rows = REGIONS
    d = d.reshape(n, len(templates), rows, th // rows, cols, tw // cols)
    out: F32 = d.mean(axis=(3, 5)).reshape(n, len(templates), rows * cols)
    return out


def region_means(cells: F32) -> F32:
    """(n, regions * 3) mean Lab of each region, weighted like the pixel distances."""
    n, th, tw, _ = cells.shape
    cols, rows = REGIONS
    weight = np.array([L_WEIGHT, 1.0, 1.0], np.float32)
    m = (cells * weight).reshape(n, rows, th // rows, cols, tw // cols, 3).mean(axis=(2, 4))
    out: F32 = m.reshape(n, rows * cols, 3)
    return out


def coarse_costs(cells: F32, templates: F32) -> F32:
    """A cheap first opinion on every pairing: capped distances of region means only."""
    a = region_means(cells)
    b = region_means(templates)
    d = np.sqrt(((a[:, None] - b[None, :]) ** 2).sum(axis=-1))
    out: F32 = np.minimum(d, CAP).mean(axis=-1)
    return out


def pairing_costs(cells: F32, templates: F32) -> tuple[F32, F32]:
    """Trimmed cost of every cell-island pairing, and the full region distances."""
    regions = region_distances(cells, templates)
    cost: F32 = np.minimum(regions, CAP).mean(axis=-1)
    return cost, regions


def pair_costs(cells: F32, templates: F32) -> F32:
    """Cost of each cell against its own template (aligned arrays of equal length)."""
    weight = np.array([L_WEIGHT, 1.0, 1.0], np.float32)
    d = np.sqrt((((cells - templates) * weight) ** 2).sum(axis=-1))
    n, th, tw = d.shape
    cols, rows = REGIONS
    regions = d.reshape(n, rows, th // rows, cols, tw // cols).mean(axis=(2, 4))
    out: F32 = np.minimum(regions, CAP).reshape(n, -1).mean(axis=-1)
    return out


def match_lighting(cells: F32, templates: F32) -> F32:
    """``cells`` with each Lab channel matched to the templates' overall median and spread.

    The 25 cells show the same 25 cards as the templates, in another order, so their colour
    statistics agree whatever the shuffle: a change of room light or white balance is undone
    by matching them, with no brightness threshold anywhere.
    """
    out = cells.copy()
    for ch in range(3):
        a = cells[..., ch]
        b = templates[..., ch]
        qa = np.percentile(a, (25, 50, 75))
        qb = np.percentile(b, (25, 50, 75))
        scale = (qb[2] - qb[0]) / max(qa[2] - qa[0], 1e-3)
        scale = float(np.clip(scale, 0.5, 2.0))
        out[..., ch] = (a - qa[1]) * scale + qb[1]
    return out


def refine_centres(
    light: F32,
    ref_light: F32,
    coarse: F64,
    ref_centres: F64,
    pairs: list[tuple[int, int]],
    size: tuple[int, int],
    reach: int,
) -> dict[tuple[int, int], tuple[float, float]]:
    """Where card ``k`` fits best near cell ``i``'s coarse centre, for each pair ``(i, k)``.

    The candidate's calibration crop (lightness only) slides over a small window around the
    coarse place: the identity features are sharp enough that a two-pixel misalignment costs
    as much as a different island, so each candidate is judged at its own best position.
    """
    w, h = size
    pad = max(w, h) + reach
    big = cv2.copyMakeBorder(light, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    out: dict[tuple[int, int], tuple[float, float]] = {}
    templates: dict[int, F32] = {}
    for i, k in pairs:
        if k not in templates:
            rx, ry = ref_centres[k]
            x0, y0 = round(rx - w / 2), round(ry - h / 2)
            templates[k] = ref_light[y0 : y0 + h, x0 : x0 + w]
        t = templates[k]
        cx, cy = coarse[i]
        x0, y0 = round(cx - w / 2) - reach + pad, round(cy - h / 2) - reach + pad
        win = big[y0 : y0 + h + 2 * reach, x0 : x0 + w + 2 * reach]
        if t.shape != (h, w) or win.shape != (h + 2 * reach, w + 2 * reach):
            out[(i, k)] = (float(cx), float(cy))
            continue
        res = cv2.matchTemplate(win, t, cv2.TM_SQDIFF)
        _, _, loc, _ = cv2.minMaxLoc(res)
        out[(i, k)] = (
            float(x0 - pad + loc[0] + w / 2),
            float(y0 - pad + loc[1] + h / 2),
        )
    return out
