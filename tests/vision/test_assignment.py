"""The joint assignment (Hungarian algorithm) and its confidence margins."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from zefiria.vision.assignment import _hungarian, row_margins, solve, swap_margins


def _best_total(cost: np.ndarray) -> float:
    n = len(cost)
    return min(sum(cost[i, p[i]] for i in range(n)) for p in itertools.permutations(range(n)))


@pytest.mark.parametrize("seed", range(40))
def test_solve_matches_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 7))
    cost = rng.random((n, n)) * 10
    choice = solve(cost)
    assert sorted(choice.tolist()) == list(range(n))
    assert sum(cost[i, choice[i]] for i in range(n)) == pytest.approx(_best_total(cost))


def test_solve_25_is_a_permutation_and_beats_greedy() -> None:
    rng = np.random.default_rng(3)
    cost = rng.random((25, 25))
    choice = solve(cost)
    assert sorted(choice.tolist()) == list(range(25))
    identity = cost.trace()
    assert cost[np.arange(25), choice].sum() <= identity


@pytest.mark.parametrize("seed", range(20))
def test_cards_each_fitting_their_own_island_best_are_the_hungarians_answer(seed: int) -> None:
    # As in a reading: each card fits its own island far better than the others, except
    # now and then a covered card that fits nothing well (then the shortcut does not apply).
    rng = np.random.default_rng(seed)
    cost = rng.random((25, 25)) + 1.0
    truth = rng.permutation(25)
    cost[np.arange(25), truth] = rng.random(25) * 0.5
    if seed % 2:
        cost[3] = 1.5  # a row with no strict best: the Hungarian decides
    assert solve(cost).tolist() == _hungarian(cost).tolist()
    if not seed % 2:
        assert solve(cost).tolist() == truth.tolist()


def test_each_island_once_even_when_one_card_fits_two_cells() -> None:
    # Cell 0 and cell 1 both prefer island 0; the joint answer gives cell 1 its second best.
    cost = np.array([[0.0, 5.0, 9.0], [1.0, 2.0, 9.0], [9.0, 9.0, 0.0]])
    assert solve(cost).tolist() == [0, 1, 2]


def test_margins() -> None:
    cost = np.array([[0.0, 1.0], [3.0, 0.0]])
    choice = solve(cost)
    assert swap_margins(cost, choice).tolist() == [4.0, 4.0]
    assert row_margins(cost, choice).tolist() == [1.0, 3.0]


def test_refuses_bad_matrices() -> None:
    with pytest.raises(ValueError, match="square"):
        solve(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="non-finite"):
        solve(np.array([[0.0, np.nan], [1.0, 0.0]]))
