"""A player's hand and arm reaching over the cards: the occluder a referee must notice.

The hand is a few flat shapes (fingers, palm, arm) in a plane that rises from the cards to
the arm's far end, projected through the camera, so it leans and grows with perspective.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine import SIZE

from .camera import Camera
from .layout import Layout
from .scene import Hand

Image = NDArray[np.uint8]
Points = NDArray[np.float64]

_SHIFT = 3
_ONE = 1 << _SHIFT


def hand_shapes(
    hand: Hand, layout: Layout, cam: Camera, mirrored: bool, sleeve_mm: float | None
) -> tuple[list[Points], list[Points]]:
    """The hand's parts as 3D polygons in table mm (z < 0 is above the table): skin, cloth.

    ``sleeve_mm`` is how far up the forearm the sleeve starts (None: a bare arm).
    """
    x0, y0, x1, y1 = layout.extent()
    tip = np.array(
        [x0 + (hand.tip[1] + 0.5) * (x1 - x0) / SIZE, y0 + (hand.tip[0] + 0.5) * (y1 - y0) / SIZE]
    )
    a = np.radians(hand.angle_deg)
    along = -np.array([np.cos(a), np.sin(a)])  # fingers point away from where the arm comes from
    across = np.array([-along[1], along[0]]) * (-1.0 if mirrored else 1.0)
    w = hand.width_mm
    finger = 0.95 * w
    parts: list[list[tuple[float, float]]] = []
    # fingers: (offset across, length, width), slightly spread
    for v, length, spread in (
        (-0.36, 0.78, -0.08),
        (-0.12, 0.96, -0.02),
        (0.12, 1.0, 0.03),
        (0.36, 0.82, 0.09),
    ):
        parts.append(_capsule((-finger * 1.05, v * w), length * finger, 0.21 * w, spread))
    parts.append(_capsule((-finger - 0.55 * w, 0.42 * w), 0.75 * finger, 0.26 * w, 0.75))  # thumb
    palm = [
        (-finger - 0.55 * w + 0.6 * w * np.cos(t), 0.5 * w * np.sin(t))
        for t in np.linspace(0, 2 * np.pi, 24)
    ]
    parts.append(palm)
    arm_len = 900.0
    for _ in range(12):  # the arm must not reach behind the camera
        far = -finger - 1.05 * w - arm_len
        if cam.depth(np.array([_lift(tip + along * far, far)]))[0] > 120.0:
            break
        arm_len *= 0.75
    wrist = -finger - 1.0 * w
    far = wrist - arm_len
    parts.append([(wrist, -0.38 * w), (wrist, 0.38 * w), (far, 0.55 * w), (far, -0.55 * w)])
    cloth: list[list[tuple[float, float]]] = []
    if sleeve_mm is not None and sleeve_mm < arm_len:
        cuff = wrist - sleeve_mm
        cloth.append([(cuff, -0.5 * w), (cuff, 0.5 * w), (far, 0.7 * w), (far, -0.7 * w)])

    def lift(part: list[tuple[float, float]]) -> Points:
        return np.array([_lift(tip + along * u + across * v, u) for u, v in part])

    return [lift(p) for p in parts], [lift(p) for p in cloth]


def _lift(p: Points, u: float) -> list[float]:
    """Fingertips just above the cards; the hand and arm rise behind them."""
    return [float(p[0]), float(p[1]), -20.0 - max(0.0, -u) * 0.18]


def _capsule(
    start: tuple[float, float], length: float, width: float, turn: float
) -> list[tuple[float, float]]:
    d = np.array([np.cos(turn), np.sin(turn)])
    n = np.array([-d[1], d[0]])
    s = np.array(start)
    e = s + d * length
    pts = [s - n * width / 2]
    for t in np.linspace(-np.pi / 2, np.pi / 2, 9):  # round fingertip
        pts.append(e + (d * np.cos(t) + n * np.sin(t)) * width / 2)
    pts.append(s + n * width / 2)
    return [(float(x), float(y)) for x, y in pts]


def hand_mask(shapes: list[Points], cam: Camera) -> Image:
    """The hand's silhouette in the image (uint8 0/255, anti-aliased edges)."""
    w, h = cam.size
    mask = np.zeros((h, w), np.uint8)
    for s in shapes:  # one call per part: overlapping parts in one fillPoly would cancel out
        cv2.fillPoly(
            mask, [np.round(cam.project(s) * _ONE).astype(np.int32)], 255, cv2.LINE_AA, _SHIFT
        )
    return mask


def paint_hand(
    img: Image,
    mask: Image,
    skin: tuple[int, int, int],
    rng: np.random.Generator,
    motion: tuple[float, float] = (0.0, 0.0),
) -> None:
    """Skin (or cloth) with soft rounded shading, slightly out of focus, being nearer the
    lens, and smeared by ``motion`` = (pixels, degrees) when the hand moves during the shot."""
    bx, by, bw, bh = cv2.boundingRect(mask)
    if bw == 0 or bh == 0:
        return
    pad = 12 + int(motion[0])
    x0, y0 = max(0, bx - pad), max(0, by - pad)
    x1, y1 = min(mask.shape[1], bx + bw + pad), min(mask.shape[0], by + bh + pad)
    m = mask[y0:y1, x0:x1].astype(np.float32) / 255.0
    m = np.asarray(cv2.GaussianBlur(m, (0, 0), float(rng.uniform(0.8, 2.5))), np.float32)
    round_ = cv2.GaussianBlur(m, (0, 0), 9.0)  # brighter where the hand is thick
    shade = 0.6 + 0.5 * round_
    paint = np.array(skin, np.float32) * (shade * m)[:, :, None]  # premultiplied by coverage
    if motion[0] >= 1.5:
        kernel = _streak(*motion)
        m = np.asarray(cv2.filter2D(m, -1, kernel), np.float32)
        paint = np.asarray(cv2.filter2D(paint, -1, kernel), np.float32)
    roi = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = (roi * (1 - m[:, :, None]) + paint).clip(0, 255).astype(np.uint8)


def _streak(length: float, angle_deg: float) -> NDArray[np.float32]:
    n = int(np.ceil(length)) | 1
    k = np.zeros((n, n), np.float32)
    c = (n - 1) / 2
    dx, dy = np.cos(np.radians(angle_deg)) * c, np.sin(np.radians(angle_deg)) * c
    cv2.line(k, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1, cv2.LINE_AA)
    return np.asarray(k / k.sum(), np.float32)


def random_skin(rng: np.random.Generator) -> tuple[int, int, int]:
    tones = ((150, 180, 230), (120, 160, 215), (90, 130, 190), (60, 95, 150), (45, 65, 110))
    b, g, r = tones[int(rng.integers(len(tones)))]
    k = rng.uniform(0.9, 1.08)
    return (int(min(255, b * k)), int(min(255, g * k)), int(min(255, r * k)))


def random_cloth(rng: np.random.Generator) -> tuple[int, int, int]:
    """A sleeve: any colour, mostly muted."""
    hsv = np.array([[[rng.integers(180), rng.integers(20, 200), rng.integers(30, 220)]]], np.uint8)
    b, g, r = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0]
    return (int(b), int(g), int(r))
