"""Camera sources: Pi camera, USB webcam, a folder of photos, the simulated table.

All of them are a :class:`CameraSource`: ``capture_still()`` (full BGR photo to read the
board), ``grab_preview()`` / ``frames()`` (small BGR frames to watch the table), ``close()``
and ``with``. A camera that fails raises :class:`CameraError` naming the source and reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..config import CameraConfig
from .folder import PhotoFolder
from .picamera import PiCamera
from .simulated import SimulatedTable
from .source import CameraError, CameraSource, Image, SourceBase
from .webcam import Webcam


def open_camera(config: CameraConfig, render: Callable[[], Any] | None = None) -> CameraSource:
    """The source ``config.source`` names; ``simulated`` needs ``render`` (the referee's)."""
    if config.source == "picamera2":
        return PiCamera(config.still_size, config.preview_size, config.autofocus)
    if config.source == "webcam":
        device: int | str = int(config.webcam) if config.webcam.isdigit() else config.webcam
        return Webcam(device, config.still_size, config.preview_size)
    if config.source == "folder":
        return PhotoFolder(config.folder, config.preview_size)
    if config.source == "simulated":
        if render is None:
            raise CameraError("camera source simulated: needs a table renderer (use --simulate)")
        return SimulatedTable(render, config.preview_size)
    raise CameraError(f"camera source {config.source!r}: unknown")


__all__ = [
    "CameraError",
    "CameraSource",
    "Image",
    "PhotoFolder",
    "PiCamera",
    "SimulatedTable",
    "SourceBase",
    "Webcam",
    "open_camera",
]
