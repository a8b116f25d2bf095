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
    """How each cell's card looked in one photo: its printed detail, aligned."""

    windows: F32  # (cells, (2 REACH + 1)^2, h, w) normalised detail at each shift
    framed: NDArray[np.bool_]  # (cells,) its outline was found (else: never unchanged)


def card_looks(prints: U8, deck: PrintDeck) -> CardLooks:
    """Each cell's print (:func:`.card_print.cut_prints`) as the comparison needs it."""
    reg = register(prints, deck.ref_cols, deck.ref_rows)
    soft = detail(prints)
    shift, framed = reg.shift.copy(), reg.found.copy()
    deck.place_unframed(soft, shift, framed)  # the deck's layout frames faint outlines
    w, h = deck.size
    x0, y0 = deck.origin
    s = 2 * REACH + 1
    out = np.empty((len(prints), s * s, h, w), np.float32)
    for i, (sx, sy) in enumerate(shift):
        for k in range(s * s):
            dy, dx = divmod(k, s)
            top, left = y0 + sy + dy - REACH, x0 + sx + dx - REACH
            win = soft[i, top : top + h, left : left + w]
            out[i, k] = (win - float(win.mean())) / (float(win.std()) + 1e-3)
    return CardLooks(windows=out, framed=framed)


def block_misfit(then: CardLooks, now: CardLooks, deck: PrintDeck) -> F32:
    """(cells,) the worst block's misfit per pixel between the two photos' cards, at the
    shift where the whole card fits best."""
    bw, bh = deck.block
    w, h = deck.size
    centre = (2 * REACH + 1) ** 2 // 2
    ref = then.windows[:, centre]  # (cells, h, w)
    diff = (now.windows - ref[:, None]) ** 2  # (cells, shifts, h, w)
    n, s = diff.shape[:2]
    blocks = diff.reshape(n, s, h // bh, bh, w // bw, bw).mean(axis=(3, 5))
    # Each block at its own best shift: a card nudged and turned a degree moves its corners
    # by a pixel or two each way, not all alike.
    out: F32 = blocks.reshape(n, s, -1).min(axis=1).max(axis=1)
    return out


def unchanged(then: CardLooks, now: CardLooks, deck: PrintDeck) -> NDArray[np.bool_]:
    """(cells,) whether each cell's card looks now exactly as it did then."""
    out: NDArray[np.bool_] = (
        then.framed & now.framed & (block_misfit(then, now, deck) <= SAME_BLOCK)
    )
    return out
