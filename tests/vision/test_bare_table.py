"""A table with its cards cleared away is "no grid found", not a hand, a dark or a blurred
photo; a few cards lifted still read, their cells in doubt."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from zefiria.engine import ALL_CELLS, Cell
from zefiria.vision import reader
from zefiria.vision.bare_table import BARE_CELLS, NO_GRID, no_grid, table_colours, table_shares
from zefiria.vision.board import BoardGeometry
from zefiria.vision.exposure import table_ring
from zefiria.vision.reading import Status
from zefiria.vision.synthetic import Sample
from zefiria.vision.synthetic.scene import Scene

from .photos import first_dev_session

F32 = np.ndarray[Any, np.dtype[np.float32]]


def _without(sample: Sample, cleared: list[Cell]) -> Scene:
    """The sample's scene with the cards of ``cleared`` taken away (and what lay on them)."""
    scene = sample.scene
    return dataclasses.replace(
        scene,
        cleared=frozenset(cleared),
        pawns={s: p for s, p in scene.pawns.items() if p.outside or p.cell not in cleared},
        gems=frozenset(g for g in scene.gems if g not in cleared),
    )


def test_a_cleared_table_is_no_grid(monkeypatch: pytest.MonkeyPatch) -> None:
    sample, profile = first_dev_session()
    photo = sample.setup.photo(Scene(cleared=frozenset(ALL_CELLS)), sample.seed).image
    reading = reader.read_table(photo, profile)
    assert reading.status is Status.UNREADABLE and reading.reason is not None
    assert reading.reason.startswith(NO_GRID) and "no card on the table" in reading.reason
    # without the check, the same photo was taken for a hand over the cards
    monkeypatch.setattr(reader, "no_grid", lambda *_: None)
    before = reader.read_table(photo, profile).reason
    assert before is not None and before.startswith("hand or object over the cards")


def test_most_cards_cleared_is_no_grid() -> None:
    sample, profile = first_dev_session()
    photo = sample.setup.photo(_without(sample, list(ALL_CELLS[:15])), sample.seed).image
    reading = reader.read_table(photo, profile)
    assert reading.reason is not None and reading.reason.startswith(NO_GRID)


def test_a_few_cards_lifted_still_read_and_none_is_named() -> None:
    sample, profile = first_dev_session()
    lifted: list[Cell] = [(2, 2), (4, 0), (0, 4)]
    photo = sample.setup.photo(_without(sample, lifted), sample.seed).image
    reading = reader.read_table(photo, profile)
    assert reading.ok
    for r, c in lifted:
        assert reading.grid[r][c] is None and (r, c) in reading.uncertain
    right = [
        reading.grid[r][c] == sample.scene.island_at((r, c))
        for r, c in ALL_CELLS
        if reading.grid[r][c] is not None
    ]
    assert all(right) and len(right) >= 18


def _geometry() -> BoardGeometry:
    """A board of 32 px cells with a cell of table around the grid (only its layout counts)."""
    return BoardGeometry(np.eye(3), (600, 600), 32, 1.0, 1)


def _board(table: tuple[float, float, float], cards: tuple[float, float, float]) -> F32:
    """A board of one table colour, with the cells' middles in ``cards``' colour."""
    g = _geometry()
    side = g.board_size[0]
    rng = np.random.default_rng(0)
    lab = np.empty((side, side, 3), np.float32)
    lab[:] = table
    p, m = g.pitch, g.margin
    for r, c in ALL_CELLS:
        y0, x0 = round((m + r + 0.1) * p), round((m + c + 0.1) * p)
        lab[y0 : y0 + round(0.8 * p), x0 : x0 + round(0.8 * p)] = cards
    out: F32 = lab + rng.normal(0, 1.0, lab.shape).astype(np.float32)
    return out


WOOD = (40.0, 20.0, 30.0)  # Lab: a brown table
CARDS = (80.0, -30.0, 10.0)  # Lab: light green cards


def _calibrated() -> tuple[BoardGeometry, F32, Any]:
    """The test board's geometry, its calibration board (green cards on brown wood) and the
    table's colours learned on it."""
    g = _geometry()
    calibration = _board(WOOD, CARDS)
    return g, calibration, table_colours(calibration, table_ring(g))


def _bare_on(board: F32, cells: Sequence[Cell]) -> F32:
    """``board`` with the table where the cards of ``cells`` lay."""
    g = _geometry()
    out = board.copy()
    bare = _board(WOOD, WOOD)
    for r, c in cells:
        y0, x0 = round((g.margin + r) * g.pitch), round((g.margin + c) * g.pitch)
        out[y0 : y0 + g.pitch, x0 : x0 + g.pitch] = bare[y0 : y0 + g.pitch, x0 : x0 + g.pitch]
    return out


def test_cells_in_the_table_colours_are_bare_and_cards_are_not() -> None:
    g, calibration, colours = _calibrated()
    assert (table_shares(calibration, colours, g) < 0.05).all()
    empty = _board(WOOD, WOOD)
    assert (table_shares(empty, colours, g) > 0.95).all()
    reason = no_grid(empty, colours, g, table_shares(calibration, colours, g))
    assert reason is not None and reason.startswith(NO_GRID)
    assert no_grid(calibration, colours, g, table_shares(calibration, colours, g)) is None


def test_cards_of_the_table_colours_ask_for_more_bare_cells() -> None:
    g, calibration, colours = _calibrated()
    cards = table_shares(calibration, colours, g)
    now = _bare_on(calibration, ALL_CELLS[: BARE_CELLS + 2])
    assert no_grid(now, colours, g, cards) is not None
    # three islands that look like the table at calibration: n bare cells are too few now
    like_table = cards.copy()
    like_table[:3] = 1.0
    assert no_grid(now, colours, g, like_table) is None


def test_with_an_arm_seen_nearly_every_cell_must_be_bare() -> None:
    """A camera moved far shows a band of table where the grid's edge lay, and something
    beside the grid as an arm: that is no cleared table."""
    g, calibration, colours = _calibrated()
    cards = table_shares(calibration, colours, g)
    band = _bare_on(calibration, ALL_CELLS[:17])
    assert no_grid(band, colours, g, cards) is not None
    assert no_grid(band, colours, g, cards, arm_seen=True) is None
    assert no_grid(_board(WOOD, WOOD), colours, g, cards, arm_seen=True) is not None


def test_a_scene_keeps_pawns_and_gems_off_cleared_cells() -> None:
    sample, _ = first_dev_session()
    on = next(p.cell for p in sample.scene.pawns.values() if not p.outside)
    with pytest.raises(ValueError, match="no card"):
        dataclasses.replace(sample.scene, cleared=frozenset([on]))
