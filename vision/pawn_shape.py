"""The shape of a pawn's patch in the half-resolution residual.

A standing pawn with its shadow makes a compact patch: not a sliver along a moved card's
edge, nor a sparse spray of light. The first look (:mod:`.pawns`), the doubts it leaves
(:mod:`.pawn_doubts`) and the second look (:mod:`.pawn_objects`) judge a patch by these
same bounds (each once kept its own copy of them).
"""

from __future__ import annotations

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


def compact(w: int, h: int, npx: float) -> bool:
    """Whether a patch (its box, half-res px, and pixel count) is shaped like a pawn."""
    return not thin(w, h) and not sparse(w, h, npx)
