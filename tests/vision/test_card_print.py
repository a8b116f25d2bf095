"""The channels prints are cut from, and the fast cutter against the plain one (card_print)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from zefiria.vision.card_print import PRINT_CHANNELS, PrintCutter, cut_prints, print_grey


def _photo(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (120, 160, 3), dtype=np.uint8)


def test_each_channel_is_what_it_says() -> None:
    photo = _photo(1)
    assert np.array_equal(print_grey(photo), cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY))
    assert np.array_equal(print_grey(photo, "least"), photo.min(axis=2))
    assert np.array_equal(print_grey(photo, "blue"), photo[..., 0])
    # a yellow border on a white table: one level in grey, far apart in the other two
    yellow, white = np.uint8([[[40, 225, 235]]]), np.uint8([[[235, 235, 235]]])
    for channel, apart in (("grey", False), ("least", True), ("blue", True)):
        gap = abs(int(print_grey(yellow, channel)[0, 0]) - int(print_grey(white, channel)[0, 0]))
        assert (gap > 100) is apart, channel


@pytest.mark.parametrize("channel", PRINT_CHANNELS)
def test_the_cutter_cuts_what_cut_prints_does(channel: str) -> None:
    # print px -> photo px: each card a little turned and scaled, inside the photo
    maps = []
    for k in range(3):
        turn = cv2.getRotationMatrix2D((20.0, 30.0), 4.0 * k - 4.0, 1.1)
        m = np.vstack([turn, [0.0, 0.0, 1.0]])
        m[:2, 2] += (10.0 + 40.0 * k, 12.0)
        maps.append(m)
    size = (24, 36)
    cutter = PrintCutter(maps, size, (160, 120), channel=channel)
    assert cutter.resample is not None  # (the fast path taken, not the fallback)
    photo = _photo(2)
    assert np.array_equal(cutter(photo), cut_prints(photo, maps, size, channel))
