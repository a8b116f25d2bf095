"""The island icons drawn as simple vector glyphs (wave, feather, snowflake, sun, dragon).

The printed icons are unknown, so these only need to be distinct, plausible shapes. An icon
name this module does not know (a user's own deck) gets a star whose points come from the name.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
Colour = tuple[int, int, int]

_SHIFT = 4  # cv2 drawing with sub-pixel precision: coordinates are scaled by 2**_SHIFT
_ONE = 1 << _SHIFT


def _pts(points: NDArray[np.float64]) -> NDArray[np.int32]:
    return np.round(points * _ONE).astype(np.int32).reshape(-1, 1, 2)


def _polyline(img: Image, pts: NDArray[np.float64], colour: Colour, width: float) -> None:
    cv2.polylines(img, [_pts(pts)], False, colour, max(1, round(width)), cv2.LINE_AA, _SHIFT)


def _fill(img: Image, pts: NDArray[np.float64], colour: Colour) -> None:
    cv2.fillPoly(img, [_pts(pts)], colour, cv2.LINE_AA, _SHIFT)


def _wave(img: Image, cx: float, cy: float, r: float, colour: Colour) -> None:
    t = np.linspace(-1.0, 1.0, 40)
    for k in (-0.45, 0.0, 0.45):
        x = cx + t * r
        y = cy + k * r + np.sin(t * np.pi * 2.0) * r * 0.18
        _polyline(img, np.stack([x, y], 1), colour, r * 0.13)


def _feather(img: Image, cx: float, cy: float, r: float, colour: Colour) -> None:
    t = np.linspace(0.0, 1.0, 30)
    # A leaf-shaped vane along a curved quill, tilted like a quill pen.
    spine = np.stack(
        [cx - r * 0.8 + t * r * 1.6, cy + r * 0.8 - t * r * 1.6 - np.sin(t * np.pi) * r * 0.15], 1
    )
    normal = np.array([0.7071, 0.7071])
    width = np.sin(t * np.pi) ** 0.8 * r * 0.38
    left = spine + normal * width[:, None]
    right = spine - normal * width[:, None]
    _fill(img, np.concatenate([left, right[::-1]]), colour)
    dark = tuple(int(c * 0.4) for c in colour)
    _polyline(img, spine, (dark[0], dark[1], dark[2]), r * 0.07)
    for i in range(5, 26, 4):
        _polyline(
            img, np.stack([spine[i], left[min(i + 3, 29)]]), (dark[0], dark[1], dark[2]), r * 0.04
        )


def _snowflake(img: Image, cx: float, cy: float, r: float, colour: Colour) -> None:
    for k in range(6):
        a = k * np.pi / 3.0
        d = np.array([np.cos(a), np.sin(a)])
        c = np.array([cx, cy])
        _polyline(img, np.stack([c, c + d * r]), colour, r * 0.11)
        for f in (0.45, 0.72):
            base = c + d * r * f
            for s in (-1.0, 1.0):
                b = np.array([np.cos(a + s * 0.8), np.sin(a + s * 0.8)])
                _polyline(img, np.stack([base, base + b * r * 0.3]), colour, r * 0.08)


def _sun(img: Image, cx: float, cy: float, r: float, colour: Colour) -> None:
    cv2.circle(
        img,
        (round(cx * _ONE), round(cy * _ONE)),
        round(r * 0.5 * _ONE),
        colour,
        -1,
        cv2.LINE_AA,
        _SHIFT,
    )
    for k in range(12):
        a = k * np.pi / 6.0
        d = np.array([np.cos(a), np.sin(a)])
        n = np.array([-d[1], d[0]])
        c = np.array([cx, cy])
        tri = np.stack(
            [c + d * r * 0.62 + n * r * 0.12, c + d * r, c + d * r * 0.62 - n * r * 0.12]
        )
        _fill(img, tri, colour)


def _dragon(img: Image, cx: float, cy: float, r: float, colour: Colour) -> None:
    t = np.linspace(0.0, 1.0, 40)
    body = np.stack([cx - r + t * r * 1.7, cy + np.sin(t * np.pi * 2.2) * r * 0.35], 1)
    _polyline(img, body, colour, r * 0.22)
    head = body[-1]
    _fill(img, head + np.array([[-0.1, -0.25], [0.4, 0.0], [-0.1, 0.2]]) * r, colour)
    wing = body[14] + np.array([[0.0, 0.0], [0.1, -0.9], [0.55, -0.55], [0.45, -0.1]]) * r
    _fill(img, wing, colour)


def _star(name: str) -> Callable[[Image, float, float, float, Colour], None]:
    points = 4 + zlib.crc32(name.encode()) % 5

    def draw(img: Image, cx: float, cy: float, r: float, colour: Colour) -> None:
        a = np.arange(points * 2) * np.pi / points - np.pi / 2
        rr = np.where(np.arange(points * 2) % 2 == 0, r, r * 0.45)
        _fill(img, np.stack([cx + np.cos(a) * rr, cy + np.sin(a) * rr], 1), colour)

    return draw


GLYPHS: dict[str, Callable[[Image, float, float, float, Colour], None]] = {
    "wave": _wave,
    "feather": _feather,
    "snowflake": _snowflake,
    "sun": _sun,
    "dragon": _dragon,
}


def draw_icon(
    img: Image, name: str, centre: tuple[float, float], radius: float, colour: Colour
) -> None:
    """Draw icon ``name`` in place, centred, fitting a circle of ``radius`` pixels."""
    GLYPHS.get(name, _star(name))(img, centre[0], centre[1], radius, colour)
