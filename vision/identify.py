"""Which island lies in each cell: rectified crops against the 25 learned cards, jointly.

Every cell's card is cut out along its calibrated corners and rectified to the card's own
axes, so a card turned a few degrees in one slot and another card in the same slot line up
pixel for pixel. Both crops are reduced to their printed detail (a band-pass: fine noise
and the room's light removed) and compared by zero-mean normalised correlation, in blocks:
a pawn or a gem over one part of the card spoils that block only, and the card's overall
brightness or contrast (light, glare, camera exposure) does not matter. The best of a few
pixels' shift is kept (cards are nudged during play). The 25 x 25 costs go to the joint
assignment (each island once); a cell is certain only if every assignment that gives it
another island costs clearly more (:func:`alternatives`) and its card matches its island
well in absolute terms.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from .card_identity import soften
from .card_quads import rect_maps, rectify

F32 = NDArray[Any]
F64 = NDArray[Any]

INNER = 0.8  # share of the card compared (its edge may show table, a shadow or a neighbour)
SHIFT = 3  # board px of translation searched each way
BLOCKS = (3, 3)  # (columns, rows) of blocks correlated separately
DROP = 2  # worst blocks left out of a card's score (a pawn, a gem, a glare spot)
SIGMA = 1.0  # board px: fades the finest texture (moire), keeps numbers and icons
LIGHT_BOX = 9  # board px: anything smoother is lighting, not print
COMMON = True  # compare cards on what differs from the deck's average card


def band(grey: F32) -> F32:
    """The printed detail of a board-resolution grey image (light and noise removed)."""
    return soften(grey, sigma=SIGMA, light_box=LIGHT_BOX)


class Deck:
    """The 25 rectified templates of a profile, cut into normalised blocks once."""

    def __init__(self, board_grey: F32, quads: F64) -> None:
        w = float(np.median(np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1)))
        h = float(np.median(np.linalg.norm(quads[:, 3] - quads[:, 0], axis=1)))
        cols, rows = BLOCKS
        bw, bh = max(4, round(w * INNER / cols)), max(4, round(h * INNER / rows))
        self.size = (bw * cols, bh * rows)
        self.block = (bw, bh)
        # The maps sample the board at its own resolution (rect_maps works in fine px).
        half = np.diag([0.5, 0.5, 1.0])
        shift = np.array([[1.0, 0, -0.25], [0, 1.0, -0.25], [0, 0, 1.0]])
        self.maps = [shift @ half @ m for m in rect_maps(quads, INNER, self.size, SHIFT)]
        self.maps0 = [shift @ half @ m for m in rect_maps(quads, INNER, self.size, 0)]
        soft = band(board_grey.astype(np.float32))
        raw = rectify(soft, self.maps0, self.size, 0)
        # What all cards share (frame, background art) says nothing about which one this is:
        # both sides of every comparison lose it, and the telling detail is what is left.
        self.common: F32 = raw.mean(axis=0) if COMMON else np.zeros_like(raw[0])
        self.templates = _blocks(raw - self.common, self.block)

    def crops(self, soft: F32) -> F32:
        """(25, h + 2 SHIFT, w + 2 SHIFT) rectified crops of each cell of a band image."""
        return rectify(soft, self.maps, self.size, SHIFT)

    def scores(self, crops: F32) -> tuple[F32, NDArray[np.intp]]:
        """(cells, islands) correlation in [-1, 1] at each pairing's best shift, and that
        shift's index (``dy * (2 SHIFT + 1) + dx``)."""
        w, h = self.size
        n = 2 * SHIFT + 1
        best = np.full((len(crops), len(self.templates)), -2.0, np.float32)
        where = np.zeros(best.shape, np.intp)
        for dy in range(n):
            for dx in range(n):
                win = _blocks(crops[:, dy : dy + h, dx : dx + w] - self.common, self.block)
                # (cells, islands, blocks) correlations of block pairs
                r = np.einsum("ibp,kbp->ikb", win, self.templates, optimize=True)
                r.sort(axis=2)
                s = r[:, :, DROP:].mean(axis=2)
                better = s > best
                best[better] = s[better]
                where[better] = dy * n + dx
        return best, where


def _blocks(crops: F32, block: tuple[int, int]) -> F32:
    """(n, blocks, pixels) zero-mean, unit-norm blocks of each crop."""
    n, h, w = crops.shape
    bw, bh = block
    b = crops.reshape(n, h // bh, bh, w // bw, bw).transpose(0, 1, 3, 2, 4)
    b = b.reshape(n, (h // bh) * (w // bw), bh * bw).astype(np.float32)
    b = b - b.mean(axis=2, keepdims=True)
    norm = np.sqrt((b * b).sum(axis=2, keepdims=True)) + 1e-3
    out: F32 = b / norm
    return out


def alternatives(cost: F64, choice: NDArray[np.intp]) -> F64:
    """For each row, the least extra total cost of an assignment giving it another column.

    Exact: that assignment differs from the optimum by cycles of rows passing their columns
    on, and the cheapest cycle through a row's pair is a shortest path (Floyd-Warshall on
    25 nodes; no negative cycle exists because the assignment is optimal).
    """
    c = np.asarray(cost, np.float64)
    n = len(choice)
    owner = np.empty(n, np.intp)
    owner[choice] = np.arange(n)
    # move[a, b]: extra cost when the row holding column a takes column b instead.
    move = c[owner] - c[owner, np.arange(n)][:, None]
    dist = move.copy()
    np.fill_diagonal(dist, 0.0)
    for k in range(n):
        dist = np.minimum(dist, dist[:, k : k + 1] + dist[k : k + 1, :])
    step = move.copy()
    np.fill_diagonal(step, np.inf)
    cycle = (step + dist.T).min(axis=1)  # column a: leave it, come back to it
    out: F64 = np.maximum(cycle[choice], 0.0)
    return out
