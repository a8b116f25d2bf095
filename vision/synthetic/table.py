"""Table textures, drawn on the table plane (mm) and cached per style.

The texture covers a square around the grid; the camera warp reflects it beyond, which is
invisible on wood grain and cloth.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from .style import TableStyle

Image = NDArray[np.uint8]

TEXTURE_PX = 1536
TEXTURE_MM = 1200.0  # the square of table the texture covers, centred on the grid
PX_PER_MM = TEXTURE_PX / TEXTURE_MM


@lru_cache(maxsize=12)
def table_texture(style: TableStyle) -> Image:
    """The table top as BGR, ``TEXTURE_PX`` square; its centre is the grid's centre."""
    rng = np.random.default_rng([style.table_seed, 0x7AB])
    n = TEXTURE_PX
    main = np.array(style.table_colour, np.float32)
    accent = np.array(style.table_accent, np.float32)
    if style.table == "wood":
        t = _wood(rng, n)
    elif style.table == "cloth":
        t = _cloth(rng, n)
    elif style.table == "pattern":
        t = _pattern(rng, n)
    else:
        t = _low_noise(rng, n, 6) * 0.25
    img = main * (1 - t[:, :, None]) + accent * t[:, :, None]
    return np.clip(img, 0, 255).astype(np.uint8)


def _low_noise(rng: np.random.Generator, n: int, cells: int) -> NDArray[np.float32]:
    small = rng.random((cells, cells)).astype(np.float32)
    return cv2.resize(small, (n, n), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def _wood(rng: np.random.Generator, n: int) -> NDArray[np.float32]:
    """Planks with grain running along y: growth rings cut lengthwise, each plank its own."""
    x = np.arange(n, dtype=np.float32)[None, :]
    plank_px = rng.uniform(90, 220) * PX_PER_MM
    plank = np.floor(x / plank_px)
    # Ring lines drift slowly along the plank and faster across it, which makes them
    # converge and spread as real grain does; each plank gets its own drift and phase.
    drift = _stretched_noise(rng, n, (5, 40)) * rng.uniform(25, 60)
    drift += _stretched_noise(rng, n, (3, 12)) * rng.uniform(40, 120)
    phase = (np.sin(plank * 12.9898) * 43758.5453) % 1.0  # fixed pseudo-random per plank
    period = rng.uniform(5.0, 14.0) * PX_PER_MM
    rings = (x + drift + phase * 500.0) / period
    grain = np.abs(np.sin(np.pi * rings)) ** rng.uniform(4.0, 10.0)  # thin dark latewood lines
    streaks = cv2.resize(rng.random((n // 2, n // 16)).astype(np.float32), (n, n))
    tone = phase * rng.uniform(0.1, 0.35)
    seam = (np.abs((x % plank_px) - 0.5) < 1.0).astype(np.float32)
    t = 0.45 * grain + 0.25 * streaks + tone
    t = np.maximum(t, seam * 0.9)
    if rng.random() < 0.5:
        t = t.T
    return np.ascontiguousarray(np.clip(t, 0, 1), dtype=np.float32)


def _stretched_noise(
    rng: np.random.Generator, n: int, cells: tuple[int, int]
) -> NDArray[np.float32]:
    """Smooth noise with ``cells`` = (along y, along x) control points, in -1..1."""
    small = rng.uniform(-1, 1, cells).astype(np.float32)
    return np.asarray(cv2.resize(small, (n, n), interpolation=cv2.INTER_CUBIC), np.float32)


def _cloth(rng: np.random.Generator, n: int) -> NDArray[np.float32]:
    x = np.arange(n, dtype=np.float32)[None, :]
    y = np.arange(n, dtype=np.float32)[:, None]
    period = rng.uniform(2.5, 5.0)
    weave = 0.5 + 0.25 * np.sin(x * 2 * np.pi / period) * np.sin(y * 2 * np.pi / period)
    mottle = _low_noise(rng, n, 10)
    fibre = rng.random((n, n)).astype(np.float32)
    return np.asarray((0.35 * weave + 0.4 * mottle + 0.25 * fibre) * 0.8, np.float32)


def _pattern(rng: np.random.Generator, n: int) -> NDArray[np.float32]:
    x = np.arange(n, dtype=np.float32)[None, :]
    y = np.arange(n, dtype=np.float32)[:, None]
    period = rng.uniform(15, 60) * PX_PER_MM
    kind = rng.integers(3)
    if kind == 0:  # gingham checks
        t = ((x % period) < period / 2).astype(np.float32) * 0.5 + ((y % period) < period / 2) * 0.5
    elif kind == 1:  # stripes
        t = np.broadcast_to(((x + y * 0.0) % period < period * 0.4).astype(np.float32), (n, n))
    else:  # polka dots
        dx = (x % period) - period / 2
        dy = (y % period) - period / 2
        t = ((dx * dx + dy * dy) < (period * 0.22) ** 2).astype(np.float32)
    t = cv2.GaussianBlur(np.ascontiguousarray(t, dtype=np.float32), (0, 0), 1.0)
    return (t * 0.9 + _low_noise(rng, n, 12) * 0.1).astype(np.float32)
