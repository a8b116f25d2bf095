"""Finding the 5x5 grid of cards in the ``solved`` calibration photo (no markers, no mat).

The table is what the photo shows along its border (the cards never reach the frame's edge);
we learn its colours there, call "card" every pixel the table model finds unlikely, and
expect 25 similar blobs. Their centres, sorted onto a 5x5 lattice, give the homography from
grid units to the photo. Thresholds come from the table's own statistics, never from fixed
brightness levels, so a dark table, a light table or wood grain all work the same way.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine.grid import SIZE

from .grid_outline import side_support, straight_outline

# OpenCV's type stubs return loosely typed arrays: the aliases name the intent only.
F64 = NDArray[Any]
U8 = NDArray[Any]
F32 = NDArray[Any]

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


def to_lab(image: U8) -> F32:
    lab: F32 = cv2.cvtColor(image.astype(np.float32) / 255.0, cv2.COLOR_BGR2LAB)
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
    border = _ring(lab, 0.0)
    table = TableModel(border)
    fg: U8 = (table.distance(lab) > table.threshold).astype(np.uint8) * 255
    k = max(3, round(min(sh, sw) / 200)) | 1
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    fg = _fill_holes(fg)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA]
    big = np.nonzero(areas >= 0.002 * sh * sw)[0] + 1
    if len(big) == 0:
        raise GridNotFoundError("no cards found: the photo looks like bare table")
    cards = np.isin(labels, big).astype(np.uint8) * 255
    # Gaps between cards are a few pixels wide: look for them on the unblurred photo.
    sharp = to_lab(cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA))
    plain = (table.distance(sharp) > table.threshold).astype(np.float32)
    scale_back = np.diag([1.0 / scale, 1.0 / scale, 1.0])
    problem = GridNotFoundError("the cards do not form a four-sided grid")
    for raw, hom in _first_guesses(lab, sharp, border, plain, cards):
        # Card art much like the table leaves cards in pieces, too little of a card for the
        # gaps to show: its holes filled (then small breaks of its paper border closed
        # first), the cards are whole again. Each is tried only if the plainer mask fails.
        for mask in _masks(raw):
            try:
                fit = _fit_lattice(mask, hom)
                _check_cell_shape(fit.lattice_to_image)
            except GridNotFoundError as exc:
                problem = exc
                continue
            return GridFit(scale_back @ fit.lattice_to_image, fit.card_rects, fit.residual)
    raise problem


# A cell (a card and its gap) is about 0.75 as wide as tall (63 x 88 mm cards, 2-14 mm gaps),
# and a camera up to 35 degrees off vertical foreshortens it one way or the other by at
# most 0.82: the lattices fitted to the solved photos of 239 of 240 sessions measure
# 0.55-1.13 at the middle cell (DEV seed 5, fresh 3000-3099 seed 11, 6000-6099 seed 43,
# 8000-8099 seed 19, held out 4000-4099 seed 29 and 7000-7099 seed 19). A lattice whose
# middle cell is more than twice as tall as wide, or as wide as tall, has numbered
# something else: on fresh deck 3027 (3000-3099 seed 11, the 240th), pale wavy art as light
# as a lamp's pool on a pale table, strips of the cards were fitted as the grid at 0.33,
# and the session was refused as "the grid does not fit the cards ... lay the cards a
# finger apart", which no re-laying mends. Each guess whose lattice is so refused leaves
# the next one to be tried.
CELL_SHAPE = (0.45, 2.2)


def _check_cell_shape(lattice_to_image: F64) -> None:
    """Refuse a lattice whose middle cell is no card's shape in the photo."""
    pts = np.array([[2.5, 2.5], [3.5, 2.5], [2.5, 3.5]], np.float64)
    centre, right, below = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), lattice_to_image)[:, 0]
    wide, tall = float(np.linalg.norm(right - centre)), float(np.linalg.norm(below - centre))
    shape = wide / max(tall, 1e-9)
    if not CELL_SHAPE[0] <= shape <= CELL_SHAPE[1]:
        raise GridNotFoundError(
            f"what was fitted as the grid has cells {shape:.2f} times as wide as tall, no "
            "card's shape (a lamp's pool of light on the table, or card art like the table, "
            "splitting the cards?); light the table evenly, or lay the cards on a surface "
            "unlike their art"
        )


def _first_guesses(
    lab: F32, sharp: F32, border: F32, plain: NDArray[np.float32], cards: U8
) -> Iterator[tuple[NDArray[np.float32], F64]]:
    """First guesses of the lattice (to the small photo), best first, each with the card
    mask to refine it on; ``lab`` and ``sharp`` are the small photo (blurred or not) in Lab,
    ``plain`` and ``cards`` its card masks by the table learned at its ``border``.

    Where the cards stand apart, walking from card to neighbouring card numbers them
    without any guess of the grid's outline, which a dim corner card or a turned grid can
    bend into a wrong quadrilateral (accepted later as a sheared, shifted lattice). A lamp
    may light the table under the grid far more than at the photo's border, where its
    colours were learned: the walk is tried again trusting lightness less (cards differ
    from the table in colour too). A lens's vignetting or a pool of light can also leave
    the photo's border unlike the table near the grid: the table is then learned again from
    a ring further in (``INNER_RING``). Only a walk that numbers the cards consistently is
    taken from these; the last guess is the outline of the cards on the plain model.
    """
    hom = _lattice_from_neighbours(plain)
    if hom is not None:
        yield plain, hom
    tries = [(border, SHADE_SHARE)] + [(_ring(lab, INNER_RING), w) for w in (1.0, SHADE_SHARE)]
    for samples, shade in tries:
        w3 = np.array([shade, 1.0, 1.0], np.float32)
        model = TableModel(samples * w3)
        mask = (model.distance(sharp * w3) > model.threshold).astype(np.float32)
        hom = _lattice_from_neighbours(mask)
        if hom is not None:
            yield mask, hom
    quad = _outline(cards)
    if quad is not None:
        # The outline's corners are the outer corners of the four corner cards: lattice 0, 5.
        dst = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], np.float32)
        yield plain, np.linalg.inv(cv2.getPerspectiveTransform(quad.astype(np.float32), dst))


def _ring(lab: F32, inset: float) -> F32:
    """The Lab pixels of a band around the photo, ``inset`` of its shorter side in from its
    edge (0: the photo's border, where the cards never reach)."""
    h, w = lab.shape[:2]
    a = round(inset * min(h, w))
    inner = lab[a : h - a, a : w - a]
    ring = max(4, round(0.03 * min(h, w)))
    out: F32 = np.concatenate(
        [
            inner[:ring].reshape(-1, 3),
            inner[-ring:].reshape(-1, 3),
            inner[:, :ring].reshape(-1, 3),
            inner[:, -ring:].reshape(-1, 3),
        ]
    )
    return out


def _masks(raw: NDArray[np.float32]) -> Iterator[NDArray[np.float32]]:
    yield raw
    m = (raw > 0.5).astype(np.uint8) * 255
    yield (_fill_holes(m) > 0).astype(np.float32)
    closed = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    yield (_fill_holes(closed) > 0).astype(np.float32)


def _fit_lattice(fg: NDArray[np.float32], hom: F64) -> GridFit:
    # Where the cards stand apart, their own blobs are the best evidence: the outline's
    # corners can be off (rounded, turned corner cards) by enough to shear the lattice.
    for _ in range(2):
        hom, _ = _fit_blobs(fg, hom)
    for _ in range(3):  # each pass straightens the lattice the next one measures in
        fit = _fit_gaps(fg, hom)
        hom = fit.lattice_to_image
    return fit


PROBE = 60  # px per cell of the rectified mask the gaps are measured on
SHADE_SHARE = 0.35  # weight of lightness in the second table model (a lamp's pool of light)
# of the photo's shorter side: how far in the table is learned again when the walk fails on
# the photo's border (fresh decks 9004, a dark vignette, and 8006, lit grain: 25 and 21
# cards stand apart learned there, against 1-2 and 7 at the border). Over DEV seeds 21 and
# 22 and fresh 8000-8999 s61 and 9000-9999 s62 (320 sessions) it calibrated three refused
# ones (DEV s21 session 5, 8006, 9004: 434 cells of their 18 photos right, 2 null, none
# wrong), lost none, and read more cells right in the two it moved most (DEV s21 session
# 3: 121 -> 144, DEV s22 session 32: 146 -> 150).
INNER_RING = 0.12
ERODE = (3, 5, 7, 9)  # px at WORK_SIDE: erosions tried to split cards a thin bridge joins
MIN_CARD_SHARE = 0.001  # of the photo's area: the least a card's blob covers
MIN_FILL = 0.55  # of its bounding box a card's blob fills (DEV: cards 0.69+, lit grain 0.35-0.46)
OUTLINE_SHARE = 0.25  # of the biggest blob: less is no part of the grid's outline
# Cards that must be numbered by the walk for its lattice to be used. They must also span
# exactly 5 x 5, which a few cards wrongly numbered cannot: with 10 instead of 15, a table
# partly taken for card (a lamp's pool of light) that leaves only 10-14 cards standing apart
# no longer sends the fit to the grid's outline, which took the light in (DEV seed 21
# session 19, fresh deck 8017: refused before, now calibrated, their 12 photos read 287
# cells right, none wrong; over DEV seeds 21 and 22 and fresh 8000-8999 s61 and 9000-9999
# s62, 320 sessions, no other calibration refused or lost; of the nine whose corners moved,
# five by 0.2 photo px or less, four closer to the truth: deck 8037's worst corner 7.8 ->
# 4.0 px off, its photos 29 cells more read).
MIN_WALKED = 10
STEP_ANGLE = 35.0  # degrees: a neighbour is "to the right" within this of the row direction
STEP_REACH = 1.45  # a step longer than this x the typical one skips a card


def _card_blobs(fg: NDArray[np.float32]) -> F64:
    """Centres of the blobs of card size in a card mask (cards that stand apart).

    A gap a pixel wide, a card's shadow in it or table grain unlike the frame's border can
    join neighbours; eroding more splits them again (the centres stay put), so the erosion
    that separates the most cards is kept.
    """
    raw = (fg > 0.5).astype(np.uint8) * 255
    best: F64 = np.zeros((0, 2))
    # Art the colour of the table leaves holes in a card, inside its paper border; filled
    # before eroding, it cannot break the border open (but table grain enclosed by cards
    # then joins them: both are tried).
    for mask, k in [(m, k) for m in (raw, _fill_holes(raw)) for k in ERODE]:
        m = _fill_holes(cv2.erode(mask, np.ones((k, k), np.uint8)))
        n, _, stats, cents = cv2.connectedComponentsWithStats(m, connectivity=4)
        if n <= 1:
            continue
        areas = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
        # Crumbs of table grain are no cards, however many: a card's blob is a sizeable
        # share of the photo (the grid fills a good part of it).
        sizeable = areas >= MIN_CARD_SHARE * m.size
        if not sizeable.any():
            continue
        ref = float(np.median(np.sort(areas[sizeable])[-SIZE * SIZE :]))
        # A card is a rectangle turned a little, filling most of its box; a patch of grain
        # under a lamp, cut to card size by the erosion, is ragged and does not.
        box = (stats[1:, cv2.CC_STAT_WIDTH] * stats[1:, cv2.CC_STAT_HEIGHT]).astype(np.float64)
        solid = areas >= MIN_FILL * box
        keep = [
            i + 1
            for i in range(n - 1)
            if sizeable[i] and solid[i] and 0.5 * ref <= areas[i] <= 1.6 * ref
        ]
        if len(keep) > len(best):
            best = cents[keep].astype(np.float64)
    return best


def _lattice_from_neighbours(fg: NDArray[np.float32]) -> F64 | None:
    """Lattice-to-small-photo homography from card blobs numbered by walking neighbours.

    From the middle card, each step to the nearest card roughly along the rows (or columns)
    adds one to the column (or row). The grid is turned at most ~15 degrees and perspective
    changes the spacing smoothly, so a step is recognised by its direction and by a length
    close to the typical one; a step that skips a missing card is too long and not taken.
    None unless the walk numbers enough cards consistently on exactly a 5x5 span.
    """
    pts = _card_blobs(fg)
    if len(pts) < MIN_WALKED:
        return None
    vec = pts[None, :, :] - pts[:, None, :]  # vec[i, j]: from card i to card j
    dist = np.linalg.norm(vec, axis=2)
    np.fill_diagonal(dist, np.inf)
    ang = np.degrees(np.arctan2(vec[..., 1], vec[..., 0]))
    steps = {(1, 0): 0.0, (-1, 0): 180.0, (0, 1): 90.0, (0, -1): -90.0}
    nearest: dict[tuple[int, int], NDArray[np.intp]] = {}
    length: dict[tuple[int, int], NDArray[np.float64]] = {}
    for step, a in steps.items():
        off = np.abs((ang - a + 180.0) % 360.0 - 180.0)
        d = np.where(off < STEP_ANGLE, dist, np.inf)
        nearest[step] = np.argmin(d, axis=1)
        length[step] = d[np.arange(len(pts)), nearest[step]]
    typical = {}
    for axis in ((1, 0), (0, 1)):
        both = np.concatenate([length[axis], length[(-axis[0], -axis[1])]])
        both = both[np.isfinite(both)]
        if len(both) < MIN_WALKED:
            return None
        typical[axis] = float(np.median(both))
    start = int(np.argmin(np.linalg.norm(pts - pts.mean(axis=0), axis=1)))
    where = {start: (0, 0)}
    todo = [start]
    while todo:
        i = todo.pop()
        for step in steps:
            j = int(nearest[step][i])
            limit = STEP_REACH * typical[(abs(step[0]), abs(step[1]))]
            if not length[step][i] < limit:
                continue
            # Two cards may only be neighbours both ways (a lone card does not bridge rows).
            back = (-step[0], -step[1])
            if int(nearest[back][j]) != i:
                continue
            at = (where[i][0] + step[0], where[i][1] + step[1])
            if j in where:
                if where[j] != at:
                    return None
                continue
            where[j] = at
            todo.append(j)
    if len(where) < MIN_WALKED:
        return None
    idx = np.array(list(where))
    cells = np.array([where[i] for i in idx], np.float64)
    keep = _within_grid(cells)
    idx, cells = idx[keep], cells[keep]
    if len(idx) < MIN_WALKED:
        return None
    cells -= cells.min(axis=0)
    unique = len({tuple(c) for c in cells.tolist()}) == len(cells)
    if np.any(cells.max(axis=0) != SIZE - 1) or not unique:
        return None
    # (a card the table model sees only in part has its centre off by a few px: the later
    # fits to blobs and gaps refine what this starts)
    tol = 0.15 * min(typical.values())
    hom, inliers = cv2.findHomography(cells + 0.5, pts[idx], cv2.RANSAC, tol)
    if hom is None or inliers is None or int(inliers.sum()) < MIN_WALKED:
        return None
    return np.asarray(hom, np.float64)


def _within_grid(cells: F64) -> NDArray[np.bool_]:
    """Which walked cards to keep: all, unless the walk spans more than 5 columns (or rows)
    and an outer one holds at most ``STRAY_LINE`` blobs while the opposite one holds at
    least ``FULL_LINE`` (a line of the grid beside a stray, not a stray beside a line of the
    grid the mask left a card of).

    A patch of table the model takes for card (a lamp's pool of light beside the grid),
    eroded to a card's size, is walked to as one more column: the span is then 6 and the
    walk was given up, leaving the grid's outline, which took the patch in (fresh deck 8010,
    8000-8999 seed 19: a lattice of five columns over the grid's last four, refused).
    """
    keep = np.ones(len(cells), bool)
    for axis in (0, 1):
        while True:
            line = cells[keep, axis]
            lo, hi = float(line.min()), float(line.max())
            if hi - lo <= SIZE - 1:
                break
            n_lo, n_hi = int((line == lo).sum()), int((line == hi).sum())
            if min(n_lo, n_hi) > STRAY_LINE or max(n_lo, n_hi) < FULL_LINE:
                break  # (no stray line: the span check refuses the walk)
            keep &= cells[:, axis] != (lo if n_lo < n_hi else hi)
    return keep


STRAY_LINE = 1  # blobs: an outer line of the walk beyond a 5 span with no more is a stray...
FULL_LINE = 3  # ...when the opposite outer line has at least this many


def _outline(cards: U8) -> F64 | None:
    """The grid's outline in the cards' mask: the corners of its hull, or else of its four
    straight sides.

    A patch of table the model takes for card (grain or a pool of light under a lamp) joins
    the cards where they lie close: the hull's corners are then partly the patch's, and its
    sides run along the patch's ragged rim. Without the blobs far smaller than the biggest
    (with the cards touching, the grid is one blob) the hull may still have four corners;
    the straight sides pass the patch by (:mod:`.grid_outline`). The hull is kept while its
    sides lie on the mask's edge: where both are right the hull starts the lattice fits
    closer (fresh design 3008: corners 0.6 px off at the median, 2.5 px from the sides).
    """
    hull = _outline_quad(cards)
    if hull is None:
        hull = _outline_quad(_without_crumbs(cards))
    if hull is not None and side_support(cards, hull) >= HULL_SUPPORT:
        return hull
    found = [q for q in (hull, straight_outline(cards)) if q is not None]
    if not found:
        return None
    support = [side_support(cards, q) for q in found]
    return found[int(np.argmax(support))]  # (the first of equals: the hull)


# A hull whose weakest side has less than this share on the mask's edge ran along something
# else's rim (fresh decks: 0.09-0.24 where a pool of light joined the grid, 0.35-1.0 on
# right outlines)
HULL_SUPPORT = 0.3


def _without_crumbs(mask: U8) -> U8:
    """The mask with only its blobs of at least ``OUTLINE_SHARE`` of the biggest's area."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 2:
        return mask
    areas = stats[1:, cv2.CC_STAT_AREA]
    keep = np.nonzero(areas >= OUTLINE_SHARE * areas.max())[0] + 1
    out: U8 = np.isin(labels, keep).astype(np.uint8) * 255
    return out


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
        # No clean four-sided outline (a corner card turned, a rounded corner): the hull's
        # extreme points still mark the four corners well enough to start from.
        approx = hull.reshape(-1, 2)
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


def _fit_blobs(fg: NDArray[np.float32], lattice_to_small: F64) -> tuple[F64, bool]:
    """The lattice refitted to the centres of the cards that show as separate blobs."""
    m = cv2.erode((fg > 0.5).astype(np.uint8), np.ones((3, 3), np.uint8))
    n, _, stats, cents = cv2.connectedComponentsWithStats(m, connectivity=4)
    if n <= 1:
        return lattice_to_small, False
    areas = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
    ref = float(np.median(np.sort(areas)[-SIZE * SIZE :]))
    keep = [k + 1 for k in range(n - 1) if 0.5 * ref <= areas[k] <= 1.6 * ref]
    if len(keep) < 12:
        return lattice_to_small, False
    pts = cents[keep].astype(np.float64)
    lat = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), np.linalg.inv(lattice_to_small))
    lat = lat.reshape(-1, 2)
    cell = np.floor(lat)
    frac = lat - cell
    ok = np.all((cell >= 0) & (cell < SIZE) & (frac > 0.1) & (frac < 0.9), axis=1)
    ids = cell[:, 1] * SIZE + cell[:, 0]
    uniq, counts = np.unique(ids[ok], return_counts=True)
    single = set(uniq[counts == 1].tolist())
    use = [i for i in range(len(pts)) if ok[i] and ids[i] in single]
    if len(use) < 12:
        return lattice_to_small, False
    target = cell[use] + 0.5
    hom, _ = cv2.findHomography(target, pts[use], cv2.RANSAC, 3.0)
    if hom is None:
        return lattice_to_small, False
    return np.asarray(hom, np.float64), True


def _boundaries(table: F64, probe: int) -> tuple[list[float], float]:
    """Column (or row) boundaries 0..5 in probe px from a profile of table share, and the
    cards' extent along it in cells. ``table`` spans the grid plus half a cell each side."""
    off = probe // 2
    p = np.convolve(table, np.ones(3) / 3, mode="same")
    reach = round(0.3 * probe)
    lines: list[float] = []
    # Outer edges: where the table share first falls below half, coming from outside.
    # (no crossing at all: keep the current line rather than the window's end)
    head = p[off - reach : off + reach] < 0.5
    lo = off - reach + int(np.argmax(head)) if head.any() else off
    tail = p[off + SIZE * probe - reach : off + SIZE * probe + reach][::-1] < 0.5
    hi = off + SIZE * probe + reach - int(np.argmax(tail)) if tail.any() else off + SIZE * probe
    inner = p[off : off + SIZE * probe]
    floor = float(np.median(inner))
    lines.append(float(lo))
    for k in range(1, SIZE):
        a, b = off + k * probe - reach, off + k * probe + reach
        seg = p[a:b]
        j = int(np.argmax(seg))
        # A gap must stand out from the cards; touching cards leave the nominal line.
        lines.append(float(a + j) if seg[j] > floor + 0.15 else float(off + k * probe))
    lines.append(float(hi))
    # The share of positions along the grid that are gap, not card, gives the card's extent.
    extent = 1.0 - float(np.mean(inner > 0.5))
    return lines, extent


def _fit_gaps(fg: NDArray[np.float32], lattice_to_small: F64) -> GridFit:
    """Refit the lattice to the gaps between the cards, seen on the rectified card mask."""
    side = (SIZE + 1) * PROBE
    off = PROBE // 2
    to_probe = np.array([[PROBE, 0, off], [0, PROBE, off], [0, 0, 1]], np.float64)
    rect = cv2.warpPerspective(
        fg,
        lattice_to_small @ np.linalg.inv(to_probe),
        (side, side),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
    )
    table = 1.0 - rect
    # Each row's column lines and each column's row lines separately: a sheared first guess
    # (a grid turned and tilted) then shows as centres off a separable lattice, which the
    # homography refit below straightens.
    row_lines = []
    col_lines = []
    widths, heights = [], []
    for k in range(SIZE):
        band = slice(off + k * PROBE + PROBE // 5, off + (k + 1) * PROBE - PROBE // 5)
        xs, w = _boundaries(table[band].mean(axis=0), PROBE)
        ys, h = _boundaries(table[:, band].mean(axis=1), PROBE)
        row_lines.append(xs)
        col_lines.append(ys)
        widths.append(w)
        heights.append(h)
    w, h = float(np.median(widths)), float(np.median(heights))
    if min(w, h) < 0.5 or w > 1.0 or h > 1.0:
        raise GridNotFoundError("the cards do not divide into a 5x5 grid")
    found = np.array(
        [
            [
                ((row_lines[r][c] + row_lines[r][c + 1]) / 2 - off) / PROBE,
                ((col_lines[c][r] + col_lines[c][r + 1]) / 2 - off) / PROBE,
            ]
            for r in range(SIZE)
            for c in range(SIZE)
        ],
        np.float64,
    )
    target = np.array([[i % SIZE + 0.5, i // SIZE + 0.5] for i in range(SIZE * SIZE)])
    pts = cv2.perspectiveTransform(found.reshape(-1, 1, 2), lattice_to_small).reshape(-1, 2)
    hom, _ = cv2.findHomography(target, pts, 0)
    if hom is None:
        raise GridNotFoundError("could not fit the grid's perspective")
    hom = np.asarray(hom, np.float64)
    misfit = float(np.abs(found - target).max())
    if misfit > 0.35:
        raise GridNotFoundError(f"cards do not sit on a 5x5 grid (misfit {misfit:.2f} cell)")
    half = np.array([w / 2, h / 2])
    rects = np.concatenate([target - half, target + half], axis=1)
    return GridFit(hom, rects, misfit)
