"""The OLED frame as text: two pixel rows per character with half blocks.

A 128x64 frame becomes 32 lines of 128 characters, which fits a terminal and an SSH session,
so the referee can be tried on a laptop (and its screens checked in a log) without a display.
"""

from __future__ import annotations

import shutil
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
    """A luma device that prints every frame to a text stream (default: stdout).

    At a terminal the frame is pinned to the top rows and redrawn in place, and whatever
    else is printed (the referee's log) scrolls below it; into a pipe or a file every frame
    is printed after the last, so a log keeps them all.
    """

    def __init__(self, stream: TextIO | None = None, rotate: int = 0, **kwargs: Any) -> None:
        super().__init__(width=128, height=64, rotate=rotate, mode="1", **kwargs)
        self.stream = stream
        self.persist = True  # luma would clear the screen at exit: one more blank frame
        self._pinned: Pinned | None = None

    def display(self, image: Image.Image) -> None:
        super().display(image)
        stream = self.stream or sys.stdout
        text = frame_to_text(self.image)
        if self._pinned is None:
            self._pinned = Pinned.open(stream, text.count("\n") + 1)
        if self._pinned.usable:
            stream.write(self._pinned.redraw(text))
        else:
            stream.write(text + "\n")
        stream.flush()

    def cleanup(self) -> None:
        if self._pinned is not None and self._pinned.usable:
            stream = self.stream or sys.stdout
            stream.write(self._pinned.release())
            stream.flush()
            self._pinned = None
        super().cleanup()


# ANSI / VT100 controls: every terminal emulator in use understands these.
_SAVE, _RESTORE, _CLEAR_LINE = "\x1b7", "\x1b8", "\x1b[2K"


class Pinned:
    """The top ``lines`` rows of a terminal kept for the frame; the rest scrolls below.

    A scrolling region (DECSTBM) below the frame lets the log scroll without pushing the
    frame away; each redraw saves the cursor, writes the rows at their places and restores
    it, so the log carries on where it was.
    """

    def __init__(self, lines: int, rows: int, usable: bool) -> None:
        self.lines = lines
        self.rows = rows
        self.usable = usable
        self.started = False

    @classmethod
    def open(cls, stream: TextIO, lines: int) -> Pinned:
        """Pinned when ``stream`` is a terminal with room for the frame and a few log lines."""
        try:
            tty = stream.isatty()
        except (AttributeError, ValueError):
            tty = False
        rows = shutil.get_terminal_size(fallback=(0, 0)).lines if tty else 0
        return cls(lines, rows, usable=tty and rows >= lines + 4)

    def redraw(self, text: str) -> str:
        out = []
        if not self.started:
            # Clear once, keep the rows below the frame for the log, start the log there.
            self.started = True
            out.append(f"\x1b[2J\x1b[{self.lines + 1};{self.rows}r\x1b[{self.lines + 1};1H")
        out.append(_SAVE)
        for row, line in enumerate(text.split("\n"), start=1):
            out.append(f"\x1b[{row};1H{_CLEAR_LINE}{line}")
        out.append(_RESTORE)
        return "".join(out)

    def release(self) -> str:
        """Give the whole terminal back (scrolling region reset), the cursor at the bottom."""
        return f"\x1b[r\x1b[{self.rows};1H\n" if self.started else ""
