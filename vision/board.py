"""The rectified board: the table plane seen from straight above, in grid units.

Calibration finds a homography from *lattice* coordinates (cell ``(r, c)`` spans
``[c, c+1] x [r, r+1]``) to the photo. Every reading warps the photo once into a small
"board" image where each cell is ``pitch`` pixels square with a ``margin`` of table around
the grid; all later work (cards, pawns, gems, hands) happens on that image, which is why a
reading costs a few milliseconds rather than a pass over 2 megapixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from zefiria.engine.grid import SIZE, Cell

from .pixels import Resampling, noise_photo, warp_samples

# OpenCV's type stubs return loosely typed arrays: the aliases name the intent only.
F64 = NDArray[Any]
U8 = NDArray[Any]


@dataclass(frozen=True)
class BoardGeometry:
    """Where the grid lies in the photo and how the board image is laid out."""

    lattice_to_image: F64  # 3x3 homography, full-resolution photo pixels
    image_size: tuple[int, int]  # (width, height) of the calibration photos
    pitch: int  # board pixels per cell
    margin: float  # table shown around the grid, in cells
    shrink: int  # the photo is shrunk by this integer factor before warping

    @property
    def board_size(self) -> tuple[int, int]:
        side = round((SIZE + 2 * self.margin) * self.pitch)
        return (side, side)

    def lattice_to_board(self) -> F64:
        s = float(self.pitch)
        o = self.margin * s
        return np.array([[s, 0.0, o], [0.0, s, o], [0.0, 0.0, 1.0]])

    def board_to_small_image(self) -> F64:
        """Homography from board pixels to the shrunk photo's pixels."""
        down = np.diag([1.0 / self.shrink, 1.0 / self.shrink, 1.0])
        m: F64 = down @ self.lattice_to_image @ np.linalg.inv(self.lattice_to_board())
        return m

    def cell_centre(self, cell: Cell) -> tuple[float, float]:
        """Board pixel (x, y) of a cell's centre."""
        o = self.margin * self.pitch
        return (o + (cell[1] + 0.5) * self.pitch, o + (cell[0] + 0.5) * self.pitch)

    def board_to_lattice(self, x: float, y: float) -> tuple[float, float]:
        """Lattice (column, row) coordinates of a board pixel."""
        o = self.margin * self.pitch
        return ((x - o) / self.pitch, (y - o) / self.pitch)

    def board_to_image(self, pts: F64) -> F64:
        """Full-resolution photo pixels of board points (N x 2)."""
        return _mapped(pts, self.lattice_to_image @ np.linalg.inv(self.lattice_to_board()))

    def image_to_board(self, pts: F64) -> F64:
        """Board pixels of full-resolution photo points (N x 2)."""
        return _mapped(pts, self.lattice_to_board() @ np.linalg.inv(self.lattice_to_image))

    def shrink_photo(self, image: U8) -> U8:
        if self.shrink == 1:
            return image
        h, w = image.shape[:2]
        small: U8 = cv2.resize(
            image, (w // self.shrink, h // self.shrink), interpolation=cv2.INTER_AREA
        )
        return small

    def fine(self) -> BoardGeometry:
        """The same board at twice the resolution (cards read digit by digit there)."""
        return BoardGeometry(
            self.lattice_to_image,
            self.image_size,
            2 * self.pitch,
            self.margin,
            max(1, self.shrink // 2),
        )

    def warp(self, image: U8) -> U8:
        """The board image of a full-resolution photo taken from the calibrated pose.

        The board has half the fine board's pitch. It is warped from the photo shrunk by
        twice the fine board's shrink (area averaging), then softened by the Gaussian of
        ``BOARD_SOFTEN``: within a grey level or so (mean 0.55, 99th percentile 3 on DEV) the
        fine board's pyramid step down, at a third of the cost (no fine board is made: a
        reading needs none).
        """
        k, m = self._warp_matrix()
        h, w = image.shape[:2]
        small: U8 = cv2.resize(image, (w // k, h // k), interpolation=cv2.INTER_AREA)
        board: U8 = cv2.warpPerspective(
            small,
            m,
            self.board_size,
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
        out: U8 = cv2.GaussianBlur(board, (0, 0), BOARD_SOFTEN)
        return out

    def _warp_matrix(self) -> tuple[int, F64]:
        """:meth:`warp`'s shrink of the photo, and its homography from board px to the
        shrunk photo's px."""
        f = self.fine()
        # board px -> fine board px (the pyramid's sampling) -> the fine shrink's photo px
        # -> half that (pixel centres: x / 2 - 1/4)
        half = np.array([[0.5, 0.0, -0.25], [0.0, 0.5, -0.25], [0.0, 0.0, 1.0]])
        m: F64 = half @ f.board_to_small_image() @ np.diag([2.0, 2.0, 1.0])
        return 2 * f.shrink, m

    def warp_fine(self, image: U8) -> U8:
        """The fine board (2x pitch): cards' edges and prints are measured there."""
        f = self.fine()
        hi: U8 = cv2.warpPerspective(
            f.shrink_photo(image),
            f.board_to_small_image(),
            f.board_size,
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
        return hi


class BoardWarp:
    """:meth:`BoardGeometry.warp` for one geometry, the same board for less: only the part
    of the photo the board lies in is shrunk (each shrunk pixel is the mean of its own k x
    k photo pixels), and the warp is a remap of the points it samples (see
    :func:`.pixels.warp_samples`).

    Kept to the plain warp where that cannot be shown the same: a photo not a whole number
    of shrunk pixels (the shrink then averages fractions of pixels), a board reaching the
    photo's edge, or the two disagreeing on a noise photo (``noise``: the photo
    :func:`.pixels.noise_photo` gives, if made already).
    """

    def __init__(self, geometry: BoardGeometry, noise: U8 | None = None) -> None:
        self.geometry = geometry
        self.k, m = geometry._warp_matrix()
        w, h = geometry.image_size
        self.resample: Resampling | None = None
        if w % self.k or h % self.k:
            return
        points = warp_samples([m], geometry.board_size, (w // self.k, h // self.k))
        if points is None:
            return
        self.resample = Resampling.of(*points)
        noise = noise_photo(geometry.image_size) if noise is None else noise
        if not np.array_equal(self(noise), geometry.warp(noise)):
            self.resample = None

    def __call__(self, image: U8) -> U8:
        """``geometry.warp(image)``."""
        r, k = self.resample, self.k
        if r is None:
            return self.geometry.warp(image)
        region = image[k * r.y0 : k * r.y1, k * r.x0 : k * r.x1]
        small = cv2.resize(region, (r.x1 - r.x0, r.y1 - r.y0), interpolation=cv2.INTER_AREA)
        out: U8 = cv2.GaussianBlur(r(small), (0, 0), BOARD_SOFTEN)
        return out


BOARD_SOFTEN = 0.5  # board px: the sharpness of a fine board's pyramid step (Laplacian
# variance 263 against 263 on a DEV photo; 405 unsoftened)


def _mapped(pts: F64, homography: F64) -> F64:
    """Points (N x 2) through a 3x3 homography."""
    out: F64 = cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), homography)
    return out.reshape(-1, 2)


def choose_shrink(lattice_to_image: F64, pitch: int) -> int:
    """The largest integer shrink that keeps every cell at least ~1.5x ``pitch`` wide.

    Warping straight from the full photo would alias (each board pixel samples one of ~25
    photo pixels); shrinking first with area averaging keeps the board clean and makes the
    warp cheap.
    """
    corners = np.array([[c, r] for r in range(SIZE + 1) for c in range(SIZE + 1)], np.float64)
    img = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), lattice_to_image).reshape(
        SIZE + 1, SIZE + 1, 2
    )
    dx = np.linalg.norm(np.diff(img, axis=1), axis=2).min()
    dy = np.linalg.norm(np.diff(img, axis=0), axis=2).min()
    return max(1, int(min(dx, dy) // (1.5 * pitch)))


def check_sizes(pitch: int, margin: float) -> None:
    """The fine board must be exactly twice the board for the pyramid step."""
    a = round((SIZE + 2 * margin) * pitch)
    b = round((SIZE + 2 * margin) * 2 * pitch)
    if b != 2 * a:
        raise ValueError(f"pitch {pitch} and margin {margin} do not halve evenly")
