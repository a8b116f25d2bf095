"""``zefiria play`` driven by scripted stdin: whole games, errors, undo, save and resume."""

from __future__ import annotations

import io
import json
import random
import re
import sys
from pathlib import Path

import pytest
from zefiria.device.cli import main
from zefiria.device.terminal.board import render_board, status_line
from zefiria.engine.actions import EndTurn
from zefiria.engine.game import Game
from zefiria.engine.notation import format_action
from zefiria.engine.records import GameRecord, loads_record
from zefiria.engine.scoring import rating, score
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Difficulty, GameConfig, GameState, Mode, Phase


def _play(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    lines: list[str],
    *argv: str,
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(["play", "--no-color", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _script(config: GameConfig, seed: int, rnd_seed: int = 0) -> tuple[list[str], GameState]:
    """Lines that play a whole game with random legal actions, and the final state."""
    rnd = random.Random(rnd_seed)
    game = Game(GameRecord.start(config, seed=seed).initial_state())
    lines = []
    while not game.is_over:
        options = [p.action for p in game.legal_actions()]
        moves = [a for a in options if a != EndTurn()]
        action = rnd.choice(moves) if moves and rnd.random() < 0.7 else rnd.choice(options)
        game.push(action)
        lines.append(format_action(action))
    return lines, game.state


def _final_total(out: str) -> int:
    match = re.search(r": (-?\d+) VP\n", out)
    assert match, out[-2000:]
    return int(match.group(1))


def test_a_whole_two_player_game_of_ends(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = ["place a1", "place e5"] + ["end"] * 12 + ["these lines come after the game"]
    code, out, err = _play(capsys, monkeypatch, lines, "--players", "2", "--seed", "8")
    assert code == 0, err
    assert out.count("=== Round") == 6
    assert "=== The last round is over ===" in out
    config = GameConfig(2, Mode.STANDARD, (Spirit.BOREA, Spirit.JUGO))
    untouched = GameRecord.start(config, seed=8).initial_state()
    assert _final_total(out) == score(untouched).total
    assert rating(score(untouched).total) in out
    assert "these lines" not in out


@pytest.mark.parametrize(
    ("config", "argv"),
    [
        (
            GameConfig(1, Mode.STORM, (Spirit.SKYRON, Spirit.AUSTRO, Spirit.ETESIA),
                       Difficulty.HARD),
            ["--players", "1", "--spirits", "skyron,austro,etesia", "--mode", "storm",
             "--difficulty", "hard"],
        ),
        (
            GameConfig(3, Mode.STORM, (Spirit.AUSTRO, Spirit.BOREA, Spirit.JUGO)),
            ["--spirits", "austro,borea,jugo", "--mode", "storm"],
        ),
        (
            GameConfig(4, Mode.STANDARD, (Spirit.BOREA, Spirit.JUGO, Spirit.ETESIA, Spirit.SKYRON)),
            ["--players", "4"],
        ),
    ],
)  # fmt: skip
def test_random_whole_games_score_what_the_engine_scores(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    config: GameConfig,
    argv: list[str],
) -> None:
    lines, final = _script(config, seed=21)
    code, out, err = _play(capsys, monkeypatch, lines, *argv, "--seed", "21")
    assert code == 0, err
    assert "Not allowed" not in out and "unknown action" not in out
    assert _final_total(out) == score(final).total
    if config.mode is Mode.STORM:
        assert "Storm: " in out  # round starts reveal their storm


def test_errors_are_sentences_and_change_nothing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = ["place b2", "fly", "place a1", "place a5", "place e5", "fly e5", "board", "quit"]
    code, out, _ = _play(capsys, monkeypatch, lines, "--seed", "1")
    assert code == 0
    assert "Not allowed: " in out
    assert "'fly': 'fly' needs one cell" in out
    assert "opposite corners" in out
    assert "Traceback" not in out
    assert out.rstrip().endswith("zefiria play --resume FILE")


def test_help_lists_legal_actions_with_costs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = _play(capsys, monkeypatch, ["place a1", "place e5", "?", "q"], "--seed", "2")
    assert code == 0
    listing = out.split("Legal actions (cost in AP):")[1]
    assert "end (0)" in listing
    assert re.search(r"fly [a-e][1-5] \(1\)", listing)


def test_undo_and_undo_turn(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = ["undo", "place a1", "place e5", "fly a2", "fly a3", "undo", "undo turn", "undo turn"]
    code, out, _ = _play(capsys, monkeypatch, [*lines, "quit"], "--seed", "2")
    assert code == 0
    assert "Nothing to undo." in out
    assert "Undone: fly a3" in out
    assert "Undone: fly a2" in out
    assert "Nothing to undo in this turn." in out


def test_save_and_resume_finish_the_same_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    config = GameConfig(2, Mode.STORM, (Spirit.JUGO, Spirit.SKYRON))
    lines, final = _script(config, seed=5, rnd_seed=3)
    half = len(lines) // 2
    save = tmp_path / "game.json"
    argv = ["--spirits", "jugo,skyron", "--mode", "storm", "--seed", "5"]
    code, out, _ = _play(capsys, monkeypatch, [*lines[:half], f"save {save}", "quit"], *argv)
    assert code == 0 and f"Saved to {save}." in out
    record = loads_record(save.read_text("utf-8"))
    assert [format_action(a) for a in record.actions] == lines[:half]
    assert json.loads(save.read_text("utf-8"))["format"] == "zefiria-game"
    code, out, _ = _play(capsys, monkeypatch, lines[half:], "--resume", str(save))
    assert code == 0
    assert _final_total(out) == score(final).total


def test_italian(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    lines = ["place a1", "place e5"] + ["end"] * 12
    code, out, _ = _play(capsys, monkeypatch, lines, "--seed", "8", "--lang", "it")
    assert code == 0
    assert "=== L'ultimo round è finito ===" in out
    assert "Valutazione: " in out and "PV" in out
    total = _final_total(out.replace(" PV\n", " VP\n"))
    assert rating(total, "it") in out


def test_end_of_input_mid_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = _play(capsys, monkeypatch, ["place a1"], "--seed", "1")
    assert code == 1
    assert "Input ended before the game did." in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--spirits", "zephyr"], "unknown spirit 'zephyr'"),
        (["--players", "2", "--spirits", "borea"], "2 spirits"),
        (["--spirits", "borea,borea"], "repeated: Borea"),
        (["--players", "2", "--difficulty", "hard"], "solo games only"),
        (["--deck", "/nonexistent/deck.toml"], "cannot read deck file"),
        (["--resume", "/nonexistent/save.json"], "cannot read"),
    ],
)
def test_bad_options_exit_2_with_a_message(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str,
) -> None:
    code, out, err = _play(capsys, monkeypatch, [], *argv)
    assert code == 2 and out == ""
    assert err.startswith("zefiria play: ") and message in err, err


def test_a_bad_save_names_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    save = tmp_path / "save.json"
    save.write_text('{\n  "format": "zefiria-game",\n  "version": 1,\n}\n', "utf-8")
    code, _, err = _play(capsys, monkeypatch, [], "--resume", str(save))
    assert code == 2 and "line 4: not valid JSON" in err


def test_board_labels_colours_and_marks() -> None:
    config = GameConfig(2, Mode.STORM, (Spirit.BOREA, Spirit.JUGO))
    game = Game(GameRecord.start(config, seed=0, grid=range(1, 26)).initial_state())
    game.push(next(p.action for p in game.legal_actions()))
    plain = render_board(game.state)
    assert plain.splitlines()[0].split() == ["a", "b", "c", "d", "e"]
    assert [line.split()[0] for line in plain.splitlines() if line[:2].strip().isdigit()] == [
        "1",
        "2",
        "3",
        "4",
        "5",
    ]
    assert "\x1b[" not in plain
    assert plain.count("ok") == 25  # the solved grid: every card in its right cell
    assert "BOR" in plain
    coloured = render_board(game.state, color=True)
    assert "\x1b[" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain
    assert "red gems held: Borea 0, Jugo 0; pool 6" in status_line(game.state)
    assert game.state.phase is Phase.SETUP
