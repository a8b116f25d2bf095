"""A hand or an arm over the table: a big change around the grid that comes from outside.

Hands and arms reach in over the board image's border. The table itself never changes (the
camera is fixed), so the table around the grid is compared with the calibration photo pixel
by pixel, whatever its pattern. The comparison runs at half the board's resolution: an arm
is big, and the check must stay cheap (it runs on every reading).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine.grid import ALL_CELLS, Cell

from .board import BoardGeometry
from .pixels import components, median
from .profile import Profile
from .residual import objects_mask, residual

# OpenCV's type stubs return loosely typed arrays: the aliases name the intent only.
F32 = NDArray[Any]
U8 = NDArray[Any]


def hand_from_outside(lab: F32, ref: F32, profile: Profile, ref_blur: F32 | None = None) -> bool:
    """Whether something big over the table around the grid reaches the board's border
    (see :func:`hand_outside`)."""
    return hand_outside(lab, ref, profile, ref_blur) is not None


def table_grain(ref: F32) -> tuple[F32, F32]:
    """The calibration board's grain at half resolution (:func:`_detail`) and its local
    energy: the same for every reading of a profile (see :func:`hand_outside`)."""
    detail = _detail(ref[::2, ::2])
    return detail, cv2.blur(detail * detail, (GRAIN_BOX, GRAIN_BOX))


def hand_outside(
    lab: F32,
    ref: F32,
    profile: Profile,
    ref_blur: F32 | None = None,
    ref_grain: tuple[F32, F32] | None = None,
) -> NDArray[np.bool_] | None:
    """Where something big over the table around the grid reaches the board's border: its
    pixels beside the grid (half the board's resolution), or None when there is none.

    ``lab`` is the photo's board (Lab, lighting matched to the calibration's), ``ref`` the
    calibration board. Pawns standing beside the grid (Austro) are small and away from the
    border; glare or a shadow that moved since calibration lets the table's texture show.
    ``ref_blur``, if given, is :func:`.residual.residual_blur` of ``ref[::2, ::2]`` (the same
    for every reading of a profile: made once), and ``ref_grain`` :func:`table_grain` of
    ``ref``.
    """
    g = profile.geometry
    ref_detail, ref_own = table_grain(ref) if ref_grain is None else ref_grain
    lab, ref = lab[::2, ::2], ref[::2, ::2]
    h, w = lab.shape[:2]
    inner = np.zeros((h, w), bool)
    o = round(g.margin * g.pitch / 2)
    inner[o : h - o, o : w - o] = True
    res = residual(lab, ref, ref_blur)
    ring = res[~inner]
    med = float(median(ring[::3]))
    mad = float(median(np.abs(ring[::3] - med))) + 1e-3
    detail = _detail(lab)
    changed = (res > max(med + 8.0 * mad, 0.5 * profile.cross_cost)) & ~inner
    # An arm of the table's own colour changes it little, but hides its grain (DEV hand
    # scenes: 3 arms in 80 over a wooden table of the skin's tone were not seen at all).
    # Looked for on its own, where the light is about the same: glare that clips the grain,
    # or was there at calibration and has moved, is told apart on its change above.
    lost = _grain_lost(detail, ref_detail, ref_own)
    lost &= ~inner & (np.abs(lab[..., 0] - ref[..., 0]) < GRAIN_SAME_L)
    hand: NDArray[np.bool_] | None = None
    cell_area = (g.pitch / 2) ** 2
    for m in (changed, lost):
        if int(np.count_nonzero(m)) <= BIG * cell_area:
            continue  # (nothing big enough there: the common case, made cheap)
        for region in _big_from_border(m, cell_area):
            need = GLARE_SEE_THROUGH if _added_light(lab, ref, region) else SEE_THROUGH
            if not _see_through(detail, ref_detail, region, need):
                hand = region if hand is None else hand | region
    return hand


def _big_from_border(mask: NDArray[np.bool_], cell_area: float) -> list[NDArray[np.bool_]]:
    """The big parts of ``mask`` (opened) that reach the board's border."""
    m = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = components(m)
    if n <= 1:
        return []
    edge = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    big = [k for k in edge if k != 0 and stats[k, cv2.CC_STAT_AREA] > BIG * cell_area]
    return [labels == k for k in big]


# What a reason refusing a photo for a hand starts with (the referee counts such photos)
HAND_OVER = "hand or object over the cards"
BIG = 0.4  # cells: what reaches in from the border at least this big is no pawn


SEE_THROUGH = 0.6  # correlation of the table's fine detail with the calibration's...
MIN_TEXTURE = 1.0  # ...where the table has at least this much of it (L, standard deviation)
# Glare is light added on top of the table: brighter everywhere, no more colourful. Its own
# steep slope and the clipped pixels at its heart blur the detail (a lamp's reflection
# that moved beside the grid correlated 0.53), so less correlation is asked of it. Hands
# and sleeves that happen to be brighter and greyer than the table hide its texture
# entirely (correlation under 0.1 on the DEV decks' hand scenes).
GLARE_SEE_THROUGH = 0.4
GLARE_MIN_GAIN = 0.0  # L: the 5th percentile of the brightening must be above this...
GLARE_MAX_CHROMA = 2.0  # ...and the median chroma may grow by this much at most


def _added_light(lab: F32, ref: F32, region: NDArray[np.bool_]) -> bool:
    """Whether ``region`` changed as glare does: brighter throughout, and no more colourful."""
    gain = lab[..., 0][region] - ref[..., 0][region]
    if float(np.percentile(gain, 5)) <= GLARE_MIN_GAIN:
        return False
    chroma = np.hypot(lab[..., 1][region], lab[..., 2][region])
    ref_chroma = np.hypot(ref[..., 1][region], ref[..., 2][region])
    return float(median(chroma) - median(ref_chroma)) <= GLARE_MAX_CHROMA


def _detail(lab: F32) -> F32:
    """The fine detail of the lightness (grain, weave, print), the light's slopes removed."""
    return _fine(np.ascontiguousarray(lab[..., 0]))


def _fine(light: F32) -> F32:
    """:func:`_detail` of a lightness image."""
    out: F32 = light - cv2.GaussianBlur(light, (0, 0), 2.0)
    return out


def _print_shows(light: F32, expected_light: F32) -> NDArray[np.bool_]:
    """Where the cards' printed detail (``expected_light``, clearly there) still shows in
    ``light``: a shadow or another light scales it, a hand hides it."""
    now, then = _fine(np.ascontiguousarray(light)), _fine(np.ascontiguousarray(expected_light))
    then_own = cv2.blur(then * then, (GRAIN_BOX, GRAIN_BOX))
    corr = _local_correlation(now, then, then_own)
    out: NDArray[np.bool_] = (corr > PRINT_SHOWS) & (then_own > MIN_TEXTURE**2)
    return out


PRINT_SHOWS = 0.5  # local correlation of the print with the expected card's: seen, not hidden


def _local_correlation(detail: F32, ref_detail: F32, ref_own: F32) -> F32:
    """The local correlation of two detail images (a box of ``GRAIN_BOX`` px around each
    pixel), given ``ref_own``, the local energy of ``ref_detail``."""
    k = (GRAIN_BOX, GRAIN_BOX)
    both = cv2.blur(detail * ref_detail, k)
    own = cv2.blur(detail * detail, k)
    corr: F32 = both / np.sqrt(own * ref_own + 1e-6)
    return corr


def _grain_lost(detail: F32, ref_detail: F32, ref_own: F32) -> NDArray[np.bool_]:
    """Where the table's grain (``ref_detail``, clearly there) no longer shows in ``detail``:
    their local correlation (a few millimetres around each pixel) is near none. Shadows and
    a change of light scale the grain and keep it; glare that clips it is judged apart
    (:func:`_added_light`)."""
    corr = _local_correlation(detail, ref_detail, ref_own)
    out: NDArray[np.bool_] = (corr < GRAIN_LOST) & (ref_own > MIN_TEXTURE**2)
    return out


GRAIN_BOX = 9  # px: two fifths of a card's width on the half board, a fifth on the board
GRAIN_LOST = 0.3  # local correlation of the grain with the calibration's under which it is gone
GRAIN_SAME_L = 8.0  # L: an arm that changes the light more is seen by its change alone


def _see_through(
    detail: F32, ref_detail: F32, region: NDArray[np.bool_], need: float = SEE_THROUGH
) -> bool:
    """Whether the table's own texture still shows in ``region``: glare or a shadow that
    moved between photos changes the light there but hides nothing, while a hand or an arm
    hides the table. A plain table cannot tell them apart: then it is not see-through."""
    a, b = detail[region], ref_detail[region]
    if float(b.std()) < MIN_TEXTURE:
        return False
    corr = float(((a - a.mean()) * (b - b.mean())).mean()) / (float(a.std() * b.std()) + 1e-6)
    return corr > need


def hand_reach(
    res: F32,
    floor: float,
    card_light: F32,
    arm: NDArray[np.bool_] | None,
    hidden_cards: list[Cell],
    geometry: BoardGeometry,
    light: F32 | None = None,
    expected_light: F32 | None = None,
) -> tuple[NDArray[np.bool_], set[Cell]]:
    """The reach of a hand (:func:`hand_over_cards`) from ``res``, the board's residual
    against the cards expected (``floor``: the least change that counts), ``card_light``,
    each expected card's light shift (:func:`.residual.relight_cards`), and where the hand was
    seen first: the ``arm`` beside the grid, else the ``hidden_cards``.

    With ``light`` and ``expected_light`` (the board's L now and the expected board's), the
    change where the cards' print still shows through (a shadow, a dimmer light) is no hand.
    """
    # (a hand is big: less of a change than a pawn's is enough to follow it)
    changed = objects_mask(res, floor, HAND_MADS)
    # Each expected card was shifted to the light on it now, its median change: over a card
    # the hand hides, that made the card look like the hand. Such a card's light is unlike
    # the others' (the room's light changes smoothly), and all of it changed.
    odd_cards = relit_by_hand(card_light)
    changed[cards_region(odd_cards, geometry, changed.shape, 1, CARD_INSET)] = 1
    if light is not None and expected_light is not None:
        # The hand's shadow and a dim photo's noise change the cards too, and joined to the
        # hand they spread its reach over cards it never touched (DEV hand scenes: a fifth
        # of the visible cards doubted). Where the print still shows, nothing hides it.
        changed[_print_shows(light, expected_light)] = 0
    # Cards hidden entirely (print and colours both unlike their island's) are where a hand
    # is when none was seen beside the grid: an arm over a patterned table, in its own
    # shadow, can hide too little of the table for the check.
    seed = arm
    if seed is None:
        half = changed[::2, ::2]
        seed = cards_region(hidden_cards, geometry, half.shape) & (half > 0)
    return hand_over_cards(changed, seed, geometry)


def relit_by_hand(card_light: F32) -> list[Cell]:
    """The cards whose expected light (``card_light``, each card's light shift, see
    :func:`.residual.relight_cards`) is unlike the others': relit to what hides them."""
    odd = np.linalg.norm(card_light - median(card_light, axis=0), axis=1) > HAND_LIGHT
    return [ALL_CELLS[i] for i in np.flatnonzero(odd)]


def hand_over_cards(
    mask: U8, outside: NDArray[np.bool_], geometry: BoardGeometry
) -> tuple[NDArray[np.bool_], set[Cell]]:
    """The hand's whole reach (board px) and the cards it may hide.

    ``outside`` is where the hand was seen first (half resolution): beside the grid
    (:func:`hand_outside`), or over the cards it hides entirely; ``mask`` is what differs
    from the cards expected (full resolution). The arm continues over the cards as the
    mask's parts that touch it; a margin around them (fingertips, the hand's shadow, a card
    it is pushing) is its reach too, and every card the reach touches is in doubt: the rest
    of the table reads as if the hand were not there.
    """
    h, w = mask.shape[:2]
    m2 = np.ascontiguousarray(mask[::2, ::2])
    n, labels, _, _ = components(m2)
    region = outside.astype(np.uint8)
    # The hand over the cards breaks into pieces (a wrist over a card of its own colour,
    # fingers apart): pieces within a gap of what is the hand already are the hand too.
    bridge = _disc(HAND_GAP * geometry.pitch / 2)
    for _ in range(HAND_STEPS):
        keep = np.zeros(n, bool)
        keep[np.unique(labels[cv2.dilate(region, bridge) > 0])] = True
        keep[0] = False
        grown_region = (outside | keep[labels]).astype(np.uint8)
        if np.array_equal(grown_region, region):
            break
        region = grown_region
    grown = cv2.dilate(region, _disc(HAND_MARGIN * geometry.pitch / 2))
    reach: NDArray[np.bool_] = np.repeat(np.repeat(grown > 0, 2, axis=0), 2, axis=1)[:h, :w]
    cells = {
        c
        for c in ALL_CELLS
        if float(grown[cards_region([c], geometry, grown.shape)].mean()) > HAND_TOUCH
    }
    return reach, cells


def cards_region(
    cells: list[Cell],
    geometry: BoardGeometry,
    shape: tuple[int, ...],
    scale: int = 2,
    inset: float = 0.0,
) -> NDArray[np.bool_]:
    """The cells' squares, ``inset`` cells in from each side, on a board of ``shape`` at
    1/``scale`` of the board's resolution."""
    out: NDArray[np.bool_] = np.zeros(shape[:2], bool)
    side = geometry.pitch / scale
    o = geometry.margin * side
    for row, col in cells:
        y0, x0 = round(o + (row + inset) * side), round(o + (col + inset) * side)
        y1, x1 = round(o + (row + 1 - inset) * side), round(o + (col + 1 - inset) * side)
        out[y0:y1, x0:x1] = True
    return out


def _disc(radius: float) -> U8:
    r = max(1, round(radius))
    out: U8 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    return out


# Lab: a card whose light changed this much more than the cards' median change is hidden by
# what is over it (a hand's palm), not lit differently
HAND_LIGHT = 15.0
HAND_MADS = 3.0  # the board's noise (median absolute deviations) a hand's change is above
CARD_INSET = 0.08  # cells: the part of a cell its card surely covers, in from each side
HAND_MARGIN = 0.1  # cells around what the hand changed that are its reach too
HAND_GAP = 0.25  # cells: a change this close to the hand is part of it
HAND_STEPS = 4  # pieces joined one after another (wrist, palm, fingers)
# Share of a card within the hand's reach that puts the card in doubt. In hand-only scenes
# (DEV seed 41, fresh 6000-6999 seed 43) every card the hand hides a tenth of had over 0.06
# of it in the reach (unless the hand was not seen at all); 0.02 left 95 more of the cards
# it did not cover null, and 0.06 misses no more pawns or gems silently (held out, fresh
# 8000-8999 seed 47: nulls 243 -> 202 of 1632, all else the same).
HAND_TOUCH = 0.06
