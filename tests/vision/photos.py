"""One photo of the synthetic sets, as the benchmarks number them, calibrated and read."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from zefiria.engine.grid import ALL_CELLS, Cell
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Position
from zefiria.vision.calibrate import calibrate
from zefiria.vision.profile import Profile
from zefiria.vision.reader import read_table
from zefiria.vision.reading import Reading
from zefiria.vision.synthetic import DEV_DESIGNS, Sample, make_dataset


@cache
def first_dev_session() -> tuple[Sample, Profile]:
    """DEV deck 0's first game photo (seed 3) and its session's calibration."""
    sample = next(iter(make_dataset(1, 3, DEV_DESIGNS, per_setup=4)))
    solved, pawns = sample.setup.calibration()
    return sample, calibrate(solved.image, pawns.image)


def photo_read(
    designs: Sequence[int], seed: int, index: int, per_setup: int = 6
) -> tuple[Sample, Reading]:
    """Photo ``index`` of ``pawn_diag.py --designs ... --seed SEED --per-setup N``, and what
    its session's calibration reads in it."""
    sample = next(
        s for s in make_dataset(index + 1, seed, designs, per_setup=per_setup) if s.index == index
    )
    solved, pawns = sample.setup.calibration()
    return sample, read_table(sample.render().image, calibrate(solved.image, pawns.image))


def pawn_seen(
    designs: Sequence[int], seed: int, index: int, spirit: Spirit
) -> tuple[Position | None, Position | None, Reading]:
    """Where ``spirit`` stands in photo ``index`` (None: not in the game), where its reading
    places him (None: not seen), and the reading."""
    sample, reading = photo_read(designs, seed, index)
    return sample.scene.pawns.get(spirit), reading.pawns.get(spirit), reading


def cells_not_read_right(sample: Sample, reading: Reading) -> list[Cell]:
    """The cells a reading left null or gave another island (every cell if unreadable)."""
    grid = reading.grid
    if grid is None:
        return list(ALL_CELLS)
    return [(r, c) for r, c in ALL_CELLS if grid[r][c] != sample.scene.island_at((r, c))]


def islands_given(sample: Sample, reading: Reading) -> list[int]:
    """The islands a reading gave (its null cells left out), each checked to be the one
    lying in its cell."""
    given = []
    for r, c in ALL_CELLS:
        island = reading.grid[r][c] if reading.grid is not None else None
        if island is not None:
            assert island == sample.scene.island_at((r, c)), f"cell {(r, c)} read as {island}"
            given.append(island)
    return given
