"""The island number as a deck prints it: font, size, place, ink, outline and badge.

Numbers come from cv2's Hershey vector fonts or Pillow's bundled scalable font, the same on
every machine (system fonts would make the test bed differ from one computer to another).
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image as PILImage
from PIL import ImageDraw, ImageFont

from .design import FACE_SIZE, CardDesign, Colour

Image = NDArray[np.uint8]
Float = NDArray[np.float32]

W, H = FACE_SIZE

_HERSHEY = {
    "simplex": cv2.FONT_HERSHEY_SIMPLEX,
    "duplex": cv2.FONT_HERSHEY_DUPLEX,
    "complex": cv2.FONT_HERSHEY_COMPLEX,
    "triplex": cv2.FONT_HERSHEY_TRIPLEX,
    "script_simplex": cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
    "script_complex": cv2.FONT_HERSHEY_SCRIPT_COMPLEX,
    "plain": cv2.FONT_HERSHEY_PLAIN,
    "complex_small": cv2.FONT_HERSHEY_COMPLEX_SMALL,
}


def print_number(face: Image, d: CardDesign, text: str) -> None:
    """Print ``text`` on ``face`` in place, as design ``d`` lays numbers out."""
    height = d.number_size * H
    ink, outline = _text_masks(d, text, height)
    ph, pw = ink.shape
    margin = d.border * W + 0.05 * W
    places = {
        "top-left": [(margin, margin, False)],
        "top-right": [(W - margin - pw, margin, False)],
        "bottom-right": [(W - margin - pw, H - margin - ph, False)],
        "corners": [(margin, margin, False), (W - margin - pw, H - margin - ph, True)],
        "centre": [((W - pw) / 2, (H - ph) / 2, False)],
        "top": [((W - pw) / 2, margin + 0.02 * H, False)],
        "bottom": [((W - pw) / 2, H - margin - ph - 0.02 * H, False)],
    }
    for x, y, flipped in places[d.number_at]:
        a_ink, a_out = (np.rot90(ink, 2), np.rot90(outline, 2)) if flipped else (ink, outline)
        x0, y0 = round(x), round(y)
        if d.number_badge is not None:
            centre = (x0 + pw // 2, y0 + ph // 2)
            cv2.circle(face, centre, round(max(pw, ph) * 0.62), d.number_badge, -1, cv2.LINE_AA)
        if d.number_outline is not None:
            _blend(face, x0, y0, a_out, d.number_outline)
        _blend(face, x0, y0, a_ink, d.number_ink)


def _blend(face: Image, x0: int, y0: int, alpha: Float, colour: Colour) -> None:
    h, w = alpha.shape
    # clip the patch to the face (a big centred number on a narrow card may overhang)
    x1, y1 = max(x0, 0), max(y0, 0)
    x2, y2 = min(x0 + w, W), min(y0 + h, H)
    if x2 <= x1 or y2 <= y1:
        return
    a = alpha[y1 - y0 : y2 - y0, x1 - x0 : x2 - x0, None]
    roi = face[y1:y2, x1:x2].astype(np.float32)
    face[y1:y2, x1:x2] = (roi * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


def _text_masks(d: CardDesign, text: str, height: float) -> tuple[Float, Float]:
    """Ink and outline coverage (0..1) of ``text`` about ``height`` pixels tall, tightly cropped."""
    pad = round(height * 0.3) + 4
    thick = max(1, round(d.number_weight * height))
    out = thick + max(2, round(height * 0.06))
    if d.font == "pil":
        font = ImageFont.load_default(size=max(8, round(height / 0.72)))
        left, top, right, bottom = font.getbbox(text)
        size = (int(right - left) + 2 * pad, int(bottom - top) + 2 * pad)
        masks = []
        for stroke in (thick // 2, out // 2 + thick // 2):
            im = PILImage.new("L", size, 0)
            ImageDraw.Draw(im).text(
                (pad - left, pad - top),
                text,
                fill=255,
                font=font,
                stroke_width=stroke,
                stroke_fill=255,
            )
            masks.append(np.asarray(im, np.float32) / 255.0)
        ink, outline = masks
    else:
        face = _HERSHEY[d.font] | (cv2.FONT_ITALIC if d.italic else 0)
        (tw, th), base = cv2.getTextSize(text, face, 1.0, 1)
        scale = height / max(th, 1)
        (tw, th), base = cv2.getTextSize(text, face, scale, thick)
        size = (tw + 2 * pad + out, th + base + 2 * pad + out)
        ink_m = np.zeros((size[1], size[0]), np.uint8)
        out_m = np.zeros_like(ink_m)
        org = (pad + out // 2, pad + th + out // 2)
        cv2.putText(ink_m, text, org, face, scale, 255, thick, cv2.LINE_AA)
        cv2.putText(out_m, text, org, face, scale, 255, thick + out, cv2.LINE_AA)
        ink, outline = ink_m.astype(np.float32) / 255.0, out_m.astype(np.float32) / 255.0
    if d.italic and d.font == "pil":
        shear = np.array([[1.0, -0.2, height * 0.2], [0.0, 1.0, 0.0]], np.float32)
        ink = np.asarray(cv2.warpAffine(ink, shear, ink.shape[::-1]), np.float32)
        outline = np.asarray(cv2.warpAffine(outline, shear, outline.shape[::-1]), np.float32)
    ys, xs = np.nonzero(outline > 0.02)
    if len(xs) == 0:
        return ink, outline
    crop = (slice(ys.min(), ys.max() + 1), slice(xs.min(), xs.max() + 1))
    return ink[crop], outline[crop]
