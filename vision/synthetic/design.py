"""Deck designs: how a printed deck of island cards might look, generated from a seed.

The real cards' art is unknown, so a recogniser must learn each deck from the calibration
photos. To test that honestly we draw many different decks: each design seed picks the
background art, how the island colour shows (band, frame, tint), where the icon sits and how
the number is printed (font, size, place, colour). Designs used while tuning a recogniser
must not be the ones it is evaluated on (see :mod:`.dataset`).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import cv2
import numpy as np

Colour = tuple[int, int, int]

# A card is 63 x 88 mm (the common poker/bridge-like format); faces are drawn at 3 px/mm,
# more than a card ever covers in a 1640x1232 photo, so warping only ever shrinks them.
CARD_MM = (63.0, 88.0)
PX_PER_MM = 3.0
FACE_SIZE = (round(CARD_MM[0] * PX_PER_MM), round(CARD_MM[1] * PX_PER_MM))  # (w, h)

ART_KINDS = ("landscape", "gradient", "blobs", "stripes", "clouds")
BAND_KINDS = ("top", "bottom", "left", "frame", "tint", "disc")
NUMBER_PLACES = ("top-left", "top-right", "centre", "bottom", "bottom-right", "corners", "top")
# cv2's Hershey faces; "pil" is Pillow's bundled scalable font (the same on every machine).
FONTS = (
    "simplex",
    "duplex",
    "complex",
    "triplex",
    "script_simplex",
    "script_complex",
    "plain",
    "complex_small",
    "pil",
)

# Where the icon may sit (fractions of the card) so that it does not cover the number.
ICON_PLACES: dict[str, tuple[tuple[float, float], ...]] = {
    "top-left": ((0.5, 0.55), (0.78, 0.14), (0.22, 0.86), (0.5, 0.8)),
    "top-right": ((0.5, 0.55), (0.22, 0.14), (0.22, 0.86), (0.5, 0.8)),
    "bottom-right": ((0.5, 0.55), (0.5, 0.35), (0.78, 0.14), (0.22, 0.86)),
    "corners": ((0.5, 0.55), (0.5, 0.35), (0.78, 0.14), (0.22, 0.86)),
    "centre": ((0.78, 0.14), (0.22, 0.86), (0.5, 0.84), (0.5, 0.16)),
    "top": ((0.5, 0.6), (0.22, 0.86), (0.5, 0.8)),
    "bottom": ((0.5, 0.4), (0.5, 0.3), (0.78, 0.14)),
}

_HUES = {"green": 62, "yellow": 27, "orange": 13, "blue": 108, "pink": 165, "red": 0}


@dataclass(frozen=True)
class CardDesign:
    """Everything that decides how one deck's 25 faces look. Build it with :func:`design`."""

    seed: int
    paper: Colour  # card stock colour (the border)
    border: float  # border width as a fraction of the card width
    corner_radius_mm: float
    art: str  # one of ART_KINDS
    art_saturation: float  # 0..1: muted or vivid art
    hue_shift: int  # this print run's take on the island colours (OpenCV hue units)
    band: str  # one of BAND_KINDS: how the island colour shows
    band_size: float
    icon_at: tuple[float, float]  # icon centre, fractions of the card (x, y)
    icon_size: float  # radius as a fraction of the card width
    icon_ink: str  # "dark", "light" or "island"
    font: str  # one of FONTS
    italic: bool
    number_at: str  # one of NUMBER_PLACES
    number_size: float  # digit height as a fraction of the card height
    number_weight: float  # stroke thickness relative to the digit height
    number_ink: Colour
    number_outline: Colour | None
    number_badge: Colour | None  # a disc behind the number

    def island_colour(self, name: str) -> Colour:
        """The BGR colour this design prints for deck colour ``name`` (any name works)."""
        hue = _HUES.get(name, zlib.crc32(name.encode()) % 180)
        sat = 60 + 170 * self.art_saturation if name != "pink" else 40 + 110 * self.art_saturation
        val = 225 if name in ("yellow", "pink") else 195
        hsv = np.array([[[(hue + self.hue_shift) % 180, sat, val]]], np.uint8)
        b, g, r = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0]
        return (int(b), int(g), int(r))


def design(seed: int) -> CardDesign:
    """The deck design for ``seed``: the same seed always gives the same deck."""
    rng = np.random.default_rng([seed, 0xDEC4])

    def pick(options: tuple[str, ...]) -> str:
        return options[int(rng.integers(len(options)))]

    paper_kind = rng.random()
    if paper_kind < 0.6:
        paper = _grey(rng, 225, 250, warm=True)
    elif paper_kind < 0.85:
        paper = _grey(rng, 20, 60, warm=False)
    else:
        paper = _hsv(int(rng.integers(180)), int(rng.integers(40, 140)), int(rng.integers(90, 200)))
    number_at = pick(NUMBER_PLACES)
    big = number_at in ("centre", "bottom", "top")
    dark_ink = rng.random() < 0.6
    ink = _grey(rng, 10, 50, warm=False) if dark_ink else _grey(rng, 230, 255, warm=True)
    if rng.random() < 0.2:
        ink = _hsv(int(rng.integers(180)), int(rng.integers(150, 255)), int(rng.integers(60, 160)))
    outline_ink = _grey(rng, 240, 255, warm=False) if dark_ink else _grey(rng, 0, 30, warm=False)
    icon_positions = ICON_PLACES[number_at]
    return CardDesign(
        seed=seed,
        paper=paper,
        border=float(rng.uniform(0.0, 0.09)),
        corner_radius_mm=float(rng.uniform(1.5, 4.0)),
        art=pick(ART_KINDS),
        art_saturation=float(rng.uniform(0.25, 1.0)),
        hue_shift=int(rng.integers(-8, 9)),
        band=pick(BAND_KINDS),
        band_size=float(rng.uniform(0.1, 0.22)),
        icon_at=icon_positions[int(rng.integers(len(icon_positions)))],
        icon_size=float(rng.uniform(0.1, 0.22)),
        icon_ink=pick(("dark", "light", "island")),
        font=pick(FONTS),
        italic=bool(rng.random() < 0.25),
        number_at=number_at,
        number_size=float(rng.uniform(0.14, 0.3) if big else rng.uniform(0.08, 0.15)),
        number_weight=float(rng.uniform(0.05, 0.14)),
        number_ink=ink,
        number_outline=outline_ink if rng.random() < 0.45 else None,
        number_badge=_grey(rng, 200, 255, warm=True) if rng.random() < 0.25 else None,
    )


def _grey(rng: np.random.Generator, lo: int, hi: int, warm: bool) -> Colour:
    v = int(rng.integers(lo, hi + 1))
    tint = int(rng.integers(0, 12)) if warm else 0
    return (max(0, v - tint), max(0, v - tint // 2), v)


def _hsv(h: int, s: int, v: int) -> Colour:
    b, g, r = cv2.cvtColor(np.array([[[h, s, v]]], np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
    return (int(b), int(g), int(r))
