"""Loading photos from disk with a clear refusal for anything that is not a usable photo."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

# A Pi camera gives at most 4056x3040 (12 MP); anything far beyond that is not a table photo
# and decoding it could exhaust the Pi's memory.
MAX_PIXELS = 50_000_000
MAX_FILE_BYTES = 80_000_000
MIN_SIDE = 200


class PhotoError(ValueError):
    """A photo that cannot be used, with the file and the reason in the message."""


def check_image(image: NDArray[Any], name: str = "image") -> NDArray[np.uint8]:
    """``image`` as 3-channel BGR uint8, or :class:`PhotoError` saying why it cannot be."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        raise PhotoError(f"{name}: not an 8-bit image array")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.ndim == 3 and image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    elif image.ndim != 3 or image.shape[2] != 3:
        raise PhotoError(f"{name}: unsupported image shape {image.shape}")
    h, w = image.shape[:2]
    if min(h, w) < MIN_SIDE:
        raise PhotoError(f"{name}: image too small ({w}x{h}), need at least {MIN_SIDE} px a side")
    if h * w > MAX_PIXELS:
        raise PhotoError(f"{name}: image too large ({w}x{h})")
    out: NDArray[np.uint8] = np.ascontiguousarray(image)
    return out


def load_photo(path: str | Path) -> NDArray[np.uint8]:
    """Read a photo file as BGR, refusing missing, empty, huge or undecodable files."""
    p = Path(path)
    if not p.exists():
        raise PhotoError(f"{p}: no such file")
    if not p.is_file():
        raise PhotoError(f"{p}: not a file")
    size = p.stat().st_size
    if size == 0:
        raise PhotoError(f"{p}: empty file")
    if size > MAX_FILE_BYTES:
        raise PhotoError(f"{p}: file too large ({size} bytes)")
    data = np.fromfile(p, dtype=np.uint8)
    # Check the declared size before decoding so a tiny file claiming a gigantic image (a
    # "decompression bomb") is refused without allocating it.
    from PIL import Image, UnidentifiedImageError

    try:
        # (PIL warns of a big image before it refuses a gigantic one; the size is checked
        # below with a message of ours, so its warning would only print noise)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(p) as im:
                w, h = im.size
    except Image.DecompressionBombError:
        raise PhotoError(f"{p}: image too large (its header claims a gigantic size)") from None
    except UnidentifiedImageError:
        # (a text file, a PDF, a RAW the camera app saved: the user needs the format, not
        # the name of PIL's exception)
        raise PhotoError(f"{p}: not an image (no JPEG, PNG or other photo format)") from None
    except Exception as exc:  # PIL raises many kinds of errors for damaged images
        raise PhotoError(f"{p}: not an image ({type(exc).__name__})") from None
    if w * h > MAX_PIXELS:
        raise PhotoError(f"{p}: image too large ({w}x{h})")
    image: NDArray[Any] | None = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if image is None:
        raise PhotoError(f"{p}: not an image OpenCV can decode")
    return check_image(image, str(p))
