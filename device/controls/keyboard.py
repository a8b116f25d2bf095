"""A keyboard stand-in for the buttons, for laptops and SSH sessions.

In a terminal one key is one event (Enter = OK, u = Undo, e = End turn, h = Hint, m = Menu,
q = quit). From a pipe or a file each line is one event, by its first letter (an empty line
is OK), which is how tests and scripted demos drive the referee. End of input quits.
"""

from __future__ import annotations

import atexit
import sys
import threading
from typing import Any, TextIO

from .events import Event, EventQueue

KEYS: dict[str, Event] = {
    "\n": Event.OK,
    "\r": Event.OK,
    " ": Event.OK,
    "o": Event.OK,
    "u": Event.UNDO,
    "\x7f": Event.UNDO,  # Backspace
    "e": Event.END_TURN,
    "h": Event.HINT,
    "m": Event.MENU,
    "q": Event.QUIT,
    "\x04": Event.QUIT,  # Ctrl-D
}

HELP = "Enter=OK  u=Undo  e=End turn  h=Hint  m=Menu  q=Quit"


def key_to_event(key: str) -> Event | None:
    """The event for one key or one typed line (first letter; empty line = OK)."""
    text = key if key in KEYS else key.strip().lower()
    if not text:
        return Event.OK
    return KEYS.get(text if text in KEYS else text[0])


class KeyboardControls(EventQueue):
    """Events from ``stream`` (default: stdin), read by a background thread."""

    def __init__(self, stream: TextIO | None = None) -> None:
        super().__init__()
        self._stream = stream if stream is not None else sys.stdin
        self._saved: Any = None
        self._closed = threading.Event()
        single_keys = self._enter_cbreak()
        reader = self._read_keys if single_keys else self._read_lines
        self._thread = threading.Thread(target=reader, name="keyboard", daemon=True)
        self._thread.start()

    def _enter_cbreak(self) -> bool:
        """One key at a time in a terminal (no Enter needed); False for pipes and files."""
        try:
            if not self._stream.isatty():
                return False
            import termios
            import tty

            fd = self._stream.fileno()
            self._saved = termios.tcgetattr(fd)
            tty.setcbreak(fd)
            atexit.register(self.close)  # never leave the user's terminal without echo
            return True
        except (ImportError, OSError, ValueError):
            return False  # not a real terminal (Windows, an IDE console): read lines

    def _read_keys(self) -> None:
        try:
            while not self._closed.is_set():
                key = self._stream.read(1)
                if not key:
                    break
                self._put_key(key)
        except (OSError, ValueError):  # the terminal hung up, or the stream was closed
            pass
        self._end()

    def _read_lines(self) -> None:
        try:
            for line in self._stream:
                if self._closed.is_set():
                    return
                self._put_key(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        self._end()

    def _put_key(self, key: str) -> None:
        event = key_to_event(key)
        if event is not None:
            self.put(event)

    def _end(self) -> None:
        """End of input is a request to quit (unless we are the ones closing)."""
        if not self._closed.is_set():
            self.put(Event.QUIT)

    def close(self) -> None:
        self._closed.set()
        if self._saved is not None:
            import termios

            termios.tcsetattr(self._stream.fileno(), termios.TCSADRAIN, self._saved)
            self._saved = None
