"""Glare in the ``solved`` photo, taken off with the ``pawns`` photo's pixels.

Every reading compares the table with the solved photo's board: a glare spot in that photo
stays in what each card is expected to look like. Where the glare is gone in a game photo,
the card's own art shows redder and darker than expected: on salmon and pink cards it
passed for a red gem, sure, photo after photo (fresh deck 3060's island 8, 5 phantom gems
in one session of fresh decks 3000-3999 seed 11).

The two calibration photos show the same cards from the same camera, and glare moves
between shots (a lamp, a window, the player's shadow): where the solved photo is the pawns
photo lit, the pawns photo shows the cards with less glare. Only on the pawn-free rows: a
dark pawn or its shadow on a grey card looks just like that card with the glare gone, so
row 0 keeps its glare (fresh deck 5058's island 4: its salmon art, seen without it, is
told from a gem by the reading, see gems._glare_gone).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from .grid_locator import to_lab
from .pawns import SHADOW_DROP
from .pixels import components

F32 = NDArray[Any]
U8 = NDArray[Any]


def clear_glare(
    board: U8, lab: F32, other: F32, where: NDArray[np.bool_], card_area: float
) -> tuple[U8, F32]:
    """``board`` (the solved photo's, BGR; ``lab`` its Lab) with its glare spots within
    ``where`` replaced by ``other`` (the pawns photo's board in Lab, its light matched), and
    the result in Lab.

    A spot is a connected part of ``where`` lighter than ``other`` beyond the noise
    (``SPOT_EDGE``), of which at least ``CORE_SHARE`` is ``other`` lit (:func:`_lit`). Glare
    strong enough to clip a channel turns the hue, hence the share, and the spot is taken
    whole. A spot bigger than ``MAX_SPOT`` cards (``card_area``: board px) is left: a
    shadow over the cards in the pawns photo (the player leaning in) looks the same on pale
    cards, and copied, every reading would expect it there.
    """
    lighter = (lab[..., 0] - other[..., 0] > SPOT_EDGE) & where
    n, labels, stats, _ = components(lighter.astype(np.uint8))
    if n <= 1:
        return board, lab
    core = lighter & _lit(lab, other)
    cores = np.bincount(labels[core], minlength=n)
    areas = stats[:, cv2.CC_STAT_AREA]
    spot = (cores >= CORE_SHARE * areas) & (areas >= MIN_SPOT) & (areas <= MAX_SPOT * card_area)
    spot[0] = False
    if not spot.any():
        return board, lab
    glare = spot[labels]
    fixed = board.copy()
    seen = other[glare].reshape(-1, 1, 3).astype(np.float32)
    bgr = cv2.cvtColor(seen, cv2.COLOR_Lab2BGR).reshape(-1, 3)
    fixed[glare] = np.clip(np.rint(bgr * 255.0), 0, 255).astype(np.uint8)
    return fixed, to_lab(fixed)


def glare_moved_off(solved: F32, pawns: F32) -> NDArray[np.bool_]:
    """Per board pixel (Lab), whether the ``solved`` photo shows the ``pawns`` photo lit:
    glare there, gone in the pawns photo (see :func:`.pawns.learn_pawns`)."""
    return _lit(solved, pawns)


def _lit(seen: F32, base: F32) -> NDArray[np.bool_]:
    """Per pixel (Lab), whether ``seen`` is ``base`` under added light: lighter by a
    shadow's drop, its hue kept and its colour as strong or paler (a*b* the base's scaled by
    ``PALER`` .. 1, within ``GLARE_HUE``). White light added to a photo's pixels raises
    their lightness and keeps most of their colour until a channel clips."""
    sab, bab = seen[..., 1:], base[..., 1:]
    norm = np.maximum((bab * bab).sum(axis=-1), 1.0)
    scale = np.clip((sab * bab).sum(axis=-1) / norm, PALER, 1.0)
    off = np.abs(sab - bab * scale[..., None]).sum(axis=-1)
    out: NDArray[np.bool_] = (seen[..., 0] > base[..., 0] + SHADOW_DROP) & (off < GLARE_HUE)
    return out


SPOT_EDGE = 4.0  # L: lighter than the other photo by more than the boards' noise
GLARE_HUE = 8.0  # Lab a*b* (city-block): the hue kept
PALER = 0.3  # the least share of its colour a card keeps under glare
CORE_SHARE = 0.3  # share of a spot that is the other photo lit
MIN_SPOT = 12  # board px: smaller specks are noise
# cards: the biggest spot taken for glare (a lamp's reflection is a card or three: glare
# spots found at calibration on DEV seed 5 and fresh 3000-3999 seed 11 are a card's area at
# the median and 3.1 cards at most; a cap of two cut real glare: 3 pawns fewer on fresh
# sets, and on EVAL an Austro placed beside the grid instead of on its card)
MAX_SPOT = 4.0
