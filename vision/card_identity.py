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
U8 = NDArray[np.uint8]

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


def match_lighting(lab: F32, ref: F32, mask: U8) -> F32:
    """``lab`` with each channel's quartiles on the cards matched to the calibration's."""
    sel = mask.astype(bool)
    sel[1::2] = False  # every other row and column: quartiles need no more pixels
    sel[:, 1::2] = False
    a = lab[sel]
    b = ref[sel]
    out = lab.copy()
    for ch in range(3):
        qa = np.percentile(a[:, ch], (25, 50, 75))
        qb = np.percentile(b[:, ch], (25, 50, 75))
        scale = float(np.clip((qb[2] - qb[0]) / max(qa[2] - qa[0], 1e-3), 0.5, 2.0))
        out[..., ch] = (lab[..., ch] - qa[1]) * scale + qb[1]
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


FINE_REGION = 8  # px of the fine board per region of the fine (lightness) comparison
FINE_CAP = 40.0  # grey levels at which a fine region counts as simply "different"
INK = 20.0  # grey levels two islands must differ by for a pixel to tell them apart


def crop_grey(grey: F32, centre: tuple[float, float], size: tuple[int, int]) -> F32:
    """A (h, w) crop of the fine board centred at ``centre`` (fine px), edge-replicated."""
    w, h = size
    x0, y0 = round(centre[0] - w / 2), round(centre[1] - h / 2)
    H, W = grey.shape
    if x0 >= 0 and y0 >= 0 and x0 + w <= W and y0 + h <= H:
        return grey[y0 : y0 + h, x0 : x0 + w]
    return _padded(grey[..., None], x0, y0, w, h)[..., 0]


SOFTEN_SIGMA = 1.5  # fine px: fades printed textures and moire, keeps numbers and icons
LIGHT_SIGMA = 8.0  # fine px: anything smoother than this is lighting, not print


def soften(grey: F32) -> F32:
    """Fine-board grey with fine textures blurred away.

    Decks with striped or hatched art change from photo to photo at that scale (moire, a
    pixel of shift); numbers and icons are bigger and survive the blur.
    """
    fine = cv2.GaussianBlur(grey, (0, 0), SOFTEN_SIGMA)
    # Minus the large-scale light: gradients of room light, vignetting and glare differ from
    # photo to photo; printed detail does not.
    out: F32 = fine - cv2.GaussianBlur(grey, (0, 0), LIGHT_SIGMA)
    return out


def template_ranges(templates: F32) -> tuple[F32, F32]:
    """Each fine template's darkest and brightest value within one pixel of every pixel.

    An observation inside that range matches whatever sub-pixel shift is left after
    alignment; fine art (stripes, hatching) would otherwise make a perfect match look wrong.
    """
    kernel = np.ones((3, 3), np.uint8)
    lo = np.stack([cv2.erode(t, kernel) for t in templates])
    hi = np.stack([cv2.dilate(t, kernel) for t in templates])
    return lo, hi


def _interior(shape: tuple[int, ...]) -> NDArray[np.bool_]:
    """The card's inside: its outer 10% may show table or a neighbour, which differ by cell."""
    h, w = shape[:2]
    m = np.zeros((h, w), bool)
    m[round(0.1 * h) : round(0.9 * h), round(0.1 * w) : round(0.9 * w)] = True
    return m


def _like(crop: F32, lo: F32, hi: F32) -> F32:
    """``crop`` with the mean and contrast of the template: the light on one card differs
    from photo to photo (vignetting, a lamp's direction) more than any global match fixes."""
    mid = (lo + hi) * 0.5
    cs = float(crop.std()) + 1e-3
    ms = float(mid.std()) + 1e-3
    scale = float(np.clip(ms / cs, 0.6, 1.6))
    out: F32 = (crop - float(crop.mean())) * scale + float(mid.mean())
    return out


def range_error(crop: F32, lo: F32, hi: F32) -> F32:
    """How far each pixel lies outside the template's local range (0 inside it)."""
    out: F32 = np.maximum(np.maximum(crop - hi, lo - crop), 0.0)
    return out


def fine_cost(crop: F32, lo: F32, hi: F32) -> float:
    """Capped region mean of grey-level misfit (numbers and icons show up here)."""
    d = range_error(crop, lo, hi)
    h, w = d.shape
    r = FINE_REGION
    regions = d[: h - h % r, : w - w % r].reshape(h // r, r, w // r, r).mean(axis=(1, 3))
    return float(np.minimum(regions, FINE_CAP).mean())


def vote(
    crop_a: F32, range_a: tuple[F32, F32], crop_b: F32, range_b: tuple[F32, F32]
) -> tuple[float, int]:
    """Share of the pixels where islands a and b differ that side with a, and their count.

    Two islands of the same colour and art differ only in their number and icon: only the
    pixels where their templates disagree (beyond any one-pixel shift) can tell them apart,
    and each votes for the template it fits better. A pawn over the number leaves few or
    split votes: doubt.
    """
    lo_a, hi_a = range_a
    lo_b, hi_b = range_b
    telling = ((lo_a - hi_b > INK) | (lo_b - hi_a > INK)) & _interior(lo_a.shape)
    n = int(telling.sum())
    if n == 0:
        return 0.5, 0
    ea = range_error(_like(crop_a, lo_a, hi_a), lo_a, hi_a)[telling]
    eb = range_error(_like(crop_b, lo_b, hi_b), lo_b, hi_b)[telling]
    return float(np.mean(ea < eb)), n


def fine_costs(
    crops: F32, lo: F32, hi: F32, pairs: list[tuple[int, int]]
) -> dict[tuple[int, int], float]:
    """:func:`fine_cost` of each (cell, island) pair, one numpy pass per cell."""
    by_cell: dict[int, list[int]] = {}
    for i, k in pairs:
        by_cell.setdefault(i, []).append(k)
    out: dict[tuple[int, int], float] = {}
    r = FINE_REGION
    for i, ks in by_cell.items():
        idx = np.array(ks)
        like = np.stack([_like(crops[i], lo[k], hi[k]) for k in ks])
        d = range_error(like, lo[idx], hi[idx])
        n, h, w = d.shape
        d = d[:, : h - h % r, : w - w % r].reshape(n, h // r, r, w // r, r).mean(axis=(2, 4))
        costs = np.minimum(d, FINE_CAP).reshape(n, -1).mean(axis=1)
        out.update({(i, k): float(c) for k, c in zip(ks, costs, strict=True)})
    return out


def locate_cards(grey: F32, centres: F64, size: tuple[int, int], reach: int) -> F64:
    """Each card's centre (fine px) near ``centres``: where its four sides' edges are.

    The card's size is known from calibration; along each axis the offset whose two
    card-width-apart edges are strongest wins. Identity plays no part, so all candidate
    islands are then compared on the same pixels.
    """
    ex = np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3))
    ey = np.abs(cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3))
    w, h = size
    H, W = grey.shape
    out = centres.copy()
    for i, (cx, cy) in enumerate(centres):
        band_y = slice(max(0, round(cy - 0.3 * h)), min(H, round(cy + 0.3 * h)))
        band_x = slice(max(0, round(cx - 0.3 * w)), min(W, round(cx + 0.3 * w)))
        dx = _edge_offset(ex[band_y].sum(axis=0), cx, w, reach)
        dy = _edge_offset(ey[:, band_x].sum(axis=1), cy, h, reach)
        out[i] = (cx + dx, cy + dy)
    return out


def _edge_offset(profile: F32, centre: float, length: int, reach: int) -> int:
    """Shift (px) that puts the strongest pair of edges ``length`` apart around ``centre``."""
    n = len(profile)
    a0 = round(centre - length / 2)
    shifts = np.arange(-reach, reach + 1)
    a = a0 + shifts
    b = a + length
    ok = (a >= 1) & (b < n - 1)
    if not ok.any():
        return 0
    peak = np.maximum(np.maximum(profile[:-2], profile[1:-1]), profile[2:])  # peak[j] ~ j+1
    score = np.where(ok, peak[np.clip(a - 1, 0, n - 3)] + peak[np.clip(b - 1, 0, n - 3)], -1)
    best = int(np.argmax(score))
    # Keep the calibrated place unless another is clearly better (a flat profile is noise).
    if score[reach] >= 0.95 * score[best]:
        return 0
    return int(shifts[best])


def align(
    light: F32,
    ref_light: F32,
    centre: F64,
    ref_centre: F64,
    size: tuple[int, int],
    reach: int,
) -> tuple[float, float]:
    """Where the calibration card at ``ref_centre`` fits best within ``reach`` of ``centre``."""
    w, h = size
    rx, ry = round(ref_centre[0] - w / 2), round(ref_centre[1] - h / 2)
    t = ref_light[ry : ry + h, rx : rx + w]
    x0, y0 = round(centre[0] - w / 2) - reach, round(centre[1] - h / 2) - reach
    H, W = light.shape
    if t.shape != (h, w) or x0 < 0 or y0 < 0 or x0 + w + 2 * reach > W or y0 + h + 2 * reach > H:
        return float(centre[0]), float(centre[1])
    win = light[y0 : y0 + h + 2 * reach, x0 : x0 + w + 2 * reach]
    res = cv2.matchTemplate(win, t, cv2.TM_SQDIFF)
    _, _, loc, _ = cv2.minMaxLoc(res)
    return (float(x0 + loc[0] + w / 2), float(y0 + loc[1] + h / 2))


def refine_fine(
    grey: F32, template: F32, centre: tuple[float, float], reach: int
) -> tuple[float, float]:
    """Best place (fine px) of ``template`` within ``reach`` px of ``centre``."""
    h, w = template.shape
    x0, y0 = round(centre[0] - w / 2) - reach, round(centre[1] - h / 2) - reach
    H, W = grey.shape
    if x0 < 0 or y0 < 0 or x0 + w + 2 * reach > W or y0 + h + 2 * reach > H:
        return centre
    win = grey[y0 : y0 + h + 2 * reach, x0 : x0 + w + 2 * reach]
    res = cv2.matchTemplate(win, template, cv2.TM_SQDIFF)
    _, _, loc, _ = cv2.minMaxLoc(res)
    return (float(x0 + loc[0] + w / 2), float(y0 + loc[1] + h / 2))
