"""The photo's light matched on the bare table around the grid (vision/exposure.py)."""

from __future__ import annotations

import numpy as np
from zefiria.vision.board import BoardGeometry
from zefiria.vision.card_identity import match_lighting
from zefiria.vision.exposure import match_exposure, table_ring


def _geometry() -> BoardGeometry:
    return BoardGeometry(np.eye(3), (400, 300), pitch=48, margin=0.7, shrink=1)


def _calibration() -> np.ndarray:
    """A wood-grained table, and inside the grid cards from dark (top) to light (bottom):
    a sorted deck under a light that falls off towards the top."""
    g = _geometry()
    side = g.board_size[0]
    rng = np.random.default_rng(3)
    lab = np.empty((side, side, 3), np.float32)
    lab[..., 0] = (
        45.0 + 8.0 * np.sin(np.arange(side) / 5.0)[None, :] + rng.normal(0, 2, (side, side))
    )
    lab[..., 1] = 8.0
    lab[..., 2] = 20.0
    o, p = round(g.margin * g.pitch), g.pitch
    for r in range(5):
        lab[o + r * p : o + (r + 1) * p, o : o + 5 * p] = (30.0 + 12.0 * r, -10.0 + 8 * r, 5.0)
    return lab


def _exposed(lab: np.ndarray, gain: float, shift: tuple[float, float]) -> np.ndarray:
    out = lab.copy()
    out[..., 0] = (lab[..., 0] + 16.0) * gain - 16.0
    out[..., 1:] = lab[..., 1:] * gain + np.array(shift, np.float32)
    return out


def test_a_change_of_exposure_and_lamp_colour_is_undone_on_the_cards_too() -> None:
    ref = _calibration()
    seen = _exposed(ref, 0.8, (3.0, -4.0))
    matched = match_exposure(seen, ref, table_ring(_geometry()))
    assert matched is not None
    assert float(np.abs(matched - ref).max()) < 0.5


def test_cards_shuffled_under_a_falling_light_keep_their_colours() -> None:
    # The same light; only the cards moved (the rows of the grid in another order). Matching
    # the cards' quartiles would stretch the photo; the table says nothing changed.
    g = _geometry()
    ref = _calibration()
    o, p = round(g.margin * g.pitch), g.pitch
    seen = ref.copy()
    rows = [ref[o + r * p : o + (r + 1) * p, o : o + 5 * p].copy() for r in range(5)]
    for r, src in enumerate([4, 4, 4, 0, 0]):  # light cards now where dark ones were
        seen[o + r * p : o + (r + 1) * p, o : o + 5 * p] = rows[src]
    matched = match_exposure(seen, ref, table_ring(g))
    assert matched is not None
    assert float(np.abs(matched - seen).max()) < 0.5
    cards = np.zeros(ref.shape[:2], np.uint8)
    cards[o : o + 5 * p, o : o + 5 * p] = 1
    stretched = match_lighting(seen, ref, cards)
    assert float(np.abs(stretched - seen).max()) > 5.0


def test_a_table_clipped_black_leaves_it_to_the_cards() -> None:
    ref = _calibration()
    ref[table_ring(_geometry())] = (1.0, 0.0, 0.0)
    assert match_exposure(ref.copy(), ref, table_ring(_geometry())) is None


def _near_black_table(ref: np.ndarray) -> np.ndarray:
    """``ref`` on a near-black table: L 3-8 (below CIE's linear toe), noisy."""
    out = ref.copy()
    ring = table_ring(_geometry())
    rng = np.random.default_rng(5)
    out[ring, 0] = np.clip(5.5 + rng.normal(0, 1.2, int(ring.sum())), 3.0, 8.0)
    out[ring, 1:] = 0.0
    return out


def test_a_near_black_table_still_measures_the_light() -> None:
    # Fresh deck 3016: a table at L 5-8 measured nothing (it was below the old floor of
    # L 12), and the cards' quartiles stretched the unchanged light, the table to L 33.
    ref = _near_black_table(_calibration())
    matched = match_exposure(ref.copy(), ref, table_ring(_geometry()))
    assert matched is not None
    assert float(np.abs(matched - ref).max()) < 0.01


def test_a_near_black_table_measures_luminance_not_lightness() -> None:
    # Twice the light: luminance x2, so (L + 16) x 2 ** (1/3) on the cards; on the table,
    # below L 8, L is linear in luminance (the (L + 16) ratio there says 1.24, not 1.26).
    ref = _near_black_table(_calibration())
    seen = ref.copy()
    ring = table_ring(_geometry())
    seen[~ring, 0] = (ref[~ring, 0] + 16.0) * 2.0 ** (1.0 / 3.0) - 16.0
    y = 2.0 * ref[ring, 0] / (24389.0 / 27.0)
    seen[ring, 0] = np.where(y > 216.0 / 24389.0, 116.0 * np.cbrt(y) - 16.0, y * 24389.0 / 27.0)
    matched = match_exposure(seen, ref, ring)
    assert matched is not None
    assert float(np.abs(matched[~ring, 0] - ref[~ring, 0]).max()) < 0.05
