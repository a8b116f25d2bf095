"""Screens draw inside 128x64, every luma stand-in works, the terminal preview is faithful."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from zefiria.device.config import DisplayConfig
from zefiria.device.display import (
    DisplayError,
    HintView,
    MenuView,
    MessageView,
    MoveView,
    RoundView,
    ScoreView,
    Screen,
    SpiritView,
    StormView,
    TerminalDevice,
    close_display,
    frame_to_text,
    open_display,
    render,
    show,
)

LONG = "a very long explanation that certainly does not fit on one line of the screen " * 3

SCREENS: list[Screen] = [
    MenuView("New game", ("2 players", "3 players", "4 players", "Solo", "Storm mode"), 4),
    RoundView(3, 6, 4, storm=True),
    SpiritView("Skyron", 2, 4, gems=3, round=2, note="must fly away first"),
    MoveView(True, "Breeze 7 <-> 12", ap=2),
    MoveView(False, "Fly to 3,2", "card 13 is anchored", ap=3),
    MoveView(False, LONG, LONG),
    StormView("Tornado 2", (0, 1), (4, 3), "swap 7 and 12", frozenset({(2, 2)})),
    StormView("Blizzard east 1", (2, 2), None, "anchor 13"),
    ScoreView(19, "Good job, but you can do better than that!", details="+15 -4 -6 +2"),
    ScoreView(-12, LONG),
    HintView("Jugo: Breeze 14 with 23 (2 AP)"),
    MessageView("Put back", "Put back cards 7 and 12"),
    MessageView("Message", LONG),
]


@pytest.mark.parametrize("view", SCREENS, ids=lambda v: type(v).__name__)
def test_every_screen_draws_something_inside_the_frame(view: Screen) -> None:
    image = render(view)
    assert image.mode == "1" and image.size == (128, 64)
    lit = sum(image.histogram()[1:])
    assert 40 < lit < 128 * 64 * 0.6  # something, and not a white blob


def test_text_is_wrapped_not_cut_at_the_right_edge() -> None:
    # A wrapped long text leaves the last two columns dark (the layout keeps a margin).
    image = render(MessageView("Message", LONG))
    right = [image.getpixel((127, y)) for y in range(14, 64)]
    assert not any(right)


def test_storm_minimap_marks_both_targets() -> None:
    image = render(StormView("Tornado 1", (0, 0), (4, 4), "swap"))
    # target cells are filled boxes: 12 px cells from (0, 1)
    assert image.getpixel((2, 4)) and image.getpixel((4 * 12 + 2, 4 * 12 + 4))
    assert not image.getpixel((2 * 12 + 6, 2 * 12 + 6))


def test_menu_keeps_the_selected_item_visible() -> None:
    items = tuple(f"item {i}" for i in range(10))
    top, bottom = render(MenuView("Menu", items, 0)), render(MenuView("Menu", items, 9))
    assert top.tobytes() != bottom.tobytes()
    # the highlighted row (white bar) is on the screen in both
    for image in (top, bottom):
        assert any(all(image.getpixel((x, y)) for x in range(100, 120)) for y in range(14, 64))


def test_dummy_device_shows_the_same_pixels_as_render() -> None:
    device = open_display(DisplayConfig(driver="dummy"))
    view = SCREENS[1]
    show(device, view)
    assert device.image.convert("1").tobytes() == render(view).tobytes()
    close_display(device)


def test_capture_writes_png_frames(tmp_path: Path) -> None:
    device = open_display(DisplayConfig(driver="capture"), output=tmp_path / "frames")
    for view in SCREENS[:3]:
        show(device, view)
    close_display(device)
    frames = sorted((tmp_path / "frames").glob("*.png"))
    assert len(frames) == 3
    assert Image.open(frames[0]).size == (128, 64)


def test_gifanim_writes_one_animated_gif(tmp_path: Path) -> None:
    gif = tmp_path / "game.gif"
    device = open_display(DisplayConfig(driver="gifanim", output=str(gif)))
    for view in SCREENS[:4]:
        show(device, view)
    close_display(device)
    with Image.open(gif) as image:
        assert image.n_frames == 4
        assert image.size == (256, 128)


def test_terminal_preview_prints_half_blocks() -> None:
    out = io.StringIO()
    device = TerminalDevice(stream=out)
    show(device, MessageView("Hi", "there"))
    close_display(device)  # persist: no blank frame at exit
    text = out.getvalue()
    lines = text.splitlines()
    assert len(lines) == 32 + 2 and all(len(line) == 130 for line in lines)
    assert "█" in text and text.count("┌") == 1


def test_frame_to_text_maps_pixel_pairs() -> None:
    image = Image.new("1", (2, 2), 0)
    image.putpixel((0, 0), 1)
    image.putpixel((1, 1), 1)
    assert frame_to_text(image, border=False) == "▀▄"


def test_missing_i2c_bus_is_a_clear_error() -> None:
    config = DisplayConfig(driver="ssd1306", i2c_port=31)
    with pytest.raises(DisplayError, match=r"display driver 'ssd1306': /dev/i2c-31"):
        open_display(config)


def test_auto_is_the_oled_on_a_pi_and_a_dummy_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    from zefiria.device.display import factory

    monkeypatch.setattr(factory, "is_raspberry_pi", lambda: False)
    device = open_display(DisplayConfig(driver="auto"))
    assert type(device).__name__ == "dummy"
    close_display(device)
    monkeypatch.setattr(factory, "is_raspberry_pi", lambda: True)
    with pytest.raises(DisplayError, match="display driver 'ssd1306'"):  # never silently blind
        open_display(DisplayConfig(driver="auto", i2c_port=31))


def test_a_long_unchanged_screen_still_writes_a_gif(tmp_path: Path) -> None:
    # 60 identical frames of 1.5 s would overflow the GIF's 16-bit delay once merged.
    from zefiria.device.display.factory import MAX_REPEATS, limit_repeats

    frames = [Image.new("RGB", (4, 4))] * 60 + [Image.new("RGB", (4, 4), (255, 255, 255))]
    kept = limit_repeats(frames)
    assert len(kept) == MAX_REPEATS + 1
    assert kept[-1].getpixel((0, 0)) == (255, 255, 255)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_terminal_preview_redraws_in_place_at_a_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import os
    import shutil

    monkeypatch.setattr(
        shutil, "get_terminal_size", lambda fallback=(0, 0): os.terminal_size((140, 50))
    )
    out = _Terminal()
    device = TerminalDevice(stream=out)
    show(device, MessageView("Hi", "there"))
    first = out.getvalue()
    # Cleared once, the frame's 34 rows kept, the log scrolling in rows 35..50.
    assert first.startswith("\x1b[2J\x1b[35;50r\x1b[35;1H\x1b7")
    show(device, MessageView("Hi", "again"))
    second = out.getvalue()[len(first) :]
    # The second frame is drawn over the first: the same 34 rows, no new line, no clearing.
    assert second.startswith("\x1b7\x1b[1;1H") and second.endswith("\x1b8")
    assert "\n" not in second and "\x1b[2J" not in second and "\x1b[34;1H" in second
    close_display(device)
    assert out.getvalue().endswith("\x1b[r\x1b[50;1H\n")  # the whole terminal given back


def test_terminal_preview_scrolls_into_a_pipe_or_a_small_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import os
    import shutil

    monkeypatch.setattr(
        shutil, "get_terminal_size", lambda fallback=(0, 0): os.terminal_size((140, 30))
    )
    for out in (io.StringIO(), _Terminal()):  # a pipe; a terminal 30 rows high
        device = TerminalDevice(stream=out)
        show(device, MessageView("Hi", "there"))
        show(device, MessageView("Hi", "again"))
        close_display(device)
        assert "\x1b" not in out.getvalue() and len(out.getvalue().splitlines()) == 2 * 34
