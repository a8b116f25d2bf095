"""What is on the table: the scene a synthetic photo shows, in the game's own terms.

A scene says nothing about how it looks (that is the card design, the table style and the
camera pose): the same scene can be drawn with any deck on any table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from zefiria.engine import ALL_CELLS, SIZE, Cell, GameState, Position, Spirit
from zefiria.engine.grid import is_edge
from zefiria.engine.spirits import CALIBRATION_ORDER

SOLVED: tuple[int, ...] = tuple(range(1, SIZE * SIZE + 1))


@dataclass(frozen=True)
class Hand:
    """A hand and arm reaching over the cards from outside the grid.

    ``tip`` is where the fingertips are, in grid units: ``(row, column)`` as floats, so
    ``(2.0, 2.0)`` is the centre of the middle card and ``(-0.5, 1.0)`` is just above the
    grid. ``angle_deg`` is the direction the arm comes *from* (0 = from the right of the
    grid, 90 = from below, the players' side). ``width_mm`` is the palm's width.
    """

    tip: tuple[float, float]
    angle_deg: float = 90.0
    width_mm: float = 85.0


@dataclass(frozen=True)
class Scene:
    """The table's contents: cards in cells, pawns, red gems and maybe a hand in the way.

    ``grid`` holds the 25 island numbers row-major, row 0 at the top of the camera image.
    ``pawns`` maps a spirit to an engine :class:`Position` (on a card, or Austro outside
    beside an edge cell). ``gems`` are the cells whose card carries a red gem. The supply off
    the grid (loose gems, the storm deck) is there to be ignored by a reader.
    """

    grid: tuple[int, ...] = SOLVED
    pawns: dict[Spirit, Position] = field(default_factory=dict)
    gems: frozenset[Cell] = frozenset()
    hand: Hand | None = None
    loose_gems: int = 0  # red gems in the supply beside the grid (not on a card)
    storm_deck: bool = False  # the face-down storm deck beside the grid
    cleared: frozenset[Cell] = frozenset()

    def __post_init__(self) -> None:
        if sorted(self.grid) != list(SOLVED):
            raise ValueError(f"grid must hold islands 1..25 once each, got {self.grid!r}")
        for spirit, pos in self.pawns.items():
            if pos.outside and not is_edge(pos.cell):
                raise ValueError(f"{spirit.title} outside beside {pos.cell}: not an edge cell")
        bad = [c for c in self.gems if c not in ALL_CELLS]
        if bad:
            raise ValueError(f"gems on cells off the grid: {sorted(bad)}")
        off = [c for c in self.cleared if c not in ALL_CELLS]
        if off:
            raise ValueError(f"cleared cells off the grid: {sorted(off)}")
        on_bare = [c for c in self.gems if c in self.cleared] + [
            p.cell for p in self.pawns.values() if not p.outside and p.cell in self.cleared
        ]
        if on_bare:
            raise ValueError(f"a pawn or a gem on a cell with no card: {sorted(on_bare)}")
        if not 0 <= self.loose_gems <= 12:
            raise ValueError(f"loose_gems must be 0..12, got {self.loose_gems}")

    def island_at(self, cell: Cell) -> int:
        return self.grid[cell[0] * SIZE + cell[1]]


def scene_from_state(state: GameState, hand: Hand | None = None) -> Scene:
    """The table as a game state says it is: its grid, the placed pawns, anchored gems."""
    pawns = {s: p for s, p in zip(state.spirits, state.pawns, strict=True) if p is not None}
    return Scene(
        grid=state.grid,
        pawns=pawns,
        gems=frozenset(state.anchored),
        hand=hand,
        loose_gems=min(state.gem_pool, 12),
        storm_deck=bool(state.storm_deck),
    )


def calibration_scenes() -> tuple[Scene, Scene]:
    """The two calibration photos of the spec: ``solved``, then ``pawns``.

    ``pawns`` is the solved grid with Borea on island 1, Jugo on 2, Etesia on 3, Skyron on 4
    and Austro on 5 (``CALIBRATION_ORDER``, the first row).
    """
    solved = Scene()
    on_first_row = {s: Position((0, i)) for i, s in enumerate(CALIBRATION_ORDER)}
    return solved, Scene(pawns=on_first_row)


def random_scene(seed: int, hand_chance: float = 0.1) -> Scene:
    """A plausible mid-game table: shuffled grid, some pawns, 0-6 gems, sometimes a hand,
    and in half the games a Storm supply beside the grid.

    Pawns never share a card (the rules forbid it); Austro is outside a third of the time.
    """
    rng = np.random.default_rng([seed, 0x5CE4E])
    grid = tuple(int(k) for k in rng.permutation(SOLVED))
    cells = [ALL_CELLS[int(i)] for i in rng.permutation(len(ALL_CELLS))]
    n_pawns = int(rng.integers(2, 6)) if rng.random() < 0.9 else 0
    spirits = [Spirit(s) for s in rng.permutation([s.value for s in Spirit])[:n_pawns]]
    pawns: dict[Spirit, Position] = {}
    for spirit in spirits:
        if spirit is Spirit.AUSTRO and rng.random() < 0.35:
            edges = [c for c in ALL_CELLS if is_edge(c)]
            pawns[spirit] = Position(edges[int(rng.integers(len(edges)))], outside=True)
        else:
            pawns[spirit] = Position(cells.pop())
    n_gems = int(rng.integers(0, 7))
    # Gems are anchors on cards; a pawn may stand on an anchored card only briefly, so most
    # gems sit on free cards, but a few share a card with a pawn (the recogniser must cope).
    gems = set(cells[:n_gems])
    if pawns and rng.random() < 0.2:
        on_card = [p.cell for p in pawns.values() if not p.outside]
        if on_card:
            gems.add(on_card[int(rng.integers(len(on_card)))])
    hand = random_hand(rng) if rng.random() < hand_chance else None
    storm = rng.random() < 0.5  # a Storm-mode game: the deck and gem supply lie beside the grid
    loose = int(rng.integers(0, 7)) if storm else 0
    return Scene(
        grid=grid,
        pawns=pawns,
        gems=frozenset(gems),
        hand=hand,
        loose_gems=loose,
        storm_deck=storm,
    )


def random_hand(rng: np.random.Generator) -> Hand:
    tip = (float(rng.uniform(-0.3, SIZE - 0.7)), float(rng.uniform(-0.3, SIZE - 0.7)))
    return Hand(
        tip=tip,
        angle_deg=float(rng.uniform(20, 160) if rng.random() < 0.8 else rng.uniform(-90, 20)),
        width_mm=float(rng.uniform(75, 95)),
    )
