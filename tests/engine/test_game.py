"""The Game wrapper: push, undo (exactly), undo_turn, refused pushes."""

from __future__ import annotations

import pytest
from zefiria.engine.actions import Breeze, EndTurn, Fly, Place
from zefiria.engine.errors import IllegalActionError
from zefiria.engine.game import Game, NothingToUndoError
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import GameConfig, Mode, Phase

B, J, A = Spirit.BOREA, Spirit.JUGO, Spirit.AUSTRO


def started(mode: Mode = Mode.STORM) -> Game:
    game = Game.new(GameConfig(2, mode, (B, A)), seed=9, grid=range(1, 26))
    game.push(Place((0, 0)))
    game.push(Place((4, 4)))
    return game


def test_push_records_states_and_actions() -> None:
    game = started()
    assert game.actions == [Place((0, 0)), Place((4, 4))]
    assert game.state.phase is Phase.TURN and game.initial.phase is Phase.SETUP
    assert len(game.states) == 3


def test_refused_push_leaves_the_game_unchanged() -> None:
    game = started()
    before = (game.state, game.actions)
    with pytest.raises(IllegalActionError):
        game.push(Fly((3, 2)))
    assert (game.state, game.actions) == before


def test_undo_restores_the_exact_previous_state_including_a_round_start() -> None:
    game = started()
    game.push(EndTurn())
    before = game.state
    game.push(EndTurn())  # Austro lands; round 2 starts with a storm
    assert game.state.round == 2 and game.state.last_storm is not None
    assert game.undo() == EndTurn()
    assert game.state == before


def test_undo_with_nothing_to_undo() -> None:
    game = Game.new(GameConfig(2, Mode.STANDARD, (B, J)), seed=0)
    with pytest.raises(NothingToUndoError):
        game.undo()


def test_undo_turn_goes_back_to_the_turn_start() -> None:
    game = started(Mode.STANDARD)
    start = game.state
    game.push(Fly((0, 1)))
    game.push(Breeze((2, 1), (2, 2)))
    assert game.undo_turn() == [Fly((0, 1)), Breeze((2, 1), (2, 2))]
    assert game.state == start
    assert game.undo_turn() == []  # already at the start of the turn
    assert game.state == start


def test_undo_turn_after_an_automatic_turn_end_stays_in_the_new_turn() -> None:
    game = started(Mode.STANDARD)
    for to in ((0, 1), (0, 2), (0, 3), (1, 3), (2, 3)):
        game.push(Fly(to))
    assert game.state.active_spirit is A  # 0 AP: Borea's turn ended by itself
    assert game.undo_turn() == []
    game.undo()
    assert game.state.active_spirit is B and game.state.ap == 1


def test_replaying_the_actions_gives_the_same_state() -> None:
    game = started()
    for _ in range(12):
        game.push(game.legal_actions()[-1].action)
    again = Game(game.initial, game.actions)
    assert again.state == game.state
