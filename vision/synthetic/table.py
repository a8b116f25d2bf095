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
    # Planks along one axis; grain lines follow a slowly wandering offset inside each plank.
    x = np.arange(n, dtype=np.float32)[None, :]
    y = np.arange(n, dtype=np.float32)[:, None]
    plank_px = rng.uniform(90, 220) * PX_PER_MM
    plank = np.floor(x / plank_px)
    wander = _low_noise(rng, n, 8) * rng.uniform(20, 60) + _low_noise(rng, n, 40) * 4
    freq = rng.uniform(0.08, 0.25)
    grain = 0.5 + 0.5 * np.sin((x + wander + plank * 37.0 + np.sin(y / 180.0 + plank) * 15) * freq)
    grain = grain**3
    tone = (np.sin(plank * 12.9898) * 43758.5453) % 1.0  # a fixed pseudo-random tone per plank
    streaks = rng.random((n, n // 8)).astype(np.float32)
    fine = cv2.resize(streaks, (n, n), interpolation=cv2.INTER_LINEAR)  # along the grain
    t = 0.55 * grain + 0.25 * tone + 0.2 * fine
    seam = (np.abs((x % plank_px) - 0.5) < 1.2).astype(np.float32)  # dark joints between planks
    t = np.maximum(t, seam * 0.95)
    if rng.random() < 0.5:
        t = t.T
    return np.ascontiguousarray(t, dtype=np.float32)


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
