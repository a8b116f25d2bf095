"""Finished games go into SQLite once each and come back most recent first."""

from __future__ import annotations

from pathlib import Path

import pytest
from zefiria.device.referee.history import FinishedGame, History, HistoryError


def _game(n: int, when: str) -> FinishedGame:
    return FinishedGame(
        id=f"g{n}",
        finished_at=when,
        players=2,
        spirits=("borea", "jugo"),
        mode="storm",
        difficulty=None,
        score=20 + n,
        rating="Good",
        record="{}",
    )


def test_games_are_listed_most_recent_first(tmp_path: Path) -> None:
    h = History(tmp_path / "sub" / "history.sqlite")
    assert h.games() == []
    assert h.add(_game(1, "2026-01-01T10:00:00Z"))
    assert h.add(_game(2, "2026-01-02T10:00:00Z"))
    assert [g.id for g in h.games()] == ["g2", "g1"]
    assert h.games(limit=1)[0] == _game(2, "2026-01-02T10:00:00Z")
    assert "storm" in h.games()[0].line() and "22 VP" in h.games()[0].line()


def test_the_same_game_is_stored_once(tmp_path: Path) -> None:
    h = History(tmp_path / "history.sqlite")
    assert h.add(_game(1, "2026-01-01T10:00:00Z"))
    assert not h.add(_game(1, "2026-01-01T10:00:00Z"))
    assert len(h.games()) == 1 and h.get("g1") is not None and h.get("nope") is None


def test_a_file_that_is_not_a_database_gives_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite"
    path.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(HistoryError, match="not a usable history file"):
        History(path).games()
    assert path.read_bytes().startswith(b"this is not")  # left untouched


def test_the_history_command_lists_games_and_prints_a_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from zefiria.device.cli import main

    path = tmp_path / "history.sqlite"
    assert main(["history", "--file", str(path)]) == 0
    assert "no finished games yet" in capsys.readouterr().out
    History(path).add(_game(1, "2026-01-01T10:00:00Z"))
    assert main(["history", "--file", str(path)]) == 0
    assert "21 VP" in capsys.readouterr().out
    assert main(["history", "--file", str(path), "--record", "g1"]) == 0
    assert capsys.readouterr().out.strip() == "{}"
    path.write_bytes(b"garbage" * 200)
    assert main(["history", "--file", str(path)]) == 2
    assert "not a usable history file" in capsys.readouterr().err
