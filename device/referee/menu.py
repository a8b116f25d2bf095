"""The setup menu on the OLED, answered with the four buttons: Hint down, Undo up, OK choose.

Players, mode, solo difficulty, the spirits in turn order and the language: everything
:class:`~zefiria.device.referee.loop.Setup` needs. The grid is not asked: the camera reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from zefiria.device.controls.events import Event
from zefiria.device.display.screens import MenuView, Screen
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Difficulty, Mode

from .loop import Setup
from .session import Controls

T = TypeVar("T")


class MenuClosed(Exception):
    """The players quit (or asked to shut down) in the middle of the menu."""


def pick(
    controls: Controls,
    show: Callable[[Screen], None],
    title: str,
    options: Sequence[tuple[str, T]],
    selected: int = 0,
) -> T:
    """Show ``options`` and wait for the buttons; raise :class:`MenuClosed` on quit."""
    labels = tuple(label for label, _ in options)
    while True:
        show(MenuView(title, labels, selected))
        event = controls.next_event(timeout=None)
        if event is Event.HINT or event is Event.END_TURN:
            selected = (selected + 1) % len(options)
        elif event is Event.UNDO:
            selected = (selected - 1) % len(options)
        elif event is Event.OK:
            return options[selected][1]
        elif event in (Event.QUIT, Event.SHUTDOWN, None):
            raise MenuClosed(title)


def choose_setup(controls: Controls, show: Callable[[Screen], None], lang: str = "en") -> Setup:
    """Ask the players for a game; raise :class:`MenuClosed` if they quit."""
    lang = pick(
        controls,
        show,
        "Language",
        [("English", "en"), ("Italiano", "it")],
        0 if lang == "en" else 1,
    )
    it = lang == "it"
    players = pick(
        controls,
        show,
        "Giocatori" if it else "Players",
        [("1 (solo)", 1), ("2", 2), ("3", 3), ("4", 4)],
        1,
    )
    mode = pick(
        controls,
        show,
        "Modo" if it else "Mode",
        [("Standard", Mode.STANDARD), ("Storm", Mode.STORM)],
    )
    difficulty: Difficulty | None = None
    if players == 1:
        difficulty = pick(
            controls,
            show,
            "Difficoltà" if it else "Difficulty",
            [(d.value.capitalize(), d) for d in Difficulty],
            1,
        )
    spirits: list[Spirit] = []
    for seat in range(3 if players == 1 else players):
        left = [(s.title, s) for s in Spirit if s not in spirits]
        title = f"{'Spirito' if it else 'Spirit'} {seat + 1}"
        spirits.append(pick(controls, show, title, left))
    return Setup(players, mode, tuple(spirits), difficulty, lang)
