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
from .card_identity import (
    FineDeck,
    align,
    coarse_costs,
    crop_cards,
    crop_grey,
    match_lighting,
    normalise,
    pair_costs,
    refine_fine,
    soften,
)
from .grid_locator import to_lab
from .pawns import find_gems, find_pawns, objects_mask, residual
from .photo_io import PhotoError, check_image
from .profile import Profile
from .reading import Reading, Status

# OpenCV's type stubs return loosely typed arrays: the aliases name the intent only.
F32 = NDArray[Any]
F64 = NDArray[Any]
U8 = NDArray[Any]

# Confidence rules, in units of the deck's typical difference between two islands.
MIN_MARGIN = 0.4  # a cheaper exchange than this (x typical difference) makes a cell uncertain
MAX_OWN = 0.7  # a card this far from its own template is covered or damaged
HAND_CELLS = 7  # this many hidden cards means something big is over them (else: doubts)
ALIGN_CANDIDATES = 4  # islands tried per cell to find where its card lies
REFINE = 4  # board px a card may have moved from its calibrated place (~5 mm)
CANDIDATES = 4  # islands per cell (and cells per island) given the fine comparison
FINE_WEIGHT = 1.0  # fine lightness cost added to the colour cost
RIVALS = 2  # alternatives each cell's island must beat in a pixel vote
MIN_VOTE = 1.0  # every telling pixel must side with the chosen island (tuned on DEV)
MIN_TELLING = 12  # fewer telling pixels than this and the vote cannot decide
MAX_CERTAIN_OWN = 0.25  # a card further than this from its template is left in doubt
# The last reading's per-cell evidence (swap margin, row margin, vote, own cost, choice), for
# tuning and diagnosis; one entry only, so a long-running device does not accumulate them.
DEBUG: deque[tuple[F64, F64, F64, F64, NDArray[np.intp]]] = deque(maxlen=1)


class _Cache:
    """Per-profile arrays derived once (the calibration board in Lab)."""

    def __init__(self) -> None:
        self.key: U8 | None = None  # the board array itself: an id() could be reused
        self.lab: F32 | None = None
        self.fine: F32 | None = None
        self.deck: FineDeck | None = None
        self.half: list[F32] = []


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
    _cache.fine = np.stack([soften(t) for t in profile.fine_templates.astype(np.float32)])
    _cache.deck = FineDeck(_cache.fine)
    w, h = profile.fine_templates.shape[2] // 2, profile.fine_templates.shape[1] // 2
    _cache.half = [cv2.resize(t, (w, h), interpolation=cv2.INTER_AREA) for t in _cache.fine]
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
    hi, board = g.warp_pair(image)
    lab = to_lab(board)
    grey = cv2.cvtColor(hi, cv2.COLOR_BGR2GRAY).astype(np.float32)
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
    assert _cache.fine is not None and _cache.deck is not None
    deck = _cache.deck
    grey = soften(grey)
    fsize = (_cache.fine.shape[2], _cache.fine.shape[1])
    # The camera is fixed and players put a swapped card back into the same slot: each card
    # is near its calibrated place. It is aligned with the island that fits it best at first
    # sight (a close relative of the right one shares its outline, band and frame), and all
    # candidate islands are then compared on the same pixels.
    first = coarse_costs(
        crop_cards(lab, profile.card_centres, profile.card_size), profile.templates
    )
    short = np.argsort(first, axis=1)[:, :ALIGN_CANDIDATES]
    # Alignment on the printed detail (lighting removed) at half the fine resolution, then
    # to the fine pixel with the winning island.
    half = cv2.resize(grey, (grey.shape[1] // 2, grey.shape[0] // 2), interpolation=cv2.INTER_AREA)
    spots = np.zeros((len(short), 2))
    for i, ks in enumerate(short):
        x, y = profile.card_centres[i]
        (x, y), n = align(half, (float(x), float(y)), [_cache.half[k] for k in ks], REFINE)
        k = int(ks[n])
        spots[i] = refine_fine(grey, _cache.fine[k], (2 * x + 0.5, 2 * y + 0.5), 2)
    centres = (spots - 0.5) / 2
    feats = crop_cards(lab, centres, profile.card_size)
    colour = coarse_costs(feats, profile.templates)
    seen = colour.copy()  # region-mean colour: the scale calibration measured
    crops = [normalise(crop_grey(grey, (float(x), float(y)), fsize)) for x, y in spots]
    pairs = _candidates(colour)
    detail = pair_costs(feats[[i for i, _ in pairs]], profile.templates[[k for _, k in pairs]])
    # Colour at the board's resolution plus lightness detail (numbers, icons) at twice it.
    # Pairings nobody looked at closely stay out of reach: they were far off at first sight.
    cost = colour + 2 * profile.cross_cost
    by_cell: dict[int, list[int]] = {}
    for i, k in pairs:
        by_cell.setdefault(i, []).append(k)
    fine = {}
    for i, ks in by_cell.items():
        fine.update({(i, k): float(c) for k, c in zip(ks, deck.costs(crops[i], ks), strict=True)})
    for n, (i, k) in enumerate(pairs):
        colour[i, k] = detail[n]
        cost[i, k] = detail[n] + FINE_WEIGHT * fine[(i, k)]
    choice = assignment.solve(cost)
    margins = assignment.swap_margins(cost, choice)
    own = seen[np.arange(len(choice)), choice]
    scale = max(profile.cross_cost, 1e-3)
    covered = own > MAX_OWN * scale
    votes = _votes(cost, choice, crops, deck, scale)
    rows = assignment.row_margins(cost, choice)
    DEBUG.append((margins / scale, rows / scale, votes, own / scale, choice + 1))
    # Certain only when three independent signs agree: the pixels that tell the island from
    # its rivals side with it, no cheap exchange with another cell exists, and the card
    # looks like its template overall (a partly hidden or glared card is not trusted).
    decided = [
        bool(votes[i] >= MIN_VOTE)
        and bool(margins[i] >= MIN_MARGIN * scale)
        and bool(own[i] <= MAX_CERTAIN_OWN * scale)
        for i in range(len(choice))
    ]
    lap("identify")
    if float(np.median(own)) > MAX_OWN * scale:
        return refuse("cards do not look as calibrated (camera moved or light changed?)")
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


def _votes(
    cost: F32,
    choice: NDArray[np.intp],
    crops: list[F32],
    deck: FineDeck,
    scale: float,
) -> F64:
    """For each cell, the weakest pixel vote of its island against its closest rivals.

    Rivals are the next-cheapest islands for the cell. Only pixels where two islands differ
    can tell them apart (:func:`vote`); where they differ in too few pixels the vote counts
    as undecided (0.5) and the colour margin of the assignment has to carry the decision.
    """
    out = np.ones(len(choice))
    for i in range(len(choice)):
        k = int(choice[i])
        # The card lies where it lies, whichever island it is: all rivals are judged on the
        # chosen island's pixels (a rival slid elsewhere could fit periodic art).
        here = crops[i]
        for r in [int(j) for j in np.argsort(cost[i]) if int(j) != k][:RIVALS]:
            share, telling = deck.vote(here, k, r)
            if telling < MIN_TELLING:  # alike in grey: only their colours can tell them apart
                share = 1.0 if cost[i, r] - cost[i, k] >= MIN_MARGIN * scale else 0.5
            out[i] = min(out[i], share)
    return out


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
