"""Fill the camera's blind spots before charging anyone: deduce and merge readings.

The vision code leaves a card unread (``None``) or flags it uncertain rather than guess, and
the explainer treats such cells as wildcards. A wildcard is harmless when nothing changed,
but a change the camera half saw may be explained by a cheaper move than the one made
(two swapped cards both unread look like no swap at all). So before accepting a change the
referee wants every card seen for sure, and gets there in two honest ways:

- *deduction*: 24 cards read for sure leave one island for the last cell;
- *merging*: photos of the same still table (the players straighten the unread cards in
  between) each add the cards they read for sure. The newest photo wins: a card read in
  two places, or a cell read as two islands, means the table changed, and the older
  photo's knowledge is dropped.
"""

from __future__ import annotations

from dataclasses import replace

from zefiria.engine.grid import ALL_CELLS, ISLANDS, index
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


def merge(older: Observation | None, newer: Observation) -> Observation:
    """``newer`` with its unread cards filled from ``older`` where that is safe."""
    if older is None:
        return deduce(newer)
    old_wild, new_wild = older.wildcards, newer.wildcards
    sure_new = {c: newer.grid[index(c)] for c in ALL_CELLS if c not in new_wild}
    sure_old = {c: older.grid[index(c)] for c in ALL_CELLS if c not in old_wild}
    if any(sure_old.get(c, v) != v for c, v in sure_new.items()):
        return deduce(newer)  # a card moved between the photos: start from the new one
    placed = set(sure_new.values())
    grid = list(newer.grid)
    filled: set[tuple[int, int]] = set()
    for cell in sorted(new_wild):
        island = sure_old.get(cell)
        if island is not None and island not in placed:
            grid[index(cell)] = island
            placed.add(island)
            filled.add(cell)
    # A filled cell's gem comes from the photo that read the cell for sure, too.
    gems = (newer.gems - filled) | (older.gems & filled)
    merged = replace(newer, grid=tuple(grid), gems=gems, uncertain=newer.uncertain - filled)
    return deduce(merged)
