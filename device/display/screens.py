"""The referee's screens: small view-model dataclasses and pure functions drawing them.

A screen function takes a PIL ``ImageDraw`` of a 128x64 canvas and a view, and draws; it
reads nothing else, so the same code draws on the OLED, an emulator, a PNG or a test image.
Texts (English or Italian) come from the caller inside the view: the screens only lay out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw
from zefiria.engine.grid import Cell

from .text import BIG, BODY, SMALL, draw_centred, draw_paragraph, draw_title, font

WIDTH, HEIGHT = 128, 64


@dataclass(frozen=True)
class MenuView:
    """A list to choose from; ``selected`` is the highlighted item."""

    title: str
    items: tuple[str, ...]
    selected: int = 0


@dataclass(frozen=True)
class RoundView:
    """The round banner: purple gems left on the time track (one is removed per round)."""

    round: int
    rounds: int
    purple_left: int
    storm: bool = False
    label: str = "Round"
    gems_label: str = "purple gems left"


@dataclass(frozen=True)
class SpiritView:
    """The active spirit: AP left out of the turn's AP, red gems the players hold."""

    spirit: str
    ap: int
    ap_max: int
    gems: int = 0
    round: int = 0
    note: str = ""  # e.g. "must fly away first"
    ap_label: str = "AP"


@dataclass(frozen=True)
class MoveView:
    """The last move the referee saw, accepted or refused with a short reason."""

    accepted: bool
    move: str
    reason: str = ""
    ap: int | None = None  # AP left after it
    ap_label: str = "AP"


@dataclass(frozen=True)
class StormView:
    """A storm reveal: the cards, the two targets on a 5x5 mini-map, the effect."""

    storm: str  # "Tornado 2", "Blizzard east 1"
    target1: Cell
    target2: Cell | None  # None: target 1 was anchored instead
    effect: str  # "swap 7 and 12", "anchor 13"
    anchored: frozenset[Cell] = frozenset()
    title: str = "Storm"


@dataclass(frozen=True)
class ScoreView:
    score: int
    rating: str
    title: str = "Final score"
    details: str = ""  # e.g. "+18 -2 -6 +1 gem"


@dataclass(frozen=True)
class HintView:
    text: str
    title: str = "Hint"


@dataclass(frozen=True)
class MessageView:
    title: str
    text: str


Screen = (
    MenuView | RoundView | SpiritView | MoveView | StormView | ScoreView | HintView | MessageView
)


def draw_menu(draw: ImageDraw.ImageDraw, view: MenuView) -> None:
    y = draw_title(draw, view.title)
    f = font(BODY)
    rows = 4
    selected = max(0, min(view.selected, len(view.items) - 1))
    first = max(0, min(selected - rows + 1, len(view.items) - rows)) if selected >= rows else 0
    for i, item in enumerate(view.items[first : first + rows]):
        top = y + i * 12
        if first + i == selected:
            draw.rectangle((0, top, 127, top + 11), fill="white")
            draw.text((4, top - 1), item, font=f, fill="black")
        else:
            draw.text((4, top - 1), item, font=f, fill="white")
    if first > 0:
        draw.polygon([(123, y + 3), (126, y + 3), (124, y)], fill="white")  # more above
    if first + rows < len(view.items):
        draw.polygon([(122, 60), (126, 60), (124, 63)], fill="white")  # more below


def _gem(draw: ImageDraw.ImageDraw, x: int, y: int, r: int, filled: bool) -> None:
    """A gem: a diamond centred on (x, y), filled when it is still there."""
    points = [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]
    draw.polygon(points, fill="white" if filled else None, outline="white")


def draw_round(draw: ImageDraw.ImageDraw, view: RoundView) -> None:
    title = f"{view.label} {view.round}/{view.rounds}"
    draw_centred(draw, 2, title, BIG)
    if view.storm:
        draw_centred(draw, 24, "~ STORM ~", SMALL)
    total = max(view.rounds, view.purple_left, 1)
    step = min(16, 120 // total)
    x0 = (WIDTH - step * (total - 1)) // 2
    for i in range(total):
        _gem(draw, x0 + i * step, 44, 5, filled=i < view.purple_left)
    draw_centred(draw, 52, f"{view.purple_left} {view.gems_label}", SMALL)


def draw_spirit(draw: ImageDraw.ImageDraw, view: SpiritView) -> None:
    draw.text((0, -2), view.spirit, font=font(BIG), fill="white")
    if view.round:
        f = font(SMALL)
        label = f"R{view.round}"
        draw.text((127 - int(f.getlength(label)), 0), label, font=f, fill="white")
    # AP pips: filled = still to spend this turn
    f = font(SMALL)
    draw.text((0, 25), view.ap_label, font=f, fill="white")
    pips = max(view.ap_max, view.ap)
    step = min(14, (WIDTH - 24) // max(pips, 1))
    for i in range(pips):
        x = 24 + i * step
        box = (x, 26, x + 9, 35)
        if i < view.ap:
            draw.ellipse(box, fill="white")
        else:
            draw.ellipse(box, outline="white")
    if view.gems:
        for i in range(min(view.gems, 6)):
            _gem(draw, 5 + i * 12, 45, 4, filled=True)
        draw.text((6 + min(view.gems, 6) * 12, 39), f"x{view.gems}", font=f, fill="white")
    if view.note:
        draw_paragraph(draw, (0, 52), view.note, size=SMALL, max_lines=1)


def _tick(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    draw.line([(x, y + 8), (x + 5, y + 13), (x + 14, y + 1)], fill="white", width=3)


def _cross(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    draw.line([(x + 1, y + 1), (x + 13, y + 13)], fill="white", width=3)
    draw.line([(x + 13, y + 1), (x + 1, y + 13)], fill="white", width=3)


def draw_move(draw: ImageDraw.ImageDraw, view: MoveView) -> None:
    (_tick if view.accepted else _cross)(draw, 0, 1)
    draw_paragraph(draw, (20, 1), view.move, size=BODY, width=108, max_lines=2, line_height=13)
    y = 28
    if view.reason:
        lines = 2 if view.ap is not None else 3
        draw_paragraph(draw, (0, y), view.reason, size=SMALL, max_lines=lines, line_height=11)
    if view.ap is not None:
        draw.text((0, 53), f"{view.ap} {view.ap_label} left", font=font(SMALL), fill="white")


def draw_minimap(
    draw: ImageDraw.ImageDraw,
    origin: tuple[int, int],
    cell: int,
    marks: dict[Cell, str],
    anchored: frozenset[Cell] = frozenset(),
) -> None:
    """A 5x5 grid; ``marks`` puts a label ("1", "2") in a filled cell; anchored: a gem."""
    x0, y0 = origin
    f = font(SMALL)
    for r in range(5):
        for c in range(5):
            box = (x0 + c * cell, y0 + r * cell, x0 + (c + 1) * cell, y0 + (r + 1) * cell)
            label = marks.get((r, c))
            if label:
                draw.rectangle(box, fill="white", outline="white")
                tw = f.getlength(label)
                draw.text((box[0] + (cell - tw) / 2 + 0.5, box[1] - 1), label, font=f, fill="black")
            else:
                draw.rectangle(box, outline="white")
                if (r, c) in anchored:
                    _gem(draw, box[0] + cell // 2, box[1] + cell // 2, cell // 2 - 3, True)


def draw_storm(draw: ImageDraw.ImageDraw, view: StormView) -> None:
    marks = {view.target1: "1"}
    if view.target2 is not None and view.target2 != view.target1:
        marks[view.target2] = "2"
    draw_minimap(draw, (0, 1), 12, marks, view.anchored)
    x = 66
    draw.text((x, 0), view.title, font=font(SMALL), fill="white")
    y = draw_paragraph(draw, (x, 12), view.storm, size=BODY, width=60, max_lines=2, line_height=12)
    draw_paragraph(draw, (x, y + 2), view.effect, size=SMALL, width=60, max_lines=3, line_height=11)


def draw_score(draw: ImageDraw.ImageDraw, view: ScoreView) -> None:
    f = font(SMALL)
    draw.text((0, 0), view.title, font=f, fill="white")
    score = f"{view.score}"
    big = font(BIG)
    draw.text((127 - int(big.getlength(score)), -4), score, font=big, fill="white")
    if view.details:
        draw.text((0, 10), view.details, font=f, fill="white")
    draw.line([(0, 23), (127, 23)], fill="white")
    draw_paragraph(draw, (0, 24), view.rating, size=SMALL, max_lines=4, line_height=10)


def draw_hint(draw: ImageDraw.ImageDraw, view: HintView) -> None:
    y = draw_title(draw, view.title)
    draw_paragraph(draw, (0, y), view.text, size=BODY, max_lines=4, line_height=12)


def draw_message(draw: ImageDraw.ImageDraw, view: MessageView) -> None:
    y = draw_title(draw, view.title)
    draw_paragraph(draw, (0, y), view.text, size=BODY, max_lines=4, line_height=12)


_DRAWERS: dict[type, Callable[[ImageDraw.ImageDraw, Any], None]] = {
    MenuView: draw_menu,
    RoundView: draw_round,
    SpiritView: draw_spirit,
    MoveView: draw_move,
    StormView: draw_storm,
    ScoreView: draw_score,
    HintView: draw_hint,
    MessageView: draw_message,
}


def draw_screen(draw: ImageDraw.ImageDraw, view: Screen) -> None:
    """Draw any screen (dispatch on the view's type)."""
    try:
        drawer = _DRAWERS[type(view)]
    except KeyError:
        raise TypeError(f"no screen for {type(view).__name__}") from None
    drawer(draw, view)


def render(view: Screen) -> Image.Image:
    """The screen as a 1-bit 128x64 image (what the OLED shows)."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw_screen(ImageDraw.Draw(image), view)
    return image


def show(device: Any, view: Screen) -> None:
    """Draw ``view`` on a luma device (OLED, emulator, dummy, terminal)."""
    from luma.core.render import canvas  # type: ignore[import-untyped]

    with canvas(device) as draw:
        draw_screen(draw, view)
