"""Each card's own four corners, and crops of a card rectified to its own axes.

Hand-laid cards sit a few millimetres off a regular lattice and are turned by a few
degrees each. A template cut as an axis-aligned box keeps that turn, and a different card
later put in the same slot is turned differently: the two no longer line up pixel for pixel
and the comparison measures the turn, not the print. So calibration finds each card's four
sides on the fine board (the strongest gradient across each side near where the edge-pair
search put it, a robust straight-line fit along the side) and every comparison is made on
crops rectified to the card's own axes.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

# OpenCV's type stubs return loosely typed arrays: the aliases name the intent only.
F32 = NDArray[Any]
F64 = NDArray[Any]

SAMPLES = 17  # points probed along each side
SPAN = 0.36  # the probes cover this share of the side on each side of its middle
REACH = 0.07  # how far (share of the card's side) a side may lie from its first guess
MAX_TURN = 10.0  # degrees: a side fitted steeper than this is not trusted


def edge_images(
    grey_hi: F32, polarity: int = 0, table: F32 | None = None
) -> tuple[F32, F32, F32, F32]:
    """Gradient across the left, right, top and bottom sides of a card, on the fine board.

    With ``polarity`` +1 (cards brighter than the table at their edge) or -1 (darker), only
    edges of that sign count: a card's shadow on the table has the opposite sign at its
    outer edge and cannot pass for the card's edge. With 0, both signs count.

    ``table`` (the fine board's likeness to the table, 0..1) keeps, for each side, only the
    edges with table just outside them: the frame printed inside a card and the near side
    of a neighbour have card, not table, beyond them, however strong they are.
    """
    g = cv2.GaussianBlur(grey_hi.astype(np.float32), (0, 0), 1.0)
    sx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    sy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    if polarity == 0:
        ax, ay = np.abs(sx), np.abs(sy)
        out = (ax, ax, ay, ay)
    else:
        sx, sy = sx * polarity, sy * polarity
        out = (np.maximum(sx, 0), np.maximum(-sx, 0), np.maximum(sy, 0), np.maximum(-sy, 0))
    if table is None:
        return out
    k = GATE_PX
    t = cv2.copyMakeBorder(table.astype(np.float32), k, k, k, k, cv2.BORDER_REPLICATE)
    h, w = table.shape
    outside = (
        t[k : k + h, 0:w],  # left side: the table lies k px to the left
        t[k : k + h, 2 * k : 2 * k + w],  # right side: to the right
        t[0:h, k : k + w],  # top side: above
        t[2 * k : 2 * k + h, k : k + w],  # bottom side: below
    )
    keep = [GATE_FLOOR + (1.0 - GATE_FLOOR) * o for o in outside]
    return out[0] * keep[0], out[1] * keep[1], out[2] * keep[2], out[3] * keep[3]


GATE_PX = 3  # fine px beyond a side where the table must show
GATE_FLOOR = 0.1  # an edge without table beyond it keeps this share (a table-coloured card)


def edge_polarity(grey_hi: F32, quads: F64) -> int:
    """+1 if the cards are brighter than what lies just outside them nearly everywhere,
    -1 if darker, 0 if it varies (a patterned table, a card art that reaches the edge)."""
    g = cv2.GaussianBlur(grey_hi.astype(np.float32), (0, 0), 1.0)
    H, W = g.shape
    votes = []
    for q in quads:
        f = q * 2.0
        c = f.mean(axis=0)
        for a, b in ((0, 1), (1, 2), (2, 3), (3, 0)):
            for u in np.linspace(0.2, 0.8, 7):
                p = f[a] + (f[b] - f[a]) * u
                d = (p - c) / (np.linalg.norm(p - c) + 1e-9)
                x_in, y_in = np.rint(p - 3 * d).astype(int)
                x_out, y_out = np.rint(p + 3 * d).astype(int)
                if 0 <= x_out < W and 0 <= y_out < H and 0 <= x_in < W and 0 <= y_in < H:
                    votes.append(float(g[y_in, x_in] - g[y_out, x_out]))
    if not votes:
        return 0
    share = float(np.mean(np.array(votes) > 0))
    return 1 if share > POLARITY_SHARE else -1 if share < 1 - POLARITY_SHARE else 0


POLARITY_SHARE = 0.85  # share of edge probes that must agree on the cards' side of the edge


def deck_size(grads: tuple[F32, F32, F32, F32], cells: F64, pitch: float) -> tuple[float, float]:
    """The cards' (width, height) in fine px, measured on all the cards at once.

    ``grads`` are :func:`edge_images` (left, right, top, bottom), ``cells`` the lattice's
    cell centres and ``pitch`` its cell size, in fine px. Every card of a deck has one size
    and the board has no perspective left: for each candidate width, each card's profile
    across its middle gives its best pair of a left and a right edge that far apart, and
    the width the deck agrees on most wins. The grid's outline fit gives a card's extent
    badly when the cards' borders look like the table; one card's print cannot pull this.
    """
    sizes = np.arange(round(SIZE_RANGE[0] * pitch), round(SIZE_RANGE[1] * pitch) + 1)
    reach = round(0.2 * pitch)
    out = []
    for axis, (lo_g, hi_g) in ((0, (grads[0], grads[1])), (1, (grads[2], grads[3]))):
        total = np.zeros(len(sizes))
        for x, y in cells:
            centre, across = (x, y) if axis == 0 else (y, x)
            band = slice(max(0, round(across - 0.25 * pitch)), round(across + 0.25 * pitch))
            if axis == 0:
                a_prof, b_prof = lo_g[band].sum(axis=0), hi_g[band].sum(axis=0)
            else:
                a_prof, b_prof = lo_g[:, band].sum(axis=1), hi_g[:, band].sum(axis=1)
            n = len(a_prof)
            first = round(centre - sizes[-1] / 2) - reach
            last = round(centre + sizes[-1] / 2) + reach
            if first < 0 or last >= n:
                continue
            norm = float(max(a_prof[first:last].max(), b_prof[first:last].max())) + 1e-6
            for k, size in enumerate(sizes):
                a0 = round(centre - size / 2) - reach
                a1 = round(centre - size / 2) + reach + 1
                pair = a_prof[a0:a1] + b_prof[a0 + size : a1 + size]
                total[k] += float(pair.max()) / norm
        out.append(float(sizes[int(np.argmax(total))]))
    return out[0], out[1]


SIZE_RANGE = (0.6, 0.99)  # share of the pitch a card's side may span (gaps are never 0)


class Quads(NamedTuple):
    """The cards' corners as fitted, and the rigid outlines their sides were fitted from."""

    corners: F64  # (N, 4, 2) board px
    outlines: F64  # (N, 4, 2) board px


def find_quads(
    grey_hi: F32,
    centres: F64,
    size: tuple[float, float],
    grow: F64 | None = None,
    polarity: int = 0,
    table: F32 | None = None,
    free: bool = False,
    settled: NDArray[np.bool_] | None = None,
    before: F64 | None = None,
) -> Quads:
    """The (N, 4, 2) board-px corners (TL, TR, BR, BL) of the cards near ``centres``, and
    each card's rigid outline (the rectangle its sides were then fitted from).

    ``grey_hi`` is the fine board (twice the board's resolution), ``centres`` and ``size``
    (full card width and height) are in board px. Board pixel ``j`` is the pyramid step's
    average centred on fine pixel ``2 j`` (not ``2 j + 0.5``): board px are fine px / 2. A
    card whose sides cannot be fitted keeps the axis-aligned box of its first guess.

    ``free``: each side is then fitted on its own, up to ``FREE_REACH`` from the rigid
    outline and turned up to ``FREE_TURN`` from it. On a board warped by a lattice without
    the camera's perspective, cards nearer the camera are bigger and no longer rectangles;
    a rigid outline of the deck's size cannot follow them (the lattice refitted to such
    corners never learns the perspective: 9 px off at the near row of demo table 12).

    ``settled`` marks the cards whose centre two fits agree on (a first fit found the card
    where the lattice expects it): such a card moves further than ``SETTLED_SHIFTS`` only to
    an outline ``MOVE_FOR`` times better than the best that near (see ``SETTLED_SHIFTS``).

    ``before`` (board px, one per card) is where an earlier fit (on another board of the
    same photo) found each card: an unsettled card whose place there lies beyond the
    search around ``centres`` is searched there too, and moves there for an outline
    ``MOVE_FOR`` times stronger. A card laid well off its column is found only from near
    it, and a guess measured afresh on a refitted board can fall short of it (see
    ``calibrate._fit_cards``; demo table 18's island 22: 1.50 times stronger there). An
    outline only about as strong is as likely a rim's or a gap's width off (fresh deck
    4029's card 18 moved so at 1.10, and a photo of it misread that card, sure).
    """
    grads = edge_images(grey_hi, polarity, table)
    gl, gr, gt, gb = grads
    w, h = 2.0 * size[0], 2.0 * size[1]
    reach, slack = (FREE_REACH, FREE_REACH + 1.0) if free else (FINAL_REACH, 1.5)
    out = np.zeros((len(centres), 4, 2))
    rigid = np.zeros((len(centres), 4, 2))
    for i, (bx, by) in enumerate(centres):
        # The whole outline first (a rigid card: every side on an edge at once, which the
        # table's own pattern rarely manages), then each side to its own strongest edge.
        start, sizes = (2.0 * bx, 2.0 * by), GROW if grow is None else grow
        fit = _fit_rect(grads, start, w, h, sizes)
        if settled is not None and settled[i]:
            near = _fit_rect(grads, start, w, h, sizes, SETTLED_SHIFTS)
            if fit[5] < MOVE_FOR * near[5]:
                fit = near
        elif before is not None and _beyond(before[i], (bx, by)):
            there = _fit_rect(grads, (2.0 * before[i][0], 2.0 * before[i][1]), w, h, sizes)
            if there[5] > MOVE_FOR * fit[5]:
                fit = there
        cx, cy, turn, cw, ch, _ = fit
        quad = _rect(cx, cy, turn, cw, ch)
        # (the probes follow the rigid outline's turn: a side x = a + b y turned by `turn`
        # has b = -tan(turn), a side y = c + d x has d = tan(turn))
        slope = float(np.tan(turn)) if free else 0.0
        sides = (
            (gl, quad[[0, 3]].mean(axis=0), -slope, ch),
            (gr, quad[[1, 2]].mean(axis=0), -slope, ch),
            (gt.T, quad[[0, 1]].mean(axis=0)[::-1], slope, cw),
            (gb.T, quad[[3, 2]].mean(axis=0)[::-1], slope, cw),
        )
        rigid[i] = quad / 2.0
        fitted = []
        for grad, mid, sl, length in sides:
            line = _side(grad, mid, sl, length, reach, tight=free)
            if line is None and free:
                # (a faint side: its probes scatter over print and table, it stays where
                # the rigid outline put it)
                line = _side(grad, mid, sl, length, FINAL_REACH)
            fitted.append(line)
        left, right, top, bottom = fitted
        if None not in (left, right, top, bottom):
            assert left and right and top and bottom
            if not free or _agree(turn, (-left[1], -right[1], top[1], bottom[1])):
                lines = _corners(left, right, top, bottom)
                if np.abs(lines - quad).max() < slack:
                    quad = lines
        out[i] = quad / 2.0
    return Quads(out, rigid)


def _beyond(place: F64, start: tuple[float, float]) -> bool:
    """Whether ``place`` lies outside the window ``SHIFTS`` searches around ``start``
    (board px both): within it, the search from ``start`` already weighed that outline."""
    reach = float(np.abs(SHIFTS).max()) / 2.0
    return bool(np.abs(np.asarray(place) - np.asarray(start)).max() > reach)


def off_size(quads: F64) -> NDArray[np.bool_]:
    """(N,) the quads whose width or height lies more than ``SIZE_GIVE`` board px off the
    deck's.

    All cards of a deck have one size, which the perspective left on a board changes
    smoothly: a plane through the quads' sizes by their centres, fitted without the cards
    off it, is the deck's size at each card.
    """
    widths = (
        np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1)
        + np.linalg.norm(quads[:, 2] - quads[:, 3], axis=1)
    ) / 2
    heights = (
        np.linalg.norm(quads[:, 3] - quads[:, 0], axis=1)
        + np.linalg.norm(quads[:, 2] - quads[:, 1], axis=1)
    ) / 2
    design = np.c_[np.ones(len(quads)), quads.mean(axis=1)]
    off = np.zeros(len(quads), bool)
    for sizes in (widths, heights):
        # (residuals under half the give are a card's size, not an outlier to fit without)
        res = np.abs(sizes - design @ _plane(design, sizes, SIZE_GIVE / 2))
        off |= res > SIZE_GIVE
    return off


# Board px. A free side may move FREE_REACH fine px (3 board px) onto a neighbour's edge.
# DEV seed 21's 80 final free fits: the median session's worst card 0.44 px off its deck's
# plane; 18 sessions had cards 1.5-5.0 px off. Mended as calibrate._fit_cards does, no
# calibration there was refused or gained, and the five whose corners moved read 18 more
# cells of their 30 photos, none wrong.
SIZE_GIVE = 1.5


def _plane(design: F64, values: F64, floor: float) -> F64:
    """Least-squares coefficients of ``values`` on ``design``'s columns, refitted without
    the points more than 3x the median residual (and ``floor``) off: a few wrong points
    must not tilt the plane."""
    keep = np.ones(len(values), bool)
    for _ in range(3):
        coef: F64 = np.linalg.lstsq(design[keep], values[keep], rcond=None)[0]
        res = np.abs(values - design @ coef)
        keep = res <= max(3.0 * float(np.median(res[keep])), floor)
    return coef


def _agree(turn: float, slopes: tuple[float, float, float, float]) -> bool:
    """Whether every side's turn lies within ``FREE_TURN`` of the rigid outline's."""
    turns = np.degrees(np.arctan(np.array(slopes)))
    return bool(np.abs(turns - np.degrees(turn)).max() <= FREE_TURN)


OUTER_SHARE = 1.0  # an outline this close to the best fit counts as fitting
FINAL_REACH = 2  # fine px a side may move from the rigid outline's fit
FREE_REACH = 6  # ...and in a free fit (perspective left on the board: see find_quads)
FREE_TURN = 6.0  # degrees a side may turn from the rigid outline in a free fit
SHIFTS = np.arange(-12, 13, 2.0)  # fine px searched around the first guess
# ...around a settled card's: on a deck whose cards have a dark rim, or narrow gaps, a rigid
# outline a rim's or a gap's width off can take more edge than the card's own; searched as
# widely, fresh deck 4012's cards 16 and 17 were fitted 14 and 19 photo px off, their
# islands never framed after. Their far outlines scored 0.91 and 1.06 times the best near
# them; but a first fit can also stick where the lattice expects a card laid 6 board px
# away (fresh deck 5019's cards 9 and 13), whose own outline then scores 1.66 and 1.55
# times the best near that place: a settled card moves that far only for MOVE_FOR.
SETTLED_SHIFTS = np.arange(-6, 7, 2.0)
MOVE_FOR = 1.25
TURNS = np.radians(np.arange(-10.5, 11.0, 1.5))  # a card may lie turned this much
GROW = np.arange(-5, 6, 1.0)  # fine px of width/height searched


def _rect(cx: float, cy: float, turn: float, w: float, h: float) -> F64:
    c, s = np.cos(turn), np.sin(turn)
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    rot = np.array([[c, -s], [s, c]])
    out: F64 = pts @ rot.T + (cx, cy)
    return out


def _fit_rect(
    grads: tuple[F32, F32, F32, F32],
    c: tuple[float, float],
    w: float,
    h: float,
    grow: F64,
    shifts: F64 = SHIFTS,
) -> tuple[float, float, float, float, float, float]:
    """Centre, turn (radians) and size of the rectangle whose outline lies on the strongest
    edges within ``shifts`` (fine px) of ``c`` (turn and shift first, then width and
    height), and how strong its edges are (the score the search maximised)."""
    H, W = grads[0].shape
    u = np.linspace(-0.42, 0.42, 15)

    def score(
        cx: NDArray[Any], cy: NDArray[Any], t: NDArray[Any], ww: NDArray[Any], hh: NDArray[Any]
    ) -> NDArray[Any]:
        cs, sn = np.cos(t)[..., None], np.sin(t)[..., None]
        cx, cy = cx[..., None], cy[..., None]
        ww, hh = ww[..., None], hh[..., None]
        total = 0.0
        for sx, sy, along_x, grad in (
            (-1, 0, False, grads[0]),
            (1, 0, False, grads[1]),
            (0, -1, True, grads[2]),
            (0, 1, True, grads[3]),
        ):
            if along_x:
                px, py = u * ww, sy * hh / 2 + 0 * u
            else:
                px, py = sx * ww / 2 + 0 * u, u * hh
            x = cx + cs * px - sn * py
            y = cy + sn * px + cs * py
            xi = np.clip(np.rint(x).astype(np.intp), 0, W - 1)
            yi = np.clip(np.rint(y).astype(np.intp), 0, H - 1)
            total = total + grad[yi, xi].mean(axis=-1)
        return np.asarray(total)

    cx, cy, turn = c[0], c[1], 0.0
    for steps, turns in (
        (shifts, TURNS),
        (np.arange(-2, 3, 1.0), np.radians([-1, -0.5, 0, 0.5, 1])),
    ):
        dx, dy, t = np.meshgrid(steps, steps, turn + turns, indexing="ij")
        s1 = score(cx + dx, cy + dy, t, np.full_like(t, w), np.full_like(t, h))
        k = np.unravel_index(int(np.argmax(s1)), s1.shape)
        cx, cy, turn = cx + float(dx[k]), cy + float(dy[k]), float(t[k])
    fine_t = turn + np.radians(np.array([-0.5, 0.0, 0.5]))
    gw3, gh3, t3 = np.meshgrid(grow, grow, fine_t, indexing="ij")
    s2 = score(np.full_like(t3, cx), np.full_like(t3, cy), t3, w + gw3, h + gh3)
    # A card's paper edge, not the frame printed inside it: of the sizes that fit almost as
    # well as the best, the largest.
    area = (w + gw3) * (h + gh3)
    area[s2 < OUTER_SHARE * float(s2.max())] = -1.0
    k = np.unravel_index(int(np.argmax(area)), s2.shape)
    ww, hh, turn = w + float(gw3[k]), h + float(gh3[k]), float(t3[k])
    # The size changed: the centre may move by a pixel or two.
    sx = np.arange(-3, 4, 1.0)
    ddx, ddy = np.meshgrid(sx, sx, indexing="ij")
    s3 = score(
        cx + ddx, cy + ddy, np.full_like(ddx, turn), np.full_like(ddx, ww), np.full_like(ddx, hh)
    )
    k = np.unravel_index(int(np.argmax(s3)), s3.shape)
    return cx + float(ddx[k]), cy + float(ddy[k]), turn, ww, hh, float(s3[k])


def _box(cx: float, cy: float, w: float, h: float) -> F64:
    return np.array(
        [
            [cx - w / 2, cy - h / 2],
            [cx + w / 2, cy - h / 2],
            [cx + w / 2, cy + h / 2],
            [cx - w / 2, cy + h / 2],
        ]
    )


def _side(
    grad: F32, mid: F64, slope: float, length: float, reach: int, tight: bool = False
) -> tuple[float, float] | None:
    """Line ``across = a + b * t`` through the strongest gradient within ``reach`` of the
    side whose middle is ``mid`` (across, along) and that runs ``slope`` px across per px
    along; rows of ``grad`` are ``t``. None if the probes disagree (with ``tight``, unless
    most of them lie on one straight edge: see ``TIGHT_SHARE``)."""
    H, W = grad.shape
    across0, along0 = float(mid[0]), float(mid[1])
    ts = along0 + np.linspace(-SPAN, SPAN, SAMPLES) * length
    xs, ys = [], []
    drift = abs(slope) * SPAN * length
    lo_all = round(across0 - drift) - reach - 3
    if lo_all < 1 or round(across0 + drift) + reach + 4 > W - 1:
        return None
    for t in ts:
        r = round(t)
        if r < 0 or r >= H:
            continue
        a0 = across0 + slope * (t - along0)  # probed along the side as fitted
        lo, hi = round(a0) - reach, round(a0) + reach + 1
        prof = grad[r, lo:hi]
        j = int(np.argmax(prof))
        x = float(lo + j)
        if 0 < j < len(prof) - 1:  # sub-pixel: the parabola through the peak
            a, b, c = float(prof[j - 1]), float(prof[j]), float(prof[j + 1])
            den = a - 2 * b + c
            if den < 0:
                x += 0.5 * (a - c) / den
        xs.append(x)
        ys.append(t)
    if len(xs) < SAMPLES // 2:
        return None
    x_arr, t_arr = np.array(xs), np.array(ys)
    keep = np.ones(len(x_arr), bool)
    fit = (float(np.median(x_arr)), 0.0)
    for _ in range(3):  # drop probes that caught print or a neighbour, refit
        if keep.sum() < SAMPLES // 2:
            return None
        b, a = np.polyfit(t_arr[keep], x_arr[keep], 1)
        fit = (float(a), float(b))
        res = np.abs(x_arr - (a + b * t_arr))
        keep = res < max(1.0, 2.5 * float(np.median(res[keep])))
    if abs(np.degrees(np.arctan(fit[1]))) > MAX_TURN:
        return None
    if tight and (keep.mean() < TIGHT_SHARE or float(np.median(res[keep])) > TIGHT_PX):
        return None
    return fit


# A side searched far from the rigid outline must be a straight edge: this share of its
# probes within TIGHT_PX fine px (median) of the line
TIGHT_SHARE = 0.7
TIGHT_PX = 0.7


def _corners(
    left: tuple[float, float],
    right: tuple[float, float],
    top: tuple[float, float],
    bottom: tuple[float, float],
) -> F64:
    """Intersections of x = a + b*y (left, right) with y = c + d*x (top, bottom)."""

    def meet(v: tuple[float, float], hz: tuple[float, float]) -> tuple[float, float]:
        a, b = v
        c, d = hz
        y = (c + d * a) / (1.0 - d * b)
        return a + b * y, y

    return np.array([meet(left, top), meet(right, top), meet(right, bottom), meet(left, bottom)])


def rect_maps(quads: F64, inner: float, size: tuple[int, int], pad: int) -> list[F64]:
    """For each card, the homography from a rectified crop to the fine board.

    The crop is ``size`` (w, h) board px showing the card's central ``inner`` share, plus
    ``pad`` px around it (room for a small translation search); it samples the fine board
    (twice the board's resolution).
    """
    w, h = size
    dst = np.array([[pad, pad], [pad + w, pad], [pad + w, pad + h], [pad, pad + h]], np.float32)
    out = []
    for q in quads:
        c = q.mean(axis=0)
        src = (c + (q - c) * inner) * 2.0 + 0.5
        m = cv2.getPerspectiveTransform(dst, src.astype(np.float32))
        out.append(np.asarray(m, np.float64))
    return out


def rectify(fine: F32, maps: list[F64], size: tuple[int, int], pad: int) -> F32:
    """(N, h + 2 pad, w + 2 pad) rectified crops of the fine board, one per map."""
    w, h = size
    dsize = (w + 2 * pad, h + 2 * pad)
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    return np.stack(
        [
            cv2.warpPerspective(fine, m, dsize, flags=flags, borderMode=cv2.BORDER_REPLICATE)
            for m in maps
        ]
    )


def refit_lattice(
    quads: F64,
    board_to_image: F64,
    pitch: float,
    margin: float,
    perspective: bool = True,
    spacing: bool = False,
) -> F64 | None:
    """The lattice-to-photo homography fitted to all the cards' corners (100 points).

    Each card's corners are expected a card's size around its cell's centre; cards laid by
    hand sit a few millimetres off that, which a robust least-squares fit over all of them
    averages out, while the outline-based first fit could leave the lattice sheared. With
    ``perspective``, the camera's perspective is then learned from the cards' areas
    (:func:`_perspective`): only corners fitted side by side show it (rigid outlines of one
    size hide it, and the areas of such outlines would only repeat their errors).

    ``spacing``: fitted to the cards' centres only (25 points). Rigid outlines have the
    board's size everywhere, so their corners pull the lattice back to whatever
    perspective the board was warped with; how far apart the cards lie still shows the
    camera's (DEV seed 13 session 64, a wood table seen steeply: the rigid fit left cards
    43 to 52 board px wide in its board, all fitted 47 wide, and every photo of the
    session left most cells null).
    """
    n = len(quads)
    size = round(float(np.sqrt(n)))
    cells = np.array([[i % size + 0.5, i // size + 0.5] for i in range(n)])
    src = cv2.perspectiveTransform(quads.reshape(-1, 1, 2).astype(np.float64), board_to_image)
    if spacing:
        centres = src.reshape(n, 4, 2).mean(axis=1)
        hom, _ = cv2.findHomography(cells, centres, cv2.LMEDS)
        ok = hom is not None and np.all(np.isfinite(hom))
        return np.asarray(hom, np.float64) if ok else None
    lat = (quads - margin * pitch) / pitch  # board px to lattice units
    w = float(np.median(np.linalg.norm(lat[:, 1] - lat[:, 0], axis=1)))
    h = float(np.median(np.linalg.norm(lat[:, 3] - lat[:, 0], axis=1)))
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    target = (cells[:, None, :] + corners[None]).reshape(-1, 2)
    hom, _ = cv2.findHomography(target, src.reshape(-1, 2), cv2.LMEDS)
    if hom is None or not np.all(np.isfinite(hom)):
        return None
    for _ in range(PERSPECTIVE_ROUNDS if perspective else 0):
        better = _perspective(np.asarray(hom, np.float64), src.reshape(n, 4, 2), cells, target)
        if better is None:
            break
        hom = better
    return np.asarray(hom, np.float64)


PERSPECTIVE_ROUNDS = 2  # the cards' areas are measured again in the corrected lattice


def _perspective(hom: F64, photo_quads: F64, cells: F64, target: F64) -> F64 | None:
    """``hom`` corrected for the perspective the cards' areas show.

    Where the cards lie is a hand's work (millimetres off their cells), but their size is
    the deck's: in a lattice with the right perspective every card has the same area.
    A homography whose last row is (g, h, 1) scales areas by ``(1 + g x + h y) ** -3`` at
    (x, y), so ``area ** (-1/3)`` is linear in the cells' position: its slope gives g and
    h, whatever the cards' own offsets. The affine rest is then fitted to their corners.
    """
    inv = np.linalg.inv(hom)
    lat = cv2.perspectiveTransform(photo_quads.reshape(-1, 1, 2), inv).reshape(-1, 4, 2)
    x, y = lat[..., 0], lat[..., 1]
    area = 0.5 * np.abs((x * np.roll(y, -1, axis=1) - y * np.roll(x, -1, axis=1)).sum(axis=1))
    if not np.all(area > 0):
        return None
    k = area ** (-1.0 / 3.0)
    design = np.c_[np.ones(len(cells)), cells]
    coef = _plane(design, k, 1e-9)  # (a card whose corners were not found is left out)
    g, h = coef[1] / coef[0], coef[2] / coef[0]
    tilt = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [g, h, 1.0]])
    tilted = cv2.perspectiveTransform(target.reshape(-1, 1, 2), tilt).reshape(-1, 2)
    affine, _ = cv2.estimateAffine2D(tilted, lat.reshape(-1, 2), method=cv2.LMEDS)
    if affine is None or not np.all(np.isfinite(affine)):
        return None
    rest = np.eye(3)
    rest[:2] = affine
    out: F64 = hom @ rest @ tilt
    return out
