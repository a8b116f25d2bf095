"""Storm mode: the storm at every round start from round 2, anchoring, Tornado, Blizzard."""

from __future__ import annotations

from dataclasses import replace

from zefiria.engine.actions import EndTurn, Leave
from zefiria.engine.deck import Blizzard, GridCard, Tornado
from zefiria.engine.grid import Direction, rotate_clockwise
from zefiria.engine.rules import apply_action, legal_actions
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import GameState, Mode, Phase, Position, StormEffect
from zefiria.engine.storm import strike, target_two

from .builders import grid_with, turn_state

B, J = Spirit.BOREA, Spirit.JUGO


def stormy(storm, card: GridCard, rotation: int = 0, **kw) -> GameState:  # type: ignore[no-untyped-def]
    state = turn_state({B: (0, 0), J: (4, 4)}, B, mode=Mode.STORM, **kw)
    return replace(state, storm_deck=(storm,), grid_deck=((card, rotation),), round=2)


def test_target_one_is_the_marked_cell_at_the_cards_rotation() -> None:
    grid = grid_with({2: (1, 1), 10: (0, 1)})  # (0, 1) holds 10: not home
    state = stormy(Tornado(1), GridCard((0, 1)), rotation=0, grid=grid)
    after = strike(state)
    event = after.last_storm
    assert event is not None and event.target1 == (0, 1)
    assert event.target2 == rotate_clockwise((0, 1), 1) == (1, 4)
    assert event.effect is StormEffect.SWAPPED
    assert after.island_at((1, 4)) == 10 and after.island_at((0, 1)) == state.island_at((1, 4))
    assert after.storm_deck == () and after.grid_deck == ()


def test_rotation_then_tornado_turns_add_up() -> None:
    assert target_two(Tornado(3), GridCard((0, 1)), 2) == rotate_clockwise((0, 1), 5)


def test_blizzard_counts_steps_and_wraps_round() -> None:
    assert target_two(Blizzard(Direction.WEST, 2), GridCard((0, 1)), 0) == (0, 4)
    assert target_two(Blizzard(Direction.SOUTH, 3), GridCard((3, 1)), 0) == (1, 1)
    grid = grid_with({10: (3, 1)})
    state = stormy(Blizzard(Direction.SOUTH, 3), GridCard((3, 1)), grid=grid)
    after = strike(state)
    assert after.island_at((1, 1)) == 10


def test_a_home_card_at_target_one_is_anchored_with_a_pool_gem() -> None:
    state = stormy(Tornado(1), GridCard((0, 1)))  # solved grid: card 2 is home
    after = strike(state)
    assert after.last_storm is not None and after.last_storm.effect is StormEffect.ANCHORED
    assert after.last_storm.target2 is None
    assert (0, 1) in after.anchored and after.gem_pool == state.gem_pool - 1
    assert after.grid == state.grid


def test_anchoring_with_an_empty_pool_does_nothing() -> None:
    state = replace(stormy(Tornado(1), GridCard((0, 1))), gem_pool=0)
    after = strike(state)
    assert after.last_storm is not None and after.last_storm.effect is StormEffect.NOTHING
    assert after.anchored == frozenset()


def test_an_already_anchored_target_stays_as_it_is() -> None:
    state = stormy(Tornado(1), GridCard((0, 1)), anchored=[(0, 1)])
    after = strike(state)
    assert after.last_storm is not None and after.last_storm.effect is StormEffect.NOTHING
    assert after.gem_pool == state.gem_pool


def test_nothing_swaps_when_target_two_is_anchored() -> None:
    grid = grid_with({10: (0, 1)})
    state = stormy(Tornado(1), GridCard((0, 1)), grid=grid, anchored=[(1, 4)])
    after = strike(state)
    assert after.last_storm is not None and after.last_storm.effect is StormEffect.NOTHING
    assert after.grid == state.grid


def test_pawns_travel_with_their_cards() -> None:
    grid = grid_with({10: (0, 1)})
    state = stormy(Tornado(1), GridCard((0, 1)), grid=grid)
    state = replace(state, pawns=(Position((0, 1)), Position((1, 4))))
    after = strike(state)
    assert after.pawns == (Position((1, 4)), Position((0, 1)))


def test_a_gem_may_land_under_a_pawn() -> None:
    state = stormy(Tornado(1), GridCard((0, 1)))
    state = replace(state, pawns=(Position((0, 1)), Position((4, 4))))
    after = strike(state)
    assert (0, 1) in after.anchored


def test_storms_strike_from_round_two_in_storm_mode_only() -> None:
    state = turn_state({B: (0, 0), J: (4, 4)}, B, mode=Mode.STORM)
    state = replace(state, storm_deck=(Tornado(1),) * 7, grid_deck=((GridCard((1, 1)), 0),) * 6)
    assert state.last_storm is None
    state = apply_action(apply_action(state, EndTurn()), EndTurn())
    assert state.round == 2 and state.last_storm is not None and state.last_storm.round == 2
    assert len(state.storm_deck) == 6
    plain = turn_state({B: (0, 0), J: (4, 4)}, B)
    plain = apply_action(apply_action(plain, EndTurn()), EndTurn())
    assert plain.round == 2 and plain.last_storm is None


def test_an_exhausted_deck_is_rebuilt_and_reshuffled() -> None:
    state = turn_state({B: (0, 0), J: (4, 4)}, B, mode=Mode.STORM)
    state = replace(state, storm_deck=(), grid_deck=(), round=2)
    after = strike(state)
    assert after.last_storm is not None
    assert len(after.storm_deck) == 6 and len(after.grid_deck) == 5


def test_a_storm_can_carry_austro_inside_and_he_then_chooses_his_exit() -> None:
    a = Spirit.AUSTRO
    state = turn_state({B: (4, 4), a: (0, 1)}, B, mode=Mode.STORM, grid=grid_with({10: (0, 1)}))
    state = replace(
        state,
        storm_deck=(Blizzard(Direction.SOUTH, 1),),
        grid_deck=((GridCard((0, 1)), 0),),
    )
    state = apply_action(state, EndTurn())  # Austro's turn: he leaves beside card 10
    state = apply_action(state, EndTurn())  # he lands on 10; round 2: the blizzard strikes
    assert state.round == 2 and state.pawns[1] == Position((1, 1))
    state = apply_action(state, EndTurn())  # Borea's turn ends; Austro is on an inner card
    assert state.phase is Phase.AUSTRO_EXIT
    assert [p.action for p in legal_actions(state)] == [Leave((0, 1)), Leave((1, 0))]
