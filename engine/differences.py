"""How the table on the camera differs from the table the engine expects, as data and words.

The referee compares the engine's state with what the camera saw in three situations: after a
turn it cannot explain (what to put back), after a storm at round start (which cards the
players must swap), and whenever it wants to check the table is as it believes. Cells whose
reading is uncertain or unreadable are never reported: the camera has no opinion on them.

>>> from zefiria.engine.state import Position
>>> describe_differences([CardDifference((1, 1), 7, 12), CardDifference((2, 2), 12, 7)])
'card 7 should be in b2, card 12 in c3 (swap them back)'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from .grid import ALL_CELLS, Cell, index
from .notation import format_cell
from .observation import Observation
from .spirits import Spirit
from .state import GameState, Position, StormEffect
from .storm import swap_cards

__all__ = [
    "CardDifference",
    "Difference",
    "GemDifference",
    "PawnDifference",
    "StormCheck",
    "check_storm",
    "describe_differences",
    "pure_swaps",
    "table_differences",
]


@dataclass(frozen=True)
class CardDifference:
    """``cell`` should hold island ``expected``; the camera read ``observed`` there."""

    cell: Cell
    expected: int
    observed: int


@dataclass(frozen=True)
class PawnDifference:
    """``spirit``'s pawn should be at ``expected`` (``None``: not in this game)."""

    spirit: Spirit
    expected: Position | None
    observed: Position


@dataclass(frozen=True)
class GemDifference:
    """The card in ``cell`` should (``expected=True``) or should not carry a red gem."""

    cell: Cell
    expected: bool


Difference = CardDifference | PawnDifference | GemDifference


def table_differences(state: GameState, observation: Observation) -> list[Difference]:
    """Every difference between ``state``'s table and what the camera saw, cards first.

    Pawns not seen and wildcard cells (unreadable or uncertain) are not differences.
    """
    out: list[Difference] = []
    wild = observation.wildcards
    for cell in ALL_CELLS:
        seen = observation.grid[index(cell)]
        if cell not in wild and seen is not None and seen != state.island_at(cell):
            out.append(CardDifference(cell, state.island_at(cell), seen))
    for spirit, pos in sorted(observation.pawns.items(), key=lambda kv: kv[0].value):
        expected = state.position_of(spirit) if spirit in state.spirits else None
        if expected != pos:
            out.append(PawnDifference(spirit, expected, pos))
    for cell in ALL_CELLS:
        if cell in wild:
            continue
        if (cell in state.anchored) != (cell in observation.gems):
            out.append(GemDifference(cell, cell in state.anchored))
    return out


def describe_differences(diffs: Sequence[Difference], state: GameState | None = None) -> str:
    """One sentence telling the players how to make the table match (empty if it does).

    With ``state``, pawn and gem places are named by the island there as well as the cell.
    """
    parts: list[str] = []
    cards = [d for d in diffs if isinstance(d, CardDifference)]
    if cards:
        words = [f"card {d.expected} should be in {format_cell(d.cell)}" for d in cards[:1]]
        words += [f"card {d.expected} in {format_cell(d.cell)}" for d in cards[1:]]
        text = ", ".join(words)
        if pure_swaps(cards):
            text += " (swap them back)" if len(cards) == 2 else " (swap each pair back)"
        parts.append(text)
    for d in diffs:
        if isinstance(d, PawnDifference):
            if d.expected is None:
                parts.append(f"{d.spirit.title} is not playing: take that pawn off the table")
            else:
                where = "beside" if d.expected.outside else "on"
                parts.append(
                    f"{d.spirit.title}'s pawn should be {where} {_place(d.expected.cell, state)}"
                )
        elif isinstance(d, GemDifference):
            if d.expected:
                parts.append(f"a red gem should be on {_place(d.cell, state)}")
            else:
                parts.append(f"{_place(d.cell, state)} should not carry a red gem")
    return "; ".join(parts)


def _place(cell: Cell, state: GameState | None) -> str:
    if state is None:
        return format_cell(cell)
    return f"card {state.island_at(cell)} ({format_cell(cell)})"


def pure_swaps(cards: Sequence[CardDifference]) -> bool:
    """True when the wrong cards are pairs that simply traded places."""
    at = {d.cell: d for d in cards}
    for d in cards:
        partner = next((e for e in cards if e.expected == d.observed), None)
        if partner is None or at[partner.cell].observed != d.expected:
            return False
    return True


# -- the storm at round start -----------------------------------------------------------------
@dataclass(frozen=True)
class StormCheck:
    """Whether the players have carried out the last storm on the table.

    ``kind``: ``"done"`` (the table matches the state), ``"pending"`` (the table is still as
    before the storm: ``message`` says what to do), ``"wrong"`` (neither: ``differences``
    against the state after the storm), ``"no_storm"`` (no storm this round; compared with
    the state).
    """

    kind: Literal["done", "pending", "wrong", "no_storm"]
    differences: tuple[Difference, ...]
    message: str


def check_storm(state: GameState, observation: Observation) -> StormCheck:
    """Check the table against the storm the device just drew (``state.last_storm``).

    ``state`` is the engine's state after the round start; the camera may show the table
    before the players resolved the storm or after.
    """
    after = table_differences(state, observation)
    if state.active_spirit is Spirit.AUSTRO:
        after = _ignore_austro_step(after)
    event = state.last_storm
    if event is None:
        kind: Literal["done", "no_storm"] = "no_storm"
        return StormCheck(kind, tuple(after), describe_differences(after, state) or "table ok")
    if not after:
        return StormCheck("done", (), "the table matches the storm")
    before_state = state
    todo = ""
    if event.effect is StormEffect.SWAPPED and event.target2 is not None:
        before_state = swap_cards(state, event.target1, event.target2)
        t1, t2 = event.target1, event.target2
        todo = (
            f"the storm swaps cards {before_state.island_at(t1)} ({format_cell(t1)}) and "
            f"{before_state.island_at(t2)} ({format_cell(t2)}): swap them, pawns with their cards"
        )
    elif event.effect is StormEffect.ANCHORED:
        before_state = replace(state, anchored=state.anchored - {event.target1})
        todo = (
            f"the storm anchors card {state.island_at(event.target1)} "
            f"({format_cell(event.target1)}): put a red gem on it"
        )
    if todo and not _ignore_austro_step(table_differences(before_state, observation)):
        return StormCheck("pending", tuple(after), todo)
    return StormCheck("wrong", tuple(after), describe_differences(after, state))


def _ignore_austro_step(diffs: list[Difference]) -> list[Difference]:
    """Drop Austro seen on his card when the engine has him beside it, or back.

    At the start of his turn Austro steps off his card; whether the player has done it yet
    when the camera looks does not matter to the storm. (Only then: when his turn has just
    ended, he must land on his card before the next player moves, so the storm check keeps
    that difference, unless it is asking for the storm itself first.)
    """

    def same_place(d: Difference) -> bool:
        return (
            isinstance(d, PawnDifference)
            and d.spirit is Spirit.AUSTRO
            and d.expected is not None
            and d.expected.cell == d.observed.cell
        )

    return [d for d in diffs if not same_place(d)]
