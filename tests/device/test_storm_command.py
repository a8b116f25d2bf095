"""``zefiria storm``: the engine's draws for a seed, targets, texts, JSON and bad input."""

from __future__ import annotations

import io
import json
from importlib import resources
from pathlib import Path

import pytest
from zefiria.device.cli import main
from zefiria.device.commands import storm
from zefiria.engine.deck import Blizzard, Tornado, default_deck
from zefiria.engine.grid import Direction, rotate_clockwise, wrap_step
from zefiria.engine.setup import new_game
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import GameConfig, Mode


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["storm", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_same_seed_same_storms_as_a_refereed_game() -> None:
    config = GameConfig(2, Mode.STORM, (Spirit.BOREA, Spirit.JUGO))
    game = new_game(config, seed=1234)
    draws = storm.draw_storms(default_deck(), 6, 1234)
    assert [d.storm for d in draws] == list(game.storm_deck[:5])
    assert [(d.card, d.rotation) for d in draws] == list(game.grid_deck[:5])


def test_targets_follow_the_rules() -> None:
    for seed in range(30):
        for d in storm.draw_storms(default_deck(), 6, seed):
            assert d.target1 == rotate_clockwise(d.card.cell, d.rotation)
            if isinstance(d.storm, Tornado):
                assert d.target2 == rotate_clockwise(d.card.cell, d.rotation + d.storm.turns)
            else:
                assert isinstance(d.storm, Blizzard)
                assert d.target2 == wrap_step(d.target1, d.storm.direction, d.storm.steps)


@pytest.mark.parametrize(
    ("args", "storms"),
    [
        ((), 5),  # 2 players: 6 purple gems, storms from round 2
        (("--players", "3"), 4),
        (("--players", "4"), 3),
        (("--players", "1", "--difficulty", "easy"), 6),
        (("--players", "1", "--difficulty", "hard"), 4),
        (("--rounds", "3"), 2),
    ],
)
def test_one_storm_per_round_from_the_second(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], storms: int
) -> None:
    out = _json(capsys, "--seed", "5", *args)
    assert [s["round"] for s in out["storms"]] == list(range(2, storms + 2))


def test_json_names_cards_targets_and_the_instruction(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(capsys, "--seed", "42", "--players", "4")
    first = out["storms"][0]
    assert out["seed"] == 42 and out["rounds"] == 4
    assert first["storm"] == {"kind": "tornado", "turns": 1}
    assert first["grid_card"] == {"cell": [1, 1], "rotation": 1}
    assert first["target1"] == {"cell": [1, 3], "name": "d2"}
    assert first["target2"] == {"cell": [3, 3], "name": "d4"}
    assert first["home_island"] == 9
    assert first["instruction"].startswith(
        "If the card at target 1 (d2) is already in its right place (island 9), anchor it"
    )
    assert (
        "swap the cards at the two targets, d2 and d4 (unless either is anchored)"
        in (first["instruction"])
    )


def test_text_output_shows_map_and_instruction(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["storm", "--seed", "42", "--players", "4"]) == 0
    text = capsys.readouterr().out
    assert "seed 42" in text and "== Round 2 ==" in text and "== Round 5 ==" not in text
    assert "  2 · · · 1 ·" in text and "  4 · · · 2 ·" in text
    assert "Storm card: Tornado 1" in text


def test_italian(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["storm", "--seed", "42", "--players", "4", "--lang", "it"]) == 0
    text = capsys.readouterr().out
    assert "Carta Tempesta: Tornado 1" in text and "Bersaglio 1: d2" in text
    assert "ancoratela con una Gemma rossa" in text


def test_random_seed_is_printed_so_the_game_can_be_replayed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    first = _json(capsys)
    again = _json(capsys, "--seed", str(first["seed"]))
    assert again["storms"] == first["storms"]


def test_a_small_user_deck_is_reshuffled_when_it_runs_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = resources.files("zefiria.engine").joinpath("data/deck.toml").read_text("utf-8")
    head = text.split("[[storm]]")[0]
    deck = tmp_path / "deck.toml"
    deck.write_text(
        head + '[[storm]]\nkind = "blizzard"\ndirection = "west"\nsteps = 1\n\n'
        "[[grid]]\ncell = [0, 0]\n"
    )
    out = _json(capsys, "--seed", "1", "--rounds", "4", "--deck", str(deck))
    assert len(out["storms"]) == 3
    assert {s["storm_text"] for s in out["storms"]} == {"Blizzard west 1"}
    assert out["deck"] == str(deck)


def test_blizzard_wraps_round(capsys: pytest.CaptureFixture[str]) -> None:
    d = storm.StormDraw(2, Blizzard(Direction.WEST, 2), default_deck().grids[0], 0, (0, 1), (0, 4))
    info = storm.describe(d, "en")
    assert info["storm_text"] == "Blizzard west 2" and "wrapping round" in info["target2_text"]
    assert "1 · 1 · · 2" in info["map"]


def test_same_cell_targets_say_nothing_is_swapped() -> None:
    d = storm.StormDraw(2, Tornado(2), default_deck().grids[0], 0, (2, 2), (2, 2))
    info = storm.describe(d, "en")
    assert info["same_cell"] and "nothing happens" in info["instruction"]
    assert "*" in info["map"]


def test_interactive_mode_waits_for_enter_and_stops_on_q(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(storm, "_interactive", lambda: True)
    monkeypatch.setattr("sys.stdin", io.StringIO("\nq\n"))
    assert main(["storm", "--seed", "3"]) == 0
    text = capsys.readouterr().out
    assert "== Round 2 ==" in text and "== Round 3 ==" not in text
    assert "Press Enter for round 3" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--rounds", "1"), "--rounds 1: storms need 2 to 50 rounds"),
        (("--seed", "-3"), "--seed -3: must be 0 or more"),
        (("--deck", "/no/such/deck.toml"), "/no/such/deck.toml: cannot read deck file"),
    ],
)
def test_bad_input_is_refused_with_a_message(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    assert main(["storm", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
