"""The referee's reader: the vision code, plus the table the game last knew.

After every verdict that leaves the table as the game has it (a move accepted, the table
unchanged or put back, the layout read), the session hands the game's state to
:meth:`TableReader.remember`: the last photo's cards are kept with the islands and gems the
game says lay there. Later readings ask :class:`zefiria.vision.table_memory.TableMemory`
to fill the cards the camera left in doubt that look exactly as they did then, and the
pawns it missed whose card, pawn and all, looks as it did; fewer cards in doubt and fewer
pawns unseen mean fewer "look again" photos and fewer questions to the players.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from zefiria.engine.state import GameState

if TYPE_CHECKING:  # the vision code (OpenCV) is imported when a reader is made, not before
    from zefiria.vision.profile import Profile
    from zefiria.vision.table_memory import TableMemory

Image = Any  # a BGR numpy array


class RemembersTable(Protocol):
    """A reader the session tells when the table is known to match the game."""

    def remember(self, state: GameState) -> None: ...


class TableReader:
    """``read_table`` with a :class:`TableMemory` of the last table the game knew."""

    def __init__(self, profile: Profile | None) -> None:
        self.profile: Profile | None = None
        self.memory: TableMemory | None = None
        self._last: Image | None = None
        self.remembered = 0  # cards in doubt read by the remembered table, all readings
        self.remembered_pawns = 0  # pawns the readings missed, put back on unchanged cards
        if profile is not None:
            self.use(profile)

    def use(self, profile: Profile) -> None:
        """Read with ``profile`` from now on (after a calibration): the memory is dropped."""
        from zefiria.vision.reader import prepare
        from zefiria.vision.table_memory import TableMemory

        self.profile = profile
        self.memory = TableMemory(profile)
        self._last = None
        prepare(profile)

    def __call__(self, image: Image) -> dict[str, Any]:
        from zefiria.vision.reader import read_table

        if self.profile is None or self.memory is None:
            return {"status": "unreadable", "reason": "the camera is not calibrated"}
        reading = read_table(image, self.profile)
        if reading.hand is not None:
            # someone is acting: the referee waits, and the hand's cards are not recalled
            self._last = None
            return reading.to_dict()
        reading = self.memory.recall(image, reading)
        self._last = image if reading.ok else None
        self.remembered += len(reading.remembered)
        self.remembered_pawns += len(reading.remembered_pawns)
        return reading.to_dict()

    def remember(self, state: GameState) -> None:
        """The last photo read shows ``state``'s table: keep it to read later ones by."""
        if self._last is None or self.memory is None:
            return
        pawns = {s: p for s, p in zip(state.spirits, state.pawns, strict=True) if p is not None}
        self.memory.remember(self._last, state.grid, state.anchored, pawns)
