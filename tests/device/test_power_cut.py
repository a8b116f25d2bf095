"""Pull the plug at random moments: the resumed game ends exactly as an uninterrupted one."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from zefiria.device.referee.history import History
from zefiria.device.referee.journal import Journal

CHILD = Path(__file__).with_name("power_cut_child.py")
SEED = 21


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def _run(folder: Path, kill_at_line: int | None = None, delay: float = 0.0) -> bool:
    """Run the child; SIGKILL it ``delay`` s after its journal reaches ``kill_at_line``
    lines. True when it finished by itself."""
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), str(folder), str(SEED)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        if kill_at_line is not None and _lines(folder / "journal.jsonl") >= kill_at_line:
            time.sleep(delay)
            proc.send_signal(signal.SIGKILL)
            proc.communicate()
            return False
        time.sleep(0.002)
    _, err = proc.communicate(timeout=5)
    assert proc.returncode == 0, err.decode()
    return True


@pytest.mark.slow
def test_a_game_killed_at_random_moments_ends_as_the_uninterrupted_one(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    whole.mkdir()
    assert _run(whole)
    expected = (whole / "final.json").read_text()
    events = _lines(whole / "journal.jsonl")
    assert events > 30

    cut = tmp_path / "cut"
    cut.mkdir()
    rng = random.Random(4)
    # Cuts at random points of the game, each a random moment after a journal line landed
    # (so also in the middle of the next move, or while a line is being written).
    targets = sorted(rng.sample(range(1, events - 1), 6))
    kills = 0
    for target in targets:
        if not _run(cut, target, delay=rng.uniform(0.0, 0.05)):
            kills += 1
    while not (cut / "final.json").exists():
        _run(cut)
    assert kills >= 4
    assert (cut / "final.json").read_text() == expected
    assert len(History(cut / "h.sqlite").games()) == 1  # saved once, however often resumed


def test_a_torn_journal_line_from_a_cut_mid_write_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    j = Journal.open(path)
    j.append({"kind": "action", "action": "fly c3"})
    with path.open("ab") as f:  # the cut came while the next line was being written
        f.write(b'1a2b3c4d {"kind":"act')
    assert Journal.open(path).events == [{"kind": "action", "action": "fly c3"}]
