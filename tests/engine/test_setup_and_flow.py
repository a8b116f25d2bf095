"""Setup, pawn placement, rounds and turns."""

from __future__ import annotations

import pytest
from zefiria.engine.actions import ChooseFirst, ChooseSleeper, EndTurn, Fly, Place
from zefiria.engine.errors import IllegalActionError, Reason, ZefiriaError
from zefiria.engine.rules import apply_action, check_action, legal_actions
from zefiria.engine.setup import ConfigError, new_game
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Difficulty, GameConfig, Mode, Phase, Position

B, J, E, S, A = Spirit.BOREA, Spirit.JUGO, Spirit.ETESIA, Spirit.SKYRON, Spirit.AUSTRO


def config(players: int, mode: Mode = Mode.STANDARD, *spirits: Spirit) -> GameConfig:
    chosen = spirits or (B, J, E, S, A)[: 3 if players == 1 else players]
    diff = Difficulty.MEDIUM if players == 1 else None
    return GameConfig(players, mode, tuple(chosen), diff)


def placed(players: int, mode: Mode = Mode.STANDARD, seed: int = 3):
    state = new_game(config(players, mode), seed=seed)
    while state.phase is Phase.SETUP:
        state = apply_action(state, legal_actions(state)[0].action)
    return state


def test_new_game_is_seeded_and_shuffled() -> None:
    a = new_game(config(2, Mode.STORM), seed=11)
    b = new_game(config(2, Mode.STORM), seed=11)
    c = new_game(config(2, Mode.STORM), seed=12)
    assert a == b
    assert a.grid != c.grid
    assert sorted(a.grid) == list(range(1, 26))
    assert a.phase is Phase.SETUP and a.round == 0 and a.purple_left == 6
    assert a.gem_pool == 6 and len(a.storm_deck) == 7 and len(a.grid_deck) == 6
    assert all(0 <= rot <= 3 for _, rot in a.grid_deck)


def test_standard_mode_has_no_red_gems_or_decks() -> None:
    state = new_game(config(3), seed=1)
    assert state.gem_pool == 0 and state.storm_deck == () and state.grid_deck == ()


def test_given_grid_is_used_and_validated() -> None:
    grid = tuple(range(25, 0, -1))
    assert new_game(config(2), seed=0, grid=grid).grid == grid
    with pytest.raises(ZefiriaError, match="repeated: 3; missing: 4"):
        new_game(config(2), seed=0, grid=(1, 2, 3, 3, *range(5, 26)))
    with pytest.raises(ZefiriaError, match="25 island cards, got 3"):
        new_game(config(2), seed=0, grid=(1, 2, 3))
    with pytest.raises(ZefiriaError, match="from 1 to 25; got 26"):
        new_game(config(2), seed=0, grid=(26, *range(2, 26)))


@pytest.mark.parametrize(
    ("cfg", "message"),
    [
        (GameConfig(5, Mode.STANDARD, (B, J, E, S, A)), "1 to 4 players"),
        (GameConfig(0, Mode.STANDARD, ()), "1 to 4 players"),
        (GameConfig(2, Mode.STANDARD, (B, B)), "repeated: Borea"),
        (GameConfig(3, Mode.STANDARD, (B, J)), "3-player game uses 3 spirits, got 2"),
        (GameConfig(1, Mode.STANDARD, (B, J), Difficulty.EASY), "solo game uses 3 spirits"),
        (GameConfig(1, Mode.STANDARD, (B, J, E)), "needs a difficulty"),
        (GameConfig(2, Mode.STANDARD, (B, J), Difficulty.EASY), "solo games only"),
    ],
)
def test_bad_configs_are_refused(cfg: GameConfig, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        new_game(cfg, seed=0)


def test_purple_gems_per_player_count_and_difficulty() -> None:
    assert [new_game(config(n), seed=0).purple_left for n in (2, 3, 4)] == [6, 5, 4]
    solo = {
        d: new_game(GameConfig(1, Mode.STANDARD, (B, J, E), d), seed=0).purple_left
        for d in Difficulty
    }
    assert solo == {Difficulty.EASY: 7, Difficulty.MEDIUM: 6, Difficulty.HARD: 5}


def test_placement_on_corners_in_turn_order() -> None:
    state = new_game(config(3), seed=0)
    assert [p.action for p in legal_actions(state)] == [
        Place((0, 0)),
        Place((0, 4)),
        Place((4, 0)),
        Place((4, 4)),
    ]
    err = check_action(state, Place((2, 2)))
    assert err is not None and err.reason is Reason.NOT_A_CORNER
    state = apply_action(state, Place((0, 4)))
    assert state.active == 1 and state.pawns[0] == Position((0, 4))
    err = check_action(state, Place((0, 4)))
    assert err is not None and err.reason is Reason.OCCUPIED
    assert len(legal_actions(state)) == 3


def test_two_players_take_opposite_corners() -> None:
    state = apply_action(new_game(config(2), seed=0), Place((0, 4)))
    assert [p.action for p in legal_actions(state)] == [Place((4, 0))]
    err = check_action(state, Place((0, 0)))
    assert err is not None and err.reason is Reason.NOT_OPPOSITE_CORNER
    assert "opposite corners" in str(err)


def test_last_placement_starts_round_one() -> None:
    state = placed(2)
    assert state.phase is Phase.TURN and state.round == 1 and state.purple_left == 5
    assert state.active == 0 and state.ap == 5
    assert placed(3).ap == 4 and placed(4).ap == 4


def test_fly_during_setup_is_wrong_phase() -> None:
    state = new_game(config(2), seed=0)
    with pytest.raises(IllegalActionError) as info:
        apply_action(state, Fly((0, 1)))
    assert info.value.reason is Reason.WRONG_PHASE
    assert "place a pawn" in str(info.value)


def test_turns_rotate_and_rounds_count_purple_gems() -> None:
    state = placed(2)
    state = apply_action(state, EndTurn())
    assert state.active == 1 and state.round == 1
    state = apply_action(state, EndTurn())
    assert state.active == 0 and state.round == 2 and state.purple_left == 4
    rounds = 2
    while state.phase is not Phase.OVER:
        state = apply_action(state, EndTurn())
        if state.phase is Phase.TURN and state.active == 0:
            rounds += 1
    assert rounds == 6 and state.purple_left == 0


def test_game_over_refuses_everything() -> None:
    state = placed(4)
    while state.phase is not Phase.OVER:
        state = apply_action(state, EndTurn())
    assert legal_actions(state) == []
    err = check_action(state, EndTurn())
    assert err is not None and err.reason is Reason.GAME_OVER


def test_solo_rounds_choose_first_then_sleeper() -> None:
    state = new_game(config(1), seed=0, sleeper=E)
    for corner in ((0, 0), (0, 4), (4, 4)):
        state = apply_action(state, Place(corner))
    assert state.phase is Phase.CHOOSE_FIRST and state.round == 1
    assert {p.action for p in legal_actions(state)} == {ChooseFirst(B), ChooseFirst(J)}
    err = check_action(state, ChooseFirst(E))
    assert err is not None and err.reason is Reason.NOT_A_CHOICE
    state = apply_action(state, ChooseFirst(J))
    assert state.active_spirit is J and state.ap == 5
    state = apply_action(state, EndTurn())
    assert state.active_spirit is B and state.ap == 5
    state = apply_action(state, EndTurn())
    assert state.phase is Phase.CHOOSE_SLEEPER
    assert {p.action for p in legal_actions(state)} == {ChooseSleeper(J), ChooseSleeper(B)}
    state = apply_action(state, ChooseSleeper(B))
    assert state.phase is Phase.CHOOSE_FIRST and state.round == 2 and state.sleeping is B
    assert {p.action for p in legal_actions(state)} == {ChooseFirst(J), ChooseFirst(E)}


def test_solo_last_round_ends_without_choosing_a_sleeper() -> None:
    state = new_game(GameConfig(1, Mode.STANDARD, (B, J, E), Difficulty.HARD), seed=0)
    while state.phase is Phase.SETUP:
        state = apply_action(state, legal_actions(state)[0].action)
    sleepers = 0
    while state.phase is not Phase.OVER:
        if state.phase is Phase.CHOOSE_SLEEPER:
            sleepers += 1
        state = apply_action(
            state, legal_actions(state)[-1].action if state.phase is not Phase.TURN else EndTurn()
        )
    assert state.round == 5 and sleepers == 4
