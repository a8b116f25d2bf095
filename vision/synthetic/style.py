"""How the table, the room's light and the camera's sensor make the photo look.

One seed gives a whole style; a style stays fixed through a session (same table, same lamp,
same camera), while the cards on it change from photo to photo.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

Colour = tuple[int, int, int]

TABLE_KINDS = ("wood", "cloth", "plain", "pattern")


@dataclass(frozen=True)
class TableStyle:
    table: str  # one of TABLE_KINDS
    table_colour: Colour  # main BGR colour of the table
    table_accent: Colour  # second colour (grain, weave, checks)
    table_seed: int  # the table texture's own seed
    light_azimuth_deg: float  # where the main light comes from (shadows point away)
    light_elevation_deg: float  # low light = long shadows
    shadow_strength: float  # 0..1
    gradient: float  # brightness falloff across the image, 0..1
    gradient_deg: float
    spot: float  # a lamp's bright pool, 0..1
    spot_at: tuple[float, float]  # fractions of the image
    vignette: float  # 0..1
    exposure: float  # overall gain, ~0.6 (dim room) .. 1.25
    white_balance: tuple[float, float, float]  # B, G, R gains (warm lamp, daylight, ...)
    glare: int  # number of specular spots
    glare_strength: float
    blur_sigma: float  # defocus, in pixels
    motion_px: float  # motion blur length in pixels (0: none)
    motion_deg: float
    noise: float  # sensor noise standard deviation (8-bit levels)
    jpeg_quality: int


def random_style(seed: int) -> TableStyle:
    rng = np.random.default_rng([seed, 0x57E])
    kind = TABLE_KINDS[int(rng.choice(len(TABLE_KINDS), p=[0.4, 0.25, 0.2, 0.15]))]
    main, accent = _table_colours(rng, kind)
    warm = rng.uniform(-0.12, 0.15)  # >0 warm tungsten light, <0 cool daylight
    return TableStyle(
        table=kind,
        table_colour=main,
        table_accent=accent,
        table_seed=int(rng.integers(1 << 30)),
        light_azimuth_deg=float(rng.uniform(0, 360)),
        light_elevation_deg=float(rng.uniform(35, 80)),
        shadow_strength=float(rng.uniform(0.15, 0.55)),
        gradient=float(rng.uniform(0.0, 0.45)),
        gradient_deg=float(rng.uniform(0, 360)),
        spot=float(rng.uniform(0.0, 0.35)),
        spot_at=(float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9))),
        vignette=float(rng.uniform(0.0, 0.4)),
        exposure=float(rng.uniform(0.65, 1.2)),
        white_balance=(float(1.0 - warm), 1.0, float(1.0 + warm)),
        glare=int(rng.integers(0, 4)),
        glare_strength=float(rng.uniform(0.2, 0.8)),
        blur_sigma=float(rng.uniform(0.0, 1.3)),
        motion_px=float(rng.uniform(0, 5) if rng.random() < 0.2 else 0.0),
        motion_deg=float(rng.uniform(0, 180)),
        noise=float(rng.uniform(1.0, 7.0)),
        jpeg_quality=int(rng.integers(55, 96)),
    )


def _table_colours(rng: np.random.Generator, kind: str) -> tuple[Colour, Colour]:
    def hsv(h: float, s: float, v: float) -> Colour:
        px = np.array([[[h % 180, np.clip(s, 0, 255), np.clip(v, 0, 255)]]], np.uint8)
        b, g, r = cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0]
        return (int(b), int(g), int(r))

    if kind == "wood":
        h, s, v = rng.uniform(8, 20), rng.uniform(90, 200), rng.uniform(60, 200)
        return hsv(h, s, v), hsv(h + rng.uniform(-3, 3), s * 1.1, v * rng.uniform(0.55, 0.8))
    if kind == "cloth":
        h, s, v = rng.uniform(0, 180), rng.uniform(30, 200), rng.uniform(40, 200)
        return hsv(h, s, v), hsv(h, s, v * 0.8)
    if kind == "plain":
        v = rng.choice([rng.uniform(200, 245), rng.uniform(20, 70), rng.uniform(100, 180)])
        h, s = rng.uniform(0, 180), rng.uniform(0, 40)
        return hsv(h, s, v), hsv(h, s, v * 0.95)
    h = rng.uniform(0, 180)
    return hsv(h, rng.uniform(60, 220), rng.uniform(120, 230)), hsv(
        h + rng.uniform(30, 90), rng.uniform(0, 120), rng.uniform(180, 250)
    )
