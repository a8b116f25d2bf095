"""Errors of the rules engine. All are :class:`ValueError` subclasses with precise names."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .actions import Action


class Reason(Enum):
    """Machine-readable reason an action is refused (the ``reason`` of ``zefiria check``)."""

    WRONG_PHASE = "wrong_phase"  # e.g. a Fly during setup, or anything after the game ended
    GAME_OVER = "game_over"
    OFF_GRID = "off_grid"
    SAME_CELL = "same_cell"
    OCCUPIED = "occupied"
    ANCHORED = "anchored"
    BLOCKED_PATH = "blocked_path"
    NO_PATH = "no_path"
    NOT_ADJACENT = "not_adjacent"
    NOT_REACHABLE = "not_reachable"  # no Fly of this spirit reaches that cell
    NOT_ON_DIAGONAL = "not_on_diagonal"
    WRONG_COLOUR = "wrong_colour"
    WRONG_ICON = "wrong_icon"
    NOT_ADJACENT_TO_SPIRIT = "not_adjacent_to_spirit"  # Etesia's Breeze
    NOT_OWN_CARD = "not_own_card"  # Skyron's Breeze
    BAD_STAND = "bad_stand"  # Skyron's stand cell is not one of the swapped cells
    OUTSIDE_CROSS = "outside_cross"  # Austro's Breeze
    NOT_EDGE = "not_edge"  # Austro flies beside edge cells only
    LANDING_NOT_FREE = "landing_not_free"  # Austro must end beside a free card
    NOT_ENOUGH_AP = "not_enough_ap"
    MUST_LEAVE_FIRST = "must_leave_first"  # a gem landed on the pawn's card
    NOT_STORM_MODE = "not_storm_mode"
    NO_GEM = "no_gem"
    NOT_A_CORNER = "not_a_corner"
    NOT_OPPOSITE_CORNER = "not_opposite_corner"
    NOT_A_CHOICE = "not_a_choice"  # a solo choice or Austro exit that is not among the options


Value = str | int | tuple[str, ...]


@dataclass(frozen=True)
class Wording:
    """A sentence of the engine as data, so a device can say it in its players' language.

    ``key`` names the sentence (finer than :class:`Reason`: one reason has several shapes)
    and ``values`` fill it: island numbers and AP as ints, spirit names, cells in the
    notation, the deck's colour and icon names, and small words chosen from a fixed set
    (documented beside each key in ``rules.py``). The English sentence stays the error's
    message; nothing here depends on a language.

    >>> Wording.of("fly_same_cell", spirit="Borea", island=7).get("island")
    7
    """

    key: str
    values: tuple[tuple[str, Value], ...] = ()

    @classmethod
    def of(cls, key: str, **values: Value) -> Wording:
        return cls(key, tuple(sorted(values.items())))

    def get(self, name: str) -> Value:
        return dict(self.values)[name]

    def as_dict(self) -> dict[str, Value]:
        return dict(self.values)


class ZefiriaError(ValueError):
    """Base of every error the engine raises on bad input."""


class InvalidActionError(ZefiriaError):
    """Text that is not an action in the notation (a syntax error)."""


class IllegalActionError(ZefiriaError):
    """A well-formed action the rules forbid in this state; the state is left unchanged.

    ``reason`` is machine-readable; ``str(error)`` is a sentence a player understands (in
    English); ``wording`` is the same sentence as data, for other languages (None only from
    code that builds the error by hand).
    """

    def __init__(
        self,
        reason: Reason,
        message: str,
        action: Action | None = None,
        wording: Wording | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.action = action
        self.wording = wording


class ConfigError(ZefiriaError):
    """A game configuration the rules do not allow (players, spirits, difficulty, sleeper)."""


class NothingToUndoError(ZefiriaError):
    """``Game.undo()`` on a game with no actions."""


class RecordError(ZefiriaError):
    """A saved state or game record that cannot be loaded; names the line and the reason."""
