"""The light over the grid, measured from shuffled cards (vision/light_field.py)."""

from __future__ import annotations

import numpy as np
from zefiria.vision.light_field import FLAT, card_ratios, fit_field

PITCH = 48


def _cells() -> np.ndarray:
    """Board px of the 25 cells' centres (margin 0.7 cells)."""
    o = 0.7 * PITCH
    return np.array(
        [(o + (c + 0.5) * PITCH, o + (r + 0.5) * PITCH) for r in range(5) for c in range(5)]
    )


def _light(p: np.ndarray) -> np.ndarray:
    """A lamp's pool off to the right and a falloff downwards: log of the (L + 16) scale."""
    x, y = p[..., 0] / 240.0, p[..., 1] / 240.0
    return 0.25 * np.exp(-((x - 0.8) ** 2 + (y - 0.3) ** 2) / 0.3) - 0.15 * y


def test_the_field_is_recovered_from_shuffled_cards() -> None:
    cells = _cells()
    was = cells[np.random.default_rng(1).permutation(25)]  # where each card lay then
    ratios = np.exp(_light(cells) - _light(was))
    field = fit_field(ratios, cells, was, PITCH)
    for a, b in ((0, 24), (4, 20), (12, 2)):
        want = float(np.exp(_light(cells[a]) - _light(cells[b])))
        got = field.ratio(tuple(cells[a]), tuple(cells[b]))
        # (a lamp's pool is no quadratic: near the 8% the second look allows for)
        assert abs(got / want - 1.0) < 0.07, (a, b, got, want)
    # the light does differ across the grid by more than that
    assert abs(field.ratio(tuple(cells[4]), tuple(cells[20])) - 1.0) > 0.3


def test_a_few_cards_wrongly_lit_do_not_bend_the_field() -> None:
    cells = _cells()
    was = cells[np.random.default_rng(2).permutation(25)]
    ratios = np.exp(_light(cells) - _light(was))
    ratios[[3, 11, 17]] *= 1.6  # a hand over them, or cards read wrongly
    field = fit_field(ratios, cells, was, PITCH)
    want = float(np.exp(_light(cells[0]) - _light(cells[24])))
    assert abs(field.ratio(tuple(cells[0]), tuple(cells[24])) / want - 1.0) < 0.05


def test_cards_that_did_not_move_leave_the_field_flat() -> None:
    cells = _cells()
    ratios = np.full(25, 1.3)  # the whole room brighter: no field in that
    assert fit_field(ratios, cells, cells, PITCH) is FLAT
    assert FLAT.ratio((10.0, 10.0), (200.0, 250.0)) == 1.0


def test_a_cards_ratio_is_its_lightness_now_over_then() -> None:
    side = 307
    expected = np.zeros((side, side, 3), np.float32)
    expected[..., 0] = 50.0
    lab = expected.copy()
    cells = _cells()
    x, y = (round(v) for v in cells[6])
    lab[y - 20 : y + 20, x - 15 : x + 15, 0] = (50.0 + 16.0) * 1.2 - 16.0
    lab[y - 4 : y + 4, x - 4 : x + 4] = (10.0, 0.0, 0.0)  # a dark pawn on it: not the light
    ratios = card_ratios(lab, expected, cells, (30, 40))
    assert abs(ratios[6] - 1.2) < 1e-3
    assert np.allclose(np.delete(ratios, 6), 1.0)
    off = card_ratios(lab, expected, np.array([[5.0, 5.0]]), (30, 40))
    assert np.isnan(off[0])
