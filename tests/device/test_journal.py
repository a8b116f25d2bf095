"""The journal keeps every confirmed event and survives a torn last line."""

from __future__ import annotations

from pathlib import Path

import pytest
from zefiria.device.referee.journal import Journal, JournalError, set_aside_damaged


def _fill(path: Path, n: int) -> Journal:
    j = Journal.open(path)
    for i in range(n):
        j.append({"kind": "action", "i": i})
    return j


def test_events_come_back_in_order(tmp_path: Path) -> None:
    path = tmp_path / "j" / "journal.jsonl"
    _fill(path, 5)
    again = Journal.open(path)
    assert [e["i"] for e in again.events] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("cut", [1, 5, 17])
def test_a_torn_last_line_is_dropped_and_cut_off(tmp_path: Path, cut: int) -> None:
    path = tmp_path / "journal.jsonl"
    _fill(path, 3)
    size = path.stat().st_size
    with path.open("ab") as f:
        f.write(b'0123abcd {"kind":"action","i":3}\n'[:cut])
    j = Journal.open(path)
    assert [e["i"] for e in j.events] == [0, 1, 2]
    assert path.stat().st_size == size
    j.append({"kind": "action", "i": 3})
    assert [e["i"] for e in Journal.open(path).events] == [0, 1, 2, 3]


def test_a_last_line_with_a_bad_checksum_or_zeros_is_a_torn_line(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    _fill(path, 2)
    with path.open("ab") as f:
        f.write(b'00000000 {"kind":"action"}\n\x00\x00\x00')
    assert len(Journal.open(path).events) == 2


def test_damage_in_the_middle_is_refused_with_the_line(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    _fill(path, 4)
    lines = path.read_bytes().split(b"\n")
    lines[1] = lines[1].replace(b'"i":1', b'"i":7')
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(JournalError, match=r"line 2"):
        Journal.open(path)
    kept = set_aside_damaged(path)
    assert kept.exists() and not path.exists()
    assert kept.read_bytes() == b"\n".join(lines)  # nothing lost


def test_an_event_needs_a_kind(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="kind"):
        Journal.open(tmp_path / "j.jsonl").append({"i": 1})


def test_set_aside_moves_the_file(tmp_path: Path) -> None:
    j = _fill(tmp_path / "journal.jsonl", 1)
    first = j.set_aside("done")
    j2 = _fill(tmp_path / "journal.jsonl", 1)
    second = j2.set_aside("done")
    assert first != second and first.exists() and second.exists()
    assert Journal.open(tmp_path / "journal.jsonl").events == []


def test_a_move_that_cannot_be_journaled_is_not_accepted(tmp_path: Path) -> None:
    from .referee_doubles import simulated
    from .test_referee_loop import GAMES

    sim, _, _ = simulated(tmp_path, GAMES[0], seed=2)
    for _ in range(8):
        sim.turn_step()
    referee = sim.referee
    before = referee.state

    def full_disk(event: object) -> None:
        raise OSError(28, "No space left on device")

    referee.journal.append = full_disk  # type: ignore[method-assign]
    with pytest.raises(OSError, match="No space"):
        referee.end_turn()
    assert referee.state == before
