"""The action notation: canonical forms, short forms, island numbers, round trips, errors."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from zefiria.engine.actions import (
    Action,
    Breeze,
    ChooseFirst,
    ChooseSleeper,
    EndTurn,
    Fly,
    Leave,
    Place,
    Retrieve,
    Spend,
)
from zefiria.engine.errors import InvalidActionError
from zefiria.engine.grid import ALL_CELLS
from zefiria.engine.notation import (
    describe_action,
    format_action,
    format_cell,
    parse_action,
    parse_cell,
)
from zefiria.engine.rules import legal_actions
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import GameConfig, GameState, Mode, Phase, Position

from tests.engine.test_records import random_play

cells = st.sampled_from(ALL_CELLS)
spirits = st.sampled_from(list(Spirit))


@st.composite
def skyron_breezes(draw: st.DrawFn) -> Breeze:
    a, b = draw(cells), draw(cells)
    return Breeze(a, b, draw(st.sampled_from([a, b])))


actions: st.SearchStrategy[Action] = st.one_of(
    st.builds(Place, cells),
    st.builds(Leave, cells),
    st.builds(Fly, cells),
    st.builds(Breeze, cells, cells),
    skyron_breezes(),
    st.builds(Retrieve, cells),
    st.builds(Spend, spirits),
    st.just(EndTurn()),
    st.builds(ChooseFirst, spirits),
    st.builds(ChooseSleeper, spirits),
)


def _state() -> GameState:
    """A hand-made turn state: islands laid out in reverse, Borea on island 24 (b1)."""
    config = GameConfig(players=2, mode=Mode.STANDARD, spirits=(Spirit.BOREA, Spirit.JUGO))
    return GameState(
        config=config,
        grid=tuple(range(25, 0, -1)),
        pawns=(Position((0, 1)), Position((4, 4))),
        phase=Phase.TURN,
        active=0,
        round=1,
        purple_left=5,
        ap=5,
    )


@given(actions)
def test_parse_inverts_format(action: Action) -> None:
    assert parse_action(format_action(action)) == action


@given(actions)
def test_format_is_canonical_and_lower_case(action: Action) -> None:
    text = format_action(action)
    assert text == text.lower().strip()
    assert format_action(parse_action(text.upper())) == text


def test_cells_are_column_letter_then_row_number_from_the_top() -> None:
    assert format_cell((0, 0)) == "a1"
    assert format_cell((0, 4)) == "e1"
    assert format_cell((4, 0)) == "a5"
    assert parse_cell("d2") == (1, 3)
    assert [parse_cell(format_cell(c)) for c in ALL_CELLS] == list(ALL_CELLS)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("fly c3", Fly((2, 2))),
        ("f c3", Fly((2, 2))),
        ("  FLY   C3 ", Fly((2, 2))),
        ("breeze b2 d2", Breeze((1, 1), (1, 3))),
        ("b b2, d2", Breeze((1, 1), (1, 3))),
        ("breeze c3 d4 stand d4", Breeze((2, 2), (3, 3), (3, 3))),
        ("b c3 d4 s c3", Breeze((2, 2), (3, 3), (2, 2))),
        ("retrieve b2", Retrieve((1, 1))),
        ("r b2", Retrieve((1, 1))),
        ("spend borea", Spend(Spirit.BOREA)),
        ("s bor", Spend(Spirit.BOREA)),
        ("end", EndTurn()),
        ("e", EndTurn()),
        ("end turn", EndTurn()),
        ("place a1", Place((0, 0))),
        ("p e5", Place((4, 4))),
        ("leave a3", Leave((2, 0))),
        ("first jugo", ChooseFirst(Spirit.JUGO)),
        ("sleep etesia", ChooseSleeper(Spirit.ETESIA)),
        ("z sky", ChooseSleeper(Spirit.SKYRON)),
    ],
)
def test_canonical_and_short_forms(text: str, action: Action) -> None:
    assert parse_action(text) == action


def test_island_numbers_resolve_against_the_state() -> None:
    state = _state()  # reverse layout: island k lies in cell index 25 - k
    assert parse_action("fly #24", state) == Fly((0, 1))
    assert parse_action("breeze #18 #10", state) == Breeze((1, 2), (3, 0))
    assert parse_action("fly #24 ".upper(), state) == Fly((0, 1))


def test_skyron_stand_by_island_names_the_card_he_rides() -> None:
    # Island 25 is at a1, island 13 at c3. "stand #25": he stays on the card numbered 25,
    # which the swap carries to c3.
    state = _state()
    assert parse_action("breeze #25 #13 stand #25", state) == Breeze((0, 0), (2, 2), (2, 2))
    assert parse_action("breeze #25 #13 stand #13", state) == Breeze((0, 0), (2, 2), (0, 0))


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty"),
        ("jump c3", "unknown action 'jump'"),
        ("fly", "needs one cell"),
        ("fly c3 c4", "needs one cell"),
        ("fly f1", "not a cell"),
        ("fly a6", "not a cell"),
        ("fly a0", "not a cell"),
        ("fly #24", "island numbers need a game"),
        ("breeze b2", "needs two cells"),
        ("breeze b2 d2 sit d2", "needs two cells"),
        ("spend", "one spirit name"),
        ("spend zephyr", "unknown spirit"),
        ("end now", "nothing after it"),
    ],
)
def test_bad_text_is_refused_with_the_text_and_the_reason(text: str, why: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        parse_action(text)
    assert repr(text) in str(info.value)
    assert why in str(info.value)
    assert isinstance(info.value, ValueError)


def test_bad_island_numbers() -> None:
    with pytest.raises(InvalidActionError, match="#26"):
        parse_action("fly #26", _state())
    with pytest.raises(InvalidActionError, match="#x"):
        parse_action("fly #x", _state())


def test_format_refuses_off_grid_cells() -> None:
    with pytest.raises(ValueError, match=r"\(5, 0\)"):
        format_action(Fly((5, 0)))


def test_describe_uses_island_numbers() -> None:
    state = _state()
    assert describe_action(Fly((0, 0)), state, cost=1) == "Borea flies to 25 (1 AP)"
    assert describe_action(Breeze((1, 2), (3, 0)), state, cost=2) == (
        "Borea swaps 18 and 10 (2 AP)"
    )
    assert describe_action(Spend(Spirit.JUGO), state, cost=0) == (
        "Jugo spends a red gem: +1 AP for Borea"
    )
    assert describe_action(EndTurn(), state, cost=0) == "Borea ends the turn (5 AP unused)"
    assert "scambia 18 e 10 (2 PA)" in describe_action(
        Breeze((1, 2), (3, 0)), state, cost=2, lang="it"
    )


def _island_form(action: Action, state: GameState) -> str:
    """The action written with island numbers, as a person reading the table would."""

    def isl(cell: tuple[int, int]) -> str:
        return f"#{state.island_at(cell)}"

    match action:
        case Breeze(a, b, stand):
            text = f"breeze {isl(a)} {isl(b)}"
            if stand is None:
                return text
            # "stand #k" names the card he ends on, numbered as it lies before the swap.
            return f"{text} stand {isl(b) if stand == a else isl(a)}"
        case Fly(cell) | Place(cell) | Leave(cell) | Retrieve(cell):
            return f"{format_action(action).split()[0]} {isl(cell)}"
    return format_action(action)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 150))
def test_every_legal_action_round_trips_in_both_forms(seed: int, steps: int) -> None:
    _, state = random_play(seed, steps)
    for action, cost in legal_actions(state):
        assert parse_action(format_action(action)) == action
        assert parse_action(_island_form(action, state), state) == action
        sentence = describe_action(action, state)
        if cost:
            assert sentence.endswith(f"({cost} AP)")


def test_doctests() -> None:
    import zefiria.engine.notation as module

    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0
