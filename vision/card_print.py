"""Each card's print rectified straight from the photo, at a resolution where numbers read.

The board image has cards ~40 px wide and the fine board ~80: colours and big art show,
but a deck whose same-coloured cards differ only by a small printed number needs that
number legible, and it is often only 10-20 photo pixels tall. So each card is cut out of
the photo itself along its calibrated corners (a homography per card: card axes -> board
-> photo), at about two thirds of the photo's own resolution (the most the lens gives,
while fewer pixels keep the comparison cheap).

A card later put in a cell sits a little off the calibrated corners (players nudge cards).
All cards of a deck share their outline and their printed frame, so each cell's crop is
aligned on its edges (row and column profiles of the gradient) against the deck's mean
card, whichever island it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from .board import BoardGeometry
from .card_identity import soften
from .pixels import Resampling, noise_photo, strided, warp_samples

F32 = NDArray[Any]
F64 = NDArray[Any]
U8 = NDArray[Any]

PAD = 16  # print px of table kept around the card: room for its nudge and its outline
SCALE = 0.65  # print px per photo px along the card's height
MIN_HEIGHT, MAX_HEIGHT = 72, 128  # print px: a card's height on its print
SIGMA = 1.0  # print px: noise and moire blurred away, strokes of the digits kept
LIGHT_BOX = 13  # print px: anything smoother is the light on the card, not its print
# A deck's side edges must be this strong against the strongest edge near them, and against
# the profile's typical value (DEV: well-framed decks 6-99x; a deck framed 10-100 px off, 2-3x;
# 4.5 refused DEV seed 21 session 26's free fit, its cards' dark bottoms on a dark table
# at 4.3x, corners 0.9 px off at the median, and kept the rigid one, 3.8 px off, which
# misread islands 14 and 19 as each other)
MIN_SIDE = 0.35
SIDE_OVER_TYPICAL = 4.0
# A fainter outline still at the sides (a border the colour of the table, or an inner frame
# of the art far stronger than the paper's edge) can be trusted only where every card's own
# print agrees with it (calibrate.py). Fresh decks 8000-8999 and 9000-9999: such decks stood
# out 0.18-0.61 of the nearby strongest edge and 3.2-9.3x the typical; a deck framed 10 px
# off has no edge within the tolerance at all.
# Busy art makes the typical edge strong: fresh deck 3029 (black borders on dark wood,
# every card's print on the outline) stood out 1.8x the typical at its top side, and was
# refused at 3.0; accepted, its corners are 1.0 photo px off at the median (4.2 at most)
# and its six photos read 150 cells of 150. A deck framed off has no edge at its sides,
# nearer 1x the typical.
FAINT_SIDE = 0.15
FAINT_OVER_TYPICAL = 1.5
MIN_OUTLINE = 0.4  # a card's sides must match the deck's this well (share of the deck's own)
REACH = 9  # print px (~7 mm) a card may sit off its calibrated place and still be aligned
# A card whose outline fits FAR_OVER times better up to BEYOND print px off than anywhere
# inside the reach lies beyond it: its window holds the table, a gap or a neighbour's side,
# and what fits inside the reach is one of those (fresh decks: silent misreads).
BEYOND = 13
FAR_OVER = 1.25
# Two alignments at least TIE_APART print px apart that fit nearly as well (TIE of the
# best): the outline is not told from something like it (a stripe of the table, the gap to a
# neighbour), and which of the two frames the card is a guess.
TIE = 0.9
TIE_APART = 3
# A deck whose cards have a thin light border and then a coloured frame has two outlines a
# frame's width apart, and which is the stronger depends on the frame's colour against
# the table (fresh designs 9032: 6-9 print px, on a quarter of the cards). The next
# alignment at least TIE_APART px from the best that matches at least ALT_PEAK of it is
# kept as the card's second candidate; its print then decides (print_identity.evidence).
# Fresh design 5016 has three (its frame, its border and a line inside): with ALT_PEAK 0.5
# two of its cards each met the other's island at the outline their own island's print was
# not cut at, and the two were swapped silently (cell_diag.py --designs 5016-5016 --n 96
# --per-setup 6, seeds 13, 21 and 23: 3 silent misreads; at 0.2 none, and 5 cards of 5751
# fewer read).
ALT_PEAK = 0.2
# A calibration print's sides are each matched within SIDE_GIVE print px of its axis's
# alignment (weakest_sides). DEV design 13's side is a thin light line beside a tight
# neighbour: islands 2 and 8 of DEV seed 5 session 104, a pixel off on one side, matched
# -0.21 and -0.13 of the deck's there and 0.14 and 0.83 a pixel over, and were learnt as
# unframed, 44 cells of its eight photos left null. With the pixel, DEV seed 5 reads 98.0%
# -> 98.9% of visible cells, fresh decks 5000-5999 (seed 13) 97.5% -> 97.8% and 6000-6999
# (seed 17) 97.8% -> 97.9%, 3000-3999 as before; no wrong island sure on any of them.
SIDE_GIVE = 1


def print_size(quads: F64, geometry: BoardGeometry) -> tuple[int, int]:
    """(w, h) print px of a whole card for this profile's camera."""
    photo = geometry.board_to_image(quads.reshape(-1, 2)).reshape(-1, 4, 2)
    w = float(np.median(np.linalg.norm(photo[:, 1] - photo[:, 0], axis=1)))
    h = float(np.median(np.linalg.norm(photo[:, 3] - photo[:, 0], axis=1)))
    height = int(np.clip(round(SCALE * h), MIN_HEIGHT, MAX_HEIGHT))
    return max(8, round(height * w / h)), height


def print_maps(quads: F64, geometry: BoardGeometry, size: tuple[int, int]) -> list[F64]:
    """Per card, the homography from its print (card plus ``PAD``) to photo pixels."""
    w, h = size
    dst = np.array([[PAD, PAD], [PAD + w, PAD], [PAD + w, PAD + h], [PAD, PAD + h]], np.float32)
    to_image = geometry.lattice_to_image @ np.linalg.inv(geometry.lattice_to_board())
    out = []
    for q in quads:
        src = geometry_points(to_image, q)
        out.append(np.asarray(cv2.getPerspectiveTransform(dst, src), np.float64))
    return out


def geometry_points(m: F64, pts: F64) -> NDArray[np.float32]:
    out: NDArray[np.float32] = (
        cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), m)
        .reshape(-1, 2)
        .astype(np.float32)
    )
    return out


# The one-channel image prints are cut from, first the one tried. Grey shows most of a
# card's art; the others are for decks whose border is as light as the table in grey (a
# yellow or pale border on a white or grey table, fresh decks 3023, 3024 and 3026): "least"
# (the darkest of B, G and R) keeps a white or grey table bright and darkens any hue, and
# blue darkens yellows, oranges and reds whatever the table (fresh deck 3078, on purple
# cloth). Green and red found no outline these three missed (fresh 3000-3999 seed 11 and
# 5000-5999 seed 13).
PRINT_CHANNELS = ("grey", "least", "blue")


def print_grey(photo_bgr: U8, channel: str = "grey") -> U8:
    """The photo as the one channel prints are cut from (see ``PRINT_CHANNELS``)."""
    if channel == "least":
        b, g, r = cv2.split(photo_bgr)
        least: U8 = cv2.min(cv2.min(b, g), r)
        return least
    if channel == "blue":
        blue: U8 = cv2.extractChannel(photo_bgr, 0)
        return blue
    grey: U8 = cv2.cvtColor(photo_bgr, cv2.COLOR_BGR2GRAY)
    return grey


def cut_prints(photo_bgr: U8, maps: list[F64], size: tuple[int, int], channel: str = "grey") -> U8:
    """(cards, h + 2 PAD, w + 2 PAD) prints of the photo (one channel), one per map."""
    # One conversion of the photo costs less than converting 25 colour crops.
    return cut_plane(print_grey(photo_bgr, channel), maps, size)


def cut_plane(plane: U8, maps: list[F64], size: tuple[int, int]) -> U8:
    """(cards, h + 2 PAD, w + 2 PAD) prints of a one-channel image of the photo."""
    w, h = size
    dsize = (w + 2 * PAD, h + 2 * PAD)
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    out = [
        cv2.warpPerspective(plane, m, dsize, flags=flags, borderMode=cv2.BORDER_REPLICATE)
        for m in maps
    ]
    return np.stack(out)


class PrintCutter:
    """:func:`cut_prints` for one profile's maps, the same prints for less: the grey taken
    of the part of the photo the cards lie in only, and the 25 warps made one remap.

    The remap reads exactly the points each warp samples (:func:`.pixels.warp_samples`);
    where the maps reach too near the photo's edge for that, or the two disagree on a
    noise photo (an OpenCV that computes the points otherwise; ``noise``: the photo
    :func:`.pixels.noise_photo` gives, if made already), the warps are kept.
    """

    def __init__(
        self,
        maps: list[F64],
        size: tuple[int, int],
        photo_size: tuple[int, int],
        noise: U8 | None = None,
        channel: str = "grey",
    ) -> None:
        w, h = size
        self.maps, self.size, self.channel = maps, size, channel
        self.shape = (len(maps), h + 2 * PAD, w + 2 * PAD)
        self.resample: Resampling | None = None
        points = warp_samples(maps, (w + 2 * PAD, h + 2 * PAD), photo_size) if maps else None
        if points is None:
            return
        self.resample = Resampling.of(*points)
        noise = noise_photo(photo_size) if noise is None else noise
        if not np.array_equal(self(noise), cut_prints(noise, maps, size, channel)):
            self.resample = None

    def __call__(self, photo_bgr: U8) -> U8:
        """``cut_prints(photo_bgr, maps, size, channel)``."""
        r = self.resample
        if r is None:
            return cut_prints(photo_bgr, self.maps, self.size, self.channel)
        grey = print_grey(photo_bgr[r.y0 : r.y1, r.x0 : r.x1], self.channel)
        return r(grey).reshape(self.shape)


def detail(prints: U8) -> F32:
    """The printed detail of each print: light and noise removed (see :func:`soften`)."""
    return np.stack(
        [soften(p.astype(np.float32), sigma=SIGMA, light_box=LIGHT_BOX) for p in prints]
    )


def edge_profiles(prints: U8) -> tuple[F32, F32]:
    """(cards, width) and (cards, height) profiles of vertical and horizontal edges.

    Signed: the deck's outline against the table has one polarity all round, a card's art
    does not line up from card to card. Each is taken over the middle of the card only, so
    that the neighbours' edges beyond its corners count little. (The mean of a derivative
    is the derivative of the mean: one smoothed 1-D gradient per profile.)
    """
    _, H, W = prints.shape
    p = prints.astype(np.float32)
    cols = p[:, H // 4 : H - H // 4].mean(axis=1)
    rows = p[:, :, W // 4 : W - W // 4].mean(axis=2)
    return _gradient(cols), _gradient(rows)


def _gradient(profiles: F32) -> F32:
    smooth = cv2.GaussianBlur(profiles, (0, 0), sigmaX=1.0, sigmaY=0.01)
    out: F32 = np.gradient(smooth, axis=1)
    return out


def _edge_weights(n: int, reach: int, side: int | None = None) -> F32:
    """Where a profile is compared: near the card's two sides only (``PAD`` from each end),
    or near one of them (``side`` 0: the first, 1: the second).

    The card's inside differs from island to island and would pull the alignment towards
    whatever its art lines up with.
    """
    x = np.arange(n)
    first = np.abs(x - PAD) <= reach + 4
    second = np.abs(x - (n - 1 - PAD)) <= reach + 4
    near = first | second if side is None else (first, second)[side]
    return near.astype(np.float32)


def _scores(profiles: F32, ref: F32, reach: int, near: int = REACH, side: int | None = None) -> F32:
    """(cards, 2 reach + 1): match of profile[x + d] with ref[x] within ``near`` + 4 of the
    sides (or of one ``side``), d = -reach..reach."""
    n = len(ref)
    core = ref[reach : n - reach] * _edge_weights(n, near, side)[reach : n - reach]
    # sliding_window_view(profiles, n - 2 reach, axis=1), built directly
    cards, length = profiles.shape
    step_card, step_x = profiles.strides
    windows = strided(
        profiles, (cards, length - (n - 2 * reach) + 1, n - 2 * reach), (step_card, step_x, step_x)
    )
    out: F32 = windows @ core
    return out


def medoid(profiles: F32, reach: int = REACH) -> int:
    """The profile that agrees best with all the others at their best shifts: a sharp first
    reference for registering a deck whose calibrated corners are a few pixels off."""
    total = [float(_scores(profiles, ref, reach).max(axis=1).sum()) for ref in profiles]
    return int(np.argmax(total))


@dataclass(frozen=True)
class Registration:
    """How each card's print lies on the deck's outline."""

    shift: NDArray[np.intp]  # (cards, 2) print px (dx, dy) off its calibrated place
    found: NDArray[np.bool_]  # (cards,) a clear match of the deck's outline, inside the reach
    strength: F32  # (cards,) the weaker axis's match, as a share of the deck's own
    # (cards, 2) per axis, the second-best alignment (a local peak, ALT_PEAK of the best at
    # least, inside the reach), or the best where there is none
    alt: NDArray[np.intp]


def register(prints: U8, ref_cols: F32, ref_rows: F32, reach: int = REACH) -> Registration:
    """Each card's print registered on the deck's mean outline (``ref_cols``, ``ref_rows``).

    A card framed wrong (its calibrated corners far off, something over its sides) would
    be compared on whatever lies in its window: the table and its neighbours, which stay
    in place from photo to photo and would pass for the card that lay there at
    calibration. So the outline is found only when its best match lies strictly inside
    the reach, matches the deck's well enough, has no rival alignment nearly as good, and
    no better one just beyond the reach.
    """
    cols, rows = edge_profiles(prints)
    found = np.ones(len(prints), bool)
    shift, strength, alt = [], [], []
    for profiles, ref in ((cols, ref_cols), (rows, ref_rows)):
        sc = _scores(profiles, ref, reach)
        d = np.argmax(sc, axis=1)
        best = sc[np.arange(len(prints)), d]
        own = _self_score(ref, reach)
        found &= (d > 0) & (d < 2 * reach) & (best >= MIN_OUTLINE * own)
        found &= ~_tied(sc, d) & ~_beyond(profiles, ref, reach)
        shift.append(d - reach)
        strength.append(best / max(own, 1e-6))
        alt.append(_second_peak(sc, d) - reach)
    return Registration(
        shift=np.stack(shift, axis=1).astype(np.intp),
        found=found,
        strength=np.minimum(*strength).astype(np.float32),
        alt=np.stack(alt, axis=1).astype(np.intp),
    )


def _second_peak(scores: F32, best: NDArray[np.intp]) -> NDArray[np.intp]:
    """(cards,) the best local peak ``TIE_APART`` px or more from ``best`` that matches at
    least ``ALT_PEAK`` of it and lies strictly inside the reach; ``best`` where none does."""
    n = scores.shape[1]
    d = np.arange(n)
    peak = np.zeros(scores.shape, bool)
    peak[:, 1:-1] = (scores[:, 1:-1] >= scores[:, :-2]) & (scores[:, 1:-1] >= scores[:, 2:])
    top = scores[np.arange(len(best)), best]
    ok = peak & (np.abs(d[None, :] - best[:, None]) >= TIE_APART)
    ok &= (scores >= ALT_PEAK * top[:, None]) & (top[:, None] > 0)
    masked = np.where(ok, scores, -np.inf)
    second = np.argmax(masked, axis=1)
    out: NDArray[np.intp] = np.where(ok.any(axis=1), second, best)
    return out


def side_matches(prints: U8, ref_cols: F32, ref_rows: F32, reach: int = REACH) -> F32:
    """(cards, 4, 2 reach + 1): how well each of a print's sides (left, right, top,
    bottom) matches the deck's at each shift -reach..reach, as a share of the deck's own
    side."""
    cols, rows = edge_profiles(prints)
    sides = []
    for profiles, ref in ((cols, ref_cols), (rows, ref_rows)):
        for side in (0, 1):
            one = _scores(profiles, ref, reach, side=side)
            sides.append(one / max(_self_score(ref, reach, side=side), 1e-6))
    out: F32 = np.stack(sides, axis=1)
    return out


def weakest_sides(
    prints: U8, ref_cols: F32, ref_rows: F32, shift: NDArray[np.intp], reach: int = REACH
) -> F32:
    """(cards,) the weakest of each print's four sides' matches with the deck's outline
    within ``SIDE_GIVE`` print px of ``shift`` (as :func:`register` gives it), each as a
    share of the deck's own side.

    An axis can match well on one side alone: a neighbour's edge where the card's should
    be, and nothing where its other side should be. Each side is allowed a pixel of its
    own: a card a pixel narrower or turned a little has its sides a pixel either way of the
    axis's alignment, and a deck whose side is a thin frame line matches nothing a pixel
    off it (see ``SIDE_GIVE``).
    """
    sides = side_matches(prints, ref_cols, ref_rows, reach)
    every = np.arange(len(prints))
    last = sides.shape[2] - 1
    at = [
        np.max(
            [
                sides[every, s, np.clip(shift[:, s // 2] + reach + d, 0, last)]
                for d in range(-SIDE_GIVE, SIDE_GIVE + 1)
            ],
            axis=0,
        )
        for s in range(4)
    ]
    out: F32 = np.min(at, axis=0)
    return out


def _tied(scores: F32, best: NDArray[np.intp]) -> NDArray[np.bool_]:
    """Whether another alignment ``TIE_APART`` px or more from the best nearly matches it."""
    d = np.arange(scores.shape[1])
    far = np.abs(d[None, :] - best[:, None]) >= TIE_APART
    top = scores[np.arange(len(best)), best]
    rival = np.where(far, scores, -np.inf).max(axis=1)
    out: NDArray[np.bool_] = (top > 0) & (rival >= TIE * top)
    return out


def _beyond(profiles: F32, ref: F32, reach: int) -> NDArray[np.bool_]:
    """Whether the outline fits ``FAR_OVER`` times better ``reach``..``BEYOND`` px off than
    inside the reach (both scored on the same window, so that they compare)."""
    wide = _scores(profiles, ref, BEYOND)
    d = np.abs(np.arange(wide.shape[1]) - BEYOND)
    inside = wide[:, d <= reach].max(axis=1)
    outside = wide[:, d > reach].max(axis=1)
    out: NDArray[np.bool_] = outside > FAR_OVER * np.maximum(inside, 1e-6)
    return out


def align(
    prints: U8, ref_cols: F32, ref_rows: F32, reach: int = REACH
) -> tuple[NDArray[np.intp], NDArray[np.bool_]]:
    """(cards, 2) print px (dx, dy) by which each card lies off its calibrated place, and
    whether its outline was found at all (see :func:`register`)."""
    reg = register(prints, ref_cols, ref_rows, reach)
    return reg.shift, reg.found


def outline_at_sides(
    ref: F32,
    tolerance: int = 2,
    share: float = MIN_SIDE,
    over_typical: float = SIDE_OVER_TYPICAL,
) -> bool:
    """Whether a deck's mean edge profile has the card's sides where its corners put them.

    Registration is relative (every card against the deck's mean): corners wrong by the
    same amount on every card (a card size measured wrong) would frame every print alike
    and pass it. The deck's own sides must stand out at ``PAD`` from each end: at least
    ``share`` of the strongest edge of their half and ``over_typical`` x the median.
    """
    n = len(ref)
    mag = np.abs(ref)
    typical = float(np.median(mag)) + 1e-6
    for side in (PAD, n - 1 - PAD):
        half = mag[: n // 2] if side < n // 2 else mag[n // 2 :]
        near = float(mag[max(0, side - tolerance) : side + tolerance + 1].max())
        if near < share * float(half.max()) or near < over_typical * typical:
            return False
    return True


def _self_score(ref: F32, reach: int, side: int | None = None) -> float:
    return float(_scores(ref[None], ref, reach, side=side)[0, reach])
