"""The rulebook's worked examples, each on a grid built so the printed geometry holds."""

from __future__ import annotations

from zefiria.engine.actions import Breeze, EndTurn, Fly
from zefiria.engine.rules import action_cost, apply_action, legal_actions
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Phase, Position

from .builders import cell_of, grid_with, turn_state

B, J, E, S, A = Spirit.BOREA, Spirit.JUGO, Spirit.ETESIA, Spirit.SKYRON, Spirit.AUSTRO


def test_borea_flies_from_23_to_24_by_colour() -> None:
    grid = grid_with({23: (0, 0), 24: (3, 3)})
    state = turn_state({B: (0, 0), J: (4, 4)}, B, grid=grid)
    assert action_cost(state, Fly((3, 3))) == 1
    after = apply_action(state, Fly((3, 3)))
    assert after.pawns[0] == Position((3, 3)) and after.ap == 4


def test_borea_on_24_swaps_18_and_10_for_2_ap() -> None:
    grid = grid_with({24: (4, 4), 18: (1, 1), 10: (2, 2)})
    state = turn_state({B: (4, 4), J: (4, 0)}, B, grid=grid)
    assert action_cost(state, Breeze((1, 1), (2, 2))) == 2
    after = apply_action(state, Breeze((2, 2), (1, 1)))
    assert cell_of(after, 10) == (1, 1) and cell_of(after, 18) == (2, 2) and after.ap == 3


def test_jugo_flies_from_11_to_25_by_icon() -> None:
    grid = grid_with({11: (0, 0), 25: (4, 2)})
    state = turn_state({J: (0, 0), B: (4, 4)}, J, grid=grid)
    assert action_cost(state, Fly((4, 2))) == 1


def test_jugo_on_25_swaps_14_and_23_for_2_ap() -> None:
    grid = grid_with({25: (4, 4), 14: (2, 1), 23: (3, 2)})
    state = turn_state({J: (4, 4), B: (0, 0)}, J, grid=grid)
    assert action_cost(state, Breeze((2, 1), (3, 2))) == 2


def test_etesia_flies_diagonally_from_5_to_6() -> None:
    grid = grid_with({5: (0, 4), 6: (3, 1)})
    state = turn_state({E: (0, 4), B: (0, 0)}, E, grid=grid)
    assert action_cost(state, Fly((3, 1))) == 1


def test_etesia_swaps_two_touching_her_for_2_then_two_touching_for_1() -> None:
    grid = grid_with({16: (1, 2), 12: (2, 1), 23: (2, 3), 17: (1, 3)})
    state = turn_state({E: (2, 2), B: (0, 0)}, E, grid=grid)
    assert action_cost(state, Breeze((1, 2), (2, 1))) == 2
    state = apply_action(state, Breeze((1, 2), (2, 1)))
    assert action_cost(state, Breeze((2, 3), (1, 3))) == 1
    state = apply_action(state, Breeze((2, 3), (1, 3)))
    assert state.ap == 2


def test_skyron_on_10_swaps_with_3_for_3_ap_and_stays_on_10() -> None:
    grid = grid_with({10: (0, 0), 3: (1, 2)})
    state = turn_state({S: (0, 0), B: (4, 4)}, S, grid=grid)
    assert action_cost(state, Breeze((0, 0), (1, 2), (1, 2))) == 3
    after = apply_action(state, Breeze((0, 0), (1, 2), stand=(1, 2)))
    assert cell_of(after, 10) == (1, 2) and cell_of(after, 3) == (0, 0)
    assert after.pawns[0] == Position((1, 2))  # still on card 10
    other = apply_action(state, Breeze((0, 0), (1, 2), stand=(0, 0)))
    assert other.pawns[0] == Position((0, 0))  # now on card 3


def test_austro_leaves_11_flies_beside_2_swaps_12_and_25_then_lands_on_2() -> None:
    grid = grid_with({11: (2, 0), 2: (0, 2), 12: (0, 0), 25: (1, 2)})
    state = turn_state({B: (4, 4), A: (2, 0)}, B, grid=grid)
    state = apply_action(state, EndTurn())  # Borea's turn ends, Austro's begins
    assert state.active_spirit is A and state.pawns[1] == Position((2, 0), outside=True)
    state = apply_action(state, Fly((0, 2)))
    assert state.ap == 4
    assert action_cost(state, Breeze((0, 0), (1, 2))) == 3
    state = apply_action(state, Breeze((0, 0), (1, 2)))
    assert state.ap == 1
    state = apply_action(state, EndTurn())
    assert state.phase is Phase.TURN and state.active_spirit is B and state.round == 2
    assert cell_of(state, 2) == (0, 2) and state.pawns[1] == Position((0, 2))


def test_austro_breeze_options_are_in_his_cross() -> None:
    state = turn_state({A: (0, 2), B: (4, 4)}, A, outside=True)
    for priced in legal_actions(state):
        if isinstance(priced.action, Breeze):
            for cell in (priced.action.a, priced.action.b):
                assert cell[0] == 0 or cell[1] == 2
