"""JSON records: exact round trips of states reached by play, and precise refusals."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from zefiria.engine.actions import Action, EndTurn, Fly
from zefiria.engine.deck import Tornado, default_deck
from zefiria.engine.errors import RecordError
from zefiria.engine.records import (
    GameRecord,
    dumps_record,
    dumps_state,
    loads_any,
    loads_record,
    loads_state,
    record_from_json,
    record_to_json,
    state_from_json,
    state_to_json,
)
from zefiria.engine.rules import apply_action, legal_actions
from zefiria.engine.setup import new_game
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Difficulty, GameConfig, GameState, Mode, Phase


def random_config(rnd: random.Random) -> GameConfig:
    players = rnd.randint(1, 4)
    spirits = tuple(rnd.sample(list(Spirit), 3 if players == 1 else players))
    difficulty = rnd.choice(list(Difficulty)) if players == 1 else None
    return GameConfig(players, rnd.choice(list(Mode)), spirits, difficulty)


def random_play(seed: int, steps: int) -> tuple[GameRecord, GameState]:
    """Up to ``steps`` random legal actions from a random setup; ends turns rarely."""
    rnd = random.Random(seed)
    config = random_config(rnd)
    record = GameRecord.start(config, seed=seed)
    state = record.initial_state()
    actions: list[Action] = []
    for _ in range(steps):
        if state.phase is Phase.OVER:
            break
        options = [p.action for p in legal_actions(state)]
        moves = [a for a in options if a != EndTurn()]
        action = rnd.choice(moves) if moves and rnd.random() < 0.8 else rnd.choice(options)
        state = apply_action(state, action)
        actions.append(action)
    return record.with_actions(actions, state), state


def standard_state() -> GameState:
    """Two players, both pawns placed: round 1, Borea to play."""
    config = GameConfig(2, Mode.STANDARD, (Spirit.BOREA, Spirit.JUGO))
    state = new_game(config, seed=3)
    for action in ("place a1", "place e5"):
        state = apply_action(state, _parse(action, state))
    return state


def _parse(text: str, state: GameState) -> Action:
    from zefiria.engine.notation import parse_action

    return parse_action(text, state)


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


# -- round trips ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 120))
def test_states_reached_by_play_round_trip_exactly(seed: int, steps: int) -> None:
    _, state = random_play(seed, steps)
    text = dumps_state(state)
    assert loads_state(text) == state
    assert state_from_json(json.loads(text)) == state
    assert dumps_state(loads_state(text)) == text


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 200))
def test_game_records_round_trip_and_replay(seed: int, steps: int) -> None:
    record, state = random_play(seed, steps)
    text = dumps_record(record)
    back = loads_record(text)
    assert back == record
    assert back.replay() == state
    without_final = replace(record, final=None)
    assert loads_record(dumps_record(without_final)) == without_final
    assert record_from_json(record_to_json(record)) == record


def test_whole_games_in_every_mode_round_trip() -> None:
    for seed in range(12):
        record, state = random_play(seed, 10_000)
        assert state.phase is Phase.OVER
        assert loads_any(dumps_record(record)) == record
        assert loads_any(dumps_state(state)) == state


def test_a_record_with_a_chosen_grid_and_sleeper() -> None:
    config = GameConfig(1, Mode.STORM, (Spirit.BOREA, Spirit.JUGO, Spirit.ETESIA), Difficulty.HARD)
    grid = tuple(range(25, 0, -1))
    record = GameRecord.start(config, seed=9, grid=grid, sleeper=Spirit.JUGO)
    assert record.grid == grid and record.sleeper is Spirit.JUGO
    data = record_to_json(record)
    assert data["chosen"] == ["grid", "sleeper"]
    assert loads_record(dumps_record(record)) == record


def test_a_custom_deck_is_written_in_full_and_read_back() -> None:
    deck = replace(default_deck(), storms=(Tornado(1), Tornado(2)), source="my deck")
    config = GameConfig(2, Mode.STORM, (Spirit.SKYRON, Spirit.AUSTRO), deck=deck)
    state = new_game(config, seed=1)
    data = state_to_json(state)
    assert data["config"]["deck"]["storms"] == [
        {"kind": "tornado", "turns": 1},
        {"kind": "tornado", "turns": 2},
    ]
    assert loads_state(dumps_state(state)) == state
    assert state_to_json(new_game(replace(config, deck=default_deck()), seed=1))["config"][
        "deck"
    ] == ("default")


def test_layout_is_for_people() -> None:
    record, _ = random_play(4, 30)
    text = dumps_record(record)
    data = json.loads(text)
    assert data["format"] == "zefiria-game" and data["version"] == 1
    # One action per line, in the notation.
    lines = text.splitlines()
    for n, action in enumerate(data["actions"]):
        assert lines[_line_of(text, '"actions"') + n].strip().rstrip(",") == json.dumps(action)
    state_text = dumps_state(record.replay())
    assert re.search(r'"grid": \[\n    \[\d+, \d+, \d+, \d+, \d+\],', state_text)
    assert re.search(r'"rng": "\d+"', state_text)


# -- refusals ------------------------------------------------------------------------------


def _bad_state(edit: Any) -> tuple[str, str]:
    """Dump a valid state, let ``edit`` change its dict, and return (text, error message)."""
    data = state_to_json(standard_state())
    edit(data)
    text = json.dumps(data, indent=2)
    with pytest.raises(RecordError) as info:
        loads_state(text, source="save.json")
    return text, str(info.value)


def test_syntax_errors_give_json_line() -> None:
    text = dumps_state(standard_state())
    broken = text.replace('"ap": 5,', '"ap": 5,,')
    line = _line_of(text, '"ap"')
    with pytest.raises(RecordError, match=rf"save\.json, line {line}: not valid JSON"):
        loads_state(broken, source="save.json")


@pytest.mark.parametrize(
    ("edit", "needle", "why"),
    [
        (lambda d: d["grid"][2].__setitem__(1, d["grid"][0][0]), None, "appears twice"),
        (lambda d: d["grid"].pop(), '"grid"', "needs 5 rows"),
        (lambda d: d["pawns"].__setitem__("jugo", {"cell": [0, 0]}), '"jugo": {', "same card"),
        (
            lambda d: d["pawns"].__setitem__("jugo", {"cell": [5, 0]}),
            None,
            "jugo.cell: cell [5, 0] is off",
        ),
        (lambda d: d["pawns"].__setitem__("jugo", {"outside": [0, 0]}), '"jugo": {', "only Austro"),
        (lambda d: d.__setitem__("colour", "red"), '"colour"', "unknown key"),
        (lambda d: d.__setitem__("ap", 99), '"ap"', "out of range"),
        (lambda d: d.__setitem__("ap", "5"), '"ap"', "whole number"),
        (lambda d: d.__setitem__("phase", "dancing"), '"phase"', "not a phase"),
        (lambda d: d.__setitem__("rng", 12), '"rng"', "decimal string"),
        (lambda d: d.__setitem__("rng", str(2**64)), '"rng"', "decimal string"),
        (lambda d: d.__setitem__("version", 2), '"version"', "newer"),
        (lambda d: d.__setitem__("format", "chess"), '"format"', "zefiria-state"),
        (lambda d: d.__setitem__("anchored", [[1, 1]]), '"anchored"', "standard game"),
        (lambda d: d.__setitem__("purple_left", 2), '"purple_left"', "does not add up"),
        (lambda d: d["config"].__setitem__("players", 3), '"spirits": [', "need 3 spirits"),
        (lambda d: d["config"].__setitem__("difficulty", "easy"), '"difficulty"', "solo"),
        (lambda d: d.__setitem__("sleeping", "borea"), '"sleeping"', "solo"),
        (lambda d: d.__setitem__("active", "austro"), '"active"', "not playing"),
        (lambda d: d["config"].__setitem__("deck", "fancy"), '"deck"', "full deck"),
        (lambda d: d.__setitem__("storm_deck", [{"kind": "tornado"}]), None, "[0]: missing key"),
    ],
)
def test_semantic_errors_name_the_line_and_reason(edit: Any, needle: str | None, why: str) -> None:
    text, message = _bad_state(edit)
    assert why in message
    match = re.match(r"save\.json, line (\d+): ", message)
    assert match, message
    if needle is not None:
        assert int(match.group(1)) == _line_of(text, needle), message


def test_grid_error_points_at_the_row() -> None:
    text, message = _bad_state(lambda d: d["grid"][2].__setitem__(1, d["grid"][0][0]))
    assert "line " in message
    line = int(message.split("line ")[1].split(":")[0])
    assert text.splitlines()[line - 1].strip() == "["  # indent=2 puts row 2's bracket here
    assert "grid[2]" in message


def test_state_from_dict_errors_have_no_line_but_the_path() -> None:
    data = state_to_json(standard_state())
    data["pawns"]["jugo"] = {"cell": [0, 0]}
    with pytest.raises(RecordError, match=r"^state: pawns\.jugo: Jugo and Borea stand"):
        state_from_json(data)


@pytest.mark.parametrize("document", ["[]", '"hello"', "{}", "null", "1"])
def test_non_objects_are_refused(document: str) -> None:
    with pytest.raises(RecordError):
        loads_state(document)
    with pytest.raises(RecordError):
        loads_record(document)


def _record_text(steps: int = 12) -> tuple[GameRecord, str]:
    record, _ = random_play(11, steps)
    return record, dumps_record(record)


def test_an_illegal_action_in_a_record_names_its_line() -> None:
    _, text = _record_text()
    data = json.loads(text)
    data["actions"].insert(3, "fly c3")
    data["actions"].insert(3, "fly c3")  # two flies to the same cell: at least one is illegal
    data.pop("final")
    bad = dumps_record_dict(data)
    with pytest.raises(RecordError) as info:
        loads_record(bad, source="game.json")
    message = str(info.value)
    line = int(re.match(r"game\.json, line (\d+): actions\[(\d+)\]", message).group(1))  # type: ignore[union-attr]
    assert bad.splitlines()[line - 1].strip().rstrip(",") == '"fly c3"'
    assert "is illegal" in message


def dumps_record_dict(data: dict[str, Any]) -> str:
    from zefiria.engine.records import pretty_json

    return pretty_json(data)


def test_bad_notation_in_a_record_names_its_line() -> None:
    _, text = _record_text()
    data = json.loads(text)
    data["actions"][1] = "jump a1"
    bad = dumps_record_dict(data)
    with pytest.raises(RecordError, match=r"unknown action 'jump'") as info:
        loads_record(bad, source="g")
    line = int(str(info.value).split("line ")[1].split(":")[0])
    assert "jump a1" in bad.splitlines()[line - 1]


def test_a_final_state_that_does_not_match_is_refused() -> None:
    _, text = _record_text()
    data = json.loads(text)
    data["final"]["ap"] = (data["final"]["ap"] + 1) % 5
    bad = dumps_record_dict(data)
    with pytest.raises(RecordError, match=r"first difference: ap") as info:
        loads_record(bad)
    line = int(str(info.value).split("line ")[1].split(":")[0])
    assert '"ap"' in bad.splitlines()[line - 1]


def test_a_grid_the_seed_does_not_deal_is_refused() -> None:
    _, text = _record_text()
    data = json.loads(text)
    data["grid"][0][0], data["grid"][0][1] = data["grid"][0][1], data["grid"][0][0]
    with pytest.raises(RecordError, match="does not deal this grid"):
        loads_record(dumps_record_dict(data))


def test_loading_a_bad_record_never_returns_a_half_game() -> None:
    _, text = _record_text(30)
    data = json.loads(text)
    data["actions"].append("fly z9")
    with pytest.raises(RecordError):
        loads_record(dumps_record_dict(data))


def test_fly_round_trips_in_records() -> None:
    # A record written by hand with island numbers and short forms is read in full.
    state = standard_state()
    record = GameRecord.start(state.config, seed=3)
    target = next(p.action for p in legal_actions(state) if isinstance(p.action, Fly))
    data = record_to_json(record)
    data["actions"] = ["p a1", "PLACE e5", f"f #{state.island_at(target.to)}", "e"]
    back = record_from_json(data)
    assert back.actions[2] == target and back.actions[3] == EndTurn()


def test_loads_any_names_both_formats_when_neither_matches() -> None:
    with pytest.raises(RecordError, match=r'line 1: format: expected "format": "zefiria-state" or'):
        loads_any('{"format": "chess-pgn"}', source="x.json")
    with pytest.raises(RecordError, match=r"x\.json, line 1: document: expected"):
        loads_any("[1, 2]", source="x.json")


@pytest.mark.parametrize(
    ("edit", "why"),
    [
        (lambda d: d.__setitem__("phase", "choose_first"), "solo phase"),
        (lambda d: d.__setitem__("phase", "austro_exit"), "Austro's choice"),
    ],
)
def test_phases_must_fit_the_game(edit: Any, why: str) -> None:
    _, message = _bad_state(edit)
    assert why in message


def _storm_state_json() -> dict[str, Any]:
    config = GameConfig(2, Mode.STORM, (Spirit.BOREA, Spirit.JUGO))
    state = new_game(config, seed=3)
    for text in ["place a1", "place e5", "end", "end"]:
        state = apply_action(state, _parse(text, state))
    assert state.round == 2 and state.last_storm is not None
    return state_to_json(state)


@pytest.mark.parametrize(
    ("effect", "target2", "ok"),
    [
        ("nothing", None, True),  # target 1 home but already anchored, or no gem in the pool
        ("nothing", [0, 0], True),
        ("anchored", None, True),
        ("anchored", [0, 0], False),
        ("swapped", None, False),
    ],
)
def test_storm_events_and_their_second_target(
    effect: str, target2: list[int] | None, ok: bool
) -> None:
    data = _storm_state_json()
    data["last_storm"]["effect"] = effect
    data["last_storm"]["target2"] = target2
    if ok:
        assert state_from_json(data).last_storm.effect.value == effect  # type: ignore[union-attr]
    else:
        with pytest.raises(RecordError, match=r"last_storm\.target2"):
            state_from_json(data)
