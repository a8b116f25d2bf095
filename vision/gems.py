"""Red gems on the cards: small, compact blobs of a gem's red that the expected card is not.

The gems were not in the calibration photos, so their look is a prior (a dark, glossy,
warm red: see :func:`find_gems`). They are found before the pawns: a gem's blob is then
neither taken for a pawn nor left unexplained, and a dark blob on a gem may be its shade.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine.grid import Cell

from .board import BoardGeometry
from .pawns import (
    DEEPEST_SHADE,
    FAINT_CARD,
    FLAT_GLARE_FOLLOWS,
    GLARE_DROP,
    GLARE_L,
    SHADOW_DROP,
    cell_of,
    faintly_glared,
    lightness_follows,
)
from .pixels import components, median, shown_nearby

# OpenCV's type stubs return loosely typed arrays: the aliases name the intent only.
F32 = NDArray[Any]
F64 = NDArray[Any]
U8 = NDArray[Any]

# Each red blob of the last find_gems call: (x, y, pixels, verdict), board px (for
# benchmarks/pawn_diag.py); rewritten by every call.
GEM_TRACE: list[tuple[float, float, int, str]] = []


class _Planes(NamedTuple):
    """The a* and b* channels of a reading's board and of the expected board, each a plane."""

    a: F32
    b: F32
    expected_a: F32
    expected_b: F32


def _channels(lab: F32, expected: F32) -> _Planes:
    return _Planes(
        np.ascontiguousarray(lab[:, :, 1]),
        np.ascontiguousarray(lab[:, :, 2]),
        np.ascontiguousarray(expected[:, :, 1]),
        np.ascontiguousarray(expected[:, :, 2]),
    )


def find_gems(
    lab: F32,
    expected: F32,
    mask: U8,
    colours: F32,
    card_area: float,
    geometry: BoardGeometry,
    where: list[tuple[float, float]] | None = None,
    pixels: U8 | None = None,
    away: NDArray[np.bool_] | None = None,
    cards: F64 | None = None,
) -> tuple[list[Cell], list[Cell]]:
    """Cells with a red gem, and cells where a red blob's meaning is doubtful.

    Pixels in ``away`` (a hand's reach) are not looked at. ``cards`` (cards x 4 x 2, board
    px), if given, are the cards' corners where they lie now: a gem-like blob whose middle
    is within ``GEM_EDGE`` of its card's edge only makes the card doubtful (see
    :func:`_at_card_edge`).

    Gems are found before pawns: ``where``, if given, receives the board point of every gem
    and doubtful red blob, and ``pixels`` (the mask's shape) is set to 1 over each gem's
    blob, so that a gem is neither taken for a pawn nor left unexplained.

    The gems were not in the calibration photos, so their look is a prior: a small, compact,
    fairly dark blob of warm red (Lab a* high, b* clearly positive: pink card art and the
    purple pawn have b* near zero or below), much redder than the card expected there.
    """
    # Only pixels that differ from the expected board can be a gem: work on those alone.
    # The objects mask is cut for pawns, at six times the board's noise: in a noisy photo
    # that is above a small gem's blurred change, though the gem is far redder than the
    # card expected under it. Pixels that much redder are looked at too.
    # (on pink or purple art, whose a* is a gem's already, a warm gem is far yellower: b*)
    # (each channel taken out of the interleaved boards once: every operation on a strided
    # channel costs about four on a plane; the same values)
    planes = _channels(lab, expected)
    jump: U8 = (
        (planes.a - planes.expected_a > GEM_JUMP)
        | ((planes.b - planes.expected_b > GEM_JUMP_B) & (planes.a > GEM_JUMP_A))
    ).astype(np.uint8)
    opened: U8 = cv2.morphologyEx(jump, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    if away is not None:
        opened[away] = 0
    ys, xs = np.nonzero(mask | opened)
    pix = lab[ys, xs]
    exp = expected[ys, xs]
    a = pix[:, 1]
    b = pix[:, 2]
    # Red, and unlike the card expected there (red card art is no gem, but a gem on red art
    # is darker and warmer than the art).
    # (the city-block difference added plane by plane, in channel order: numpy sums a last
    # axis of three one short loop at a time)
    off = np.abs(pix - exp)
    city = off[:, 0] + off[:, 1]
    city += off[:, 2]
    differs = (a - exp[:, 1] > 20.0) | ((city > GEM_DIFF) & (b > GEM_HUE * a))
    keep = (a > 30.0) & (a > 0.9 * np.abs(b)) & differs
    red: U8 = np.zeros(mask.shape, np.uint8)
    red[ys[keep], xs[keep]] = 1
    n, labels, stats, cents = components(red)
    gems: list[Cell] = []
    doubts: list[Cell] = []
    trace = GEM_TRACE
    trace.clear()
    boxes = stats.tolist()  # (Python ints at once: a numpy row per object costs more)
    for k in range(1, n):
        x0, y0, w, h, npx = boxes[k]
        area = float(npx)
        cx, cy = float(cents[k][0]), float(cents[k][1])
        if area < 0.004 * card_area:
            trace.append((cx, cy, npx, "tiny"))
            continue
        pos = cell_of(geometry, cx, cy)
        if pos.outside:
            trace.append((cx, cy, npx, "outside"))
            continue
        sel = labels[y0 : y0 + h, x0 : x0 + w] == k
        patch = lab[y0 : y0 + h, x0 : x0 + w][sel]
        _, ma, mb = (float(v) for v in patch.mean(axis=0))
        if not GEM_HUE * ma <= mb <= GEM_HUE_MAX * ma:
            # Pink, purple or orange: card art, the purple or the orange pawn; but a gem
            # touching the purple pawn's base joins its blob, whose mean hue is then the
            # pawn's. Its gem-hued part, cut from the rest, is the gem when it looks like
            # one whole. Not from an orange blob: the orange pawn's shaded side on red
            # art blends into a gem's hue (fresh 3010 #86: a phantom). A gem's worth of
            # gem-hued pixels not cut as a gem leaves the card doubtful.
            part = _gem_part(lab, expected, sel, x0, y0, card_area) if mb < GEM_HUE * ma else None
            if part is not None:
                sel, (x0, y0, w, h) = part
                py, px = np.nonzero(sel)
                cx, cy = x0 + float(px.mean()), y0 + float(py.mean())
                pos = cell_of(geometry, cx, cy)
                trace.append((cx, cy, npx, "gem, cut from another colour"))
                gem_like = not pos.outside
            else:
                inside = _gem_inside(patch, card_area)
                trace.append((cx, cy, npx, "hue, gem inside" if inside else "hue"))
                if inside and pos.cell not in doubts:
                    doubts.append(pos.cell)
                    if where is not None:
                        where.append((float(cents[k][0]), float(cents[k][1])))
                continue
        else:
            under = expected[y0 : y0 + h, x0 : x0 + w][sel]
            # (its highlight is looked for only when the blob alone is short of a gem's fill)
            box = (slice(y0, y0 + h), slice(x0, x0 + w))
            lit = _highlight(lab[box], expected[box], sel) if npx < GEM_FILL * w * h else 0
            verdict = _gem_verdict(patch, under, w, h, card_area, lit)
            gem_like = verdict == "gem"
            trace.append((cx, cy, npx, verdict))
        if gem_like and _print_moved(lab, expected, sel, x0, y0) > GEM_MOVED:
            # (red print nudged since the calibration: a doubt, not a gem)
            trace.append((cx, cy, npx, "the card's print moved"))
            if pos.cell not in doubts:
                doubts.append(pos.cell)
            if where is not None:
                where.append((cx, cy))
            continue
        if gem_like and cards is not None and _at_card_edge(cards, cx, cy):
            trace.append((cx, cy, npx, "at a card's edge"))  # a doubt, whatever its size
            if pos.cell not in doubts:
                doubts.append(pos.cell)
            if where is not None:
                where.append((cx, cy))
            continue
        if gem_like:
            if pos.cell not in gems:
                gems.append(pos.cell)
            if pixels is not None:
                pixels[y0 : y0 + h, x0 : x0 + w][sel] = 1
        elif area >= GEM_DOUBT * card_area and pos.cell not in doubts:
            doubts.append(pos.cell)
        if where is not None and (gem_like or area >= GEM_DOUBT * card_area):
            where.append((cx, cy))
    _second_look(lab, expected, card_area, geometry, gems, where, pixels, cards, planes)
    # A gem's red shifts with the room's light; one that falls outside the red above but
    # shows a gem's highlight, redder than the card and of a gem's size, makes its card
    # doubtful (never a gem: its colour alone does not tell it from art).
    loose = (a > LOOSE_A) & (a > 0.5 * np.abs(b)) & (a - exp[:, 1] > LOOSE_REDDER)
    if loose.any():
        red[:] = 0
        red[ys[loose], xs[loose]] = 1
        n, labels, stats, cents = components(red)
        boxes = stats.tolist()  # (Python ints at once: a numpy row per object costs more)
        for k in range(1, n):
            x0, y0, w, h, npx = boxes[k]
            if not _gem_shaped(w, h, npx, GEM_MIN * card_area, card_area):
                continue
            pos = cell_of(geometry, float(cents[k][0]), float(cents[k][1]))
            if pos.outside or pos.cell in gems or pos.cell in doubts:
                continue
            sel = labels[y0 : y0 + h, x0 : x0 + w] == k
            lum = lab[y0 : y0 + h, x0 : x0 + w, 0][sel]
            if float(lum.mean()) < GEM_MAX_L and float(lum.max() - lum.mean()) >= LOOSE_GLOSS:
                doubts.append(pos.cell)
                trace.append((float(cents[k][0]), float(cents[k][1]), npx, "loose doubt"))
    return gems, [c for c in doubts if c not in gems]


def _print_moved(lab: F32, expected: F32, sel: NDArray[np.bool_], x0: int, y0: int) -> float:
    """Share of a red blob's pixels (``sel``, its box at (x0, y0)) whose colour the expected
    board shows within ``GEM_MOVED_REACH`` px: a card nudged further than the reading
    matched brings its own red print where the expected card had other art (fresh deck
    8021 #131: island 23's red print a few px off, a phantom gem); a gem's colours were
    nowhere near. (Not when the calibration saw the print blurred or paler: deck 7048's
    numeral stays a phantom, none of its pixels within 8 Lab.)"""
    ys, xs = np.nonzero(sel)
    return shown_nearby(lab, expected, ys + y0, xs + x0, GEM_MOVED_REACH, GEM_MOVED_LAB)


def _at_card_edge(cards: F64, x: float, y: float) -> bool:
    """Whether the board point (x, y) lies within ``GEM_EDGE`` board px of the edge of the
    card it is on (or on none). A gem lying on a card has its middle further in; a red
    sliver there is the table (or the art of the card beside) where a card moved off: on a
    red-checked table, every card nudged since the calibration shows a red strip along
    its edge (fresh deck 4027, seed 53: 17 phantom gems in six photos, their middles 3 px
    or less inside the card's edge; the gems found on DEV seed 5: 5.7 px and more)."""
    # (every card's corners made float32 contours at once: the same points for less)
    contours = cards.astype(np.float32).reshape(len(cards), -1, 1, 2)
    inside = max(cv2.pointPolygonTest(q, (x, y), True) for q in contours)
    return bool(inside < GEM_EDGE)


def _gem_verdict(patch: F32, under: F32, w: int, h: int, card_area: float, lit: int = 0) -> str:
    """ "gem", or why a red blob of a gem's hue (``patch``: its Lab pixels, ``under``: the
    card expected beneath them, ``w`` x ``h`` its bounding box, ``lit`` the pixels of its
    highlight outside it, see :func:`_highlight`) is none."""
    area = float(len(patch))
    light, ma = float(patch[:, 0].mean()), float(patch[:, 1].mean())
    if not GEM_MIN * card_area <= area <= GEM_MAX * card_area:
        return "size"
    if min(w, h) < 3:
        return "thin"
    if max(w, h) > GEM_ASPECT * min(w, h):
        return "aspect"
    # (a highlight is a small part of a gem: a pawn's lit side beside its gem-hued shade is
    # not one, DEV seed 22 #1, Jugo's: a phantom when counted whole)
    if area + min(lit, HIGHLIGHT_SHARE * area) < GEM_FILL * w * h:
        return "fill"
    if light >= GEM_MAX_L:
        return "light"
    if float(patch[:, 0].std()) < FLAT_GEM and float(patch[:, 0].max()) - light < FLAT_GLOSS:
        # Printed red, not a solid: a gem shades and shines under any light (fresh deck
        # 9035: island 24's red art, cut from a pink blob, a phantom in three photos)
        return "flat"
    if _glare_gone(patch, under):
        return "glare gone"
    if ma - float(under[:, 1].mean()) < GEM_REDDER:
        # On red art a gem is no redder than the card: it must then show a gem's full red,
        # and its glossy highlight or a hue of its own, and not be the art in shade (a
        # shadow darkens the card but keeps its hue: DEV #115, a phantom). Under a dim
        # light a gem on dark red art shows no gloss, but turns the card's hue by 16-20
        # a*b* where shaded art turns it by 7 at most (DEV 0 and 3: five gems lost).
        glossy = float(patch[:, 0].max()) - light >= GEM_GLOSS
        full = min(GEM_MIN_A, GEM_MIN_A_DIM * (light + 16.0))
        if ma < full or not (glossy or _hue_turn(patch, under) >= ART_TURN):
            return "on red art, no gloss or hue of its own"
        if _shaded_art(patch, under):
            return "red art in shade"
    return "gem"


def _gem_part(
    lab: F32, expected: F32, sel: NDArray[np.bool_], x0: int, y0: int, card_area: float
) -> tuple[NDArray[np.bool_], tuple[int, int, int, int]] | None:
    """The gem in a red blob of another mean hue (``sel``, its pixels in the box at
    (x0, y0)): its dark gem-hued pixels, opened so that a fringe where two colours blend
    comes off, when one part of them passes as a gem (:func:`_gem_verdict`); its pixels and
    box (x, y, w, h) in the board, or None."""
    box = lab[y0 : y0 + sel.shape[0], x0 : x0 + sel.shape[1]]
    a, b = box[:, :, 1], box[:, :, 2]
    hued = sel & (b >= GEM_HUE * a) & (b <= GEM_HUE_MAX * a) & (box[:, :, 0] < GEM_MAX_L)
    cut = cv2.morphologyEx(hued.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = components(cut)
    boxes = stats.tolist()  # (Python ints at once: a numpy row per object costs more)
    for k in range(1, n):
        px, py, w, h, _ = boxes[k]
        part = labels[py : py + h, px : px + w] == k
        patch = box[py : py + h, px : px + w][part]
        under = expected[y0 + py : y0 + py + h, x0 + px : x0 + px + w][part]
        if _gem_verdict(patch, under, w, h, card_area) == "gem":
            return part, (x0 + px, y0 + py, w, h)
    return None


def _highlight(box: F32, expected: F32, sel: NDArray[np.bool_]) -> int:
    """Pixels of a red blob's box (``box``: Lab, ``expected``: the card expected there,
    ``sel``: the blob) outside the blob, lighter than the card and than the blob by a gem's
    gloss: its highlight, too pale to be red (on pink art a gem's blob is then a ring or a
    horseshoe, short of a compact blob's fill: fresh 5000-5999 and 9000-9999, 9 gems)."""
    lum = box[:, :, 0]
    bar = float(lum[sel].mean()) + GEM_GLOSS
    lit = ~sel & (lum > expected[:, :, 0] + LIT_OVER_CARD) & (lum > bar)
    return int(lit.sum())


LIT_OVER_CARD = 5.0  # L: a gem's highlight is this much lighter than the card under it
HIGHLIGHT_SHARE = 0.5  # x the blob's red pixels: the most of a highlight counted with them


def _gem_shaped(w: int, h: int, npx: int, least: float, card_area: float) -> bool:
    """Whether a blob of ``npx`` pixels in a ``w`` x ``h`` box has a gem's size (from
    ``least`` pixels) and shape: compact, filling its box."""
    if not least <= npx <= GEM_MAX * card_area or min(w, h) < 3:
        return False
    return max(w, h) <= GEM_ASPECT * min(w, h) and npx >= GEM_FILL * w * h


def _glare_gone(patch: F32, under: F32) -> bool:
    """Whether a red blob (``patch``, Lab) is flat card art where the calibration photo had
    glare (``under``, the card expected there, much lighter): the art's own red shows now.
    A gem is a shaded solid, never flat (fresh deck 3039 #319: a phantom gem).

    Glare near white (``GLARE_L``) leaves no hue to compare, only its flatness
    (``FLAT_RED``). Fainter glare keeps the art's hue (:func:`.pawns.faintly_glared`), and
    the blob under it is fairly flat (``WHITENED_FLAT``): fresh deck 5058's island 4, L
    spread 1.9 and 3.1."""
    spread = float(patch[:, 0].std())
    if float(median(under[:, 0] - patch[:, 0])) <= GLARE_DROP:
        return False
    if spread < FLAT_RED and float(median(under[:, 0])) >= GLARE_L:
        return True
    return spread < WHITENED_FLAT and faintly_glared(patch, under)


FLAT_GEM = 0.9  # L spread (std) under which a red blob is paint (gems in a dim room on DEV
# seeds 5 and 22 and fresh 3000-3999: 1.4 and up; deck 9035's art 0.2-0.4, 3023's 0.5)...
FLAT_GLOSS = 1.4  # ...unless its highlight stands this far (L) above its mean (gems: 1.9 up;
# the paint: 0.9 at most)
FLAT_RED = 2.5  # L spread (std) under which a blob is flat art, no shaded gem, where the
# calibration photo had glare (pawns.GLARE_L, GLARE_DROP: a gem's core in a dim room is flat
# too, on cards of L 35-46: DEV 6 and 10, five gems lost without the glare's condition)
WHITENED_FLAT = 5.0  # L spread (std) under which a blob may be art under such glare (deck
# 5058's: 1.9 and 3.1; gems in a dim room on red art of their hue reach it too, 3.3-4.7 on
# fresh decks 3045, 4012 and 8040, and are told by their whitening, pawns.WHITENED)


def _shaded_art(patch: F32, under: F32) -> bool:
    """Whether most of a red blob (``patch``, Lab) is the card expected under it
    (``under``) darkened with its hue kept: a shadow over red art. Pixel by pixel the hue
    kept is the card's own; on the whole, it may also be the card's scaled by the darkening,
    as a shadow leaves it (fresh deck 7068's red island, L 33 a* 42 under L 45 a* 54, and
    7036's: read as gems in three photos). Not pixel by pixel: a gem's rim blends into the
    card's colour scaled, and a gem on red art is as strong a red as the card while darker
    (fresh deck 4069: a* 42 at L 38 on a* 43 at L 64)."""
    kept = np.abs(patch[:, 1:] - under[:, 1:]).sum(axis=-1) < ART_HUE
    darker = patch[:, 0] < under[:, 0] - SHADOW_DROP
    if float((kept & darker).mean()) >= ART_SHADE:
        return True
    seen, card = patch.mean(axis=0), under.mean(axis=0)
    scale = float(seen[0]) / max(float(card[0]), 1.0)
    if scale < DEEPEST_SHADE or seen[0] >= card[0] - SHADOW_DROP:
        return False
    return float(np.abs(seen[1:] - card[1:] * scale).sum()) < ART_HUE


def _hue_turn(patch: F32, under: F32) -> float:
    """How far (Lab a*b*, city-block) a blob's mean hue (``patch``) lies from the card's
    expected under it (``under``)."""
    turn = np.abs(patch[:, 1:].mean(axis=0) - under[:, 1:].mean(axis=0))
    return float(turn.sum())


ART_HUE = 8.0  # Lab a*b* (city-block) off the card's own: its hue kept
ART_TURN = 12.0  # Lab a*b* (city-block): a gem with no gloss on red art turns the card's hue
# this far at least (DEV 0 and 3: gems 16-20, the art in shade 7 at most)
ART_SHADE = 0.5  # share of the blob that is the card in shade


def _second_look(
    lab: F32,
    expected: F32,
    card_area: float,
    geometry: BoardGeometry,
    gems: list[Cell],
    where: list[tuple[float, float]] | None,
    pixels: U8 | None,
    cards: F64 | None = None,
    planes: _Planes | None = None,
) -> None:
    """Gems the red above misses, added to ``gems`` (and ``where``, ``pixels``) in place;
    not at a card's edge (``cards``: see :func:`_at_card_edge`) nor the card's own print
    moved (:func:`_print_moved`).

    Under a dim or a cool light a gem is a duller, pinker red (a* under 30, b* near zero:
    DEV deck 4 and 6 sessions lost most of their gems), and its pixels fall outside the red
    band and its edges outside the objects mask. Looked at whole (every pixel clearly
    redder than the card expected there), it is still what no card art, shadow or pawn is
    on the DEV decks: a compact blob of a gem's full size, much redder than the card on
    average, not purple, dark, with a glossy highlight.
    """
    if planes is None:
        planes = _channels(lab, expected)
    a = planes.a
    red: U8 = (
        (a > LOOK_A) & (a - planes.expected_a > LOOK_REDDER) & (a > 0.3 * np.abs(planes.b))
    ).astype(np.uint8)
    n, labels, stats, cents = components(red)
    trace = GEM_TRACE
    boxes = stats.tolist()  # (Python ints at once: a numpy row per object costs more)
    for k in range(1, n):
        x0, y0, w, h, npx = boxes[k]
        if not _gem_shaped(w, h, npx, LOOK_MIN * card_area, card_area):
            continue
        cx, cy = float(cents[k][0]), float(cents[k][1])
        pos = cell_of(geometry, cx, cy)
        if pos.outside or pos.cell in gems:
            continue
        sel = labels[y0 : y0 + h, x0 : x0 + w] == k
        patch = lab[y0 : y0 + h, x0 : x0 + w][sel]
        under = expected[y0 : y0 + h, x0 : x0 + w][sel]
        light, ma, mb = (float(v) for v in patch.mean(axis=0))
        redder = ma - float(under[:, 1].mean())
        gloss = float(patch[:, 0].max()) - light
        if (
            ma >= LOOK_MIN_A
            and LOOK_HUE * ma <= mb <= GEM_HUE_MAX * ma
            and redder >= LOOK_REDDER_MEAN
            and light < GEM_MAX_L
            and gloss >= LOOK_GLOSS
            and not _recoloured(patch, under)
        ):
            if cards is not None and _at_card_edge(cards, cx, cy):
                trace.append((cx, cy, npx, "at a card's edge, second look"))
                continue
            if _print_moved(lab, expected, sel, x0, y0) > GEM_MOVED:
                trace.append((cx, cy, npx, "the card's print moved, second look"))
                continue
            gems.append(pos.cell)
            trace.append((cx, cy, npx, "gem, second look"))
            if where is not None:
                where.append((cx, cy))
            if pixels is not None:
                pixels[y0 : y0 + h, x0 : x0 + w][sel] = 1


def _recoloured(patch: F32, under: F32) -> bool:
    """Whether a red blob (``patch``, Lab) is the art expected under it (``under``) with
    only its red grown stronger (a colour cast): the card's lightness kept, pixel by pixel
    and in its pattern. A gem shades itself.

    Fresh deck 3060 #364, a magenta numeral: 1.0 L off at the median, correlation 0.94
    over art of L std 4.4, a phantom gem. A gem's lightness may follow the art's, both lit
    from one side, but far off it (fresh deck 8079 #476: 0.83, and 20 L off); on flat art
    a gem may be as light as the card (DEV seed 5 #306 and #448: 2.6 and 3.2 L off)."""
    return (
        float(median(np.abs(patch[:, 0] - under[:, 0]))) < LOOK_SHADED
        and float(under[:, 0].std()) >= FAINT_CARD
        and lightness_follows(patch[:, 0], under[:, 0]) > FLAT_GLARE_FOLLOWS
    )


# The second look: of 5064 red blobs in the readings of DEV seeds 5 and 22 and fresh decks
# 3000-3999, 4000-4999 and 9000-9999, 2579 of 2721 gems pass, and nothing else on the grid.
# Looser bounds (b* from -0.2 of a*, a* 15 over the card) took 32 more there and nothing
# else, but made two phantom gems on the EVAL decks: not kept.
LOOK_A = 15.0  # a pixel's a*...
LOOK_REDDER = 12.0  # ...and how much above the card's
LOOK_MIN = 0.015  # x card area: a whole gem (its edges are redder than the card too)
LOOK_MIN_A = 22.0  # the blob's mean a*...
LOOK_HUE = -0.1  # ...its b* at least this share of it (purple is far below)...
LOOK_REDDER_MEAN = 18.0  # ...its a* this much above the card's...
LOOK_GLOSS = 9.0  # ...and its highlight this far (L) above its mean
LOOK_SHADED = 4.0  # L off the card's (median pixel) under which a red blob may be art recoloured


def _gem_inside(patch: F32, card_area: float) -> bool:
    """Whether a red blob of the wrong mean hue (``patch``: its Lab pixels) holds a gem's
    worth of dark, gem-hued pixels."""
    a, b = patch[:, 1], patch[:, 2]
    gem = (b >= GEM_HUE * a) & (b <= GEM_HUE_MAX * a) & (patch[:, 0] < GEM_MAX_L)
    return bool(int(gem.sum()) >= GEM_MIN * card_area)


GEM_JUMP = 20.0  # a* above the card's: a gem's pixel even where the objects mask is not
GEM_JUMP_B = 15.0  # ...or b* above the card's (a warm gem on pink or purple art)...
GEM_JUMP_A = 30.0  # ...where a* is a gem's (as `keep` asks)
GEM_DIFF = 25.0  # Lab (city-block) difference from the card expected under a gem
GEM_HUE = 0.18  # a gem's b* is at least this share of its a* (warm red, not pink)...
GEM_HUE_MAX = 0.85  # ...and at most this share (red, not orange)
GEM_MIN = 0.006  # x card area
GEM_MAX = 0.06  # x card area
GEM_ASPECT = 2.2  # a gem's blob is compact...
GEM_FILL = 0.5  # ...and fills its bounding box (edge slivers of red art do not)
GEM_MAX_L = 68.0  # a gem is a dark saturated red; light pinks are art
GEM_REDDER = 15.0  # a* above the card's: a gem on plain art is this much redder...
GEM_GLOSS = 7.0  # ...else its highlight must stand this far (L) above its mean
GEM_MOVED_REACH = 4  # board px: how far a card may lie off where the reading matched it
GEM_MOVED_LAB = 8.0  # Lab: a pixel this close to the expected board within reach is print
GEM_MOVED = 0.5  # share of such pixels beyond which a red blob is the card's print moved
GEM_MIN_A = 35.0  # and its red be this strong,
# ...or, in a dim room, this share of its (L + 16): a* falls with the light as L + 16 does
# (fresh deck 7072's gems at L 16-22 show a* 31-36)
GEM_MIN_A_DIM = 0.8
LOOSE_A = 18.0  # (doubt only) a* of a gem under a dim or tinted light...
LOOSE_REDDER = 15.0  # ...at least this much above the card's...
LOOSE_GLOSS = 15.0  # ...with its highlight this far (L) above its mean
GEM_DOUBT = 0.006  # a red blob this big that is no gem makes its card doubtful
GEM_EDGE = 3.0  # board px: a gem's middle lies at least this far inside its card's edge
