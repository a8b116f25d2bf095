"""The four push buttons through gpiozero, as events.

Each button connects a GPIO to GND and uses the Pi's internal pull-up (gpiozero's default),
so the wiring needs no resistors. OK and Undo also have a long press (MENU and SHUTDOWN):
those two report their short press on *release*, and only if the hold did not fire, so a long
press never also counts as OK or Undo. End turn and Hint report on press, which feels
quicker.
"""

from __future__ import annotations

import threading
import warnings
from typing import Any

from ..config import ButtonsConfig
from .events import Event, EventQueue


class ControlsError(RuntimeError):
    """The buttons or lights cannot be used; the message names the pin and the reason."""


def gpio_problem(name: str, pin: int, exc: BaseException) -> str:
    if isinstance(exc, ImportError):  # gpiozero.BadPinFactory: no pin library, not a Pi
        return f"{name} on GPIO{pin}: no GPIO on this computer ({exc}); use the keyboard"
    return f"{name} on GPIO{pin}: {exc}"


class ButtonControls(EventQueue):
    """OK, Undo, End turn and Hint buttons; ``pin_factory`` None uses gpiozero's default."""

    def __init__(self, config: ButtonsConfig, pin_factory: Any = None) -> None:
        super().__init__()
        from gpiozero.exc import PinFactoryFallback  # type: ignore[import-untyped]

        self._buttons: list[Any] = []
        self._held: dict[Event, bool] = {}
        self._lock = threading.Lock()
        bounce = config.bounce or None
        layout = (
            ("ok", config.ok, Event.OK, Event.MENU, config.menu_hold),
            ("undo", config.undo, Event.UNDO, Event.SHUTDOWN, config.shutdown_hold),
            ("end_turn", config.end_turn, Event.END_TURN, None, None),
            ("hint", config.hint, Event.HINT, None, None),
        )
        try:
            with warnings.catch_warnings():
                # gpiozero warns once per pin library it cannot load; the error says enough
                warnings.simplefilter("ignore", PinFactoryFallback)
                self._open(layout, bounce, pin_factory)
        except BaseException:
            self.close()
            raise

    def _open(self, layout: Any, bounce: float | None, pin_factory: Any) -> None:
        from gpiozero import Button  # type: ignore[import-untyped]
        from gpiozero.exc import GPIOZeroError

        for name, pin, short, long, hold in layout:
            try:
                button = Button(
                    pin,
                    pull_up=True,
                    bounce_time=bounce,
                    hold_time=hold or 1.0,
                    pin_factory=pin_factory,
                )
            except GPIOZeroError as exc:
                raise ControlsError(gpio_problem(f"button {name}", pin, exc)) from None
            self._buttons.append(button)
            if long is None:
                button.when_pressed = self._emitter(short)
            else:
                self._held[short] = False
                button.when_pressed = self._pressed(short)
                button.when_held = self._holder(short, long)
                button.when_released = self._released(short)

    # gpiozero calls these from its own threads; they only touch the queue and the flags.
    def _emitter(self, event: Event) -> Any:
        return lambda: self.put(event)

    def _pressed(self, short: Event) -> Any:
        def pressed() -> None:
            with self._lock:
                self._held[short] = False

        return pressed

    def _holder(self, short: Event, long: Event) -> Any:
        def held() -> None:
            with self._lock:
                self._held[short] = True
            self.put(long)

        return held

    def _released(self, short: Event) -> Any:
        def released() -> None:
            with self._lock:
                was_held = self._held[short]
            if not was_held:
                self.put(short)

        return released

    def close(self) -> None:
        for button in self._buttons:
            button.close()
        self._buttons = []
