"""Calibration: learn the grid's place, the 25 cards and the 5 pawns from two photos.

Protocol (``/work/shared/spec/reading.md``): ``solved`` shows islands 1..25 in reading order,
``pawns`` the same layout with Borea..Austro on islands 1..5. Anything that would make later
readings unreliable is refused here with the reason, because a bad profile would otherwise
turn into silent misreads during a game.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from zefiria.engine.grid import ALL_CELLS, SIZE
from zefiria.engine.spirits import CALIBRATION_ORDER

from .board import BoardGeometry, choose_shrink
from .card_identity import crop_cards, pairing_costs
from .grid_locator import GridNotFoundError, TableModel, locate_grid, to_lab
from .pawns import objects_mask, pawn_blobs, residual
from .photo_io import PhotoError, check_image
from .profile import Profile
from .reading import Status

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

PITCH = 48  # board px per cell: a card is ~40 px wide, plenty for 24x32 features
MARGIN = 0.7  # cells of table kept around the grid (room for Austro outside)
MAX_UNSURE = 2  # islands the profile may fail to tell apart in its own pawns photo
MIN_CARD_CONTRAST = 0.2  # two islands closer than this (x typical difference) are refused


class CalibrationError(ValueError):
    """The calibration photos cannot make a reliable profile; the message says why."""


def calibrate(solved_bgr: U8, pawns_bgr: U8) -> Profile:
    """A profile from the two calibration photos, or :class:`CalibrationError`."""
    try:
        solved = check_image(solved_bgr, "solved photo")
        pawns = check_image(pawns_bgr, "pawns photo")
    except PhotoError as exc:
        raise CalibrationError(str(exc)) from None
    if solved.shape != pawns.shape:
        raise CalibrationError(
            f"the photos differ in size ({solved.shape[1]}x{solved.shape[0]} and "
            f"{pawns.shape[1]}x{pawns.shape[0]}): take both with the same camera"
        )
    try:
        fit = locate_grid(solved)
    except GridNotFoundError as exc:
        raise CalibrationError(f"solved photo: grid not found: {exc}") from None
    h, w = solved.shape[:2]
    geometry = BoardGeometry(
        lattice_to_image=fit.lattice_to_image,
        image_size=(w, h),
        pitch=PITCH,
        margin=MARGIN,
        shrink=choose_shrink(fit.lattice_to_image, PITCH),
    )
    board = geometry.warp(solved)
    lab = to_lab(board)
    rects = fit.card_rects
    offset = MARGIN * PITCH
    centres = (rects[:, :2] + rects[:, 2:]) / 2 * PITCH + offset
    sizes = (rects[:, 2:] - rects[:, :2]) * PITCH
    cw, ch = (int(v) for v in np.round(np.median(sizes, axis=0)))
    # Identity features use the card's inner part: its outline may catch a sliver of table.
    inner = (max(8, round(cw * 0.94)), max(8, round(ch * 0.94)))
    templates = crop_cards(lab, centres, inner)

    table_px = np.ones(board.shape[:2], bool)
    for cx, cy in centres:
        x0, y0 = round(cx - cw / 2) - 3, round(cy - ch / 2) - 3
        table_px[max(0, y0) : y0 + ch + 6, max(0, x0) : x0 + cw + 6] = False
    table = TableModel(lab[table_px])

    cross = pairing_costs(templates, templates)[0].astype(np.float64)
    np.fill_diagonal(cross, np.inf)
    cross_cost = float(np.median(cross[np.isfinite(cross)]))
    i, j = np.unravel_index(int(np.argmin(cross)), cross.shape)
    if cross[i, j] < MIN_CARD_CONTRAST * cross_cost:
        raise CalibrationError(
            f"solved photo: islands {i + 1} and {j + 1} look alike; cards not distinct "
            "(is the layout in order, with no card twice?)"
        )

    board2 = geometry.warp(pawns)
    lab2 = to_lab(board2)
    feats2 = crop_cards(lab2, centres, inner)
    own = pairing_costs(feats2, templates)[0]
    diag = np.diag(own)[SIZE:]  # rows 1-4: no pawns there
    own_cost = float(np.median(diag))
    if float(np.max(diag)) > 0.45 * cross_cost:
        raise CalibrationError(
            "pawns photo does not show the solved layout from the same camera position"
        )
    res = residual(lab2, lab)
    mask = objects_mask(res, 0.5 * cross_cost)
    colours, icovs, offsets, areas = _learn_pawns(lab2, lab, res, mask, centres, cw * ch)

    profile = Profile(
        geometry=geometry,
        card_size=inner,
        card_centres=centres,
        templates=templates,
        board=board,
        table_mean=table.mean,
        table_icov=table.icov,
        table_threshold=table.threshold,
        pawn_colours=colours,
        pawn_icov=icovs,
        pawn_offsets=offsets,
        pawn_areas=areas,
        own_cost=own_cost,
        cross_cost=cross_cost,
    )
    _self_check(pawns, profile)
    return profile


def _learn_pawns(
    lab: F32, ref: F32, res: F32, mask: U8, centres: F64, card_area: float
) -> tuple[F32, F32, F64, F64]:
    """Colour, blob offset and blob area of each pawn standing on islands 1..5."""
    import cv2

    colours = np.zeros((5, 3), np.float32)
    icovs = np.zeros((5, 3, 3), np.float32)
    offsets = np.zeros((5, 2))
    areas = np.zeros(5)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask)
    for i, spirit in enumerate(CALIBRATION_ORDER):
        cx, cy = centres[i]
        # The blob that covers most of the card's centre region: a standing pawn seen at an
        # angle may reach beyond its card, but its foot is on it.
        x0, x1 = round(cx - PITCH * 0.45), round(cx + PITCH * 0.45)
        y0, y1 = round(cy - PITCH * 0.45), round(cy + PITCH * 0.45)
        ids, counts = np.unique(labels[max(0, y0) : y1, max(0, x0) : x1], return_counts=True)
        best = [(int(c), int(k)) for k, c in zip(ids, counts, strict=True) if k != 0]
        if not best:
            raise CalibrationError(f"pawns photo: {spirit.title} missing on island {i + 1}")
        _, k = max(best)
        area = float(stats[k, cv2.CC_STAT_AREA])
        if area < 0.03 * card_area:
            raise CalibrationError(f"pawns photo: {spirit.title} missing on island {i + 1}")
        ys, xs = np.nonzero(labels == k)
        # The blob's fringe and the pawn's shadow are card pixels, a little changed: learn the
        # colour from the half of the blob that differs most from the card beneath.
        strong = res[ys, xs] >= np.median(res[ys, xs])
        pix = lab[ys[strong], xs[strong]].astype(np.float64)
        colours[i] = pix.mean(axis=0)
        # A floor on the spread: a flat-coloured pawn must still match under other light.
        icovs[i] = np.linalg.inv(np.cov(pix, rowvar=False) + np.eye(3) * 9.0)
    # Size and place of each pawn as a reading will see it: the same blob finder, so the
    # reading's thresholds are relative to like-for-like measurements.
    blobs = pawn_blobs(lab, ref, mask, colours, icovs)
    for i, spirit in enumerate(CALIBRATION_ORDER):
        blob = blobs[i]
        if blob is None or blob[0] < 0.02 * card_area:
            raise CalibrationError(
                f"pawns photo: {spirit.title} on island {i + 1} does not stand out from the card"
            )
        areas[i] = blob[0]
        offsets[i] = (blob[1] - centres[i][0], blob[2] - centres[i][1])
    d = np.sqrt(((colours[:, None] - colours[None]) ** 2).sum(-1))
    np.fill_diagonal(d, np.inf)
    a, b = np.unravel_index(int(np.argmin(d)), d.shape)
    if d[a, b] < 12.0:
        raise CalibrationError(
            f"pawns photo: {CALIBRATION_ORDER[a].title} and {CALIBRATION_ORDER[b].title} "
            "look alike (check the pawn order: Borea on 1 .. Austro on 5)"
        )
    return colours, icovs, offsets, areas


def _self_check(pawns: U8, profile: Profile) -> None:
    """The new profile must read its own pawns photo exactly, or it is not trustworthy."""
    from .reader import read_table

    reading = read_table(pawns, profile)
    if reading.status is not Status.OK:
        raise CalibrationError(f"pawns photo cannot be read back: {reading.reason}")
    want = tuple(tuple(r * SIZE + c + 1 for c in range(SIZE)) for r in range(SIZE))
    wrong = [c for c in ALL_CELLS if reading.grid[c[0]][c[1]] not in (None, want[c[0]][c[1]])]
    unsure = [c for c in ALL_CELLS if reading.grid[c[0]][c[1]] is None]
    if wrong or len(unsure) > MAX_UNSURE:
        raise CalibrationError(
            f"pawns photo read back wrong at {wrong} or unsure at {unsure}: "
            "cards not distinct enough"
        )
    for i, spirit in enumerate(CALIBRATION_ORDER):
        p = reading.pawns.get(spirit)
        if p is None or p.outside or p.cell != (0, i):
            raise CalibrationError(f"pawns photo: {spirit.title} not found back on island {i + 1}")
