"""Calibration: learn the grid's place, the 25 cards and the 5 pawns from two photos.

Protocol (``/work/shared/spec/reading.md``): ``solved`` shows islands 1..25 in reading order,
``pawns`` the same layout with Borea..Austro on islands 1..5. Anything that would make later
readings unreliable is refused here with the reason, because a bad profile would otherwise
turn into silent misreads during a game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine.grid import ALL_CELLS, SIZE

from .board import BoardGeometry, choose_shrink
from .calibration_glare import clear_glare, glare_moved_off
from .camera_drift import moved_by
from .card_identity import (
    coarse_costs,
    crop_cards,
    crop_grey,
    match_lighting,
    quartiles,
    soften,
)
from .card_print import PRINT_CHANNELS, cut_plane, cut_prints, print_grey, print_maps, print_size
from .card_quads import (
    deck_size,
    edge_images,
    edge_polarity,
    find_quads,
    off_size,
    refit_lattice,
)
from .exposure import match_exposure, table_ring
from .focus import photo_out_of_focus
from .grid_locator import GridFit, GridNotFoundError, TableModel, locate_grid, to_lab
from .pawn_objects import learn_looks
from .pawns import learn_pawns
from .photo_io import PhotoError, check_image
from .print_identity import PrintDeck
from .profile import Profile
from .reading import Status
from .residual import residual

# OpenCV's type stubs return loosely typed arrays: the aliases name the intent only.
F32 = NDArray[Any]
F64 = NDArray[Any]
U8 = NDArray[Any]

PITCH = 48  # board px per cell: a card is ~40 px wide, plenty for 24x32 features
MARGIN = 0.7  # cells of table kept around the grid (room for Austro outside)
REFITS = 2  # lattice refits to the cards' own corners
# cells: a card's first fit this close to where the lattice expects it is settled (see
# card_quads.SETTLED_SHIFTS); a first fit a few px off may be a rim's or a gap's width off
# itself (fresh design 3018's card 9: its first fit 4.5 board px off the card and 5.1 from
# its cell; with every card within 0.12 of a cell searched only near its first fit, it
# stayed there, 15 photo px off)
SETTLED = 0.06
MAX_UNSURE = 19  # refuse only a profile that cannot read any card of its own pawns photo
MIN_CARD_CONTRAST = 0.2  # two islands closer than this (x typical difference) are refused...
MIN_APART = 0.05  # ...if their prints differ by less than this (see PrintDeck.separation_matrix)
# A card's print off the deck's outline by more than OFF_PX print px, or not framed, has its
# corners wrong; a right grid has at most a few such cards (DEV seeds 21-26: up to 6; a
# lattice off the cards, 7-18; with 3 px instead of 4 a right grid reached 13). 2 px was
# tried with the two card fits: it refused 6 more DEV sessions (seeds 22-26), 5 of which
# read 74-100% of their cells right with none wrong (e.g. seed 23 session 4: 150/150).
OFF_PX = 4
MAX_OFF = 6


class CalibrationError(ValueError):
    """The calibration photos cannot make a reliable profile; the message says why."""


class OutlineError(CalibrationError):
    """The cards' outlines were not found in the prints' channel (another may show them)."""


class FramingError(OutlineError):
    """Too many cards' prints lie off the deck's outline: a grid placed wrong, or (if the
    deck's layout vouches for them) one whose cards' outlines are faint."""


def calibrate(solved_bgr: U8, pawns_bgr: U8) -> Profile:
    """A profile from the two calibration photos, or :class:`CalibrationError`."""
    try:
        solved = check_image(solved_bgr, "solved photo")
        pawns = check_image(pawns_bgr, "pawns photo")
    except PhotoError as exc:
        raise CalibrationError(str(exc)) from None
    if solved.shape != pawns.shape:
        raise CalibrationError(
            f"the photos differ in size ({solved.shape[1]}x{solved.shape[0]} and "
            f"{pawns.shape[1]}x{pawns.shape[0]}): take both with the same camera"
        )
    try:
        return _calibrate_photos(solved, pawns)
    except CalibrationError as refused:
        # A photo out of focus is refused for what its blur passes for (no grid, edges not
        # found precisely, a grid that does not fit the cards, a pawn not seen): say so
        # instead, or the players re-lay their cards to no avail. (Asked only then: a little
        # blur calibrates, see docs/vision.md, "A photo out of focus".)
        blurred = photo_out_of_focus(solved, "solved photo") or photo_out_of_focus(
            pawns, "pawns photo"
        )
        if blurred is None:
            raise
        raise CalibrationError(blurred) from refused


def _calibrate_photos(solved: U8, pawns: U8) -> Profile:
    """:func:`calibrate` of two checked photos of the same size."""
    try:
        fit = locate_grid(solved)
    except GridNotFoundError as exc:
        raise CalibrationError(f"solved photo: grid not found: {exc}") from None
    # The cards' outlines are looked for in grey first, then in the other channels in turn
    # (card_print.PRINT_CHANNELS): a yellow or pale border can be as light as a white or
    # grey table in grey and plain in another. Only a refusal for the outlines goes on to
    # the next channel (each try costs a whole fit); if none finds them, grey's reason is
    # given, and a later channel's other reason (it found the outlines) if it has one.
    first: OutlineError | None = None
    grey: tuple[CardFit, CardFit] | None = None
    for channel in PRINT_CHANNELS:
        fits = _card_fits(channel, solved, fit)
        grey = grey or fits
        try:
            return _calibrate_fits(*fits, solved, pawns)
        except OutlineError as refused:
            first = first or refused
    assert first is not None and grey is not None
    # Refused in every channel: the grid may still be right, some cards' outlines merely
    # faint in grey, where the deck's layout vouches for them (see _check_framing). Only
    # then: let into every session, it changed which fit two accepted sessions kept, each
    # with more prints unframed (fresh deck 5014's island 15 moved 4.9 px onto its
    # neighbour's band). (Grey's fits are kept from its try: fitted again, fresh deck
    # 3020's refusal took 26.0 s of CPU instead of 16.6; so, 20.1.)
    if not isinstance(first, FramingError):
        raise first
    try:
        rigid, free = (replace(f, layout_vouches=True) for f in grey)
        return _calibrate_fits(rigid, free, solved, pawns)
    except OutlineError:
        pass
    # ...or, refused so, where the table shows them (see _table_confirms): only then, for
    # the layout's choice reads better where both accept (fresh 8000-8999 seed 77, deck
    # 8000: 175 cells of 200 right and every pawn, against 66 and a phantom pawn on the
    # fit the table confirmed first). Only the fits the table confirms are tried again.
    photo = _shade_weighed(solved)  # (once for both fits: the whole photo in Lab)
    rigid, free = (replace(f, table_confirms=_table_confirms(solved, photo, f)) for f in grey)
    if not (rigid.table_confirms or free.table_confirms):
        raise first
    try:
        return _calibrate_fits(rigid, free, solved, pawns)
    except OutlineError:
        raise first from None


def _calibrate_on(channel: str, solved: U8, pawns: U8, fit: GridFit) -> Profile:
    """The profile with the prints cut from ``channel``, or :class:`CalibrationError`."""
    return _calibrate_fits(*_card_fits(channel, solved, fit), solved, pawns)


def _card_fits(channel: str, solved: U8, fit: GridFit) -> tuple[CardFit, CardFit]:
    """The rigid and the free fit of the cards, their prints cut from ``channel``."""
    # Two fits of the cards' corners (rigid outlines, and sides fitted each on its own: see
    # card_quads.find_quads), each with its own refitted lattice. The rigid one is kept
    # unless the free one's prints line up better with the deck's outline...
    rigid = _fit_cards(solved, fit, channel, free=False)
    # ...of which there are two: the lattice refitted to the rigid outlines' corners, or to
    # their centres alone, which show a steep camera's perspective that the outlines, all
    # of the board's size, hide (card_quads.refit_lattice); kept if fewer of its prints lie
    # off the deck's outline (the centres carry the hand's offsets too: on a lattice the
    # corners fit, lining up a few print px better was no better read, fresh deck 3013;
    # so it is not even made when every print lines up with the outline)
    if _misfit(rigid.deck)[:2] > (False, 0):
        spaced = _fit_cards(solved, fit, channel, free=False, spacing=True)
        if _misfit(spaced.deck)[:2] < _misfit(rigid.deck)[:2]:
            rigid = spaced
    return rigid, _fit_cards(solved, fit, channel, free=True)


def _calibrate_fits(rigid: CardFit, free: CardFit, solved: U8, pawns: U8) -> Profile:
    """The profile of the fit to keep of the two, or :class:`CalibrationError`."""
    try:
        return _choose(rigid, free, solved, pawns, glare_again=False)
    except CalibrationError as refused:
        # Only a session refused whole has its pawns learned again without the solved
        # photo's glare gone from the pawns photo (pawns.learn_pawns): let into every
        # session, it changed which fit some kept (fresh deck 4045: a phantom Etesia).
        try:
            return _choose(rigid, free, solved, pawns, glare_again=True)
        except CalibrationError:
            raise refused from None


def _choose(rigid: CardFit, free: CardFit, solved: U8, pawns: U8, glare_again: bool) -> Profile:
    """The profile of the fit of the cards to keep, or :class:`CalibrationError`."""
    # (as a last resort, a fit the table confirms first: see _table_confirms)
    if not _fit_order(free) < _fit_order(rigid):
        return _profile(rigid, solved, pawns, glare_again)[0]
    # ...and reads its own pawns photo back with no more cells in doubt: the free lattice's
    # perspective comes from the cards' areas, which a striped table can mislead while the
    # prints still line up (DEV seed 22 session 10: 97 cells of 194 right instead of 138).
    try:
        kept, doubt = _profile(free, solved, pawns, glare_again)
    except CalibrationError as refused:
        try:
            return _profile(rigid, solved, pawns, glare_again)[0]
        except CalibrationError:
            # Both refused: the free fit is the one whose prints line up, so its reason is
            # the one to act on (fresh design 5017: a pawns photo to retake, where the rigid
            # fit's "cards' edges not found" would have the player re-lay the cards).
            raise refused from None
    try:
        other, other_doubt = _profile(rigid, solved, pawns, glare_again)
    except CalibrationError:
        return kept
    # An island whose print neither fit framed is a card in doubt in every reading to come,
    # wherever it lies, though the pawns photo may read around it (fresh design 3020: the
    # rigid fit left two unframed and one cell in doubt, the free fit none and three; kept,
    # it left 29 more cells null over its eight photos, 47 instead of 18).
    mine = doubt + int((~free.deck.framed).sum())
    theirs = other_doubt + int((~rigid.deck.framed).sum())
    return kept if mine <= theirs else other


def _fit_order(cards: CardFit) -> tuple[bool, bool, int, int]:
    return (not cards.table_confirms, *_misfit(cards.deck))


def islands_in_doubt(profile: Profile) -> list[int]:
    """The islands (1..25) whose print in the solved photo was framed neither by the deck's
    outline nor by its layout.

    A reading never takes such an island as sure (unless it is the one card left over): a
    profile that has some is accepted, but the player is told which at calibration, since
    every reading to come will doubt those cards more often (a retake, the cards a finger
    apart on a plainer surface, may frame them).
    """
    if profile.card_prints is None:
        return []
    return [int(i) + 1 for i in np.flatnonzero(~PrintDeck(profile.card_prints).framed)]


def _profile(cards: CardFit, solved: U8, pawns: U8, glare_again: bool) -> tuple[Profile, int]:
    """The profile of one fit of the cards, and how many cells it leaves in doubt when it
    reads its own pawns photo back; or :class:`CalibrationError`. ``glare_again``: pawns
    refused are learned again without glare gone from the pawns photo."""
    geometry, board, lab, quads = cards.geometry, cards.board, cards.lab, cards.quads
    prints, deck = cards.prints, cards.deck
    board2 = geometry.warp(pawns)
    lab2 = to_lab(board2)
    # The second photo's light may differ (clouds, a lamp): match it on the pawn-free rows.
    rest = np.zeros(board.shape[:2], np.uint8)
    rest[round(MARGIN * PITCH + PITCH) : round((MARGIN + SIZE) * PITCH)] = 1
    lab2 = _match_pawns_photo(lab2, lab, rest, geometry)
    centres = quads.mean(axis=1)
    cw = round(float(np.median(np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1))))
    ch = round(float(np.median(np.linalg.norm(quads[:, 3] - quads[:, 0], axis=1))))
    # Every reading expects the cards as the solved photo shows them: not its glare where
    # the pawns photo has less (calibration_glare). The pawns are learned from the photos
    # as taken: where the glare moved is the noise their residual is judged against.
    as_taken = lab
    board, lab = clear_glare(board, lab, lab2, rest.astype(bool), cw * ch)
    # Identity features use the card's inner part: its outline may catch a sliver of table.
    inner = (max(8, round(cw * 0.94)), max(8, round(ch * 0.94)))
    templates = crop_cards(lab, centres, inner)
    fine_size = (2 * inner[0], 2 * inner[1])
    grey = cards.grey_hi.astype(np.float32)
    fine = np.stack([crop_grey(grey, (2 * x + 0.5, 2 * y + 0.5), fine_size) for x, y in centres])
    fine = fine.clip(0, 255).astype(np.uint8)
    table = TableModel(lab[cards.table_px])

    cross = coarse_costs(templates, templates).astype(np.float64)
    np.fill_diagonal(cross, np.inf)
    cross_cost = float(np.median(cross[np.isfinite(cross)]))
    # The deck's outline must stand out at its prints' sides. A fainter one there (the art's
    # inner frame far stronger than the paper's edge, a border the colour of the table) is
    # trusted where no card's print is off it (fresh decks 8016, 8031, 8035 and 8049 were
    # refused before: accepted so, their 24 game photos read 586 cells right, 6 null, none
    # wrong). The advice names the surface too: a table the colour of the cards' border hides
    # the paper's edge however far apart the cards lie.
    if not outline_trusted(deck):
        raise OutlineError(
            "solved photo: the cards' edges were not found precisely (cards touching, or "
            "their edges lost in the table's pattern or colour?); lay them a finger apart, on "
            "a surface unlike the cards' border, and retake"
        )
    # Two islands are "alike" only if both their colours and their prints (number, icon)
    # agree: same-coloured cards of one deck differ by their numbers alone.
    apart = deck.separation_matrix()
    np.fill_diagonal(apart, np.inf)
    alike = (cross < MIN_CARD_CONTRAST * cross_cost) & (apart < MIN_APART)
    if alike.any():
        i, j = np.argwhere(alike)[0]
        raise CalibrationError(
            f"solved photo: islands {i + 1} and {j + 1} look alike; cards not distinct "
            "(is the layout in order, with no card twice?)"
        )

    if not cards.table_confirms:
        _check_framing(deck, cards.layout_vouches)
    if cards.channel != PRINT_CHANNELS[0]:
        _check_colour_framing(deck)

    # A camera knocked between the two photos leaves every pawn off its card's expected
    # place: said so, not as a pawn missing or lost in glare (DEV seed 3, pawns photo with
    # the camera pushed 1% or zoomed 3%: "Borea ... does not stand out", "Jugo missing")
    share = moved_by(lab2, as_taken, geometry)
    if share is not None:
        raise CalibrationError(
            f"pawns photo: the camera moved after the solved photo (the cards lie {share:.2f}"
            " of a card off); keep it still and retake both photos"
        )
    feats2 = crop_cards(lab2, centres, inner)
    own = coarse_costs(feats2, templates)
    diag = np.diag(own)[SIZE:]  # rows 1-4: no pawns there
    own_cost = float(np.median(diag))
    if float(np.median(diag)) > 0.45 * cross_cost:
        raise CalibrationError(
            "pawns photo does not show the solved layout from the same camera position"
        )
    res = residual(lab2, as_taken)
    # What differs between the photos beyond the noise of the pawn-free rows is the pawns.
    # (median and spread, not a top percentile: glare moves between photos and is local)
    calm = res[rest.astype(bool)]
    med = float(np.median(calm))
    spread = float(np.median(np.abs(calm - med))) + 1e-3
    mask: U8 = (res > med + 6.0 * spread).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    colours, icovs, offsets, areas = learn_pawns(
        lab2,
        as_taken,
        res,
        mask,
        centres,
        cw * ch,
        PITCH,
        glare_moved_off(as_taken, lab2) if glare_again else None,
    )
    looks = learn_looks(lab2, as_taken, mask, centres, offsets, colours)

    profile = Profile(
        geometry=geometry,
        card_size=inner,
        card_centres=centres,
        templates=templates,
        fine_templates=fine,
        board=board,
        table_mean=table.mean,
        table_icov=table.icov,
        table_threshold=table.threshold,
        pawn_colours=colours,
        pawn_icov=icovs,
        pawn_offsets=offsets,
        pawn_areas=areas,
        own_cost=own_cost,
        cross_cost=cross_cost,
        card_quads=quads,
        card_prints=prints,
        pawn_looks=looks.as_array(),
        print_channel=cards.channel,
    )
    return profile, _self_check(pawns, profile)


@dataclass(frozen=True)
class CardFit:
    """One fit of the grid and the cards' corners on the solved photo."""

    channel: str  # the one the prints are cut from (card_print.PRINT_CHANNELS)
    geometry: BoardGeometry
    board: U8  # the solved photo warped to the board
    lab: F32  # ...in Lab
    grey_hi: U8  # the fine board, in that channel
    table_px: NDArray[np.bool_]  # board pixels clear of the cards
    quads: F64  # (25, 4, 2) board-px corners
    prints: U8  # the cards' prints cut along them (card_print)
    deck: PrintDeck
    layout_vouches: bool = False  # (see _check_framing)
    table_confirms: bool = False  # (see _table_confirms)


def _fit_cards(
    solved: U8, fit: GridFit, channel: str, free: bool, spacing: bool = False
) -> CardFit:
    """The cards' corners, refitting the lattice to them, rigid or ``free`` (per side), found
    in ``channel`` of the photo; ``spacing``: the lattice refitted to the cards' centres
    only (see card_quads.refit_lattice)."""
    h, w = solved.shape[:2]
    lattice = fit.lattice_to_image
    # The outline fit is a first guess: each card's own four corners are found on the board
    # it gives, the lattice is refitted to all of them, and the board warped again.
    polarity = 0
    # Where the first board showed each card, in photo px: a card laid well off its column
    # (demo table 18's island 22, 4.9 degrees turned and 7 mm left) can be found from the
    # outline fit's guess and missed from a refitted board's, whose guess for it (measured
    # afresh, between the card and the lattice) falls just short: the last fit searches
    # there too. (Searched there in the refits as well, it moved three cards whose new
    # places tilted the lattice: the top row's cards were fitted 2.5 board px short.)
    first_found: F64 | None = None
    for attempt in range(REFITS + 1):
        geometry = BoardGeometry(
            lattice_to_image=lattice,
            image_size=(w, h),
            pitch=PITCH,
            margin=MARGIN,
            shrink=choose_shrink(lattice, PITCH),
        )
        hi, board = geometry.warp_fine(solved), geometry.warp(solved)
        lab = to_lab(board)
        grey_hi = print_grey(hi, channel)
        like = table_likeness(hi, geometry)
        centres, (cw, ch), table_px = _measure_cards(grey_hi, lab, geometry, fit.card_rects, like)
        quads = find_quads(
            grey_hi, centres, (cw, ch), polarity=polarity, table=like, free=free
        ).corners
        if first_found is None:
            first_found = geometry.board_to_image(quads.mean(axis=1))
        # The side of the edge the cards are on, if the whole deck agrees (shadows do not).
        polarity = edge_polarity(grey_hi, quads)
        if attempt == REFITS:
            break
        to_image = lattice @ np.linalg.inv(geometry.lattice_to_board())
        better = refit_lattice(quads, to_image, PITCH, MARGIN, perspective=free, spacing=spacing)
        if better is None:
            break
        lattice = better
    # All cards of a deck have one size, and on the board perspective is gone: the cards
    # are fitted once more at the deck's median size (a card's shadow or its neighbour's
    # edge cannot stretch it), from where the lattice expects them unless the first fit
    # agrees; a card where both agree closely moves far from there only to a much stronger
    # outline (card_quads.SETTLED_SHIFTS, MOVE_FOR).
    size = (
        float(np.median(np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1))),
        float(np.median(np.linalg.norm(quads[:, 3] - quads[:, 0], axis=1))),
    )
    found = quads.mean(axis=1)
    cells = np.array([geometry.cell_centre(c) for c in ALL_CELLS])
    off = np.linalg.norm(found - cells, axis=1)
    near = off < 0.12 * PITCH
    start = np.where(near[:, None], found, cells)
    quads, outlines = find_quads(
        grey_hi,
        start,
        size,
        grow=np.array([-1.0, 0.0, 1.0]),
        polarity=polarity,
        table=like,
        free=free,
        settled=off < SETTLED * PITCH,
        before=None if first_found is None else geometry.image_to_board(first_found),
    )
    prints, deck = _prints(solved, quads, geometry, channel)
    # Across a tight gap a free side can reach the neighbour's edge (fresh deck 2033: five
    # cards 3 board px too tall, one island's print learned 6 print px off its place and
    # misread after). A card bigger or smaller than the deck keeps its rigid outline,
    # unless the prints then line up worse with the deck's outline: the sides of a deck
    # whose free sizes scatter (fresh deck 3015) are no better for being rigid. Only a fit
    # whose cards the deck's outline frames is mended so: one with too many cards off it
    # is a grid placed wrong, which fewer cards off must not pass (fresh deck 6076: passed
    # so, its prints were registered 4-8 px apart, and a photo misread a card, sure).
    wrong_size = off_size(quads) if free else np.zeros(len(quads), bool)
    if wrong_size.any() and not _placed_wrong(deck):
        sized = np.where(wrong_size[:, None, None], outlines, quads)
        sized_prints, sized_deck = _prints(solved, sized, geometry, channel)
        if _misfit(sized_deck)[:2] <= _misfit(deck)[:2]:
            quads, prints, deck = sized, sized_prints, sized_deck
    quads, prints, deck = _reframe_on_colour(
        solved, geometry, channel, like, start, size, quads, prints, deck
    )
    quads, prints, deck = _reframe_aside(
        solved, geometry, channel, (grey_hi, like, polarity, free), start, size, quads, deck
    ) or (quads, prints, deck)
    return CardFit(channel, geometry, board, lab, grey_hi, table_px, quads, prints, deck)


def _reframe_on_colour(
    solved: U8,
    geometry: BoardGeometry,
    channel: str,
    like: F32,
    start: F64,
    size: tuple[float, float],
    quads: F64,
    prints: U8,
    deck: PrintDeck,
) -> tuple[F64, U8, PrintDeck]:
    """The cards whose print is not framed (neither by the deck's outline nor by its
    layout) fitted again on the table's likeness (colour) rather than on grey, as
    rectangles of the deck's size; each kept where its print is then framed within
    ``COLOUR_SHIFT`` print px of where the colour put it.

    A deck whose borders differ in colour from card to card can have some as light as the
    table in grey though plainly of another hue: blue borders on a teal table (fresh deck
    7040: islands 6, 9, 10, 11 and 15 fitted a quarter card off, their cells left null in
    every photo). On the likeness map every card is dark on a bright table, whatever its
    colours. The prints are still cut and registered in grey, and a card the colour fits
    is kept only where the deck (its outline, or the layout of its framed prints) then
    places it as fitted: a card placed further off was fitted wrong again (fresh deck 4016:
    island 1 taken with the table above it, 6 print px off, and a card misread after), and
    the deck must end with no more cards off its outline than before. (Sides fitted each
    on its own, as in the free fit, reached a neighbour's edge across a tight gap: fresh
    deck 5016's island 6 was framed wider than the card, and a photo of that session then
    had a Borea placed where none stood.)
    """
    off = _off_cards(deck)
    todo = ~deck.framed
    if not todo.any() or _placed_wrong(deck):
        return quads, prints, deck
    redo = find_quads(
        like * 255.0,
        start[todo],
        size,
        grow=np.array([-1.0, 0.0, 1.0]),
        polarity=-1,
        table=like,
    ).corners
    tried = quads.copy()
    tried[todo] = redo
    mixed_prints, mixed_deck = _prints(solved, tried, geometry, channel)
    keep = todo & _framed_as_fitted(mixed_deck)
    if not keep.any():
        return quads, prints, deck
    mixed = np.where(keep[:, None, None], tried, quads)
    if not (keep == todo).all():  # (else the prints just cut are the mixed ones)
        mixed_prints, mixed_deck = _prints(solved, mixed, geometry, channel)
    if (
        (keep <= _framed_as_fitted(mixed_deck)).all()
        and int(_off_cards(mixed_deck).sum()) <= int(off.sum())
        and not _placed_wrong(mixed_deck)
    ):
        return mixed, mixed_prints, mixed_deck
    return quads, prints, deck


def _reframe_aside(
    solved: U8,
    geometry: BoardGeometry,
    channel: str,
    fit: tuple[F32, F32, int, bool],
    start: F64,
    size: tuple[float, float],
    quads: F64,
    deck: PrintDeck,
) -> tuple[F64, U8, PrintDeck] | None:
    """The cards whose print is still not framed fitted again from ``ASIDE`` of a card
    beside where they were searched (in each of eight directions). A card is moved where
    its print is then framed within ``COLOUR_SHIFT`` print px of where it was cut, with
    no more cards off the deck's outline, if every such start agrees on that place; None
    if no card is moved. ``fit``: the fine board in the print channel, the
    table's likeness, the deck's edge polarity and whether sides are fitted free.

    A card laid a quarter of a card off its cell, both of its sides on a table stripe as
    pale as its border, is fitted from its cell on the strongest edges near there: its
    neighbour's side and its own icon (fresh deck 6009's island 20, 13 board px left of
    the card: its print was cut a third on the gap, and in every photo of the session the
    card lying in that cell was read as island 20, in doubt). From beside the card its own
    outline is nearer, and the deck's outline, which its print then matches, says it is
    the card's. A place overlapping another card's fit is not taken: on a tight deck whose
    cards end in a coloured band, the band of the card above passed for the bottom of a
    card moved up onto it (fresh deck 5014's island 15, 4.9 board px up, 3.4 over its
    neighbour; the deck's outline framed it there within 2 print px).
    """
    todo = np.flatnonzero(~deck.framed)
    if not 0 < len(todo) <= ASIDE_MOST or _placed_wrong(deck):
        return None
    grey_hi, like, polarity, free = fit
    off = int(_off_cards(deck).sum())
    centres = quads.mean(axis=1)
    kept: tuple[F64, U8, PrintDeck] | None = None
    for i in todo.tolist():
        places: list[F64] = []
        tried: list[tuple[F64, U8, PrintDeck]] = []
        others = np.delete(centres, i, axis=0)
        for ox, oy in ASIDE_STARTS:
            guess = start[[i]] + ASIDE * np.array([[ox * size[0], oy * size[1]]])
            quad = find_quads(
                grey_hi,
                guess,
                size,
                grow=np.array([-1.0, 0.0, 1.0]),
                polarity=polarity,
                table=like,
                free=free,
            ).corners[0]
            place = quad.mean(axis=0)
            if np.abs(place - centres[i]).max() < PLACE_TOL:
                continue  # (where it was: the start did not move it)
            if bool((np.abs(others - place) < np.array(size)).all(axis=1).any()):
                continue  # (cards do not overlap: that is another card's edge)
            moved = (kept[0] if kept is not None else quads).copy()
            moved[i] = quad
            prints, moved_deck = _prints(solved, moved, geometry, channel)
            if (
                _framed_as_fitted(moved_deck)[i]
                and int(_off_cards(moved_deck).sum()) <= off
                and not _placed_wrong(moved_deck)
            ):
                places.append(place)
                tried.append((moved, prints, moved_deck))
        # (the places where its print is framed must be one: two is its outline against
        # a look-alike of it)
        if tried and np.ptp(np.array(places), axis=0).max() < PLACE_TOL:
            kept = tried[0]
            off = int(_off_cards(kept[2]).sum())
            centres = kept[0].mean(axis=1)
    return kept


ASIDE = 0.3  # of a card's width and height: how far beside its first start a card is sought
ASIDE_STARTS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
PLACE_TOL = 2.0  # board px: two fits this close found the card at one place
# Only a fit with this many unframed prints at most: with more, its grid is in question and
# moving cards changes which fit calibration keeps (held-out deck 4012, seven unframed: a
# fit with five kept instead, its photos then read 30 cells more, one of them wrong, and
# placed a pawn wrong; the tuning sets' moved cards were in fits with one or two)
ASIDE_MOST = 2


def _table_confirms(solved: U8, photo: F32, cards: CardFit) -> bool:
    """Whether the cards' outlines against the table frame all but ``LOOSE_MOST`` of their
    prints within ``TIGHT_PX`` of where they were cut: a fit grey refused as not fitting
    its cards (:func:`_check_framing`) then passes that check.

    Grey can lose a card's outline where its border is as light as the table: fresh deck
    6000, pale cards on a light grey table, had 11 cards off the deck's outline on a right
    grid (centres 1.3 photo px off the renderer's truth at the median, 4.9 at most), and
    deck 8029, printed in light and dark colours on a mid-grey table, nine. On the
    table-likeness map (:func:`table_likeness`, at the photo's resolution) every card is
    dark on a light table whatever its colours, so its outline there is the paper's edge.
    Cut along a right fit, the prints register on that outline within 2 print px for all
    but 0-4 cards. Along the loose fits of a striped table or of cards laid close (DEV
    seed 24 design 15 and seed 26 design 10, fresh 3020 and 3023: centres 3-7 photo px
    off the truth at the median) 6-19 cards are further off; along a grid placed wrong
    (fresh 3027, 5003, 5022), 19-24. ``photo`` is ``solved`` shade-weighed in Lab
    (:func:`_shade_weighed`).
    """
    geometry = cards.geometry
    table = _table_model(_shade_weighed(geometry.warp_fine(solved)), geometry)
    like = (_likeness(photo, table) * 255).astype(np.uint8)
    size = print_size(cards.quads, geometry)
    deck = PrintDeck(cut_plane(like, print_maps(cards.quads, geometry, size), size))
    loose = ~deck.outline_found | (np.abs(deck.outline_shifts).max(axis=1) > TIGHT_PX)
    return deck.outlined and int(loose.sum()) <= LOOSE_MOST


TIGHT_PX = 2  # print px (see _table_confirms)
LOOSE_MOST = 3


def _framed_as_fitted(deck: PrintDeck) -> NDArray[np.bool_]:
    """(cards,) whether each print is framed within ``COLOUR_SHIFT`` of where it was cut."""
    near: NDArray[np.bool_] = deck.framed & (np.abs(deck.shifts).max(axis=1) <= COLOUR_SHIFT)
    return near


COLOUR_SHIFT = 2  # print px


def _match_pawns_photo(lab2: F32, lab: F32, rest: U8, geometry: BoardGeometry) -> F32:
    """The pawns photo's board (Lab) in the solved photo's light: each channel's quartiles
    on the pawn-free rows matched, unless they stretch a* or b* apart from L (by more than
    ``HUE_STRETCH``). No light does that (it scales ``L + 16``, a* and b* by one factor):
    the deck's hues weigh differently in the two photos (glare moved over a row), and the
    pawns' colours learned in such a stretch are off in every reading (DEV seed 5, session
    of #318: a* x1.27 and b* x0.70, Jugo learned at Lab (69, 37, 54) and seen at (68, 28,
    65) in that very photo read back, missed photo after photo). The light is then matched
    on the bare table, as every reading's is (exposure.py), where the table can tell.
    """
    qa, qb = quartiles(lab2, rest), quartiles(lab, rest)
    stretch = (qb[2] - qb[0]) / np.maximum(qa[2] - qa[0], 1e-3)
    if float(np.abs(stretch[1:] - stretch[0]).max()) > HUE_STRETCH:
        matched = match_exposure(lab2, lab, table_ring(geometry))
        if matched is not None:
            return matched
    return match_lighting(lab2, lab, rest, qb)


HUE_STRETCH = 0.2  # a* or b* quartile stretch off L's beyond which no light explains it


def _prints(solved: U8, quads: F64, geometry: BoardGeometry, channel: str) -> tuple[U8, PrintDeck]:
    """The cards' prints at the photo's resolution (what readings tell islands apart by),
    and the deck they make."""
    psize = print_size(quads, geometry)
    prints = cut_prints(solved, print_maps(quads, geometry, psize), psize, channel)
    return prints, PrintDeck(prints)


def _misfit(deck: PrintDeck) -> tuple[bool, int, int]:
    """How badly a fit's prints line up: the deck's outline not at its sides, cards off that
    outline, then print px off it in all."""
    return not deck.outlined, int(_off_cards(deck).sum()), int(np.abs(deck.outline_shifts).sum())


def outline_trusted(deck: PrintDeck) -> bool:
    """Whether the deck's outline stands out at its prints' sides, or, fainter there, has
    no card's print off it."""
    return deck.outlined or (deck.faintly_outlined and not _off_cards(deck).any())


def _off_cards(deck: PrintDeck) -> NDArray[np.bool_]:
    # (a deck with faint sides leaves some cards unframed even on a right grid: those
    # count only with the cards found off)
    off: NDArray[np.bool_] = ~deck.outline_framed | (
        np.abs(deck.outline_shifts).max(axis=1) > OFF_PX
    )
    return off


def _placed_wrong(deck: PrintDeck) -> bool:
    """Whether more than ``MAX_OFF`` cards' prints lie off the deck's outline: a grid placed
    wrong (see :func:`_check_framing`)."""
    return int(_off_cards(deck).sum()) > MAX_OFF


def _check_framing(deck: PrintDeck, layout_vouches: bool = False) -> None:
    """Refuse a grid whose cards' own corners disagree with the deck's outline.

    Every card of a deck has the same outline, so each card's print, registered on the
    deck's mean one, says how far its corners are off. A lattice placed wrong on a striped
    or dotted table still passes the deck-wide checks (the mean outline is that of the
    cards it did frame), but leaves many cards framed a stripe off or not at all: every
    later photo would then be compared on table and neighbours. (Moving those cards onto
    the mean outline was tried: it made misreads on DEV, the mean is not the paper edge.)

    A plain light table refuses too when the cards lie close: the prints are grey, a
    yellow or pale border is as light as the table there, and a print's sides then show
    its neighbour's border beside its own art's inner frame, each card's edge of another
    polarity. Fresh decks 3020 and 3024 (3000-3999 seed 11) on white tables: refused,
    with the same cards 15% further apart accepted, as on a dark table.

    With ``layout_vouches`` (asked of a session refused so in every channel), a card whose
    outline shows nowhere in its print does not count if the deck's layout (the mean
    detail of its framed prints, where every card has its number and icon) places its
    print within ``COLOUR_SHIFT`` of where it was cut: it lies where its corners were
    found, its outline faint in this channel. A deck printed in light and dark colours on
    a mid-grey table has some cards as light as the table in grey (fresh deck 8029: nine
    cards off the outline, four of them placed as cut with no outline found; refused
    before, accepted so, its eight photos read 198 cells of 200, none wrong). A card
    whose outline is found off its place still counts: on a striped table a lattice a
    stripe off has such cards, and the layout, learned from cards as far off, places
    others as cut (DEV seed 24 design 15: its free fit would pass with every card the
    layout places counted out, and with only the outline-less ones it has 8 off). Refused
    so too, a fit the table's outline confirms is accepted as the last resort
    (:func:`_table_confirms`).
    """
    far = _off_cards(deck)
    if layout_vouches:
        far &= deck.outline_found | ~_framed_as_fitted(deck)
    if int(far.sum()) > MAX_OFF:
        cards = ", ".join(str(i + 1) for i in np.flatnonzero(far))
        raise FramingError(
            f"solved photo: the grid does not fit the cards (cards {cards} are not where "
            "their corners were found: cards too close together, or the table's pattern "
            "taken for card edges?); lay the cards a finger apart, square to each other, "
            "and retake"
        )


def _check_colour_framing(deck: PrintDeck) -> None:
    """Refuse a fit made in a colour channel whose prints line up worse than grey fits do.

    A channel other than grey is tried only where grey found no outline, and in some it
    finds the art's frame rather than the paper's edge (a white border is as light as the
    table there): corners 10-13 photo px off at the median (fresh 5002 and 5032; grey fits
    of DEV seed 5 lie within 1.4 in 37 sessions of 39). That alone does no harm where the
    prints still line up (5002 read 150 cells of 150), but where they do not, readings
    suffer. Fits in colour on fresh 3000-3999 seed 11 and 5000-5999 seed 13 (the sessions
    grey refused): the seven with at most 32 print px off the outline in all read 996 of
    1031 cells right, 108 of 122 pawns (none wrong, no phantom); the five with 56-106 px
    read 636 of 749, and placed 2 pawns wrong and 2 phantoms. DEV seed 26 design 10, a grid
    the grey fit refuses as placed wrong on a striped table, was accepted in colour with
    63 px: corners 5.2 photo px off at the median, 17.1 at worst, 80 of 150 cells read.
    Grey fits of DEV seed 5 (39 sessions): 36 within 32 px, the others 33, 46 and 97.
    """
    _, off, shifted = _misfit(deck)
    if off > COLOUR_OFF or shifted > COLOUR_SHIFTS:
        raise OutlineError(
            f"solved photo: the cards' edges found in colour do not line up ({off} cards off "
            f"the deck's outline, {shifted} print px in all); lay the cards a finger apart, "
            "on a surface unlike the cards' border, and retake"
        )


COLOUR_OFF = 2  # cards off the deck's outline a fit in colour may have (grey: MAX_OFF)...
COLOUR_SHIFTS = 40  # ...and print px off it in all (see _check_colour_framing)


def soften_all(fine: U8) -> F32:
    return np.stack([soften(t) for t in fine.astype(np.float32)])


def table_likeness(hi: U8, geometry: BoardGeometry) -> F32:
    """How much each pixel of the fine board looks like the table around the grid (0..1).

    The table's colours are learned beyond the grid's outline (a tenth of a cell out, clear
    of the edge cards); lightness counts for little, so the cards' shadows on the table and
    the light falling off across it still read as table.
    """
    lab = _shade_weighed(hi)
    return _likeness(lab, _table_model(lab, geometry))


def _shade_weighed(image: U8) -> F32:
    lab: F32 = to_lab(image) * np.array([SHADE_SHARE, 1.0, 1.0], np.float32)
    return lab


def _table_model(lab: F32, geometry: BoardGeometry) -> TableModel:
    """The table's colours beyond the grid's outline on the fine board (``lab``, shade
    weighed)."""
    h, w = lab.shape[:2]
    p = 2.0 * geometry.pitch
    o = geometry.margin * p
    u = (np.arange(w) - o) / p
    v = (np.arange(h) - o) / p
    out_u = (u < -0.1) | (u > SIZE + 0.1)
    out_v = (v < -0.1) | (v > SIZE + 0.1)
    outside = out_u[None, :] | out_v[:, None]
    return TableModel(lab[outside][::5])


def _likeness(lab: F32, table: TableModel) -> F32:
    d = table.distance(lab) / max(table.threshold, 1e-6)
    like: F32 = np.clip(1.5 - d, 0.0, 1.0)
    return like


SHADE_SHARE = 0.35  # weight of lightness against colour when telling table from card


def _measure_cards(
    grey_hi: U8, lab: F32, geometry: BoardGeometry, rects: F64, like: F32 | None = None
) -> tuple[F64, tuple[int, int], NDArray[np.bool_]]:
    """Each card's own centre on the board, the cards' size, and the table's pixels.

    The lattice fit puts cell centres on a regular grid, but hand-laid cards sit a few
    millimetres off it; templates must be cut around the cards themselves, or a card moved
    to another cell would be compared off-centre. A card's sides are the strongest pair of
    edges one card-width apart near where the lattice expects them (on the fine board).
    """
    pitch = geometry.pitch
    off = geometry.margin * pitch
    nominal = (rects[:, :2] + rects[:, 2:]) / 2 * pitch + off
    # The outline fit's card extent is a rough guess (the gaps it sees widen where a card's
    # border looks like the table): the cards' size is measured on the cards themselves.
    grads = edge_images(grey_hi, 0, like)
    size = np.array(deck_size(grads, 2.0 * nominal, 2.0 * pitch)) / 2.0
    ex, ey = grads[0] + grads[1], grads[2] + grads[3]
    centres = nominal.copy()
    widths: list[float] = []
    heights: list[float] = []
    for i in range(SIZE * SIZE):
        cx, cy = 2 * nominal[i]  # fine px (the board's pixel j is the fine board's 2 j)
        w, h = 2 * size
        band_y = slice(round(cy - 0.3 * h), round(cy + 0.3 * h))
        band_x = slice(round(cx - 0.3 * w), round(cx + 0.3 * w))
        x, wx = _edge_pair(ex[band_y].sum(axis=0), cx, w)
        y, hy = _edge_pair(ey[:, band_x].sum(axis=1), cy, h)
        centres[i] = (x / 2, y / 2)
        widths.append(wx / 2)
        heights.append(hy / 2)
    cw, ch = round(float(np.median(widths))), round(float(np.median(heights)))
    h_img, w_img = lab.shape[:2]
    table_px = np.ones((h_img, w_img), bool)
    for x, y in centres:
        x0, y0 = round(x - cw / 2) - 2, round(y - ch / 2) - 2
        table_px[max(0, y0) : y0 + ch + 4, max(0, x0) : x0 + cw + 4] = False
    return centres, (cw, ch), table_px


def _edge_pair(profile: F64, centre: float, length: float) -> tuple[float, float]:
    """Centre and length of the strongest pair of edges ~``length`` apart near ``centre``."""
    reach = round(0.12 * length)
    best = (-1.0, centre, length)
    n = len(profile)
    for size in np.arange(round(0.92 * length), round(1.06 * length) + 1):
        a0 = round(centre - size / 2)
        for a in range(a0 - reach, a0 + reach + 1):
            b = a + int(size)
            if a < 1 or b >= n - 1:
                continue
            score = float(profile[a - 1 : a + 2].max() + profile[b - 1 : b + 2].max())
            if score > best[0]:
                best = (score, (a + b) / 2, float(size))
    return best[1], best[2]


def _self_check(pawns: U8, profile: Profile) -> int:
    """The new profile must not misread its own pawns photo, or it is not trustworthy.

    Doubtful cells are allowed (up to ``MAX_UNSURE``): they are reported as doubtful in
    readings too, which is safe. Pawns are not re-checked here (their colours were just
    learned from this very photo). Returns how many cells of rows 1-4 were left in doubt.
    """
    from .reader import read_table

    reading = read_table(pawns, profile)
    if reading.status is not Status.OK:
        raise CalibrationError(f"pawns photo cannot be read back: {reading.reason}")
    want = tuple(tuple(r * SIZE + c + 1 for c in range(SIZE)) for r in range(SIZE))
    wrong = [c for c in ALL_CELLS if reading.grid[c[0]][c[1]] not in (None, want[c[0]][c[1]])]
    # (row 0 carries the five pawns: doubt there is expected)
    unsure = [c for c in ALL_CELLS if reading.grid[c[0]][c[1]] is None and c[0] > 0]
    if wrong or len(unsure) > MAX_UNSURE:
        raise CalibrationError(
            f"pawns photo read back wrong at {wrong} or unsure at {unsure}: "
            "cards not distinct enough"
        )
    return len(unsure)
