"""A photo out of focus is refused as blurred, not read as a table of doubts."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest
from zefiria.vision import calibrate as calibration
from zefiria.vision import reader
from zefiria.vision.calibrate import CalibrationError, calibrate
from zefiria.vision.focus import (
    BLURRED,
    OUT_OF_FOCUS,
    edge_spread,
    out_of_focus,
    photo_out_of_focus,
    sharpness,
)
from zefiria.vision.reading import Status

from .photos import first_dev_session

U8 = np.ndarray[Any, np.dtype[np.uint8]]


def _prints(seed: int = 0) -> U8:
    """25 prints of sharp-edged blocks, as a deck's art and numbers are."""
    rng = np.random.default_rng(seed)
    out = np.full((25, 80, 60), 200, np.uint8)
    for p in out:
        for _ in range(12):
            x, y = rng.integers(0, 50), rng.integers(0, 70)
            p[y : y + rng.integers(3, 12), x : x + rng.integers(3, 12)] = rng.integers(0, 120)
    return out


def _blurred(prints: U8, sigma: float) -> U8:
    return np.stack([cv2.GaussianBlur(p, (0, 0), sigma) for p in prints])


def test_the_same_prints_are_as_sharp_and_blurred_ones_are_not() -> None:
    prints = _prints()
    ref = sharpness(prints)
    assert sharpness(prints.copy()) == pytest.approx(ref)
    assert out_of_focus(prints, ref) is None
    assert sharpness(_blurred(prints, 1.0)) < ref
    soft = _blurred(prints, 4.0)
    assert sharpness(soft) < BLURRED * ref
    reason = out_of_focus(soft, ref)
    assert reason is not None and reason.startswith("image is blurred")
    assert "focus" in reason


def test_dimmer_light_is_no_blur() -> None:
    prints = _prints()
    dim = (prints.astype(np.float32) * 0.6 + 10).astype(np.uint8)
    assert sharpness(dim) == pytest.approx(sharpness(prints), rel=0.1)


def test_a_hand_over_most_cards_leaves_the_rest_to_tell() -> None:
    prints = _prints()
    covered = prints.copy()
    covered[:20] = _blurred(prints[:20], 6.0)  # smooth skin over 20 cards
    assert out_of_focus(covered, sharpness(prints)) is None


@pytest.mark.slow
def test_a_photo_out_of_focus_is_refused_as_blurred(monkeypatch: pytest.MonkeyPatch) -> None:
    sample, profile = first_dev_session()
    photo = cv2.GaussianBlur(sample.render().image, (0, 0), 8.0)
    reading = reader.read_table(photo, profile)
    assert reading.status is Status.UNREADABLE
    assert reading.reason is not None and reading.reason.startswith("image is blurred")
    # without the check it read "ok" with most cells null: nothing to tell the player why
    monkeypatch.setattr(reader, "out_of_focus", lambda *_: None)
    before = reader.read_table(photo, profile)
    assert before.ok
    assert all(v is None for row in before.grid for v in row)


@pytest.mark.slow
def test_a_little_blur_still_reads() -> None:
    sample, profile = first_dev_session()
    for sigma in (0.0, 2.0):
        image = sample.render().image
        photo = image if sigma == 0 else cv2.GaussianBlur(image, (0, 0), sigma)
        reading = reader.read_table(photo, profile)
        assert reading.ok, (sigma, reading.reason)
        assert sum(v is not None for row in reading.grid for v in row) > 20


def _step(sigma: float) -> U8:
    """A photo of dark cards on a light table, blurred by ``sigma`` photo px."""
    img = np.full((240, 320, 3), 210, np.uint8)
    for x in (40, 140, 240):
        img[60:180, x : x + 60] = 40
    return img if sigma == 0 else cv2.GaussianBlur(img, (0, 0), sigma)


def test_a_calibration_photo_tells_its_own_blur() -> None:
    assert edge_spread(_step(0)) < 1.0
    for sigma in (2.0, 4.0, 6.0):
        assert edge_spread(_step(sigma)) == pytest.approx(sigma, rel=0.2)
    assert edge_spread(np.full((120, 160, 3), 128, np.uint8)) == 0.0  # nothing to tell
    assert photo_out_of_focus(_step(1.0), "solved photo") is None
    reason = photo_out_of_focus(_step(5.0), "solved photo")
    assert reason is not None and reason.startswith(f"solved photo: {OUT_OF_FOCUS}")


@pytest.mark.slow
def test_calibration_photos_out_of_focus_are_refused_as_blurred(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sample, _ = first_dev_session()
    solved, pawns = sample.setup.calibration()
    # (blurred 6 px this session still calibrates: only a refusal is asked about blur)
    soft = [cv2.GaussianBlur(p.image, (0, 0), 10.0) for p in (solved, pawns)]
    with pytest.raises(CalibrationError, match=f"^solved photo: {OUT_OF_FOCUS}"):
        calibrate(*soft)
    # without the check the players were told to lay their cards otherwise
    monkeypatch.setattr(calibration, "photo_out_of_focus", lambda *_: None)
    with pytest.raises(CalibrationError) as refused:
        calibrate(*soft)
    assert OUT_OF_FOCUS not in str(refused.value)
