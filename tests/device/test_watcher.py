"""The watcher asks for one reading per still, changed table."""

from __future__ import annotations

import numpy as np
from zefiria.device.referee.watcher import StillnessWatcher


def _table(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    img = np.zeros((240, 320, 3), np.uint8)
    for _ in range(25):
        x, y = rng.integers(0, 280), rng.integers(0, 200)
        img[y : y + 40, x : x + 40] = rng.integers(0, 255, 3)
    return img


def test_reads_once_when_still_and_again_only_after_a_change() -> None:
    w = StillnessWatcher()
    a, b = _table(1), _table(2)
    fired = [w.feed(a) for _ in range(6)]
    assert fired == [False, False, False, True, False, False]
    w.mark_read()
    assert not any(w.feed(a) for _ in range(6))  # same table: nothing new
    moving = [w.feed(_table(10 + i)) for i in range(4)]  # a hand moving cards
    assert not any(moving)
    assert [w.feed(b) for _ in range(5)].count(True) == 1
    w.mark_read()
    w.forget()
    assert [w.feed(b) for _ in range(5)].count(True) == 1


def test_a_small_change_such_as_a_gem_counts() -> None:
    w = StillnessWatcher()
    a = _table(1)
    for _ in range(5):
        w.feed(a)
    w.mark_read()
    b = a.copy()
    b[100:108, 100:108] = (0, 0, 255)  # a red gem taken off a card: 8x8 px of 320x240
    assert [w.feed(b) for _ in range(5)].count(True) == 1
