"""A picture of a reading for people: the grid, island numbers, pawns, gems and doubts."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine.grid import ALL_CELLS, SIZE

from .profile import Profile
from .reading import Reading

# OpenCV's type stubs return loosely typed arrays: the aliases name the intent only.
U8 = NDArray[Any]

OK = (60, 200, 60)
DOUBT = (0, 140, 255)
GEM = (40, 40, 230)
PAWN = (255, 200, 0)
HAND = (200, 80, 255)


def draw_overlay(image: U8, reading: Reading, profile: Profile) -> U8:
    """A copy of ``image`` with the reading drawn over it (grid lines from the profile)."""
    out = image.copy()
    g = profile.geometry
    o = g.margin * g.pitch

    def to_image(col: float, row: float) -> tuple[int, int]:
        p = g.board_to_image(np.array([[o + col * g.pitch, o + row * g.pitch]]))[0]
        return (round(float(p[0])), round(float(p[1])))

    thick = max(1, round(min(image.shape[:2]) / 400))
    for k in range(SIZE + 1):
        cv2.line(out, to_image(k, 0), to_image(k, SIZE), OK, thick, cv2.LINE_AA)
        cv2.line(out, to_image(0, k), to_image(SIZE, k), OK, thick, cv2.LINE_AA)
    scale = thick * 0.6
    doubts = set(reading.uncertain)
    for r, c in ALL_CELLS:
        x, y = to_image(c + 0.5, r + 0.5)
        if reading.grid and reading.grid[r][c] is not None:
            text, colour = str(reading.grid[r][c]), OK
        else:
            text, colour = "?", DOUBT
        if (r, c) in doubts:
            colour = DOUBT
            a, b = to_image(c + 0.1, r + 0.1), to_image(c + 0.9, r + 0.9)
            cv2.rectangle(out, a, b, DOUBT, thick, cv2.LINE_AA)
        _label(out, text, (x, y), colour, scale, thick)
    for r, c in reading.hand or ():
        # a cross: the card the hand may hide is not read at all, whatever shows of it
        cv2.line(out, to_image(c + 0.15, r + 0.15), to_image(c + 0.85, r + 0.85), HAND, thick)
        cv2.line(out, to_image(c + 0.85, r + 0.15), to_image(c + 0.15, r + 0.85), HAND, thick)
    if reading.hand is not None:
        _label(out, "HAND over the table", (out.shape[1] // 2, 30), HAND, scale, thick)
    for r, c in reading.gems:
        cv2.circle(out, to_image(c + 0.25, r + 0.75), 4 * thick, GEM, -1, cv2.LINE_AA)
    for spirit, pos in reading.pawns.items():
        r, c = pos.cell
        if pos.outside:
            col = c + 0.5 + (0.8 if c == SIZE - 1 else -0.8 if c == 0 else 0.0)
            row = r + 0.5 + (0.8 if r == SIZE - 1 else -0.8 if r == 0 else 0.0)
        else:
            col, row = c + 0.5, r + 0.3
        p = to_image(col, row)
        cv2.circle(out, p, 6 * thick, PAWN, thick, cv2.LINE_AA)
        _label(out, spirit.title, (p[0], p[1] - 9 * thick), PAWN, scale * 0.8, thick)
    if not reading.ok:
        _label(out, f"UNREADABLE: {reading.reason}", (out.shape[1] // 2, 30), DOUBT, scale, thick)
    return out


def _label(
    img: U8,
    text: str,
    centre: tuple[int, int],
    colour: tuple[int, int, int],
    scale: float,
    thick: int,
) -> None:
    font = cv2.FONT_HERSHEY_SIMPLEX
    (w, h), _ = cv2.getTextSize(text, font, scale, thick + 1)
    org = (centre[0] - w // 2, centre[1] + h // 2)
    cv2.putText(img, text, org, font, scale, (0, 0, 0), thick + 2, cv2.LINE_AA)
    cv2.putText(img, text, org, font, scale, colour, thick, cv2.LINE_AA)
