"""``zefiria hint`` and ``zefiria autoplay`` end to end, on tiny searches and tiny runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from zefiria.device.cli import main
from zefiria.engine.notation import parse_action
from zefiria.engine.records import dumps_state
from zefiria.engine.rules import apply_action
from zefiria.engine.setup import new_game
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import GameConfig, GameState, Mode, Phase

CONFIG = GameConfig(2, Mode.STANDARD, (Spirit.SKYRON, Spirit.ETESIA))


def _turn_state() -> GameState:
    state = new_game(CONFIG, seed=4)
    state = apply_action(state, parse_action("place a1", state))
    return apply_action(state, parse_action("place e5", state))


def test_hint_json_is_a_legal_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = _turn_state()
    path = tmp_path / "state.json"
    path.write_text(dumps_state(state), "utf-8")
    assert main(["hint", str(path), "--nodes", "40", "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    assert plan["spirit"] == "skyron"
    assert plan["actions"][-1] == "end" or len(plan["actions"]) > 1
    for text in plan["actions"]:
        state = apply_action(state, parse_action(text, state))  # raises if illegal
    assert state.phase is Phase.TURN and state.active_spirit is Spirit.ETESIA
    assert plan["score_after"] >= plan["score_before"]


def test_hint_text_and_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "state.json"
    path.write_text(dumps_state(_turn_state()), "utf-8")
    assert main(["hint", str(path), "--nodes", "20"]) == 0
    out = capsys.readouterr().out
    assert "Skyron:" in out and "cards home" in out
    path.write_text("{not json", "utf-8")
    assert main(["hint", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "zefiria hint:" in captured.err


@pytest.mark.parametrize("mode", ["standard", "storm", "solo"])
def test_autoplay_runs_tiny_games(
    mode: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "results.md"
    argv = ["autoplay", "--mode", mode, "--games", "2", "--seed", "5", "--nodes", "15"]
    argv += ["--greedy-nodes", "10"]
    argv += ["--workers", "1", "--markdown", str(table)]
    if mode != "solo":
        argv += ["--spirits", "skyron,austro"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    for policy in ("planner", "greedy", "random"):
        assert f"| {policy} |" in out
    assert "Planner minus greedy" in out
    assert table.read_text("utf-8") in out + "\n"
