"""Fixtures for the device tests: gpiozero's mock pins, reset after every test."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

# pygame (luma.emulator) must never try to open a window in the tests.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


@pytest.fixture
def mock_factory() -> Iterator[Any]:
    """Install gpiozero's MockFactory as the default pin factory, and remove it after."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()  # closes every device and forgets the pins
        factory.close()
        Device.pin_factory = saved
