"""Bad photos are refused with the file and the reason, never with a traceback."""

from __future__ import annotations

import struct
import warnings
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from zefiria.vision.photo_io import PhotoError, check_image, load_photo


def _png_header_only(path: Path, w: int, h: int) -> None:
    """A PNG that claims a huge size (a "decompression bomb") with no real pixel data."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IEND", b""))


def test_missing_empty_and_not_an_image(tmp_path: Path) -> None:
    with pytest.raises(PhotoError, match="no such file"):
        load_photo(tmp_path / "nope.jpg")
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    with pytest.raises(PhotoError, match=r"empty\.jpg: empty file"):
        load_photo(empty)
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo at all")
    with pytest.raises(PhotoError, match=r"notes\.jpg: not an image \(no JPEG, PNG"):
        load_photo(text)


def test_huge_image_refused_before_decoding(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.png"
    _png_header_only(bomb, 60000, 60000)
    with pytest.raises(PhotoError, match="too large"):
        load_photo(bomb)


def test_a_big_image_is_refused_with_our_message_alone(tmp_path: Path) -> None:
    # 12000 x 9000: over PIL's warning limit (89 MP), under its refusal (179 MP); the
    # command line printed PIL's warning and its source line above our reason
    big = tmp_path / "big.png"
    _png_header_only(big, 12000, 9000)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(PhotoError, match=r"big\.png: image too large \(12000x9000\)"):
            load_photo(big)


def test_tiny_and_odd_arrays() -> None:
    with pytest.raises(PhotoError, match="too small"):
        check_image(np.zeros((20, 30, 3), np.uint8))
    with pytest.raises(PhotoError, match="8-bit"):
        check_image(np.zeros((300, 300, 3), np.float32))  # type: ignore[arg-type]
    grey = check_image(np.zeros((300, 300), np.uint8))
    assert grey.shape == (300, 300, 3)


def test_good_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "ok.png"
    cv2.imwrite(str(path), np.full((240, 320, 3), 128, np.uint8))
    assert load_photo(path).shape == (240, 320, 3)
