"""Decide from the low-resolution preview stream when the table is worth a full reading.

A full reading costs a still capture and the whole vision pipeline, and a reading taken
while a hand is moving a card is useless, so the referee waits until the table is *still*:
the mean absolute difference between consecutive small grey frames stays below a threshold
for ``frames`` frames in a row. It then reads only if the still table looks different from
the last table it read (nothing to judge otherwise). A hand hovering motionless over the
cards passes this test; the full reading reports it as unreadable, and the watcher waits for
the next change.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

Frame = NDArray[np.uint8]

# Frames are compared at this size: small enough to cost nothing on a Pi, big enough that a
# moved card (about 1/25 of the grid) changes the mean by far more than sensor noise.
_SMALL = (128, 96)


@dataclass
class WatchSettings:
    still_threshold: float = 4.0  # block |difference| (0..255) between frames that is still
    still_frames: int = 3  # consecutive still frames needed
    change_threshold: float = 6.0  # block |difference| from the last read table: a change


def _small(frame: Frame) -> NDArray[np.float32]:
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    small = cv2.resize(grey, _SMALL, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (3, 3), 0).astype(np.float32)


def frame_difference(a: NDArray[np.float32], b: NDArray[np.float32]) -> float:
    """The largest mean |difference| over 4x4-pixel blocks of the small frames.

    A block maximum rather than the global mean: a gem taken off a card changes a few
    blocks a lot and the whole frame very little, while sensor noise changes every block a
    little.
    """
    diff = np.abs(a - b)
    h, w = diff.shape
    blocks = diff[: h - h % 4, : w - w % 4].reshape(h // 4, 4, w // 4, 4).mean(axis=(1, 3))
    return float(blocks.max())


class StillnessWatcher:
    """Feed preview frames; :meth:`feed` says True once per still, changed table."""

    def __init__(self, settings: WatchSettings | None = None) -> None:
        self.settings = settings or WatchSettings()
        self._previous: NDArray[np.float32] | None = None
        self._still_count = 0
        self._last_read: NDArray[np.float32] | None = None
        self._fired = False  # already asked for a reading of this still spell

    def feed(self, frame: Frame) -> bool:
        small = _small(frame)
        previous, self._previous = self._previous, small
        if previous is None or frame_difference(small, previous) > self.settings.still_threshold:
            self._still_count = 0
            self._fired = False
            return False
        self._still_count += 1
        if self._fired or self._still_count < self.settings.still_frames:
            return False
        if (
            self._last_read is not None
            and frame_difference(small, self._last_read) <= self.settings.change_threshold
        ):
            return False  # still, but the same table as last time: nothing new to judge
        self._fired = True
        return True

    def mark_read(self) -> None:
        """The still table was read: do not read it again until it changes."""
        self._last_read = self._previous

    def forget(self) -> None:
        """Read the next still table even if it looks like the last one (e.g. after Undo)."""
        self._last_read = None
        self._fired = False
