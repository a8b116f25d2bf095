"""Reading one photo with a calibration profile: the grid, pawns, gems and what is doubtful.

Stages (each timed into ``Reading.stages``):

1. ``warp``: one warp of the photo into the fine board (2x) and a pyramid step to the board
   (fixed camera, so the calibrated homography is reused rather than searched for again).
2. ``check``: cheap sanity checks: too dark, blank, a hand or arm reaching in over the table
   around the grid (compared pixel by pixel with the calibration photo).
3. ``identify``: each card aligned near its calibrated place on its printed detail (light
   removed), then the 25 cards against the 25 learned islands jointly (Hungarian) on colour
   and fine detail. A cell is certain only if the pixels where its island differs from its
   rivals all side with it, no cheap exchange with another cell exists, and the card fits
   its template overall; otherwise it is ``null`` and uncertain.
4. ``objects``: the residual against the expected board gives pawns (learned colours) and
   red gems.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine.grid import ALL_CELLS, SIZE, Cell

from . import assignment
from .card_identity import coarse_costs, crop_cards, match_lighting
from .grid_locator import to_lab
from .identify import SHIFT, Deck, alternatives, band
from .pawns import (
    find_gems,
    find_pawns,
    objects_mask,
    paste_cards,
    relight_cards,
    residual,
)
from .photo_io import PhotoError, check_image
from .profile import Profile
from .reading import Reading, Status

# OpenCV's type stubs return loosely typed arrays: the aliases name the intent only.
F32 = NDArray[Any]
F64 = NDArray[Any]
U8 = NDArray[Any]

# Confidence rules. Costs are (1 - correlation of printed detail) + colour (in units of the
# deck's typical difference between two islands, weighted).
COLOUR_WEIGHT = 0.6
MIN_MARGIN = 0.7  # any other reading of a cell must cost the table at least this much more
MIN_SCORE = 0.6  # the card's print must correlate at least this well with its island's
MAX_OWN = 0.7  # a card this far from its template's colours is covered or damaged
MAX_CERTAIN_OWN = 0.45  # a card further than this from its island's colours is in doubt
COVER_SCORE = 0.5  # ...and whose print correlates less than this with it
HAND_CELLS = 7  # this many hidden cards means something big is over them (else: doubts)
# The last reading's per-cell evidence (swap margin, row margin, vote, own cost, choice), for
# tuning and diagnosis; one entry only, so a long-running device does not accumulate them.
DEBUG: deque[tuple[F64, F64, F64, F64, NDArray[np.intp]]] = deque(maxlen=1)


class _Cache:
    """Per-profile arrays derived once (the calibration board in Lab)."""

    def __init__(self) -> None:
        self.key: U8 | None = None  # the board array itself: an id() could be reused
        self.lab: F32 | None = None
        self.ident: Deck | None = None


_cache = _Cache()


def calibration_lab(profile: Profile) -> F32:
    _refresh(profile)
    assert _cache.lab is not None
    return _cache.lab


def prepare(profile: Profile) -> None:
    """Build the per-profile arrays now (about 0.3 s) rather than in the first reading."""
    _refresh(profile)


def _refresh(profile: Profile) -> None:
    if _cache.key is profile.board and _cache.lab is not None:
        return
    _cache.lab = to_lab(profile.board)
    _cache.ident = Deck(cv2.cvtColor(profile.board, cv2.COLOR_BGR2GRAY), profile.quads())
    _cache.key = profile.board


def _card_mask(profile: Profile, centres: F64) -> U8:
    h, w = profile.board.shape[:2]
    m = np.zeros((h, w), np.uint8)
    cw, ch = profile.card_size
    for cx, cy in centres:
        x0, y0 = round(cx - cw / 2), round(cy - ch / 2)
        m[max(0, y0) : y0 + ch, max(0, x0) : x0 + cw] = 1
    return m


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
    _, board = g.warp_pair(image)
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
    lab = match_lighting(lab, ref, nominal)
    hand = _hand_from_outside(lab, ref, profile)
    lap("check")
    if hand:
        return refuse("hand or object over the cards")

    _refresh(profile)
    assert _cache.ident is not None
    ident = _cache.ident
    # Every cell's card rectified along its calibrated corners, compared with the 25 learned
    # cards on printed detail (a few pixels' nudge searched), plus their colours.
    soft = band(cv2.cvtColor(board, cv2.COLOR_BGR2GRAY).astype(np.float32))
    score, where = ident.scores(ident.crops(soft))
    # The colours are taken where the print says the card lies now (its best fit's nudge).
    n = 2 * SHIFT + 1
    seen = where[np.arange(len(score)), np.argmax(score, axis=1)]
    moved = np.stack([seen % n - SHIFT, seen // n - SHIFT], axis=1).astype(np.float64)
    feats = crop_cards(lab, profile.card_centres + moved, profile.card_size)
    colour = coarse_costs(feats, profile.templates)
    scale = max(profile.cross_cost, 1e-3)
    cost = (1.0 - score) + COLOUR_WEIGHT * colour / scale
    choice = assignment.solve(cost)
    # What any other reading of a cell would cost the whole table, at the least.
    margins = alternatives(cost, choice)
    idx = np.arange(len(choice))
    best = score[idx, choice]
    own = colour[idx, choice]
    step = where[idx, choice]
    centres = profile.card_centres + np.stack([step % n - SHIFT, step // n - SHIFT], axis=1)
    # Hidden: neither its colours nor its print match its island (a pawn or a gem spoils
    # one of the two at most).
    covered = (own > MAX_OWN * scale) & (best < COVER_SCORE)
    rows = assignment.row_margins(cost, choice)
    DEBUG.append((margins, rows, best, own / scale, choice + 1))
    # Certain only when no other assignment comes close and the card matches its island's
    # print well in absolute terms (a partly hidden or glared card is not trusted).
    decided = [
        bool(margins[i] >= MIN_MARGIN)
        and bool(best[i] >= MIN_SCORE)
        and bool(own[i] <= MAX_CERTAIN_OWN * scale)
        for i in range(len(choice))
    ]
    lap("identify")
    if float(np.median(own)) > MAX_OWN * scale:
        return refuse("cards do not look as calibrated (camera moved or light changed?)")
    if int(covered.sum()) >= HAND_CELLS:
        return refuse(f"hand or object over the cards ({int(covered.sum())} cards hidden)")

    expected = ref.copy()
    quads = profile.quads()
    cw, ch = profile.card_size
    shown = ~np.asarray(covered, bool)
    now = quads + (centres - profile.card_centres)[:, None, :]
    paste_cards(expected, ref, quads[choice[shown]], now[shown])
    relight_cards(lab, expected, centres, profile.card_size)
    res = residual(lab, expected)
    floor = 0.5 * scale
    mask = objects_mask(res, floor)
    pawns, doubtful_pawns, unplaced = find_pawns(
        lab,
        expected,
        mask,
        profile.pawn_colours,
        profile.pawn_icov,
        profile.pawn_offsets,
        profile.pawn_areas,
        g,
    )
    gems, gem_doubts = find_gems(lab, expected, mask, profile.pawn_colours, float(cw * ch), g)
    lap("objects")

    uncertain: list[Cell] = []
    grid: list[list[int | None]] = [[None] * SIZE for _ in range(SIZE)]
    conf: list[list[float]] = [[0.0] * SIZE for _ in range(SIZE)]
    for i, (r, c) in enumerate(ALL_CELLS):
        conf[r][c] = float(margins[i] / scale)
        if covered[i] or not decided[i]:
            uncertain.append((r, c))
        else:
            grid[r][c] = int(choice[i]) + 1
    for spirit in doubtful_pawns:
        p = pawns[spirit]
        if not p.outside and p.cell not in uncertain:
            uncertain.append(p.cell)
    for cell in unplaced:
        if cell not in uncertain:
            uncertain.append(cell)
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


def _paste_card(dst: F32, ref: F32, src: F64, quad: F64) -> None:
    """The calibration's card at corners ``src`` drawn into ``dst`` at corners ``quad``
    (turned, nudged: the card as it lies now)."""
    H, W = dst.shape[:2]
    x0, y0 = (int(v) for v in np.floor(quad.min(axis=0)) - 1)
    x1, y1 = (int(v) for v in np.ceil(quad.max(axis=0)) + 2)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return
    m = cv2.getPerspectiveTransform((quad - (x0, y0)).astype(np.float32), src.astype(np.float32))
    patch = cv2.warpPerspective(
        ref, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    )
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(inside, np.round(quad - (x0, y0)).astype(np.int32), 1)
    sel = inside.astype(bool)
    dst[y0:y1, x0:x1][sel] = patch[sel]


def _paste(dst: F32, patch: F32, x0: int, y0: int) -> None:
    h, w = patch.shape[:2]
    H, W = dst.shape[:2]
    sx0, sy0 = max(0, -x0), max(0, -y0)
    dx0, dy0 = max(0, x0), max(0, y0)
    dx1, dy1 = min(W, x0 + w), min(H, y0 + h)
    if dx1 > dx0 and dy1 > dy0:
        dst[dy0:dy1, dx0:dx1] = patch[sy0 : sy0 + dy1 - dy0, sx0 : sx0 + dx1 - dx0]


def _hand_from_outside(lab: F32, ref: F32, profile: Profile) -> bool:
    """A big change of the table around the grid that reaches the board image's border.

    Hands and arms come from outside the grid. The table itself never changes (fixed
    camera), so it is compared with the calibration photo pixel by pixel, whatever its
    pattern; pawns standing beside the grid (Austro) are small and away from the border.
    """
    g = profile.geometry
    # Half resolution: an arm is big.
    lab, ref = lab[::2, ::2], ref[::2, ::2]
    h, w = lab.shape[:2]
    inner = np.zeros((h, w), bool)
    o = round(g.margin * g.pitch / 2)
    inner[o : h - o, o : w - o] = True
    res = residual(lab, ref)
    ring = res[~inner]
    med = float(np.median(ring[::3]))
    mad = float(np.median(np.abs(ring[::3] - med))) + 1e-3
    m: U8 = ((res > max(med + 8.0 * mad, 0.5 * profile.cross_cost)) & ~inner).astype(np.uint8)
    m = cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(m)
    if n <= 1:
        return False
    edge = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    cell_area = (g.pitch / 2) ** 2
    return any(k != 0 and stats[k, cv2.CC_STAT_AREA] > 0.4 * cell_area for k in edge)
