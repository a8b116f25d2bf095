"""The room's light over the grid, relative to where each card lay at calibration.

A lamp's pool, the light's falloff across the table and the lens's vignette make the same
pawn look lighter on one card than on another: a white pawn learned on island 1 in a dark
corner reads 30-40 L lighter in the middle of the table. The calibration cannot measure
that field (its cards all differ), but a game photo can: the cards have been shuffled, so
each card now lies under other light than at calibration, and the ratio of its lightness
now to then is the ratio of the light at the two places. A smooth field (a quadratic in
the board's coordinates) is fitted to those ratios, and the light at any two places can be
compared.

Lightness is compared as ``L + 16``: a light scaled by ``g`` scales ``L + 16`` (and a*, b*)
by ``g ** (1/3)`` in CIE Lab, so the ratios here are of that cube root.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .pixels import median

F32 = NDArray[Any]
F64 = NDArray[Any]


@dataclass(frozen=True)
class LightField:
    """``log`` of the light's (L + 16) scale as a quadratic of board (x, y), up to a constant."""

    coef: F64  # (5,): x, y, x^2, x*y, y^2 in units of ``scale`` around ``centre``
    centre: tuple[float, float]
    scale: float

    def log_light(self, x: float, y: float) -> float:
        u = (x - self.centre[0]) / self.scale
        v = (y - self.centre[1]) / self.scale
        return float(self.coef @ np.array([u, v, u * u, u * v, v * v]))

    def ratio(self, there: tuple[float, float], here: tuple[float, float]) -> float:
        """The light's (L + 16) scale at ``there`` over that at ``here`` (board px)."""
        return float(np.exp(self.log_light(*there) - self.log_light(*here)))

    def ratios(self, there: tuple[float, float], heres: list[tuple[float, float]]) -> list[float]:
        """:meth:`ratio` of ``there`` over each of ``heres``, ``there``'s light taken once."""
        top = self.log_light(*there)
        return [float(np.exp(top - self.log_light(*here))) for here in heres]


FLAT = LightField(np.zeros(5), (0.0, 0.0), 1.0)


def card_ratios(lab: F32, expected: F32, centres: F64, size: tuple[int, int]) -> F64:
    """Per card, the median of ``(L + 16)`` seen over ``(L + 16)`` expected (the card as it
    was at calibration, pasted where it lies now, not yet relit); NaN for a card off the
    board. A pawn, a gem or its shadow cover well under half a card: the median is the light.
    """
    w, h = size
    hh, ww = lab.shape[:2]
    out = np.full(len(centres), np.nan)
    inside, seen, exp = [], [], []
    for n, (cx, cy) in enumerate(centres.tolist()):
        x0, y0 = round(cx - w / 2), round(cy - h / 2)
        if min(x0, y0) < 0 or x0 + w > ww or y0 + h > hh:
            continue
        inside.append(n)
        seen.append(lab[y0 : y0 + h : 3, x0 : x0 + w : 3, 0])
        exp.append(expected[y0 : y0 + h : 3, x0 : x0 + w : 3, 0])
    if inside:
        # (one median over all the cards at once: the same values, a tenth of the calls)
        ratio = (np.stack(seen) + 16.0) / np.maximum(np.stack(exp) + 16.0, 1.0)
        out[inside] = median(ratio.reshape(len(inside), -1), axis=1)
    return out


def fit_field(ratios: F64, now: F64, was: F64, pitch: float) -> LightField:
    """The smooth field that explains each card's ratio of light now (at ``now``) to light
    at calibration (at ``was``), board px.

    Cards that have not moved say nothing of the field; a nearly solved grid leaves it
    flat (a small ridge pulls every coefficient towards zero). The worst-fitting fifth of
    the cards (a hand, a card wrongly read) is left out of a second fit.
    """
    ok = np.isfinite(ratios) & (ratios > 0)
    moved = np.linalg.norm(now - was, axis=1) > MIN_MOVE * pitch
    keep = ok & moved
    if int(keep.sum()) < MIN_CARDS:
        return FLAT
    centre = (float(np.mean(now[:, 0])), float(np.mean(now[:, 1])))
    scale = 2.5 * pitch  # half the grid's width: coordinates within about -1..1

    def terms(p: F64) -> F64:
        u = (p[:, 0] - centre[0]) / scale
        v = (p[:, 1] - centre[1]) / scale
        out: F64 = np.stack([u, v, u * u, u * v, v * v], axis=1)
        return out

    a = terms(now) - terms(was)
    b = np.log(np.where(ok, ratios, 1.0))
    coef = _ridge(a[keep], b[keep])
    res = np.abs(a @ coef - b)
    worst = float(np.quantile(res[keep], 0.8))
    keep &= res <= worst
    if int(keep.sum()) >= MIN_CARDS:
        coef = _ridge(a[keep], b[keep])
    return LightField(coef, centre, scale)


def _ridge(a: F64, b: F64) -> F64:
    lhs = a.T @ a + RIDGE * np.eye(a.shape[1])
    out: F64 = np.linalg.solve(lhs, a.T @ b)
    return out


MIN_MOVE = 0.5  # cells: a card moved less than this says nothing of the field
MIN_CARDS = 6  # moved cards needed to fit the five coefficients at all
RIDGE = 0.05  # pulls a field that the cards barely constrain towards flat
