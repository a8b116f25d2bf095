"""An append-only journal of the game's accepted events, safe against power cuts.

The Pi may lose power at any instant (a player kicks the cable), so every accepted event is
appended as one line and flushed with ``fsync`` before the referee says "accepted". A line is
``<crc32 hex> <json>\\n``: a power cut can leave at most the last line torn (no newline, or a
checksum that does not match), and the reader drops exactly that line. A bad line anywhere
else is not a power cut but damage, so it is refused with a :class:`JournalError` naming the
file and the line: the referee then moves the file aside instead of guessing.

The journal knows nothing about the game: events are small JSON objects with a ``kind``.
:mod:`zefiria.device.referee.loop` decides what they mean and replays them on restart.
"""

from __future__ import annotations

import json
import os
import time
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

Event = dict[str, Any]


class JournalError(ValueError):
    """A journal that cannot be trusted; the message names the file, the line and the problem."""


def _encode(event: Mapping[str, Any]) -> bytes:
    body = json.dumps(event, separators=(",", ":"), sort_keys=True, ensure_ascii=True)
    crc = zlib.crc32(body.encode("ascii"))
    return f"{crc:08x} {body}\n".encode("ascii")


def _decode(line: bytes) -> Event | None:
    """The event on ``line`` (without its newline), or None when the line is damaged."""
    try:
        text = line.decode("ascii")
    except UnicodeDecodeError:
        return None
    crc, sep, body = text.partition(" ")
    if not sep or len(crc) != 8:
        return None
    try:
        if int(crc, 16) != zlib.crc32(body.encode("ascii")):
            return None
        event = json.loads(body)
    except ValueError:
        return None
    if not isinstance(event, dict) or not isinstance(event.get("kind"), str):
        return None
    return event


def read_events(path: Path) -> tuple[list[Event], int]:
    """The events in ``path`` and the byte length of its trustworthy part.

    A torn last line (what a power cut leaves) is dropped: the length returned stops before
    it. Damage before the last line raises :class:`JournalError`.
    """
    data = path.read_bytes()
    events: list[Event] = []
    good = 0
    lines = data.split(b"\n")
    # The item after the last newline is b"" for a complete file, else a torn line: an event
    # whose fsync never returned was never confirmed to the players, so it is dropped.
    for number, line in enumerate(lines[:-1], start=1):
        event = _decode(line)
        if event is None:
            rest = b"\n".join(lines[number:])
            if rest.strip(b"\x00\n") == b"":
                break  # only the tail is bad (a cut can also leave zero-filled blocks)
            raise JournalError(
                f"{path}, line {number}: damaged entry (checksum or format); "
                "the journal was not written by a clean power cut"
            )
        events.append(event)
        good += len(line) + 1
    return events, good


class Journal:
    """One game's journal file. Use :meth:`open` (resume or start) and :meth:`append`."""

    def __init__(self, path: Path, events: list[Event]) -> None:
        self.path = path
        self.events = events

    @classmethod
    def open(cls, path: str | Path) -> Journal:
        """Open ``path``, reading what it holds; a torn last line is cut off the file."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        if not p.exists():
            return cls(p, [])
        try:
            events, good = read_events(p)
        except OSError as exc:
            raise JournalError(f"{p}: cannot read the journal: {exc.strerror or exc}") from None
        if good != p.stat().st_size:
            # Cut the torn tail so the next append starts on a clean line.
            with p.open("r+b") as f:
                f.truncate(good)
                f.flush()
                os.fsync(f.fileno())
        return cls(p, events)

    def append(self, event: Mapping[str, Any]) -> None:
        """Write one event durably: when this returns, a power cut cannot lose it."""
        if not isinstance(event.get("kind"), str):
            raise ValueError(f"a journal event needs a 'kind': {event!r}")
        line = _encode(event)
        new = not self.path.exists()
        with self.path.open("ab") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())
        if new:
            _fsync_dir(self.path.parent)  # the file's name must survive the cut as well
        self.events.append(json.loads(line[9:]))

    def set_aside(self, suffix: str) -> Path:
        """Rename the file out of the way (finished or damaged game) and return its new path."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.path.with_name(f"{self.path.name}.{suffix}-{stamp}")
        n = 1
        while target.exists():
            target = self.path.with_name(f"{self.path.name}.{suffix}-{stamp}-{n}")
            n += 1
        os.replace(self.path, target)
        _fsync_dir(self.path.parent)
        self.events = []
        return target


def set_aside_damaged(path: str | Path) -> Path:
    """Move a damaged journal aside untouched, so nothing is lost and a new game can start."""
    journal = Journal(Path(path), [])
    return journal.set_aside("damaged")


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # not every filesystem lets a folder be opened; the data is synced anyway
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
