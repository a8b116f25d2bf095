"""Reading one photo with a calibration profile: the grid, pawns, gems and what is doubtful.

Stages (each timed into ``Reading.stages``):

1. ``warp``: shrink the photo and warp it once into the small board image (fixed camera, so
   the calibrated homography is reused rather than searched for again).
2. ``check``: cheap sanity checks (too dark, blank, the grid no longer where it was, a hand).
3. ``locate``: each card found in its cell as the card-sized box that best covers non-table
   pixels, so shifted cards and uneven gaps still read.
4. ``identify``: the 25 cards against the 25 learned templates, jointly (Hungarian), with a
   per-cell margin: a cell whose island could be exchanged with another's at little extra
   cost is reported ``null`` and uncertain rather than guessed.
5. ``objects``: the residual against the expected board gives pawns and red gems.
"""

from __future__ import annotations

import time

import cv2
import numpy as np
from numpy.typing import NDArray

from zefiria.engine.grid import ALL_CELLS, SIZE, Cell

from . import assignment
from .card_identity import coarse_costs, crop_cards, pair_costs, refine_centres
from .grid_locator import to_lab
from .pawns import find_gems, find_pawns, objects_mask, residual
from .photo_io import PhotoError, check_image
from .profile import Profile
from .reading import Reading, Status

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

# Confidence rules, in units of the deck's typical difference between two islands.
MIN_MARGIN = 0.12  # a cheaper exchange than this makes a cell uncertain
MAX_OWN = 0.7  # a card this far from its own template is covered or damaged
HAND_CELLS = 3  # this many covered cells means something big is over the cards
SEARCH = 0.22  # how far (cells) a card may have moved from its calibrated place
REFINE = 4  # board px each candidate island may slide to fit best
CANDIDATES = 4  # islands per cell judged at their own best position


class _Cache:
    """Per-profile arrays derived once (the calibration board in Lab)."""

    def __init__(self) -> None:
        self.key: U8 | None = None  # the board array itself: an id() could be reused
        self.lab: F32 | None = None


_cache = _Cache()


def calibration_lab(profile: Profile) -> F32:
    if _cache.key is not profile.board or _cache.lab is None:
        _cache.lab = to_lab(profile.board)
        _cache.key = profile.board
    return _cache.lab


def table_distance(lab: F32, profile: Profile) -> F32:
    """Mahalanobis distance of every pixel from the table's colour (whitened by cv2: fast)."""
    white = np.linalg.cholesky(profile.table_icov).T  # icov = W^T W
    m = np.zeros((3, 4), np.float64)
    m[:, :3] = white
    m[:, 3] = -white @ profile.table_mean
    z = cv2.transform(lab, m.astype(np.float32))
    out: F32 = cv2.magnitude(
        cv2.magnitude(z[..., 0].copy(), z[..., 1].copy()), z[..., 2].copy()
    )
    return out


def _card_mask(profile: Profile, centres: F64) -> U8:
    h, w = profile.board.shape[:2]
    m = np.zeros((h, w), np.uint8)
    cw, ch = profile.card_size
    for cx, cy in centres:
        x0, y0 = round(cx - cw / 2), round(cy - ch / 2)
        m[max(0, y0) : y0 + ch, max(0, x0) : x0 + cw] = 1
    return m


def _match_lighting(lab: F32, ref: F32, mask: U8) -> F32:
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


def locate_cards(fg: F32, profile: Profile) -> F64:
    """Board-px centre of the card in each cell: the card-sized box covering most non-table."""
    cw, ch = profile.card_size
    score = cv2.boxFilter(2.0 * fg - 1.0, -1, (cw, ch), normalize=False)
    reach = round(SEARCH * profile.geometry.pitch)
    out = profile.card_centres.copy()
    h, w = fg.shape
    for i, (r, c) in enumerate(ALL_CELLS):
        gx, gy = profile.geometry.cell_centre((r, c))
        cx, cy = round(gx), round(gy)
        y0, x0 = max(0, cy - reach), max(0, cx - reach)
        win = score[y0 : min(h, cy + reach + 1), x0 : min(w, cx + reach + 1)]
        top = win.max()
        ys, xs = np.nonzero(win >= top - 0.5)
        out[i] = (x0 + xs.mean(), y0 + ys.mean())
    return out


def read_table(image_bgr: U8, profile: Profile) -> Reading:
    """Read one photo taken from the calibrated camera pose. Never raises on bad photos."""
    start = time.perf_counter()
    stages: dict[str, float] = {}
    mark = start

    def lap(name: str) -> None:
        nonlocal mark
        now = time.perf_counter()
        stages[name] = (now - mark) * 1000.0
        mark = now

    def refuse(reason: str) -> Reading:
        ms = (time.perf_counter() - start) * 1000.0
        return Reading(status=Status.UNREADABLE, reason=reason, ms=ms, stages=stages)

    try:
        image = check_image(image_bgr)
    except PhotoError as exc:
        return refuse(str(exc))
    g = profile.geometry
    h, w = image.shape[:2]
    if (w, h) != g.image_size:
        return refuse(
            f"photo is {w}x{h} but the profile was calibrated on {g.image_size[0]}x"
            f"{g.image_size[1]} photos"
        )
    board = g.warp(image)
    lab = to_lab(board)
    lap("warp")

    ref = calibration_lab(profile)
    nominal = _card_mask(profile, profile.card_centres)
    sel = nominal.astype(bool)
    light = float(np.median(lab[::4, ::4, 0][sel[::4, ::4]]))
    ref_light = float(np.median(ref[::4, ::4, 0][sel[::4, ::4]]))
    if light < 0.25 * ref_light:
        return refuse("image too dark: the table is not lit")
    if float(np.percentile(lab[::4, ::4, 0], 95) - np.percentile(lab[::4, ::4, 0], 5)) < 3.0:
        return refuse("image is blank: no contrast at all")
    lab = _match_lighting(lab, ref, nominal)
    fg = (table_distance(lab, profile) > profile.table_threshold).astype(np.float32)
    hand = _hand_from_outside(fg, profile)
    coverage = float(fg[sel].mean())
    lap("check")
    if hand:
        return refuse("hand or object over the cards")
    if coverage < 0.5:
        return refuse("grid not where it was calibrated (camera moved?): calibrate again")

    centres = locate_cards(fg, profile)
    lap("locate")

    feats = crop_cards(lab, centres, profile.card_size)
    coarse = coarse_costs(feats, profile.templates)
    pairs = _candidates(coarse)
    refined = refine_centres(
        lab[..., 0], ref[..., 0], centres, profile.card_centres, pairs, profile.card_size,
        REFINE,
    )
    keys = list(refined)
    spots = np.array([refined[key] for key in keys])
    rfeats = crop_cards(lab, spots, profile.card_size)
    idx = np.array([key[1] for key in keys])
    rcost = pair_costs(rfeats, profile.templates[idx])
    # Pairings nobody looked at closely stay out of reach: they were far off at first sight.
    cost = coarse + profile.cross_cost
    for n, (i, k) in enumerate(keys):
        cost[i, k] = rcost[n]
    choice = assignment.solve(cost)
    for i, k in enumerate(choice):
        if (i, int(k)) in refined:
            centres[i] = refined[(i, int(k))]
    margins = assignment.swap_margins(cost, choice)
    own = cost[np.arange(len(choice)), choice]
    scale = max(profile.cross_cost, 1e-3)
    covered = own > MAX_OWN * scale
    lap("identify")
    if int(covered.sum()) >= HAND_CELLS:
        return refuse(f"hand or object over the cards ({int(covered.sum())} cards hidden)")

    expected = ref.copy()
    ref_cards = crop_full(ref, profile.card_centres, profile.card_size)
    cw, ch = profile.card_size
    for i, k in enumerate(choice):
        if covered[i]:
            continue
        x0, y0 = round(centres[i][0] - cw / 2), round(centres[i][1] - ch / 2)
        _paste(expected, ref_cards[k], x0, y0)
    res = residual(lab, expected)
    floor = 0.5 * scale
    mask = objects_mask(res, floor)
    pawns, doubtful_pawns = find_pawns(
        lab, expected, mask, profile.pawn_colours, profile.pawn_icov, profile.pawn_offsets, profile.pawn_areas, g
    )
    gems, gem_doubts = find_gems(lab, expected, mask, profile.pawn_colours, float(cw * ch), g)
    lap("objects")

    uncertain: list[Cell] = []
    grid: list[list[int | None]] = [[None] * SIZE for _ in range(SIZE)]
    conf: list[list[float]] = [[0.0] * SIZE for _ in range(SIZE)]
    for i, (r, c) in enumerate(ALL_CELLS):
        conf[r][c] = float(margins[i] / scale)
        if covered[i] or margins[i] < MIN_MARGIN * scale:
            uncertain.append((r, c))
        else:
            grid[r][c] = int(choice[i]) + 1
    for spirit in doubtful_pawns:
        p = pawns[spirit]
        if not p.outside and p.cell not in uncertain:
            uncertain.append(p.cell)
    for cell in gem_doubts:
        if cell not in uncertain and cell not in gems:
            uncertain.append(cell)
    ms = (time.perf_counter() - start) * 1000.0
    return Reading(
        status=Status.OK,
        grid=tuple(tuple(row) for row in grid),
        pawns=pawns,
        gems=tuple(sorted(gems)),
        uncertain=tuple(sorted(uncertain)),
        ms=ms,
        confidence=tuple(tuple(row) for row in conf),
        stages=stages,
    )


def _candidates(cost: F32) -> list[tuple[int, int]]:
    """Pairings worth a precise look: each cell's cheapest islands, each island's cheapest
    cells, and the best joint assignment at first sight."""
    top = np.argsort(cost, axis=1)[:, :CANDIDATES]
    pairs = {(i, int(k)) for i in range(len(cost)) for k in top[i]}
    left = np.argsort(cost, axis=0)[:CANDIDATES]
    pairs |= {(int(i), k) for k in range(cost.shape[1]) for i in left[:, k]}
    pairs |= {(i, int(k)) for i, k in enumerate(assignment.solve(cost))}
    return sorted(pairs)


def crop_full(lab: F32, centres: F64, size: tuple[int, int]) -> list[F32]:
    """Full-resolution card crops (board px) at ``centres``."""
    w, h = size
    pad = max(w, h)
    big = cv2.copyMakeBorder(lab, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    out = []
    for cx, cy in centres:
        x0, y0 = round(cx - w / 2) + pad, round(cy - h / 2) + pad
        out.append(big[y0 : y0 + h, x0 : x0 + w].copy())
    return out


def _paste(dst: F32, patch: F32, x0: int, y0: int) -> None:
    h, w = patch.shape[:2]
    H, W = dst.shape[:2]
    sx0, sy0 = max(0, -x0), max(0, -y0)
    dx0, dy0 = max(0, x0), max(0, y0)
    dx1, dy1 = min(W, x0 + w), min(H, y0 + h)
    if dx1 > dx0 and dy1 > dy0:
        dst[dy0:dy1, dx0:dx1] = patch[sy0 : sy0 + dy1 - dy0, sx0 : sx0 + dx1 - dx0]


def _hand_from_outside(fg: F32, profile: Profile) -> bool:
    """A big non-table region that reaches from the photo's edge across the table margin.

    Hands and arms come from outside the grid; pawns standing beside it (Austro) are small
    and do not touch the board image's border.
    """
    h, w = fg.shape
    m = (fg > 0).astype(np.uint8)
    m = cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(m)
    if n <= 1:
        return False
    edge = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    cell_area = profile.geometry.pitch**2
    for k in edge:
        if k == 0:
            continue
        if stats[k, cv2.CC_STAT_AREA] > 0.35 * cell_area:
            return True
    return False
