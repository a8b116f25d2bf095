"""Small array helpers for the per-reading hot paths, exact to the numpy they replace."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

F32 = NDArray[Any]


def colour_distance(a: F32, b: F32) -> F32:
    """Euclidean distance over the last axis (3 channels) of ``a - b``, per pixel.

    The same values as ``np.sqrt(((a - b) ** 2).sum(axis=-1))`` (the squares added in
    channel order, in the inputs' precision), about ten times faster: numpy reduces a last
    axis of three one short loop at a time.
    """
    d = np.subtract(a, b)
    np.multiply(d, d, out=d)
    s = d[..., 0] + d[..., 1]
    s += d[..., 2]
    out: F32 = np.sqrt(s, out=s)
    return out
