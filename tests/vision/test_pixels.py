"""Small pixel helpers whose answers must equal numpy's (vision/pixels.py)."""

from __future__ import annotations

import numpy as np
import pytest
from zefiria.vision.pixels import percentile_below


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
