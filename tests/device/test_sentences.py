"""The engine's refusals and put-back instructions in Italian, from its structured reasons."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from zefiria.device.referee.sentences import IT, say_differences, say_refusal, say_storm
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
from zefiria.engine.differences import CardDifference, GemDifference, PawnDifference, check_storm
from zefiria.engine.errors import IllegalActionError, Wording
from zefiria.engine.grid import ALL_CELLS
from zefiria.engine.observation import observation_of
from zefiria.engine.rules import apply_action, check_action, legal_actions
from zefiria.engine.setup import new_game
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Difficulty, GameConfig, GameState, Mode, Phase, Position

from .referee_doubles import simulated


def _tries(state: GameState, rng: random.Random) -> list[Action]:
    """Actions of every kind at this state, most of them illegal."""
    cells = list(ALL_CELLS)
    out: list[Action] = [Fly(c) for c in rng.sample(cells, 8)]
    out += [Breeze(rng.choice(cells), rng.choice(cells)) for _ in range(8)]
    out += [Breeze(rng.choice(cells), rng.choice(cells), rng.choice(cells)) for _ in range(3)]
    out += [Place(rng.choice(cells)), Leave(rng.choice(cells)), Retrieve(rng.choice(cells))]
    out += [EndTurn(), Fly((7, 7))]
    out += [Spend(s) for s in Spirit]
    out += [ChooseFirst(s) for s in Spirit] + [ChooseSleeper(s) for s in Spirit]
    return out


def _refusals(games: int = 12) -> list[IllegalActionError]:
    errors = []
    for seed in range(games):
        rng = random.Random(seed)
        players = 1 + seed % 4
        spirits = tuple(rng.sample(list(Spirit), 3 if players == 1 else players))
        config = GameConfig(
            players=players,
            mode=Mode.STORM if seed % 2 else Mode.STANDARD,
            spirits=spirits,
            difficulty=Difficulty.HARD if players == 1 else None,
        )
        state = new_game(config, seed=seed)
        for _ in range(120):
            if state.phase is Phase.OVER:
                break
            for action in _tries(state, rng):
                error = check_action(state, action)
                if error is not None:
                    errors.append(error)
            state = apply_action(state, rng.choice(legal_actions(state)).action)
    return errors


@pytest.fixture(scope="module")
def refusals() -> list[IllegalActionError]:
    return _refusals()


def test_every_refusal_of_the_rules_comes_with_its_wording(
    refusals: list[IllegalActionError],
) -> None:
    assert all(e.wording is not None for e in refusals)
    keys = {e.wording.key for e in refusals if e.wording is not None}
    assert len(keys) >= 20  # the random games reach most kinds of refusal


def test_every_refusal_reads_in_italian_and_english_stays_the_engines(
    refusals: list[IllegalActionError],
) -> None:
    for error in refusals:
        italian = say_refusal(error.wording, error.message, "it")
        assert error.wording is not None and error.wording.key in IT
        assert italian != error.message and "{" not in italian and not italian[0].islower()
        assert say_refusal(error.wording, error.message, "en") == error.message


def test_the_italian_sentences_fill_the_deck_words_and_the_blocked_card() -> None:
    fly = Wording.of("fly_colour", colour="pink", island=7, its="green")
    assert say_refusal(fly, "x", "it") == (
        "Borea vola su una carta adiacente o su una carta del colore della sua (rosa); "
        "la carta 7 è verde"
    )
    blocked = Wording.of(
        "fly_blocked", spirit="Jugo", side="on", island=12, block="occupied", at=12, by="Borea"
    )
    assert say_refusal(blocked, "x", "it") == (
        "Jugo non può volare sulla carta 12: la carta 12 è occupata da Borea"
    )
    assert say_refusal(Wording.of("from_a_newer_engine"), "English", "it") == "English"


def test_put_back_instructions_in_italian() -> None:
    config = GameConfig(players=2, mode=Mode.STORM, spirits=(Spirit.BOREA, Spirit.JUGO))
    state = new_game(config, seed=3, grid=tuple(range(1, 26)))
    diffs = [
        CardDifference((1, 1), 7, 12),
        CardDifference((2, 2), 12, 7),
        PawnDifference(Spirit.BOREA, Position((0, 0)), Position((0, 1))),
        PawnDifference(Spirit.AUSTRO, None, Position((3, 3))),
        GemDifference((4, 4), True),
    ]
    assert say_differences(diffs, state, "it") == (
        "la carta 7 va in b2, la carta 12 in c3 (scambiatele di nuovo); "
        "la pedina di Borea va sulla carta 1 (a1); "
        "Austro non gioca: togliete la sua pedina dal tavolo; "
        "ci vuole una gemma rossa sulla carta 25 (e5)"
    )


def test_a_pending_storm_is_told_in_italian(tmp_path: Path) -> None:
    config = GameConfig(players=2, mode=Mode.STORM, spirits=(Spirit.BOREA, Spirit.JUGO))
    state = new_game(config, seed=5)
    for corner in ((0, 0), (4, 4)):
        state = apply_action(state, Place(corner))
    while state.last_storm is None or state.last_storm.effect.value == "none":
        state = apply_action(state, EndTurn())
        if state.phase is Phase.OVER:
            pytest.skip("no storm with an effect in this game")
    event = state.last_storm
    assert event is not None
    before = state
    if event.target2 is not None:
        from zefiria.engine.storm import swap_cards

        before = swap_cards(state, event.target1, event.target2)
    else:
        from dataclasses import replace

        before = replace(state, anchored=state.anchored - {event.target1})
    check = check_storm(state, observation_of(before))
    assert check.kind == "pending"
    italian = say_storm(check, state, "it")
    assert italian.startswith("la tempesta ") and italian != check.message


def test_an_italian_game_refuses_in_italian(tmp_path: Path) -> None:
    from zefiria.device.referee.loop import Setup

    setup = Setup(2, Mode.STORM, (Spirit.JUGO, Spirit.BOREA), lang="it", seed=21)
    sim, _, log = simulated(tmp_path, setup, seed=21, cheat_rate=0.3)
    tally = sim.play()
    refused = [line for line in log if line.startswith("[refused]")]
    assert tally.refused > 0 and refused
    english = ("card ", "should be", "cannot", "flies", "swap")
    assert not [line for line in refused if any(word in line for word in english)]


def test_the_referees_own_words_exist_in_both_languages() -> None:
    from zefiria.device.referee.words import WORDS

    assert set(WORDS["en"]) == set(WORDS["it"])


def test_the_storm_and_spirit_screens_speak_the_players_language() -> None:
    from dataclasses import replace

    from zefiria.device.display.screens import SpiritView
    from zefiria.device.referee.session import spirit_view

    config = GameConfig(players=2, mode=Mode.STORM, spirits=(Spirit.BOREA, Spirit.JUGO))
    state = new_game(config, seed=3)
    for corner in ((0, 0), (4, 4)):
        state = apply_action(state, Place(corner))
    view = spirit_view(replace(state, must_leave=True), "it")
    assert isinstance(view, SpiritView) and view.note == "prima deve volare via"
