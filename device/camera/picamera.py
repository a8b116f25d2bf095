"""A Raspberry Pi camera module through picamera2 (libcamera).

One configuration is kept running for the whole game: a still configuration whose main
stream is the full photo (1640x1232 by default) and whose lores stream is the small image
for watching the table. A still is ``capture_array("main")`` from the running camera, so
taking one costs a frame, not a mode switch (``switch_mode_and_capture`` costs ~0.5 s).
picamera2 only exists on a Pi (apt's python3-picamera2), so it is imported here, lazily.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from .source import Image, SourceBase, shrink

# libcamera's controls.AfModeEnum.Continuous; a plain int so we need not import libcamera.
AF_MODE_CONTINUOUS = 2


class PiCamera(SourceBase):
    name = "picamera2"

    def __init__(
        self,
        still_size: tuple[int, int] = (1640, 1232),
        preview_size: tuple[int, int] = (320, 240),
        autofocus: bool = True,
        camera_num: int = 0,
        factory: Callable[[int], Any] | None = None,
    ) -> None:
        self.preview_size = preview_size
        if factory is None:
            factory = _picamera2_class()
        try:
            self._camera = factory(camera_num)
        except Exception as exc:  # picamera2 raises IndexError/RuntimeError with no camera
            raise self.error(
                f"no camera {camera_num} found ({exc or type(exc).__name__}); "
                "check the ribbon cable and `rpicam-hello --list-cameras`"
            ) from None
        try:
            config = self._camera.create_still_configuration(
                main={"size": still_size, "format": "RGB888"},  # RGB888 is B,G,R in memory
                # Pi 4 and older give lores only as YUV420; the Pi 5 accepts it as well.
                lores={"size": preview_size, "format": "YUV420"},
                buffer_count=2,  # stream continuously instead of one frame per request
            )
            self._camera.configure(config)
            self.autofocus = autofocus and "AfMode" in self._camera.camera_controls
            if self.autofocus:  # Camera Module 3 only; v2 and HQ have a fixed-focus lens
                self._camera.set_controls({"AfMode": AF_MODE_CONTINUOUS})
            self._camera.start()
        except Exception as exc:
            self._release()
            raise self.error(f"cannot start the camera: {exc}") from None

    def capture_still(self) -> Image:
        return self.check(self._capture("main"), "still")

    def grab_preview(self) -> Image:
        raw = self._capture("lores")
        if raw is None or raw.ndim != 2:
            return shrink(self.check(raw, "preview"), self.preview_size)
        # YUV420 comes as (height * 3/2, stride): convert, then drop the stride's padding
        width, height = self.preview_size
        bgr = cv2.cvtColor(np.ascontiguousarray(raw), cv2.COLOR_YUV2BGR_I420)
        return self.check(bgr[:height, :width], "preview")

    def _capture(self, stream: str) -> Any:
        if self.closed:
            raise self.error("closed")
        try:
            return self._camera.capture_array(stream)
        except Exception as exc:  # libcamera errors surface as RuntimeError/OSError/TimeoutError
            raise self.error(f"capture from the {stream} stream failed: {exc}") from None

    def close(self) -> None:
        if not self.closed:
            self._release()
        super().close()

    def _release(self) -> None:
        for step in ("stop", "close"):
            with contextlib.suppress(Exception):  # closing a failed camera: nothing to do
                getattr(self._camera, step)()


def _picamera2_class() -> Callable[[int], Any]:
    from .source import CameraError

    try:
        from picamera2 import Picamera2  # type: ignore[import-not-found]
    except ImportError as exc:
        raise CameraError(
            f"camera source picamera2: the picamera2 module is missing ({exc}); on the Pi: "
            "sudo apt install python3-picamera2, and make the venv with --system-site-packages"
        ) from None
    return Picamera2  # type: ignore[no-any-return]
