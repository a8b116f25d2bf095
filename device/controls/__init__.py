"""Buttons, LEDs and buzzer (gpiozero) and a keyboard stand-in, as one event queue.

The referee reads ``controls.next_event(timeout)`` and tells the table what happened with
``feedback.accepted()`` / ``refused()``; on a laptop :func:`open_controls` gives the
keyboard and no lights.
"""

from __future__ import annotations

from typing import Any

from ..config import Config
from .buttons import ButtonControls, ControlsError
from .events import Event, EventQueue
from .keyboard import KeyboardControls, key_to_event
from .lights import Feedback, Lights, NoLights


def open_controls(config: Config, keyboard: bool = False, pin_factory: Any = None) -> EventQueue:
    """The buttons of ``config`` (or the keyboard); no GPIO is a clear :class:`ControlsError`."""
    if keyboard:
        return KeyboardControls()
    return ButtonControls(config.buttons, pin_factory=pin_factory)


def open_feedback(config: Config, quiet: bool = False, pin_factory: Any = None) -> Feedback:
    """LEDs and buzzer of ``config``, or nothing at all when ``quiet`` (a laptop)."""
    if quiet:
        return NoLights()
    return Lights(config.leds, config.buzzer, pin_factory=pin_factory)


__all__ = [
    "ButtonControls",
    "ControlsError",
    "Event",
    "EventQueue",
    "Feedback",
    "KeyboardControls",
    "Lights",
    "NoLights",
    "key_to_event",
    "open_controls",
    "open_feedback",
]
