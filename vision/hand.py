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
from .pixels import components
from .profile import Profile

# OpenCV's type stubs return loosely typed arrays: the aliases name the intent only.
F32 = NDArray[Any]
U8 = NDArray[Any]


def hand_from_outside(lab: F32, ref: F32, profile: Profile, ref_blur: F32 | None = None) -> bool:
    """Whether something big over the table around the grid reaches the board's border.

    ``lab`` is the photo's board (Lab, lighting matched to the calibration's), ``ref`` the
    calibration board. Pawns standing beside the grid (Austro) are small and away from the
    border; glare or a shadow that moved since calibration lets the table's texture show.
    ``ref_blur``, if given, is :func:`.pawns.residual_blur` of ``ref[::2, ::2]`` (the same
    for every reading of a profile: made once).
    """
    g = profile.geometry
    lab, ref = lab[::2, ::2], ref[::2, ::2]
    h, w = lab.shape[:2]
    inner = np.zeros((h, w), bool)
    o = round(g.margin * g.pitch / 2)
    inner[o : h - o, o : w - o] = True
    res = residual(lab, ref, ref_blur)
    ring = res[~inner]
    med = float(np.median(ring[::3]))
    mad = float(np.median(np.abs(ring[::3] - med))) + 1e-3
    m: U8 = ((res > max(med + 8.0 * mad, 0.5 * profile.cross_cost)) & ~inner).astype(np.uint8)
    m = cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = components(m)
    if n <= 1:
        return False
    edge = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    cell_area = (g.pitch / 2) ** 2
    big = [k for k in edge if k != 0 and stats[k, cv2.CC_STAT_AREA] > 0.4 * cell_area]
    if not big:
        return False
    detail, ref_detail = _detail(lab), _detail(ref)
    for k in big:
        region = labels == k
        need = GLARE_SEE_THROUGH if _added_light(lab, ref, region) else SEE_THROUGH
        if not _see_through(detail, ref_detail, region, need):
            return True
    return False


SEE_THROUGH = 0.6  # correlation of the table's fine detail with the calibration's...
MIN_TEXTURE = 1.0  # ...where the table has at least this much of it (L, standard deviation)
# Glare is light added on top of the table: brighter everywhere, no more colourful. Its own
# steep slope and the clipped pixels at its heart blur the detail (a lamp's reflection
# that moved beside the grid correlated 0.53), so less correlation is asked of it. Hands
# and sleeves that happen to be brighter and greyer than the table hide its texture
# entirely (correlation under 0.1 on the DEV decks' hand scenes).
GLARE_SEE_THROUGH = 0.4
GLARE_MIN_GAIN = 0.0  # L: the 5th percentile of the brightening must be above this...
GLARE_MAX_CHROMA = 2.0  # ...and the median chroma may grow by this much at most


def _added_light(lab: F32, ref: F32, region: NDArray[np.bool_]) -> bool:
    """Whether ``region`` changed as glare does: brighter throughout, and no more colourful."""
    gain = lab[..., 0][region] - ref[..., 0][region]
    if float(np.percentile(gain, 5)) <= GLARE_MIN_GAIN:
        return False
    chroma = np.hypot(lab[..., 1][region], lab[..., 2][region])
    ref_chroma = np.hypot(ref[..., 1][region], ref[..., 2][region])
    return float(np.median(chroma) - np.median(ref_chroma)) <= GLARE_MAX_CHROMA


def _detail(lab: F32) -> F32:
    """The fine detail of the lightness (grain, weave, print), the light's slopes removed."""
    light = np.ascontiguousarray(lab[..., 0])
    out: F32 = light - cv2.GaussianBlur(light, (0, 0), 2.0)
    return out


def _see_through(
    detail: F32, ref_detail: F32, region: NDArray[np.bool_], need: float = SEE_THROUGH
) -> bool:
    """Whether the table's own texture still shows in ``region``: glare or a shadow that
    moved between photos changes the light there but hides nothing, while a hand or an arm
    hides the table. A plain table cannot tell them apart: then it is not see-through."""
    a, b = detail[region], ref_detail[region]
    if float(b.std()) < MIN_TEXTURE:
        return False
    corr = float(((a - a.mean()) * (b - b.mean())).mean()) / (float(a.std() * b.std()) + 1e-6)
    return corr > need
