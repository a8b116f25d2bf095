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
    # A card's overall lightness is the light's, not the print's: compare its pattern only.
    out[..., 0] -= out[..., 0].mean(axis=1, keepdims=True)
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
    sel = mask[::4, ::4].astype(bool)  # a sixteenth of the pixels: quartiles need no more
    a = lab[::4, ::4][sel]
    b = ref[::4, ::4][sel]
    qa = np.percentile(a, (25, 50, 75), axis=0)
    qb = np.percentile(b, (25, 50, 75), axis=0)
    scale = np.clip((qb[2] - qb[0]) / np.maximum(qa[2] - qa[0], 1e-3), 0.5, 2.0)
    out: F32 = ((lab - qa[1]) * scale + qb[1]).astype(np.float32)
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


class FineDeck:
    """The fine templates prepared once per profile for fast comparisons.

    Ranges are kept raw (to find the pixels where two islands differ, in grey levels) and
    normalised to zero mean and unit contrast (to compare a crop whatever the light on it:
    vignetting and a lamp's direction change one card's brightness from photo to photo).
    """

    def __init__(self, templates: F32) -> None:
        self.lo, self.hi = template_ranges(templates)
        mid = (self.lo + self.hi) * 0.5
        self.mean = mid.mean(axis=(1, 2))
        self.std = mid.std(axis=(1, 2)) + 1e-3
        self.lo_n = (self.lo - self.mean[:, None, None]) / self.std[:, None, None]
        self.hi_n = (self.hi - self.mean[:, None, None]) / self.std[:, None, None]
        self.interior = _interior(templates.shape[1:])
        self.size = (templates.shape[2], templates.shape[1])

    def errors(self, crop_n: F32, ks: NDArray[np.intp]) -> F32:
        """Grey-level misfit of a normalised crop against islands ``ks`` (n, h, w)."""
        d = range_error(crop_n[None], self.lo_n[ks], self.hi_n[ks])
        out: F32 = d * self.std[ks][:, None, None]
        return out

    def costs(self, crop_n: F32, ks: list[int]) -> F32:
        """Capped region mean of :meth:`errors`: numbers and icons show up here."""
        d = self.errors(crop_n, np.array(ks))
        n, h, w = d.shape
        r = FINE_REGION
        d = d[:, : h - h % r, : w - w % r].reshape(n, h // r, r, w // r, r).mean(axis=(2, 4))
        out: F32 = np.minimum(d, FINE_CAP).reshape(n, -1).mean(axis=1)
        return out

    def vote(self, crop_n: F32, a: int, b: int) -> tuple[float, int]:
        """Share of the pixels where islands a and b differ that side with a, and their count.

        Two islands of the same colour and art differ only in their number and icon: only
        the pixels where their templates disagree (beyond any one-pixel shift) can tell them
        apart, and each votes for the template it fits better. A pawn over the number leaves
        few or split votes: doubt.
        """
        lo, hi = self.lo, self.hi
        telling = ((lo[a] - hi[b] > INK) | (lo[b] - hi[a] > INK)) & self.interior
        n = int(telling.sum())
        if n == 0:
            return 0.5, 0
        e = self.errors(crop_n, np.array([a, b]))
        return float(np.mean(e[0][telling] < e[1][telling])), n


def normalise(crop: F32) -> F32:
    out: F32 = (crop - float(crop.mean())) / (float(crop.std()) + 1e-3)
    return out


def range_error(crop: F32, lo: F32, hi: F32) -> F32:
    """How far each pixel lies outside the template's local range (0 inside it)."""
    out: F32 = np.maximum(np.maximum(crop - hi, lo - crop), 0.0)
    return out


def align(
    image: F32,
    centre: tuple[float, float],
    templates: list[F32],
    reach: int,
) -> tuple[tuple[float, float], int]:
    """Where the card near ``centre`` lies, and which of the candidate ``templates`` fits it
    best there (its index).

    Each candidate slides over the window; correlation (not squared difference) so that the
    light on this card, brighter or dimmer than at calibration, does not decide.
    """
    h, w = templates[0].shape[:2]
    x0, y0 = round(centre[0] - w / 2) - reach, round(centre[1] - h / 2) - reach
    H, W = image.shape[:2]
    if x0 < 0 or y0 < 0 or x0 + w + 2 * reach > W or y0 + h + 2 * reach > H:
        return centre, 0
    win = image[y0 : y0 + h + 2 * reach, x0 : x0 + w + 2 * reach]
    best = (-2.0, centre, 0)
    for n, t in enumerate(templates):
        res = cv2.matchTemplate(win, t, cv2.TM_CCOEFF_NORMED)
        _, score, _, loc = cv2.minMaxLoc(res)
        if score > best[0]:
            best = (score, (float(x0 + loc[0] + w / 2), float(y0 + loc[1] + h / 2)), n)
    return best[1], best[2]


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
