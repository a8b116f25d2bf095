"""What the players ask of the referee, as events in one queue the referee loop reads.

Buttons and the keyboard stand-in both feed an :class:`EventQueue`, so the referee never
knows which one it is talking to: ``event = controls.next_event(timeout=0.2)``.
"""

from __future__ import annotations

import queue
from enum import Enum
from types import TracebackType


class Event(Enum):
    OK = "ok"  # confirm: "I moved, read the table", or choose the menu item
    UNDO = "undo"  # take back the last accepted move
    END_TURN = "end_turn"  # the active spirit is done (unused AP are lost)
    HINT = "hint"  # show a suggested move
    MENU = "menu"  # long press on OK: the setup menu
    SHUTDOWN = "shutdown"  # long press on Undo: stop the referee and power the Pi off safely
    QUIT = "quit"  # keyboard only (q, or end of input): stop the referee, leave the computer on


class EventQueue:
    """A thread-safe queue of :class:`Event`; producers call :meth:`put` from any thread."""

    def __init__(self) -> None:
        self._queue: queue.Queue[Event] = queue.Queue()

    def put(self, event: Event) -> None:
        self._queue.put(event)

    def next_event(self, timeout: float | None = None) -> Event | None:
        """The next event, waiting at most ``timeout`` seconds (None: forever); None on timeout."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def pending(self) -> list[Event]:
        """Take every event already waiting, without blocking."""
        events: list[Event] = []
        while True:
            try:
                events.append(self._queue.get_nowait())
            except queue.Empty:
                return events

    def close(self) -> None:
        """Release the inputs (subclasses); the queue itself needs nothing."""

    def __enter__(self) -> EventQueue:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
