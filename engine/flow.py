"""Rounds and turns: what happens between the players' actions.

Setup ends with the last Place; then rounds follow. A round starts by removing a purple gem
(the first round included) and, in storm mode from round 2 on, with a storm. Solo rounds
start with the choice of the first spirit. A turn starts with fresh AP; Austro leaves the
grid; a pawn standing on an anchored card must Fly away first. The round ends after every
spirit's turn (solo: both awake spirits); the game ends after the round in which the last
purple gem was removed.
"""

from __future__ import annotations

from dataclasses import replace

from .abilities import blocked_mask, fly_targets
from .grid import nearest_edge_cells
from .spirits import Spirit
from .state import GameState, Mode, Phase, Position
from .storm import strike


def begin_round(state: GameState) -> GameState:
    """Remove a purple gem, strike the storm (storm mode, round 2+), start the first turn."""
    state = replace(
        state,
        round=state.round + 1,
        purple_left=state.purple_left - 1,
        turns_done=0,
        played=(),
        last_storm=None,
        ap=0,
        must_leave=False,
    )
    if state.config.mode is Mode.STORM and state.round >= 2:
        state = strike(state)
    if state.config.solo:
        chooser = next(i for i, s in enumerate(state.spirits) if s is not state.sleeping)
        return replace(state, phase=Phase.CHOOSE_FIRST, active=chooser)
    return begin_turn(state, 0)


def begin_turn(state: GameState, active: int) -> GameState:
    """Fresh AP; Austro leaves the grid; a pawn on an anchored card must Fly away first."""
    state = replace(
        state, phase=Phase.TURN, active=active, ap=state.config.ap_per_turn, must_leave=False
    )
    pos = state.pawns[active]
    assert pos is not None
    if state.spirits[active] is Spirit.AUSTRO:
        if pos.outside:  # cannot happen in play; keeps the function total
            return state
        exits = nearest_edge_cells(pos.cell)
        if len(exits) > 1:
            # A storm carried him to an inner card with two nearest sides: the player picks.
            return replace(state, phase=Phase.AUSTRO_EXIT)
        return _with_pawn(state, active, Position(exits[0], outside=True))
    if pos.cell in state.anchored and fly_targets(state, blocked_mask(state)):
        # If no Fly away exists, the turn goes on normally (house ruling).
        state = replace(state, must_leave=True)
    return state


def leave(state: GameState, cell: tuple[int, int]) -> GameState:
    """Austro's tie exit: he goes outside beside ``cell`` and his turn proceeds."""
    return replace(_with_pawn(state, state.active, Position(cell, outside=True)), phase=Phase.TURN)


def end_turn(state: GameState) -> GameState:
    """Austro lands on the card beside him; then the next turn, or the end of the round."""
    pos = state.pawns[state.active]
    assert pos is not None
    if pos.outside:
        state = _with_pawn(state, state.active, Position(pos.cell))
    spirit = state.active_spirit
    state = replace(
        state,
        ap=0,
        must_leave=False,
        turns_done=state.turns_done + 1,
        played=(*state.played, spirit),
    )
    if state.config.solo:
        if len(state.played) < 2:
            second = next(
                i
                for i, s in enumerate(state.spirits)
                if s is not state.sleeping and s not in state.played
            )
            return begin_turn(state, second)
        return end_round(state)
    if state.active + 1 < len(state.spirits):
        return begin_turn(state, state.active + 1)
    return end_round(state)


def end_round(state: GameState) -> GameState:
    if state.purple_left == 0:
        return replace(state, phase=Phase.OVER, ap=0)
    if state.config.solo:
        return replace(state, phase=Phase.CHOOSE_SLEEPER)
    return begin_round(state)


def _with_pawn(state: GameState, i: int, pos: Position) -> GameState:
    pawns = list(state.pawns)
    pawns[i] = pos
    return replace(state, pawns=tuple(pawns))
