"""One reading of the table and its JSON form (``/work/shared/spec/reading.md``).

The JSON is a contract that tests outside the project rely on: keys are only ever added.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from zefiria.engine.grid import SIZE, Cell
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Position


class Status(Enum):
    OK = "ok"
    UNREADABLE = "unreadable"


Grid = tuple[tuple[int | None, ...], ...]

EMPTY_GRID: Grid = tuple(tuple(None for _ in range(SIZE)) for _ in range(SIZE))


@dataclass(frozen=True)
class Reading:
    """What the camera saw. ``None`` in ``grid`` marks a cell read without confidence."""

    status: Status
    grid: Grid = EMPTY_GRID
    pawns: dict[Spirit, Position] = field(default_factory=dict)
    gems: tuple[Cell, ...] = ()
    uncertain: tuple[Cell, ...] = ()
    reason: str | None = None
    ms: float = 0.0
    # Per-cell confidence margins and per-stage timings, for the overlay and the benchmark;
    # not part of the JSON contract.
    confidence: tuple[tuple[float, ...], ...] = ()
    stages: dict[str, float] = field(default_factory=dict)
    # Cells filled from an earlier photo of the same table whose island the game knew (the
    # card looks exactly as it did then: :mod:`.table_memory`); a key added to the JSON only
    # when there are some.
    remembered: tuple[Cell, ...] = ()
    # Pawns the photo did not show for sure, given where the game last had them because
    # their card, pawn and all, looks exactly as it did then (:mod:`.table_memory`); also
    # in ``pawns``. A key added to the JSON only when there are some.
    remembered_pawns: tuple[Spirit, ...] = ()
    # A hand or an arm over the table (someone is acting): the cards it may hide, which are
    # null and uncertain; the rest of the table is read. A key added to the JSON only when a
    # hand is seen (an empty list: an arm beside the grid that hides no card).
    hand: tuple[Cell, ...] | None = None

    @property
    def ok(self) -> bool:
        return self.status is Status.OK

    @classmethod
    def unreadable(cls, reason: str, ms: float = 0.0) -> Reading:
        return cls(status=Status.UNREADABLE, reason=reason, ms=ms)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status.value,
            "grid": [list(row) for row in self.grid],
            "pawns": {
                s.value: {"outside" if p.outside else "cell": [p.cell[0], p.cell[1]]}
                for s, p in self.pawns.items()
            },
            "gems": [[r, c] for r, c in self.gems],
            "uncertain": [[r, c] for r, c in self.uncertain],
            "ms": round(self.ms, 1),
        }
        if self.reason is not None:
            out["reason"] = self.reason
        if self.remembered:
            out["remembered"] = [[r, c] for r, c in self.remembered]
        if self.remembered_pawns:
            out["remembered_pawns"] = [s.value for s in self.remembered_pawns]
        if self.hand is not None:
            out["hand"] = [[r, c] for r, c in self.hand]
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict())
