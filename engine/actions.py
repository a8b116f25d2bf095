"""The actions a player can take, as small immutable values.

Every action that changes the grid or a pawn is spent by the *active* spirit. Costs are not
stored in actions: they depend on the state (see :func:`zefiria.engine.rules.action_cost`).
The text notation for actions lives in :mod:`zefiria.engine.notation`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .grid import Cell
from .spirits import Spirit


@dataclass(frozen=True)
class Place:
    """Setup: the placing player puts its pawn on corner ``cell``."""

    cell: Cell


@dataclass(frozen=True)
class Leave:
    """Austro's choice of edge cell when leaving an inner card on a tie (free)."""

    cell: Cell


@dataclass(frozen=True)
class Fly:
    """Move the active pawn to ``to`` (1 AP). For Austro outside: beside edge cell ``to``."""

    to: Cell


@dataclass(frozen=True)
class Breeze:
    """Swap the cards at ``a`` and ``b``; cost = cards overflown, the swapped one included.

    ``stand`` is Skyron's choice of cell (``a`` or ``b``) after his Breeze; it is ``None``
    for every other spirit. For Skyron ``a`` is his own cell. For the others the order of
    ``a`` and ``b`` does not matter (:meth:`normalised` puts them in cell order).
    """

    a: Cell
    b: Cell
    stand: Cell | None = None

    def normalised(self) -> Breeze:
        if self.stand is None and self.b < self.a:
            return Breeze(self.b, self.a)
        return self


@dataclass(frozen=True)
class Retrieve:
    """Storm mode: take the red gem from the card at ``cell`` (1 AP)."""

    cell: Cell


@dataclass(frozen=True)
class Spend:
    """Storm mode: ``holder``'s player returns a red gem to the box: +1 AP for the active spirit."""

    holder: Spirit


@dataclass(frozen=True)
class EndTurn:
    """End the active spirit's turn; unused AP are lost."""


@dataclass(frozen=True)
class ChooseFirst:
    """Solo: which of the two awake spirits plays first this round."""

    spirit: Spirit


@dataclass(frozen=True)
class ChooseSleeper:
    """Solo: which of this round's two spirits sleeps next round."""

    spirit: Spirit


Action = Place | Leave | Fly | Breeze | Retrieve | Spend | EndTurn | ChooseFirst | ChooseSleeper

# Actions that change the grid, a pawn or the gems on the table (what a camera can see).
TABLE_ACTIONS = (Place, Leave, Fly, Breeze, Retrieve)
