"""Storm mode: the storm that strikes at the start of every round from the second on.

Target 1 is the cell marked on the revealed grid card, turned clockwise by the rotation it was
given at setup. If the card there is already home it is *anchored* (a red gem from the pool)
and nothing else happens; otherwise a Tornado turns the grid card further to find target 2
and a Blizzard counts steps from target 1, wrapping round; the two cards swap and pawns travel
with their cards. Nothing is swapped if either target is anchored or both are the same cell.

When a deck runs out (a user deck smaller than the number of storms) it is rebuilt from the
config and reshuffled with the game's seeded generator (house ruling; the default decks never
run out: 7 storm and 6 grid cards for at most 6 storms).
"""

from __future__ import annotations

from dataclasses import replace

from .deck import Blizzard, GridCard, StormCard, Tornado
from .grid import index, rotate_clockwise, wrap_step
from .rng import Rng
from .state import GameState, Position, StormEffect, StormEvent


def shuffled_storm_deck(
    storms: tuple[StormCard, ...], rng: Rng
) -> tuple[tuple[StormCard, ...], Rng]:
    return rng.shuffled(storms)


def shuffled_grid_deck(
    grids: tuple[GridCard, ...], rng: Rng
) -> tuple[tuple[tuple[GridCard, int], ...], Rng]:
    """Give every grid card a random rotation (0-3 quarter turns), then shuffle the deck."""
    rotated: list[tuple[GridCard, int]] = []
    for card in grids:
        turns, rng = rng.below(4)
        rotated.append((card, turns))
    return rng.shuffled(rotated)


def target_two(storm: StormCard, card: GridCard, rotation: int) -> tuple[int, int]:
    """The second target of a storm (the first is ``rotate_clockwise(card.cell, rotation)``).

    >>> from zefiria.engine.grid import Direction
    >>> target_two(Tornado(1), GridCard((0, 1)), 0)
    (1, 4)
    >>> target_two(Blizzard(Direction.WEST, 2), GridCard((0, 1)), 0)
    (0, 4)
    """
    if isinstance(storm, Tornado):
        return rotate_clockwise(card.cell, rotation + storm.turns)
    assert isinstance(storm, Blizzard)
    return wrap_step(rotate_clockwise(card.cell, rotation), storm.direction, storm.steps)


def strike(state: GameState) -> GameState:
    """Reveal the top storm and grid cards and resolve them; record ``last_storm``."""
    rng = state.rng
    storm_deck = state.storm_deck
    grid_deck = state.grid_deck
    if not storm_deck:
        storm_deck, rng = shuffled_storm_deck(state.config.deck.storms, rng)
    if not grid_deck:
        grid_deck, rng = shuffled_grid_deck(state.config.deck.grids, rng)
    storm, storm_deck = storm_deck[0], storm_deck[1:]
    (card, rotation), grid_deck = grid_deck[0], grid_deck[1:]
    state = replace(state, rng=rng, storm_deck=storm_deck, grid_deck=grid_deck)

    target1 = rotate_clockwise(card.cell, rotation)
    if state.is_home(target1):
        if target1 in state.anchored or state.gem_pool == 0:
            # Already anchored, or no gem left in the pool: the storm does nothing (ruling).
            effect = StormEffect.NOTHING
        else:
            effect = StormEffect.ANCHORED
            state = replace(state, anchored=state.anchored | {target1}, gem_pool=state.gem_pool - 1)
        event = StormEvent(state.round, storm, card, rotation, target1, None, effect)
        return replace(state, last_storm=event)

    target2 = target_two(storm, card, rotation)
    if target1 == target2 or target1 in state.anchored or target2 in state.anchored:
        event = StormEvent(
            state.round, storm, card, rotation, target1, target2, StormEffect.NOTHING
        )
        return replace(state, last_storm=event)
    state = swap_cards(state, target1, target2)
    event = StormEvent(state.round, storm, card, rotation, target1, target2, StormEffect.SWAPPED)
    return replace(state, last_storm=event)


def swap_cards(state: GameState, a: tuple[int, int], b: tuple[int, int]) -> GameState:
    """Swap the cards in cells ``a`` and ``b``; pawns standing on them travel with them."""
    grid = list(state.grid)
    ia, ib = index(a), index(b)
    grid[ia], grid[ib] = grid[ib], grid[ia]
    pawns = tuple(
        None
        if p is None
        else Position(b)
        if (not p.outside and p.cell == a)
        else Position(a)
        if (not p.outside and p.cell == b)
        else p
        for p in state.pawns
    )
    return replace(state, grid=tuple(grid), pawns=pawns)
