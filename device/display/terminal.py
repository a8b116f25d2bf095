"""The OLED frame as text: two pixel rows per character with half blocks.

A 128x64 frame becomes 32 lines of 128 characters, which fits a terminal and an SSH session,
so the referee can be tried on a laptop (and its screens checked in a log) without a display.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from luma.core.device import dummy  # type: ignore[import-untyped]
from PIL import Image

# (top pixel lit, bottom pixel lit) -> character
_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}


def frame_to_text(image: Image.Image, border: bool = True) -> str:
    """Render a frame (any mode; lit = non-black) as half-block text."""
    mono = image.convert("1")
    width, height = mono.size
    pixels = mono.load()
    assert pixels is not None

    def lit(x: int, y: int) -> bool:
        return y < height and bool(pixels[x, y])

    rows = []
    for y in range(0, height, 2):
        rows.append("".join(_BLOCKS[(lit(x, y), lit(x, y + 1))] for x in range(width)))
    if border:
        rows = ["┌" + "─" * width + "┐", *("│" + r + "│" for r in rows), "└" + "─" * width + "┘"]
    return "\n".join(rows)


class TerminalDevice(dummy):  # type: ignore[misc]
    """A luma device that prints every frame to a text stream (default: stdout)."""

    def __init__(self, stream: TextIO | None = None, rotate: int = 0, **kwargs: Any) -> None:
        super().__init__(width=128, height=64, rotate=rotate, mode="1", **kwargs)
        self.stream = stream
        self.persist = True  # luma would clear the screen at exit: one more blank frame

    def display(self, image: Image.Image) -> None:
        super().display(image)
        stream = self.stream or sys.stdout
        stream.write(frame_to_text(self.image) + "\n")
        stream.flush()
