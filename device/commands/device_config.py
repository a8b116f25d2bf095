"""The configuration a device command runs with (shared by ``referee`` and ``calibrate``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from zefiria.device.config import Config, load_config


def command_config(path: Path | str | None, simulate: bool) -> Config:
    """The config at ``path`` (or the defaults); raises ``ConfigError`` with the line.

    A simulated table runs on a laptop, which has no OLED: the screens are drawn in the
    terminal instead of on the I2C display the config names.
    """
    config = load_config(path)
    if simulate and config.display.driver in ("ssd1306", "sh1106"):
        config = replace(config, display=replace(config.display, driver="terminal"))
    return config
