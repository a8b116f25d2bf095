"""The simulated table: a camera that photographs whatever the renderer draws right now.

The referee's --simulate wires ``render`` to the synthetic table renderer (zefiria.vision)
over the game it is playing, so the whole device loop runs on a laptop with no camera.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .source import Image, SourceBase, shrink


class SimulatedTable(SourceBase):
    name = "simulated table"

    def __init__(
        self, render: Callable[[], Any], preview_size: tuple[int, int] = (320, 240)
    ) -> None:
        self.render = render
        self.preview_size = preview_size

    def _photo(self, what: str) -> Image:
        if self.closed:
            raise self.error("closed")
        try:
            image = self.render()
        except Exception as exc:  # a renderer bug must not look like a camera image
            raise self.error(f"the renderer failed: {type(exc).__name__}: {exc}") from exc
        return self.check(image, what)

    def capture_still(self) -> Image:
        return self._photo("still")

    def grab_preview(self) -> Image:
        return shrink(self._photo("preview"), self.preview_size)
