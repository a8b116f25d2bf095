"""Austro beside the grid, told from what looks like him on the cards: regressions from
fresh deck designs (``pawn_diag.py --designs ... --read-only``), each a photo whose truth
is known."""

from __future__ import annotations

import pytest
from zefiria.engine.spirits import Spirit

from .photos import photo_read


@pytest.mark.slow
def test_austro_beside_the_grid_is_not_passed_over_for_the_white_pawns_shade() -> None:
    # `pawn_diag.py --designs 6000-6099 --seed 43 --n 240 --read-only` #206 (deck 6034):
    # Austro stands beside the grid and Borea on (4, 4), Borea's shaded side of Austro's grey.
    # Of his two look-alikes the one on the card was sure, so the one beside the grid was
    # passed over: Austro was placed on Borea's card and Borea missed, neither doubted.
    sample, reading = photo_read(range(6000, 6100), 43, 206)
    truth = sample.scene.pawns
    assert truth[Spirit.AUSTRO].outside and truth[Spirit.BOREA].cell == (4, 4)
    for spirit, pos in reading.pawns.items():
        assert pos == truth.get(spirit), spirit
    assert Spirit.BOREA in reading.pawns or (4, 4) in reading.uncertain


@pytest.mark.slow
def test_a_glow_fainter_than_austros_lit_top_is_no_austro_beside_the_grid() -> None:
    # `pawn_diag.py --designs 6000-6099 --seed 43 --n 240 --read-only` #204 (deck 6034): no
    # pawn in the game; a lamp's faint glow beside the grid (L 19-30 on a table at 19) has
    # Austro's colour as learned (L 46), and a tenth of it lies below the table by noise
    # alone: it was placed as Austro beside the grid.
    sample, reading = photo_read(range(6000, 6100), 43, 204)
    assert not sample.scene.pawns
    assert Spirit.AUSTRO not in reading.pawns
