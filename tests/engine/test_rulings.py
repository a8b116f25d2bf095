"""One test (at least) per ruling in RULINGS.md, with the refusal reasons and messages."""

from __future__ import annotations

from dataclasses import replace

import pytest
from zefiria.engine.actions import Breeze, EndTurn, Fly, Leave, Retrieve, Spend
from zefiria.engine.errors import IllegalActionError, Reason
from zefiria.engine.rules import (
    action_cost,
    apply_action,
    check_action,
    is_legal,
    legal_actions,
)
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Mode, Phase, Position

from .builders import cell_of, grid_with, turn_state

B, J, E, S, A = Spirit.BOREA, Spirit.JUGO, Spirit.ETESIA, Spirit.SKYRON, Spirit.AUSTRO


def refusal(state, action) -> IllegalActionError:  # type: ignore[no-untyped-def]
    error = check_action(state, action)
    assert error is not None, f"{action} should be refused"
    with pytest.raises(IllegalActionError) as info:
        apply_action(state, action)
    assert info.value.reason is error.reason
    assert str(info.value) == str(error)
    return error


# -- Fly --------------------------------------------------------------------------------------
def test_fly_never_ends_on_an_occupied_card() -> None:
    state = turn_state({B: (0, 0), J: (0, 1)}, B)
    err = refusal(state, Fly((0, 1)))
    assert err.reason is Reason.OCCUPIED
    assert str(err) == "Borea cannot fly to card 2: card 2 is occupied by Jugo"


def test_fly_never_ends_on_an_anchored_card() -> None:
    state = turn_state({B: (0, 0), J: (4, 4)}, B, mode=Mode.STORM, anchored=[(1, 0)])
    assert refusal(state, Fly((1, 0))).reason is Reason.ANCHORED


def test_fly_to_own_cell_is_refused() -> None:
    state = turn_state({B: (0, 0), J: (4, 4)}, B)
    assert refusal(state, Fly((0, 0))).reason is Reason.SAME_CELL


def test_skyron_flies_only_to_adjacent_cards() -> None:
    state = turn_state({S: (0, 0), J: (4, 4)}, S)
    assert action_cost(state, Fly((1, 0))) == 1
    err = refusal(state, Fly((1, 1)))
    assert err.reason is Reason.NOT_ADJACENT
    flies = {p.action for p in legal_actions(state) if isinstance(p.action, Fly)}
    assert flies == {Fly((0, 1)), Fly((1, 0))}


def test_borea_colour_jump_ignores_what_lies_between() -> None:
    # 21..25 are pink in the default deck; 23 at (0, 0), 24 at (0, 4), pawns in between.
    grid = grid_with({23: (0, 0), 24: (0, 4)})
    state = turn_state({B: (0, 0), J: (0, 2), E: (0, 3)}, B, grid=grid)
    assert is_legal(state, Fly((0, 4)))


def test_borea_cannot_fly_to_another_colour_far_away() -> None:
    grid = grid_with({23: (0, 0), 7: (3, 3)})
    state = turn_state({B: (0, 0), J: (4, 4)}, B, grid=grid)
    err = refusal(state, Fly((3, 3)))
    assert err.reason is Reason.WRONG_COLOUR
    assert "(pink); card 7 is orange" in str(err)


def test_jugo_cannot_fly_to_another_icon_far_away() -> None:
    grid = grid_with({11: (0, 0), 1: (3, 3)})
    state = turn_state({J: (0, 0), B: (4, 4)}, J, grid=grid)
    err = refusal(state, Fly((3, 3)))
    assert err.reason is Reason.WRONG_ICON
    assert "(dragon); card 1 shows a wave" in str(err)


def test_etesia_diagonal_fly_stops_at_a_pawn_or_gem() -> None:
    state = turn_state({E: (0, 0), B: (2, 2)}, E)
    assert is_legal(state, Fly((1, 1)))
    err = refusal(state, Fly((3, 3)))
    assert err.reason is Reason.BLOCKED_PATH
    assert "cannot fly over card 13" in str(err)
    anchored = turn_state({E: (0, 0), B: (4, 0)}, E, mode=Mode.STORM, anchored=[(1, 1)])
    assert refusal(anchored, Fly((4, 4))).reason is Reason.BLOCKED_PATH


def test_etesia_cannot_fly_like_a_knight() -> None:
    state = turn_state({E: (0, 0), B: (4, 4)}, E)
    assert refusal(state, Fly((1, 2))).reason is Reason.NOT_ON_DIAGONAL


# -- Breeze costs and paths -----------------------------------------------------------------
def test_breeze_cost_is_the_shortest_clear_path() -> None:
    # Etesia on (2, 2); swap (2, 1) with (2, 4): the straight path (3 AP) overflies her, so
    # the moving card goes round: (2,1)->(1,1)->(1,2)->(1,3)->(2,3)->(2,4) = 5 AP.
    state = turn_state({E: (2, 2), B: (4, 4)}, E, ap=5)
    assert action_cost(state, Breeze((2, 1), (2, 4))) == 5
    free = turn_state({E: (0, 0), B: (4, 4)}, E)
    assert action_cost(free, Breeze((0, 1), (0, 2))) == 1


def test_breeze_never_moves_an_occupied_card() -> None:
    state = turn_state({E: (2, 2), B: (2, 3)}, E)
    err = refusal(state, Breeze((2, 3), (0, 0)))
    assert err.reason is Reason.OCCUPIED
    assert str(err) == "Etesia cannot swap card 14: card 14 is occupied by Borea"


def test_breeze_never_moves_an_anchored_card() -> None:
    state = turn_state({E: (2, 2), B: (4, 4)}, E, mode=Mode.STORM, anchored=[(0, 0)])
    assert refusal(state, Breeze((2, 3), (0, 0))).reason is Reason.ANCHORED


def test_breeze_without_a_clear_path_is_illegal() -> None:
    # Corner (0, 0) walled in by a pawn and a gem: nothing can reach it.
    state = turn_state({E: (1, 1), B: (0, 1), J: (4, 4)}, E, mode=Mode.STORM, anchored=[(1, 0)])
    err = refusal(state, Breeze((1, 2), (0, 0)))
    assert err.reason is Reason.NO_PATH
    assert "every path overflies an occupied or anchored card" in str(err)


def test_breeze_costing_more_than_the_ap_left_is_refused() -> None:
    state = turn_state({E: (0, 0), B: (4, 4)}, E, ap=2)
    err = refusal(state, Breeze((0, 1), (3, 1)))
    assert err.reason is Reason.NOT_ENOUGH_AP
    assert str(err) == "This Breeze costs 3 AP and Etesia has 2 AP left"


def test_breeze_of_a_card_with_itself_is_refused() -> None:
    state = turn_state({E: (0, 0), B: (4, 4)}, E)
    assert refusal(state, Breeze((0, 1), (0, 1))).reason is Reason.SAME_CELL


def test_only_skyron_names_a_stand_cell() -> None:
    state = turn_state({E: (0, 0), B: (4, 4)}, E)
    assert refusal(state, Breeze((0, 1), (0, 2), (0, 1))).reason is Reason.BAD_STAND


# -- each spirit's Breeze ----------------------------------------------------------------------
def test_borea_breeze_needs_her_icon_with_a_precise_message() -> None:
    grid = grid_with({24: (4, 4), 18: (1, 1), 7: (1, 2)})
    state = turn_state({B: (4, 4), J: (4, 0)}, B, grid=grid)
    err = refusal(state, Breeze((1, 1), (1, 2)))
    assert err.reason is Reason.WRONG_ICON
    assert str(err) == (
        "Borea can only swap a card showing her card's icon (snowflake); "
        "card 18 shows a dragon and card 7 shows a dragon"
    )


def test_jugo_breeze_needs_his_colour() -> None:
    grid = grid_with({25: (4, 4), 1: (0, 0), 2: (0, 1)})
    state = turn_state({J: (4, 4), B: (4, 0)}, J, grid=grid)
    err = refusal(state, Breeze((0, 0), (0, 1)))
    assert err.reason is Reason.WRONG_COLOUR
    assert "(pink); card 1 is green and card 2 is yellow" in str(err)


def test_etesia_breeze_needs_a_card_orthogonally_adjacent_to_her() -> None:
    state = turn_state({E: (2, 2), B: (4, 4)}, E)
    assert is_legal(state, Breeze((1, 2), (4, 0)))  # one card touches her: enough
    err = refusal(state, Breeze((1, 1), (0, 0)))  # diagonal is not orthogonal
    assert err.reason is Reason.NOT_ADJACENT_TO_SPIRIT


def test_skyron_breeze_swaps_his_own_card_and_carries_him() -> None:
    state = turn_state({S: (0, 0), B: (4, 4)}, S, ap=8)
    err = refusal(state, Breeze((1, 1), (2, 2), (1, 1)))
    assert err.reason is Reason.NOT_OWN_CARD
    err = refusal(state, Breeze((0, 0), (0, 1)))
    assert err.reason is Reason.BAD_STAND
    err = refusal(state, Breeze((0, 0), (0, 1), (3, 3)))
    assert err.reason is Reason.BAD_STAND
    # Either order of the cells names the same Breeze.
    assert action_cost(state, Breeze((0, 2), (0, 0), (0, 2))) == 2
    breezes = [p.action for p in legal_actions(state) if isinstance(p.action, Breeze)]
    assert all(b.a == (0, 0) and b.stand in (b.a, b.b) for b in breezes)
    assert len(breezes) == 2 * 23  # every other free card, two stand choices each


def test_skyron_cannot_swap_with_an_occupied_card() -> None:
    state = turn_state({S: (0, 0), B: (0, 1)}, S)
    assert refusal(state, Breeze((0, 0), (0, 1), (0, 1))).reason is Reason.OCCUPIED


def test_skyron_cannot_move_his_anchored_card() -> None:
    state = turn_state({S: (0, 0), B: (4, 4)}, S, mode=Mode.STORM, anchored=[(0, 0)])
    assert refusal(state, Breeze((0, 0), (0, 1), (0, 1))).reason is Reason.ANCHORED


def test_austro_breeze_stays_in_his_cross() -> None:
    state = turn_state({A: (0, 2), B: (4, 4)}, A, outside=True)
    err = refusal(state, Breeze((0, 0), (1, 1)))
    assert err.reason is Reason.OUTSIDE_CROSS
    assert "card 7 is in neither" in str(err)
    # A path may turn where the row and column meet: (0, 0) -> (0, 2) -> (3, 2).
    assert action_cost(state, Breeze((0, 0), (3, 2))) == 5


def test_austro_breeze_path_may_not_leave_the_cross() -> None:
    # Beside (0, 2), with a pawn on (1, 2): (0, 2) row and column are cut at (1, 2), so
    # (3, 2) is unreachable within the cross though a detour outside exists.
    state = turn_state({A: (0, 2), B: (1, 2)}, A, outside=True)
    err = refusal(state, Breeze((0, 0), (3, 2)))
    assert err.reason is Reason.NO_PATH and "within his cross" in str(err)


def test_austro_is_beside_the_new_card_after_swapping_his_cell() -> None:
    state = turn_state({A: (0, 2), B: (4, 4)}, A, outside=True)
    state = apply_action(state, Breeze((0, 2), (2, 2)))
    assert state.pawns[0] == Position((0, 2), outside=True)
    assert state.island_at((0, 2)) == 13


# -- Austro around the grid ----------------------------------------------------------------
def test_austro_flies_beside_any_free_edge_card_for_1_ap() -> None:
    state = turn_state({A: (0, 0), B: (0, 4)}, A, outside=True)
    flies = {p.action.to for p in legal_actions(state) if isinstance(p.action, Fly)}
    edges = {(r, c) for r in range(5) for c in range(5) if r in (0, 4) or c in (0, 4)}
    assert flies == edges - {(0, 0), (0, 4)}
    assert action_cost(state, Fly((4, 4))) == 1
    assert refusal(state, Fly((2, 2))).reason is Reason.NOT_EDGE
    assert refusal(state, Fly((0, 4))).reason is Reason.OCCUPIED
    assert refusal(state, Fly((0, 0))).reason is Reason.SAME_CELL


def test_austro_leaves_the_grid_at_turn_start_and_lands_at_turn_end() -> None:
    state = turn_state({B: (4, 4), A: (0, 3)}, B)
    state = apply_action(state, EndTurn())
    assert state.pawns[1] == Position((0, 3), outside=True)
    assert (0, 3) not in state.occupied_cells()
    state = apply_action(state, Fly((4, 0)))
    state = apply_action(state, EndTurn())
    assert state.pawns[1] == Position((4, 0))


def test_austro_on_an_inner_card_leaves_to_the_nearest_side() -> None:
    state = turn_state({B: (4, 4), A: (1, 2)}, B)
    state = apply_action(state, EndTurn())
    assert state.phase is Phase.TURN and state.pawns[1] == Position((0, 2), outside=True)


def test_austro_tie_exit_is_the_players_choice() -> None:
    state = turn_state({B: (4, 4), A: (1, 1)}, B)
    state = apply_action(state, EndTurn())
    assert state.phase is Phase.AUSTRO_EXIT
    assert [p.action for p in legal_actions(state)] == [Leave((0, 1)), Leave((1, 0))]
    err = refusal(state, Leave((4, 1)))
    assert err.reason is Reason.NOT_A_CHOICE
    assert refusal(state, Fly((0, 1))).reason is Reason.WRONG_PHASE
    state = apply_action(state, Leave((1, 0)))
    assert state.phase is Phase.TURN and state.pawns[1] == Position((1, 0), outside=True)
    assert state.ap == 5


def test_austro_must_end_beside_a_free_card() -> None:
    state = turn_state({A: (0, 1), B: (0, 1)}, A, outside=True)
    err = refusal(state, EndTurn())
    assert err.reason is Reason.LANDING_NOT_FREE
    assert EndTurn() not in {p.action for p in legal_actions(state)}


def test_austro_may_not_strand_himself_beside_a_taken_card() -> None:
    # Beside card 2, which Borea occupies, with 2 AP: a 2-AP Breeze would leave him unable to
    # fly beside a free card or to land (house ruling: refused).
    state = turn_state({A: (0, 1), B: (0, 1)}, A, outside=True, ap=2)
    err = refusal(state, Breeze((0, 2), (0, 4)))
    assert err.reason is Reason.LANDING_NOT_FREE
    assert is_legal(state, Breeze((0, 2), (0, 3)))  # 1 AP: one left to fly on


# -- storm mode: gems ------------------------------------------------------------------------
def test_must_fly_away_from_an_anchored_card_first() -> None:
    state = turn_state({B: (4, 4), J: (0, 0)}, B, mode=Mode.STORM, anchored=[(0, 0)])
    state = replace(state, gems_held=(1, 0), gem_pool=4)
    state = apply_action(state, EndTurn())  # Jugo's turn: a gem lies on his card
    assert state.must_leave
    err = refusal(state, Breeze((1, 1), (4, 2)))
    assert err.reason is Reason.MUST_LEAVE_FIRST
    assert "first action must be a Fly away" in str(err)
    assert refusal(state, Retrieve((0, 0))).reason is Reason.MUST_LEAVE_FIRST
    assert refusal(state, EndTurn()).reason is Reason.MUST_LEAVE_FIRST
    kinds = {type(p.action) for p in legal_actions(state)}
    assert kinds == {Fly, Spend}
    state = apply_action(state, Spend(B))  # spending is allowed before the forced Fly
    assert state.ap == 6 and state.must_leave
    state = apply_action(state, Fly((0, 1)))
    assert not state.must_leave and state.ap == 5
    assert is_legal(state, Retrieve((0, 0)))


def test_forced_fly_that_cannot_happen_leaves_the_turn_normal() -> None:
    # Jugo on anchored card 11 (a dragon) in a corner, boxed in by Etesia and Skyron, and
    # every other dragon (7, 13, 18, 25) anchored too: no Fly exists.
    grid = grid_with({11: (0, 0)})
    state = turn_state(
        {B: (4, 4), J: (0, 0), E: (0, 1), S: (1, 0)},
        B,
        grid=grid,
        mode=Mode.STORM,
        anchored=[(0, 0)],
    )
    dragons = [cell_of(state, k) for k in (7, 13, 18, 25)]
    state = replace(state, anchored=state.anchored | set(dragons), gem_pool=1)
    state = apply_action(state, EndTurn())
    assert state.active_spirit is J and not state.must_leave
    assert is_legal(state, EndTurn())


def test_austro_leaves_an_anchored_card_anyway() -> None:
    state = turn_state({B: (4, 4), A: (0, 2)}, B, mode=Mode.STORM, anchored=[(0, 2)])
    state = apply_action(state, EndTurn())
    assert state.pawns[1] == Position((0, 2), outside=True) and not state.must_leave
    assert refusal(state, EndTurn()).reason is Reason.LANDING_NOT_FREE


def test_retrieve_takes_a_gem_for_the_active_spirit() -> None:
    state = turn_state({B: (0, 0), J: (4, 4)}, B, mode=Mode.STORM, anchored=[(2, 2)])
    assert action_cost(state, Retrieve((2, 2))) == 1
    state = apply_action(state, Retrieve((2, 2)))
    assert state.anchored == frozenset() and state.gems_held == (1, 0) and state.ap == 4
    assert refusal(state, Retrieve((2, 2))).reason is Reason.NO_GEM


def test_gems_exist_only_in_storm_mode() -> None:
    state = turn_state({B: (0, 0), J: (4, 4)}, B)
    assert refusal(state, Retrieve((2, 2))).reason is Reason.NOT_STORM_MODE
    assert refusal(state, Spend(B)).reason is Reason.NOT_STORM_MODE


def test_only_the_holder_spends_and_the_active_spirit_gains() -> None:
    state = turn_state({B: (0, 0), J: (4, 4)}, B, mode=Mode.STORM, gems_held={J: 1}, ap=2)
    err = refusal(state, Spend(B))
    assert err.reason is Reason.NO_GEM and str(err) == "Borea holds no red gem to spend"
    state = apply_action(state, Spend(J))
    assert state.ap == 3 and state.gems_held == (0, 0) and state.gems_returned == 1
    assert refusal(state, Spend(E)).reason is Reason.NOT_A_CHOICE


def test_turn_ends_by_itself_at_0_ap_unless_a_gem_could_be_spent() -> None:
    state = turn_state({B: (0, 0), J: (4, 4)}, B, ap=1)
    after = apply_action(state, Fly((0, 1)))
    assert after.active_spirit is J and after.ap == 5
    storm = turn_state({B: (0, 0), J: (4, 4)}, B, ap=1, mode=Mode.STORM, gems_held={J: 1})
    after = apply_action(storm, Fly((0, 1)))
    assert after.active_spirit is B and after.ap == 0
    assert {p.action for p in legal_actions(after)} == {Spend(J), EndTurn()}


def test_a_turn_may_end_with_ap_left() -> None:
    state = turn_state({B: (0, 0), J: (4, 4)}, B)
    assert apply_action(state, EndTurn()).active_spirit is J


# -- solo ---------------------------------------------------------------------------------------
def test_sleeping_pawn_blocks_like_any_other() -> None:
    state = turn_state({B: (0, 0), J: (0, 1), E: (4, 4)}, B, players=1)
    assert state.sleeping is J
    assert refusal(state, Fly((0, 1))).reason is Reason.OCCUPIED
    assert refusal(state, Breeze((0, 2), (0, 1))).reason is Reason.OCCUPIED


def test_solo_gems_belong_to_the_one_player() -> None:
    state = turn_state(
        {B: (0, 0), J: (0, 2), E: (4, 4)}, B, players=1, mode=Mode.STORM, gems_held={J: 1}
    )
    assert state.sleeping is J
    assert is_legal(state, Spend(J))


def test_a_refused_action_leaves_the_state_unchanged() -> None:
    state = turn_state({B: (0, 0), J: (0, 1)}, B, mode=Mode.STORM, anchored=[(2, 2)])
    snapshot = (hash(state), state.grid, state.pawns, state.ap, state.anchored)
    for action in (Fly((0, 1)), Breeze((2, 2), (3, 3)), Retrieve((4, 4)), Spend(B)):
        with pytest.raises(IllegalActionError) as info:
            apply_action(state, action)
        assert info.value.action == action
    assert snapshot == (hash(state), state.grid, state.pawns, state.ap, state.anchored)


def test_wrong_phase_messages_say_what_to_do() -> None:
    state = turn_state({B: (0, 0), J: (4, 4)}, B)
    err = refusal(state, Leave((0, 1)))
    assert err.reason is Reason.WRONG_PHASE
    assert str(err) == "Choosing Austro's exit is not possible now: it is Borea's turn"
    err = refusal(state, Fly((9, 9)))
    assert err.reason is Reason.OFF_GRID and "(9, 9) is not a cell" in str(err)
