"""The whole state of a game of Zefiria as one immutable, hashable value.

Rules never mutate a state: :func:`zefiria.engine.rules.apply_action` returns a new one, so a
refused action cannot leave anything half-changed, undo is a stack of states, and searches
(the referee's explainer, the planner) can share states freely.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .deck import Deck, GridCard, StormCard, default_deck
from .grid import Cell, home_cell, index
from .rng import Rng
from .spirits import Spirit


class Mode(Enum):
    STANDARD = "standard"
    STORM = "storm"


class Difficulty(Enum):
    """Solo difficulty: the number of purple gems (rounds)."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class Phase(Enum):
    SETUP = "setup"  # players place pawns on corners, in turn order
    CHOOSE_FIRST = "choose_first"  # solo: pick which awake spirit plays first
    AUSTRO_EXIT = "austro_exit"  # Austro leaves an inner card and the nearest sides tie
    TURN = "turn"  # the active spirit spends AP
    CHOOSE_SLEEPER = "choose_sleeper"  # solo: pick who sleeps next round
    OVER = "over"  # the last round has ended: score it


PURPLE_GEMS = {2: 6, 3: 5, 4: 4}
SOLO_PURPLE_GEMS = {Difficulty.EASY: 7, Difficulty.MEDIUM: 6, Difficulty.HARD: 5}
AP_PER_TURN = {1: 5, 2: 5, 3: 4, 4: 4}
RED_GEMS = 6


@dataclass(frozen=True)
class Position:
    """Where a pawn stands: on the card in ``cell``, or (Austro) outside beside edge ``cell``."""

    cell: Cell
    outside: bool = False


class StormEffect(Enum):
    ANCHORED = "anchored"  # target 1 was already home: a red gem anchors it
    SWAPPED = "swapped"
    NOTHING = "nothing"  # a target was anchored, both targets were the same cell, or no gem left


@dataclass(frozen=True)
class StormEvent:
    """What the storm of a round start did (the device shows it; the table must match)."""

    round: int
    storm: StormCard
    grid: GridCard
    rotation: int  # quarter turns clockwise the grid card was given at setup
    target1: Cell
    target2: Cell | None  # None when target 1 was anchored instead
    effect: StormEffect


@dataclass(frozen=True)
class GameConfig:
    """What is fixed for the whole game."""

    players: int  # 1..4; 1 means solo
    mode: Mode
    spirits: tuple[Spirit, ...]  # turn order from the first player (solo: the three spirits)
    difficulty: Difficulty | None = None  # solo only
    deck: Deck = field(default_factory=default_deck)

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def ap_per_turn(self) -> int:
        return AP_PER_TURN[self.players]

    @property
    def purple_gems(self) -> int:
        if self.solo:
            assert self.difficulty is not None
            return SOLO_PURPLE_GEMS[self.difficulty]
        return PURPLE_GEMS[self.players]


@dataclass(frozen=True)
class GameState:
    config: GameConfig
    grid: tuple[int, ...]  # 25 islands, row-major: grid[index((r, c))]
    pawns: tuple[Position | None, ...]  # aligned with config.spirits; None until placed
    phase: Phase
    active: int  # index into config.spirits: the active (or placing, or choosing) spirit
    round: int  # 1-based; 0 during setup
    purple_left: int  # purple gems still on the time track
    ap: int  # AP left for the active spirit this turn
    anchored: frozenset[Cell] = frozenset()  # cells holding a red gem (anchored cards)
    gem_pool: int = 0  # red gems beside the storm deck
    gems_held: tuple[int, ...] = ()  # red gems owned, aligned with config.spirits
    gems_returned: int = 0  # red gems spent back to the box
    must_leave: bool = False  # a gem landed on the active pawn's card: first action is a Fly
    turns_done: int = 0  # turns finished this round (solo: 0, 1 or 2)
    sleeping: Spirit | None = None  # solo: the sleeping spirit this round
    played: tuple[Spirit, ...] = ()  # solo: spirits that have played this round, in order
    storm_deck: tuple[StormCard, ...] = ()  # face down, top first
    grid_deck: tuple[tuple[GridCard, int], ...] = ()  # face down, top first, with rotation
    last_storm: StormEvent | None = None
    rng: Rng = field(default_factory=lambda: Rng(0))

    # -- small queries every module uses ------------------------------------------------
    @property
    def spirits(self) -> tuple[Spirit, ...]:
        return self.config.spirits

    @property
    def active_spirit(self) -> Spirit:
        return self.config.spirits[self.active]

    def island_at(self, cell: Cell) -> int:
        return self.grid[index(cell)]

    def cell_of(self, island: int) -> Cell:
        from .grid import cell_at

        return cell_at(self.grid.index(island))

    def position_of(self, spirit: Spirit) -> Position | None:
        return self.pawns[self.config.spirits.index(spirit)]

    def occupied_cells(self) -> frozenset[Cell]:
        """Cells whose card carries a pawn (Austro outside occupies nothing)."""
        return frozenset(p.cell for p in self.pawns if p is not None and not p.outside)

    def is_free(self, cell: Cell) -> bool:
        return cell not in self.anchored and cell not in self.occupied_cells()

    def is_home(self, cell: Cell) -> bool:
        return home_cell(self.island_at(cell)) == cell
