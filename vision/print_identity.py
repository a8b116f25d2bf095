"""Which island is in each cell, decided on the cards' prints where numbers are legible.

Each cell's print (:mod:`.card_print`) is aligned on the deck's shared outline, reduced to
its printed detail and normalised (zero mean, unit contrast: the light on a card does not
decide), then compared with every island's print in blocks, give or take a print pixel.

A cell's evidence between two islands ``k`` and ``j`` is the linear discriminant of their
two prints: how much closer the card lies to ``k`` than to ``j``, in units of how far apart
``k`` and ``j`` lie (+1: exactly ``k``; -1: exactly ``j``). Only the pixels where the two
islands differ move it, however small that part of the card is (a number, an icon). Blocks
where the card fits neither island (a pawn, a gem, glare) are left out of that pair's
evidence, and what stays visible must still tell the two apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from .card_print import (
    FAINT_OVER_TYPICAL,
    FAINT_SIDE,
    PAD,
    TIE_APART,
    align,
    detail,
    edge_profiles,
    medoid,
    outline_at_sides,
    register,
    side_matches,
    weakest_sides,
)
from .pixels import strided

F32 = NDArray[Any]
F64 = NDArray[Any]
U8 = NDArray[Any]

INNER = 0.84  # share of the card compared (its edge may show table, a shadow, a neighbour)
BLOCKS = (4, 4)  # (columns, rows): an occluded block is left out, not the whole card
REACH = 1  # print px searched each way around the edge alignment (a step more past its edge)
DROP = 2  # worst blocks left out of a pairing's cost
# Certainty (tuned on the DEV decks only):
COLOUR_APART = 0.5  # islands whose colours differ by this much are told apart by colour
OCCLUDED = 1.5  # a block misfitting both islands by this much (per pixel) is hidden
TELLING = 0.1  # a block whose two prints differ less than this (per pixel) says nothing
MIN_APART = 0.1  # the visible telling blocks must differ by this much per pixel in all
# A calibration print more than OFF_PX print px off the deck's outline (as calibrate.py
# counts a card off) whose outline matches the deck's less than WEAK_SIDE of the deck's own
# was framed wrong, not merely nudged (DEV calibrations of seeds 11 and 21, 19 sessions: no
# card more than 4 px off; well-framed cards' outlines match 0.46-1.0 of the deck's)
OFF_PX = 4
WEAK_SIDE = 0.6
# A calibration print one of whose four sides matches the deck's less than ONE_SIDE of the
# deck's own (within card_print.SIDE_GIVE px of its axis's alignment) is not framed either
# (unless the layout places it), however well its axis matched: something light stood
# where one side should be and the other lay outside the print (fresh design 6009: island
# 20's cell a fifth of a card off on a striped table, its right side at 0.05 of the
# deck's). A tight deck's neighbour blurs one side of a card framed right (design 8009:
# 0.16), and 0.25 cost 44 cells on fresh decks 3000-3999.
ONE_SIDE = 0.1
# The card must lie at least this far from the rival towards its island. (It was 0.5: on
# fresh decks 3000-3999 and 5000-5999, 480 photos each, and DEV seed 21, 0.35 makes no
# wrong island sure that 0.5 did not, and reads 0.3-0.9 points more cells; below 0.35 the
# gain is a tenth of a point.)
SIDE = 0.35
# ...and this far when it is read as the island that lay in its cell at calibration: a card
# framed wrong shows the table and neighbours there, which stay put and pass part way for
# that island's print
OWN_SIDE = 0.75
UNFRAMED_SIDE = 0.75
# (Its outline also had to match the deck's at least 0.75 of the deck's own, for design
# 5055's cards pushed out of their frame, outline 0.43. OWN_SIDE and the poor-fit rules
# below now keep those unsure (photo 443: a rival left, and a poor fit), and without the
# rule fresh decks 3000-3999 and 5000-5999 (seed 13, 480 photos each) read 92.0% -> 92.6%
# and 93.3% -> 94.1% of cells, with no new silent misread there nor on 6000-6999 (seed
# 17), 7000-7999 (seed 19) and DEV seeds 21 and 22 (480 photos each).)
# A card whose print fits its island worse than POOR_FIT (per pixel, normalised) is not sure
# of it: the island's own print does not show, and what rules its rivals out is something
# else's (DEV: sure cells fit at most 0.80, 4 of 1613 above 0.7; fresh design 5055: a card
# whose island's calibration print fitted nothing read sure as another at 0.72-0.75).
# When MISFITS cards or more fit so poorly, the prints do not look as calibrated (a deck
# framed differently now than then): nothing is sure (DEV: at most one such card a photo;
# fresh design 5030: 8 of 25 while four cards were read sure, one wrong). Five pawns and
# the gems on cards spoil up to five cards' fit in a sound photo, so five are tolerated
# (fresh decks 3000-3999: 0.9 points more cells read, none wrong; 5030 still refused).
POOR_FIT = 0.7
MISFITS = 6
# On a striped or checked table the outline's registration can take a stripe one period
# on for a card's side (print px 6-8 off, as sure as the right one): that card, and any
# island whose calibration print was so cut, then fits no print, and with MISFITS such
# cards the whole photo is in doubt (fresh design 6018, 6000-6999 seed 43: 8 photos, 134
# cells left null of 200, all 25 in two). When WIDE_CELLS framed cards or more fit no
# island better than WIDE_FIT, each is compared again at every alignment within WIDE
# print px of its outline's. (Pawns and gems spoil a few cards' fit in every photo: on
# 6000-6099, seed 43, no photo of another design had more than 7 cards fitting nothing
# within 0.3, and 6018's had 6-12. A search for every card, 25 x 80 more alignments,
# costs about 0.3 s a photo and leaves more rivals nearly as close.)
WIDE = 12
WIDE_FIT = 0.3
WIDE_CELLS = 8
# A card whose outline was not found (nor placed on the layout) that fits its island's print
# this closely is compared on the right pixels all the same: the print search reaches
# card_print.REACH around the calibrated place, and a print cut where the card does not lie
# fits no island so well. DEV seed 5 and fresh 3000-3999, 5000-5999, 8000-8999 (480
# photos each): of 189 cards not framed, 116 would be sure if framed, every one right; no
# card not framed was given a wrong island at a fit under 0.25.
FIT_FRAMES = 0.25
# A card framed now and read, on such a close fit, as an island whose own print was not
# framed at calibration is sure too (of 154 on the tuning sets, 109 would be sure if it had
# been, one wrong, at 0.49), but not in the cell where that island lay at calibration: a
# print cut mostly on the table there is matched closely by any card lying there cut the
# same way (fresh hand scene 73: island 22 read, sure, as island 20 at 0.12 in 20's own
# cell). Such a card, once sure, rules its island out elsewhere like any other: over six
# diagnosis sets (cell_diag.py, 480 photos each) that reads 65 cells more than keeping it
# out of the witnesses, none wrong, and no hand scene of DEV seed 41 or 6000-6999 seed 43
# is read wrong (the island's own cell is the risk, and it stays excluded there).
# A card whose outline was found neither now nor at calibration vouches for its island's
# print the same way when it fits it within FIT_TWICE: the two were cut alike in different
# cells, which a print cut on the table or a neighbour is not (fresh deck 12007's island 5,
# at 0.06 in every photo). Over the eight diagnosis sets (cell_diag.py, 240 photos each)
# the cards so placed with both outlines lost fitted their island at 0.01-0.1 in 35 cases
# (32 left null before), none wrong; between 0.1 and 0.25, 14, none wrong either, but
# that is the range of a card cut with the table in it, kept out.
FIT_TWICE = 0.1
# A card that fits its island poorly only through its FIT_DROP worst blocks (a quarter of
# it: a pawn's base and shade over one corner) still shows its island's print; the count of
# misfits keeps the whole card's fit.
FIT_DROP = 4
# Prints whose outline was not found are placed on the deck's shared layout
# (place_on_layout) when LAYOUT_LEARN or more were framed, within REACH_LAYOUT print px,
# matching it at least LAYOUT_MATCH of the framed prints' median and LAYOUT_TIE times
# better than 3 px or more away.
LAYOUT_LEARN = 15
REACH_LAYOUT = 9
LAYOUT_MATCH = 0.8
LAYOUT_TIE = 0.9
# ...or at least LAYOUT_NEAR of that median where three of the card's four sides match the
# deck's, SIDE_SEEN of its own at least, within a print px: a card whose band or frame is
# as dark as the table on one side has that side missing (its axis then matches nowhere),
# and the other three sides and its print agree on where it lies (fresh design 4038: its
# five blue cards matched the layout 0.20-0.36 against a median of 0.58; their other
# sides 0.53-1.85 of the deck's there). Only within NEAR_PX of the card's corners: at
# calibration, a grid fit whose corners are off must not pass for as good as a right one
# (fresh design 2007: a rigid fit's card 8 px off so placed made it win the free fit, and
# 11 more cells of its six photos were left null); in readings, cards placed up to 8 px
# off left the demo deck's table session 18 in doubt for 500 more photos (10 moves
# withdrawn instead of 4), and within 4 px read the same cells of fresh decks 4000-4999
# and 9000-9999 as with no limit.
LAYOUT_NEAR = 0.3
SIDE_SEEN = 0.5
NEAR_PX = OFF_PX
# The layout also checks the cards whose outline was found. On a striped
# table a stripe's edge beside a card can pass for its side: the outline then registers
# the card a stripe off, 4-7 print px (fresh design 3015, seed 11: its calibrated corners
# 3-12 photo px off the truth, across the stripes), and its print is compared on the
# wrong pixels. So a framed calibration print that the layout clearly places
# (place_on_layout's own tests) TIE_APART px or more from its outline's registration is
# registered there instead; and in a reading, a framed card that fits no island's print
# within RECHECK_FIT is compared there as well, each island keeping its better alignment.
# Cells read (`benchmarks/cell_diag.py --designs A-B --seed S --n 240`): fresh
# 3000-3099 seed 11 4760 -> 4801, 5000-5099 seed 31 4628 -> 4629, 6000-6099 seed 43
# 5517 -> 5523, 8000-8099 seed 19 5331 -> 5411, DEV seed 5 5914 -> 5914; held out,
# 4000-4099 seed 13 5279 -> 5283, 7000-7099 seed 19 5173 -> 5184; no wrong island given
# on any. (The reading's check alone, at 0.3 / 0.15 / 0.08 / 0: 4768 / 4784 / 4784
# / 4784 on 3000-3099; the calibration's alone 4779.)
RECHECK_FIT = 0.15
# A card whose best fit lies at the edge of the REACH search, a print px off its alignment,
# is compared a step further that way unless it fits some print within PAST_REACH_FIT per
# pixel (PrintDeck._compare_past_reach). On 48 DEV photos, 9.5 cards a photo had their best
# fit at the edge, half of them within 0.05; the step improved the best fit by 0.01 or
# more for 19 cards, 17 of them beyond 0.05. Stepping for every such card cost about
# 1.5 ms a photo (reading_speed.py, one core), and so gated, nothing measurable.
PAST_REACH_FIT = 0.05


@dataclass(frozen=True)
class _BestFits:
    """Each (cell, island) pairing's best comparison so far; its arrays are updated in
    place as more alignments are tried."""

    err: F32  # (cells, islands, shifts, blocks) squared misfit of each block
    total: F32  # (cells, islands, shifts) the same, worst blocks left out, summed
    at: NDArray[np.intp]  # (cells, islands, 2) the alignment each pairing was compared at


@dataclass(frozen=True)
class Evidence:
    """A reading's print comparisons."""

    cost: F32  # (cells, islands) mean squared misfit per pixel, worst blocks left out
    block_err: F32  # (cells, islands, shifts, blocks) squared misfit of each block
    best: NDArray[np.intp]  # (cells, islands) the shift at which each pairing fits best
    block_px: int  # pixels per block
    framed: NDArray[np.bool_]  # (cells,) the card's outline was found (else: in doubt)
    outline: F32  # (cells,) how well its outline matched the deck's (share of the deck's own)
    at: NDArray[np.intp]  # (cells, islands, 2) the alignment (dx, dy) each pairing was compared at


class PrintDeck:
    """The 25 islands' prints, registered on the deck's shared outline, cut into blocks."""

    def __init__(self, prints: U8) -> None:
        _, H, W = prints.shape
        self.card = (W - 2 * PAD, H - 2 * PAD)  # (w, h) of a whole card, print px
        cols, rows = BLOCKS
        bw = max(3, int(self.card[0] * INNER) // cols)
        bh = max(3, int(self.card[1] * INNER) // rows)
        self.block = (bw, bh)
        self.size = (bw * cols, bh * rows)  # the compared window
        self.origin = (
            PAD + (self.card[0] - self.size[0]) // 2,
            PAD + (self.card[1] - self.size[1]) // 2,
        )
        # The calibrated corners are good to a pixel or two of the board, several print
        # pixels: register every island's print on the deck's mean outline first (twice:
        # the mean sharpens once the prints agree).
        c, r = edge_profiles(prints)
        self.ref_cols, self.ref_rows = c[medoid(c)], r[medoid(r)]
        for _ in range(2):
            shift, _ = align(prints, self.ref_cols, self.ref_rows)
            self.ref_cols = _registered_mean(c, shift[:, 0])
            self.ref_rows = _registered_mean(r, shift[:, 1])
        reg = register(prints, self.ref_cols, self.ref_rows)
        shift = reg.shift
        # A calibration print registered far off on a weak outline is a card framed wrong
        # (its corners took in the table or a gap): learning its print as sure would make
        # the table's pattern there pass for that island later.
        misframed = (np.abs(shift).max(axis=1) > OFF_PX) & (reg.strength < WEAK_SIDE)
        # As the outline placed them: what the calibration's own checks judge the grid by.
        self.outline_framed: NDArray[np.bool_] = reg.found & ~misframed
        self.outline_found: NDArray[np.bool_] = reg.found  # (however far off or weak)
        self.outline_shifts = shift
        self.outlined = outline_at_sides(self.ref_cols) and outline_at_sides(self.ref_rows)
        # (a fainter outline still at the sides: trusted only if no card is off it)
        self.faintly_outlined = all(
            outline_at_sides(ref, share=FAINT_SIDE, over_typical=FAINT_OVER_TYPICAL)
            for ref in (self.ref_cols, self.ref_rows)
        )
        soft = detail(prints)
        w, h = self.size
        x0, y0 = self.origin
        # A deck with faint or textured sides leaves some prints unframed on a right grid:
        # every card is printed alike (a frame, where the number and icon sit), and the
        # mean of the framed prints' detail places the others (on fresh decks 3000-3999 and
        # 5000-5999 this reads 1.7-2.2 points more cells, none wrong; 2.7-2.9 with the
        # readings placing their cards the same way, in evidence()).
        shift = shift.copy()
        sides = weakest_sides(prints, self.ref_cols, self.ref_rows, reg.shift)
        self.framed: NDArray[np.bool_] = self.outline_framed & (sides >= ONE_SIDE)
        self.layout = learn_layout(soft, shift, self.framed, self)
        # (not on its sides a print whose outline matched but for one side: it was framed
        # on something beside it, ONE_SIDE above, and its sides would vouch for that)
        self.place_unframed(prints, soft, shift, self.framed, by_sides=~self.outline_framed)
        self._register_on_layout(soft, shift)
        self.shifts = shift
        win = np.stack(
            [
                s[y0 + dy : y0 + dy + h, x0 + dx : x0 + dx + w]
                for s, (dx, dy) in zip(soft, shift, strict=True)
            ]
        )
        t = normalised_blocks(win, self.block)  # (B, 25, p)
        self.energy = (t * t).sum(axis=2)  # (B, 25)
        self.stack = np.ascontiguousarray(t.transpose(0, 2, 1))  # (B, p, 25) for matmul
        self.cross = np.einsum("bkp,bjp->bkj", t, t)  # (B, 25, 25)
        self.pixels = t.shape[0] * t.shape[2]
        # Every two islands' separation per block, made once (open_rivals asks for 25 x 25
        # pairs a reading): (25, 25, B), each pair's blocks contiguous, read-only
        e = self.energy.T  # (25, B)
        self._separations = np.ascontiguousarray(
            e[:, None, :] + e[None, :, :] - 2 * self.cross.transpose(1, 2, 0)
        )
        self._separations.flags.writeable = False

    def place_unframed(
        self,
        prints: U8,
        soft: F32,
        shift: NDArray[np.intp],
        framed: NDArray[np.bool_],
        by_sides: NDArray[np.bool_] | None = None,
    ) -> None:
        """Prints whose outline was not found placed on the deck's layout (in place); on
        their sides too (see ``place_on_layout``) unless ``by_sides`` says not."""
        if self.layout is None or framed.all():
            return
        unframed = np.flatnonzero(~framed)
        # (the sides matched only for the prints they may vouch for)
        vouched = unframed if by_sides is None else unframed[by_sides[unframed]]
        sides: dict[int, F32] = {}
        if len(vouched):
            matches = side_matches(prints[vouched], self.ref_cols, self.ref_rows)
            sides = dict(zip(vouched.tolist(), matches, strict=True))
        for i in unframed.tolist():
            placed = place_on_layout(soft[i], self.layout, self, sides.get(i))
            if placed is not None:
                shift[i] = placed
                framed[i] = True

    def window(self, soft: F32, dx: int, dy: int) -> F32:
        """The compared window of one print's detail, moved by (dx, dy) print px."""
        w, h = self.size
        x0, y0 = self.origin
        out: F32 = soft[y0 + dy : y0 + dy + h, x0 + dx : x0 + dx + w]
        return out

    def evidence(self, prints: U8) -> tuple[Evidence, NDArray[np.intp]]:
        """Every cell against every island at its best shift, and the cells' alignment."""
        reg = register(prints, self.ref_cols, self.ref_rows)
        shift, framed = reg.shift.copy(), reg.found.copy()
        soft = detail(prints)
        # A card whose outline was not found (faint sides, a textured table, a pawn's shadow
        # over its edge) is placed on the deck's shared print instead, if it clearly matches
        self.place_unframed(prints, soft, shift, framed)
        nb = BLOCKS[0] * BLOCKS[1]
        err = self._misfits(soft, shift)  # (n, 25, S, B)
        total = np.sort(err, axis=3)[..., : nb - DROP].sum(axis=3)
        at = np.repeat(shift[:, None, :], err.shape[1], axis=1)  # (n, 25, 2)
        fits = _BestFits(err, total, at)
        # A card with a second outline nearly as good (a frame inside its border) is also
        # compared there; each island keeps the alignment its own print fits best, so that
        # a card framed by its inner outline now and its outer one at calibration (or the
        # other way round) still meets its island's print.
        # (not a card placed on the layout: its outline's peaks are not where it lies)
        alt = np.where((shift == reg.shift).all(axis=1)[:, None], reg.alt, shift)
        for cells, moved in _second_alignments(shift, alt):
            self._compare_also(soft, cells, moved, fits)
        self._search_wide(soft, shift, framed, fits)
        self._compare_on_layout(soft, shift, framed, fits)
        self._compare_past_reach(soft, fits)
        best = np.argmin(total, axis=2)
        n = len(prints)
        ii, kk = np.meshgrid(np.arange(n), np.arange(err.shape[1]), indexing="ij")
        p = self.block[0] * self.block[1]
        ev = Evidence(
            cost=(total[ii, kk, best] / float((nb - DROP) * p)).astype(np.float32),
            block_err=err,
            best=best,
            block_px=p,
            framed=framed,
            outline=reg.strength,
            at=at,
        )
        return ev, shift

    def _compare_also(
        self, soft: F32, cells: NDArray[np.intp], moved: NDArray[np.intp], fits: _BestFits
    ) -> None:
        """``cells`` compared again at ``moved`` (an alignment each); each island keeps the
        alignment its print fits best (``fits`` updated in place)."""
        nb = BLOCKS[0] * BLOCKS[1]
        e2 = self._misfits(soft[cells], moved)
        t2 = np.sort(e2, axis=3)[..., : nb - DROP].sum(axis=3)
        better = t2.min(axis=2) < fits.total[cells].min(axis=2)  # (m, 25)
        rows, isl = np.nonzero(better)
        fits.err[cells[rows], isl] = e2[rows, isl]
        fits.total[cells[rows], isl] = t2[rows, isl]
        fits.at[cells[rows], isl] = moved[rows]

    def _compare_past_reach(self, soft: F32, fits: _BestFits) -> None:
        """Cards whose best fit (any island's) lies at the edge of the ``REACH`` search,
        compared again one step further that way (``fits`` updated in place: see
        :meth:`_compare_also`).

        A card turned a little from its cell's calibrated corners is aligned where its
        sides are, and its fine detail (an icon near one end) can lie 2 px from there:
        its own island's print then misfits it and islands with the same icon stay its
        rivals (fresh design 3009, see docs/vision.md). A card fitting some print within
        ``PAST_REACH_FIT`` is not: about 9 cards a photo have their best fit at the edge,
        mostly noise's, and the step changes nothing for those fitting so closely."""
        n, _, shifts = fits.total.shape
        s = 2 * REACH + 1
        island, at = np.divmod(np.argmin(fits.total.reshape(n, -1), axis=1), shifts)
        step = np.stack([at % s - REACH, at // s - REACH], axis=1)  # (dx, dy) of the best
        edge = np.abs(step).max(axis=1) == REACH
        cells = np.flatnonzero(edge & (self._best_fit_per_px(fits) > PAST_REACH_FIT))
        if not len(cells):
            return
        lo, hi = self._alignment_bounds(soft)
        moved = np.clip(fits.at[cells, island[cells]] + step[cells], lo, hi)
        self._compare_also(soft, cells, moved, fits)

    def _alignment_bounds(self, soft: F32) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
        """The lowest and highest alignment (dx, dy) whose ``REACH`` search keeps every
        compared window on the print."""
        _, height, width = soft.shape
        w, h = self.size
        x0, y0 = self.origin
        lo = np.array([REACH - x0, REACH - y0])
        hi = np.array([width - x0 - w - REACH, height - y0 - h - REACH])
        return lo, hi

    def _best_fit_per_px(self, fits: _BestFits) -> F32:
        """Each card's cost against the island it fits best, per pixel compared (the blocks
        kept: all but the DROP worst)."""
        per_px = float((BLOCKS[0] * BLOCKS[1] - DROP) * self.block[0] * self.block[1])
        out: F32 = fits.total.min(axis=(1, 2)) / per_px
        return out

    def _search_wide(
        self, soft: F32, shift: NDArray[np.intp], framed: NDArray[np.bool_], fits: _BestFits
    ) -> None:
        """When WIDE_CELLS framed cards or more fit no island's print within WIDE_FIT, each
        of them compared again at every alignment within WIDE print px of its outline's
        (``fits`` updated in place: see :meth:`_compare_also`)."""
        poor = framed & (self._best_fit_per_px(fits) > WIDE_FIT)
        if int(poor.sum()) < WIDE_CELLS:
            return
        cells = np.flatnonzero(poor)
        # (steps of the REACH-wide search around each alignment tile the square; every
        # window stays on the print)
        lo, hi = self._alignment_bounds(soft)
        offsets = range(-WIDE, WIDE + 1, 2 * REACH + 1)
        for oy in offsets:
            for ox in offsets:
                if ox or oy:
                    moved = np.clip(shift[cells] + np.array([ox, oy]), lo, hi)
                    self._compare_also(soft, cells, moved, fits)

    def _register_on_layout(self, soft: F32, shift: NDArray[np.intp]) -> None:
        """Framed prints that the layout clearly places ``TIE_APART`` print px or more from
        their outline's registration are registered where it places them (``shift``
        updated in place; see ``RECHECK_FIT``)."""
        if self.layout is None:
            return
        for i in np.flatnonzero(self.framed).tolist():
            place = place_on_layout(soft[i], self.layout, self)
            if place is not None and _apart(place, shift[i]):
                shift[i] = place

    def _compare_on_layout(
        self, soft: F32, shift: NDArray[np.intp], framed: NDArray[np.bool_], fits: _BestFits
    ) -> None:
        """Framed cards that fit no island's print within ``RECHECK_FIT``, compared again
        where the deck's layout clearly places them, if that lies ``TIE_APART`` print px or
        more from their outline's alignment (``fits`` updated in place: see
        :meth:`_compare_also`; and ``RECHECK_FIT``)."""
        if self.layout is None:
            return
        poor = framed & (self._best_fit_per_px(fits) > RECHECK_FIT)
        cells, moved = [], []
        for i in np.flatnonzero(poor).tolist():
            place = place_on_layout(soft[i], self.layout, self)
            if place is not None and _apart(place, shift[i]):
                cells.append(i)
                moved.append(place)
        if cells:
            self._compare_also(soft, np.array(cells), np.array(moved), fits)

    def _misfits(self, soft: F32, shift: NDArray[np.intp]) -> F32:
        """(cells, 25, shifts, blocks) squared misfit of each block of each cell's window
        (at ``shift``, give or take ``REACH`` print px) against each island's print."""
        w, h = self.size
        x0, y0 = self.origin
        n = len(soft)
        s = 2 * REACH + 1
        # Each cell normalised once, on its aligned window (its shifted windows overlap
        # it almost wholly), then its blocks at every shift copied straight into place:
        # blocks[by, bx, i, dy, dx] is the block (by, bx) of cell i's window shifted by
        # (dx, dy) - REACH. (Only the pixels the shifted windows reach are normalised.)
        # All cells at once: the same float32 reductions and arithmetic as one cell at a
        # time, without 25 rounds of numpy's per-call overhead.
        bw, bh = self.block
        cols, rows = BLOCKS
        windows = []
        for i, (sx, sy) in enumerate(shift.tolist()):
            top, left = y0 + sy - REACH, x0 + sx - REACH
            windows.append(soft[i, top : top + h + 2 * REACH, left : left + w + 2 * REACH])
        reach = np.stack(windows)
        centre = reach[:, REACH : REACH + h, REACH : REACH + w]
        # (the contrast plus 1e-3 in double, then float32: what a Python float divisor gave)
        contrast = (centre.std(axis=(1, 2)).astype(np.float64) + 1e-3).astype(np.float32)
        norm = (reach - centre.mean(axis=(1, 2))[:, None, None]) / contrast[:, None, None]
        rn, ry, rx = norm.strides
        blocks6 = np.ascontiguousarray(
            strided(norm, (rows, cols, n, s, s, bh, bw), (bh * ry, bw * rx, rn, ry, rx, ry, rx))
        )
        nb, p = rows * cols, bh * bw
        blocks = blocks6.reshape(nb, n * s * s, p)  # (B, nS, p)
        # Squared misfit per block |c|^2 + |t|^2 - 2 c.t; the products one 2-D matrix
        # product per block (numpy's stacked matmul does not reach BLAS).
        dots = np.stack([blocks[b] @ self.stack[b] for b in range(nb)])  # (B, nS, 25)
        c2 = np.einsum("bnp,bnp->bn", blocks, blocks)
        err = c2[:, :, None] + self.energy[:, None, :] - 2 * dots
        out: F32 = err.reshape(nb, n, s * s, -1).transpose(1, 3, 2, 0)  # (n, 25, S, B)
        return out

    def separation_matrix(self) -> F32:
        """(25, 25) mean squared difference per pixel between every two islands' prints
        (normalised: 2 for unrelated prints, 0 for the same print)."""
        e = self.energy.sum(axis=0)
        out: F32 = (e[:, None] + e[None, :] - 2 * self.cross.sum(axis=0)) / float(self.pixels)
        return out

    def separations_from(self, chosen: NDArray[np.intp]) -> F32:
        """(len(chosen), 25, B) squared distance per block between each chosen island's
        print and every island's (a copy)."""
        out: F32 = self._separations[chosen]
        return out


@dataclass(frozen=True)
class Layout:
    """The deck's shared print: the mean detail of its framed calibration prints."""

    mean: F32  # (h, w) the compared window's mean detail
    typical: float  # how well a framed print matches the others' mean (median correlation)


def _second_alignments(
    shift: NDArray[np.intp], alt: NDArray[np.intp]
) -> list[tuple[NDArray[np.intp], NDArray[np.intp]]]:
    """The cells with a second outline, and where it puts them: its x, its y, then both
    (each as (cells, (m, 2) shifts), the cells whose candidate differs from ``shift``)."""
    second = alt != shift  # (cells, 2) which axes have a second outline
    out = []
    for use in ((True, False), (False, True), (True, True)):
        axes = np.array(use)
        cells = np.flatnonzero((second[:, axes]).all(axis=1))
        if len(cells):
            out.append((cells, np.where(axes, alt[cells], shift[cells])))
    return out


def learn_layout(
    soft: F32, shift: NDArray[np.intp], framed: NDArray[np.bool_], deck: PrintDeck
) -> Layout | None:
    """The layout the framed prints share, or None with too few of them to learn it from."""
    n = int(framed.sum())
    if n < LAYOUT_LEARN:
        return None
    wins = np.stack(
        [deck.window(s, int(dx), int(dy)) for s, (dx, dy) in zip(soft, shift, strict=True)]
    )
    total = wins[framed].sum(axis=0)
    own = [_ncc(wins[i], (total - wins[i]) / (n - 1)) for i in np.flatnonzero(framed)]
    return Layout(mean=(total / n).astype(np.float32), typical=float(np.median(own)))


def place_on_layout(
    soft: F32,
    layout: Layout,
    deck: PrintDeck,
    sides: F32 | None = None,
) -> tuple[int, int] | None:
    """Where one print's detail matches the deck's layout: (dx, dy) print px off its
    corners, or None when the match is not as clear as the framed prints' own
    (``LAYOUT_MATCH`` of their median, ``LAYOUT_TIE`` over any match 3 px or more away) or
    lies at the edge of the reach. Where three of its four ``sides`` (as
    :func:`.card_print.side_matches` gives them) match there, ``LAYOUT_NEAR`` of the
    median is enough, two cues having found it, within ``NEAR_PX`` of its corners."""
    w, h = deck.size
    x0, y0 = deck.origin
    r = REACH_LAYOUT
    area = np.ascontiguousarray(soft[y0 - r : y0 + h + r, x0 - r : x0 + w + r], np.float32)
    score = cv2.matchTemplate(area, layout.mean, cv2.TM_CCOEFF_NORMED)  # (2r+1, 2r+1)
    dy, dx = np.unravel_index(int(np.argmax(score)), score.shape)
    best = float(score[dy, dx])
    yy, xx = np.mgrid[: score.shape[0], : score.shape[1]]
    rival = float(score[np.maximum(np.abs(yy - dy), np.abs(xx - dx)) >= 3].max())
    inside = 0 < dy < 2 * r and 0 < dx < 2 * r
    if not inside or rival >= LAYOUT_TIE * best:
        return None
    place = int(dx) - r, int(dy) - r
    need = LAYOUT_MATCH
    close = max(abs(place[0]), abs(place[1])) <= NEAR_PX
    if sides is not None and close and _sides_seen(sides, place) >= 3:
        need = LAYOUT_NEAR
    return place if best >= need * layout.typical else None


def _sides_seen(sides: F32, place: tuple[int, int]) -> int:
    """How many of a card's four sides match the deck's ``SIDE_SEEN`` or better within a
    print px of ``place`` (``sides``: (4, shifts), left, right, top, bottom)."""
    r = (sides.shape[1] - 1) // 2
    seen = 0
    for s in range(4):
        d = place[s // 2] + r
        if 0 <= d < sides.shape[1] and float(sides[s, max(d - 1, 0) : d + 2].max()) >= SIDE_SEEN:
            seen += 1
    return seen


def _ncc(a: F32, b: F32) -> float:
    a = a - a.mean()
    b = b - b.mean()
    return float((a * b).sum() / (np.sqrt((a * a).sum() * (b * b).sum()) + 1e-6))


def _apart(place: tuple[int, int], shift: NDArray[np.intp]) -> bool:
    """Whether two alignments lie ``TIE_APART`` print px or more apart on either axis."""
    return max(abs(place[0] - int(shift[0])), abs(place[1] - int(shift[1]))) >= TIE_APART


def _registered_mean(profiles: F32, shifts: NDArray[np.intp]) -> F32:
    out: F32 = np.mean([np.roll(p, -d) for p, d in zip(profiles, shifts, strict=True)], axis=0)
    return out


def framing(
    ev: Evidence, deck: PrintDeck, choice: NDArray[np.intp]
) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """The two conditions for a card read as ``choice`` to be compared on the right
    pixels: its outline was found in this photo, and the print of the island read was
    framed at calibration. A card fitting its island closely (``FIT_FRAMES``) meets the
    first anyway, and, framed now (or fitting within ``FIT_TWICE``), the second too, but
    only away from that island's own cell (:func:`vouched`). A card failing either is never
    sure. (benchmarks/cell_diag.py names the null cells' reasons by the same two.)"""
    cells = np.arange(len(choice))
    close = ev.cost[cells, choice] <= FIT_FRAMES
    card: NDArray[np.bool_] = ev.framed | close
    island: NDArray[np.bool_] = vouched(ev, deck, choice)[choice]
    return card, island


def vouched(ev: Evidence, deck: PrintDeck, choice: NDArray[np.intp]) -> NDArray[np.bool_]:
    """(islands,) whether each island's print can be trusted as cut right in this reading:
    it was framed at calibration, or the card read as that island, away from the cell it lay
    in at calibration, fits it closely, framed now (``FIT_FRAMES``) or not (``FIT_TWICE``)."""
    cells = np.arange(len(choice))
    own = ev.cost[cells, choice]
    confirms = ((ev.framed & (own <= FIT_FRAMES)) | (own <= FIT_TWICE)) & (choice != cells)
    out: NDArray[np.bool_] = deck.framed.copy()
    out[choice[confirms]] = True
    return out


def certain(
    ev: Evidence,
    deck: PrintDeck,
    colour: F32,
    choice: NDArray[np.intp],
    hidden: NDArray[np.bool_] | None = None,
) -> NDArray[np.bool_]:
    """Whether each cell's island is sure: told apart from every other island.

    Another island ``j`` is ruled out for cell ``i`` (given island ``k``) when its colours
    differ clearly (``colour``: costs in units of the deck's typical difference) and its
    print fits the card worse than ``k``'s (colour only demotes), or when
    the prints' discriminant puts the card at least ``SIDE`` of the way towards ``k``
    (``OWN_SIDE`` when ``k`` is the island that lay in cell ``i`` at calibration;
    ``UNFRAMED_SIDE`` when ``j``'s print was not framed, nor vouched for by its card in
    this photo, and only for a card fitting ``k``'s print closely as a whole), on blocks
    that fit one of the two (an object over a block says nothing) and that still
    hold enough of what tells ``k`` and ``j`` apart. Each island lies on the table once, so
    an island surely seen in another cell is ruled out too: a pawn over one of two
    same-coloured cards' numbers leaves that card sure once the other card is.

    ``hidden`` cells (in a hand's reach) are sure on their own evidence only: they never
    rule their island out elsewhere nor contest another card's, and their misfits do not
    count among the poorly fitting cards that make every card doubtful.
    """
    still_open, favours = _told_apart(ev, deck, colour, choice)
    rivals = [np.flatnonzero(row) for row in still_open]
    # (a card compared on the wrong pixels is never sure: see framing)
    card_framed, island_framed = framing(ev, deck, choice)
    framed = card_framed & island_framed
    own = ev.cost[np.arange(len(choice)), choice]
    fit = own <= POOR_FIT
    # (only the framed cards' misfits say the prints no longer look as calibrated: a card
    # compared on the wrong pixels fits poorly for that reason alone. Fresh design 7023:
    # four misfits under pawns and a gem, plus two cards not framed, left every card of
    # the photo in doubt. A hand's fingers spoil the fit of the cards they reach.)
    misfits = ~fit & framed
    if hidden is not None:
        misfits &= ~hidden
    framed &= int(misfits.sum()) < MISFITS
    framed &= fit | (_fit_without(ev, choice, FIT_DROP) <= POOR_FIT)
    # Each island lies once, both ways: a card read as k while another cell's card fits k's
    # print far better than its own island's was given k by the colours, against the
    # prints (fresh deck 3019: a pawn over island 15 left it fitting 11's print at 0.64,
    # while island 11 itself lay elsewhere at 0.01 and was read as 15 at 0.35; sure as 11,
    # the first card ruled 11 out for the second, and the two were swapped silently).
    framed &= ~_beaten(ev.cost, choice)
    # ...and an island that another card's print is told apart in favour of is not sure
    # where it was chosen (fresh deck 8002: see _contested).
    framed &= ~np.isin(choice, _contested(ev, choice, favours, hidden))
    sure = np.array([len(r) == 0 for r in rivals]) & framed
    witness = np.ones(len(choice), bool) if hidden is None else ~hidden
    while True:
        placed = set(choice[sure & witness].tolist())
        more = framed & np.array(
            [not sure[i] and set(r.tolist()) <= placed for i, r in enumerate(rivals)]
        )
        if not more.any():
            return sure
        sure |= more


def _beaten(cost: F32, choice: NDArray[np.intp]) -> NDArray[np.bool_]:
    """(cells,) whether another cell's card fits each cell's chosen island's print better
    than this card does and far better (``BEATEN``) than its own chosen island's."""
    n = len(choice)
    cells = np.arange(n)
    own = cost[cells, choice]  # (cells,)
    others = cost[:, choice].copy()  # others[j, i]: cell j's card against cell i's island
    others[cells, cells] = np.inf
    fights = (others < own[None, :]) & (others < BEATEN * own[:, None])
    out: NDArray[np.bool_] = np.asarray(fights.any(axis=0), dtype=bool)
    return out


def _contested(
    ev: Evidence,
    choice: NDArray[np.intp],
    favours: NDArray[np.bool_],
    hidden: NDArray[np.bool_] | None,
) -> NDArray[np.intp]:
    """The islands that another card's print is told apart in favour of (``favours``, see
    :func:`_told_apart`), against that card's own choice: one of the two cards was given
    the other's island by the colours. Fresh deck 8002: island 19 under a pawn was read 14
    by its few blocks left, island 14 under a gem read 19 by its colours (its print 0.61 of
    the way towards 14's); each ruled the other's island out, and the two were swapped
    silently.

    Only a framed, unhidden card that fits its own choice no worse than ``POOR_FIT`` says
    so, and only for an island whose print fits it well, far better than its own choice's
    (``FAVOURED_FIT``) and better than the card given that island: a smudged card's blocks
    lean anywhere, against a wrong choice many islands look a little better, a card whose
    own island's print was learned poorly fits many better (fresh deck 8044's island 9,
    0.85-0.92, favoured eight islands a photo, all read right), and a card read right fits
    its print best (fresh deck 8039's wrongly read card favoured four islands read right).
    """
    own = ev.cost[np.arange(len(choice)), choice]
    trusted = ev.framed & (own <= POOR_FIT)
    if hidden is not None:
        trusted = trusted & ~hidden
    fits = (ev.cost <= POOR_FIT) & (ev.cost <= FAVOURED_FIT * own[:, None])
    holder = np.full(ev.cost.shape[1], np.inf, ev.cost.dtype)
    holder[choice] = own
    favoured = favours & fits & trusted[:, None] & (ev.cost < holder[None, :])
    return np.flatnonzero(favoured.any(axis=0))


FAVOURED_FIT = 0.5  # x a card's misfit to its chosen island: another island's fits far better
BEATEN = 0.25  # x a card's fit to its own chosen island: another island's print fits it far
# better (an occluded card fits its rivals' prints about as badly as its own)


def _fit_without(ev: Evidence, choice: NDArray[np.intp], drop: int) -> F32:
    """(cells,) each card's misfit to its chosen island at its best shift, per pixel, its
    ``drop`` worst blocks left out."""
    n = len(choice)
    cells = np.arange(n)
    blocks = ev.block_err[cells, choice, ev.best[cells, choice]]  # (cells, B)
    kept = np.sort(blocks, axis=1)[:, : blocks.shape[1] - drop]
    out: F32 = kept.sum(axis=1) / float(kept.shape[1] * ev.block_px)
    return out


def open_rivals(
    ev: Evidence, deck: PrintDeck, colour: F32, choice: NDArray[np.intp]
) -> list[NDArray[np.intp]]:
    """For each cell, the islands other than its chosen one it cannot be told apart from."""
    still_open, _ = _told_apart(ev, deck, colour, choice)
    return [np.flatnonzero(row) for row in still_open]


def _told_apart(
    ev: Evidence, deck: PrintDeck, colour: F32, choice: NDArray[np.intp]
) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """(cells, islands): the islands each cell's card cannot be told apart from its chosen
    one (see :func:`open_rivals`), and those its print is told apart in favour of, against
    the chosen island (the choice then came from the colours or the assignment).

    Every cell against every island at once (25 x 25 pairs of 16 blocks: one pass instead
    of a numpy round per cell, a millisecond a reading).
    """
    n, islands = colour.shape
    cells = np.arange(n)
    # Colour may demote an island, never decide against the print: an island whose print
    # fits the card at least as well as the chosen one stays a rival however its colours
    # differ (a pawn's or the light's colour over a card moves its colour cost, not its
    # print).
    near = colour - colour[cells, choice][:, None] < COLOUR_APART
    candidate = near | (ev.cost <= ev.cost[cells, choice][:, None])
    candidate[cells, choice] = False
    p = float(ev.block_px)
    sep = deck.separations_from(choice)  # (cells, islands, B)
    # Each island at its own best alignment: the rival gets every chance (judged at the
    # chosen island's, a rival a pixel off would look worse than it is); only blocks where
    # the two prints differ count (below), so the shifts' noise elsewhere does not.
    ek = ev.block_err[cells, choice, ev.best[cells, choice]][:, None, :]  # (cells, 1, B)
    ej = ev.block_err[cells[:, None], np.arange(islands)[None, :], ev.best]
    # Blocks that tell the two apart and fit one of them: elsewhere an object's edges
    # (a pawn, glare) move the misfits by more than the islands' small difference there.
    seen = (np.minimum(ek, ej) / p <= OCCLUDED) & (sep / p >= TELLING)
    den = (sep * seen).sum(axis=2)
    rho = ((ej - ek) * seen).sum(axis=2) / np.maximum(den, 1e-6)
    # An island whose print was not framed at calibration was cut a few pixels off, or
    # with the table in it: only a card far nearer the chosen print than its rules it out,
    # and only one that fits the chosen print closely as a whole, no block left out (as a
    # card not framed must, `FIT_FRAMES`). A print cut far off tells every card apart
    # from itself, its own island's too: fresh deck 7073's island 4, cut a quarter card
    # off, ruled its own card out at 0.83 of the way to island 7's, whose print that card
    # fitted but for its icon, two blocks left out of the fit: read as 7, sure.
    whole = _fit_without(ev, choice, 0) <= FIT_FRAMES
    own = np.where(choice == cells, OWN_SIDE, SIDE)[:, None]
    # ...but an island whose card in this photo vouches for its print (see vouched) is told
    # apart like any framed island: fresh deck 12007's island 18, its print not framed at
    # calibration, fitted its own card at 0.01 and was still a rival of cards 0.81-0.83 of
    # the way from it, fitting their own prints loosely as a whole (0.52-0.66). Over the
    # eight diagnosis sets the nulls for "rival not framed" went 206 -> 188 (cell_diag.py),
    # none wrong.
    framed = vouched(ev, deck, choice)
    side = np.where(framed[None, :], own, np.where(whole, UNFRAMED_SIDE, np.inf)[:, None])
    apart = den / p >= MIN_APART
    told = apart & (rho >= side)
    favours = apart & (rho <= -SIDE) & framed[None, :]
    favours[cells, choice] = False
    return candidate & ~told, favours


def normalised_blocks(crops: F32, block: tuple[int, int]) -> F32:
    """(blocks, n, pixels): each crop zero-mean and unit variance as a whole (not per block:
    a block without print must stay near zero, not have its noise blown up), then cut."""
    n, h, w = crops.shape
    flat = crops.reshape(n, -1)
    flat = (flat - flat.mean(axis=1, keepdims=True)) / (flat.std(axis=1, keepdims=True) + 1e-3)
    return cut_blocks(flat.reshape(n, h, w), block)


def cut_blocks(crops: F32, block: tuple[int, int]) -> F32:
    """(blocks, n, pixels) of (n, h, w) crops, contiguous for the matrix products."""
    n, h, w = crops.shape
    bw, bh = block
    b = crops.reshape(n, h // bh, bh, w // bw, bw).transpose(1, 3, 0, 2, 4)
    out: F32 = np.ascontiguousarray(b).reshape((h // bh) * (w // bw), n, bh * bw)
    return out
