"""A hand or an arm over the table: a big change around the grid that comes from outside.

Hands and arms reach in over the board image's border. The table itself never changes (the
camera is fixed), so the table around the grid is compared with the calibration photo pixel
by pixel, whatever its pattern. The comparison runs at half the board's resolution: an arm
is big, and the check must stay cheap (it runs on every reading).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from .pawns import residual
from .profile import Profile

# OpenCV's type stubs return loosely typed arrays: the aliases name the intent only.
F32 = NDArray[Any]
U8 = NDArray[Any]


def hand_from_outside(lab: F32, ref: F32, profile: Profile) -> bool:
    """Whether something big over the table around the grid reaches the board's border.

    ``lab`` is the photo's board (Lab, lighting matched to the calibration's), ``ref`` the
    calibration board. Pawns standing beside the grid (Austro) are small and away from the
    border.
    """
    g = profile.geometry
    lab, ref = lab[::2, ::2], ref[::2, ::2]
    h, w = lab.shape[:2]
    inner = np.zeros((h, w), bool)
    o = round(g.margin * g.pitch / 2)
    inner[o : h - o, o : w - o] = True
    res = residual(lab, ref)
    ring = res[~inner]
    med = float(np.median(ring[::3]))
    mad = float(np.median(np.abs(ring[::3] - med))) + 1e-3
    m: U8 = ((res > max(med + 8.0 * mad, 0.5 * profile.cross_cost)) & ~inner).astype(np.uint8)
    m = cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(m)
    if n <= 1:
        return False
    edge = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    cell_area = (g.pitch / 2) ** 2
    return any(k != 0 and stats[k, cv2.CC_STAT_AREA] > 0.4 * cell_area for k in edge)
