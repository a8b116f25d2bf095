"""What each Wind Spirit's Fly and Breeze can reach in a state: the move generator's core.

These functions enumerate; :mod:`zefiria.engine.rules` checks single actions and explains
refusals. Both read the same ``blocked`` mask (occupied or anchored, by cell index) so they
cannot disagree about what is free. Everything works on cell indices for speed.
"""

from __future__ import annotations

from collections.abc import Sequence

from .grid import index
from .paths import (
    CELLS,
    CROSSES,
    EDGE_INDICES,
    NEIGHBOURS,
    breeze_distances,
    diagonal_reach,
)
from .spirits import Spirit
from .state import GameState


def blocked_mask(state: GameState) -> list[bool]:
    """``True`` for every cell whose card is occupied by a pawn or anchored by a gem."""
    blocked = [False] * CELLS
    for cell in state.anchored:
        blocked[index(cell)] = True
    for pos in state.pawns:
        if pos is not None and not pos.outside:
            blocked[index(pos.cell)] = True
    return blocked


def total_gems_held(state: GameState) -> int:
    return sum(state.gems_held)


def fly_targets(state: GameState, blocked: Sequence[bool]) -> list[int]:
    """Every cell the active spirit can Fly to for 1 AP, sorted (AP are not checked here)."""
    pos = state.pawns[state.active]
    if pos is None:
        return []
    spirit = state.active_spirit
    here = index(pos.cell)
    if pos.outside:
        # Austro circles the grid: beside any free edge card, whatever the distance.
        return [i for i in EDGE_INDICES if i != here and not blocked[i]]
    targets = {n for n in NEIGHBOURS[here] if not blocked[n]}
    deck = state.config.deck
    grid = state.grid
    if spirit is Spirit.BOREA:
        colour = deck.colour(grid[here])
        targets.update(i for i in range(CELLS) if not blocked[i] and deck.colour(grid[i]) == colour)
    elif spirit is Spirit.JUGO:
        icon = deck.icon(grid[here])
        targets.update(i for i in range(CELLS) if not blocked[i] and deck.icon(grid[i]) == icon)
    elif spirit is Spirit.ETESIA:
        targets.update(diagonal_reach(here, blocked))
    targets.discard(here)
    return sorted(targets)


def breeze_movers(state: GameState, blocked: Sequence[bool]) -> tuple[list[int], int | None]:
    """The free cards the active spirit's Breeze may take hold of, and Austro's cross centre.

    A Breeze swaps a *qualifying* card with any other free card (Austro: both in his cross).
    Skyron's qualifying card is his own, which is occupied by himself; it is returned if not
    anchored.
    """
    pos = state.pawns[state.active]
    if pos is None:
        return [], None
    spirit = state.active_spirit
    here = index(pos.cell)
    deck = state.config.deck
    grid = state.grid
    if spirit is Spirit.SKYRON:
        return ([] if pos.cell in state.anchored else [here]), None
    if spirit is Spirit.AUSTRO:
        cross = CROSSES[here]
        return [i for i in range(CELLS) if cross[i] and not blocked[i]], here
    if spirit is Spirit.BOREA:
        icon = deck.icon(grid[here])
        return [i for i in range(CELLS) if not blocked[i] and deck.icon(grid[i]) == icon], None
    if spirit is Spirit.JUGO:
        colour = deck.colour(grid[here])
        movers = [i for i in range(CELLS) if not blocked[i] and deck.colour(grid[i]) == colour]
        return movers, None
    # Etesia: a free card orthogonally adjacent to her.
    return [n for n in NEIGHBOURS[here] if not blocked[n]], None


def breeze_options(
    state: GameState, blocked: Sequence[bool], max_cost: int
) -> list[tuple[int, int, int]]:
    """Every Breeze ``(a, b, cost)`` of the active spirit costing at most ``max_cost``.

    Skyron: ``a`` is his own cell. Others: each unordered pair once, ``a < b``. One BFS per
    qualifying card, never one per pair.
    """
    movers, centre = breeze_movers(state, blocked)
    region = CROSSES[centre] if centre is not None else None
    if state.active_spirit is Spirit.SKYRON:
        out: list[tuple[int, int, int]] = []
        for src in movers:
            dist = breeze_distances(src, blocked)
            out.extend(
                (src, t, d) for t, d in enumerate(dist) if 0 < d <= max_cost and not blocked[t]
            )
        return out
    pairs: dict[tuple[int, int], int] = {}
    for src in movers:
        dist = breeze_distances(src, blocked, region)
        for t, d in enumerate(dist):
            if 0 < d <= max_cost and not blocked[t]:
                key = (src, t) if src < t else (t, src)
                pairs[key] = d
    return [(a, b, d) for (a, b), d in sorted(pairs.items())]
