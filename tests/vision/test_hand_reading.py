"""A hand over some cards: those cards are in doubt, and the rest of the table is read.

Players reach over the table all the time; a reading refused whole for a hand over two cards
would throw away the twenty others. Every card the hand reaches is uncertain (it may hide a
pawn or a gem there); one is given only when its print is as sure as any other card's (the
fingers can hide its number), and nothing the hand hides or touches may be taken for a pawn
or a gem.
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache

import cv2
import numpy as np
import pytest
from zefiria.engine.grid import ALL_CELLS
from zefiria.engine.spirits import Spirit
from zefiria.vision.calibrate import calibrate
from zefiria.vision.hand import hand_over_cards, hand_reach
from zefiria.vision.overlay import HAND, draw_overlay
from zefiria.vision.profile import Profile
from zefiria.vision.reader import read_table
from zefiria.vision.reading import Status
from zefiria.vision.synthetic import DEV_DESIGNS, Hand, Sample, Scene, make_dataset

pytestmark = pytest.mark.slow


@cache
def _sample() -> Sample:
    return next(iter(make_dataset(1, 5, DEV_DESIGNS[:1], per_setup=1)))


@cache
def _profile() -> Profile:
    solved, pawns = _sample().setup.calibration()
    return calibrate(solved.image, pawns.image)


@pytest.mark.parametrize(("tip", "angle"), [((2.0, 2.0), 90.0), ((0.6, 3.8), -30.0)])
def test_the_cards_a_hand_leaves_visible_are_read(tip: tuple[float, float], angle: float) -> None:
    sample = _sample()
    scene = Scene(grid=sample.scene.grid, pawns=sample.scene.pawns, hand=Hand(tip, angle))
    photo = sample.setup.photo(scene, 7)
    reading = read_table(photo.image, _profile())
    assert reading.status is Status.OK, reading.reason
    assert reading.hand is not None
    covered = set(photo.truth.hand_cells)
    assert covered and covered <= set(reading.hand) <= set(reading.uncertain)
    read = 0
    for r, c in ALL_CELLS:
        if reading.grid[r][c] is not None:
            assert reading.grid[r][c] == scene.island_at((r, c))
            read += 1
    # the hand's reach is a little wider than the hand, never the whole table
    assert read >= 25 - len(reading.hand) - 3 >= 10
    for spirit, pos in reading.pawns.items():
        assert scene.pawns[spirit] == pos
    assert set(reading.gems) <= set(scene.gems)
    data = json.loads(reading.to_json())
    assert data["status"] == "ok" and data["hand"] == [list(c) for c in reading.hand]
    # the overlay shows people which cards the hand keeps from being read
    drawn = draw_overlay(photo.image, reading, _profile())
    assert _hand_marks(drawn) > _hand_marks(
        draw_overlay(photo.image, replace(reading, hand=None), _profile())
    )


def test_a_card_the_hand_leaves_sure_is_read_but_stays_uncertain() -> None:
    sample = _sample()
    scene = Scene(grid=sample.scene.grid, pawns=sample.scene.pawns, hand=Hand((2.0, 2.0), 90.0))
    reading = read_table(sample.setup.photo(scene, 7).image, _profile())
    assert reading.hand is not None
    given = [(r, c) for r, c in reading.hand if reading.grid[r][c] is not None]
    assert given, "no card in the hand's reach was read"
    for r, c in given:
        assert reading.grid[r][c] == scene.island_at((r, c))
        assert (r, c) in reading.uncertain


def test_a_pawn_beside_the_fingertips_is_found_and_its_card_stays_uncertain() -> None:
    """DEV seed 21 #152: Etesia stands on the card the fingertips reach. The hand's reach
    used to keep every pawn in it from the search; her green is not the hand's colour."""
    *_, sample = make_dataset(153, 21, DEV_DESIGNS, per_setup=8)
    solved, pawns = sample.setup.calibration()
    reading = read_table(sample.render().image, calibrate(solved.image, pawns.image))
    assert reading.status is Status.OK, reading.reason
    etesia = sample.scene.pawns[Spirit.ETESIA]
    assert sample.scene.hand is not None and reading.hand is not None
    assert reading.pawns.get(Spirit.ETESIA) == etesia
    assert etesia.cell in reading.hand and etesia.cell in reading.uncertain
    for spirit, pos in reading.pawns.items():
        assert sample.scene.pawns[spirit] == pos


def _hand_marks(image: np.ndarray) -> int:
    return int(np.all(image == np.array(HAND, np.uint8), axis=-1).sum())


def test_a_reading_without_a_hand_has_no_hand_key() -> None:
    sample = _sample()
    reading = read_table(sample.render().image, _profile())
    assert reading.status is Status.OK and reading.hand is None
    assert "hand" not in json.loads(reading.to_json())


def test_the_hand_spans_the_pieces_it_breaks_into() -> None:
    """A wrist over a card of its own colour leaves a gap in what changed: the fingers beyond
    it are the hand still, and so is every card they touch."""
    g = _profile().geometry
    w, h = g.board_size
    mask = np.zeros((h, w), np.uint8)
    o, p = round(g.margin * g.pitch), g.pitch
    mask[h - o : h, o + 2 * p : o + 3 * p] = 1  # the arm, beside the grid under column 2
    mask[o + 4 * p + p // 2 : h - o + 2, o + 2 * p : o + 3 * p] = 1  # the wrist on card (4, 2)
    mask[o + 3 * p + p // 4 : o + 4 * p + p // 2 - 6, o + 2 * p : o + 3 * p] = 1  # the palm
    mask[o + 5 : o + p // 2, o + 4 * p + 5 : o + 5 * p - 5] = 1  # a pawn far away, on (0, 4)
    outside = np.zeros((h // 2 + h % 2, w // 2 + w % 2), bool)
    outside[(h - o) // 2 :, (o + 2 * p) // 2 : (o + 3 * p) // 2] = True
    reach, cells = hand_over_cards(mask, outside, g)
    assert {(4, 2), (3, 2)} <= cells
    assert (0, 4) not in cells and (1, 2) not in cells
    assert reach.shape == mask.shape and reach[o + 4 * p, o + 2 * p + p // 2]


def test_the_hands_shadow_over_the_cards_is_not_its_reach() -> None:
    """The hand hides the print of the cards it is over; its shadow beside it only darkens
    theirs. Joined to the hand, the shadow used to put every card it fell on in doubt."""
    g = _profile().geometry
    w, h = g.board_size
    o, p = round(g.margin * g.pitch), g.pitch
    rng = np.random.default_rng(4)
    print_ = 60.0 + cv2.GaussianBlur(rng.normal(0, 30, (h, w)).astype(np.float32), (0, 0), 1.5)
    light = print_.copy()
    arm = (slice(o + 4 * p + p // 3, h), slice(o + 2 * p + 5, o + 3 * p - 5))
    light[arm] = 60.0  # over card (4, 2) and beside the grid: the print hidden
    shadow = (slice(o + 3 * p, h), slice(o + 3 * p - 5, o + 4 * p + p // 2))
    dark = np.zeros((h, w), np.float32)
    dark[shadow] = 0.4  # cards (3, 3), (4, 3) and half of (4, 4) in its soft shadow
    light *= 1.0 - cv2.GaussianBlur(dark, (0, 0), 6.0)
    res = np.abs(light - print_)
    outside = np.zeros((h // 2 + h % 2, w // 2 + w % 2), bool)
    outside[(h - o) // 2 :, (o + 2 * p + 5) // 2 : (o + 3 * p - 5) // 2] = True
    no_light = np.zeros((25, 3), np.float32)
    _, cells = hand_reach(res, 5.0, no_light, outside, [], g, light, print_)
    assert (4, 2) in cells
    assert not {(3, 3), (4, 3), (4, 4)} & cells
    # (without the print to tell, the shadow is the hand's)
    _, blind = hand_reach(res, 5.0, no_light, outside, [], g)
    assert {(4, 2), (3, 3), (4, 3)} <= blind
