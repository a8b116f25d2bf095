"""Draw one photo of a scene: table, cards, shadows, gems, pawns, a hand, then the camera.

The ground truth comes out with the image (card corners, pawn feet, gems, the hand's cover)
for tests and benchmarks; a recogniser under test must never see it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine import ALL_CELLS, SIZE, Cell, Position, Spirit

from . import photo
from .camera import Camera, CameraPose, random_pose
from .design import CARD_MM, FACE_SIZE, PX_PER_MM, CardDesign
from .design import design as design_from_seed
from .faces import card_faces
from .hand import hand_mask, hand_shapes, paint_hand, random_cloth, random_skin
from .layout import Layout, random_layout, to_table
from .props import GEM, PAWNS, Light, Solid, draw_solid, shadow_polygon
from .scene import Scene
from .style import TableStyle, random_style
from .table import PX_PER_MM as TABLE_PX_PER_MM
from .table import TEXTURE_PX, table_texture

Image = NDArray[np.uint8]
Points = NDArray[np.float64]

PHOTO_SIZE = (1640, 1232)  # the Pi camera's 2x2-binned full-field mode
HAND_COVER = 0.1  # a card counts as covered when the hand hides this share of it


@dataclass(frozen=True)
class Truth:
    """What the photo really shows, in image pixels. For tests and benchmarks only."""

    corners: dict[Cell, Points]  # 4x2: the card's TL, TR, BR, BL as it is read
    hand_cells: frozenset[Cell]  # cards at least HAND_COVER hidden by the hand
    hand_cover: dict[Cell, float]  # share of each card the hand hides (0 when no hand)
    pawns: dict[Spirit, tuple[float, float]]  # the pawn's foot (centre of its base)
    pawn_tops: dict[Spirit, tuple[float, float]]  # the top of the pawn as seen
    gems: dict[Cell, tuple[float, float]]  # the gem's centre
    homography: NDArray[np.float64]  # table plane (mm, grid centre at 0) to image pixels
    layout: Layout


@dataclass(frozen=True)
class RenderResult:
    image: Image  # BGR uint8, size (height, width, 3)
    truth: Truth
    scene: Scene


def render(
    scene: Scene,
    design: CardDesign | int = 0,
    style: TableStyle | None = None,
    pose: CameraPose | None = None,
    seed: int = 0,
    *,
    layout: Layout | None = None,
    size: tuple[int, int] = PHOTO_SIZE,
    compress: bool = True,
) -> RenderResult:
    """Draw ``scene`` as the camera would photograph it; deterministic for given arguments.

    ``design`` is a deck design or a design seed. A missing style, pose or layout is drawn from
    ``seed``; pass the same ones to photograph one session (the calibration photos and the
    game after them) with only the cards, pawns and gems changing.
    """
    d = design_from_seed(design) if isinstance(design, int) else design
    style = style if style is not None else random_style(seed)
    pose = pose if pose is not None else random_pose(seed)
    layout = layout if layout is not None else random_layout(seed)
    place_rng = np.random.default_rng([seed, 1])
    photo_rng = np.random.default_rng([seed, 2])
    cam = Camera(pose, size)
    light = Light(style.light_azimuth_deg, style.light_elevation_deg)

    img = _table(cam, style)
    corners = {cell: cam.project(_z0(layout.corners(cell))) for cell in ALL_CELLS}
    under = _Shadows(size)
    for cell in ALL_CELLS:
        lifted = layout.corners(cell) + light.shadow_offset(1.2)
        under.fill(cam.project(_z0(lifted)))
    img = under.apply(img, cam.px_per_mm(0, 0) * 1.5, style.shadow_strength * 0.9)
    _cards(img, cam, d, scene, layout, place_rng)

    props = _place_props(scene, layout, place_rng)
    over = _Shadows(size)
    for solid, (x, y), _ in props:
        over.fill(cam.project(_z0(shadow_polygon(solid, x, y, light))))
    skin: list[Points] = []
    cloth: list[Points] = []
    if scene.hand is not None:
        mirrored = bool(place_rng.random() < 0.5)
        sleeve = float(place_rng.uniform(60, 260)) if place_rng.random() < 0.6 else None
        skin, cloth = hand_shapes(scene.hand, layout, cam, mirrored, sleeve)
        for s in skin + cloth:
            flat = s[:, :2] + np.array([light.shadow_offset(-z) for z in s[:, 2]])
            over.fill(cam.project(_z0(flat)))
    img = over.apply(img, cam.px_per_mm(0, 0) * 4.0, style.shadow_strength)
    # painter's order: the farthest thing first
    far_first = sorted(props, key=lambda p: -float(cam.depth(np.array([[*p[1], 0.0]]))[0]))
    for solid, (x, y), turn in far_first:
        draw_solid(img, cam, solid, x, y, light, turn)

    cover = dict.fromkeys(ALL_CELLS, 0.0)
    if skin:
        mask = hand_mask(skin, cam)
        paint_hand(img, mask, random_skin(place_rng), place_rng)
        if cloth:
            sleeve_mask = hand_mask(cloth, cam)
            paint_hand(img, sleeve_mask, random_cloth(place_rng), place_rng)
            mask = np.maximum(mask, sleeve_mask)
        cover = {cell: _covered(mask, corners[cell]) for cell in ALL_CELLS}

    img = photo.light(img, style, photo_rng)
    hot = [tuple(map(float, corners[c].mean(axis=0))) for c in ALL_CELLS]
    img = photo.glare(img, style, photo_rng, hot)  # type: ignore[arg-type]
    img = photo.blur(img, style)
    img = photo.noise(img, style, photo_rng)
    if compress:
        img = photo.jpeg(img, style.jpeg_quality)

    truth = Truth(
        corners=corners,
        hand_cells=frozenset(c for c, v in cover.items() if v >= HAND_COVER),
        hand_cover=cover,
        pawns={s: _pt(cam, x, y, 0.0) for s, (x, y) in _feet(scene, props).items()},
        pawn_tops={
            s: _pt(cam, x, y, -PAWNS[s].height) for s, (x, y) in _feet(scene, props).items()
        },
        gems={c: _pt(cam, x, y, 0.0) for c, (x, y) in _gem_spots(scene, props).items()},
        homography=cam.plane(),
        layout=layout,
    )
    return RenderResult(image=img, truth=truth, scene=scene)


def _z0(pts: Points) -> Points:
    return np.column_stack([pts[:, :2], np.zeros(len(pts))])


def _pt(cam: Camera, x: float, y: float, z: float) -> tuple[float, float]:
    p = cam.project(np.array([[x, y, z]]))[0]
    return (float(p[0]), float(p[1]))


# -- table and cards -------------------------------------------------------------------------


def _table(cam: Camera, style: TableStyle) -> Image:
    s = 1.0 / TABLE_PX_PER_MM
    half = TEXTURE_PX / 2 * s  # the texture's centre under the grid's nominal centre
    tex_to_mm = np.array([[s, 0, -half], [0, s, -half], [0, 0, 1.0]])
    h = cam.plane() @ tex_to_mm
    out = cv2.warpPerspective(
        table_texture(style), h, cam.size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    return np.asarray(out, np.uint8)


@lru_cache(maxsize=48)
def _half_faces(d: CardDesign) -> tuple[Image, ...]:
    return tuple(np.asarray(cv2.pyrDown(f), np.uint8) for f in card_faces(d))


def _cards(
    img: Image, cam: Camera, d: CardDesign, scene: Scene, layout: Layout, rng: np.random.Generator
) -> None:
    hgt, wid = img.shape[:2]
    for cell in ALL_CELLS:
        island = scene.island_at(cell)
        quad = cam.project(_z0(layout.corners(cell)))
        tall = float(np.linalg.norm(quad[3] - quad[0]))
        # Shrinking a face more than 2x in one warp aliases the print: start from a half face.
        half = tall < FACE_SIZE[1] * 0.5
        face = _half_faces(d)[island - 1] if half else card_faces(d)[island - 1]
        ppm = PX_PER_MM / (2 if half else 1)
        a = np.radians(layout.angle(cell))
        cx, cy = layout.centre(cell)
        ca, sa = np.cos(a), np.sin(a)
        w2, h2 = CARD_MM[0] / 2, CARD_MM[1] / 2
        # face pixel (u, v) -> table mm: pixel centres at (u + 0.5) / ppm from the card's corner
        local = np.array([[1 / ppm, 0, 0.5 / ppm - w2], [0, 1 / ppm, 0.5 / ppm - h2], [0, 0, 1.0]])
        to_table = np.array([[ca, -sa, cx], [sa, ca, cy], [0, 0, 1.0]])
        h = cam.plane() @ to_table @ local
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, wid), min(y1, hgt)
        if x1 <= x0 or y1 <= y0:
            continue
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]])
        warped = cv2.warpPerspective(
            face,
            shift @ h,
            (x1 - x0, y1 - y0),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
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


def _covered(mask: Image, quad: Points) -> float:
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


# -- shadows ---------------------------------------------------------------------------------


class _Shadows:
    """A soft shadow mask, drawn at quarter size: shadows are blurry anyway, and it is cheaper."""

    S = 4

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.mask = np.zeros((size[1] // self.S + 1, size[0] // self.S + 1), np.uint8)
        self.empty = True

    def fill(self, pts: Points) -> None:
        poly = np.round(pts / self.S * 8).astype(np.int32)
        cv2.fillPoly(self.mask, [poly], 255, cv2.LINE_AA, 3)
        self.empty = False

    def apply(self, img: Image, softness_px: float, strength: float) -> Image:
        if self.empty or strength <= 0:
            return img
        m = cv2.GaussianBlur(self.mask, (0, 0), max(0.7, softness_px / self.S))
        keep = 255 - (m.astype(np.float32) * strength).astype(np.uint8)
        full = cv2.resize(keep, self.size, interpolation=cv2.INTER_LINEAR)
        return np.asarray(
            cv2.multiply(img, cv2.merge([full, full, full]), scale=1.0 / 255.0), np.uint8
        )


# -- pawns and gems --------------------------------------------------------------------------

_Prop = tuple[Solid, tuple[float, float], float]


def _place_props(scene: Scene, layout: Layout, rng: np.random.Generator) -> list[_Prop]:
    """Where each pawn and gem stands, in table mm: pawns first (in Spirit order), then gems."""
    props: list[_Prop] = []
    for spirit in Spirit:
        pos = scene.pawns.get(spirit)
        if pos is None:
            continue
        xy = _pawn_spot(pos, layout, PAWNS[spirit], rng)
        props.append((PAWNS[spirit], xy, float(rng.uniform(0, np.pi))))
    pawn_cells = {p.cell for p in scene.pawns.values() if not p.outside}
    for cell in sorted(scene.gems):
        if cell in pawn_cells:  # beside the pawn, towards a card end
            local = (rng.uniform(-14, 14), rng.choice([-1, 1]) * rng.uniform(24, 32))
        else:
            local = (rng.normal(0, 7), rng.normal(0, 10))
        local = (float(np.clip(local[0], -20, 20)), float(np.clip(local[1], -33, 33)))
        xy = to_table(layout, cell, np.array([local]))[0]
        props.append((GEM, (float(xy[0]), float(xy[1])), float(rng.uniform(0, np.pi))))
    return props


def _pawn_spot(
    pos: Position, layout: Layout, solid: Solid, rng: np.random.Generator
) -> tuple[float, float]:
    if not pos.outside:
        jitter = rng.normal(0, 3.5, 2).clip(-8, 8)
        local = (float(jitter[0]), float(jitter[1]))
    else:
        r, c = pos.cell
        sides = [
            s
            for s, ok in (
                ("top", r == 0),
                ("bottom", r == SIZE - 1),
                ("left", c == 0),
                ("right", c == SIZE - 1),
            )
            if ok
        ]
        side = sides[int(rng.integers(len(sides)))]
        out = CARD_MM[1] / 2 if side in ("top", "bottom") else CARD_MM[0] / 2
        out += solid.base_radius + rng.uniform(4, 14)
        along = rng.normal(0, 5)
        local = {
            "top": (along, -out),
            "bottom": (along, out),
            "left": (-out, along),
            "right": (out, along),
        }[side]
    xy = to_table(layout, pos.cell, np.array([local], np.float64))[0]
    return (float(xy[0]), float(xy[1]))


def _feet(scene: Scene, props: list[_Prop]) -> dict[Spirit, tuple[float, float]]:
    placed = [s for s in Spirit if s in scene.pawns]
    return {s: props[i][1] for i, s in enumerate(placed)}


def _gem_spots(scene: Scene, props: list[_Prop]) -> dict[Cell, tuple[float, float]]:
    first = len(scene.pawns)
    return {cell: props[first + i][1] for i, cell in enumerate(sorted(scene.gems))}
