"""End-of-game scoring and the rating table."""

from __future__ import annotations

from dataclasses import replace

import pytest
from zefiria.engine.scoring import RATINGS, Score, rating, rating_band, score
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Mode

from .builders import turn_state

B, J = Spirit.BOREA, Spirit.JUGO


def with_grid(grid: list[int], mode: Mode = Mode.STANDARD, **kw):  # type: ignore[no-untyped-def]
    return turn_state({B: (0, 0), J: (4, 4)}, B, grid=grid, mode=mode, **kw)


def test_a_perfect_grid_scores_25_and_is_legendary() -> None:
    s = score(with_grid(list(range(1, 26))))
    assert s == Score(right=25, wrong_in_row=0, wrong_row=0, gems=0, total=25)
    assert rating_band(s.total) == 4 and rating(s.total).endswith("Legendary!")
    assert rating(s.total, "it").endswith("Leggendari!")


def test_two_cards_swapped_in_their_row_score_21() -> None:
    grid = list(range(1, 26))
    grid[0], grid[1] = grid[1], grid[0]
    s = score(with_grid(grid))
    assert (s.right, s.wrong_in_row, s.wrong_row, s.total) == (23, 2, 0, 21)
    assert rating(21) == "Good job, but you can do better than that!"


def test_two_cards_swapped_across_rows_score_19() -> None:
    grid = list(range(1, 26))
    grid[0], grid[5] = grid[5], grid[0]
    s = score(with_grid(grid))
    assert (s.right, s.wrong_in_row, s.wrong_row, s.total) == (23, 0, 2, 19)


def test_reversed_grid() -> None:
    # Reversed, only 13 is home; each row's cards land in the mirrored row (row 2 stays).
    s = score(with_grid(list(range(25, 0, -1))))
    assert (s.right, s.wrong_in_row, s.wrong_row) == (1, 4, 20)
    assert s.total == 1 - 4 - 40 and rating_band(s.total) == 0


def test_owned_gems_count_in_storm_mode_only() -> None:
    state = with_grid(list(range(1, 26)), Mode.STORM, gems_held={B: 1, J: 1}, anchored=[(2, 2)])
    s = score(state)
    assert s.gems == 2 and s.total == 27  # the gem still on card 13 does not count
    plain = replace(with_grid(list(range(1, 26))), gems_held=(3, 0))
    assert score(plain).gems == 0


@pytest.mark.parametrize(
    ("total", "band"),
    [(-60, 0), (10, 0), (11, 1), (16, 1), (17, 2), (21, 2), (22, 3), (24, 3), (25, 4), (31, 4)],
)
def test_rating_bands(total: int, band: int) -> None:
    assert rating_band(total) == band
    assert rating(total, "en") == RATINGS["en"][band]
    assert rating(total, "it") == RATINGS["it"][band]


def test_rating_texts_from_both_rulebooks() -> None:
    assert rating(5) == "With your breezes you'll barely inflate a balloon!"
    assert rating(5, "it") == "Coi vostri Soffi gonfiate a malapena un palloncino!"
    assert rating(23, "it") == "Ottimo! Zefiria è in festa per il vostro lavoro!"
    with pytest.raises(ValueError, match="en or it"):
        rating(5, "fr")
