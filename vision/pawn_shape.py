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
MIN_FILL = 0.4  # share of its bounding box a pawn's patch fills


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
