"""Pawns and red gems: small solids standing on the table, drawn in 3D through the camera.

Each is a solid of revolution (a profile of rings) projected ring by ring, so it leans and
foreshortens as a real one would under a tilted camera, shaded by the room's light.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine import Spirit

from .camera import Camera

Image = NDArray[np.uint8]
Points = NDArray[np.float64]
Colour = tuple[int, int, int]

_SHIFT = 3
_ONE = 1 << _SHIFT


@dataclass(frozen=True)
class Solid:
    """A shape of revolution: rings of (radius mm, height mm) from the base up."""

    profile: tuple[tuple[float, float], ...]
    colour: Colour  # BGR
    sides: int = 28  # few sides: a faceted prism
    gloss: float = 0.3

    @property
    def height(self) -> float:
        return max(h for _, h in self.profile)

    @property
    def base_radius(self) -> float:
        return self.profile[0][0]

    @property
    def radius(self) -> float:
        """The widest ring: how close another thing can come to the axis."""
        return max(r for r, _ in self.profile)


# Five pawns told apart by colour and by silhouette (none red: red is the gems' colour).
PAWNS: dict[Spirit, Solid] = {
    # Borea, the north wind: an icy white cone with a ball on top
    Spirit.BOREA: Solid(
        ((11, 0), (11, 2), (8.5, 6), (5, 20), (6.5, 23), (6.5, 27), (4, 30), (0.5, 31)),
        (235, 225, 205),
        gloss=0.5,
    ),
    # Jugo, the warm sirocco: a squat orange drum
    Spirit.JUGO: Solid(((12.5, 0), (12.5, 15), (11, 17), (0.5, 17.5)), (30, 140, 240), gloss=0.35),
    # Etesia: a green meeple-like figure, wide foot, waist and a disc head
    Spirit.ETESIA: Solid(
        ((11.5, 0), (11.5, 3), (6, 8), (4.5, 16), (8, 19), (8, 23), (0.5, 23.5)),
        (60, 150, 40),
        gloss=0.3,
    ),
    # Skyron: a tall slim purple column with a dome
    Spirit.SKYRON: Solid(
        ((9, 0), (9, 2), (7, 4), (7, 30), (5, 34), (0.5, 35.5)), (150, 50, 120), gloss=0.45
    ),
    # Austro: a dark hexagonal prism
    Spirit.AUSTRO: Solid(
        ((11.5, 0), (11.5, 22), (10, 24), (0.5, 24.5)), (55, 48, 42), sides=6, gloss=0.6
    ),
}

GEM = Solid(((6.0, 0), (6.5, 1.5), (4.5, 4.0), (0.5, 4.6)), (35, 25, 185), sides=8, gloss=1.0)


@dataclass(frozen=True)
class Light:
    """The main light as the shading needs it: a unit vector towards it, in table axes."""

    azimuth_deg: float
    elevation_deg: float

    def towards(self) -> Points:
        a, e = np.radians(self.azimuth_deg), np.radians(self.elevation_deg)
        return np.array([np.cos(e) * np.cos(a), np.cos(e) * np.sin(a), -np.sin(e)])

    def shadow_offset(self, height: float) -> Points:
        """Where the shadow of a point ``height`` mm up falls, relative to its foot (mm)."""
        t = self.towards()
        slope = max(float(np.tan(np.radians(self.elevation_deg))), 0.2)
        return np.asarray(-t[:2] / slope * height, np.float64)


def rings(solid: Solid, x: float, y: float, turn: float) -> list[Points]:
    ang = np.linspace(0, 2 * np.pi, solid.sides, endpoint=False) + turn
    return [
        np.stack([x + r * np.cos(ang), y + r * np.sin(ang), np.full_like(ang, -h)], axis=1)
        for r, h in solid.profile
    ]


def shadow_polygon(solid: Solid, x: float, y: float, light: Light) -> Points:
    """The solid's shadow on the table (mm, 2D): hull of its base and its lifted rings."""
    pts = []
    for ring in rings(solid, x, y, 0.0):
        h = -ring[0, 2]
        pts.append(ring[:, :2] + light.shadow_offset(h))
    hull = cv2.convexHull(np.concatenate(pts).astype(np.float32))
    return np.asarray(hull.reshape(-1, 2), np.float64)


def draw_solid(
    img: Image, cam: Camera, solid: Solid, x: float, y: float, light: Light, turn: float = 0.0
) -> None:
    """Paint ``solid`` standing at table point (x, y) into ``img``, in place."""
    projected = [cam.project(r) for r in rings(solid, x, y, turn)]
    allp = np.concatenate(projected)
    x0, y0 = np.floor(allp.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(allp.max(axis=0)).astype(int) + 3
    hgt, wid = img.shape[:2]
    if x1 <= 0 or y1 <= 0 or x0 >= wid or y0 >= hgt:
        return
    origin = np.array([x0, y0], np.float64)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for lower, upper in pairwise(projected):
        hull = cv2.convexHull(
            np.round((np.concatenate([lower, upper]) - origin) * _ONE).astype(np.int32)
        )
        cv2.fillConvexPoly(mask, hull, 255, cv2.LINE_AA, _SHIFT)
    cap = np.zeros_like(mask)
    top = projected[-2] if solid.profile[-1][0] < 1.0 else projected[-1]
    cv2.fillConvexPoly(
        cap, np.round((top - origin) * _ONE).astype(np.int32), 255, cv2.LINE_AA, _SHIFT
    )
    shade = _shading(cam, solid, x, y, light, origin, mask.shape)
    cap_light = float(max(0.0, _to_image(cam, light.towards())[2]))
    cap_shade = 0.55 + 0.5 * cap_light
    shade = np.where(cap > 128, np.maximum(shade, cap_shade), shade)
    colour = np.array(solid.colour, np.float32)
    spec = _specular(shade, solid.gloss)
    body = colour * shade[:, :, None] + spec[:, :, None] * 255.0
    alpha = mask.astype(np.float32)[:, :, None] / 255.0
    # clip to the image and blend
    sx0, sy0 = max(x0, 0), max(y0, 0)
    sx1, sy1 = min(x1, wid), min(y1, hgt)
    sub = (slice(sy0 - y0, sy1 - y0), slice(sx0 - x0, sx1 - x0))
    roi = img[sy0:sy1, sx0:sx1].astype(np.float32)
    out = roi * (1 - alpha[sub]) + np.clip(body[sub], 0, 255) * alpha[sub]
    img[sy0:sy1, sx0:sx1] = out.astype(np.uint8)


def _to_image(cam: Camera, v: Points) -> Points:
    """A table-axes direction in image axes, z towards the camera."""
    c = cam.R @ v
    return np.array([c[0], c[1], -c[2]])


def _shading(
    cam: Camera,
    solid: Solid,
    x: float,
    y: float,
    light: Light,
    origin: Points,
    shape: tuple[int, ...],
) -> NDArray[np.float32]:
    """Lambert shading of a round body: the normal leans out from the pawn's axis in the image."""
    foot, head = cam.project(np.array([[x, y, 0.0], [x, y, -solid.height]]))
    foot, head = foot - origin, head - origin
    radius_px = solid.radius * cam.px_per_mm(x, y)
    hh, ww = shape
    py, px = np.mgrid[0:hh, 0:ww].astype(np.float32)
    axis = head - foot
    length2 = float(axis @ axis)
    t = np.clip(((px - foot[0]) * axis[0] + (py - foot[1]) * axis[1]) / max(length2, 1e-6), 0, 1)
    dx = px - (foot[0] + t * axis[0])
    dy = py - (foot[1] + t * axis[1])
    nx, ny = dx / radius_px, dy / radius_px
    nz = np.sqrt(np.clip(1 - nx * nx - ny * ny, 0.05, 1))
    lx, ly, lz = _to_image(cam, light.towards())
    lambert = np.clip(nx * lx + ny * ly + nz * lz, 0, 1)
    return np.asarray(0.35 + 0.7 * lambert, np.float32)


def _specular(shade: NDArray[np.float32], gloss: float) -> NDArray[np.float32]:
    return np.asarray(np.clip((shade - 0.9) / 0.15, 0, 1) ** 2 * 0.6 * gloss, np.float32)
