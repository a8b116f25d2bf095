"""The green and red LEDs and the buzzer: how the table hears the referee's verdict.

Green = accepted / ready, red = refused / the table does not match; a refused move also
buzzes (:data:`REFUSED_BUZZ`), because players look at the cards, not at the screen.
"""

from __future__ import annotations

import warnings
from typing import Any, Protocol

from ..config import BuzzerConfig, LedsConfig

# (on seconds, off seconds, count): two short buzzes for a refused move, one long for a
# table that does not match the game (a storm not applied, a card knocked).
REFUSED_BUZZ = (0.08, 0.08, 2)
MISMATCH_BUZZ = (0.6, 0.1, 1)
ACCEPTED_BLINK = (0.3, 0.1, 1)


class Feedback(Protocol):
    def ready(self) -> None: ...
    def busy(self) -> None: ...
    def accepted(self) -> None: ...
    def refused(self) -> None: ...
    def mismatch(self) -> None: ...
    def off(self) -> None: ...
    def close(self) -> None: ...


class Lights:
    """LEDs and buzzer through gpiozero; ``pin_factory`` None uses gpiozero's default."""

    def __init__(self, leds: LedsConfig, buzzer: BuzzerConfig, pin_factory: Any = None) -> None:
        from gpiozero import LED, Buzzer  # type: ignore[import-untyped]
        from gpiozero.exc import GPIOZeroError, PinFactoryFallback  # type: ignore[import-untyped]

        from .buttons import ControlsError

        self._devices: list[Any] = []
        try:
            with warnings.catch_warnings():
                # gpiozero warns once per pin library it cannot load; the error says enough
                warnings.simplefilter("ignore", PinFactoryFallback)
                self.green = self._open(LED, "green LED", leds.green, pin_factory, GPIOZeroError)
                self.red = self._open(LED, "red LED", leds.red, pin_factory, GPIOZeroError)
                self.buzzer = (
                    self._open(Buzzer, "buzzer", buzzer.pin, pin_factory, GPIOZeroError)
                    if buzzer.enabled
                    else None
                )
        except ControlsError:
            self.close()
            raise

    def _open(
        self, kind: Any, name: str, pin: int, factory: Any, error: type[BaseException]
    ) -> Any:
        from .buttons import ControlsError, gpio_problem

        try:
            device = kind(pin, pin_factory=factory)
        except error as exc:
            raise ControlsError(gpio_problem(name, pin, exc)) from None
        self._devices.append(device)
        return device

    def ready(self) -> None:
        """Waiting for the players: green on."""
        self.red.off()
        self.green.on()

    def busy(self) -> None:
        """Reading the table: green blinking (do not move the cards)."""
        self.red.off()
        self.green.blink(on_time=0.15, off_time=0.15)

    def accepted(self) -> None:
        self.red.off()
        on, off, n = ACCEPTED_BLINK
        self.green.blink(on_time=on, off_time=off, n=n)

    def refused(self) -> None:
        self.green.off()
        self.red.on()
        self._buzz(REFUSED_BUZZ)

    def mismatch(self) -> None:
        self.green.off()
        self.red.blink(on_time=0.3, off_time=0.3)
        self._buzz(MISMATCH_BUZZ)

    def off(self) -> None:
        self.green.off()
        self.red.off()
        if self.buzzer is not None:
            self.buzzer.off()

    def _buzz(self, pattern: tuple[float, float, int]) -> None:
        if self.buzzer is not None:
            on, off, n = pattern
            self.buzzer.beep(on_time=on, off_time=off, n=n)

    def close(self) -> None:
        for device in self._devices:
            device.close()
        self._devices = []


class NoLights:
    """Feedback for a laptop: nothing to light (the screen says it all)."""

    def ready(self) -> None:
        pass

    def busy(self) -> None:
        pass

    def accepted(self) -> None:
        pass

    def refused(self) -> None:
        pass

    def mismatch(self) -> None:
        pass

    def off(self) -> None:
        pass

    def close(self) -> None:
        pass
