"""The 25 printed faces of a deck design, drawn once per design and cached.

A face is a BGRA image of ``FACE_SIZE``: alpha is the card's outline with rounded corners.
Each island's art is seeded by (design, island), so faces differ within a deck as much as
decks differ from each other.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine import default_deck

from .design import FACE_SIZE, PX_PER_MM, CardDesign, Colour
from .glyphs import draw_icon
from .numerals import print_number

Image = NDArray[np.uint8]
Float = NDArray[np.float32]

W, H = FACE_SIZE


@lru_cache(maxsize=48)
def card_faces(d: CardDesign) -> tuple[Image, ...]:
    """The 25 faces of deck ``d`` as BGRA images; ``card_faces(d)[k - 1]`` is island k."""
    deck = default_deck()
    alpha = _card_alpha(d)
    faces = []
    for island in range(1, 26):
        colour = d.island_colour(deck.colour(island))
        bgr = draw_face(d, island, colour, deck.icon(island))
        faces.append(np.dstack([bgr, alpha]))
    return tuple(faces)


@lru_cache(maxsize=48)
def card_back(d: CardDesign) -> Image:
    """The deck's back (BGRA): one colour, a lattice and an emblem, the same on every card."""
    rng = np.random.default_rng([d.seed, 0xBAC])
    hsv = np.array([[[rng.integers(180), rng.integers(80, 220), rng.integers(60, 170)]]], np.uint8)
    b, g, r = (int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])
    back = np.empty((H, W, 3), np.uint8)
    back[:] = (b, g, r)
    light = (min(255, b + 60), min(255, g + 60), min(255, r + 60))
    step = int(rng.integers(12, 30))
    for k in range(-H, W + H, step):  # a diamond lattice
        cv2.line(back, (k, 0), (k + H, H), light, 1, cv2.LINE_AA)
        cv2.line(back, (k, H), (k + H, 0), light, 1, cv2.LINE_AA)
    cv2.circle(back, (W // 2, H // 2), W // 4, d.paper, -1, cv2.LINE_AA)
    cv2.circle(back, (W // 2, H // 2), W // 5, (b, g, r), -1, cv2.LINE_AA)
    _border(back, d)
    return np.dstack([back, _card_alpha(d)])


def draw_face(d: CardDesign, island: int, colour: Colour, icon: str) -> Image:
    """One card face (BGR, no alpha)."""
    rng = np.random.default_rng([d.seed, island, 0xA47])
    art = _art(d, rng, np.array(colour, np.float32) / 255.0)
    grey = art.mean(axis=2, keepdims=True)
    art = grey + (art - grey) * (0.35 + 0.65 * d.art_saturation)
    face: Image = np.clip(art * 255.0, 0, 255).astype(np.uint8)
    _island_band(face, d, colour)
    _border(face, d)
    ink = {"dark": (30, 30, 35), "light": (245, 245, 240)}.get(d.icon_ink)
    icon_ink = ink if ink is not None else tuple(int(c * 0.55) for c in colour)
    r = d.icon_size * W
    centre = (d.icon_at[0] * W, d.icon_at[1] * H)
    if d.band == "disc":
        cv2.circle(
            face, (round(centre[0]), round(centre[1])), round(r * 1.35), colour, -1, cv2.LINE_AA
        )
    draw_icon(face, icon, centre, r, (int(icon_ink[0]), int(icon_ink[1]), int(icon_ink[2])))
    print_number(face, d, str(island))
    return face


# -- background art ----------------------------------------------------------------------


def _art(d: CardDesign, rng: np.random.Generator, island: Float) -> Float:
    other = rng.uniform(0.15, 0.95, 3).astype(np.float32)
    y = np.linspace(0.0, 1.0, H, dtype=np.float32)[:, None, None]
    x = np.linspace(0.0, 1.0, W, dtype=np.float32)[None, :, None]
    if d.art == "gradient":
        a = float(rng.uniform(0, np.pi))
        t = np.clip((x - 0.5) * np.cos(a) + (y - 0.5) * np.sin(a) + 0.5, 0, 1)
        return np.asarray(island * (1 - t) + other * t, np.float32)
    if d.art == "stripes":
        a = float(rng.uniform(0, np.pi))
        f = float(rng.uniform(4, 11))
        phase = (x * np.cos(a) * W + y * np.sin(a) * H) / H * f + np.sin(y * 9 + x * 3) * 0.6
        t = (0.5 + 0.5 * np.sin(phase * 2 * np.pi)).astype(np.float32)
        return np.asarray(island * (0.55 + 0.45 * t) + other * 0.25 * (1 - t), np.float32)
    if d.art == "clouds":
        t = _smooth_noise(rng, (4, 6))[:, :, None]
        base = island * t + other * (1 - t)
        return (base * 0.8 + 0.2 * _smooth_noise(rng, (12, 16))[:, :, None]).astype(np.float32)
    if d.art == "blobs":
        img = np.empty((H, W, 3), np.float32)
        img[:] = island * 0.7 + 0.3
        for _ in range(int(rng.integers(6, 14))):
            layer = img.copy()
            c = rng.uniform(0.1, 1.0, 3)
            centre = (int(rng.integers(0, W)), int(rng.integers(0, H)))
            axes = (int(rng.integers(10, W // 2)), int(rng.integers(10, W // 2)))
            cv2.ellipse(
                layer, centre, axes, float(rng.uniform(0, 180)), 0, 360, c.tolist(), -1, cv2.LINE_AA
            )
            img = np.asarray(cv2.addWeighted(img, 0.55, layer, 0.45, 0.0), np.float32)
        return img
    return _landscape(rng, island, other)


def _landscape(rng: np.random.Generator, island: Float, other: Float) -> Float:
    y = np.linspace(0.0, 1.0, H, dtype=np.float32)[:, None, None]
    sky_top = np.array([0.85, 0.6, 0.35], np.float32) * rng.uniform(0.8, 1.1)
    sky = sky_top * (1 - y) + np.array([0.95, 0.9, 0.85], np.float32) * y
    img = np.repeat(sky, W, axis=1).astype(np.float32)
    horizon = int(H * rng.uniform(0.45, 0.65))
    sea = np.array([0.6, 0.45, 0.1], np.float32) * rng.uniform(0.7, 1.2)
    img[horizon:] = sea * (1 - y[horizon:] * 0.4)
    for _ in range(int(rng.integers(1, 4))):  # clouds
        c = (int(rng.integers(0, W)), int(rng.integers(0, horizon)))
        cv2.ellipse(
            img,
            c,
            (int(rng.integers(15, 50)), int(rng.integers(6, 15))),
            0,
            0,
            360,
            (0.97, 0.97, 0.97),
            -1,
            cv2.LINE_AA,
        )
    # the island: a noisy blob on the horizon in the island's colour, with a pale beach
    n = 36
    ang = np.linspace(0, 2 * np.pi, n, endpoint=False)
    rad = 1.0 + np.convolve(rng.normal(0, 0.18, n + 4), np.ones(5) / 5, "valid")[:n]
    cx, cy = W * rng.uniform(0.35, 0.65), horizon + H * 0.02
    rx, ry = W * rng.uniform(0.25, 0.4), H * rng.uniform(0.1, 0.2)
    pts = np.stack(
        [
            cx + np.cos(ang) * rx * rad,
            cy + np.sin(ang) * ry * rad * np.where(np.sin(ang) > 0, 0.3, 1.0),
        ],
        1,
    )
    beach = np.clip(island * 0.3 + 0.7, 0, 1)
    cv2.fillPoly(
        img,
        [np.round(pts * 1.08 - [cx * 0.08, cy * 0.08]).astype(np.int32)],
        beach.tolist(),
        cv2.LINE_AA,
    )
    cv2.fillPoly(img, [np.round(pts).astype(np.int32)], (island * 0.9).tolist(), cv2.LINE_AA)
    img = img * 0.85 + other * 0.15
    return np.clip(img, 0, 1).astype(np.float32)


def _smooth_noise(rng: np.random.Generator, cells: tuple[int, int]) -> Float:
    small = rng.random((cells[1], cells[0])).astype(np.float32)
    return cv2.resize(small, (W, H), interpolation=cv2.INTER_CUBIC).clip(0, 1)


# -- frame, band and border ----------------------------------------------------------------


def _island_band(face: Image, d: CardDesign, colour: Colour) -> None:
    b = round(d.border * W)
    size = round(d.band_size * H)
    if d.band == "top":
        face[b : b + size, b : W - b] = colour
    elif d.band == "bottom":
        face[H - b - size : H - b, b : W - b] = colour
    elif d.band == "left":
        face[b : H - b, b : b + round(size * 0.8)] = colour
    elif d.band == "frame":
        t = max(4, round(size * 0.35))
        cv2.rectangle(face, (b + t // 2, b + t // 2), (W - b - t // 2, H - b - t // 2), colour, t)
    elif d.band == "tint":
        tint = np.empty_like(face)
        tint[:] = colour
        cv2.addWeighted(face, 0.5, tint, 0.5, 0.0, dst=face)


def _border(face: Image, d: CardDesign) -> None:
    b = round(d.border * W)
    if b <= 0:
        return
    face[:b] = d.paper
    face[H - b :] = d.paper
    face[:, :b] = d.paper
    face[:, W - b :] = d.paper


def _card_alpha(d: CardDesign) -> Image:
    r = max(1, round(d.corner_radius_mm * PX_PER_MM))
    alpha = np.zeros((H * 4, W * 4), np.uint8)  # drawn 4x larger, then shrunk: smooth corners
    R = r * 4
    cv2.rectangle(alpha, (R, 0), (W * 4 - 1 - R, H * 4 - 1), 255, -1)
    cv2.rectangle(alpha, (0, R), (W * 4 - 1, H * 4 - 1 - R), 255, -1)
    for cx, cy in ((R, R), (W * 4 - 1 - R, R), (R, H * 4 - 1 - R), (W * 4 - 1 - R, H * 4 - 1 - R)):
        cv2.circle(alpha, (cx, cy), R, 255, -1)
    return np.asarray(cv2.resize(alpha, (W, H), interpolation=cv2.INTER_AREA), np.uint8)
