"""The shape of a pawn's patch in the half-resolution residual.

A standing pawn with its shadow makes a compact patch: not a sliver along a moved card's
edge, nor a sparse spray of light. The first look (:mod:`.pawns`), the doubts it leaves
(:mod:`.pawn_doubts`) and the second look (:mod:`.pawn_objects`) judge a patch by these
same bounds (each once kept its own copy of them).
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

MIN_SIDE = 3  # half-res px: thinner patches are slivers along a moved card's edge
MAX_ASPECT = 2.5  # a pawn's patch is about as wide as high...
SLIM_ASPECT = 3.5  # ...unless it is thick enough to be no sliver (a tall pawn leaning)
THICK = 4  # half-res px
# Share of its bounding box a pawn's patch fills. The white pawn's patch is often sparser
# than the coloured ones': his lit top and shaded side fall into his colour's sigmas apart,
# with the card's light between them (fresh decks 3000-3999 seed 11: #134 and #237 at 0.398
# and 0.399, missed, now found; #205 at 0.36, missed silently, now his card doubted).
# 0.4 -> 0.35, `pawn_diag.py --read-only --n 480 --per-setup 6`, pawns right: DEV seed 5
# +0, fresh 3000-3999 +3, 5000-5999 +0, 8000-8999 +2, held out 4000-4999 +3, 7000-7999 +0;
# missed silently 9 -> 8 on 3000-3999; none wrong or phantom more; uncertain cells a photo
# up by 0.02-0.04.
MIN_FILL = 0.35


def thin(w: int, h: int, leaning: bool = False) -> bool:
    """Whether a patch's box (half-res px) is too thin for a pawn. ``leaning`` allows a
    patch at least ``THICK`` across the longer aspect of a tall pawn leaning."""
    side = min(w, h)
    aspect = SLIM_ASPECT if leaning and side >= THICK else MAX_ASPECT
    return side < MIN_SIDE or max(w, h) > aspect * side


def sparse(w: int, h: int, npx: float, min_fill: float = MIN_FILL) -> bool:
    """Whether a patch of ``npx`` pixels fills too little of its ``w`` x ``h`` box."""
    return npx < min_fill * w * h


def compact(w: int, h: int, npx: float, leaning: bool = False) -> bool:
    """Whether a patch (its box, half-res px, and pixel count) is shaped like a pawn
    (``leaning``: or like a tall one leaning, see :func:`thin`)."""
    return not thin(w, h, leaning) and not sparse(w, h, npx)


def spread(patch: NDArray[Any]) -> tuple[float, float]:
    """A patch's (a boolean or 0/1 mask) length and thickness by the spread of its own
    pixels rather than its box: those of the rectangle with its second moments."""
    m = cv2.moments(np.asarray(patch, np.uint8), binaryImage=True)
    n = m["m00"]
    if n <= 0:
        return 0.0, 0.0
    a, b, c = m["mu20"] / n, m["mu02"] / n, m["mu11"] / n
    half = math.hypot((a - b) / 2, c)
    # (a uniform rectangle L long has variance L^2 / 12 along it)
    return math.sqrt(12 * ((a + b) / 2 + half)), math.sqrt(12 * max((a + b) / 2 - half, 0.0))


def slender(patch: NDArray[Any]) -> bool:
    """Whether a patch's pixels spread as a sliver's (:func:`spread`): more than
    ``SLIM_ASPECT`` times longer than thick, whatever its box.

    A sliver along a card's edge with a spur off one end fills a box a pawn could (fresh
    deck 9017: a strip of a card's green band 22 x 9 half-res px, 0.40 of it filled, read
    as the green pawn, a phantom); its pixels still spread 21 px one way and 5 the other.
    So does the white pawn's patch at times, his lit top and shaded side apart on a slant
    (fresh deck 3022 #134: 13 x 3.2 in a 9 x 12 box): only a slender patch longer than
    any pawn is a sliver (see :mod:`.pawns`)."""
    return too_slim(*spread(patch))


def too_slim(length: float, side: float) -> bool:
    """Whether a patch ``length`` long and ``side`` thick (:func:`spread`) is a sliver's."""
    return length > SLIM_ASPECT * max(side, 1e-6)
