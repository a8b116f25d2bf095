"""The explainer: from the engine's state and the camera's table to the actions taken."""

from __future__ import annotations

import doctest
import importlib
import random
from dataclasses import replace

import pytest
from zefiria.engine.actions import Breeze, Fly, Leave, Retrieve, Spend
from zefiria.engine.deck import Tornado
from zefiria.engine.differences import (
    CardDifference,
    GemDifference,
    PawnDifference,
    check_storm,
    table_differences,
)
from zefiria.engine.errors import Reason
from zefiria.engine.explain import explain
from zefiria.engine.grid import ALL_CELLS, index
from zefiria.engine.observation import (
    Observation,
    ReadingError,
    observation_from_reading,
    observation_of,
)
from zefiria.engine.rules import apply_action
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import GameState, Mode, Phase, Position, StormEffect, StormEvent
from zefiria.engine.storm import swap_cards

from .builders import grid_with, turn_state
from .turns import mid_game, random_turn

B, J, E, S, A = Spirit.BOREA, Spirit.JUGO, Spirit.ETESIA, Spirit.SKYRON, Spirit.AUSTRO


def seen(state: GameState) -> Observation:
    return observation_of(state)


def played(state: GameState, *actions: Breeze | Fly | Retrieve) -> Observation:
    """The table after ``actions``, played on a copy with AP to spare (no end of turn)."""
    table = replace(state, ap=99)
    for action in actions:
        table = apply_action(table, action)
    return observation_of(table)


@pytest.mark.parametrize("name", ["observation", "differences"])
def test_doctests(name: str) -> None:
    module = importlib.import_module(f"zefiria.engine.{name}")
    assert doctest.testmod(module).failed == 0


# -- the simple cases ----------------------------------------------------------------------------
def test_unchanged_table() -> None:
    state = turn_state({B: (0, 0), J: (4, 4)}, B)
    verdict = explain(state, seen(state))
    assert verdict.kind == "unchanged"
    assert verdict.best is not None and verdict.best.actions == () and verdict.best.cost == 0


def test_single_fly() -> None:
    state = turn_state({B: (0, 0), J: (4, 4)}, B)
    verdict = explain(state, played(state, Fly((0, 1))))
    assert verdict.kind == "legal"
    assert verdict.best is not None
    assert verdict.best.actions == (Fly((0, 1)),) and verdict.best.cost == 1
    assert verdict.best.state.ap == 4


def test_rulebook_borea_on_24_swaps_18_and_10_for_2_ap() -> None:
    grid = grid_with({24: (4, 4), 18: (1, 1), 10: (2, 2)})
    state = turn_state({B: (4, 4), J: (4, 0)}, B, grid=grid)
    verdict = explain(state, played(state, Breeze((1, 1), (2, 2))))
    assert verdict.best is not None
    assert verdict.best.actions == (Breeze((1, 1), (2, 2)),) and verdict.best.cost == 2
    assert "swaps 18 and 10 (2 AP)" in verdict.message
    # By the ambiguity policy, the 5-AP route through a third card (b3) is another minimal
    # explanation: the device charges the 2 AP and says so.
    assert verdict.kind == "ambiguous"
    assert [e.cost for e in verdict.explanations] == [2, 5]


def test_the_input_state_is_not_changed() -> None:
    grid = grid_with({24: (4, 4), 18: (1, 1), 10: (2, 2)})
    state = turn_state({B: (4, 4), J: (4, 0)}, B, grid=grid)
    copy = replace(state)
    explain(state, played(state, Fly((3, 4)), Breeze((1, 1), (2, 2))))
    explain(state, played(replace(state, anchored=frozenset({(0, 0)})), Fly((3, 4))))
    assert state == copy


# -- whole turns, reconstructed ------------------------------------------------------------------
@pytest.mark.parametrize("spirit", list(Spirit))
def test_random_turns_are_explained_at_no_more_than_their_cost(spirit: Spirit) -> None:
    for seed in range(24):
        start = mid_game(1000 * seed + 17, spirit)
        turn = random_turn(start, random.Random(seed))
        obs = observation_of(turn.table)
        verdict = explain(start, obs)
        assert verdict.kind in ("legal", "ambiguous", "unchanged"), (seed, verdict.message)
        best = verdict.best
        assert best is not None
        assert best.cost <= turn.cost, (seed, turn.actions, best.actions)
        assert best.table.grid == obs.grid
        assert dict(best.table.pawns) == dict(obs.pawns)
        assert best.table.gems == obs.gems
        costs = [e.cost for e in verdict.explanations]
        assert costs == sorted(costs)


def test_random_turns_read_with_unreadable_cells() -> None:
    for seed in range(30):
        start = mid_game(7 * seed + 3, list(Spirit)[seed % 5])
        rng = random.Random(seed)
        turn = random_turn(start, rng)
        full = observation_of(turn.table)
        grid = list(full.grid)
        for i in rng.sample(range(25), 3):
            grid[i] = None
        obs = replace(full, grid=tuple(grid))
        verdict = explain(start, obs)
        assert verdict.best is not None and verdict.best.cost <= turn.cost, seed
        table = verdict.best.table.grid
        assert all(seen is None or seen == got for seen, got in zip(grid, table, strict=True))


def test_random_wrong_tables_are_illegal_with_consistent_differences() -> None:
    illegal = 0
    for seed in range(30):
        start = mid_game(11 * seed + 5, list(Spirit)[seed % 5])
        rng = random.Random(seed)
        turn = random_turn(start, rng)
        obs = observation_of(turn.table)
        grid = list(obs.grid)
        a, b = rng.sample(range(25), 2)
        grid[a], grid[b] = grid[b], grid[a]
        verdict = explain(start, replace(obs, grid=tuple(grid)))
        if verdict.kind != "illegal":
            continue
        illegal += 1
        assert verdict.nearest is not None and verdict.best is None
        assert verdict.nearest.cost <= start.ap + sum(start.gems_held) + len(start.anchored)
        nearest_table = verdict.nearest.table
        wrong = {d.cell for d in verdict.differences if isinstance(d, CardDifference)}
        assert wrong == {c for c in ALL_CELLS if grid[index(c)] != nearest_table.grid[index(c)]}
        assert verdict.message
    assert illegal >= 15


def test_a_whole_turn_fly_breeze_fly_breeze() -> None:
    # Borea on 24 (e5) flies to 20 (e4), swaps 10 into b1, flies to 16 (d4) and swaps 3
    # into b3: all four show a snowflake. 4 AP, four actions, in one reading.
    grid = grid_with({24: (4, 4), 20: (3, 4), 10: (0, 0), 3: (2, 2), 16: (3, 3)})
    state = turn_state({B: (4, 4), J: (4, 0)}, B, grid=grid)
    obs = played(state, Fly((3, 4)), Breeze((0, 0), (0, 1)), Fly((3, 3)), Breeze((2, 2), (2, 1)))
    verdict = explain(state, obs)
    assert verdict.best is not None and verdict.best.cost <= 4
    assert verdict.best.table.grid == obs.grid


# -- illegal tables ------------------------------------------------------------------------------
def test_swapping_an_anchored_card_is_illegal_with_reason_and_what_to_put_back() -> None:
    grid = grid_with({24: (4, 4), 18: (1, 1), 10: (2, 2)})
    state = turn_state({B: (4, 4), J: (4, 0)}, B, grid=grid, mode=Mode.STORM, anchored=[(2, 2)])
    obs = played(replace(state, anchored=frozenset()), Breeze((1, 1), (2, 2)))
    obs = replace(obs, gems=frozenset({(2, 2)}))
    verdict = explain(state, obs)
    assert verdict.kind == "illegal"
    assert verdict.reason is Reason.ANCHORED
    assert verdict.nearest is not None and verdict.nearest.actions == ()
    assert set(verdict.differences) == {
        CardDifference((1, 1), 18, 10),
        CardDifference((2, 2), 10, 18),
    }
    assert "card 18 should be in b2, card 10 in c3" in verdict.message


def test_a_swap_beyond_the_ap_is_not_enough_ap() -> None:
    state = turn_state({S: (0, 0), J: (2, 4)}, S)
    obs = played(replace(state, ap=99), Breeze((0, 0), (4, 4), (4, 4)))
    verdict = explain(state, obs)
    assert verdict.kind == "illegal"
    assert verdict.reason is Reason.NOT_ENOUGH_AP
    assert verdict.best is None


def test_a_legal_turn_dearer_than_the_ap_is_not_enough_ap() -> None:
    grid = grid_with({24: (4, 4), 18: (1, 1), 10: (2, 2)})
    state = turn_state({B: (4, 4), J: (4, 0)}, B, grid=grid, ap=2)
    obs = played(state, Breeze((1, 1), (2, 2)), Fly((3, 4)))
    verdict = explain(state, obs)
    assert verdict.kind == "illegal" and verdict.reason is Reason.NOT_ENOUGH_AP
    assert "costs 3 AP and only 2 were left" in verdict.message
    assert verdict.nearest is not None and verdict.nearest.cost <= 2


def test_a_swap_without_borea_s_icon_is_wrong_icon() -> None:
    grid = grid_with({24: (4, 4)})  # 24 shows a snowflake; 1 and 2 do not
    # With 1 AP she cannot first fly to a card showing a wave or a feather.
    state = turn_state({B: (4, 4), J: (4, 0)}, B, grid=grid, ap=1)
    table = list(state.grid)
    table[0], table[1] = table[1], table[0]
    verdict = explain(state, replace(seen(state), grid=tuple(table)))
    assert verdict.kind == "illegal" and verdict.reason is Reason.WRONG_ICON


def test_the_nearest_table_keeps_the_legal_part_of_the_turn() -> None:
    grid = grid_with({24: (4, 4), 18: (1, 1), 10: (2, 2)})
    state = turn_state({B: (4, 4), J: (4, 0)}, B, grid=grid, ap=2)
    obs = played(state, Breeze((1, 1), (2, 2)))
    table = list(obs.grid)
    table[index((0, 3))], table[index((0, 4))] = table[index((0, 4))], table[index((0, 3))]
    verdict = explain(state, replace(obs, grid=tuple(table)))
    assert verdict.kind == "illegal"
    assert verdict.nearest is not None and Breeze((1, 1), (2, 2)) in verdict.nearest.actions
    assert {d.cell for d in verdict.differences if isinstance(d, CardDifference)} == {
        (0, 3),
        (0, 4),
    }


def test_another_spirit_s_pawn_moved_is_illegal() -> None:
    state = turn_state({B: (0, 0), J: (4, 4)}, B)
    obs = seen(state)
    obs = replace(obs, pawns={B: Position((0, 0)), J: Position((4, 3))})
    verdict = explain(state, obs)
    assert verdict.kind == "illegal"
    assert PawnDifference(J, Position((4, 4)), Position((4, 3))) in verdict.differences
    assert "Jugo's pawn should be on card 25 (e5)" in verdict.message


# -- ambiguity -----------------------------------------------------------------------------------
def test_direct_swap_or_route_through_a_third_card_is_ambiguous() -> None:
    # Skyron on e5 swaps his card with d5 and stands there (1 AP); he could also fly to d5,
    # swap it up to d4, swap d4 with e5 and back again (5 AP): same table, other changes.
    state = turn_state({S: (4, 4), J: (0, 0)}, S)
    obs = played(state, Breeze((4, 4), (4, 3), (4, 3)))
    verdict = explain(state, obs)
    assert verdict.kind == "ambiguous"
    costs = [e.cost for e in verdict.explanations]
    assert costs[0] == 1 and costs == sorted(costs) and len(set(costs)) > 1
    assert "charged the cheapest" in verdict.message


def test_roundabout_flights_are_not_ambiguous() -> None:
    state = turn_state({B: (0, 0), J: (4, 4)}, B)
    verdict = explain(state, played(state, Fly((1, 0)), Fly((1, 1)), Fly((0, 1))))
    assert verdict.kind == "legal"
    assert verdict.best is not None and verdict.best.cost == 1


def test_max_extra_ap_and_spent_gems() -> None:
    grid = grid_with({24: (4, 4), 18: (1, 1), 10: (2, 2)})
    state = turn_state(
        {B: (4, 4), J: (4, 0)}, B, grid=grid, ap=1, mode=Mode.STORM, gems_held={J: 1}
    )
    obs = played(state, Breeze((1, 1), (2, 2)))
    verdict = explain(state, obs)
    assert verdict.kind in ("legal", "ambiguous") and verdict.best is not None
    assert verdict.best.actions == (Spend(J), Breeze((1, 1), (2, 2)))
    assert verdict.best.cost == 2
    refused = explain(state, obs, max_extra_ap=0)
    assert refused.kind == "illegal" and refused.reason is Reason.NOT_ENOUGH_AP


# -- unreadable cells ----------------------------------------------------------------------------
def test_unreadable_cells_are_wildcards() -> None:
    grid = grid_with({24: (4, 4), 18: (1, 1), 10: (2, 2)})
    state = turn_state({B: (4, 4), J: (4, 0)}, B, grid=grid)
    obs = played(state, Breeze((1, 1), (2, 2)))
    table = list(obs.grid)
    table[index((2, 2))] = None
    table[index((3, 3))] = None
    verdict = explain(state, replace(obs, grid=tuple(table)))
    assert verdict.kind in ("legal", "ambiguous") and verdict.best is not None
    assert verdict.best.actions == (Breeze((1, 1), (2, 2)),)
    uncertain = replace(obs, uncertain=frozenset({(1, 1), (2, 2)}))
    assert explain(state, uncertain).kind == "unchanged"


# -- the spirits' special cases ------------------------------------------------------------------
def test_austro_flies_outside_and_breezes_in_his_cross() -> None:
    state = turn_state({A: (0, 2), B: (4, 4)}, A, outside=True)
    obs = played(state, Fly((2, 4)), Breeze((2, 0), (2, 2)))
    verdict = explain(state, obs)
    assert verdict.kind in ("legal", "ambiguous") and verdict.best is not None
    assert verdict.best.actions == (Fly((2, 4)), Breeze((2, 0), (2, 2)))
    assert verdict.best.table.pawns[A] == Position((2, 4), outside=True)


def test_austro_seen_on_the_card_beside_him_stands_beside_it() -> None:
    state = turn_state({A: (0, 2), B: (4, 4)}, A, outside=True)
    obs = played(state, Fly((2, 4)))
    on_card = replace(obs, pawns={A: Position((2, 4)), B: Position((4, 4))})
    verdict = explain(state, on_card)
    assert verdict.kind == "legal" and verdict.best is not None
    assert verdict.best.actions == (Fly((2, 4)),)


def test_austro_s_free_exit_from_an_inner_card_is_part_of_the_explanation() -> None:
    state = turn_state({A: (2, 2), B: (4, 4)}, A)
    state = replace(state, phase=Phase.AUSTRO_EXIT)
    obs = replace(seen(state), pawns={A: Position((2, 4), outside=True)})
    verdict = explain(state, obs)
    assert verdict.kind == "legal" and verdict.best is not None
    assert verdict.best.actions == (Leave((2, 4)),) and verdict.best.cost == 0
    obs = replace(seen(state), pawns={A: Position((0, 0), outside=True)})
    verdict = explain(state, obs)
    assert verdict.best is not None and verdict.best.cost == 1
    assert verdict.best.actions[0] in {Leave(c) for c in ((0, 2), (2, 0), (2, 4), (4, 2))}


def test_skyron_travels_with_his_card() -> None:
    state = turn_state({S: (0, 0), J: (4, 4)}, S)
    obs = played(state, Breeze((0, 0), (0, 2), (0, 2)))
    verdict = explain(state, obs)
    assert verdict.best is not None
    assert verdict.best.actions == (Breeze((0, 0), (0, 2), (0, 2)),)
    assert verdict.best.cost == 2


def test_etesia_flies_along_a_diagonal() -> None:
    state = turn_state({E: (0, 4), B: (0, 0)}, E)
    verdict = explain(state, played(state, Fly((3, 1))))
    assert verdict.kind in ("legal", "ambiguous") and verdict.best is not None
    assert verdict.best.actions == (Fly((3, 1)),) and verdict.best.cost == 1


def test_a_gem_gone_from_a_card_was_retrieved() -> None:
    state = turn_state({B: (0, 0), J: (4, 4)}, B, mode=Mode.STORM, anchored=[(2, 2)])
    obs = replace(seen(state), gems=frozenset())
    verdict = explain(state, obs)
    assert verdict.kind in ("legal", "ambiguous") and verdict.best is not None
    assert verdict.best.actions == (Retrieve((2, 2)),)
    appeared = replace(seen(state), gems=frozenset({(2, 2), (1, 1)}))
    wrong = explain(state, appeared)
    assert wrong.kind == "illegal"
    assert GemDifference((1, 1), False) in wrong.differences


# -- checking the table --------------------------------------------------------------------------
def test_table_differences() -> None:
    state = turn_state({B: (0, 0), J: (4, 4)}, B)
    assert table_differences(state, seen(state)) == []
    obs = played(replace(state, active=1), Fly((4, 3)))
    assert table_differences(state, obs) == [PawnDifference(J, Position((4, 4)), Position((4, 3)))]


def test_check_storm_pending_done_and_wrong() -> None:
    before = turn_state({B: (0, 0), J: (4, 4)}, B, mode=Mode.STORM)
    event = StormEvent(
        2, Tornado(1), before.config.deck.grids[0], 0, (1, 1), (1, 3), StormEffect.SWAPPED
    )
    after = replace(swap_cards(before, (1, 1), (1, 3)), last_storm=event)
    assert check_storm(after, seen(after)).kind == "done"
    pending = check_storm(after, seen(before))
    assert pending.kind == "pending"
    assert "swap them" in pending.message and "b2" in pending.message
    wrong = check_storm(after, played(before, Fly((0, 1))))
    assert wrong.kind == "wrong"


def test_check_storm_keeps_austro_landing_but_not_his_exit() -> None:
    """Austro beside his card is fine while he plays, not once his turn has ended.

    (A 2-player storm demo: Austro ended the round at 0 AP, so the engine landed him on
    card 22; the storm changed nothing on the table, the check said "done", nobody put him
    on his card, and Jugo's next legal Fly was refused because Austro was "out of place".)
    """
    landed = turn_state({J: (0, 0), A: (4, 2)}, J, mode=Mode.STORM)
    event = StormEvent(
        2, Tornado(1), landed.config.deck.grids[0], 0, (1, 1), (1, 3), StormEffect.SWAPPED
    )
    landed = replace(swap_cards(landed, (1, 1), (1, 3)), last_storm=event)
    beside = replace(landed, pawns=(landed.pawns[0], Position((4, 2), outside=True)))
    not_landed = check_storm(landed, seen(beside))
    assert not_landed.kind == "wrong"
    assert not_landed.differences == (
        PawnDifference(A, Position((4, 2)), Position((4, 2), outside=True)),
    )
    # His own turn: on his card or already stepped off it, the storm is done either way.
    playing = replace(landed, active=1, pawns=beside.pawns)
    assert check_storm(playing, seen(landed)).kind == "done"
    assert check_storm(playing, seen(playing)).kind == "done"


# -- the camera contract -------------------------------------------------------------------------
def test_observation_from_reading() -> None:
    reading = {
        "status": "ok",
        "grid": [
            [1, 2, 3, 4, 5],
            [6, 7, 8, 9, 10],
            [11, 12, None, 14, 15],
            [16, 17, 18, 19, 20],
            [21, 22, 23, 24, 25],
        ],
        "pawns": {"borea": {"cell": [0, 0]}, "austro": {"outside": [2, 4]}},
        "gems": [[3, 1]],
        "uncertain": [],
        "ms": 41.2,
        "future_key": True,
    }
    obs = observation_from_reading(reading)
    assert obs.grid[index((2, 2))] is None and obs.grid[index((4, 4))] == 25
    assert obs.pawns == {B: Position((0, 0)), A: Position((2, 4), outside=True)}
    assert obs.gems == frozenset({(3, 1)})
    assert obs == observation_from_reading(reading) and len({obs, replace(obs)}) == 1
    with pytest.raises(ReadingError, match="hand"):
        observation_from_reading({"status": "unreadable", "reason": "hand over the cards"})
    twice = dict(reading, grid=[[1, 1, 3, 4, 5], *reading["grid"][1:]])  # type: ignore[misc]
    with pytest.raises(ReadingError, match="read twice"):
        observation_from_reading(twice)
