"""A USB webcam through OpenCV's VideoCapture (a laptop, or a Pi without a camera module)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cv2

from .source import Image, SourceBase, shrink


class Webcam(SourceBase):
    def __init__(
        self,
        device: int | str = 0,
        still_size: tuple[int, int] = (1640, 1232),
        preview_size: tuple[int, int] = (320, 240),
        opener: Callable[[int | str], Any] | None = None,
    ) -> None:
        self.name = f"webcam {device}"
        self.preview_size = preview_size
        self._capture = (opener or cv2.VideoCapture)(device)
        if not self._capture.isOpened():
            self._capture.release()
            raise self.error("cannot open it (unplugged, busy, or no permission on /dev/video*)")
        # Ask for the still size; a webcam picks its nearest mode, which is fine.
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, still_size[0])
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, still_size[1])

    def _read(self, what: str) -> Image:
        if self.closed:
            raise self.error("closed")
        ok, frame = self._capture.read()
        if not ok:
            raise self.error(f"no {what} frame (unplugged?)")
        return self.check(frame, what)

    def capture_still(self) -> Image:
        # The driver queues a few frames: drop one so the still is from now, not from before.
        self._capture.grab()
        return self._read("still")

    def grab_preview(self) -> Image:
        return shrink(self._read("preview"), self.preview_size)

    def close(self) -> None:
        if not self.closed:
            self._capture.release()
        super().close()
