"""A virtual pinhole camera on a mast above the table, and where it puts things in the photo.

Table coordinates (mm) have x to the right, y towards the bottom row and z *into* the table,
so a point above the table has a negative z (a pawn's top is at z = -height).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Points = NDArray[np.float64]

# Room kept around the cards so a pawn beside the grid (Austro outside) is still in view.
OUTSIDE_MARGIN_MM = 45.0
# The camera frames the largest grid a layout can make (widest gaps, turned cards), not the
# cards of one photo: the camera stays put while players nudge the cards during a game.
GRID_FRAME_MM = (-205.0, -268.0, 205.0, 268.0)


@dataclass(frozen=True)
class CameraPose:
    """Where the camera looks from, in the terms a user would set the mast up by.

    ``tilt_deg`` is the optical axis's angle off vertical (0..~35) and ``tilt_azimuth_deg``
    the side it leans towards (90 = the camera stands on the players' side, below the grid).
    ``roll_deg`` turns the grid in the image. ``distance_mm`` sets the strength of the
    perspective; ``fill`` is the share of the image height the largest possible grid spans
    (the lens zoom: a grid laid with small gaps looks smaller);
    ``shift`` moves the grid off the image centre (fractions of the image size).
    ``distortion`` bends straight lines as a real lens does (0: an ideal pinhole).
    """

    tilt_deg: float = 0.0
    tilt_azimuth_deg: float = 90.0
    roll_deg: float = 0.0
    distance_mm: float = 800.0
    fill: float = 0.8
    shift: tuple[float, float] = (0.0, 0.0)
    distortion: float = 0.0  # the lens's barrel, k1 (see .lens); about -0.03..0 for a Pi camera


def random_pose(seed: int, max_tilt_deg: float = 35.0, max_roll_deg: float = 15.0) -> CameraPose:
    rng = np.random.default_rng([seed, 0xCA3])
    return CameraPose(
        tilt_deg=float(max_tilt_deg * np.sqrt(rng.random())),  # strong tilts are common
        tilt_azimuth_deg=float(rng.uniform(0, 360) if rng.random() < 0.5 else rng.normal(90, 25)),
        roll_deg=float(rng.uniform(-max_roll_deg, max_roll_deg)),
        distance_mm=float(rng.uniform(550, 1200)),
        fill=float(rng.uniform(0.72, 0.95)),
        shift=(float(rng.uniform(-0.06, 0.06)), float(rng.uniform(-0.05, 0.05))),
        distortion=float(rng.uniform(-0.03, 0.0)),
    )


class Camera:
    """The pose made concrete for one image size, framing ``extent`` (table mm)."""

    def __init__(
        self,
        pose: CameraPose,
        size: tuple[int, int],
        extent: tuple[float, float, float, float] = GRID_FRAME_MM,
    ) -> None:
        self.size = size
        x0, y0, x1, y1 = extent
        target = np.array([(x0 + x1) / 2, (y0 + y1) / 2, 0.0])
        t, a = np.radians(pose.tilt_deg), np.radians(pose.tilt_azimuth_deg)
        view = np.array([np.sin(t) * np.cos(a), np.sin(t) * np.sin(a), np.cos(t)])
        centre = target - pose.distance_mm * view
        y_axis = np.array([0.0, 1.0, 0.0]) - view[1] * view
        y_axis /= np.linalg.norm(y_axis)
        x_axis = np.cross(y_axis, view)
        r = np.radians(pose.roll_deg)
        x_r = np.cos(r) * x_axis + np.sin(r) * y_axis
        y_r = -np.sin(r) * x_axis + np.cos(r) * y_axis
        self.R = np.stack([x_r, y_r, view])
        self.t = -self.R @ centre
        # Pick the focal length (a zoom) so the grid fills `fill` of the height, then the
        # principal point so the grid, with room for a pawn beside it, lies in the frame.
        self.K = np.eye(3)
        grid = _box(x0, y0, x1, y1, 0.0)
        m = OUTSIDE_MARGIN_MM
        room = _box(x0 - m, y0 - m, x1 + m, y1 + m, 0.0)
        g = self._normalised(grid)
        o = self._normalised(room)
        w, h = size
        f = pose.fill * h / np.ptp(g[:, 1])
        f = min(f, 0.97 * w / np.ptp(o[:, 0]), 0.97 * h / np.ptp(o[:, 1]))
        lo, hi = o.min(axis=0) * f, o.max(axis=0) * f
        want = np.array([w * (0.5 + pose.shift[0]), h * (0.5 + pose.shift[1])])
        c = want - (g.min(axis=0) + g.max(axis=0)) / 2 * f
        c = np.clip(c, -lo + 0.01 * np.array(size), np.array(size) * 0.99 - hi)
        self.K = np.array([[f, 0, c[0]], [0, f, c[1]], [0, 0, 1.0]])

    def _normalised(self, pts: Points) -> Points:
        cam = pts @ self.R.T + self.t
        return np.asarray(cam[:, :2] / cam[:, 2:3], np.float64)

    def project(self, pts: Points) -> Points:
        """Table points (N x 3, mm) to image pixels (N x 2)."""
        cam = np.asarray(pts, np.float64) @ self.R.T + self.t
        uv = cam @ self.K.T
        return np.asarray(uv[:, :2] / uv[:, 2:3], np.float64)

    def depth(self, pts: Points) -> NDArray[np.float64]:
        return np.asarray((np.asarray(pts, np.float64) @ self.R.T + self.t)[:, 2], np.float64)

    def plane(self, z: float = 0.0) -> NDArray[np.float64]:
        """Homography from the plane at height ``z`` (x, y in mm) to the image."""
        r = self.R
        m = np.stack([r[:, 0], r[:, 1], r[:, 2] * z + self.t], axis=1)
        h = self.K @ m
        return np.asarray(h / h[2, 2], np.float64)

    def px_per_mm(self, x: float, y: float) -> float:
        """Local scale of the table plane at (x, y): how many pixels one mm spans."""
        p = self.project(np.array([[x, y, 0.0], [x + 1.0, y, 0.0], [x, y + 1.0, 0.0]]))
        (ax, ay), (bx, by) = p[1] - p[0], p[2] - p[0]
        return float(np.sqrt(abs(ax * by - ay * bx)))


def _box(x0: float, y0: float, x1: float, y1: float, z: float) -> Points:
    return np.array([[x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]])
