"""Small pixel helpers whose answers must equal numpy's (vision/pixels.py)."""

from __future__ import annotations

import numpy as np
import pytest
from zefiria.vision.pixels import median, percentile_below, shown_nearby


@pytest.mark.parametrize("q", [5.0, 50.0, 90.0, 100.0])
def test_percentile_below_answers_as_numpy_does(q: float) -> None:
    rng = np.random.default_rng(7)
    for _ in range(2000):
        n = int(rng.integers(1, 60))
        # coarse values, so that ties with the threshold and between values are common
        a = rng.integers(0, 12, n).astype(np.float32) * np.float32(2.5)
        threshold = float(rng.integers(0, 12)) * 2.5 + float(rng.choice([0.0, 0.5, 1e-3]))
        want = bool(float(np.percentile(a, q)) < threshold)
        assert percentile_below(a, q, threshold) is want, (a.tolist(), q, threshold)


def test_percentile_below_with_nan_answers_as_numpy_does() -> None:
    a = np.array([1.0, np.nan, 3.0], np.float32)
    assert percentile_below(a, 50.0, 10.0) is bool(np.percentile(a, 50.0) < 10.0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint8, np.int32])
def test_median_gives_numpys_values_and_dtype(dtype: type) -> None:
    rng = np.random.default_rng(11)
    for trial in range(600):
        n = int(rng.integers(1, 120))
        shape = [(n,), (n, 3), (3, n)][trial % 3]
        # coarse values for ties, and both odd and even counts
        a = (rng.integers(0, 40, shape) * (1 if dtype in (np.uint8, np.int32) else 0.25)).astype(
            dtype
        )
        for axis in (None, 0, 1) if a.ndim == 2 else (None, 0):
            want, got = np.asarray(np.median(a, axis=axis)), np.asarray(median(a, axis=axis))
            assert got.dtype == want.dtype and got.shape == want.shape, (shape, axis)
            assert np.array_equal(got, want), (a.tolist(), axis)


def test_median_of_a_list_is_numpys() -> None:
    values = [3.0, 1.0, 2.0, 10.0]
    assert median(values) == np.median(values) == 2.5


def test_median_of_nan_or_nothing_is_numpys() -> None:
    assert np.isnan(median(np.array([1.0, np.nan, 3.0], np.float32)))
    with pytest.warns(RuntimeWarning):
        assert np.isnan(median(np.empty(0, np.float32)))


def _board_with_mark(y: int, x: int) -> tuple[np.ndarray, np.ndarray]:
    """A grey expected board with one red pixel at (y, x), and a photo of it (grey)."""
    expected = np.full((20, 20, 3), (50.0, 0.0, 0.0), np.float32)
    expected[y, x] = (50.0, 60.0, 40.0)
    return expected.copy(), expected


def test_shown_nearby_finds_a_colour_the_expected_board_shows_within_reach() -> None:
    lab, expected = _board_with_mark(10, 13)
    lab[10, 10] = (51.0, 58.0, 41.0)  # the red mark, 3 px left of where it was expected
    ys, xs = np.array([10]), np.array([10])
    assert shown_nearby(lab, expected, ys, xs, reach=4, within=8.0) == 1.0
    assert shown_nearby(lab, expected, ys, xs, reach=2, within=8.0) == 0.0
    assert shown_nearby(lab, expected, ys, xs, reach=4, within=2.0) == 0.0


def test_shown_nearby_looks_only_on_the_board_and_counts_each_pixel() -> None:
    lab, expected = _board_with_mark(0, 1)
    lab[0, 0] = (50.0, 60.0, 40.0)  # shown 1 px right: found, though shifts left leave the board
    lab[19, 19] = (50.0, -60.0, 40.0)  # a green nowhere on the board
    ys, xs = np.array([0, 19]), np.array([0, 19])
    assert shown_nearby(lab, expected, ys, xs, reach=3, within=8.0) == 0.5
