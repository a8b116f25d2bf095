"""The setup menu on the OLED, answered with the four buttons: Hint down, Undo up, OK choose.

Players, mode, solo difficulty, the spirits in turn order and the language: everything
:class:`~zefiria.device.referee.loop.Setup` needs. The grid is not asked: the camera reads it.
The players question also offers to calibrate the camera again (the mast was moved, a new
table, other light), since the players at the table have no terminal to run it from.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from zefiria.device.controls.events import Event
from zefiria.device.display.screens import MenuView, Screen
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Difficulty, Mode

from .calibration import CalibrationCancelled
from .loop import Setup
from .session import Controls

T = TypeVar("T")


class MenuClosed(Exception):
    """The players quit (or asked to shut down) in the middle of the menu."""

    def __init__(self, title: str, shutdown: bool = False) -> None:
        super().__init__(title)
        self.shutdown = shutdown


def pick(
    controls: Controls,
    show: Callable[[Screen], None],
    title: str,
    options: Sequence[tuple[str, T]],
    selected: int = 0,
    idle: Callable[[], object] = lambda: None,
) -> T:
    """Show ``options`` and wait for the buttons; raise :class:`MenuClosed` on quit.

    ``idle`` runs every half second while nobody presses anything (the systemd watchdog
    must hear from the referee while the menu waits).
    """
    labels = tuple(label for label, _ in options)
    show(MenuView(title, labels, selected))
    while True:
        event = controls.next_event(timeout=0.5)
        if event is None:
            idle()
            continue
        if event is Event.HINT or event is Event.END_TURN:
            selected = (selected + 1) % len(options)
        elif event is Event.UNDO:
            selected = (selected - 1) % len(options)
        elif event is Event.OK:
            return options[selected][1]
        elif event in (Event.QUIT, Event.SHUTDOWN):
            raise MenuClosed(title, shutdown=event is Event.SHUTDOWN)
        show(MenuView(title, labels, selected))


def choose_setup(
    controls: Controls,
    show: Callable[[Screen], None],
    lang: str = "en",
    idle: Callable[[], object] = lambda: None,
    calibrate: Callable[[], object] | None = None,
) -> Setup:
    """Ask the players for a game; raise :class:`MenuClosed` if they quit.

    With ``calibrate``, the players question has a last option that runs it and asks again
    (a cancelled calibration keeps the old profile; a shutdown asked there closes the menu).
    """

    def ask(title: str, options: Sequence[tuple[str, T]], selected: int = 0) -> T:
        return pick(controls, show, title, options, selected, idle)

    lang = ask(
        "Language",
        [("English", "en"), ("Italiano", "it")],
        0 if lang == "en" else 1,
    )
    it = lang == "it"
    counts = [("1 (solo)", 1), ("2", 2), ("3", 3), ("4", 4)]
    if calibrate is not None:
        counts.append(("Calibra camera" if it else "Calibrate camera", 0))
    players = 0
    while players == 0:
        players = ask("Giocatori" if it else "Players", counts, 1)
        if players == 0 and calibrate is not None:
            try:
                calibrate()
            except CalibrationCancelled as cancelled:
                if cancelled.shutdown:
                    raise MenuClosed("calibration", shutdown=True) from cancelled
    mode = ask(
        "Modo" if it else "Mode",
        [("Standard", Mode.STANDARD), ("Storm", Mode.STORM)],
    )
    difficulty: Difficulty | None = None
    if players == 1:
        difficulty = ask(
            "Difficoltà" if it else "Difficulty",
            [(d.value.capitalize(), d) for d in Difficulty],
            1,
        )
    spirits: list[Spirit] = []
    for seat in range(3 if players == 1 else players):
        left = [(s.title, s) for s in Spirit if s not in spirits]
        title = f"{'Spirito' if it else 'Spirit'} {seat + 1}"
        spirits.append(ask(title, left))
    return Setup(players, mode, tuple(spirits), difficulty, lang)
