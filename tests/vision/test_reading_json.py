"""The JSON of a reading follows the contract in /work/shared/spec/reading.md."""

from __future__ import annotations

import json

from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Position
from zefiria.vision.reading import Reading, Status

KEYS = {"status", "grid", "pawns", "gems", "uncertain", "ms"}


def test_ok_reading_shape() -> None:
    grid = tuple(tuple(r * 5 + c + 1 for c in range(5)) for r in range(5))
    grid = ((*grid[0][:4], None), *grid[1:])
    reading = Reading(
        status=Status.OK,
        grid=grid,
        pawns={Spirit.BOREA: Position((0, 0)), Spirit.AUSTRO: Position((2, 4), outside=True)},
        gems=((3, 1),),
        uncertain=((0, 4),),
        ms=41.234,
    )
    data = json.loads(reading.to_json())
    assert set(data) == KEYS
    assert data["status"] == "ok"
    assert len(data["grid"]) == 5 and all(len(row) == 5 for row in data["grid"])
    assert data["grid"][0][4] is None and data["grid"][4][4] == 25
    assert data["pawns"] == {"borea": {"cell": [0, 0]}, "austro": {"outside": [2, 4]}}
    assert data["gems"] == [[3, 1]]
    assert data["uncertain"] == [[0, 4]]
    assert data["ms"] == 41.2


def test_unreadable_has_reason() -> None:
    data = json.loads(Reading.unreadable("hand or object over the cards", ms=3.0).to_json())
    assert set(data) == KEYS | {"reason"}
    assert data["status"] == "unreadable"
    assert data["reason"] == "hand or object over the cards"
    assert data["grid"] == [[None] * 5 for _ in range(5)]
    assert data["pawns"] == {} and data["gems"] == [] and data["uncertain"] == []
