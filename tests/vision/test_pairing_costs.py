"""What the joint assignment weighs: each card's print against each island's, and colour."""

from __future__ import annotations

import numpy as np
from zefiria.vision.assignment import solve
from zefiria.vision.card_identity import COLOUR_WEIGHT, pairing_costs

# Three islands of one colour, then two of another: each card's colour cost (in units of
# the deck's typical difference between islands) to each island. The light on each card
# now tints it nearer a neighbour of its colour than its own island (up to 0.3 here).
COLOUR = np.array(
    [
        [0.45, 0.15, 0.30, 2.0, 2.1],
        [0.20, 0.40, 0.10, 2.2, 1.9],
        [0.10, 0.35, 0.40, 1.8, 2.0],
        [2.0, 2.1, 1.9, 0.10, 0.25],
        [2.2, 1.9, 2.0, 0.30, 0.15],
    ],
    np.float32,
)


def _prints(own: float, other: float) -> np.ndarray:
    """Print misfits (per pixel): ``own`` to each card's own island (cell k holds island
    k), ``other`` to every other island's."""
    out = np.full((5, 5), other, np.float32)
    np.fill_diagonal(out, own)
    return out


def test_a_card_seen_clearly_is_told_from_its_colours_islands_by_its_print() -> None:
    prints = _prints(0.02, 0.2)
    assert solve(pairing_costs(prints, COLOUR)).tolist() == [0, 1, 2, 3, 4]
    # (the colours' tint alone, at full weight, outweighed the prints)
    assert solve(prints + COLOUR_WEIGHT * COLOUR).tolist() != [0, 1, 2, 3, 4]


def test_colour_still_tells_islands_of_other_colours_apart() -> None:
    # Cards 3 and 4 (the second colour) fit the first colour's prints as well as their own:
    # colour, far beyond the light's tint, keeps them on their own colour's islands.
    prints = _prints(0.02, 0.2)
    prints[3:, :3] = 0.02
    prints[:3, 3:] = 0.02
    choice = solve(pairing_costs(prints, COLOUR))
    assert set(choice[:3].tolist()) == {0, 1, 2} and set(choice[3:].tolist()) == {3, 4}


def test_a_card_whose_print_fits_no_island_closely_keeps_colour_at_full_weight() -> None:
    # Half hidden (a pawn, blur): its print barely prefers island 1 to its own island 0
    prints = _prints(0.02, 0.2)
    prints[0, :3] = (0.95, 0.90, 0.97)
    colour = COLOUR.copy()
    colour[0, :3] = (0.10, 0.30, 0.35)  # its colours say island 0, by 0.2
    assert solve(pairing_costs(prints, colour))[0] == 0
    costs = pairing_costs(prints, colour)
    np.testing.assert_array_equal(costs[0], prints[0] + COLOUR_WEIGHT * colour[0])


def test_colour_within_the_lights_tint_still_settles_a_near_tie_of_the_prints() -> None:
    # Card 0 fits island 1's print a hair better than its own; its colours say island 0
    prints = _prints(0.02, 0.2)
    prints[0, 1] = 0.019
    prints[1, 0] = 0.019
    colour = COLOUR.copy()
    colour[0, :3] = (0.10, 0.30, 0.35)
    colour[1, :3] = (0.30, 0.10, 0.35)
    assert solve(pairing_costs(prints, colour)).tolist() == [0, 1, 2, 3, 4]
