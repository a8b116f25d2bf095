"""The 128x64 OLED: screens drawn on a PIL canvas and the luma device they are shown on.

>>> from zefiria.device.display import MessageView, render
>>> render(MessageView("Put back", "cards 7 and 12")).size
(128, 64)
"""

from .factory import DisplayError, close_display, open_display
from .screens import (
    HintView,
    MenuView,
    MessageView,
    MoveView,
    RoundView,
    ScoreView,
    Screen,
    SpiritView,
    StormView,
    draw_screen,
    render,
    show,
)
from .terminal import TerminalDevice, frame_to_text

__all__ = [
    "DisplayError",
    "HintView",
    "MenuView",
    "MessageView",
    "MoveView",
    "RoundView",
    "ScoreView",
    "Screen",
    "SpiritView",
    "StormView",
    "TerminalDevice",
    "close_display",
    "draw_screen",
    "frame_to_text",
    "open_display",
    "render",
    "show",
]
