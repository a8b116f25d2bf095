"""The table as the game last knew it, photographed: cards that did not move are still known.

The referee knows, after every verdict it gives, which island lies in each cell, which
cards carry a red gem and where each pawn stands. :class:`TableMemory` keeps that photo's
cards beside that knowledge; a later reading that leaves a card ``null`` or uncertain gets
the remembered island back when the card looks exactly as it did then (:mod:`.same_card`).
A card that moved, turned, or had a gem or a pawn put on or taken off does not look the
same, and stays in doubt.

A pawn the reading left out is still on its remembered card when that card, pawn and all,
looks exactly as it did then: a pawn taken off or put on changes the card's print as much
as a gem does (a block misfits by 0.47 or more on DEV decks: see docs/vision.md). Without
this, a card that did not change would be filled as remembered while its pawn, which the
reading missed, went unmentioned.

The gem is doubly checked: a filled cell keeps its remembered gem only if the reading's gem
finder agrees (a gem on a card whose colour hides it in grey would change the card's colour,
not its grey print).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from numpy.typing import NDArray
from zefiria.engine.grid import ALL_CELLS, SIZE, Cell
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Position

from . import reader
from .card_print import cut_prints
from .print_identity import PrintDeck
from .profile import Profile
from .reading import Reading
from .same_card import CardLooks, card_looks, unchanged

U8 = NDArray[Any]


class TableMemory:
    """One remembered photo of the table and what the game says lay on it."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self._looks: CardLooks | None = None
        self._islands: tuple[int, ...] = ()
        self._gems: frozenset[Cell] = frozenset()
        self._pawns: dict[Spirit, Cell] = {}

    def remember(
        self,
        image: U8,
        islands: Sequence[int],
        gems: Iterable[Cell],
        pawns: Mapping[Spirit, Position] | None = None,
    ) -> None:
        """Keep ``image``'s cards as showing ``islands`` (row-major) with ``gems``, and the
        ``pawns`` standing on them (a pawn beside the grid has no card to be known by)."""
        if len(islands) != SIZE * SIZE:
            raise ValueError(f"expected {SIZE * SIZE} islands, got {len(islands)}")
        self._looks = self._cards(image)
        self._islands = tuple(int(k) for k in islands)
        self._gems = frozenset(gems)
        self._pawns = {s: p.cell for s, p in (pawns or {}).items() if not p.outside}

    def recall(self, image: U8, reading: Reading) -> Reading:
        """``reading`` with its doubtful cards filled where they look as remembered, and the
        remembered pawns it left out put back on their cards where those look as remembered
        (with no other pawn read on them)."""
        if self._looks is None or not reading.ok:
            return reading
        doubtful = set(reading.uncertain) | {
            c for c in ALL_CELLS if reading.grid[c[0]][c[1]] is None
        }
        # Remembered pawns the reading left out, on cards where it saw no other pawn
        seen_on = {p.cell for p in reading.pawns.values() if not p.outside}
        missing = {
            s: c for s, c in self._pawns.items() if s not in reading.pawns and c not in seen_on
        }
        if not doubtful and not missing:
            return reading
        wanted = doubtful | set(missing.values())
        cells = [i for i, c in enumerate(ALL_CELLS) if c in wanted]
        same = unchanged(self._looks, self._cards(image), self._deck(), cells)
        sure = {reading.grid[c[0]][c[1]] for c in ALL_CELLS if c not in doubtful}
        grid = [list(row) for row in reading.grid]
        filled: list[Cell] = []
        for i, cell in enumerate(ALL_CELLS):
            if cell not in doubtful or not same[i]:
                continue
            island = self._islands[i]
            read = grid[cell[0]][cell[1]]
            if island in sure or read not in (None, island):
                continue  # the reading says otherwise: the doubt stays
            if (cell in self._gems) != (cell in reading.gems):
                continue  # the gem finder disagrees with the remembered gem
            grid[cell[0]][cell[1]] = island
            sure.add(island)
            filled.append(cell)
        pawns = dict(reading.pawns)
        recalled = [s for s, c in missing.items() if same[ALL_CELLS.index(c)]]
        for spirit in recalled:
            pawns[spirit] = Position(missing[spirit])
        if not filled and not recalled:
            return reading
        return replace(
            reading,
            grid=tuple(tuple(row) for row in grid),
            pawns=pawns,
            uncertain=tuple(c for c in reading.uncertain if c not in filled),
            remembered=tuple(sorted(filled)),
            remembered_pawns=tuple(recalled),
        )

    def _deck(self) -> PrintDeck:
        reader.prepare(self.profile)
        return reader.print_deck()

    def _cards(self, image: U8) -> CardLooks:
        deck = self._deck()
        channel = self.profile.print_channel
        return card_looks(cut_prints(image, reader.card_maps(), deck.card, channel), deck)
