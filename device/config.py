"""The device's TOML configuration: pins, display, camera, language and where data lives.

Every key has a documented default (``data/config.example.toml`` is the commented copy), so
an empty file or no file at all is a working laptop setup. A bad file is refused at start
with a :class:`ConfigError` naming the file, the line and the reason: tomllib reports lines
for syntax errors only, so for a wrong value we look the key's line up ourselves.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

# Where `load_config(None)` looks, first match wins. The systemd unit sets ZEFIRIA_CONFIG.
CONFIG_ENV = "ZEFIRIA_CONFIG"
CONFIG_PATHS: tuple[Path, ...] = (
    Path("~/.config/zefiria/config.toml"),
    Path("/etc/zefiria/config.toml"),
)

LANGUAGES = ("en", "it")
DISPLAY_DRIVERS = ("auto", "ssd1306", "sh1106", "dummy", "capture", "gifanim", "terminal")
CAMERA_SOURCES = ("picamera2", "webcam", "folder", "simulated")
# BCM numbers on the 40-pin header; 2 and 3 carry I2C to the OLED and are never buttons.
GPIO_PINS = range(0, 28)
I2C_PINS = (2, 3)


class ConfigError(ValueError):
    """A configuration that cannot be used; the message names the file, line and reason."""


@dataclass(frozen=True)
class ButtonsConfig:
    """BCM pins of the four push buttons, wired to GND and read with internal pull-ups."""

    ok: int = 17
    undo: int = 27
    end_turn: int = 22
    hint: int = 26
    menu_hold: float = 1.5  # holding OK this long opens the menu
    shutdown_hold: float = 5.0  # holding Undo this long shuts the Pi down safely
    bounce: float = 0.03  # contact bounce to ignore, in seconds


@dataclass(frozen=True)
class LedsConfig:
    green: int = 5
    red: int = 6


@dataclass(frozen=True)
class BuzzerConfig:
    pin: int = 13
    enabled: bool = True


@dataclass(frozen=True)
class DisplayConfig:
    driver: str = "auto"  # ssd1306 on a Raspberry Pi, dummy anywhere else
    i2c_port: int = 1
    i2c_address: int = 0x3C
    rotation: int = 0  # quarter turns, as luma's `rotate`
    contrast: int = 255
    output: str = ""  # capture: folder for PNG frames; gifanim: the GIF file


@dataclass(frozen=True)
class CameraConfig:
    source: str = "picamera2"
    still_size: tuple[int, int] = (1640, 1232)
    preview_size: tuple[int, int] = (320, 240)
    autofocus: bool = True
    webcam: str = "0"  # an OpenCV index ("0") or a device path ("/dev/video0")
    folder: str = ""  # source = "folder": photos taken in name order


@dataclass(frozen=True)
class Config:
    language: str = "en"
    deck: Path | None = None  # None: the engine's default deck
    data_dir: Path = field(default_factory=lambda: default_data_dir())
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    leds: LedsConfig = field(default_factory=LedsConfig)
    buzzer: BuzzerConfig = field(default_factory=BuzzerConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    source: str = "defaults"

    @property
    def journal_dir(self) -> Path:
        return self.data_dir / "journal"

    @property
    def history_file(self) -> Path:
        return self.data_dir / "history.sqlite"

    @property
    def profile_file(self) -> Path:
        return self.data_dir / "profile.npz"


def default_data_dir() -> Path:
    """systemd's StateDirectory= when run as the service, else the XDG data folder."""
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0])
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg else Path("~/.local/share").expanduser()
    return base / "zefiria"


def find_config_file() -> Path | None:
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env)
    for candidate in CONFIG_PATHS:
        path = candidate.expanduser()
        if path.is_file():
            return path
    return None


def load_config(path: str | Path | None = None) -> Config:
    """Read the config file (``None``: $ZEFIRIA_CONFIG, then the usual places, else defaults)."""
    p = Path(path) if path is not None else find_config_file()
    if p is None:
        return Config()
    try:
        text = p.read_text("utf-8")
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read config file: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{p}: not a text file (UTF-8 expected)") from None
    return parse_config(text, source=str(p), base=p.parent)


def parse_config(text: str, source: str = "config", base: Path | None = None) -> Config:
    """Parse config text; relative paths in it are taken from ``base`` (the file's folder)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    reader = _Reader(data, _Lines(text, source), base or Path.cwd())
    return reader.config()


class _Lines:
    """Finds the line of ``key`` inside ``[table]`` (tomllib reports lines for syntax only)."""

    def __init__(self, text: str, source: str) -> None:
        self.lines = text.splitlines()
        self.source = source

    def line_of(self, table: str, key: str | None) -> int | None:
        """The line of ``key`` in ``[table]`` (``table.key = `` and top-level keys too);
        with ``key=None`` the line of the table's header (or of ``table = {...}``)."""
        current = ""
        header = re.compile(r"^\s*\[\s*\"?([A-Za-z0-9_\-]+)\"?\s*\]")
        for i, line in enumerate(self.lines, start=1):
            m = header.match(line)
            if m:
                current = m.group(1)
                if key is None and current == table:
                    return i
                continue
            if key is None:
                if current == "" and re.match(rf"^\s*{re.escape(table)}\s*=", line):
                    return i
            else:
                own = current == table and re.match(rf"^\s*\"?{re.escape(key)}\"?\s*=", line)
                dotted = (
                    current == ""
                    and table
                    and re.match(rf"^\s*{re.escape(table)}\.{re.escape(key)}\s*=", line)
                )
                if own or dotted:
                    return i
        return None

    def error(self, table: str, key: str | None, problem: str) -> ConfigError:
        line = self.line_of(table, key)
        if line is None and key is not None:
            line = self.line_of(table, None)
        where = f", line {line}" if line is not None else ""
        name = ".".join(p for p in (table, key) if p)
        return ConfigError(f"{self.source}{where}: {name}: {problem}")


class _Reader:
    def __init__(self, data: dict[str, Any], lines: _Lines, base: Path) -> None:
        self.data = data
        self.lines = lines
        self.base = base

    def table(self, name: str, known: Mapping[str, object]) -> dict[str, Any]:
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            raise self.lines.error("", name, "must be a table ([" + name + "])")
        unknown = sorted(set(value) - set(known))
        if unknown:
            raise self.lines.error(
                name, unknown[0], f"unknown key (known: {', '.join(sorted(known))})"
            )
        return value

    def get(
        self,
        table: str,
        values: dict[str, Any],
        key: str,
        default: T,
        check: Callable[[Any], T | None],
        expected: str,
    ) -> T:
        if key not in values:
            return default
        result = check(values[key])
        if result is None:
            raise self.lines.error(table, key, f"expected {expected}, got {values[key]!r}")
        return result

    def config(self) -> Config:
        known = {"language", "deck", "data_dir", "buttons", "leds", "buzzer", "display", "camera"}
        unknown = sorted(set(self.data) - known)
        if unknown:
            raise self.lines.error("", unknown[0], "unknown key or table")
        top = self.data
        language = self.get("", top, "language", "en", _choice(LANGUAGES), "'en' or 'it'")
        deck_text = self.get("", top, "deck", "", _string, 'a file path (or "")')
        deck = self.path(deck_text) if deck_text else None
        if deck is not None and not deck.is_file():
            raise self.lines.error("", "deck", f"deck file {str(deck)!r} does not exist")
        data_text = self.get("", top, "data_dir", "", _string, 'a folder path (or "")')
        data_dir = self.path(data_text) if data_text else default_data_dir()
        config = Config(
            language=language,
            deck=deck,
            data_dir=data_dir,
            buttons=self.buttons(),
            leds=self.leds(),
            buzzer=self.buzzer(),
            display=self.display(),
            camera=self.camera(),
            source=self.lines.source,
        )
        self.check_pins(config)
        return config

    def path(self, text: str) -> Path:
        p = Path(text).expanduser()
        return p if p.is_absolute() else self.base / p

    def buttons(self) -> ButtonsConfig:
        d = ButtonsConfig()
        t = self.table("buttons", vars(d))
        pin, secs = "a BCM pin number 0..27", "a number of seconds > 0"
        return ButtonsConfig(
            ok=self.get("buttons", t, "ok", d.ok, _pin, pin),
            undo=self.get("buttons", t, "undo", d.undo, _pin, pin),
            end_turn=self.get("buttons", t, "end_turn", d.end_turn, _pin, pin),
            hint=self.get("buttons", t, "hint", d.hint, _pin, pin),
            menu_hold=self.get("buttons", t, "menu_hold", d.menu_hold, _seconds, secs),
            shutdown_hold=self.get("buttons", t, "shutdown_hold", d.shutdown_hold, _seconds, secs),
            bounce=self.get("buttons", t, "bounce", d.bounce, _seconds, secs),
        )

    def leds(self) -> LedsConfig:
        d = LedsConfig()
        t = self.table("leds", vars(d))
        pin = "a BCM pin number 0..27"
        return LedsConfig(
            green=self.get("leds", t, "green", d.green, _pin, pin),
            red=self.get("leds", t, "red", d.red, _pin, pin),
        )

    def buzzer(self) -> BuzzerConfig:
        d = BuzzerConfig()
        t = self.table("buzzer", vars(d))
        return BuzzerConfig(
            pin=self.get("buzzer", t, "pin", d.pin, _pin, "a BCM pin number 0..27"),
            enabled=self.get("buzzer", t, "enabled", d.enabled, _bool, "true or false"),
        )

    def display(self) -> DisplayConfig:
        d = DisplayConfig()
        t = self.table("display", vars(d))
        return DisplayConfig(
            driver=self.get(
                "display",
                t,
                "driver",
                d.driver,
                _choice(DISPLAY_DRIVERS),
                "one of " + ", ".join(DISPLAY_DRIVERS),
            ),
            i2c_port=self.get("display", t, "i2c_port", d.i2c_port, _int_in(0, 32), "0..32"),
            i2c_address=self.get(
                "display",
                t,
                "i2c_address",
                d.i2c_address,
                _int_in(0x03, 0x77),
                "an I2C address 0x03..0x77 (usually 0x3C or 0x3D)",
            ),
            rotation=self.get(
                "display", t, "rotation", d.rotation, _int_in(0, 3), "0, 1, 2 or 3 quarter turns"
            ),
            contrast=self.get("display", t, "contrast", d.contrast, _int_in(0, 255), "0..255"),
            output=self.get("display", t, "output", d.output, _path_text(self.base), "a path"),
        )

    def camera(self) -> CameraConfig:
        d = CameraConfig()
        t = self.table("camera", vars(d))
        size = "[width, height] in pixels"
        camera = CameraConfig(
            source=self.get(
                "camera",
                t,
                "source",
                d.source,
                _choice(CAMERA_SOURCES),
                "one of " + ", ".join(CAMERA_SOURCES),
            ),
            still_size=self.get("camera", t, "still_size", d.still_size, _size, size),
            preview_size=self.get("camera", t, "preview_size", d.preview_size, _size, size),
            autofocus=self.get("camera", t, "autofocus", d.autofocus, _bool, "true or false"),
            webcam=self.get("camera", t, "webcam", d.webcam, _webcam, "an index or a path"),
            folder=self.get("camera", t, "folder", d.folder, _string, "a folder path"),
        )
        if camera.source == "folder" and not camera.folder:
            raise self.lines.error("camera", "source", 'source = "folder" needs camera.folder')
        if camera.folder:
            folder = self.path(camera.folder)
            if not folder.is_dir():
                raise self.lines.error("camera", "folder", f"no such folder: {str(folder)!r}")
            camera = CameraConfig(**{**vars(camera), "folder": str(folder)})
        pw, ph = camera.preview_size
        sw, sh = camera.still_size
        if pw > sw or ph > sh:
            raise self.lines.error(
                "camera", "preview_size", "the preview must not be larger than the still"
            )
        return camera

    def check_pins(self, config: Config) -> None:
        used: dict[int, tuple[str, str]] = {}
        wanted = [
            ("buttons", k, getattr(config.buttons, k)) for k in ("ok", "undo", "end_turn", "hint")
        ]
        wanted += [("leds", "green", config.leds.green), ("leds", "red", config.leds.red)]
        wanted += [("buzzer", "pin", config.buzzer.pin)]
        for table, key, pin in wanted:
            if pin in I2C_PINS:
                raise self.lines.error(
                    table, key, f"GPIO{pin} carries I2C to the display; pick another pin"
                )
            if pin in used:
                # blame the key the file sets: the other one may be a default
                here, there = (table, key), used[pin]
                if self.lines.line_of(*here) is None and self.lines.line_of(*there) is not None:
                    here, there = there, here
                other = ".".join(there)
                raise self.lines.error(*here, f"GPIO{pin} is already used by {other}")
            used[pin] = (table, key)


def _choice(options: tuple[str, ...]) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        return v if isinstance(v, str) and v in options else None

    return check


def _string(v: Any) -> str | None:
    return v if isinstance(v, str) else None


def _path_text(base: Path) -> Callable[[Any], str | None]:
    """A path string, made absolute from the config file's folder (empty stays empty)."""

    def check(v: Any) -> str | None:
        if not isinstance(v, str):
            return None
        if not v:
            return v
        p = Path(v).expanduser()
        return str(p if p.is_absolute() else base / p)

    return check


def _bool(v: Any) -> bool | None:
    return v if isinstance(v, bool) else None


def _int_in(lo: int, hi: int) -> Callable[[Any], int | None]:
    def check(v: Any) -> int | None:
        ok = isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi
        return v if ok else None

    return check


_pin = _int_in(GPIO_PINS.start, GPIO_PINS.stop - 1)


def _seconds(v: Any) -> float | None:
    ok = isinstance(v, int | float) and not isinstance(v, bool) and 0 < v <= 60
    return float(v) if ok else None


def _size(v: Any) -> tuple[int, int] | None:
    ok = (
        isinstance(v, list)
        and len(v) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) and 16 <= n <= 10000 for n in v)
    )
    return (v[0], v[1]) if ok else None


def _webcam(v: Any) -> str | None:
    if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
        return str(v)
    return v if isinstance(v, str) and v else None
