"""The device config: defaults, the shipped example, and refusals naming file, line, reason."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
from zefiria.device.config import Config, ConfigError, load_config, parse_config


def test_no_file_and_empty_file_give_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZEFIRIA_CONFIG", "")
    monkeypatch.setenv("HOME", "/nonexistent")
    empty = parse_config("", "empty.toml")
    assert empty.buttons == Config().buttons
    assert empty.display.i2c_address == 0x3C
    assert empty.camera.still_size == (1640, 1232)


def test_the_shipped_example_is_valid_and_says_the_defaults() -> None:
    text = resources.files("zefiria.device").joinpath("data/config.example.toml").read_text()
    config = parse_config(text, "example")
    defaults = Config()
    assert config.buttons == defaults.buttons
    assert config.leds == defaults.leds
    assert config.buzzer == defaults.buzzer
    assert config.display == defaults.display
    assert config.camera == defaults.camera
    assert config.language == "en"


def test_state_directory_from_systemd_is_the_data_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/zefiria")
    assert parse_config("").data_dir == Path("/var/lib/zefiria")
    assert parse_config("").journal_dir == Path("/var/lib/zefiria/journal")


def test_relative_paths_are_taken_from_the_config_folder(tmp_path: Path) -> None:
    (tmp_path / "photos").mkdir()
    (tmp_path / "deck.toml").write_text("")
    file = tmp_path / "config.toml"
    file.write_text(
        'deck = "deck.toml"\ndata_dir = "data"\n[camera]\nsource = "folder"\nfolder = "photos"\n'
    )
    config = load_config(file)
    assert config.deck == tmp_path / "deck.toml"
    assert config.data_dir == tmp_path / "data"
    assert config.camera.folder == str(tmp_path / "photos")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('language = "fr"', "cfg.toml, line 1: language: expected 'en' or 'it'"),
        ("[buttons]\nok = 3", "line 2: buttons.ok: GPIO3 carries I2C"),
        ("[buttons]\nok = 5", "line 2: buttons.ok: GPIO5 is already used by"),
        ("[leds]\n\nred = 17", "line 3: leds.red: GPIO17 is already used by buttons.ok"),
        ("[camera]\nfoo = 1", "line 2: camera.foo: unknown key"),
        ("colour = 1", "line 1: colour: unknown key"),
        ("[display]\nrotation = 7", "line 2: display.rotation: expected 0, 1, 2 or 3"),
        ('[display]\ndriver = "st7735"', "line 2: display.driver: expected one of auto, ssd1306"),
        ("[display]\ni2c_address = 0x99", "line 2: display.i2c_address: expected an I2C address"),
        ('buttons.hint = "a"', "line 1: buttons.hint: expected a BCM pin"),
        ("[camera]\nstill_size = [10, 10]", "line 2: camera.still_size: expected [width, height]"),
        ("[camera]\npreview_size = [2000, 2000]", "camera.preview_size: the preview must not"),
        ('[camera]\nsource = "folder"', 'line 2: camera.source: source = "folder" needs'),
        ('[camera]\nfolder = "/no/such/folder"', "camera.folder: no such folder"),
        ('deck = "/no/such/deck.toml"', "line 1: deck: deck file '/no/such/deck.toml' does not"),
        ("[buzzer]\nenabled = 1", "line 2: buzzer.enabled: expected true or false"),
        ("[buttons]\nmenu_hold = 0", "buttons.menu_hold: expected a number of seconds"),
        ("buttons = 3", "line 1: buttons: must be a table"),
        ("x = [", "cfg.toml: not valid TOML:"),
    ],
)
def test_bad_values_are_refused_with_line_and_reason(text: str, expected: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(text, "cfg.toml")
    assert expected in str(info.value)
    assert str(info.value).startswith("cfg.toml")


def test_unreadable_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read config file"):
        load_config(tmp_path / "missing.toml")
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ConfigError, match="not a text file"):
        load_config(tmp_path / "bin.toml")


def test_display_output_is_relative_to_the_config_file(tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text('[display]\ndriver = "gifanim"\noutput = "game.gif"\n')
    assert load_config(file).display.output == str(tmp_path / "game.gif")
