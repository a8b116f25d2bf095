"""What every camera source offers the referee, and the error when one fails.

The referee needs two things from a camera: a sharp full-size photo to read the board from
(:meth:`capture_still`) and a cheap small frame to watch the table for hands and motion
(:meth:`grab_preview`, or the :meth:`frames` iterator). Images are OpenCV's BGR ``uint8``.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import TracebackType
from typing import Any, Protocol, Self, runtime_checkable

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]


class CameraError(RuntimeError):
    """A camera that cannot give an image; the message names the source and the reason."""


@runtime_checkable
class CameraSource(Protocol):
    name: str

    def capture_still(self) -> Image: ...
    def grab_preview(self) -> Image: ...
    def frames(self) -> Iterator[Image]: ...
    def close(self) -> None: ...
    def __enter__(self) -> Self: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


class SourceBase:
    """The parts every source shares: the context manager, ``frames()`` and image checks."""

    name = "camera"
    closed = False

    def capture_still(self) -> Image:
        raise NotImplementedError

    def grab_preview(self) -> Image:
        raise NotImplementedError

    def frames(self) -> Iterator[Image]:
        """Preview frames until the source is closed or fails (then CameraError)."""
        while not self.closed:
            yield self.grab_preview()

    def close(self) -> None:
        self.closed = True

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def error(self, reason: str) -> CameraError:
        return CameraError(f"camera source {self.name}: {reason}")

    def check(self, image: object, what: str) -> Image:
        """``image`` as a BGR uint8 array, or a CameraError saying what came instead."""
        if self.closed:
            raise self.error("closed")
        if image is None:
            raise self.error(f"no {what} image (the camera stopped answering)")
        if not isinstance(image, np.ndarray) or image.size == 0:
            raise self.error(f"the {what} image is empty")
        try:
            return to_bgr(image)
        except CameraError as exc:
            raise self.error(f"{what}: {exc}") from None


def to_bgr(image: NDArray[Any]) -> Image:
    """Grey, BGR or BGRA (XRGB8888) to 3-channel BGR uint8."""
    if image.dtype != np.uint8:
        image = np.clip(image, 0, 255).astype(np.uint8)
    if image.ndim == 2:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    if image.ndim == 3 and image.shape[2] == 4:
        return np.ascontiguousarray(image[:, :, :3])
    if image.ndim == 3 and image.shape[2] == 3:
        return np.ascontiguousarray(image)
    raise CameraError(f"unexpected image shape {image.shape}")


def shrink(image: Image, size: tuple[int, int]) -> Image:
    """Resize to ``size`` (width, height) for watching; INTER_AREA averages, so no aliasing."""
    if (image.shape[1], image.shape[0]) == size:
        return image
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)
