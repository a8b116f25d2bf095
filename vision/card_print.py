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

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from .board import BoardGeometry
from .card_identity import soften

F32 = NDArray[Any]
F64 = NDArray[Any]
U8 = NDArray[Any]

PAD = 16  # print px of table kept around the card: room for its nudge and its outline
SCALE = 0.65  # print px per photo px along the card's height
MIN_HEIGHT, MAX_HEIGHT = 72, 128  # print px: a card's height on its print
SIGMA = 1.0  # print px: noise and moire blurred away, strokes of the digits kept
LIGHT_BOX = 13  # print px: anything smoother is the light on the card, not its print
# A deck's side edges must be this strong against the strongest edge near them, and against
# the profile's typical value (DEV: well-framed decks 6-99x; a deck framed 10-100 px off, 2-3x)
MIN_SIDE = 0.35
SIDE_OVER_TYPICAL = 4.5
MIN_OUTLINE = 0.4  # a card's sides must match the deck's this well (share of the deck's own)
REACH = 9  # print px (~7 mm) a card may sit off its calibrated place and still be aligned


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


def cut_prints(photo_bgr: U8, maps: list[F64], size: tuple[int, int]) -> U8:
    """(cards, h + 2 PAD, w + 2 PAD) grey prints of the photo, one per map."""
    w, h = size
    dsize = (w + 2 * PAD, h + 2 * PAD)
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    # One grey conversion of the photo costs less than converting 25 colour crops.
    grey = cv2.cvtColor(photo_bgr, cv2.COLOR_BGR2GRAY)
    out = [
        cv2.warpPerspective(grey, m, dsize, flags=flags, borderMode=cv2.BORDER_REPLICATE)
        for m in maps
    ]
    return np.stack(out)


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


def _edge_weights(n: int, reach: int) -> F32:
    """Where a profile is compared: near the card's two sides only (``PAD`` from each end).

    The card's inside differs from island to island and would pull the alignment towards
    whatever its art lines up with.
    """
    x = np.arange(n)
    near = (np.abs(x - PAD) <= reach + 4) | (np.abs(x - (n - 1 - PAD)) <= reach + 4)
    return near.astype(np.float32)


def _scores(profiles: F32, ref: F32, reach: int) -> F32:
    """(cards, 2 reach + 1): match of profile[x + d] with ref[x] near the sides, d = -reach.."""
    n = len(ref)
    core = ref[reach : n - reach] * _edge_weights(n, reach)[reach : n - reach]
    windows = np.lib.stride_tricks.sliding_window_view(profiles, n - 2 * reach, axis=1)
    out: F32 = windows @ core
    return out


def medoid(profiles: F32, reach: int = REACH) -> int:
    """The profile that agrees best with all the others at their best shifts: a sharp first
    reference for registering a deck whose calibrated corners are a few pixels off."""
    total = [float(_scores(profiles, ref, reach).max(axis=1).sum()) for ref in profiles]
    return int(np.argmax(total))


def align(
    prints: U8, ref_cols: F32, ref_rows: F32, reach: int = REACH
) -> tuple[NDArray[np.intp], NDArray[np.bool_]]:
    """(cards, 2) print px (dx, dy) by which each card lies off its calibrated place, and
    whether its outline was found at all: a clear match of the deck's, inside the reach.

    A card framed wrong (its calibrated corners far off, something over its sides) would
    be compared on whatever lies in its window: the table and its neighbours, which stay
    in place from photo to photo and would pass for the card that lay there at
    calibration.
    """
    cols, rows = edge_profiles(prints)
    sx, sy = _scores(cols, ref_cols, reach), _scores(rows, ref_rows, reach)
    dx, dy = np.argmax(sx, axis=1), np.argmax(sy, axis=1)
    n = np.arange(len(prints))
    found = (
        (dx > 0)
        & (dx < 2 * reach)
        & (dy > 0)
        & (dy < 2 * reach)
        & (sx[n, dx] >= MIN_OUTLINE * _self_score(ref_cols, reach))
        & (sy[n, dy] >= MIN_OUTLINE * _self_score(ref_rows, reach))
    )
    out: NDArray[np.intp] = np.stack([dx - reach, dy - reach], axis=1).astype(np.intp)
    return out, found


def outline_at_sides(ref: F32, tolerance: int = 2) -> bool:
    """Whether a deck's mean edge profile has the card's sides where its corners put them.

    Registration is relative (every card against the deck's mean): corners wrong by the
    same amount on every card (a card size measured wrong) would frame every print alike
    and pass it. The deck's own sides must stand out at ``PAD`` from each end.
    """
    n = len(ref)
    mag = np.abs(ref)
    typical = float(np.median(mag)) + 1e-6
    for side in (PAD, n - 1 - PAD):
        half = mag[: n // 2] if side < n // 2 else mag[n // 2 :]
        near = float(mag[max(0, side - tolerance) : side + tolerance + 1].max())
        if near < MIN_SIDE * float(half.max()) or near < SIDE_OVER_TYPICAL * typical:
            return False
    return True


def _self_score(ref: F32, reach: int) -> float:
    return float(_scores(ref[None], ref, reach)[0, reach])
