"""Fill the camera's blind spots before charging anyone: deduce and merge readings.

The vision code leaves a card unread (``None``) or flags it uncertain rather than guess, and
the explainer treats such cells as wildcards. A wildcard is harmless when nothing changed,
but a change the camera half saw may be explained by a cheaper move than the one made
(two swapped cards both unread look like no swap at all). So before accepting a change the
referee wants every card seen for sure, and gets there in two honest ways:

- *deduction*: 24 cards read for sure leave one island for the last cell;
- *merging*: photos of the same still table (the players straighten the unread cards in
  between) each add the cards they read for sure *where the game has them*. The newest
  photo wins: a card read in two places, or a cell read as two islands, means the table
  changed, and the older photo's knowledge is dropped. A card seen moved counts only in
  the photo that sees it: between two photos the players may have changed the table in a
  way no photo showed (a move taken back under cards the camera then no longer reads), and
  an older photo of a move nobody sees any more must never be accepted as that move.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from zefiria.engine.grid import ALL_CELLS, ISLANDS, Cell, index
from zefiria.engine.observation import Observation


def deduce(observation: Observation) -> Observation:
    """Fill the single unread cell when the 24 others are read for sure."""
    wild = observation.wildcards
    if len(wild) != 1:
        return observation
    (cell,) = wild
    seen = {v for c, v in zip(ALL_CELLS, observation.grid, strict=True) if c != cell}
    left = set(ISLANDS) - {v for v in seen if v is not None}
    if len(left) != 1:
        return observation
    grid = list(observation.grid)
    grid[index(cell)] = left.pop()
    return replace(observation, grid=tuple(grid), uncertain=observation.uncertain - {cell})


def merge(older: Observation | None, newer: Observation, game_grid: tuple[int, ...]) -> Observation:
    """``newer`` with its unread cards filled from ``older`` where that is safe.

    ``game_grid`` is the game's: ``older`` only fills a cell with the island the game has
    there (a card an older photo saw moved is left to the photos that see it).
    """
    if older is None:
        return deduce(newer)
    old_wild, new_wild = older.wildcards, newer.wildcards
    sure_new = {c: newer.grid[index(c)] for c in ALL_CELLS if c not in new_wild}
    sure_old = {c: older.grid[index(c)] for c in ALL_CELLS if c not in old_wild}
    if any(sure_old.get(c, v) != v for c, v in sure_new.items()):
        return deduce(newer)  # a card moved between the photos: start from the new one
    placed = set(sure_new.values())
    islands: dict[Cell, int] = {}
    for cell in sorted(new_wild):
        island = sure_old.get(cell)
        if island is not None and island == game_grid[index(cell)] and island not in placed:
            islands[cell] = island
            placed.add(island)
    # A filled cell's gem comes from the photo that read the cell for sure, too.
    filled = set(islands)
    merged = fill(newer, islands)
    return deduce(replace(merged, gems=(newer.gems - filled) | (older.gems & filled)))


def fill(observation: Observation, islands: Mapping[Cell, int]) -> Observation:
    """``observation`` with ``islands`` known for sure in their cells, wildcards until now.

    Another wildcard showing one of these islands loses that number (it was not sure of
    it, and no island lies in two places): it stays a wildcard.
    """
    if not islands:
        return observation
    grid = list(observation.grid)
    known = set(islands.values())
    for cell in observation.wildcards - set(islands):
        if grid[index(cell)] in known:
            grid[index(cell)] = None
    for cell, island in islands.items():
        grid[index(cell)] = island
    return replace(observation, grid=tuple(grid), uncertain=observation.uncertain - set(islands))
