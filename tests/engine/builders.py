"""Build game states directly for rule tests: a grid laid out by hand, pawns where we want."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from zefiria.engine.grid import ALL_CELLS, Cell, index
from zefiria.engine.setup import new_game
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Difficulty, GameConfig, GameState, Mode, Phase, Position


def grid_with(placements: Mapping[int, Cell]) -> tuple[int, ...]:
    """A grid with the given islands in the given cells, the others in reading order.

    >>> grid_with({2: (0, 0)})[:3]
    (2, 1, 3)
    """
    grid: list[int | None] = [None] * 25
    for island, cell in placements.items():
        grid[index(cell)] = island
    rest = iter(k for k in range(1, 26) if k not in placements)
    return tuple(g if g is not None else next(rest) for g in grid)


def turn_state(
    pawns: Mapping[Spirit, Cell],
    active: Spirit,
    *,
    grid: Iterable[int] | None = None,
    ap: int = 5,
    mode: Mode = Mode.STANDARD,
    anchored: Iterable[Cell] = (),
    gems_held: Mapping[Spirit, int] | None = None,
    outside: bool = False,
    players: int | None = None,
    must_leave: bool = False,
    purple_left: int = 3,
) -> GameState:
    """A state in the TURN phase of round 1 with ``active`` to play."""
    spirits = tuple(pawns)
    n = players if players is not None else len(spirits)
    difficulty = Difficulty.MEDIUM if n == 1 else None
    config = GameConfig(n, mode, spirits, difficulty)
    sleeper = None
    if n == 1:
        sleeper = next(s for s in spirits if s is not active)
    base = new_game(
        config,
        seed=0,
        grid=tuple(grid) if grid is not None else tuple(range(1, 26)),
        sleeper=sleeper,
    )
    held = tuple((gems_held or {}).get(s, 0) for s in spirits)
    anchored_set = frozenset(anchored)
    return replace(
        base,
        pawns=tuple(Position(c, outside=(outside and s is active)) for s, c in pawns.items()),
        phase=Phase.TURN,
        active=spirits.index(active),
        round=1,
        purple_left=purple_left,
        ap=ap,
        anchored=anchored_set,
        gem_pool=(6 - len(anchored_set) - sum(held)) if mode is Mode.STORM else 0,
        gems_held=held,
        must_leave=must_leave,
    )


def cell_of(state: GameState, island: int) -> Cell:
    return ALL_CELLS[state.grid.index(island)]
