"""End-of-game scoring and the rulebook's rating table, in English and Italian.

+1 VP for each card in its right cell; -1 VP for each card in a wrong cell of its right row;
-2 VP for each card in a wrong row; in storm mode +1 VP for each red gem the players own
(gems still anchoring cards do not count).

>>> from zefiria.engine.setup import new_game
>>> from zefiria.engine.state import GameConfig, Mode
>>> from zefiria.engine.spirits import Spirit
>>> solved = new_game(GameConfig(2, Mode.STANDARD, (Spirit.BOREA, Spirit.JUGO)), seed=0,
...                   grid=range(1, 26))
>>> score(solved)
Score(right=25, wrong_in_row=0, wrong_row=0, gems=0, total=25)
>>> rating(25).endswith("Legendary!")
True
>>> rating_band(21), rating(21, "it")
(2, 'Buon risultato, ma potete fare ancora meglio!')
"""

from __future__ import annotations

from dataclasses import dataclass

from .grid import ALL_CELLS, home_cell
from .state import GameState, Mode

__all__ = ["RATINGS", "Score", "rating", "rating_band", "score"]


@dataclass(frozen=True)
class Score:
    right: int  # cards in their right cell (+1 each)
    wrong_in_row: int  # cards in a wrong cell of their right row (-1 each)
    wrong_row: int  # cards in a wrong row (-2 each)
    gems: int  # red gems the players own (+1 each, storm mode)
    total: int


def score(state: GameState) -> Score:
    """The Victory Points of ``state``'s grid (meaningful at the end, computable any time)."""
    right = wrong_in_row = wrong_row = 0
    for cell, island in zip(ALL_CELLS, state.grid, strict=True):
        home = home_cell(island)
        if home == cell:
            right += 1
        elif home[0] == cell[0]:
            wrong_in_row += 1
        else:
            wrong_row += 1
    gems = sum(state.gems_held) if state.config.mode is Mode.STORM else 0
    total = right - wrong_in_row - 2 * wrong_row + gems
    return Score(right, wrong_in_row, wrong_row, gems, total)


# Lower bounds of the bands: 10 or less / 11-16 / 17-21 / 22-24 / 25 or more.
BAND_FLOORS = (11, 17, 22, 25)

RATINGS: dict[str, tuple[str, ...]] = {
    "en": (
        "With your breezes you'll barely inflate a balloon!",
        "You seem more Breeze Spirits than Wind Spirits!",
        "Good job, but you can do better than that!",
        "Great! Zefiria is celebrating your job!",
        "In Ancient Books a lot has been narrated about really powerful Wind Spirits. "
        "Now their existence has been proved! Legendary!",
    ),
    "it": (
        "Coi vostri Soffi gonfiate a malapena un palloncino!",
        "Più che Spiriti del Vento sembrate Spiriti della Brezza!",
        "Buon risultato, ma potete fare ancora meglio!",
        "Ottimo! Zefiria è in festa per il vostro lavoro!",
        "Nei Testi Antichi si narrava di Spiriti del Vento molto potenti. "
        "Ora c’è la prova della vostra esistenza. Leggendari!",
    ),
}

BAND_LABELS: dict[str, tuple[str, ...]] = {
    "en": ("10 VP or less", "11 up to 16 VP", "17 up to 21 VP", "22 up to 24 VP", "25 VP or more"),
    "it": ("10 Punti o meno", "11 - 16 Punti", "17 - 21 Punti", "22 - 24 Punti", "25 Punti o più"),
}


def rating_band(total: int) -> int:
    """The rating band of a total, 0 (10 or less) to 4 (25 or more).

    >>> [rating_band(t) for t in (-50, 10, 11, 16, 17, 21, 22, 24, 25, 31)]
    [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    """
    return sum(total >= floor for floor in BAND_FLOORS)


def rating(total: int, lang: str = "en") -> str:
    """The rulebook's sentence for ``total``, in ``lang`` ("en" or "it")."""
    try:
        texts = RATINGS[lang]
    except KeyError:
        raise ValueError(f"no rating texts in {lang!r}: choose en or it") from None
    return texts[rating_band(total)]
