"""A card a quarter of a card off its cell at calibration, fitted again from beside it.

Both sides of such a card can lie on a table stripe as pale as its border: fitted from
its cell, its outline is put on the strongest edges near there (its neighbour's side, its
own icon), a third of it on the gap. Its print is then learned wrong, and in every photo
of the session the card lying in that cell passes for it.
"""

from __future__ import annotations

import pytest
from zefiria.vision.calibrate import calibrate, islands_in_doubt
from zefiria.vision.reader import read_table
from zefiria.vision.synthetic import make_dataset

from .photos import islands_given


@pytest.mark.slow
def test_a_card_off_its_cell_on_a_striped_table_is_framed_and_read() -> None:
    # Fresh deck 6009 (6000-6099 seed 43, the session of #72-#79): island 20 lies 13 board
    # px right of where its cell's fit put it. Before, it was in doubt at calibration, the
    # card in its cell (3, 4) was read as island 20 (in doubt) in every photo, and the
    # session's eight photos gave 153 cells right of 200.
    photos = [s for s in make_dataset(80, 43, range(6000, 6100), per_setup=8) if s.index >= 72]
    solved, pawns = photos[0].setup.calibration()
    profile = calibrate(solved.image, pawns.image)
    assert 20 not in islands_in_doubt(profile)
    right = 0
    own_cell = 0  # island 20's calibration cell read right, another card lying there
    for sample in photos:
        reading = read_table(sample.render().image, profile)
        right += len(islands_given(sample, reading))
        own_cell += reading.grid[3][4] == sample.scene.island_at((3, 4))
    assert own_cell >= 6  # (7 of 8; none before)
    assert right >= 170  # (179 of 200)
