"""Buttons, LEDs and buzzer through gpiozero's MockFactory, and the keyboard stand-in."""

from __future__ import annotations

import io
import time
from typing import Any

import pytest
from zefiria.device.config import ButtonsConfig, BuzzerConfig, Config, LedsConfig
from zefiria.device.controls import (
    ButtonControls,
    ControlsError,
    Event,
    KeyboardControls,
    Lights,
    NoLights,
    key_to_event,
    open_controls,
    open_feedback,
)

# Short holds keep the suite fast; no bounce so quick mock edges all count.
FAST = ButtonsConfig(menu_hold=0.05, shutdown_hold=0.1, bounce=0)


def _press(factory: Any, pin: int, seconds: float = 0.0) -> None:
    p = factory.pin(pin)
    p.drive_low()  # a pull-up button pressed connects the pin to GND
    if seconds:
        time.sleep(seconds)
    p.drive_high()


def test_short_presses_give_their_events(mock_factory: Any) -> None:
    with ButtonControls(FAST) as controls:
        for pin in (FAST.ok, FAST.undo, FAST.end_turn, FAST.hint):
            _press(mock_factory, pin)
        events = [controls.next_event(timeout=1) for _ in range(4)]
    assert events == [Event.OK, Event.UNDO, Event.END_TURN, Event.HINT]


def test_holding_ok_opens_the_menu_and_is_not_also_ok(mock_factory: Any) -> None:
    with ButtonControls(FAST) as controls:
        _press(mock_factory, FAST.ok, seconds=0.2)
        assert controls.next_event(timeout=1) is Event.MENU
        assert controls.next_event(timeout=0.1) is None


def test_holding_undo_asks_for_a_safe_shutdown(mock_factory: Any) -> None:
    with ButtonControls(FAST) as controls:
        _press(mock_factory, FAST.undo, seconds=0.3)
        assert controls.pending() == [Event.SHUTDOWN]


def test_nothing_pressed_times_out_with_none(mock_factory: Any) -> None:
    with ButtonControls(FAST) as controls:
        start = time.monotonic()
        assert controls.next_event(timeout=0.05) is None
        assert time.monotonic() - start < 1


def test_buttons_release_their_pins_on_close(mock_factory: Any) -> None:
    ButtonControls(FAST).close()
    ButtonControls(FAST).close()  # the pins are free again


def test_pin_already_in_use_is_a_clear_error(mock_factory: Any) -> None:
    with ButtonControls(FAST), pytest.raises(ControlsError, match="button ok on GPIO17"):
        ButtonControls(FAST)


def test_open_controls_uses_the_config_pins(mock_factory: Any) -> None:
    config = Config(buttons=ButtonsConfig(ok=24, undo=25, end_turn=26, hint=16, bounce=0))
    with open_controls(config) as controls:
        _press(mock_factory, 24)
        assert controls.next_event(timeout=1) is Event.OK


def test_refused_move_lights_red_and_buzzes(mock_factory: Any) -> None:
    lights = Lights(LedsConfig(), BuzzerConfig())
    try:
        lights.refused()
        assert mock_factory.pin(6).state == 1  # red on
        assert mock_factory.pin(5).state == 0  # green off
        time.sleep(0.5)  # the two short buzzes
        buzz = [s.state for s in mock_factory.pin(13).states]
        assert buzz.count(1) == 2
        lights.ready()
        assert mock_factory.pin(5).state == 1 and mock_factory.pin(6).state == 0
        lights.off()
        assert mock_factory.pin(5).state == 0
    finally:
        lights.close()


def test_silent_table_has_no_buzzer(mock_factory: Any) -> None:
    feedback = open_feedback(Config(buzzer=BuzzerConfig(enabled=False)))
    try:
        feedback.refused()
        assert mock_factory.pin(13).state == 0
    finally:
        feedback.close()


def test_no_lights_does_nothing_quietly() -> None:
    feedback = open_feedback(Config(), quiet=True)
    assert isinstance(feedback, NoLights)
    feedback.refused()
    feedback.close()


@pytest.mark.parametrize(
    ("key", "event"),
    [
        ("\n", Event.OK),
        ("", Event.OK),
        ("u", Event.UNDO),
        ("undo", Event.UNDO),
        ("E", Event.END_TURN),
        ("h", Event.HINT),
        ("menu", Event.MENU),
        ("q", Event.QUIT),
        ("z", None),
    ],
)
def test_keys_map_to_the_button_events(key: str, event: Event | None) -> None:
    assert key_to_event(key) is event


def test_keyboard_stand_in_reads_lines_then_quits_at_the_end() -> None:
    with KeyboardControls(io.StringIO("\nu\ne\nxyz\nh\n")) as keyboard:
        events = [keyboard.next_event(timeout=1) for _ in range(5)]
    assert events == [Event.OK, Event.UNDO, Event.END_TURN, Event.HINT, Event.QUIT]


def test_in_a_terminal_one_key_is_one_event_and_the_terminal_is_restored() -> None:
    import os
    import termios

    master, slave = os.openpty()
    stream = os.fdopen(slave, "r", encoding="utf-8", closefd=True)
    before = termios.tcgetattr(slave)
    try:
        keyboard = KeyboardControls(stream)
        assert not termios.tcgetattr(slave)[3] & termios.ICANON  # no Enter needed
        os.write(master, b"uh\n")
        events = [keyboard.next_event(timeout=1) for _ in range(3)]
        keyboard.close()
        assert events == [Event.UNDO, Event.HINT, Event.OK]
        assert termios.tcgetattr(slave) == before
    finally:
        os.close(master)
        stream.close()
