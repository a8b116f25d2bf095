"""Pawns: objects on the table that the calibrated board does not explain, of a pawn's colour.

Each pawn's colour, size and place on its card are learned from the calibration's ``pawns``
photo (:func:`learn_pawns`); a reading finds them in the residual (:mod:`.residual`: where
the board differs from the cards and table expected there) as blobs of a learned colour,
shaped and sized like a standing pawn, that nothing rivals (:func:`find_pawns`). The red
gems are found first (:mod:`.gems`) and taken out of what the pawns are looked for in.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine.grid import SIZE, Cell
from zefiria.engine.spirits import CALIBRATION_ORDER, Spirit
from zefiria.engine.state import Position

from .board import BoardGeometry
from .pawn_shape import compact, sparse, spread, thin, too_slim
from .pixels import colour_distance, components, median

# OpenCV's type stubs return loosely typed arrays: the aliases name the intent only.
F32 = NDArray[Any]
F64 = NDArray[Any]
U8 = NDArray[Any]

PAWN_SIGMAS = 3.0  # Mahalanobis distance within which a pixel has a pawn's colour
# Why each pawn of the last reading was left out (for benchmarks/pawn_diag.py); rewritten by
# every find_pawns call, so it never grows.
WHY_MISSED: dict[Spirit, str] = {}


def cell_of(geometry: BoardGeometry, x: float, y: float) -> Position:
    """The card under board pixel (x, y), or the edge cell beside it when off the grid."""
    col, row = geometry.board_to_lattice(x, y)
    r, c = int(np.floor(row)), int(np.floor(col))
    if 0 <= r < SIZE and 0 <= c < SIZE:
        return Position((r, c))
    return Position((min(max(r, 0), SIZE - 1), min(max(c, 0), SIZE - 1)), outside=True)


def pawn_distances(pix: F32, colours: F32, icovs: F32) -> F32:
    """(pixels, pawns) Mahalanobis distance of each pixel's colour from each pawn's."""
    if len(pix) < MANY_PIXELS:
        diff = pix[:, None, :] - colours[None, :, :]
        d: F32 = np.sqrt(np.maximum(np.einsum("npi,pij,npj->np", diff, icovs, diff), 0))
        return d
    # Many pixels: the same sum, term by term in einsum's order ((d_i c_ij) d_j over i,
    # then j, from zero), on (pawns, pixels) planes: the same values, ~3x faster.
    diff = pix.T[:, None, :] - colours.T[:, :, None]  # (channel, pawn, pixel)
    q = np.zeros(diff.shape[1:], np.result_type(diff, icovs))
    for i in range(3):
        for j in range(3):
            q += (diff[i] * icovs[:, i, j, None]) * diff[j]
    out: F32 = np.sqrt(np.maximum(q, 0)).T
    return out


MANY_PIXELS = 256  # (below, einsum's one call costs less than nine vector steps)


def learn_pawns(
    lab: F32,
    ref: F32,
    res: F32,
    mask: U8,
    centres: F64,
    card_area: float,
    pitch: int,
    glare_moved_off: NDArray[np.bool_] | None = None,
) -> tuple[F32, F32, F64, F64]:
    """Colour, blob offset and blob area of each pawn standing on islands 1..5.

    ``lab`` is the pawns photo's board, ``ref`` the solved photo's, ``res`` their residual
    and ``mask`` its significant part; ``centres`` are the cards' centres (board px);
    ``glare_moved_off``, if given, marks where the solved photo is the pawns photo lit,
    for pawns refused to be learned again without it. Raises the calibration's error when
    a pawn cannot be learned.
    """
    from .calibrate import CalibrationError  # (calibrate imports this module)

    if glare_moved_off is None:
        return _learn_pawns(lab, ref, res, mask, centres, card_area, pitch, None)
    args = (centres, card_area, pitch, glare_moved_off)
    try:
        return _learn_pawns(lab, ref, res, mask, *args)
    except CalibrationError as refused:
        # Glare in the solved photo that is gone from the pawns photo leaves the card there
        # deeper in colour, and beside a pawn it is part of the change he is learned from:
        # the white pawn's colour came out half the card's (fresh deck 3108, 3000-3999 seed
        # 41: Borea at Lab (71, -15, -2) on a pale green card, then not told from it). A
        # refusal is tried again with every pawn learned without those pixels. Only then:
        # a dark pawn on a grey card is that card unlit too (why calibration_glare leaves
        # row 0's glare), and would be lost; what is refused again keeps the first reason.
        kept = ~glare_moved_off
        try:
            return _learn_pawns(lab, ref, np.where(kept, res, 0), mask & kept, *args)
        except CalibrationError:
            raise refused from None


def _learn_pawns(
    lab: F32,
    ref: F32,
    res: F32,
    mask: U8,
    centres: F64,
    card_area: float,
    pitch: int,
    glare_moved_off: NDArray[np.bool_] | None,
) -> tuple[F32, F32, F64, F64]:
    """:func:`learn_pawns` from the change ``res`` and its significant part ``mask``."""
    from .calibrate import CalibrationError  # (calibrate imports this module)

    colours = np.zeros((5, 3), np.float32)
    icovs = np.zeros((5, 3, 3), np.float32)
    offsets = np.zeros((5, 2))
    areas = np.zeros(5)
    strips = np.zeros(5, bool)
    anchors = np.zeros((5, 2))  # where each pawn changed his card most (board px)
    for i, spirit in enumerate(CALIBRATION_ORDER):
        cx, cy = centres[i]
        # The pawn is what changed most on its card (a standing pawn seen at an angle may
        # lean beyond the card's top, so the window reaches up a little).
        x0, x1 = max(0, round(cx - pitch * 0.45)), round(cx + pitch * 0.45)
        y0, y1 = max(0, round(cy - pitch * 0.75)), round(cy + pitch * 0.45)
        win = res[y0:y1, x0:x1]
        if win.size == 0 or not mask[y0:y1, x0:x1].any():
            raise CalibrationError(f"pawns photo: {spirit.title} missing on island {i + 1}")
        sel = (win > 0.5 * float(win.max())).astype(np.uint8)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(sel)
        # Glare that came onto the card between the photos changes it as much as a pawn:
        # the pawn is the biggest part that is not all glare (DEV seed 5 sessions of #228,
        # #270, #396: Borea, Etesia and Jugo learned from a lamp's reflection beside them).
        glare = glare_added(lab[y0:y1, x0:x1], ref[y0:y1, x0:x1])
        k = _least_glare(labels, stats, glare, 0.02 * card_area)
        if float(stats[k, cv2.CC_STAT_AREA]) < 0.02 * card_area:
            raise CalibrationError(f"pawns photo: {spirit.title} missing on island {i + 1}")
        strips[i] = _strip(stats[k])
        ys, xs = np.nonzero(labels == k)
        glared = glare[ys, xs] if spirit is not Spirit.BOREA else np.zeros(len(ys), bool)
        if glared.mean() > GLARE_OVER:
            # The reflection lies over the pawn itself: its colour cannot be learned (DEV
            # seed 5 session of #396: Jugo learned near white placed Jugo on a wrong card).
            raise CalibrationError(
                f"pawns photo: glare over {spirit.title} on island {i + 1} (a lamp's "
                "reflection?); shade the cards or move the lamp, and retake both photos"
            )
        ys, xs = ys + y0, xs + x0
        # The pawn's shadow is the card darkened (its hue kept), and glare over it the card
        # with white added: leave them out, unless that leaves little (a grey pawn on a grey
        # card looks like a shadow of it; the white pawn is always like white added).
        seen, card = lab[ys, xs], ref[ys, xs]
        scale = seen[:, 0] / np.maximum(card[:, 0], 1.0)
        hue_kept = np.abs(seen[:, 1:] - card[:, 1:] * scale[:, None]).sum(axis=-1) < SHADOW_HUE
        light_only = (hue_kept & (seen[:, 0] < card[:, 0] - SHADOW_DROP)) | glared
        if (~light_only).sum() >= 0.3 * len(ys):
            ys, xs = ys[~light_only], xs[~light_only]
        # The blob's fringe is card pixels, a little changed: learn the colour from the part
        # of the blob that differs most from the card beneath (see LEARN_FROM).
        strong = res[ys, xs] >= np.quantile(res[ys, xs], LEARN_FROM)
        pix = lab[ys[strong], xs[strong]].astype(np.float64)
        colours[i] = pix.mean(axis=0)
        anchors[i] = (float(xs[strong].mean()), float(ys[strong].mean()))
        under = ref[ys[strong], xs[strong]].astype(np.float64).mean(axis=0)
        if float(np.linalg.norm(colours[i] - under)) < UNLIKE_CARD:
            # What changed looks like the card itself: glare or a shadow that moved between
            # the photos, not the pawn; learning it would place this pawn on cards like it.
            raise CalibrationError(_not_standing_out(spirit, i))
        # A floor on the spread: a flat-coloured pawn must still match under other light.
        icovs[i] = np.linalg.inv(np.cov(pix, rowvar=False) + np.eye(3) * 9.0)
    # Size and place of each pawn as a reading will see it: the same blob finder, so the
    # reading's thresholds are relative to like-for-like measurements. Only the blob on the
    # pawn's own card counts: the same colour may appear elsewhere on the board.
    found = _blobs(lab, ref, mask, colours, icovs, strict=False)
    for i, spirit in enumerate(CALIBRATION_ORDER):
        blob = _own_blob(found[i], centres[i], card_area, pitch, anchors[i])
        if blob is None:
            raise CalibrationError(_not_standing_out(spirit, i))
        areas[i] = blob[0]
        offsets[i] = (blob[1] - centres[i][0], blob[2] - centres[i][1])
    typical = float(median(areas))
    # A pawn far bigger than the others may have spread over glare gone (see learn_pawns):
    # on a card of his hue, the card unlit passes for him (fresh decks 3061, 3064, 3077 and
    # 3103, seed 41: Borea, Jugo and Austro 3.4-8.4 times the others, refused). He alone
    # is measured again without it, his colour as learned: with every pawn learned again
    # without it, 3064's Borea was missed in one photo of four, and 3077 refused.
    big = areas > MAX_AREA_SPREAD * typical
    if big.any() and glare_moved_off is not None:
        again = _blobs(lab, ref, mask & ~glare_moved_off, colours, icovs, strict=False)
        for i in np.flatnonzero(big).tolist():
            blob = _own_blob(again[i], centres[i], card_area, pitch, anchors[i])
            if blob is not None:
                areas[i] = blob[0]
                offsets[i] = (blob[1] - centres[i][0], blob[2] - centres[i][1])
        typical = float(median(areas))
    for i, spirit in enumerate(CALIBRATION_ORDER):
        if areas[i] > MAX_AREA_SPREAD * typical or (
            strips[i] and areas[i] > STRIP_SPREAD * typical
        ):
            # The pawns are about the same size: a "pawn" several times the others' is
            # glare or a shadow that moved between the photos, and a big one learned from
            # a strip of change is a card nudged between them (see STRIP_ASPECT).
            raise CalibrationError(
                f"pawns photo: {spirit.title} on island {i + 1} looks far bigger than the "
                "other pawns (glare or shadow there? retake both photos)"
            )
    d = np.sqrt(((colours[:, None] - colours[None]) ** 2).sum(-1))
    np.fill_diagonal(d, np.inf)
    a, b = np.unravel_index(int(np.argmin(d)), d.shape)
    if d[a, b] < 12.0:
        raise CalibrationError(
            f"pawns photo: {CALIBRATION_ORDER[a].title} and {CALIBRATION_ORDER[b].title} "
            "look alike (check the pawn order: Borea on 1 .. Austro on 5)"
        )
    if _greys_too_alike(colours):
        white, dark = (CALIBRATION_ORDER.index(s) for s in GREYS)
        raise CalibrationError(
            f"pawns photo: {GREYS[0].title} on island {white + 1} is hardly lighter than "
            f"{GREYS[1].title} on island {dark + 1} (a lamp's reflection on {GREYS[1].title}, "
            f"or a shadow over {GREYS[0].title}?); shade the cards or move the lamp, and "
            "retake both photos"
        )
    return colours, icovs, offsets, areas


def _greys_too_alike(colours: F32) -> bool:
    """Whether the white pawn's learned colour reflects less than ``GREYS_APART`` times the
    light the dark pawn's does: one of them was learned from light that is not his own.

    The two differ in lightness alone, and every reading tells them apart by it (see
    GREYS). The ratio is taken on luminance, ((L + 16) / 116) cubed, which a photo's
    exposure scales alike for both: a dark photo brings their L closer, not their ratio."""
    white, dark = (float(colours[CALIBRATION_ORDER.index(s)][0]) for s in GREYS)
    return ((white + 16.0) / max(dark + 16.0, 1.0)) ** 3 < GREYS_APART


def white_learned_in_shade(colours: F32) -> bool:
    """Whether the white pawn was learned darker than a coloured pawn: from his shaded side.

    White paint reflects more light than any coloured paint (the orange of Jugo about half
    as much), so under the calibration's light, which differs little along the row of
    islands 1..5, the white pawn is learned the lightest pawn. Learned darker by more than
    ``SHADE_SLACK`` allows, on (L + 16), what was learned is his shade: his lit side
    matched a pale card and left the change (fresh deck 8033, 8000-8099 seed 19: Borea
    learned at L 25 beside Jugo's 40, on a grey card as light as his top; photo #200 then
    named Austro's lit top Borea's colour, 3.3 Lab from it, and placed Borea there, silent).
    A reading then reports the white pawn, but his cell in doubt."""
    white = float(colours[CALIBRATION_ORDER.index(GREYS[0])][0])
    coloured = [float(colours[i][0]) for i, s in enumerate(CALIBRATION_ORDER) if s not in GREYS]
    return white + 16.0 < SHADE_SLACK * (max(coloured) + 16.0)


def _not_standing_out(spirit: Spirit, i: int) -> str:
    """Why a pawn could not be learned from its card, and what to do: glare or a shadow can be
    moved, but the protocol fixes the card (island 1..5), so where the card's own colour is
    nearly the pawn's (Jugo on a yellow island 2: fresh decks 8000 and 8039) a retake alone
    never helps; standing the pawn on another part of the card's art may."""
    return (
        f"pawns photo: {spirit.title} on island {i + 1} does not stand out from the card: "
        "glare or a shadow there (shade the cards or move the lamp), or a card nearly the "
        "pawn's colour (stand it on the part of the card least like it); retake both photos"
    )


def _own_blob(
    blobs: list[tuple[float, float, float]],
    centre: F64,
    card_area: float,
    pitch: int,
    anchor: F64 | None = None,
) -> tuple[float, float, float] | None:
    """The biggest of a pawn's colour ``blobs`` (area, x, y) on its own card, if any: the
    same colour may appear elsewhere on the board.

    With ``anchor`` (board px: where the pawn changed his card most), the biggest within
    ``ANCHOR_REACH`` pitches of it, if any: a table of the pawn's colour beside his card
    makes blobs of his colour there too, bigger than the pawn (fresh deck 8013, 8000-8999
    seed 19: Skyron on a purple table learned 0.74 of a pitch off himself, from the table
    by the card's corner; then placed a cell off in three photos).
    """
    cx, cy = centre
    near = [
        b
        for b in blobs
        if b[0] >= 0.02 * card_area
        and abs(b[1] - cx) < 0.5 * pitch
        and -0.8 * pitch < b[2] - cy < 0.5 * pitch
    ]
    if anchor is not None:
        ax, ay = anchor
        on = [b for b in near if np.hypot(b[1] - ax, b[2] - ay) < ANCHOR_REACH * pitch]
        near = on or near
    return max(near) if near else None


ANCHOR_REACH = 0.25  # pitches: a pawn's colour blob lies this near where he changed his card


def glare_added(seen: F32, card: F32) -> NDArray[np.bool_]:
    """Per pixel (Lab, last axis), whether ``seen`` is the ``card`` with white light added,
    as a lamp's reflection adds it: each of its B, G, R raised by one amount (at least
    ``GLARE_RISE`` of 255), or up to white where that is nearer (within ``GLARE_EVEN`` of
    the amount)."""
    shape = seen.shape[:-1]
    s = _bgr255(seen.reshape(-1, 3))
    c = _bgr255(card.reshape(-1, 3))
    d = s - c
    rise = d.max(axis=1)
    off = np.abs(d - np.minimum(rise[:, None], 255.0 - c)).max(axis=1)
    out: NDArray[np.bool_] = ((rise > GLARE_RISE) & (off < GLARE_EVEN * rise)).reshape(shape)
    return out


def _bgr255(lab: F32) -> F32:
    bgr = cv2.cvtColor(np.ascontiguousarray(lab, np.float32)[:, None, :], cv2.COLOR_Lab2BGR)
    out: F32 = bgr[:, 0, :] * 255.0
    return out


def _least_glare(
    labels: NDArray[Any], stats: NDArray[Any], glare: NDArray[np.bool_], least: float
) -> int:
    """The biggest component (label) of at least ``least`` px of which less than
    ``GLARE_PART`` is glare, or the biggest of all when there is none (the white pawn on a
    grey card is all like white added)."""
    order = np.argsort(-stats[1:, cv2.CC_STAT_AREA]) + 1
    share = np.bincount(labels[glare], minlength=len(stats)) / np.maximum(
        stats[:, cv2.CC_STAT_AREA], 1
    )
    for k in order:
        if stats[k, cv2.CC_STAT_AREA] >= least and share[k] < GLARE_PART:
            return int(k)
    return int(order[0])


def _strip(stat: NDArray[Any]) -> bool:
    """Whether a component (its stats row) is a strip: ``STRIP_ASPECT`` times as long as
    it is wide or more."""
    w, h = int(stat[cv2.CC_STAT_WIDTH]), int(stat[cv2.CC_STAT_HEIGHT])
    return max(w, h) >= STRIP_ASPECT * max(min(w, h), 1)


# A pawn's part of the change is at most about three times as wide as high, seen flat
# from a low camera (DEV seed 41 and fresh 3000-3999 seed 41, 240 sessions, 1,840 parts
# learned: 3.17 at most, Borea 19 x 6 px; taller than wide, 1.73). A card nudged between
# the photos changes in a strip along its edge: fresh deck 5017 (seed 13, session of #102)
# had Jugo, on a yellow card, learned from an 11 x 40 px strip beside him (3.64), 2.56
# times the other pawns' size; accepted, he was read a cell off and seen where no pawn
# stood. A pawn over STRIP_SPREAD times the others' learned from a strip is refused. Only
# a big one: as a test of every pawn it refused an EVAL session calibrated before (Borea).
STRIP_ASPECT = 3.4
STRIP_SPREAD = 2.2  # x the median (the bound on every pawn before MAX_AREA_SPREAD's 3.0)
GLARE_RISE = 15.0  # of 255: a smaller rise is noise or the light drifting between photos
GLARE_EVEN = 0.3  # x the rise: how unevenly the channels may rise and still be white added
GLARE_PART = 0.8  # share of a part that is glare for it to be passed over as no pawn
GLARE_OVER = 0.4  # share of a coloured pawn's part that is glare: the glare is over it (see docs)
SHADOW_HUE = 6.0  # Lab a*b* off the card's own, scaled by the darkening, still a shadow
SHADOW_DROP = 8.0  # L: a shadow is at least this much darker than the card
# x the pawns' median blob area. Pawns differ in how much of them shows their colour (a
# round orange top is all Jugo's, a grey pawn's shaded side is no one's): DEV seed 41 and
# fresh 3000-3999 seed 41 (240 sessions) had pawns up to 2.52 times the median, then none
# from 2.52 to 3.42; the one beyond that I looked at was glare that moved (fresh deck
# 3109, #436). (DEV seed 5's #174, Austro 5.6 times: his blob joined to dark art.)
MAX_AREA_SPREAD = 3.0
UNLIKE_CARD = 12.0  # Lab: a learned pawn colour at least this far from the card beneath
# Luminance ratio of the white pawn's learned colour to the dark one's, at least. Fresh
# decks 3000-3999 seed 11, 5000-5999 seed 31, 6000-6999 seed 43 and 8000-8999 seed 19 (128
# sessions calibrated): 1.8 (5001, a lamp's reflection over Austro: learned at L 38 beside
# Borea's 50; its six photos read him as Borea once and missed him silently three times),
# then 2.5, 2.7, 2.9, 3.6 and up; 11 at the median (docs/vision.md).
GREYS_APART = 2.0
# The (L + 16) share of the lightest coloured pawn's below which the white pawn was learned
# from his shade (white_learned_in_shade): the light field's own slack (pawn_objects.SLACK).
SHADE_SLACK = 0.92
# Quantile of the blob's change from the card above which its pixels teach the colour: only
# the fringe is left out. On a light card a pawn's shaded side changes most; learning from
# the most-changed half (0.5) learned the shade alone, and readings then missed the lit
# pawn (DEV seed 22: 0.5 -> 0.25 took pawns right from 68.5% to 72.5%).
LEARN_FROM = 0.25


def pawn_blobs(
    lab: F32, expected: F32, mask: U8, colours: F32, icovs: F32
) -> list[tuple[float, float, float] | None]:
    """For each pawn colour, its best blob: (area, x, y) in board px, or None.

    The calibration measures each pawn with this finder (one blob per pawn there); a
    reading uses :func:`pawn_candidates`, which keeps every blob that looks like a pawn.
    """
    out: list[tuple[float, float, float] | None] = [None] * len(colours)
    for i, blobs in enumerate(_blobs(lab, expected, mask, colours, icovs, strict=False)):
        if blobs:
            out[i] = max(blobs)
    return out


def pawn_candidates(
    lab: F32,
    expected: F32,
    mask: U8,
    colours: F32,
    icovs: F32,
    everything: list[list[tuple[float, float, float]]] | None = None,
    slim: dict[tuple[float, float, float], float] | None = None,
) -> list[list[tuple[float, float, float]]]:
    """For each pawn colour, the blobs shaped like a standing pawn (see :func:`_blobs`);
    ``everything``, if given, receives each colour's blobs whatever their shape, and
    ``slim`` the length (half-res px) of those whose box is a pawn's but whose pixels
    spread as a sliver's (:func:`.pawn_shape.slender`)."""
    return _blobs(lab, expected, mask, colours, icovs, True, everything, slim)


def _blobs(
    lab: F32,
    expected: F32,
    mask: U8,
    colours: F32,
    icovs: F32,
    strict: bool,
    everything: list[list[tuple[float, float, float]]] | None = None,
    slim: dict[tuple[float, float, float], float] | None = None,
) -> list[list[tuple[float, float, float]]]:
    """For each pawn colour, its blobs: (area, x, y), board px; ``strict``: pawn-like only.

    A pawn is a compact blob (its top and body, seen from above at an angle) that hides the
    card's printed detail. What the residual also holds is not: slivers along card edges
    when a card slid a little (thin), and glare or a shadow over card art (the art's
    detail still shows through, so the photo's fine texture correlates with the card's).
    """
    out: list[list[tuple[float, float, float]]] = [[] for _ in range(len(colours))]
    if everything is not None:
        everything[:] = [[] for _ in range(len(colours))]
    # Pawns are big: half resolution finds them as well, four times faster.
    lab2, exp2, mask2 = lab[::2, ::2], expected[::2, ::2], mask[::2, ::2]
    ys, xs = np.nonzero(mask2)
    if len(xs) == 0:
        return out
    d = pawn_distances(lab2[ys, xs], colours, icovs)
    # A pixel is a pawn's when it has the pawn's colour and the card or table expected there
    # does not: card art that happens to share a pawn's colour is no pawn.
    d_exp = pawn_distances(exp2[ys, xs], colours, icovs)
    nearest = d.argmin(axis=1)
    dmin = d.min(axis=1)
    exp_near = d_exp[np.arange(len(nearest)), nearest]
    sigmas = READ_SIGMAS if strict else PAWN_SIGMAS
    close = (dmin < sigmas) & (exp_near > sigmas)
    loose = (dmin < GROW_SIGMAS) & (exp_near > GROW_SIGMAS) if strict else None
    for i in range(len(colours)):
        sel = close & (nearest == i)
        if not sel.any():
            continue
        m = closed_pixels(mask2.shape, ys[sel], xs[sel])
        # A coloured pawn's lit top or shaded side drifts beyond READ_SIGMAS under other
        # light: a blob is grown from its sure core over pixels within GROW_SIGMAS, nearest
        # this pawn's colour. Not the grey pawns: glare and shadows grow as well as they do.
        # Other colours' rival blobs (``everything``) stay the cores, so a grown pawn is
        # not outweighed by its neighbour's grown fringe.
        grows = False
        if loose is not None and float(np.hypot(colours[i][1], colours[i][2])) > GREY_PAWN:
            grows = True
            if everything is not None:
                everything[i] += _blob_list(m)
            wide = loose & (nearest == i)
            m = _grown(m, closed_pixels(mask2.shape, ys[wide], xs[wide]))
        n, labels, stats, cents = components(m)
        boxes = stats.tolist()  # (Python ints at once: a numpy row per object costs more)
        for k in range(1, n):
            x0, y0, w, h, area = boxes[k]
            cx, cy = float(cents[k][0]), float(cents[k][1])
            if everything is not None and not grows:
                everything[i].append((float(area) * 4, 2 * cx + 0.5, 2 * cy + 0.5))
            if not strict:
                out[i].append((float(area) * 4, 2 * cx + 0.5, 2 * cy + 0.5))
                continue
            if thin(w, h, leaning=True):
                continue
            if sparse(w, h, area) or area < MIN_BLOB:
                continue
            blob = labels[y0 : y0 + h, x0 : x0 + w] == k
            shows = see_through(lab, expected, blob, x0, y0)
            if shows > MAX_SEE_THROUGH:
                continue
            if _light_or_shade(lab, expected, colours[i], 2 * cx + 0.5, 2 * cy + 0.5, shows):
                continue
            found = (float(area) * 4, 2 * cx + 0.5, 2 * cy + 0.5)
            out[i].append(found)
            if slim is not None:
                length, side = spread(blob)  # (the moments once, for both)
                if too_slim(length, side):
                    slim[found] = length
    return out


def closed_pixels(shape: tuple[int, ...], ys: NDArray[np.intp], xs: NDArray[np.intp]) -> U8:
    """A mask of these pixels, closed (a pawn's blob is not broken by a speck of art)."""
    m: U8 = np.zeros(shape, np.uint8)
    m[ys, xs] = 1
    out: U8 = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    return out


def _grown(core: U8, wide: U8) -> U8:
    """The connected parts of ``core | wide`` that hold some of ``core``."""
    n, labels, _, _ = components(wide | core)
    keep = np.zeros(n, bool)
    keep[np.unique(labels[core > 0])] = True
    keep[0] = False
    out: U8 = keep[labels].astype(np.uint8)
    return out


def _blob_list(m: U8) -> list[tuple[float, float, float]]:
    """(area, x, y) in board px of each blob of a half-resolution mask."""
    n, _, stats, cents = components(m)
    return [
        (float(stats[k][4]) * 4, 2 * float(cents[k][0]) + 0.5, 2 * float(cents[k][1]) + 0.5)
        for k in range(1, n)
    ]


def _light_or_shade(lab: F32, expected: F32, colour: F32, x: float, y: float, shows: float) -> bool:
    """Whether a blob of a light (or dark) pawn's colour is glare (or a shadow) on the card;
    ``shows``: how much of the card's fine detail shows through the blob (:func:`see_through`).

    Glare lightens the card and a shadow darkens it, but the art stays visible through both:
    the lightness still follows the expected card's, or is flat where the card is flat. A
    pawn replaces the art with its own shading. Only the lightest and darkest pawns can be
    faked this way, and only grey ones: glare whitens and a shadow blackens, neither makes
    a strong hue (a bright orange pawn is no glare).
    """
    lightness = float(colour[0])
    if DARK_PAWN <= lightness <= LIGHT_PAWN or float(np.hypot(colour[1], colour[2])) > GREY_PAWN:
        return False
    xi, yi, r = round(x), round(y), FLAT_WINDOW
    seen = lab[max(0, yi - r) : yi + r + 1, max(0, xi - r) : xi + r + 1, 0].ravel()
    exp = expected[max(0, yi - r) : yi + r + 1, max(0, xi - r) : xi + r + 1, 0].ravel()
    if seen.size < 9:
        return True
    follows = lightness_follows(seen, exp)
    shading = float(exp.std())
    spread = float(seen.std())
    # On a flat part of the card the correlation is of noise and the light's slope, no
    # evidence either way: there glare shows as a flat blob, which the spread tells. Glare
    # whose lightness follows even a flat card's faint shading very closely is still glare:
    # a pawn's own shading matches it far less.
    if lightness > LIGHT_PAWN:
        if shading >= FLAT_CARD:
            # (a pawn over the card's light and dark parts may follow them by chance; glare
            # over the art keeps its fine detail, and is flatter than a lit pawn's shading)
            pawn_shaded = shows <= GLARE_DETAIL and spread >= PAWN_SPREAD
            return (follows > GLARE_FOLLOWS and not pawn_shaded) or spread < LIGHT_SPREAD
        if shading >= FAINT_CARD:
            return follows > FLAT_GLARE_FOLLOWS or spread < LIGHT_SPREAD
        return spread < LIGHT_SPREAD
    if shading >= FLAT_CARD:
        return follows > SHADE_FOLLOWS or spread < DARK_SPREAD
    return spread < DARK_SPREAD


def lightness_follows(seen: F32, exp: F32) -> float:
    """The correlation of the lightness ``seen`` with the card's ``exp``ected (L values,
    one per pixel): near 1 where the card's art shows through under other light, 0 where
    either is flat."""
    a = seen - seen.mean()
    b = exp - exp.mean()
    den = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum()) / den if den > 1e-6 else 0.0


LIGHT_PAWN = 65.0  # learned L above which glare may fake the pawn (Borea)
GREY_PAWN = 25.0  # learned a*b* chroma below which a pawn is grey enough to be faked
DARK_PAWN = 35.0  # learned L below which a shadow may fake the pawn (Austro)
FLAT_WINDOW = 5  # board px around the blob's centre that are compared
GLARE_FOLLOWS = 0.55  # lightness correlation with the card's beyond which it is glare
SHADE_FOLLOWS = 0.6  # ... beyond which it is a shadow
LIGHT_SPREAD = 6.0  # a lit 3D pawn shades at least this much (L std), glare is flatter
DARK_SPREAD = 1.2  # a dark pawn's highlight and shading spread at least this much
# The card's lightness spread (L std) under which it is too flat to follow. Pawns right,
# DEV seeds 5 / 22 +4 / +1; fresh 3000-3999 / 5000-5999 / 6000-6999 / 7000-7999 +3 / 0 / 0
# / +1; no new wrong cell or phantom (a white pawn's shading on a plain sky correlated
# 0.6-0.7 with the sky's faint light slope, and the pawn was taken for glare).
FLAT_CARD = 5.0
# The lightness correlation beyond which a light blob on a flat card is glare all the same,
# where the card shades at least FAINT_CARD (fresh deck 7010, seed 43 #62, #63: glare over a
# plain sky, 0.92 and 0.82 on cards of L std 4.3 and 2.5, named Borea; DEV seed 5 #5, #31:
# white pawns on a plain sky, 0.69 and 0.67 on 3.3 and 3.8). Flatter, only the light's
# slope is left to follow, and a pawn's shading may run the same way.
FLAT_GLARE_FOLLOWS = 0.8
FAINT_CARD = 2.0
# A white pawn over the card's light and dark art may follow its lightness by chance (fresh
# decks 3000-3999 seed 11 #115, #150: correlation 0.57 and 0.75) while he hides its fine
# detail (see_through 0.16, -0.16) and shades from his highlight to his shaded side (L std
# 18). Such a blob is no glare when the detail is hidden (GLARE_DETAIL) and it spreads
# PAWN_SPREAD or more. The detail bound alone named glare Borea twice on DEV seed 5 (#86,
# #89: following the card 0.90 and 0.84, detail 0.26 and -0.41, but L std 10.1 and 11.2);
# #71 (0.89, L std 11.1) is as flat as those and stays missed. `pawn_diag.py --read-only
# --n 480 --per-setup 6`, pawns right: DEV seed 5 +3, fresh 3000-3999 +1, 5000-5999 +1,
# 8000-8999 +4, held out 4000-4999 +2, 7000-7999 +1; none wrong, phantom or missed
# silently more.
GLARE_DETAIL = 0.35
PAWN_SPREAD = 13.0


# The length (by its pixels' spread) of a slender patch beyond which it is a sliver, not a
# pawn, in sides of a square of the pawn's learned area (or the pawns' median, if larger:
# the white pawn split by his light is learned small, 3022's at 108 board px of a median
# 184): a card's band with a spur, fresh deck 9017 #142, 3.25; the white pawn's split
# patch on a slant, 3022 #134, 1.9.
LONGEST_PATCH = 2.5
READ_SIGMAS = 3.0  # (reading) a pawn's colour drifts with the light since calibration
# (reading) how far a coloured pawn's blob grows from its core. 4.5 (1.5 x READ_SIGMAS):
# pawns right on DEV seeds 22 / 21 (192 photos) 72.7 -> 76.2% / 75.9 -> 77.2%; fresh decks
# (240 photos) 3000-3999 79.4 -> 79.6% (one wrong cell fewer), 5000-5999 78.5 -> 79.0% (one
# phantom more), 6000-6999 76.4 -> 76.8%, 7000-7999 74.9% (one phantom fewer), held-out
# 8000-8999 (seed 23) 79.7 -> 82.0%, no new error. 6.0, grey pawns grown too: 2 phantoms
# on DEV seed 22.
GROW_SIGMAS = 4.5
MIN_BLOB = 8  # half-res px: smaller blobs are noise, whatever their colour
MAX_SEE_THROUGH = 0.7  # correlation of fine detail with the card's: glare or shadow, no pawn


def see_through(lab: F32, expected: F32, blob: NDArray[np.bool_], x0: int, y0: int) -> float:
    """How much of the expected card's fine detail still shows inside ``blob`` (a half-res
    blob at (x0, y0)): the correlation of the lightness' Laplacians, seen and expected."""
    h, w = blob.shape
    pad = 2
    ya, xa = max(0, 2 * y0 - pad), max(0, 2 * x0 - pad)
    yb, xb = 2 * (y0 + h) + pad, 2 * (x0 + w) + pad
    seen = _detail(lab[ya:yb, xa:xb, 0])
    exp = _detail(expected[ya:yb, xa:xb, 0])
    oy, ox = (2 * y0 - ya) // 2, (2 * x0 - xa) // 2
    a = seen[oy : oy + h, ox : ox + w]
    b = exp[oy : oy + h, ox : ox + w]
    if a.shape != blob.shape:
        return 0.0
    return _correlation(a[blob], b[blob])


def _correlation(a: F32, b: F32) -> float:
    """The correlation of two detail patches (0 where either has none)."""
    a = a - a.mean()
    b = b - b.mean()
    den = float(np.sqrt((a * a).sum() * (b * b).sum()))
    if den < 1e-6:
        return 0.0
    return float((a * b).sum()) / den


def _detail(grey: F32, step: int = 2) -> F32:
    """Fine detail (a Laplacian of the lightness), at half resolution (every ``step`` px)."""
    g = cv2.GaussianBlur(np.ascontiguousarray(grey), (3, 3), 0)
    out: F32 = cv2.Laplacian(g, cv2.CV_32F)[::step, ::step]
    return out


def find_pawns(
    lab: F32,
    expected: F32,
    mask: U8,
    colours: F32,
    icovs: F32,
    offsets: F64,
    areas: F64,
    geometry: BoardGeometry,
    gems_at: list[tuple[float, float]] | None = None,
    found_at: list[tuple[float, float]] | None = None,
) -> tuple[dict[Spirit, Position], set[Spirit], set[Cell]]:
    """Pawns seen, those whose place is doubtful, and cells a pawn may be on but unplaced.

    ``gems_at`` are the gems found first (board px, see :func:`.gems.find_gems`): a dark blob on a
    gem may be the gem's shade rather than Austro. ``found_at``, if given, receives the board
    point of each reported pawn's blob (for :mod:`.pawn_doubts`).

    Each pawn is on the table at most once: a colour with two pawn-like blobs of about the
    learned size is ambiguous and not reported (a phantom or a misplaced pawn is worse for
    the referee than a pawn not seen), but the cards under both are doubtful. A pawn whose
    foot falls near a cell's border is reported but its cell marked doubtful.
    """
    found: dict[Spirit, Position] = {}
    doubtful: set[Spirit] = set()
    unplaced: set[Cell] = set()
    why = WHY_MISSED
    why.clear()
    placed: dict[Spirit, tuple[float, float]] = {}
    objects = ObjectSizes(mask)
    every: list[list[tuple[float, float, float]]] = []
    slim: dict[tuple[float, float, float], float] = {}
    cands = pawn_candidates(lab, expected, mask, colours, icovs, every, slim)
    cands = _one_colour_per_object(cands, every, geometry)
    seen = every
    every = _one_colour_per_object(every, every, geometry)
    austro = CALIBRATION_ORDER.index(Spirit.AUSTRO)
    near_grid, cut_off = _beside_grid(lab, expected, mask, colours, icovs, areas[austro], geometry)
    # The same Austro seen both ways counts once (its colour blob places it better).
    pitch = geometry.pitch
    cands[austro] += [
        b
        for b in near_grid
        if all(np.hypot(b[1] - c[1], b[2] - c[2]) > SAME * pitch for c in cands[austro])
    ]
    biggest = MAX_AREA * np.maximum(areas, SMALL_LEARNED * float(median(areas)))
    for i, spirit in enumerate(CALIBRATION_ORDER):
        blobs = [b for b in cands[i] if MIN_AREA * areas[i] <= b[0] <= biggest[i]]
        if not blobs and spirit is Spirit.BOREA:
            blobs = _white_shrunk(cands, areas, objects, pitch)
        feet = [(b[0], b[1] - offsets[i][0], b[2] - offsets[i][1]) for b in blobs]
        # (a sliver's foot is never placed, only doubted: see the sure ones below; a
        # sliver is slender and longer than this pawn's patch can be, half-res px)
        longest = LONGEST_PATCH * float(np.sqrt(max(areas[i], float(median(areas))) / 4))
        slim_feet = {f for f, b in zip(feet, blobs, strict=True) if slim.get(b, 0.0) > longest}
        feet = [f for f in feet if not far_outside(geometry, f[1], f[2])]
        if spirit is not Spirit.AUSTRO:  # only Austro may stand off the grid
            feet = [f for f in feet if not cell_of(geometry, f[1], f[2]).outside]
        # (for diagnosis: a pawn-like blob of his colour but not of his size is "sized wrong",
        # one of his size whose foot falls off the grid "off the grid")
        if feet:
            why[spirit] = "several blobs"
        elif blobs:
            why[spirit] = "off the grid"
        else:
            why[spirit] = "sized wrong" if cands[i] else "no pawn-like blob"
            # A blob shaped like him and of his colour but too small to be him may be him,
            # most of him lost to the light or to a card of nearly his colour: its card is
            # not seen empty (fresh 8000-8999 seed 19 #76: Borea's blob 0.30 of his area;
            # #74: Etesia on a green card in two blobs of 0.33 and 0.28; both missed
            # silently). `pawn_diag.py --read-only --n 240`, missed silently: DEV seed 13
            # 6 -> 6, fresh 3000-3999 seed 11 3 -> 2, 8000-8999 seed 19 5 -> 3; uncertain
            # cells a photo +0.00, +0.02, +0.02; pawns right the same.
            small = [b for b in cands[i] if SMALL_DOUBT * areas[i] <= b[0] < MIN_AREA * areas[i]]
            unplaced |= _doubted_cells(
                geometry, spirit, [(b[1] - offsets[i][0], b[2] - offsets[i][1]) for b in small]
            )
        passed_over: list[tuple[float, float, float]] = []
        if len(feet) > 1:
            # Of two look-alikes, one whose middle is faint, mixed or on a card of the pawn's
            # own colour is no pawn seen (see _unsure): the other, if sure, is the pawn.
            sure = [
                f
                for f in feet
                if not cell_of(geometry, f[1], f[2]).outside
                and f not in slim_feet
                and not _unsure(
                    lab,
                    expected,
                    colours,
                    icovs,
                    i,
                    f[1] + offsets[i][0],
                    f[2] + offsets[i][1],
                    objects,
                    areas[i],
                )
            ]
            # Not when one of them stands beside the grid: that blob passed the tests for
            # Austro there, and the sure one on a card may be the white pawn's shaded side
            # (fresh deck 6034, 6000-6099 seed 43 #206: Austro beside the grid passed over
            # for Borea's shade, placed on Borea's card, Borea missed silently). Both are
            # then doubted. `pawn_diag.py --read-only --n 240`: in/out 1 -> 0 on 6000-6099
            # seed 43; DEV seed 5, 3000-3099 seed 11, held out 4000-4099 seed 13 unchanged;
            # 9000-9999 seed 21 665 -> 663 right (deck 9031: a dark patch of wood beside
            # the grid left Austro on his card doubted, not placed, twice).
            beside = any(cell_of(geometry, f[1], f[2]).outside for f in feet)
            if len(sure) == 1 and not beside:
                passed_over = [f for f in feet if f not in sure]
                feet = sure
        if len(feet) > 1:
            # Two look-alikes: which one is the pawn is not known, so neither card is sure.
            unplaced |= _doubted_cells(geometry, spirit, [(f[1], f[2]) for f in feet])
        if len(feet) != 1:
            continue
        area, fx, fy = feet[0]
        sliver = feet[0] in slim_feet
        pos = cell_of(geometry, fx, fy)
        bx, by = fx + offsets[i][0], fy + offsets[i][1]
        # Another blob of this colour and a pawn's size, even one not shaped like a pawn,
        # may be the pawn itself seen badly (and this one art or glare): neither is sure.
        rivals = [
            b
            for b in every[i]
            if b[0] >= MIN_AREA * areas[i] and np.hypot(b[1] - bx, b[2] - by) > SAME * pitch
        ]
        # ...unless its own middle is too weak to be a pawn at all (a blob of card art or
        # light shaped unlike a pawn, which this sure, pawn-shaped blob outweighs).
        rivals = [
            b
            for b in rivals
            if not _unsure(lab, expected, colours, icovs, i, b[1], b[2], objects, areas[i])
        ]
        if rivals and spirit is GREYS[0] and _print_kept(lab, expected, bx, by) < HIDDEN_PRINT:
            # Glare over a card looks like the white pawn, but its card's print shows
            # through it, which a pawn hides: a white blob elsewhere that keeps its card's
            # print is no rival to one that hides its own (see RIVAL_PRINT).
            rivals = [b for b in rivals if _print_kept(lab, expected, b[1], b[2]) < RIVAL_PRINT]
        kind = "rival: same colour elsewhere" if rivals else ""
        others = seen if not pos.outside else _standing_beside(seen, offsets, geometry)
        # The other grey's blob on this object is this pawn's own light or shade when
        # the object is this pawn's size and most of it this pawn's grey (see _grey_share).
        own: list[tuple[float, float, float]] = []
        if spirit in GREYS:
            jg = CALIBRATION_ORDER.index(GREYS[1 - GREYS.index(spirit)])
            on_it = [b for b in seen[jg] if np.hypot(b[1] - bx, b[2] - by) < SAME * pitch]
            # (the pixels are counted only when there is such a blob: the usual case is none)
            if (
                on_it
                and abs(np.log(area / areas[i])) < abs(np.log(area / areas[jg]))
                and _grey_share(lab, mask, colours, icovs, (i, jg), bx, by, areas[i]) >= GREY_SHARE
            ):
                own = on_it
        # A blob of another pawn's colour on this object, not clearly smaller, leaves which
        # pawn stands there unknown (a shade or a highlight of one pawn looks like another);
        # not one that is the card in shade, this pawn's shadow (DEV seed 22 #30: Skyron's
        # shadow on a white card read as the grey Borea). Pawns right, DEV seeds 22 / 21:
        # +6 / 0; fresh 3000-3999, 5000-5999, 6000-6999, 7000-7999: +3, +1, +3, +3; no new
        # wrong cell or phantom. (Also letting a dark blob far darker than any shadow be
        # Austro beside another pawn: 2 phantoms more on 3000-3999, dropped.)
        rivals += [
            b
            for j in range(len(others))
            if j != i
            for b in others[j]
            if b[0] >= WEAKER * area
            and np.hypot(b[1] - bx, b[2] - by) < SAME * pitch
            and not _card_in_shade(lab, expected, b[1], b[2])
            and b not in own
        ]
        kind = kind or ("rival: another colour on it" if rivals else "")
        if spirit is Spirit.AUSTRO:
            fakes = _austro_fakes(others, areas, gems_at or [], bx, by, pitch, area)
            rivals += [b for b in fakes if b not in own]
            kind = kind or ("rival: a shade" if rivals else "")
        if spirit in GREYS:
            # The white and the dark pawn differ in lightness alone: the dark pawn's lit top
            # reads as the white one and the white one's shade as the dark one. A blob of
            # the other grey's colour on this object leaves which of them it is unknown.
            j = CALIBRATION_ORDER.index(GREYS[1 - GREYS.index(spirit)])
            rivals += [
                b
                for b in others[j]
                if b[0] >= MIN_AREA * areas[j]
                and np.hypot(b[1] - bx, b[2] - by) < SAME * pitch
                and b not in own
            ]
            kind = kind or ("rival: the other grey" if rivals else "")
        # Beside the grid, a blob lighter than the table all over is glare (see
        # _all_lighter); on a card, one whose box is a pawn's but whose pixels spread as a
        # sliver's is a strip of a card's edge with a spur (fresh deck 9017 #142: a card's
        # green band, 21 x 5 px by its moments in a 22 x 9 box, placed as the green pawn).
        glare = pos.outside and _all_lighter(lab, expected, bx, by, float(colours[i][0]))
        # On a card, a white blob of one lightness all over is a lamp's spot: the white
        # pawn shows a lit top and a shaded side (see _flat).
        glare = glare or (
            spirit is GREYS[0]
            and not pos.outside
            and _flat(lab, mask, bx, by, areas[i], float(colours[i][0]))
        )
        kind = kind or ("glare beside the grid" if glare else "slender" if sliver else "")
        if (
            rivals
            or sliver
            or glare
            or (
                not pos.outside
                and _unsure(lab, expected, colours, icovs, i, bx, by, objects, areas[i])
            )
        ):
            why[spirit] = kind or "unsure"
            feet_at = [
                (b[1] - offsets[i][0], b[2] - offsets[i][1]) for b in [(area, bx, by), *rivals]
            ]
            # (and the look-alikes passed over for this one: fresh deck 11009, 11000-11099
            # seed 41 #73, Austro plainly beside the grid passed over for Borea's shade on
            # a card, which a rival then left in doubt: Austro missed silently)
            feet_at += [(f[1], f[2]) for f in passed_over]
            unplaced |= _doubted_cells(geometry, spirit, feet_at)
            continue
        found[spirit] = pos
        placed[spirit] = (bx, by)
        del why[spirit]
        col, row = geometry.board_to_lattice(fx, fy)
        along = [row] if pos.outside and not 0 <= row < SIZE else []
        along += [col] if pos.outside and not 0 <= col < SIZE else []
        near = [col, row] if not pos.outside else [v for v in (col, row) if v not in along]
        edge = min([abs(v - round(v)) for v in near] or [1.0])
        if area < 0.6 * areas[i] or area > 2.0 * areas[i] or edge < BORDER:
            doubtful.add(spirit)
    # Pawns never share a card: two on one card means one of them is something else. A dark
    # "Austro" beside a lit pawn is that pawn's shadow; otherwise which is real is unknown.
    by_cell: dict[Cell, list[Spirit]] = {}
    for spirit, pos in found.items():
        if not pos.outside:
            by_cell.setdefault(pos.cell, []).append(spirit)
    for cell, spirits in by_cell.items():
        if len(spirits) < 2:
            continue
        drop = [Spirit.AUSTRO] if Spirit.AUSTRO in spirits and len(spirits) == 2 else spirits
        for spirit in drop:
            del found[spirit]
            why[spirit] = "shares a card"
            doubtful.discard(spirit)
        if len(drop) > 1:
            unplaced.add(cell)
    if Spirit.AUSTRO not in found:
        # (a blob the board's edge cuts is doubted only, see _beside_grid; and not at all
        # once Austro is seen elsewhere: there is one of him)
        cut_feet = [(b[1] - offsets[austro][0], b[2] - offsets[austro][1]) for b in cut_off]
        unplaced |= _doubted_cells(geometry, Spirit.AUSTRO, cut_feet)
    if found_at is not None:
        found_at += [placed[spirit] for spirit in found]
    return found, doubtful, unplaced


def _white_shrunk(
    cands: list[list[tuple[float, float, float]]],
    areas: F64,
    objects: ObjectSizes,
    pitch: float,
) -> list[tuple[float, float, float]]:
    """The white pawn's one blob of his colour, too small to be him, when it is his lit part
    on an object of a pawn's size that no other pawn's blob is on: [that blob], else [].

    Under a light unlike the calibration's, his shaded side turns grey and leaves his
    colour: fresh deck 6003 (6000-6999 seed 43 #18-#23) showed him at 0.37-0.44 of his
    learned blob in four photos, each the only blob of his colour, on objects 1.3-2.0 times
    it (a pawn's object holds his shadow too). The pawn so placed goes through every check
    a pawn's blob does, and is in doubt (smaller than ``0.6`` of his area, see
    :func:`find_pawns`): the referee is asked about him rather than about an empty card.
    """
    i = CALIBRATION_ORDER.index(Spirit.BOREA)
    if len(cands[i]) != 1:
        return []
    blob = cands[i][0]
    area, x, y = blob
    if area < WHITE_SHRUNK * areas[i]:
        return []
    if not WHITE_OBJECT[0] * areas[i] <= objects.area_at(x, y) <= WHITE_OBJECT[1] * areas[i]:
        return []
    # (another pawn's lit top reads as white: on an object of another pawn's colour, he is
    # not looked for)
    for j, others in enumerate(cands):
        if j != i and any(
            b[0] >= MIN_AREA * areas[j] and np.hypot(b[1] - x, b[2] - y) < SAME * pitch
            for b in others
        ):
            return []
    return [blob]


def _doubted_cells(
    geometry: BoardGeometry, spirit: Spirit, feet: list[tuple[float, float]]
) -> set[Cell]:
    """The cells a pawn may stand on, feet at board points ``feet``, left unplaced.

    A foot beside the grid can only be Austro's: his doubt goes to the edge cell beside it,
    the cell a reading names him by there (``{"outside": [r, c]}``). Unflagged, an Austro
    seen beside the grid but not placed was missed silently (fresh 8000-8999 seed 61: 5 of
    13 silent misses).
    """
    out: set[Cell] = set()
    for x, y in feet:
        pos = cell_of(geometry, x, y)
        if not pos.outside or (spirit is Spirit.AUSTRO and not far_outside(geometry, x, y)):
            out.add(pos.cell)
    return out


def _standing_beside(
    seen: list[list[tuple[float, float, float]]], offsets: F64, geometry: BoardGeometry
) -> list[list[tuple[float, float, float]]]:
    """The blobs of ``seen`` (per pawn, calibration order) that could be a pawn standing by
    a blob beside the grid: Austro's all, another pawn's only when its foot is on a card.

    Only Austro stands off the grid. A blob of another pawn's colour there, on him or by
    him, is his own lit top or shade or the table, not a pawn casting a shadow or standing
    on him (fresh 8000-8999 seed 61 #134, #416: his lit top read as the white pawn, #372:
    the purple table beside his shadow read as Skyron; all three missed silently).
    """
    austro = CALIBRATION_ORDER.index(Spirit.AUSTRO)
    return [
        blobs
        if j == austro
        else [
            b
            for b in blobs
            if not cell_of(geometry, b[1] - offsets[j][0], b[2] - offsets[j][1]).outside
        ]
        for j, blobs in enumerate(seen)
    ]


def _grey_share(
    lab: F32,
    mask: U8,
    colours: F32,
    icovs: F32,
    pair: tuple[int, int],
    x: float,
    y: float,
    area: float,
) -> float:
    """Share of the changed pixels of a blob at (x, y) (a disc of ``area``) nearer the
    first pawn of ``pair`` than the second (Mahalanobis): which of the two greys an object
    is. The dark pawn's lit facets read as the white one (and the white one's shaded side
    as the dark one), so each grey finds a blob on the other; most of the object's pixels
    still lie nearer its own colour."""
    px = _disc_pixels(lab, mask, x, y, area)
    if len(px) < 9:
        return 0.0
    d = pawn_distances(px, colours[list(pair)], icovs[list(pair)])
    return float(np.mean(d[:, 0] < d[:, 1]))


def _disc_pixels(lab: F32, mask: U8, x: float, y: float, area: float) -> F32:
    """The changed pixels (N x 3 Lab) of a blob at (x, y): those in ``mask`` within the
    square around a disc of ``area`` (board px)."""
    r = max(2, round(float(np.sqrt(area / np.pi))))
    xi, yi = round(x), round(y)
    win = (slice(max(0, yi - r), yi + r + 1), slice(max(0, xi - r), xi + r + 1))
    out: F32 = lab[win][mask[win] > 0]
    return out


def _flat(lab: F32, mask: U8, x: float, y: float, area: float, lightness: float) -> bool:
    """Whether a blob's changed pixels (a disc of ``area`` at (x, y), board px) are all of
    one lightness (10th to 90th percentile of L within ``FLAT_SPREAD``) and all lighter than
    the white pawn was learned (``lightness``, by ``FLAT_SPREAD``): a lamp's spot over a
    card, not the pawn, whose lit top and shaded side differ. DEV seed 22 #79: no pawn in
    the game, a spot over island 22 at L 95-98 (spread 3.1; Borea learned at L 51) was
    placed as the white pawn; the white pawn's 141 objects where he stood (DEV seed 22, and
    seed 5's first 30 photos) spread 12.9 L or more. (Flatness alone would also refuse a
    matte pawn seen from straight above in even light, at his own lightness.)"""
    light = _disc_pixels(lab, mask, x, y, area)[:, 0]
    if len(light) < 9:
        return False
    lo, hi = np.percentile(light, [10, 90])
    return bool(hi - lo < FLAT_SPREAD and lo > lightness + FLAT_SPREAD)


FLAT_SPREAD = 9.0  # L, as SOLID_SPREAD asks of the dark pawn beside the grid


# An object most of whose pixels (this share) are one grey's, of that grey's size rather
# than the other's, is that grey (the other grey's blob on it no rival). Pawns right, DEV
# seeds 5 / 22 +4 / +6; fresh 3000-3999 / 5000-5999 / 6000-6999 / 7000-7999 +1 / +3 / +2 /
# 0; no new wrong cell or phantom. (Without the size, 3 wrong cells more on these sets:
# DEV seed 5 #25, the white pawn seen darker than at calibration, all of it nearer the
# dark pawn's grey, was placed as the dark one.)
GREY_SHARE = 0.65


WEAKER = 0.6  # x the pawn's blob: another pawn colour's blob this big on it is a rival


def _austro_fakes(
    seen: list[list[tuple[float, float, float]]],
    areas: F64,
    gems_at: list[tuple[float, float]],
    x: float,
    y: float,
    pitch: float,
    area: float,
) -> list[tuple[float, float, float]]:
    """What may have made a dark blob of ``area`` at (x, y) look like Austro: a gem there
    (its dark shaded side), or another pawn's blob close by (the dark blob is its shadow)."""
    austro = CALIBRATION_ORDER.index(Spirit.AUSTRO)
    out: list[tuple[float, float, float]] = []
    if area < GEM_SHADE_AREA * areas[austro]:  # (a gem's shaded side is a third of it at most)
        out += [(0.0, gx, gy) for gx, gy in gems_at if np.hypot(gx - x, gy - y) < GEM_SHADE * pitch]
    out += [
        b
        for j, blobs in enumerate(seen)
        if j != austro
        for b in blobs
        if b[0] >= MIN_AREA * areas[j] and np.hypot(b[1] - x, b[2] - y) < CASTS * pitch
    ]
    return out


GEM_SHADE = 0.35  # cells: a gem this close to a dark blob may be what it is...
# ...unless the blob is this big (x Austro's learned area). Pawns right, DEV seed 22 +2;
# fresh 3000-3999, 5000-5999, 6000-6999, 7000-7999 +1, +2, +1, +3; held-out 8000-8999 +2;
# no new wrong cell or phantom.
GEM_SHADE_AREA = 0.7
CASTS = 0.6  # cells: another pawn this close to a dark blob may cast it as its shadow


GREYS = (Spirit.BOREA, Spirit.AUSTRO)


def _around(lab: F32, expected: F32, x: float, y: float, r: int) -> tuple[F32, F32]:
    """The pixels (seen, expected; N x 3) within ``r`` board px of (x, y)."""
    xi, yi = round(x), round(y)
    seen = lab[max(0, yi - r) : yi + r + 1, max(0, xi - r) : xi + r + 1].reshape(-1, 3)
    exp = expected[max(0, yi - r) : yi + r + 1, max(0, xi - r) : xi + r + 1].reshape(-1, 3)
    return seen, exp


def _card_in_shade(lab: F32, expected: F32, x: float, y: float) -> bool:
    """Whether the middle of a blob at (x, y) is mostly the card darkened, its hue kept:
    a pawn's shadow falling on the card, not another pawn."""
    seen, exp = _around(lab, expected, x, y, SHADE_WINDOW)
    if len(seen) < 9:
        return False
    scale = seen[:, 0] / np.maximum(exp[:, 0], 1.0)
    hue_kept = np.abs(seen[:, 1:] - exp[:, 1:] * scale[:, None]).sum(axis=-1) < SHADOW_HUE
    shade = hue_kept & (seen[:, 0] < exp[:, 0] - SHADOW_DROP)
    return float(shade.mean()) >= SHADE_SHARE


SHADE_WINDOW = 3  # board px around a rival blob's centre
SHADE_SHARE = 0.6  # share of that window that is the card in shade


def _median_change(seen: F32, exp: F32) -> float:
    # (colour_distance: np.linalg.norm's values over the last axis, at half its cost)
    return float(median(colour_distance(seen, exp)))


def faint_middle(lab: F32, expected: F32, x: float, y: float) -> bool:
    """Whether the photo around board point (x, y) differs from the card expected there by
    less than a pawn standing there changes it (``FAINT``: :func:`_unsure`'s first test)."""
    seen, exp = _around(lab, expected, x, y, UNSURE_WINDOW)
    return len(seen) < 9 or _median_change(seen, exp) < FAINT


def _unsure(
    lab: F32,
    expected: F32,
    colours: F32,
    icovs: F32,
    i: int,
    x: float,
    y: float,
    objects: ObjectSizes,
    area: float,
) -> bool:
    """Whether the middle of pawn ``i``'s blob at (x, y) is too weak to place the pawn.

    Around a pawn the photo differs strongly from the card, most pixels have the pawn's
    colour, and the card expected there has not: a faint change (light, a card slightly
    off its place), a mixed patch (a gem, an edge of art) or a card of the pawn's own
    colour (unless the colours seen are new to it, see NOVEL, or fairly new and hiding the
    card's print on a pawn-sized object of the residual, see NOVEL_HIDDEN; ``area`` is the
    pawn's learned blob area) leaves the card in doubt rather than a pawn on it.
    """
    seen, exp = _around(lab, expected, x, y, UNSURE_WINDOW)
    if len(seen) < 9:
        return True
    change = _median_change(seen, exp)
    if change < FAINT:
        return True
    if _own_share(seen, pawn_distances(seen, colours, icovs), colours, i) < MIN_SHARE:
        return True
    if _light_only(seen, exp, colours[i]) or glare_gone(seen, exp, expected, x, y):
        return True
    if change >= CLEAR_CHANGE:
        # a change this strong, nearly all of it the pawn's colour, is the pawn even on a
        # card of a colour near its own (the learned spread is wide: shade and light)
        return False
    if float(median(pawn_distances(exp, colours[i : i + 1], icovs[i : i + 1]))) >= LIKE_CARD:
        # On a card unlike the pawn, a coloured pawn's colours not even fairly new to it
        # are its own art showing otherwise than at calibration (FAMILIAR)
        return _coloured(colours[i]) and _novelty(seen, expected, x, y, NOVEL_REACH) < FAMILIAR
    # On a card of a colour near the pawn's, the colours seen must be new to the card: a
    # card nudged or relit shows its own colours moved, a pawn colours found nowhere on it
    novelty = _novelty(seen, expected, x, y, NOVEL_REACH)
    if novelty >= NOVEL:
        return False
    # ...or fairly new and hiding the card's print, on a change of a pawn's size: light over
    # a card keeps its print, a white pawn on a white card hides it; a card pasted where it
    # does not lie hides its print too, but changes far more than a pawn's patch
    if novelty < NOVEL_HIDDEN or objects.area_at(x, y) > HIDDEN_OBJECT * area:
        return True
    return _print_kept(lab, expected, x, y) >= HIDDEN_PRINT


def _own_share(seen: F32, d: F32, colours: F32, i: int) -> float:
    """Share of a window's pixels (``seen``, their distances ``d`` from each pawn's colour)
    that are pawn ``i``'s: nearest its colour; for the white pawn, also those nearest the
    dark pawn's but nearer the white one's in lightness.

    The dark pawn is learned with a wide spread (his lit facets and shaded sides), and the
    white pawn's light grey pixels can lie nearer his colour than the white pawn's: DEV
    seed 5 #161, Borea plain on a card, his window's median L 78 (Borea learned at L 84,
    Austro at 37), 0.4 of its pixels nearest Austro's colour, was left unsure. The greys
    differ in lightness above all, so lightness decides between the two. Not the other way
    (the dark pawn's pixels nearest the white one's but darker): it found no dark pawn more
    on the diagnosis sets, and made another dark blob a rival to Austro on fresh 2000-2099
    seed 23 #138."""
    nearest = d.argmin(axis=1)
    own = nearest == i
    if CALIBRATION_ORDER[i] is GREYS[0]:
        j = CALIBRATION_ORDER.index(GREYS[1])
        lighter = np.abs(seen[:, 0] - colours[i, 0]) < np.abs(seen[:, 0] - colours[j, 0])
        own |= (nearest == j) & lighter
    return float(own.mean())


class ObjectSizes:
    """The area (board px) of the residual's object at a point: the mask's half-res
    components, labelled on first use (most photos never ask)."""

    def __init__(self, mask: U8) -> None:
        self._mask = mask
        self._labels: NDArray[Any] | None = None
        self._areas: NDArray[Any] | None = None

    def area_at(self, x: float, y: float) -> float:
        """The area of the object most of the 3x3 half-res window at (x, y) belongs to,
        or 0 where none is."""
        if self._labels is None or self._areas is None:
            _, self._labels, stats, _ = components(np.ascontiguousarray(self._mask[::2, ::2]))
            self._areas = 4.0 * stats[:, cv2.CC_STAT_AREA].astype(np.float64)
        h, w = self._labels.shape
        xi, yi = min(max(int(x / 2), 0), w - 1), min(max(int(y / 2), 0), h - 1)
        win = self._labels[max(0, yi - 1) : yi + 2, max(0, xi - 1) : xi + 2]
        ids = win[win > 0]
        if not len(ids):
            return 0.0
        return float(self._areas[int(np.bincount(ids).argmax())])


def _print_kept(lab: F32, expected: F32, x: float, y: float) -> float:
    """How much of the card's fine detail still shows within ``UNSURE_WINDOW`` of (x, y):
    the correlation of the lightness' Laplacians, seen and expected (0 with no detail)."""
    r, pad = UNSURE_WINDOW, 2
    xi, yi = round(x), round(y)
    h, w = lab.shape[:2]
    ya, yb = max(0, yi - r - pad), min(h, yi + r + pad + 1)
    xa, xb = max(0, xi - r - pad), min(w, xi + r + pad + 1)
    seen = _detail(lab[ya:yb, xa:xb, 0], step=1)[pad:-pad, pad:-pad]
    exp = _detail(expected[ya:yb, xa:xb, 0], step=1)[pad:-pad, pad:-pad]
    return _correlation(seen, exp)


def _novelty(seen: F32, expected: F32, x: float, y: float, reach: int) -> float:
    """How new the colours ``seen`` around (x, y) are to the card expected there: the median
    over the seen pixels of the Lab distance to the nearest expected colour within
    ``reach`` board px beyond the window."""
    _, near = _around(expected, expected, x, y, UNSURE_WINDOW + reach)
    # (colour_distance: np.linalg.norm's values, at half its cost on these ~40k pairs)
    dist = colour_distance(seen[:, None, :], near[None, :, :]).min(axis=1)
    return float(median(dist))


# A pawn on a card of nearly its colour is sure when most of what is seen lies this far
# (Lab) from every colour of the card around it. Pawns right, DEV seeds 5 / 22: +5 / +2;
# fresh 3000-3999 / 5000-5999 / 6000-6999 / 7000-7999: +2 / 0 / +2 / +1 (held-out
# 8000-8999: +2); two wrong cells fewer, no new phantom. At 8: +36 in all, but new glare
# on a card (DEV seed 22 #79, 12.5) and a purple card darkened (fresh 3026 #209, 9.7)
# were taken for the white and the purple pawn, and card art made rivals of real pawns
# (fresh design 3004).
NOVEL = 13.0
NOVEL_REACH = 4  # board px
# A pawn's colours only fairly new to the card (NOVEL_HIDDEN) are enough where the card's
# print no longer shows through (its correlation under HIDDEN_PRINT): a white pawn on a pale
# card. Every blob that reached the novelty test on DEV seed 5 and fresh 3000-3999 seed 11
# (480 photos each): 79 on a pawn of their colour, correlation -0.42-0.96 (median 0.06);
# 35 where none stood (light, a card nudged), 0.58 or more but for 10, and those 10 all
# under 4.5 novelty but one (4.2, on another pawn).
NOVEL_HIDDEN = 4.5
HIDDEN_PRINT = 0.25
# The white pawn's rival elsewhere keeping this much of its card's print is glare, when his
# own blob hides its card's (under HIDDEN_PRINT). Over DEV seed 5 and fresh 2000-2099 seed
# 23, 3000-3099 seed 11, 6000-6099 seed 43 (`pawn_diag.py --n 240 --per-setup 8`), of 40
# white blobs with a rival elsewhere, 39 were Borea, their print kept -0.30 to 0.20 but one
# (0.39); of their 46 rivals, the 45 where he was not kept 0.56-0.98 (31) or -0.61 to 0.50;
# the one that was Borea kept 0.50 (3014 #115, against a faint blob, itself unsure).
RIVAL_PRINT = 0.6
# x the pawn's learned blob area: the residual's object it stands in. Pawns there 0.7-2.8
# but for one in glare (21.9); where no pawn stood, 1.1-21.8 (median 4.6); a card pasted a
# third of a card off its place (fresh deck 5055 #335, seed 13) was taken for a white pawn.
HIDDEN_OBJECT = 3.0
# FAMILIAR: on a card unlike a coloured pawn, a change short of CLEAR_CHANGE whose colours
# are found on the card within NOVEL_REACH (novelty under NOVEL_HIDDEN, as on a card like
# the pawn) is the card's own art showing otherwise than at calibration, no sure pawn:
# fresh deck 5018 (seed 31 #147), orange art the calibration photo saw pale was named
# Jugo, sure, with none on the table (novelty 4.3). Not for the white or the dark pawn:
# every card has light and dark art near their greys, and light has its own tests
# (_light_only, glare_gone); for all five, real white pawns lost on fresh 3000-3099 and
# 6000-6099 (novelty 2.3-3.4, among the faked: no threshold tells them apart) and one
# regression test failed (6003 #18). Pawns right (`benchmarks/pawn_diag.py --n 240
# --per-setup 8 --read-only`), DEV seed 5 / fresh 3000-3099 s11 / 5000-5099 s31 /
# 6000-6099 s43 / 8000-8099 s19: 733 / 626 / 562 / 693 / 693 -> 733 / 625 / 562 / 693 /
# 693; 5000's phantom gone. Held out: 4000-4099 s13 609 both, wrong 4 -> 3; 7000-7099 s19
# 652 both, phantom 2 -> 1. None missed silently more.
FAMILIAR = NOVEL_HIDDEN


def _coloured(colour: F32) -> bool:
    """Whether a pawn's learned colour (Lab) has a hue: not the white or the dark pawn."""
    return float(np.hypot(colour[1], colour[2])) > GREY_PAWN


def _light_only(seen: F32, exp: F32, colour: F32) -> bool:
    """Whether a grey pawn's window is mostly the card with only its lightness changed: a
    tall pawn's shadow cast over the next card (DEV seed 22 #13: Skyron's shadow read as
    Austro, a phantom), or glare in the calibration photo that is gone now (#102: a white
    cloud under it read as Borea, wrong and sure). Light and shade keep the card's hue
    (scaled by the darkening, or as it was); only the white and the dark pawn can be faked
    so, and one of them on a grey part of a card is then a doubt, not a pawn.
    """
    if _coloured(colour):
        return False
    return float(light_alone(seen, exp).mean()) >= LIGHT_SHARE


def glare_gone(seen: F32, exp: F32, expected: F32, x: float, y: float) -> bool:
    """Whether the window around (x, y) (its pixels ``seen`` over the card ``exp``ected, Lab)
    is card art where the calibration photo had glare: the card expected there near white
    (``GLARE_L``) and much lighter than now (``GLARE_DROP``), what is seen as flat as art
    (``GONE_SPREAD``), and its colours the card's own, found on it within ``GONE_REACH``
    (``NOVEL``). The art's colour shows now and may be a coloured pawn's; a pawn is a shaded
    solid whose colours are new to the card. Fresh deck 7023 (seed 43 #139, #140): orange
    art under the calibration's glare named Jugo, L std 6.4 and 5.8, its colours 4.4 and 2.9
    from the card's; Skyron standing under such glare in #140: L std 12.8, 66."""
    if float(seen[:, 0].std()) >= GONE_SPREAD:
        return False
    if float(median(exp[:, 0] - seen[:, 0])) <= GLARE_DROP:
        return False
    if float(median(exp[:, 0])) < GLARE_L and not faintly_glared(seen, exp):
        return False
    return _novelty(seen, expected, x, y, GONE_REACH) < NOVEL


def faintly_glared(seen: F32, exp: F32) -> bool:
    """Whether the card ``exp``ected (Lab pixels) is what is ``seen`` under glare short of
    white: whitened by ``WHITENED`` at least (the median pixel's share of white, from the
    lightness), its hue kept (``WHITENED_HUE``). Glare in the solved photo that the pawns
    photo did not take off (row 0, see calibration_glare) is often that faint: fresh deck
    5058's salmon island 4, whitened by 0.39 and 0.48 (L 70 and 80), read as a gem in
    every photo of its session; deck 8058's dark green table beside island 3, whitened by
    0.40 (L 54), read as the dark green pawn in three. Art in shade under its own colour
    is whitened far less: a gem in a dim room on dark red art, 0.2-0.23 (fresh decks
    3045, 4012, 8040: L 21-24 under 37-41). Only of colours: a grey whitened is a lighter
    grey, whatever the cause (fresh deck 8003's dark pawn on a grey card, whitened by 0.33,
    was taken for glare gone and missed), so what is seen must have a hue
    (``GLARED_CHROMA``)."""
    if float(np.hypot(*median(seen[:, 1:], axis=0))) < GLARED_CHROMA:
        return False
    white, off = whitening(exp, seen)
    return float(median(white)) >= WHITENED and float(median(off)) < WHITENED_HUE


GLARE_L = 85.0  # L: the card expected near white: glare in the calibration photo (also gems')
GLARE_DROP = 15.0  # L: ...and this much lighter than now
GONE_SPREAD = 8.0  # L std under which what is seen is flat art, no pawn
WHITENED = 0.3  # share of white mixed in by glare short of white (faintly_glared)
WHITENED_HUE = 12.0  # Lab a*b* (city-block): the hue kept under it (5058: 9.6, 5.9; 8058: 7.4)
GLARED_CHROMA = 10.0  # Lab a*b* from grey: a colour whose hue can be kept (5058: 41, 46; 8058: 17)
GONE_REACH = 8  # board px beyond the window where the art's colours are looked for


def whitening(seen: F32, base: F32) -> tuple[F32, F32]:
    """Per pixel (Lab, last axis), ``seen`` as ``base`` whitened (glare): the share of white
    mixed in, ``t`` (from the lightness; 0 where ``seen`` is no lighter), and how far the
    hue seen lies from the base's kept by ``1 - t`` (Lab a*b*, city-block)."""
    # (channel by channel: numpy sums a last axis of two one short loop at a time)
    sl, sa, sb = seen[..., 0], seen[..., 1], seen[..., 2]
    bl, ba, bb = base[..., 0], base[..., 1], base[..., 2]
    t = np.clip((sl - bl) / np.maximum(100.0 - bl, 1.0), 0.0, 1.0)
    kept = 1.0 - t
    off = np.abs(sa - ba * kept) + np.abs(sb - bb * kept)
    return t, off


def light_alone(seen: F32, exp: F32) -> NDArray[np.bool_]:
    """Per pixel (Lab, last axis), whether the card expected there with only its light
    changed explains what is seen: a shadow over it (darker, its hue kept, scaled by the
    darkening or not, down to DEEPEST_SHADE of its lightness) or glare of the calibration
    photo gone (the card seen is the one expected, whitened less)."""
    # (channel by channel: numpy sums a last axis of two one short loop at a time, and the
    # sum of a pair is the same added as two planes)
    sl, sa, sb = seen[..., 0], seen[..., 1], seen[..., 2]
    el, ea, eb = exp[..., 0], exp[..., 1], exp[..., 2]
    scale = sl / np.maximum(el, 1.0)
    # No shadow under room light darkens a card below DEEPEST_SHADE of its lightness: a
    # pixel darker than that is no shadow, though a near-black pixel keeps a grey card's
    # hue whether scaled or not (the dark pawn on a pale grey sky: DEV seed 5 #13, #81).
    shade_ok = scale >= DEEPEST_SHADE
    # glare gone since the calibration: the card expected is the one seen, whitened by t
    t, gone = whitening(exp, seen)
    off = np.minimum(
        np.where(
            shade_ok,
            np.minimum(
                np.abs(sa - ea * scale) + np.abs(sb - eb * scale),
                np.abs(sa - ea) + np.abs(sb - eb),
            ),
            np.inf,
        ),
        np.where(t > 0, gone, np.inf),
    )
    light: NDArray[np.bool_] = (off < SHADOW_HUE) & (np.abs(sl - el) > SHADOW_DROP)
    return light


# Pawns right, DEV seed 22 +2; fresh 3000-3999 / 5000-5999 / 6000-6999 / 7000-7999 +7 / +9 /
# +9 / +2; held-out 8000-8999 +1; no new wrong cell or phantom (DEV seed 22 #25, #56: Austro
# on pink cards left unsure). Any pixel darker than that no shadow (not only the scaled
# hue): pawns right, DEV seeds 5 / 22 +5 / +4; fresh 3000-3999 / 5000-5999 / 6000-6999 /
# 7000-7999 +2 / +6 / +2 / +3; no new wrong cell, in/out confusion or phantom.
DEEPEST_SHADE = 0.45
LIGHT_SHARE = 0.5  # share of a grey pawn's window that light or shade alone explains
UNSURE_WINDOW = 5  # board px around a blob's centre
FAINT = 15.0  # Lab: median change from the card below which a pawn is not sure
MIN_SHARE = 0.6  # share of the window nearest the pawn's colour
LIKE_CARD = 5.0  # sigmas: a card this close to the pawn's colour cannot show it surely...
CLEAR_CHANGE = 24.0  # ...unless the median change from it is this big (Lab). DEV seed 21:
# pawns right 81.0% -> 82.8% with 30 (25: 84.5%, but 20 placed a pawn wrong on seed 22); 24
# once rivals of other colours and unexplained blobs make doubts (pawn_doubts)


def _one_colour_per_object(
    cands: list[list[tuple[float, float, float]]],
    every: list[list[tuple[float, float, float]]],
    geometry: BoardGeometry,
) -> list[list[tuple[float, float, float]]]:
    """Each object once, as its biggest colour: a smaller blob of another pawn's colour on
    top of a bigger blob is part of that object (the dark pawn's glossy highlight looks like
    the white pawn, a light pawn's shaded side like a darker one), even when the bigger
    blob is not pawn-like itself). Two blobs of about the same size on one object do not
    tell which colour it is, so both are kept (see CLEARLY_BIGGER)."""
    reach = SAME * geometry.pitch
    out: list[list[tuple[float, float, float]]] = []
    for i, blobs in enumerate(cands):
        keep = []
        for b in blobs:
            bigger = (
                c
                for j, other in enumerate(every)
                if j != i
                for c in other
                if c[0] > CLEARLY_BIGGER * b[0] and np.hypot(b[1] - c[1], b[2] - c[2]) < reach
            )
            if next(bigger, None) is None:
                keep.append(b)
        out.append(keep)
    return out


CLEARLY_BIGGER = 1.5  # x the area: a dark pawn's shade read as Austro is often no smaller
# than its lit part read as Borea (or the reverse): dropping the smaller of the two lost the
# pawn (DEV seed 22: 77.7% -> 79.8% right with 1.5, no new wrong or phantom; the same
# pawn's two colours landing on one card are resolved in find_pawns)


def _his_pixels(pixels: F32, colours: F32, icovs: F32, austro: int, area: float) -> F32 | None:
    """The pawns' distances from the mean of a blob's pixels of Austro's colour (within
    ``READ_SIGMAS`` of his and nearer his than any other's), when they are ``HIS_PART`` of
    his learned ``area`` or more (half-res px, x4); else None."""
    d = pawn_distances(pixels.astype(np.float32), colours, icovs)
    his = (d[:, austro] < READ_SIGMAS) & (np.argmin(d, axis=1) == austro)
    if 4 * int(his.sum()) < HIS_PART * area:
        return None
    out: F32 = pawn_distances(pixels[his].mean(axis=0)[None].astype(np.float32), colours, icovs)[0]
    return out


def _beside_grid(
    lab: F32, expected: F32, mask: U8, colours: F32, icovs: F32, area: float, g: BoardGeometry
) -> tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]]:
    """Austro standing beside the grid: blobs on the bare table around it, and apart, the
    blobs that would be but which the board's edge cuts.

    The table never changes (fixed camera), so anything there differs from the calibration
    photo whatever its colour; a dark pawn on a dark table differs little in colour but its
    lit top and its shadow do. A blob must stand far above the table's noise somewhere (seeded
    by its strongest pixels) and may grow over the table's own, lower noise around it.

    A blob the board's edge cuts may be the near end of something bigger beyond it, whose
    size is not seen (the bound on a blob not of his colour, ``RING_MAX``, cannot be
    checked): the storm deck laid beside the grid, its back's dark ring cut at the board's
    edge (4.1 sigmas off his colour), was placed as Austro standing by an edge card where
    no Austro played (fresh deck 2019, 2000-2099 seed 23 #158). So a cut blob not of his
    colour (beyond ``READ_SIGMAS``) is only doubted: the edge cell beside it is uncertain
    while he is not seen elsewhere. He himself is cut there at times, with his shadow, of
    his colour (DEV seed 5 #43 and #162, 1.2 and 1.5 sigmas off: doubted as well, they
    were missed).
    """
    # Half resolution: Austro with his shadow is big.
    lab2, exp2 = lab[::2, ::2], expected[::2, ::2]
    p = g.pitch / 2
    o = g.margin * p
    res = colour_distance(cv2.blur(lab2, (3, 3)), cv2.blur(exp2, (3, 3)))
    h, w = res.shape
    a, b = round(o - 0.03 * p), round(o + (SIZE + 0.03) * p)
    inner = np.zeros((h, w), bool)
    inner[max(a, 0) : b, max(a, 0) : b] = True
    table = res[~inner][::3]
    if table.size == 0:
        return [], []
    med = float(median(table))
    mad = float(median(np.abs(table - med))) + 1e-3
    seed_thr = med + SEED_MADS * mad
    grow: U8 = ((res > med + 6.0 * mad) & ~inner).astype(np.uint8)
    grow = cv2.morphologyEx(grow, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    n, labels, stats, cents = components(grow)
    out: list[tuple[float, float, float]] = []
    cut_off: list[tuple[float, float, float]] = []
    austro = CALIBRATION_ORDER.index(Spirit.AUSTRO)
    boxes = stats.tolist()  # (Python ints at once: a numpy row per object costs more)
    for k in range(1, n):
        x0, y0, bw, bh, npx = boxes[k]
        if 4 * npx < RING_MIN * area or 4 * npx > RING_WITH_SHADOW * area:
            continue
        if not compact(bw, bh, npx):
            continue
        sel = labels[y0 : y0 + bh, x0 : x0 + bw] == k
        change = res[y0 : y0 + bh, x0 : x0 + bw][sel]
        if float(change.max()) < seed_thr:
            continue
        pixels = lab2[y0 : y0 + bh, x0 : x0 + bw][sel]
        d = pawn_distances(pixels.mean(axis=0)[None].astype(np.float32), colours, icovs)[0]
        if int(np.argmin(d)) != austro:
            # His shadow is part of the blob and draws its mean towards the table's colour
            # (fresh deck 8022 #132: nearest the white pawn's): his body is the half of it
            # that changed most.
            body = pixels[change >= median(change)].mean(axis=0)
            d = pawn_distances(body[None].astype(np.float32), colours, icovs)[0]
            if int(np.argmin(d)) != austro:
                d = _his_pixels(pixels, colours, icovs, austro, area)
                if d is None:
                    continue
        if 4 * npx > RING_MAX * area and d[austro] > READ_SIGMAS:
            continue  # bigger than he and his shadow, and not his colour: a deck of cards?
        if not _solid_beside(lab2, cents[k][0], cents[k][1], float(colours[austro][0])):
            continue
        table_l = exp2[y0 : y0 + bh, x0 : x0 + bw, 0][sel]
        drop = np.full(table_l.shape, SHADOW_DROP, np.float32)
        cut = x0 == 0 or y0 == 0 or x0 + bw >= w or y0 + bh >= h  # (by the board's edge)
        if not cut:
            # A shadow scales the light: on a near-black table it cannot take SHADOW_DROP
            # off, and the dark pawn there is darker than the table by DARK_SHARE of its
            # L + 16. (Not a blob the board's edge cuts: what lies beyond is not seen.)
            drop = _dark_drop(table_l)
            if float(median(table_l)) < float(colours[austro][0]) and d[austro] < AS_LEARNED:
                # A table darker than the dark pawn himself: his lit facets are lighter
                # than it and his body barely darker, so a blob of his colour as learned
                # need only be darker than the table somewhere (glare, all lighter, is
                # not: fresh deck 3044 #269, a glow beside the grid of his colour and
                # lightness, 0 px darker).
                if float(pixels[:, 0].max()) < colours[austro][0]:
                    # ...and his lit top is at least as light as he was learned, which a
                    # faint glow is not, though noise leaves part of it below the table:
                    # fresh deck 6034 (6000-6099 seed 43 #204), no pawn in the game, a
                    # glow at L 19-30 on a table at 19 (Austro learned at 46), a tenth of
                    # it darker, was placed as Austro. Of 27 Austros beside the grid on
                    # tables darker than he (DEV seeds 5 and 22, fresh 3000-3999 seed 11,
                    # 6000-6099 seed 43), the lightest pixel was 1.19-3.5 times his L.
                    continue
                drop = np.zeros_like(drop)
        darker = pixels[:, 0] < table_l - drop
        if float(darker.mean()) < DARK_PART:
            continue  # all lighter than the table: glare (DEV seed 22 #191, a phantom)
        cx, cy = 2 * float(cents[k][0]) + 0.5, 2 * float(cents[k][1]) + 0.5
        # the blob counts as the learned size at most (its shadow is part of it here)
        blob = (min(4.0 * npx, area), cx, cy)
        (cut_off if cut and d[austro] > READ_SIGMAS else out).append(blob)
    return out, cut_off


def _all_lighter(lab: F32, expected: F32, x: float, y: float, lightness: float) -> bool:
    """Whether the middle of a blob on the bare table (board px) is lighter than the table
    all over: glare, not the dark pawn (whose body or shadow darkens the table somewhere,
    as :func:`_beside_grid` requires of the blobs it finds; ``lightness`` is his learned
    L). A pawn-coloured blob found on the table by colour needs it too: a lamp's glare on
    a near-black table is grey, and was placed as Austro beside the grid while he stood
    on a card (fresh deck 9001 #12)."""
    seen, exp = _around(lab, expected, x, y, UNSURE_WINDOW)
    if len(seen) == 0:
        return False
    table_l = exp[:, 0]
    # (on a table darker than he is, darker at all: see _beside_grid)
    drop = _dark_drop(table_l) if float(median(table_l)) >= lightness else 0.0
    return float((seen[:, 0] < table_l - drop).mean()) < DARK_PART


def _dark_drop(table_l: F32) -> F32:
    """How much darker than the table (its L per pixel) the dark pawn's body or shadow is
    at least: SHADOW_DROP, less on a near-black table (DARK_SHARE of L + 16)."""
    out: F32 = np.minimum(SHADOW_DROP, DARK_SHARE * (table_l + 16.0))
    return out


def _solid_beside(lab2: F32, x: float, y: float, lightness: float) -> bool:
    """Whether the middle of a blob beside the grid looks like the dark pawn (half-res),
    whose learned lightness is ``lightness``.

    A 3D pawn shows its lit top and shaded sides, so its lightness spreads; a shadow or a
    change of exposure over the bare table is flat. Its dark body shows somewhere (glare on
    the table is all light), and red is a supply gem's, not Austro's.
    """
    h, w = lab2.shape[:2]
    r = SOLID_WINDOW
    xi = min(max(round(x), r), w - r - 1)
    yi = min(max(round(y), r), h - r - 1)
    win = lab2[yi - r : yi + r + 1, xi - r : xi + r + 1].reshape(-1, 3)
    light = win[:, 0]
    if float(light.max() - light.min()) < SOLID_SPREAD or float(light.min()) > lightness + DARKEST:
        return False
    red = (win[:, 1] > GEM_RED_A).mean()
    return bool(red < RED_SHARE)


SOLID_WINDOW = 3  # half-res px around the blob's centre
DARK_PART = 0.02  # share of a blob beside the grid darker than the table: the dark pawn's
# body or shadow hides the table somewhere, glare only lightens it (DEV seed 22: glare #191
# 0.0; Austro on a dark table #73 0.10, #77 0.03, both lost with 0.2)
# Of the table's L + 16: how much darker the dark pawn is than a near-black table (SHADOW_DROP
# at L 50; at L 7, 2.8). Austro beside the grid on tables at L 6-11 was missed silently, his
# lit facets all lighter than the table and his body 3-4 L darker (DEV seed 5 #390). Over
# the six diagnosis sets (`pawn_diag.py --read-only --n 480 --per-setup 6`) +8 pawns right,
# all of them Austro there, silent misses 8 fewer, no phantom, wrong or lost pawn more. A
# blob the board's edge cuts keeps SHADOW_DROP: a sliver at the edge on a black table (DEV
# seed 5 #133) otherwise passed and made the real Austro one of "several blobs".
DARK_SHARE = 0.12
AS_LEARNED = 1.5  # Mahalanobis: a blob's mean this close to the dark pawn's learned colour
# (DEV seed 5 #267, #392, fresh 3000-3999 seed 11 #361, #364: Austro on tables at L 6-10,
# 0-1% of his blob darker by DARK_SHARE, 7-37% darker at all; missed silently). Over the
# six diagnosis sets, pawns right +2, +2, +0, +0, +0, +0 and missed silently 4 fewer, no
# pawn wrong or phantom more (without the "darker somewhere" part: a phantom more each on
# 3000-3999 and 5000-5999).
SOLID_SPREAD = 9.0  # L range a standing dark pawn shows at least (top, sides, highlight)
DARKEST = 4.0  # L: its darkest pixel is at most this much lighter than its learned colour
GEM_RED_A = 25.0  # a* of a gem's red...
RED_SHARE = 0.1  # ...over this share of the window: a supply gem, no pawn
RING = 0.7  # cells of table around the grid searched for Austro (the board's margin)
SEED_MADS = 20.0  # a blob beside the grid must somewhere differ this much (x table noise)
SAME = 0.35  # cells: two blobs this close are one object
RING_MIN = 0.4  # x Austro's learned area
HIS_PART = 0.5  # x Austro's learned area: his own pixels in a blob his shadow draws off
RING_MAX = 4.0  # (the pawn with its shadow)
# A blob up to RING_WITH_SHADOW x his area is still Austro when its colour (its mean, or
# its most changed half's) is his learned one within READ_SIGMAS: his long shadow on a
# table of his own darkness joins it (fresh deck 8010 #65, 4.08 x, the whole blob within 3
# sigmas of him, missed silently). Beyond RING_MAX without it, a face-down deck of cards
# beside the grid (fresh deck 7021 #126, #130: 4.2 and 5.4 x, 4.5 sigmas off, no pixel
# within 3) was read as Austro.
RING_WITH_SHADOW = 5.5


MIN_AREA = 0.45  # x the learned area: a smaller blob is a sliver, not a pawn
SMALL_DOUBT = 0.25  # x the learned area: ...but one this big leaves its card in doubt
# The white pawn's lone blob this big, on an object this big (x his learned blob), is his
# lit part (see _white_shrunk)
WHITE_SHRUNK = 0.33
WHITE_OBJECT = (0.7, 2.5)
MAX_AREA = 2.5  # x the learned area: a bigger one is something else
# ...x SMALL_LEARNED of the pawns' median at least: the pawns are of one size, and one
# learned far smaller than the others showed little of his colour at calibration, not a
# smaller body (fresh deck 3022, 3000-3999 seed 11 #132: Borea learned at 108 px where the
# others were 152-276, then missed at 2.59 x that, 1.4 x their median). The smallest blob
# a pawn may be stays his own learned area's share: a sliver of a pawn is no pawn.
# `pawn_diag.py --read-only --n 480 --per-setup 6`, pawns right: DEV seed 5 +1, fresh
# 3000-3999 +1, 5000-5999 +1, 8000-8999 +2, held out 4000-4999 +2, 7000-7999 0; no pawn
# wrong or phantom more.
SMALL_LEARNED = 0.75
BORDER = 0.08  # cells: a foot this close to a cell border makes the cell doubtful
OUTSIDE_REACH = 0.65  # cells beyond the grid's edge where Austro's foot may be


def far_outside(geometry: BoardGeometry, x: float, y: float) -> bool:
    col, row = geometry.board_to_lattice(x, y)
    return bool(
        col < -OUTSIDE_REACH
        or row < -OUTSIDE_REACH
        or col > SIZE + OUTSIDE_REACH
        or row > SIZE + OUTSIDE_REACH
    )
