"""The board as text: the 5x5 grid with islands, faces, pawns and gems, and a status line.

Each cell is two lines of nine characters::

     12 or.sn      island 12, orange, snowflake icon
     BOR   * ok    Borea's pawn, a red gem (anchored), the card is in its right cell

Columns are labelled a-e and rows 1-5, as the notation writes cells (``c3``). Colour is
an extra, never the only signal (colour-blind players, ``--no-color``, logs): the initials
and the ``ok`` mark carry the same information.
"""

from __future__ import annotations

from zefiria.engine.grid import SIZE, Cell
from zefiria.engine.notation import COLUMNS, format_cell
from zefiria.engine.state import GameState, Phase, StormEffect, StormEvent

from .texts import text

WIDTH = 9
RESET = "\x1b[0m"

# ANSI colours for the default deck's colours; a custom deck's other names show uncoloured.
CARD_COLOURS = {
    "green": "32",
    "yellow": "33",
    "orange": "38;5;208",
    "blue": "34",
    "pink": "38;5;213",
    "red": "31",
    "purple": "35",
}
HOME = "48;5;22"  # dark green background: the card is in its right cell
PAWN = "1;97"
GEM = "1;91"


def paint(value: str, codes: str, color: bool) -> str:
    return f"\x1b[{codes}m{value}{RESET}" if color and codes else value


def _pawn_at(state: GameState, cell: Cell) -> str:
    """The label of the pawn on (or, for Austro outside, beside) ``cell``."""
    for spirit, pos in zip(state.spirits, state.pawns, strict=True):
        if pos is not None and pos.cell == cell:
            label = spirit.value[:3].upper()
            if pos.outside:
                return f"({label.lower()})"
            if spirit is state.sleeping and state.phase is not Phase.SETUP:
                return label.lower()  # a sleeping pawn still blocks: shown, but quiet
            return label
    return ""


def _cell_lines(state: GameState, cell: Cell, color: bool) -> tuple[str, str]:
    island = state.island_at(cell)
    face = state.config.deck.face(island)
    home = state.is_home(cell)
    top = f"{island:>3} {face.colour[:2]:<2}.{face.icon[:2]:<2}"
    pawn = _pawn_at(state, cell)
    gem = "*" if cell in state.anchored else " "
    bottom = f" {pawn:<5}{gem}{'ok' if home else '  '}"
    if not color:
        return top, bottom
    background = f"{HOME};" if home else ""
    top = paint(f"{island:>3}", f"{background}1;{CARD_COLOURS.get(face.colour, '39')}", True)
    top += paint(f" {face.colour[:2]:<2}.{face.icon[:2]:<2}", background.rstrip(";"), True)
    bottom = paint(f" {pawn:<5}", f"{background}{PAWN}", True)
    bottom += paint(gem, f"{background}{GEM}", True)
    bottom += paint("ok" if home else "  ", background.rstrip(";"), True)
    return top, bottom


def render_board(state: GameState, *, color: bool = False) -> str:
    """The grid with its a-e / 1-5 labels, as lines of text (no trailing newline)."""
    rule = "   +" + "+".join("-" * WIDTH for _ in range(SIZE)) + "+"
    lines = ["    " + "".join(f"{c:^{WIDTH + 1}}" for c in COLUMNS[:SIZE]).rstrip(), rule]
    for r in range(SIZE):
        cells = [_cell_lines(state, (r, c), color) for c in range(SIZE)]
        lines.append(f"{r + 1:>2} |" + "|".join(top for top, _ in cells) + "|")
        lines.append("   |" + "|".join(bottom for _, bottom in cells) + "|")
        lines.append(rule)
    return "\n".join(lines)


def status_line(state: GameState, lang: str = "en") -> str:
    """Round, purple gems left, who plays, AP, red gems: one line under the board."""
    rounds = state.config.purple_gems
    parts = [
        text(lang, "setup")
        if state.phase is Phase.SETUP
        else text(lang, "round", round=state.round, rounds=rounds),
        text(lang, "purple", n=state.purple_left),
    ]
    if state.phase is not Phase.OVER:
        parts.append(text(lang, "turn_of", who=state.active_spirit.title))
    if state.phase is Phase.TURN:
        parts.append(text(lang, "ap", n=state.ap))
    if state.sleeping is not None and state.phase is not Phase.SETUP:
        parts.append(text(lang, "sleeping", who=state.sleeping.title))
    if state.config.mode.value == "storm":
        held = ", ".join(
            f"{s.title} {n}" for s, n in zip(state.spirits, state.gems_held, strict=True)
        )
        parts.append(text(lang, "gems", held=held, pool=state.gem_pool))
    return " | ".join(parts)


def storm_report(event: StormEvent, state: GameState, lang: str = "en") -> list[str]:
    """What a round start's storm did, for the players to do the same on the table.

    ``state`` is the state after the storm (the cards have already moved).
    """
    t1 = event.target1
    lines = [
        text(
            lang,
            "storm",
            storm=event.storm.describe(),
            card=format_cell(event.grid.cell),
            deg=90 * event.rotation,
            t1=format_cell(t1),
            i1=state.island_at(t1),
        )
    ]
    if event.effect is StormEffect.ANCHORED:
        lines.append(text(lang, "storm_anchored", island=state.island_at(t1), cell=format_cell(t1)))
    elif event.effect is StormEffect.SWAPPED and event.target2 is not None:
        t2 = event.target2
        lines.append(
            text(
                lang,
                "storm_swapped",
                a=format_cell(t1),
                b=format_cell(t2),
                x=state.island_at(t1),
                y=state.island_at(t2),
            )
        )
    else:
        lines.append(text(lang, "storm_nothing", why=text(lang, "storm_nothing_why")))
    return lines
