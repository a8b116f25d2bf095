"""What the room light and the camera do to the scene: light falloff, glare, blur, noise, JPEG.

Everything works on uint8 images with OpenCV's saturating arithmetic: float copies of a
1640x1232 frame cost more than the drawing itself.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from .style import TableStyle

Image = NDArray[np.uint8]

_NOISE_PAD = 64
_NOISE_STD = 24.0  # std of the cached noise field around its 128 offset


def light(img: Image, style: TableStyle, rng: np.random.Generator) -> Image:
    """Multiply by the room's light (gradient, lamp pool, vignette, white balance, exposure)."""
    h, w = img.shape[:2]
    sw, sh = 64, 48  # the light varies slowly: compute it small, then stretch
    y, x = np.mgrid[0:sh, 0:sw].astype(np.float32)
    u, v = (x + 0.5) / sw - 0.5, (y + 0.5) / sh - 0.5
    a = np.radians(style.gradient_deg)
    field = 1.0 + style.gradient * (u * np.cos(a) + v * np.sin(a))
    sx, sy = style.spot_at
    field += style.spot * np.exp(-((u + 0.5 - sx) ** 2 + (v + 0.5 - sy) ** 2) / 0.08)
    field *= 1.0 - style.vignette * (u * u + v * v) * 1.6
    # auto-exposure settles a little differently on every shot, even on a still table
    drift = 1.0 + float(np.clip(rng.normal(0.0, 0.02), -0.05, 0.05))
    field *= style.exposure * drift / max(float(field.mean()), 1e-3) * 0.95
    gains = np.stack([field * g for g in style.white_balance], axis=2)
    gain = cv2.resize(
        np.clip(gains * 128.0, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR
    )
    return np.asarray(cv2.multiply(img, gain, scale=1.0 / 128.0), np.uint8)


def glare(
    img: Image, style: TableStyle, rng: np.random.Generator, hot: list[tuple[float, float]]
) -> Image:
    """Add specular spots (a lamp reflected in glossy cards) near the points in ``hot``."""
    if style.glare == 0 or not hot:
        return img
    h, w = img.shape[:2]
    s = 4
    spots = np.zeros((h // s, w // s), np.float32)
    for _ in range(style.glare):
        cx, cy = hot[int(rng.integers(len(hot)))]
        cx, cy = cx + rng.normal(0, 40), cy + rng.normal(0, 40)
        rx, ry = rng.uniform(15, 70), rng.uniform(10, 45)
        ang = rng.uniform(0, 180)
        blob = np.zeros_like(spots)
        cv2.ellipse(
            blob,
            (int(cx / s), int(cy / s)),
            (max(1, int(rx / s)), max(1, int(ry / s))),
            ang,
            0,
            360,
            1.0,
            -1,
        )
        spots += cv2.GaussianBlur(blob, (0, 0), max(1.0, rx / s / 2)) * rng.uniform(0.4, 1.0)
    add = cv2.resize(np.clip(spots * style.glare_strength * 255, 0, 255).astype(np.uint8), (w, h))
    return np.asarray(cv2.add(img, cv2.merge([add, add, add])), np.uint8)


def blur(img: Image, style: TableStyle) -> Image:
    if style.blur_sigma > 0.3:
        img = np.asarray(cv2.GaussianBlur(img, (0, 0), style.blur_sigma), np.uint8)
    if style.motion_px >= 1.5:
        n = int(np.ceil(style.motion_px)) | 1
        k = np.zeros((n, n), np.float32)
        a = np.radians(style.motion_deg)
        c = (n - 1) / 2
        d = (np.cos(a) * c, np.sin(a) * c)
        cv2.line(
            k,
            (round(c - d[0]), round(c - d[1])),
            (round(c + d[0]), round(c + d[1])),
            1.0,
            1,
            cv2.LINE_AA,
        )
        img = np.asarray(cv2.filter2D(img, -1, k / k.sum()), np.uint8)
    return img


@lru_cache(maxsize=4)
def _noise_field(w: int, h: int) -> Image:
    # One noise field, reused at random offsets: drawing 6M normals per photo costs ~80 ms.
    rng = np.random.default_rng(0x40153)
    n = rng.normal(128.0, _NOISE_STD, (h + _NOISE_PAD, w + _NOISE_PAD, 3))
    return np.clip(n, 0, 255).astype(np.uint8)


def noise(img: Image, style: TableStyle, rng: np.random.Generator) -> Image:
    h, w = img.shape[:2]
    field = _noise_field(w, h)
    dx, dy = (int(v) for v in rng.integers(0, _NOISE_PAD, 2))
    k = style.noise / _NOISE_STD
    out = cv2.addWeighted(img, 1.0, field[dy : dy + h, dx : dx + w], k, -128.0 * k)
    return np.asarray(out, np.uint8)


def jpeg(img: Image, quality: int) -> Image:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:  # cannot happen for a valid BGR image; keep the raw frame rather than fail
        return img
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return np.asarray(out, np.uint8)
