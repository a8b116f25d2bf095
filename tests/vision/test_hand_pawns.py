"""Pawns beside a hand: a pawn's colour the hand does not have is left to the pawn search."""

from __future__ import annotations

import numpy as np
from zefiria.vision.hand_pawns import pawns_in_reach

CARD = (60.0, 0.0, 0.0)
SKIN = (65.0, 15.0, 25.0)
GREEN = (50.0, -40.0, 30.0)
ORANGE = (62.0, 30.0, 60.0)
COLOURS = np.array([GREEN, ORANGE], np.float32)
AREAS = np.array([800.0, 800.0])  # board px: a pawn's blob, 16 px across
ICOVS = np.stack([np.eye(3, dtype=np.float32) / 9.0] * 2)  # 3 Lab per sigma


def _table(pawn: tuple[float, float, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A bare card board, a hand from the bottom edge and a pawn touching its fingertips;
    the board, the expected board and the changed pixels."""
    expected = np.zeros((120, 120, 3), np.float32)
    expected[:] = CARD
    lab = expected.copy()
    lab[60:, 40:80] = SKIN
    yy, xx = np.mgrid[:120, :120]
    lab[(yy - 52) ** 2 + (xx - 60) ** 2 <= 64] = pawn
    mask = (np.abs(lab - expected).max(axis=2) > 1).astype(np.uint8)
    return lab, expected, mask


def _reach(mask: np.ndarray) -> np.ndarray:
    reach = np.zeros(mask.shape, bool)
    reach[36:, 30:90] = True  # the hand, the pawn it touches and a margin
    return reach


def test_a_pawn_touching_the_fingers_is_left_to_the_search_and_the_hand_is_not() -> None:
    lab, expected, mask = _table(GREEN)
    keep = pawns_in_reach(lab, expected, mask, _reach(mask), COLOURS, ICOVS, AREAS)
    pawn = np.zeros(mask.shape, bool)
    yy, xx = np.mgrid[:120, :120]
    pawn[(yy - 52) ** 2 + (xx - 60) ** 2 <= 49] = True
    assert keep[pawn].mean() > 0.9
    assert not keep[64:, 40:80].any()  # (the hand's pixels, a little off the pawn)


def test_a_pawn_of_the_hands_own_colour_is_not() -> None:
    lab, expected, mask = _table(ORANGE)
    lab[90:100, 45:75] = ORANGE  # the hand has the orange pawn's colour too (a ring, a lit knuckle)
    keep = pawns_in_reach(lab, expected, mask, _reach(mask), COLOURS, ICOVS, AREAS)
    assert not keep.any()


def test_a_pawn_like_the_card_expected_there_is_not() -> None:
    lab, _, mask = _table(GREEN)
    expected = lab.copy()
    expected[:] = GREEN  # green card art: the green there may be the card's
    keep = pawns_in_reach(lab, expected, mask, _reach(mask), COLOURS, ICOVS, AREAS)
    assert not keep.any()


def test_nothing_outside_the_reach_or_unchanged_is_returned() -> None:
    lab, expected, mask = _table(GREEN)
    assert not pawns_in_reach(
        lab, expected, mask, np.zeros(mask.shape, bool), COLOURS, ICOVS, AREAS
    ).any()
    assert not pawns_in_reach(
        lab, expected, np.zeros_like(mask), _reach(mask), COLOURS, ICOVS, AREAS
    ).any()


def test_a_sliver_of_a_pawns_colour_along_the_hand_is_not() -> None:
    """The hand's shadow over green art, along its edge, is green: a sliver, no pawn."""
    expected = np.zeros((120, 120, 3), np.float32)
    expected[:] = CARD
    lab = expected.copy()
    lab[60:, 40:80] = SKIN
    lab[54:58, 45:75] = GREEN
    mask = (np.abs(lab - expected).max(axis=2) > 1).astype(np.uint8)
    assert not pawns_in_reach(lab, expected, mask, _reach(mask), COLOURS, ICOVS, AREAS).any()


def test_a_pawns_colour_little_changed_from_the_cards_is_not() -> None:
    """Card art a little changed (a shadow, a card pushed) that reaches a pawn's colour is
    not a pawn, which hides the card with a colour far from it."""
    lab, expected, mask = _table(GREEN)
    expected[:] = (GREEN[0], GREEN[1] + 18.0, GREEN[2])  # 6 sigmas from the pawn's green
    mask = (np.abs(lab - expected).max(axis=2) > 1).astype(np.uint8)
    assert not pawns_in_reach(lab, expected, mask, _reach(mask), COLOURS, ICOVS, AREAS).any()
    expected[:] = (GREEN[0], GREEN[1] + 40.0, GREEN[2])
    assert pawns_in_reach(lab, expected, mask, _reach(mask), COLOURS, ICOVS, AREAS).any()
