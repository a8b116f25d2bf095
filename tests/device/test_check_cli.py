"""``zefiria check``: the stable JSON verdict, exit codes and bad-input messages."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from zefiria.device.cli import main
from zefiria.engine.records import (
    GameRecord,
    dumps_record,
    dumps_state,
    loads_state,
    state_from_json,
)
from zefiria.engine.setup import new_game
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import GameConfig, Mode

CONFIG = GameConfig(2, Mode.STANDARD, (Spirit.BOREA, Spirit.JUGO))


@pytest.fixture
def setup_file(tmp_path: Path) -> Path:
    path = tmp_path / "state.json"
    path.write_text(dumps_state(new_game(CONFIG, seed=1)), "utf-8")
    return path


def _check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    code = main(["check", *argv])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out else None, err


def test_all_legal(setup_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, verdict, err = _check(capsys, str(setup_file), "place a1", "p e5", "f b1")
    assert code == 0 and err == ""
    assert set(verdict) == {"legal", "actions", "cost", "state"}
    assert verdict["legal"] is True
    assert verdict["actions"] == [
        {"action": "place a1", "legal": True, "cost": 0, "reason": None, "message": None},
        {"action": "place e5", "legal": True, "cost": 0, "reason": None, "message": None},
        {"action": "fly b1", "legal": True, "cost": 1, "reason": None, "message": None},
    ]
    assert verdict["cost"] == 1
    state = state_from_json(verdict["state"])
    assert state.round == 1 and state.ap == 4
    assert state.position_of(Spirit.BOREA).cell == (0, 1)  # type: ignore[union-attr]


def test_refused_stops_and_reports_the_unchanged_state(
    setup_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = loads_state(setup_file.read_text("utf-8"))
    code, verdict, _ = _check(capsys, str(setup_file), "place a1", "place a5", "place e5")
    assert code == 1
    assert verdict["legal"] is False
    assert len(verdict["actions"]) == 2  # stops at the first refused action
    refused = verdict["actions"][1]
    assert refused["legal"] is False and refused["cost"] is None
    assert refused["reason"] == "not_opposite_corner"
    assert "opposite corners" in refused["message"]
    assert state_from_json(verdict["state"]) == before


def test_island_numbers_and_semicolons(
    setup_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = loads_state(setup_file.read_text("utf-8"))
    corner = state.island_at((0, 0))
    code, verdict, _ = _check(capsys, str(setup_file), f"place #{corner}; place e5", "e")
    assert code == 0
    assert [a["action"] for a in verdict["actions"]] == ["place a1", "place e5", "end"]
    assert state_from_json(verdict["state"]).active_spirit is Spirit.JUGO


def test_no_actions_echoes_the_state(setup_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, verdict, _ = _check(capsys, str(setup_file), "--compact")
    assert code == 0 and verdict["actions"] == [] and verdict["cost"] == 0


def test_a_game_record_is_checked_from_its_last_state(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = GameRecord.start(CONFIG, seed=4)
    path = tmp_path / "game.json"
    path.write_text(dumps_record(record), "utf-8")
    code, verdict, _ = _check(capsys, str(path), "place a1", "place e5")
    assert code == 0 and verdict["state"]["round"] == 1


def test_stdin(
    setup_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(setup_file.read_text("utf-8")))
    code, verdict, _ = _check(capsys, "-", "place e1")
    assert code == 0 and verdict["actions"][0]["action"] == "place e1"


def _state_with(edit: Any) -> str:
    from zefiria.engine.records import state_to_json

    data = state_to_json(new_game(CONFIG, seed=1))
    edit(data)
    return json.dumps(data, indent=2)


@pytest.mark.parametrize(
    ("content", "argv", "message"),
    [
        (None, ["place a1"], "cannot read"),
        ("{not json", ["end"], "line 1: not valid JSON"),
        ("\xff\xfe", ["end"], "not valid JSON"),
        (
            _state_with(lambda d: d.__setitem__("ap", -1)),
            ["end"],
            "line 18: ap: -1 is out of range",
        ),
        (None, ["place a1", "jump"], "'jump': unknown action"),
        (dumps_state(new_game(CONFIG, seed=1)), ["fly #99"], "'#99' is not an island"),
    ],
)
def test_bad_input_exits_2_with_a_message(
    tmp_path: Path,
    setup_file: Path,
    capsys: pytest.CaptureFixture[str],
    content: str | None,
    argv: list[str],
    message: str,
) -> None:
    path = setup_file
    if content is not None:
        path = tmp_path / "bad.json"
        path.write_text(content, "utf-8")
    elif argv == ["place a1"]:
        path = tmp_path / "missing.json"
    code, verdict, err = _check(capsys, str(path), *argv)
    assert code == 2 and verdict is None
    assert message in err, err
    assert err.startswith("zefiria check: ") and "Traceback" not in err


def test_binary_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "photo.json"
    path.write_bytes(b"\x89PNG\xff\xfe\x00")
    code, _, err = _check(capsys, str(path), "end")
    assert code == 2 and "not a text file" in err


def test_as_a_real_process(setup_file: Path) -> None:
    # Outside scripts run it as a program: check the exit code and streams end to end.
    done = subprocess.run(
        [sys.executable, "-m", "zefiria.device.cli", "check", str(setup_file), "place b2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    verdict = json.loads(done.stdout)
    assert verdict["actions"][0]["reason"] == "not_a_corner"
    assert done.stderr == ""
