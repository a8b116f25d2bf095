"""A folder of photos as a camera: every still is the next photo, in name order.

Replays a game photographed earlier, or feeds the referee a scripted table in tests. The
preview is the last still, shrunk (the table "stands still" between photos).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .source import Image, SourceBase, shrink

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


class PhotoFolder(SourceBase):
    def __init__(
        self, folder: str | Path, preview_size: tuple[int, int] = (320, 240), loop: bool = False
    ) -> None:
        self.folder = Path(folder)
        self.name = f"folder {self.folder}"
        self.preview_size = preview_size
        self.loop = loop
        if not self.folder.is_dir():
            raise self.error("no such folder")
        self.photos = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
        if not self.photos:
            raise self.error(f"no photos in it ({', '.join(PHOTO_SUFFIXES)})")
        self.position = 0
        self._last: Image | None = None

    def capture_still(self) -> Image:
        if self.closed:
            raise self.error("closed")
        if self.position >= len(self.photos):
            if not self.loop:
                raise self.error(f"no more photos (all {len(self.photos)} taken)")
            self.position = 0
        path = self.photos[self.position]
        self.position += 1
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise self.error(f"{path.name} is not a readable image")
        self._last = self.check(np.asarray(image, dtype=np.uint8), "still")
        return self._last

    def grab_preview(self) -> Image:
        if self._last is None:
            # Nothing taken yet: peek at the next photo without using it up.
            image = self.capture_still()
            self.position -= 1
            return shrink(image, self.preview_size)
        return shrink(self.check(self._last, "preview"), self.preview_size)
