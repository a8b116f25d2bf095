"""Finding the 5x5 grid of cards in the ``solved`` calibration photo (no markers, no mat).

The table is what the photo shows along its border (the cards never reach the frame's edge);
we learn its colours there, call "card" every pixel the table model finds unlikely, and
expect 25 similar blobs. Their centres, sorted onto a 5x5 lattice, give the homography from
grid units to the photo. Thresholds come from the table's own statistics, never from fixed
brightness levels, so a dark table, a light table or wood grain all work the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine.grid import SIZE

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

WORK_SIDE = 800  # the photo is searched at this size (longest side)


class GridNotFoundError(ValueError):
    """The solved photo does not show 25 cards in a 5x5 grid; the message says why."""


@dataclass(frozen=True)
class GridFit:
    lattice_to_image: F64  # 3x3, full-resolution pixels
    card_rects: F64  # (25, 4) x0, y0, x1, y1 of each card in lattice units, row-major
    residual: float  # worst card-centre misfit to the lattice, in cells


class TableModel:
    """A Gaussian model of the table's colour (Lab), learned from pixels known to be table."""

    def __init__(self, samples: NDArray[np.float32]) -> None:
        x = samples.reshape(-1, 3).astype(np.float64)
        self.mean: F64 = x.mean(axis=0)
        cov = np.cov(x, rowvar=False) + np.eye(3) * 4.0  # floor: a flat table is not exact
        self.icov: F64 = np.linalg.inv(cov)
        d = self.distance(samples)
        # 99.5th percentile of the table's own pixels: unusual for the table, by its own law.
        self.threshold = float(np.percentile(d, 99.5)) * 1.3

    def distance(self, lab: NDArray[np.float32]) -> NDArray[np.float32]:
        d = lab.reshape(-1, 3).astype(np.float32) - self.mean.astype(np.float32)
        q = np.einsum("ij,jk,ik->i", d, self.icov.astype(np.float32), d)
        out: NDArray[np.float32] = np.sqrt(q).reshape(lab.shape[:-1])
        return out


def to_lab(image: U8) -> NDArray[np.float32]:
    lab: NDArray[np.float32] = cv2.cvtColor(image.astype(np.float32) / 255.0, cv2.COLOR_BGR2LAB)
    return lab


def _fill_holes(mask: U8) -> U8:
    padded = cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    ff = np.zeros((padded.shape[0] + 2, padded.shape[1] + 2), np.uint8)
    cv2.floodFill(padded, ff, (0, 0), 255)
    holes = padded[1:-1, 1:-1] == 0
    out = mask.copy()
    out[holes] = 255
    return out


def locate_grid(image: U8) -> GridFit:
    """The grid in a photo of the 25 cards, or :class:`GridNotFoundError`."""
    h, w = image.shape[:2]
    scale = WORK_SIDE / max(h, w)
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), 0)
    lab = to_lab(small)
    sh, sw = lab.shape[:2]
    ring = max(4, round(0.03 * min(sh, sw)))
    border = np.concatenate(
        [
            lab[:ring].reshape(-1, 3),
            lab[-ring:].reshape(-1, 3),
            lab[:, :ring].reshape(-1, 3),
            lab[:, -ring:].reshape(-1, 3),
        ]
    )
    table = TableModel(border)
    fg = (table.distance(lab) > table.threshold).astype(np.uint8) * 255
    k = max(3, round(min(sh, sw) / 200)) | 1
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    fg = _fill_holes(fg)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA]
    big = np.nonzero(areas >= 0.002 * sh * sw)[0] + 1
    if len(big) == 0:
        raise GridNotFoundError("no cards found: the photo looks like bare table")
    cards = np.isin(labels, big).astype(np.uint8) * 255
    quad = _outline_quad(cards)
    if quad is None:
        raise GridNotFoundError("the cards do not form a four-sided grid")
    # The outline's corners are the outer corners of the four corner cards: lattice 0 and 5.
    dst = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], np.float32)
    guess = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    fit = _fit_cards(cards, np.linalg.inv(guess))
    # Second pass from the card centres: uneven gaps no longer bias the outline corners.
    fit = _fit_cards(cards, fit.lattice_to_image)
    scale_back = np.diag([1.0 / scale, 1.0 / scale, 1.0])
    return GridFit(scale_back @ fit.lattice_to_image, fit.card_rects, fit.residual)


PROBE = 40  # px per cell of the rectified mask used to place the cards


def _outline_quad(mask: U8) -> F64 | None:
    """Four corners (TL, TR, BR, BL) of the region the cards cover, or None."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    pts = np.concatenate(contours).reshape(-1, 2)
    hull = cv2.convexHull(pts)
    perimeter = cv2.arcLength(hull, True)
    for frac in (0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, frac * perimeter, True).reshape(-1, 2)
        if len(approx) == 4:
            break
    else:
        return None
    q = approx.astype(np.float64)
    s = q.sum(axis=1)
    d = q[:, 0] - q[:, 1]
    # Island 1 is at the top left of the image: with the grid turned at most ~15 degrees
    # the corners are the extremes of x+y and x-y.
    order = [int(np.argmin(s)), int(np.argmax(d)), int(np.argmax(s)), int(np.argmin(d))]
    if len(set(order)) != 4:
        return None
    out: F64 = q[order]
    return out


def _fit_cards(mask: U8, lattice_to_small: F64) -> GridFit:
    """Place a card-sized box in each cell of the rectified mask and refit the homography."""
    side = (SIZE + 1) * PROBE
    off = PROBE / 2
    to_probe = np.array([[PROBE, 0, off], [0, PROBE, off], [0, 0, 1]], np.float64)
    rect = cv2.warpPerspective(
        mask, lattice_to_small @ np.linalg.inv(to_probe), (side, side),
        flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP,
    )
    fg = (rect > 0).astype(np.float32)
    inner = fg[round(off) : round(off) + SIZE * PROBE, round(off) : round(off) + SIZE * PROBE]
    # The card size from the coverage profiles: a column through a card column is covered
    # over the cards' height fraction h, a row through a card row over their width w.
    h = min(1.0, float(np.percentile(inner.mean(axis=0), 90)))
    w = min(1.0, float(np.percentile(inner.mean(axis=1), 90)))
    if min(w, h) < 0.5:
        raise GridNotFoundError("the cards do not divide into a 5x5 grid")
    bw, bh = max(3, round(w * PROBE)), max(3, round(h * PROBE))
    score = cv2.boxFilter(2 * fg - 1, -1, (bw, bh), normalize=False, borderType=cv2.BORDER_CONSTANT)
    centres = np.zeros((SIZE * SIZE, 2))
    worst = 0.0
    reach = round(0.3 * PROBE)
    for i in range(SIZE * SIZE):
        r, c = divmod(i, SIZE)
        cx, cy = round(off + (c + 0.5) * PROBE), round(off + (r + 0.5) * PROBE)
        win = score[cy - reach : cy + reach + 1, cx - reach : cx + reach + 1]
        if float(win.max()) < 0.5 * bw * bh:
            raise GridNotFoundError(f"no card found in row {r + 1}, column {c + 1}")
        # Several equal maxima (a card smaller than the box window): take their middle.
        ys, xs = np.nonzero(win >= win.max() - 1e-3)
        dx, dy = xs.mean() - reach, ys.mean() - reach
        centres[i] = (c + 0.5 + dx / PROBE, r + 0.5 + dy / PROBE)
        worst = max(worst, abs(dx) / PROBE, abs(dy) / PROBE)
    target = np.array([[i % SIZE + 0.5, i // SIZE + 0.5] for i in range(SIZE * SIZE)])
    pts = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), lattice_to_small).reshape(-1, 2)
    hom, _ = cv2.findHomography(target, pts, 0)
    if hom is None:
        raise GridNotFoundError("could not fit the grid's perspective")
    hom = np.asarray(hom, np.float64)
    back = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), np.linalg.inv(hom)).reshape(-1, 2)
    misfit = float(np.abs(back - target).max())
    if misfit > 0.25:
        raise GridNotFoundError(f"cards do not sit on a 5x5 grid (misfit {misfit:.2f} cell)")
    half = np.array([w / 2, h / 2])
    rects = np.concatenate([back - half, back + half], axis=1)
    return GridFit(hom, rects, misfit)
