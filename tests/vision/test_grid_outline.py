"""The grid's outline when a pool of light on the table joins the cards' mask.

Masks drawn here: 25 cards on a turned lattice, touching (one blob) or a gap apart, and a
ragged round patch of "table taken for card" against one side of the grid.
"""

from __future__ import annotations

import cv2
import numpy as np
from zefiria.engine.grid import ALL_CELLS
from zefiria.vision.grid_locator import _outline, _outline_quad
from zefiria.vision.grid_outline import side_support, straight_outline

TURN = np.radians(8.0)
PITCH = np.array([60.0, 80.0])
ORIGIN = np.array([330.0, 110.0])


def _to_photo(pts: np.ndarray) -> np.ndarray:
    rot = np.array([[np.cos(TURN), -np.sin(TURN)], [np.sin(TURN), np.cos(TURN)]])
    out: np.ndarray = (pts * PITCH) @ rot.T + ORIGIN
    return out


def _grid_mask(gap: float) -> tuple[np.ndarray, np.ndarray]:
    """A mask of 25 cards ``gap`` (share of a cell) apart, and the grid's true corners."""
    mask = np.zeros((600, 800), np.uint8)
    lo, hi = gap / 2, 1 - gap / 2
    for r, c in ALL_CELLS:
        card = np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]]) + np.array([c, r])
        cv2.fillConvexPoly(mask, np.round(_to_photo(card)).astype(np.int32), 255)
    outline = _to_photo(np.array([[lo, lo], [5 - lo, lo], [5 - lo, 5 - lo], [lo, 5 - lo]]))
    return mask, outline


def _with_pool(mask: np.ndarray, centre: tuple[int, int], radius: int) -> np.ndarray:
    """A ragged disc of lit table joined to the mask (a lamp's pool, glare on cloth)."""
    rng = np.random.default_rng(5)
    yy, xx = np.mgrid[: mask.shape[0], : mask.shape[1]]
    d = np.hypot(xx - centre[0], yy - centre[1])
    rim = radius * (1 + 0.15 * rng.standard_normal(mask.shape))
    pool = (cv2.GaussianBlur((d < rim).astype(np.float32), (0, 0), 3) > 0.5).astype(np.uint8)
    out: np.ndarray = np.maximum(mask, pool * 255)
    return out


def test_a_pool_of_light_against_touching_cards_leaves_the_straight_outline_on_the_grid() -> None:
    mask, truth = _grid_mask(gap=0.01)
    lit = _with_pool(mask, centre=(300, 480), radius=120)  # against the lower left
    hull = _outline_quad(lit)
    assert hull is not None
    assert np.abs(hull - truth).max() > 40  # the hull's corner is the pool's
    straight = straight_outline(lit)
    assert straight is not None
    assert np.abs(straight - truth).max() < 3.0
    # ...and the straight sides lie on the mask's edge where the hull's do not
    assert side_support(lit, straight) > side_support(lit, hull) + 0.2
    chosen = _outline(lit)
    assert chosen is not None
    assert np.abs(chosen - truth).max() < 3.0


def test_cards_a_gap_apart_give_the_grids_outer_sides_not_a_gap_between_columns() -> None:
    # every column's left edges make a line as long and straight as the grid's left side
    mask, truth = _grid_mask(gap=0.12)
    straight = straight_outline(mask)
    assert straight is not None
    assert np.abs(straight - truth).max() < 3.0


def test_without_a_pool_the_hull_is_kept() -> None:
    mask, truth = _grid_mask(gap=0.05)
    chosen = _outline(mask)
    hull = _outline_quad(mask)
    assert chosen is not None and hull is not None
    assert np.array_equal(chosen, hull)
    assert np.abs(chosen - truth).max() < 3.0


def test_a_mask_without_four_sides_gives_no_straight_outline() -> None:
    assert straight_outline(np.zeros((100, 100), np.uint8)) is None
