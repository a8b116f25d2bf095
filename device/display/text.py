"""Fonts and text layout for a 128x64 1-bit screen.

We use Pillow's built-in scalable font (``ImageFont.load_default(size)``, Pillow >= 10.1
with FreeType): it needs no font file on the Pi and stays legible at 10-12 px once drawn
without antialiasing, which a 1-bit image does anyway.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

SMALL = 10
BODY = 12
BIG = 20


@lru_cache(maxsize=8)
def font(size: int) -> Font:
    try:
        return ImageFont.load_default(size=size)
    except (OSError, ImportError):  # Pillow built without FreeType: the fixed bitmap font
        return ImageFont.load_default()


def text_width(text: str, f: Font) -> float:
    return f.getlength(text)


def wrap(text: str, f: Font, width: int) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` px (long words are cut)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if text_width(candidate, f) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            while text_width(word, f) > width:  # a word wider than the screen
                cut = len(word)
                while cut > 1 and text_width(word[:cut], f) > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


def fit(lines: list[str], f: Font, width: int, max_lines: int) -> list[str]:
    """At most ``max_lines`` lines; an ellipsis marks text that did not fit."""
    if len(lines) <= max_lines:
        return lines
    kept = lines[:max_lines]
    last = kept[-1]
    while last and text_width(last + "…", f) > width:
        last = last[:-1]
    kept[-1] = last + "…"
    return kept


def draw_paragraph(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    text: str,
    size: int = BODY,
    width: int = 126,  # glyphs overhang their advance a little: keep a margin
    max_lines: int = 4,
    line_height: int | None = None,
) -> int:
    """Draw wrapped text from ``xy``; returns the y below the last line."""
    f = font(size)
    step = line_height or size + 1
    x, y = xy
    for line in fit(wrap(text, f, width), f, width, max_lines):
        draw.text((x, y), line, font=f, fill="white")
        y += step
    return y


def draw_centred(draw: ImageDraw.ImageDraw, y: int, text: str, size: int, width: int = 128) -> None:
    f = font(size)
    x = max(0, (width - int(text_width(text, f))) // 2)
    draw.text((x, y), text, font=f, fill="white")


def draw_title(draw: ImageDraw.ImageDraw, text: str, right: str = "") -> int:
    """An inverted title bar across the top; returns the first free y below it."""
    f = font(SMALL)
    draw.rectangle((0, 0, 127, 11), fill="white")
    draw.text((2, 0), text, font=f, fill="black")
    if right:
        draw.text((126 - int(text_width(right, f)), 0), right, font=f, fill="black")
    return 14
