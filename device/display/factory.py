"""The luma device for a config: the real OLED on the Pi, a stand-in everywhere else.

Like luma.examples we pick the device from configuration, never in code, so every screen is
drawn the same way on the SSD1306, into PNG frames, into an animated GIF of a whole game or
in a terminal.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..config import DisplayConfig


class DisplayError(RuntimeError):
    """The display cannot be opened; the message names the driver and the reason."""


def open_display(config: DisplayConfig, output: str | Path | None = None) -> Any:
    """A luma device for ``config.driver``; ``output`` overrides ``config.output``.

    The OLED keeps its last frame when the program exits (``persist``): a referee that is
    restarted, or the "safe to unplug" screen after shutdown, stays readable.
    """
    driver = config.driver
    if driver == "auto":
        # On a Pi we insist on the OLED (a missing one is an error, never a blind referee);
        # elsewhere there is no I2C display to look for.
        driver = "ssd1306" if is_raspberry_pi() else "dummy"
    target = str(output) if output is not None else config.output
    from luma.core.error import Error as LumaError  # type: ignore[import-untyped]

    try:
        device = _open(driver, config, target)
    except DisplayError:
        raise
    except (LumaError, OSError, RuntimeError, ImportError) as exc:
        raise DisplayError(_explain(driver, config, exc)) from None
    if hasattr(device, "contrast") and driver != "terminal":
        device.contrast(config.contrast)
    return device


def is_raspberry_pi() -> bool:
    """True on a Raspberry Pi (its device tree says so); laptops and CI have none."""
    try:
        model = Path("/proc/device-tree/model").read_bytes()
    except OSError:
        return False
    return model.startswith(b"Raspberry Pi")


def _open(driver: str, config: DisplayConfig, target: str) -> Any:
    rotate = config.rotation
    if driver in ("ssd1306", "sh1106"):
        from luma.core.interface.serial import i2c  # type: ignore[import-untyped]
        from luma.oled import device as oled  # type: ignore[import-untyped]

        serial = i2c(port=config.i2c_port, address=config.i2c_address)
        device = getattr(oled, driver)(serial, width=128, height=64, rotate=rotate)
        device.persist = True
        return device
    if driver == "dummy":
        from luma.core.device import dummy  # type: ignore[import-untyped]

        return dummy(width=128, height=64, rotate=rotate, mode="1")
    if driver == "terminal":
        from .terminal import TerminalDevice

        return TerminalDevice(rotate=rotate)
    if driver in ("capture", "gifanim"):
        # pygame wants a video driver even to build surfaces; "dummy" needs no screen.
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        from luma.emulator import device as emulator  # type: ignore[import-untyped]

        if driver == "capture":
            folder = Path(target or "frames")
            folder.mkdir(parents=True, exist_ok=True)
            template = str(folder / "frame_{0:05}.png")
            return emulator.capture(
                width=128,
                height=64,
                rotate=rotate,
                mode="1",
                transform="none",
                scale=1,
                file_template=template,
            )
        gif = Path(target or "zefiria.gif")
        gif.parent.mkdir(parents=True, exist_ok=True)
        return emulator.gifanim(
            width=128,
            height=64,
            rotate=rotate,
            mode="1",
            transform="identity",
            scale=2,
            filename=str(gif),
            duration=1.5,
        )
    raise DisplayError(f"display driver {driver!r}: unknown")


# Pillow merges identical consecutive GIF frames and adds up their delays; a GIF delay is a
# 16-bit number, so a long unchanged screen (1.5 s a frame) must be cut short before writing.
MAX_REPEATS = 20


def limit_repeats(images: list[Any], most: int = MAX_REPEATS) -> list[Any]:
    """Keep at most ``most`` consecutive identical frames (a paused game stays short)."""
    kept: list[Any] = []
    run = 0
    previous: bytes | None = None
    for image in images:
        data = image.tobytes()
        run = run + 1 if data == previous else 1
        previous = data
        if run <= most:
            kept.append(image)
    return kept


def close_display(device: Any) -> None:
    """Finish with a device: write the GIF now (not only at exit) and release the bus."""
    write = getattr(device, "write_animation", None)
    if callable(write):
        device._images = limit_repeats(device._images)
        write()
        device._images = []  # the atexit hook would write the same GIF again
    device.cleanup()


def _explain(driver: str, config: DisplayConfig, exc: BaseException) -> str:
    if driver in ("ssd1306", "sh1106"):
        bus = f"/dev/i2c-{config.i2c_port}"
        if not Path(bus).exists():
            why = f"{bus} is missing: enable I2C (sudo raspi-config nonint do_i2c 0) and reboot"
        elif isinstance(exc, PermissionError) or "ermission" in str(exc):
            why = f"no permission on {bus}: add the user to the i2c group"
        else:
            why = (
                f"no answer at address {config.i2c_address:#04x} on {bus} ({exc}); "
                f"check the wiring and `i2cdetect -y {config.i2c_port}`"
            )
        return f"display driver {driver!r}: {why}"
    return f"display driver {driver!r}: {exc}"
