"""Draw one photo of a scene: table, cards, shadows, gems, pawns, a hand, then the camera.

The ground truth comes out with the image (card corners, pawn feet, gems, the hand's cover)
for tests and benchmarks; a recogniser under test must never see it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine import ALL_CELLS, Cell, Spirit

from . import photo
from .camera import Camera, CameraPose, random_pose
from .cards import covered, draw_card, draw_cards
from .design import CARD_MM, CardDesign
from .design import design as design_from_seed
from .faces import card_back
from .hand import hand_mask, hand_shapes, paint_hand, random_cloth, random_skin
from .layout import Layout, random_layout
from .lens import distort_image, distort_points
from .placement import Placement, place
from .props import PAWNS, Light, draw_solid, shadow_polygon
from .scene import Scene
from .shadows import Shadows
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
    hidden_pawns: frozenset[Spirit]  # pawns whose top the hand hides
    hidden_gems: frozenset[Cell]  # gems on cards the hand hides
    pawns: dict[Spirit, tuple[float, float]]  # the pawn's foot (centre of its base)
    pawn_tops: dict[Spirit, tuple[float, float]]  # the top of the pawn as seen
    gems: dict[Cell, tuple[float, float]]  # the gem's centre
    loose_gems: tuple[tuple[float, float], ...]  # supply gems off the grid (may be out of view)
    homography: NDArray[np.float64]  # table plane (mm, grid centre at 0) to ideal pixels
    lens_k1: float  # the photo's pixels are the ideal ones bent by this (see .lens)
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
    rng = np.random.default_rng([seed, 1])
    photo_rng = np.random.default_rng([seed, 2])
    cam = Camera(pose, size)
    k1 = pose.distortion
    light = Light(style.light_azimuth_deg, style.light_elevation_deg)
    spots = place(scene, layout, rng, side_seed=style.table_seed)

    img = _table(cam, style)
    corners = {cell: cam.project(_z0(layout.corners(cell))) for cell in ALL_CELLS}
    img = _flat_shadows(cam, layout, spots, light, scene.cleared).apply(
        img, cam.px_per_mm(0, 0) * 1.5, style.shadow_strength * 0.9
    )
    _storm_deck(img, cam, d, spots, rng)
    draw_cards(img, cam, d, scene, layout, rng)

    over = Shadows(size)
    for p in spots.props():
        over.fill(cam.project(_z0(shadow_polygon(p.solid, p.x, p.y, light))))
    skin: list[Points] = []
    cloth: list[Points] = []
    if scene.hand is not None:
        mirrored = bool(rng.random() < 0.5)
        sleeve = float(rng.uniform(60, 260)) if rng.random() < 0.6 else None
        skin, cloth = hand_shapes(scene.hand, layout, cam, mirrored, sleeve)
        for s in skin + cloth:
            flat = s[:, :2] + np.array([light.shadow_offset(-z) for z in s[:, 2]])
            over.fill(cam.project(_z0(flat)))
    img = over.apply(img, cam.px_per_mm(0, 0) * 4.0, style.shadow_strength)
    # painter's order: the farthest thing first
    for p in sorted(spots.props(), key=lambda p: -float(cam.depth(np.array([[p.x, p.y, 0.0]]))[0])):
        draw_solid(img, cam, p.solid, p.x, p.y, light, p.turn)

    cover = dict.fromkeys(ALL_CELLS, 0.0)
    hidden: set[Spirit | Cell] = set()
    if skin:
        moving = rng.random() < 0.4  # a hand caught mid-move is smeared
        motion = (float(rng.uniform(3, 14)) if moving else 0.0, float(rng.uniform(0, 180)))
        mask = hand_mask(skin, cam)
        paint_hand(img, mask, random_skin(rng), rng, motion)
        if cloth:
            sleeve_mask = hand_mask(cloth, cam)
            paint_hand(img, sleeve_mask, random_cloth(rng), rng, motion)
            mask = np.maximum(mask, sleeve_mask)
        cover = {cell: covered(mask, corners[cell]) for cell in ALL_CELLS}
        tops = {s: _pt(cam, p.x, p.y, -p.solid.height) for s, p in spots.pawns.items()}
        gem_at = {c: _pt(cam, p.x, p.y, 0.0) for c, p in spots.gems.items()}
        hidden = {s for s, xy in tops.items() if _under(mask, xy)}
        hidden |= {c for c, xy in gem_at.items() if _under(mask, xy)}

    img = distort_image(img, k1)  # the lens bends everything drawn so far
    img = photo.light(img, style, photo_rng)
    hot = [(float(q[:, 0].mean()), float(q[:, 1].mean())) for q in corners.values()]
    img = photo.glare(img, style, photo_rng, hot)
    img = photo.blur(img, style)
    img = photo.noise(img, style, photo_rng)
    if compress:
        img = photo.jpeg(img, style.jpeg_quality)

    def pixel(x: float, y: float, z: float) -> tuple[float, float]:
        p = distort_points(cam.project(np.array([[x, y, z]])), size, k1)[0]
        return (float(p[0]), float(p[1]))

    truth = Truth(
        corners={cell: distort_points(q, size, k1) for cell, q in corners.items()},
        hand_cells=frozenset(c for c, v in cover.items() if v >= HAND_COVER),
        hand_cover=cover,
        hidden_pawns=frozenset(s for s in spots.pawns if s in hidden),
        hidden_gems=frozenset(c for c in spots.gems if c in hidden),
        pawns={s: pixel(p.x, p.y, 0.0) for s, p in spots.pawns.items()},
        pawn_tops={s: pixel(p.x, p.y, -PAWNS[s].height) for s, p in spots.pawns.items()},
        gems={c: pixel(p.x, p.y, 0.0) for c, p in spots.gems.items()},
        loose_gems=tuple(pixel(p.x, p.y, 0.0) for p in spots.supply.gems),
        homography=cam.plane(),
        lens_k1=k1,
        layout=layout,
    )
    return RenderResult(image=img, truth=truth, scene=scene)


def _under(mask: Image, xy: tuple[float, float]) -> bool:
    x, y = round(xy[0]), round(xy[1])
    return 0 <= y < mask.shape[0] and 0 <= x < mask.shape[1] and bool(mask[y, x] > 127)


def _z0(pts: Points) -> Points:
    return np.column_stack([pts[:, :2], np.zeros(len(pts))])


def _pt(cam: Camera, x: float, y: float, z: float) -> tuple[float, float]:
    p = cam.project(np.array([[x, y, z]]))[0]
    return (float(p[0]), float(p[1]))


def _table(cam: Camera, style: TableStyle) -> Image:
    s = 1.0 / TABLE_PX_PER_MM
    half = TEXTURE_PX / 2 * s  # the texture's centre under the grid's nominal centre
    tex_to_mm = np.array([[s, 0, -half], [0, s, -half], [0, 0, 1.0]])
    h = cam.plane() @ tex_to_mm
    out = cv2.warpPerspective(
        table_texture(style), h, cam.size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    return np.asarray(out, np.uint8)


_DECK_CARDS = 8  # a storm deck is a small pile: its sides show under a tilted camera
_CARD_THICK_MM = 0.35


def _flat_shadows(
    cam: Camera, layout: Layout, spots: Placement, light: Light, cleared: frozenset[Cell]
) -> Shadows:
    """Shadows of things lying flat: the grid's cards (barely lifted, where they lie) and the
    storm deck."""
    under = Shadows(cam.size)
    for cell in ALL_CELLS:
        if cell in cleared:
            continue
        lifted = layout.corners(cell) + light.shadow_offset(1.2)
        under.fill(cam.project(_z0(lifted)))
    if spots.supply.deck is not None:
        x, y, a = spots.supply.deck
        base = _deck_corners(x, y, a)
        top = base + light.shadow_offset(_DECK_CARDS * _CARD_THICK_MM + 1.0)
        hull = cv2.convexHull(np.vstack([base, top]).astype(np.float32)).reshape(-1, 2)
        under.fill(cam.project(_z0(hull.astype(np.float64))))
    return under


def _storm_deck(
    img: Image, cam: Camera, d: CardDesign, spots: Placement, rng: np.random.Generator
) -> None:
    """The storm deck off the grid: its pile's paper edges, then its top card's back."""
    if spots.supply.deck is None:
        return
    x, y, a = spots.supply.deck
    base = _deck_corners(x, y, a)
    height = _DECK_CARDS * _CARD_THICK_MM
    walls = np.vstack(
        [np.column_stack([base, np.zeros(4)]), np.column_stack([base, -np.full(4, height)])]
    )
    hull = cv2.convexHull(np.round(cam.project(walls) * 8).astype(np.int32))
    edge = tuple(int(c * 0.8) for c in d.paper)
    cv2.fillConvexPoly(img, hull, edge, cv2.LINE_AA, 3)
    draw_card(img, cam, card_back(d), (x, y), a, rng, z=-height)


def _deck_corners(x: float, y: float, angle_deg: float) -> Points:
    a = np.radians(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * np.array(CARD_MM) / 2
    return np.asarray(half @ rot.T + [x, y], np.float64)
