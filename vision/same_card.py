"""Whether each cell's card looks exactly as it did in an earlier photo of the same table.

Telling an island from the 24 others against prints learned at calibration is hard on some
decks (same art, a small number the only difference): those cards are left ``null``. But the
camera is fixed, and during a game most cards do not move between two photos. A card
compared with *its own* earlier photo (same camera, same card, same light within a few
minutes) differs only by noise and by the player's nudge, far less than two islands
differ, and far less than a gem or a pawn put on it or taken off it. So when the referee
knows what lay on the table in an earlier photo (every card accepted, with its gem), a card
that now looks as it did then is that island still, with its gem as it was.

The comparison is the identify stage's own: each print aligned on the deck's outline, its
printed detail normalised, cut into blocks, and compared at the best of a pixel's shifts.
A card is *unchanged* only if every block fits (one block that differs is a number, an icon,
a gem or a pawn's foot): a block-wise maximum, not a mean.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .card_print import detail, register
from .print_identity import PrintDeck

F32 = NDArray[Any]
U8 = NDArray[Any]

REACH = 2  # print px searched each way around the outline alignment
# A block of the same card photographed twice misfits by at most this much per pixel
# (normalised detail; tuned on DEV decks, see tests/vision/test_same_card.py): noise, JPEG,
# the light and a nudge of a millimetre. A gem put on or taken off, another island's number
# or a pawn's foot misfit a block far more.
SAME_BLOCK = 0.25


@dataclass(frozen=True)
class CardLooks:
    """How each cell's card looked in one photo: its printed detail and its alignment."""

    soft: F32  # (cells, H, W) printed detail of each print (light and noise removed)
    shift: NDArray[np.intp]  # (cells, 2) print px (dx, dy) its card lies off its corners
    framed: NDArray[np.bool_]  # (cells,) its outline (or layout) was found (else: never same)


def card_looks(prints: U8, deck: PrintDeck) -> CardLooks:
    """Each cell's print (:func:`.card_print.cut_prints`) as the comparison needs it."""
    reg = register(prints, deck.ref_cols, deck.ref_rows)
    soft = detail(prints)
    shift, framed = reg.shift.copy(), reg.found.copy()
    deck.place_unframed(prints, soft, shift, framed)  # the deck's layout frames faint outlines
    return CardLooks(soft=soft, shift=shift, framed=framed)


def _windows(looks: CardLooks, i: int, deck: PrintDeck, reach: int) -> F32:
    """((2 reach + 1)^2, h, w) cell ``i``'s normalised detail at each shift around its
    alignment."""
    w, h = deck.size
    x0, y0 = deck.origin
    sx, sy = (int(v) for v in looks.shift[i])
    top, left = y0 + sy - reach, x0 + sx - reach
    area = looks.soft[i, top : top + h + 2 * reach, left : left + w + 2 * reach]
    s = 2 * reach + 1
    win = np.lib.stride_tricks.sliding_window_view(area, (h, w)).reshape(s * s, h, w)
    mean = win.mean(axis=(1, 2), keepdims=True)
    std = win.std(axis=(1, 2), keepdims=True)
    out: F32 = (win - mean) / (std + 1e-3)
    return out


def block_misfit(then: CardLooks, now: CardLooks, deck: PrintDeck, cells: list[int]) -> F32:
    """(len(cells),) the worst block's misfit per pixel between the two photos' cards, each
    block at its own best shift (a card nudged and turned a degree moves its corners by a
    pixel or two each way, not all alike)."""
    bw, bh = deck.block
    w, h = deck.size
    out = np.empty(len(cells), np.float32)
    for n, i in enumerate(cells):
        ref = _windows(then, i, deck, 0)[0]
        diff = (_windows(now, i, deck, REACH) - ref) ** 2  # (shifts, h, w)
        blocks = diff.reshape(len(diff), h // bh, bh, w // bw, bw).mean(axis=(2, 4))
        out[n] = float(blocks.reshape(len(diff), -1).min(axis=0).max())
    return out


def unchanged(
    then: CardLooks, now: CardLooks, deck: PrintDeck, cells: list[int] | None = None
) -> NDArray[np.bool_]:
    """(cells of the grid,) whether each of ``cells`` (all by default) looks now exactly as it
    did then; False for the others."""
    if cells is None:
        cells = list(range(len(then.framed)))
    out = np.zeros(len(then.framed), bool)
    framed = [i for i in cells if then.framed[i] and now.framed[i]]
    if framed:
        out[framed] = block_misfit(then, now, deck, framed) <= SAME_BLOCK
    return out
