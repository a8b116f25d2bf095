"""What the camera saw on the table, as the engine understands it.

An :class:`Observation` is the engine's side of the camera contract (``spec/reading.md``):
the 25 cells with an island number or ``None`` where the card could not be read, the pawns
that were seen, the cells with a red gem and the cells whose reading is not trustworthy.
The explainer treats unreadable and uncertain cells alike, as wildcards: a wrong reading
given as certain is the worst thing a referee can act on, so doubt never becomes a fact.

>>> obs = observation_from_reading({
...     "status": "ok",
...     "grid": [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, None, 14, 15],
...              [16, 17, 18, 19, 20], [21, 22, 23, 24, 25]],
...     "pawns": {"borea": {"cell": [0, 0]}, "austro": {"outside": [2, 4]}},
...     "gems": [[3, 1]], "uncertain": [[4, 4]],
... })
>>> obs.grid[12], obs.pawns[Spirit.AUSTRO], sorted(obs.wildcards)
(None, Position(cell=(2, 4), outside=True), [(2, 2), (4, 4)])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .grid import ALL_CELLS, SIZE, Cell, index, is_edge, on_grid
from .spirits import Spirit
from .state import GameState, Position

__all__ = ["Observation", "ReadingError", "observation_from_reading", "observation_of"]


class ReadingError(ValueError):
    """A camera reading the engine cannot use (unreadable photo or malformed JSON)."""


@dataclass(frozen=True)
class Observation:
    """The table as the camera saw it.

    ``grid`` is row-major (``grid[index(cell)]``), ``None`` where unreadable; ``pawns`` holds
    only the pawns seen; ``gems`` the cells with a red gem; ``uncertain`` the cells whose
    reading (card or gem) is not to be trusted.
    """

    grid: tuple[int | None, ...]
    pawns: Mapping[Spirit, Position] = field(default_factory=lambda: MappingProxyType({}))
    gems: frozenset[Cell] = frozenset()
    uncertain: frozenset[Cell] = frozenset()

    def __post_init__(self) -> None:
        if len(self.grid) != SIZE * SIZE:
            raise ReadingError(f"a reading has 25 cells, got {len(self.grid)}")
        seen: set[int] = set()
        for i, v in enumerate(self.grid):
            if v is None:
                continue
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= SIZE * SIZE:
                raise ReadingError(f"cell {ALL_CELLS[i]}: {v!r} is not an island number 1..25")
            if v in seen:
                # Two cards cannot both be island v: one of the two readings is wrong, and
                # the engine cannot tell which, so the reading is refused as a whole.
                raise ReadingError(f"island {v} is read twice (second time in {ALL_CELLS[i]})")
            seen.add(v)
        for cell in (*self.gems, *self.uncertain):
            if not on_grid(cell):
                raise ReadingError(f"{cell!r} is not a cell of the 5x5 grid")
        for spirit, pos in self.pawns.items():
            if not on_grid(pos.cell) or (pos.outside and not is_edge(pos.cell)):
                raise ReadingError(f"{spirit.title}'s pawn at {pos!r} is not a place on the table")
        # A read-only copy: the caller's dict must not be able to change a frozen value.
        object.__setattr__(self, "pawns", MappingProxyType(dict(self.pawns)))

    def __hash__(self) -> int:
        # The generated hash would hash the mapping proxy, which is not hashable.
        pawns = tuple(sorted((s.value, p.cell, p.outside) for s, p in self.pawns.items()))
        return hash((self.grid, pawns, self.gems, self.uncertain))

    @property
    def wildcards(self) -> frozenset[Cell]:
        """Cells whose card and gem may be anything: unreadable or uncertain."""
        return frozenset(c for c in ALL_CELLS if self.grid[index(c)] is None) | self.uncertain

    def island_at(self, cell: Cell) -> int | None:
        """The island read in ``cell``, or ``None`` when it is a wildcard."""
        if cell in self.uncertain:
            return None
        return self.grid[index(cell)]


def observation_of(state: GameState) -> Observation:
    """What a perfect camera would report for ``state``'s table (every pawn seen)."""
    pawns = {s: p for s, p in zip(state.spirits, state.pawns, strict=True) if p is not None}
    return Observation(grid=tuple(state.grid), pawns=pawns, gems=state.anchored)


def observation_from_reading(reading: Mapping[str, Any]) -> Observation:
    """Convert the camera's JSON (already parsed) into an :class:`Observation`.

    Raises :class:`ReadingError` for a reading with ``status`` other than ``"ok"`` or with
    malformed content; unknown keys are ignored (the contract only ever adds keys).
    """
    status = reading.get("status", "ok")
    if status != "ok":
        reason = reading.get("reason", "no reason given")
        raise ReadingError(f"the camera could not read the table: {reason}")
    rows = reading.get("grid")
    if not isinstance(rows, list) or len(rows) != SIZE:
        raise ReadingError("a reading's grid has 5 rows")
    grid: list[int | None] = []
    for r, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != SIZE:
            raise ReadingError(f"row {r} of the grid does not have 5 cells")
        grid.extend(row)
    pawns: dict[Spirit, Position] = {}
    raw_pawns = reading.get("pawns", {})
    if not isinstance(raw_pawns, Mapping):
        raise ReadingError("'pawns' must map spirit names to positions")
    for name, where in raw_pawns.items():
        try:
            spirit = Spirit(str(name).lower())
        except ValueError:
            raise ReadingError(f"unknown spirit {name!r} in pawns") from None
        if not isinstance(where, Mapping) or len(where) != 1:
            raise ReadingError(f"{name}: expected {{'cell': [r, c]}} or {{'outside': [r, c]}}")
        ((kind, cell),) = where.items()
        if kind not in ("cell", "outside"):
            raise ReadingError(f"{name}: unknown position kind {kind!r}")
        pawns[spirit] = Position(_cell(cell, name), outside=kind == "outside")
    gems = frozenset(_cell(c, "gems") for c in reading.get("gems", []))
    uncertain = frozenset(_cell(c, "uncertain") for c in reading.get("uncertain", []))
    return Observation(tuple(grid), pawns, gems, uncertain)


def _cell(value: Any, where: str) -> Cell:
    ok = (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )
    if not ok:
        raise ReadingError(f"{where}: {value!r} is not a cell [row, column]")
    cell = (int(value[0]), int(value[1]))
    if not on_grid(cell):
        raise ReadingError(f"{where}: {cell!r} is off the 5x5 grid")
    return cell
