"""Cards lying on the table, warped from their printed face into the photo."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine import ALL_CELLS

from .camera import Camera
from .design import CARD_MM, FACE_SIZE, CardDesign
from .faces import card_faces
from .layout import Layout
from .scene import Scene

Image = NDArray[np.uint8]
Points = NDArray[np.float64]


@lru_cache(maxsize=48)
def _half_faces(d: CardDesign) -> tuple[Image, ...]:
    return tuple(np.asarray(cv2.pyrDown(f), np.uint8) for f in card_faces(d))


def draw_cards(
    img: Image, cam: Camera, d: CardDesign, scene: Scene, layout: Layout, rng: np.random.Generator
) -> None:
    """The island cards of ``scene`` where ``layout`` puts them, in place (not on the
    cells it has cleared)."""
    for cell in ALL_CELLS:
        if cell in scene.cleared:
            continue
        island = scene.island_at(cell)
        corners = layout.corners(cell)
        quad = cam.project(np.column_stack([corners, np.zeros(4)]))
        # Shrinking a face more than 2x in one warp aliases the print: start from a half face.
        half = float(np.linalg.norm(quad[3] - quad[0])) < FACE_SIZE[1] * 0.5
        face = _half_faces(d)[island - 1] if half else card_faces(d)[island - 1]
        draw_card(img, cam, face, layout.centre(cell), layout.angle(cell), rng)


def draw_card(
    img: Image,
    cam: Camera,
    face: Image,
    centre: tuple[float, float],
    angle_deg: float,
    rng: np.random.Generator,
    z: float = 0.0,
) -> None:
    """One card face (BGRA, any of the face sizes) lying flat at ``centre``, ``z`` mm up."""
    ppm = face.shape[1] / CARD_MM[0]
    a = np.radians(angle_deg)
    ca, sa = np.cos(a), np.sin(a)
    w2, h2 = CARD_MM[0] / 2, CARD_MM[1] / 2
    # face pixel (u, v) -> table mm: pixel centres at (u + 0.5) / ppm from the card's corner
    local = np.array([[1 / ppm, 0, 0.5 / ppm - w2], [0, 1 / ppm, 0.5 / ppm - h2], [0, 0, 1.0]])
    to_table = np.array([[ca, -sa, centre[0]], [sa, ca, centre[1]], [0, 0, 1.0]])
    h = cam.plane(z) @ to_table @ local
    outline = np.array([[0, 0, 1], [face.shape[1], 0, 1], [0, face.shape[0], 1]], np.float64)
    outline = np.vstack([outline, [face.shape[1], face.shape[0], 1]]) @ h.T
    quad = outline[:, :2] / outline[:, 2:3]
    hgt, wid = img.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, wid), min(y1, hgt)
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]])
    warped = cv2.warpPerspective(
        face, shift @ h, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT
    )
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    # Cards are never quite flat: each catches the light its own way, a bit unevenly.
    hh, ww = alpha.shape[:2]
    tilt, way = rng.uniform(-0.08, 0.08), rng.uniform(0, 2 * np.pi)
    yy, xx = np.ogrid[-1.0 : 1.0 : hh * 1j, -1.0 : 1.0 : ww * 1j]
    sheen = rng.uniform(0.92, 1.05) + tilt * (xx * np.cos(way) + yy * np.sin(way))
    roi = img[y0:y1, x0:x1].astype(np.float32)
    lit = alpha * sheen[:, :, None].astype(np.float32)
    out = roi * (1 - alpha) + warped[:, :, :3].astype(np.float32) * lit
    img[y0:y1, x0:x1] = out.clip(0, 255).astype(np.uint8)


def covered(mask: Image, quad: Points) -> float:
    """The share of the card ``quad`` (image pixels) that ``mask`` hides."""
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, mask.shape[1]), min(y1, mask.shape[0])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    card = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(card, np.round(quad - [x0, y0]).astype(np.int32), 1)
    area = int(card.sum())
    hidden = int(np.count_nonzero((mask[y0:y1, x0:x1] > 127) & (card > 0)))
    return hidden / area if area else 0.0
