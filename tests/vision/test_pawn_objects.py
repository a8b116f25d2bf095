"""The second look for pawns: whole objects of the residual, named by colour under the light
where they stand (vision/pawn_objects.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
import pytest
from zefiria.engine.spirits import CALIBRATION_ORDER, Spirit
from zefiria.engine.state import Position
from zefiria.vision import calibrate as calibrate_module
from zefiria.vision import pawn_objects, print_identity, reader
from zefiria.vision import pawns as pawn_stage
from zefiria.vision.board import BoardGeometry
from zefiria.vision.calibrate import calibrate
from zefiria.vision.light_field import FLAT, LightField
from zefiria.vision.pawn_objects import (
    Look,
    PawnLooks,
    _card_moved,
    _lit_and_shaded,
    _opened,
    learn_looks,
    objects,
    second_look,
)
from zefiria.vision.pixels import components
from zefiria.vision.reader import read_table
from zefiria.vision.synthetic import DEV_DESIGNS, make_dataset

from .photos import pawn_seen

CARD = (40.0, 20.0, 30.0)  # a brownish card, unlike every pawn
# Borea, Jugo, Etesia, Skyron, Austro: median colours of their whole objects
LOOKS = PawnLooks(
    colours=np.array(
        [
            [60.0, 0.0, -10.0],
            [65.0, 20.0, 60.0],
            [50.0, -40.0, 30.0],
            [35.0, 35.0, -30.0],
            [20.0, 0.0, 0.0],
        ],
        np.float32,
    ),
    areas=np.full(5, 42.0),  # half-res px: a 14 x 12 board px object
    offsets=np.zeros((5, 2)),
)


def _geometry() -> BoardGeometry:
    return BoardGeometry(np.eye(3), (400, 300), pitch=48, margin=0.7, shrink=1)


def _board() -> np.ndarray:
    side = _geometry().board_size[0]
    return np.broadcast_to(np.array(CARD, np.float32), (side, side, 3)).copy()


def _learned_at() -> np.ndarray:
    """Each pawn learned on islands 1..5: the top row's cells."""
    g = _geometry()
    return np.array([g.cell_centre((0, c)) for c in range(5)])


def _put(
    lab: np.ndarray, at: tuple[float, float], colour: tuple[float, ...], seed: int = 0
) -> None:
    x, y = round(at[0]), round(at[1])
    noise = np.random.default_rng(seed).normal(0, 1.5, (14, 12, 3))
    lab[y - 7 : y + 7, x - 6 : x + 6] = np.array(colour, np.float32) + noise


def _look(
    lab: np.ndarray,
    expected: np.ndarray,
    field: LightField = FLAT,
    missing=None,
    looks: PawnLooks = LOOKS,
) -> dict:
    mask = (np.abs(lab - expected).sum(axis=-1) > 3).astype(np.uint8)
    placed = {} if missing is None else {s: (0.0, 0.0) for s in Spirit if s not in missing}
    look = second_look(lab, expected, mask, looks, _learned_at(), field, placed, [], _geometry())
    return {s.spirit: s.position for s in look.seen}


def _brighter(at: tuple[float, float], than: tuple[float, float], ratio: float) -> LightField:
    """A field whose light at ``at`` is ``ratio`` times that at ``than`` (a slope in x)."""
    k = float(np.log(ratio)) / (at[0] - than[0])
    return LightField(np.array([k, 0.0, 0.0, 0.0, 0.0]), (0.0, 0.0), 1.0)


def test_a_pawn_under_brighter_light_is_named_by_its_colour_scaled_to_it() -> None:
    # Borea learned at (60, 0, -10) in island 1's corner; on cell (2, 4), 30% more light:
    # its object's median reads ((60 + 16) * 1.3 - 16, 0, -13) = (82.8, 0, -13), 23 Lab off
    g = _geometry()
    expected = _board()
    lab = expected.copy()
    at = g.cell_centre((2, 4))
    _put(lab, at, ((60.0 + 16.0) * 1.3 - 16.0, 0.0, -13.0))
    field = _brighter(at, tuple(_learned_at()[0]), 1.3)
    assert _look(lab, expected, field) == {Spirit.BOREA: Position((2, 4))}
    # the same object taken at the learned light is too far from every pawn to be named
    assert _look(lab, expected) == {}


def test_a_grey_between_the_white_and_the_dark_pawns_is_not_named() -> None:
    g = _geometry()
    expected = _board()
    lab = expected.copy()
    _put(lab, g.cell_centre((3, 3)), (40.0, 0.0, -5.0))  # between Borea's grey and Austro's
    assert _look(lab, expected) == {}


def test_two_objects_of_one_pawns_colour_are_neither_named() -> None:
    g = _geometry()
    expected = _board()
    lab = expected.copy()
    _put(lab, g.cell_centre((1, 1)), (65.0, 20.0, 60.0), 1)
    assert _look(lab, expected) == {Spirit.JUGO: Position((1, 1))}
    _put(lab, g.cell_centre((3, 2)), (65.0, 20.0, 60.0), 2)
    assert _look(lab, expected) == {}


def test_a_pawn_like_object_of_no_pawns_colour_leaves_its_card_in_doubt() -> None:
    # Compact, a pawn's size, strongly changed, hiding the card: a pawn whose colour drifted
    # too far to be named. Its card is not seen empty. A faint one is the light or the art.
    g = _geometry()
    expected = _board()
    for colour, doubts in (((40.0, 0.0, -5.0), {(3, 3)}), ((40.0, 5.0, 12.0), set())):
        lab = expected.copy()
        _put(lab, g.cell_centre((3, 3)), colour)
        mask = (np.abs(lab - expected).sum(axis=-1) > 3).astype(np.uint8)
        look = second_look(lab, expected, mask, LOOKS, _learned_at(), FLAT, {}, [], g)
        assert look.seen == []
        assert look.doubts == doubts


def test_two_objects_named_as_one_pawn_leave_both_cards_in_doubt() -> None:
    # Neither is reported, but neither card is seen empty either: one of them holds the
    # pawn (DEV seed 5 #345's Borea card was once read as bare so; its rival there was a
    # faint object, no rival since; #320 still has two objects named Borea).
    g = _geometry()
    expected = _board()
    lab = expected.copy()
    _put(lab, g.cell_centre((1, 1)), (65.0, 20.0, 60.0), 1)
    _put(lab, g.cell_centre((3, 2)), (65.0, 20.0, 60.0), 2)
    mask = (np.abs(lab - expected).sum(axis=-1) > 3).astype(np.uint8)
    look = second_look(lab, expected, mask, LOOKS, _learned_at(), FLAT, {}, [], g)
    assert look.seen == []
    assert look.doubts == {(1, 1), (3, 2)}


def test_the_cards_print_showing_through_is_no_rival_to_a_pawn_named() -> None:
    # An object of Borea's colour on island art whose print still shows through it (a pale
    # cast over the art, not a pawn): Borea named elsewhere is still Borea.
    g = _geometry()
    expected = _board()
    x, y = (round(v) for v in g.cell_centre((3, 3)))
    art = np.kron(np.random.default_rng(4).random((4, 4)), np.ones((4, 4))) * 20.0
    expected[y - 8 : y + 8, x - 8 : x + 8, 0] += art
    lab = expected.copy()
    lab[y - 8 : y + 8, x - 8 : x + 8] = np.stack(
        [55.0 + art, np.zeros((16, 16)), np.full((16, 16), -10.0)], axis=-1
    )
    _put(lab, g.cell_centre((1, 1)), (60.0, 0.0, -10.0))
    assert _look(lab, expected) == {Spirit.BOREA: Position((1, 1))}


def test_a_faint_object_of_a_pawns_colour_is_no_rival_to_it_named() -> None:
    # A standing pawn changes part of its object strongly; an object of Borea's colour on
    # a card of nearly that colour (a change of 18 Lab, under STRONG) is the card's own
    # light or art, not Borea seen badly: Borea named elsewhere is still Borea (DEV seed 5
    # #344 and #298: Borea missed for a faint object of its grey on another card).
    g = _geometry()
    expected = _board()
    x, y = (round(v) for v in g.cell_centre((3, 2)))
    expected[y - 12 : y + 12, x - 10 : x + 10] = (60.0, 10.0, 5.0)
    lab = expected.copy()
    _put(lab, g.cell_centre((3, 2)), (60.0, 0.0, -10.0), 1)
    _put(lab, g.cell_centre((1, 1)), (60.0, 0.0, -10.0), 2)
    assert _look(lab, expected) == {Spirit.BOREA: Position((1, 1))}


def test_a_pawn_found_already_is_not_looked_for_again() -> None:
    g = _geometry()
    expected = _board()
    lab = expected.copy()
    _put(lab, g.cell_centre((1, 1)), (65.0, 20.0, 60.0))
    assert _look(lab, expected, missing=[Spirit.BOREA]) == {}


def test_austro_beside_the_grid_is_placed_there_but_no_other_pawn_is() -> None:
    g = _geometry()
    expected = _board()
    lab = expected.copy()
    x, y = g.cell_centre((2, 4))
    _put(lab, (x + 0.75 * g.pitch, y), (20.0, 0.0, 0.0))
    assert _look(lab, expected) == {Spirit.AUSTRO: Position((2, 4), outside=True)}
    lab = expected.copy()
    _put(lab, (x + 0.75 * g.pitch, y), (50.0, -40.0, 30.0))  # Etesia's green, off the grid
    assert _look(lab, expected) == {}


def _beside_the_grid_on(table: tuple[float, ...], colour: tuple[float, ...]) -> dict:
    """What the second look names in an object of ``colour`` beside the grid's cell (2, 4),
    on a table of colour ``table``."""
    g = _geometry()
    expected = _board()
    x, y = (round(v) for v in g.cell_centre((2, 4)))
    expected[y - 20 : y + 20, x + g.pitch // 2 :] = table
    lab = expected.copy()
    _put(lab, (x + 0.75 * g.pitch, y), colour)
    return _look(lab, expected)


def test_austro_on_a_table_nearly_his_colour_need_not_change_it_strongly() -> None:
    # A dark table 18 Lab from Austro's grey: standing there he changes it by about that
    # much, under STRONG, and was taken for faint and missed silently (DEV seed 5 #270,
    # #329, #344). An object changing the table less than Austro would is still faint.
    table = (32.0, 6.0, 12.0)
    assert _beside_the_grid_on(table, (20.0, 0.0, 0.0)) == {
        Spirit.AUSTRO: Position((2, 4), outside=True)
    }
    assert _beside_the_grid_on(table, (24.0, -2.0, 4.0)) == {}


def test_a_shadow_and_glare_on_the_card_are_no_objects() -> None:
    expected = _board()
    lab = expected.copy()
    lab[40:60, 40:60] *= 0.6  # the card in shade: darker, its hue kept
    t = 0.5  # glare: the card whitened half way
    lab[100:120, 100:120] = expected[100:120, 100:120] * (1 - t) + np.array([100.0, 0, 0]) * t
    mask = (np.abs(lab - expected).sum(axis=-1) > 3).astype(np.uint8)
    _, shapes = objects(lab, expected, mask)
    assert shapes == []
    lab[160:174, 160:172] = (20.0, 0.0, 0.0)  # the dark pawn: an object
    mask = (np.abs(lab - expected).sum(axis=-1) > 3).astype(np.uint8)
    _, shapes = objects(lab, expected, mask)
    assert len(shapes) == 1


def _white_added(lab: np.ndarray, amount: float) -> np.ndarray:
    """Lab pixels with ``amount`` of 255 added to each of B, G, R, clipped at white."""
    bgr = cv2.cvtColor(lab.astype(np.float32), cv2.COLOR_Lab2BGR)
    out: np.ndarray = cv2.cvtColor(np.minimum(bgr + amount / 255.0, 1.0), cv2.COLOR_BGR2Lab)
    return out


def test_a_reflection_on_a_card_of_a_pawns_hue_is_not_that_pawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Fresh deck 6034 (6000-6999 seed 43 #204): a lamp's reflection on a yellow card's
    # edge, its red channel clipped, kept the card's yellow lit brighter and was named
    # Jugo where no pawn stood.
    g = _geometry()
    side = g.board_size[0]
    yellow = np.array([[[66.7, 10.2, 55.6]]], np.float32)
    expected = np.broadcast_to(yellow, (side, side, 3)).copy()
    lab = expected.copy()
    x, y = (round(v) for v in g.cell_centre((2, 3)))
    lab[y - 7 : y + 7, x - 6 : x + 6] = _white_added(yellow, 66.0)
    lab[y - 7 : y + 7, x - 6 : x + 6] += np.random.default_rng(0).normal(0, 1.0, (14, 12, 3))
    colours = LOOKS.colours.copy()
    colours[CALIBRATION_ORDER.index(Spirit.JUGO)] = _white_added(yellow, 66.0)[0, 0]
    looks = PawnLooks(colours, LOOKS.areas, LOOKS.offsets)
    assert _look(lab, expected, looks=looks) == {}
    # (of his colour and size, hiding nothing: only the reflection's test tells it apart)
    monkeypatch.setattr(pawn_objects, "GLARE", 1.1)
    assert _look(lab, expected, looks=looks) == {Spirit.JUGO: Position((2, 3))}


def test_an_object_lit_and_shaded_that_hides_its_card_is_looked_at() -> None:
    # A white pawn on a pale card: its lit top passes for glare and its shaded side for a
    # shadow, pixel by pixel, and no object is left once light's pixels are taken out.
    # Lit and shaded at once, over a card whose print it hides, it is an object after all.
    expected = _board()
    expected[..., 0] += 8.0 * (np.arange(expected.shape[1]) % 4 < 2)  # the card's fine print
    lit, shaded = (slice(100, 107), slice(100, 112)), (slice(107, 114), slice(100, 112))

    def looked_at(lab: np.ndarray, core: bool = False) -> list:
        mask = (np.abs(lab - expected).sum(axis=-1) > 3).astype(np.uint8)
        whole = components(_opened(mask[::2, ::2] > 0))
        labels = (whole[1] > 0).astype(np.int32) if core else np.zeros_like(whole[1])
        return [s for s, _ in _lit_and_shaded(whole, lab, expected, labels, 10.0, set())]

    pawn = expected.copy()
    pawn[lit], pawn[shaded] = (75.0, 10.0, 15.0), (25.0, 12.0, 18.0)
    (shape,) = looked_at(pawn)
    assert abs(shape.cx - 106) < 2 and abs(shape.cy - 107) < 2
    # ...but not one already an object (taken whole from its core), nor glare alone, nor
    # light and shade that leave the card's print showing
    assert looked_at(pawn, core=True) == []
    glare = expected.copy()
    glare[lit] = glare[shaded] = (75.0, 10.0, 15.0)
    assert looked_at(glare) == []
    showing = expected.copy()
    showing[lit] += (30.0, 0.0, 0.0)
    showing[shaded] *= 0.6
    assert looked_at(showing) == []


def test_an_object_darker_than_any_shadow_that_hides_its_card_is_looked_at() -> None:
    # A dark pawn on a grey card: each pixel passes for the card with the calibration's
    # glare gone (a grey whitened is a lighter grey), none is left once light's pixels are
    # taken out. Darker than any shadow over most of it, and hiding the card's print, it
    # is an object after all.
    side = _geometry().board_size[0]
    print_ = (np.arange(side) % 4 < 2).astype(np.float32)  # the card's fine print
    grey = np.zeros((side, side, 3), np.float32)
    grey[..., 0] = 44.0 + 8.0 * print_
    body = (slice(100, 114), slice(100, 112))

    def looked_at(lab: np.ndarray, expected: np.ndarray = grey) -> list:
        mask = (np.abs(lab - expected).sum(axis=-1) > 3).astype(np.uint8)
        assert objects(lab, expected, mask)[1] == []  # light explains every pixel
        whole = components(_opened(mask[::2, ::2] > 0))
        none = np.zeros_like(whole[1])
        return [s for s, _ in _lit_and_shaded(whole, lab, expected, none, 10.0, set())]

    pawn = grey.copy()
    pawn[body] = (10.0, 0.0, 0.0)
    (shape,) = looked_at(pawn)
    assert abs(shape.cx - 106) < 2 and abs(shape.cy - 107) < 2
    # ...but not a shadow (no darker than DEEPEST_SHADE of the card), nor the glare gone
    # indeed: a dark card expected whitened there, its print showing now
    shadow = grey.copy()
    shadow[body] *= (0.6, 1.0, 1.0)
    assert looked_at(shadow) == []
    dark_card = np.zeros_like(grey)
    dark_card[..., 0] = 10.0 + 20.0 * print_
    glared = dark_card.copy()
    glared[body] += 0.4 * (np.array([100.0, 0.0, 0.0], np.float32) - glared[body])
    assert looked_at(dark_card, glared) == []


def test_a_card_nudged_beyond_its_match_is_no_pawn() -> None:
    # The expected card has a white disc of art; the card lies 3 board px further right.
    expected = _board()
    yy, xx = np.mgrid[0:40, 0:40]
    disc = (yy - 20) ** 2 + (xx - 20) ** 2 < 64
    expected[100:140, 100:140][disc] = (90.0, 0.0, 0.0)
    nudged = expected.copy()
    nudged[:, 3:] = expected[:, :-3]
    inside = np.ones((7, 6), bool)  # a half-res object over the disc
    assert _card_moved(nudged, expected, inside, 57, 57) > 0.7
    pawn = expected.copy()
    pawn[114:128, 114:126] = (70.0, 0.0, 0.0)  # white, but a white the card has nowhere
    assert _card_moved(pawn, expected, inside, 57, 57) < 0.5


def _without_past_reach(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cards compared only within the print search, never a step past its edge
    (print_identity.PrintDeck._compare_past_reach): the alignments a photo's case was
    found on."""
    monkeypatch.setattr(
        print_identity.PrintDeck, "_compare_past_reach", lambda self, soft, fits: None
    )


def _dev_reading(
    index: int,
    second: bool,
    monkeypatch: pytest.MonkeyPatch,
    seed: int = 5,
    decks: Sequence[int] = DEV_DESIGNS,
) -> tuple:
    """Photo ``index`` of ``pawn_diag.py --n 192 --seed 5`` (DEV decks, unless ``seed`` and
    ``decks`` say other): its scene and the pawns read, with or without the second look."""
    sample = next(s for s in make_dataset(index + 1, seed, decks, 6) if s.index == index)
    solved, pawns = sample.setup.calibration()
    profile = calibrate(solved.image, pawns.image)
    if not second:
        monkeypatch.setattr(reader, "second_look", lambda *args: Look([], set(), set()))
    return sample.scene, read_table(sample.render().image, profile).pawns


@pytest.mark.slow
@pytest.mark.parametrize(("index", "spirit"), [(29, Spirit.BOREA), (350, Spirit.BOREA)])
def test_a_white_pawn_the_colour_finder_left_out_is_named(
    index: int, spirit: Spirit, monkeypatch: pytest.MonkeyPatch
) -> None:
    # #29: Borea whose colour the colour finder also saw elsewhere, not found by his
    # pixels' colour. #350: Borea, with another object of its colour in the top row that is
    # a card's own print nudged further than the reading matched (0.84 of its pixels found
    # a few px away on the expected board): no pawn, and no rival to the one named.
    # (#15, Borea in a corner far lighter than at calibration, was named here until the
    # board was warped from the halved photo; its object's colour now lies 9.6 from
    # Borea's, where 8 is allowed, and it is missed. #25: see the next test.)
    scene, without = _dev_reading(index, False, monkeypatch)
    assert spirit not in without
    monkeypatch.undo()
    scene, found = _dev_reading(index, True, monkeypatch)
    assert found[spirit] == scene.pawns[spirit]


@pytest.mark.slow
def test_the_white_pawn_whose_shade_reads_as_the_dark_one_is_found_by_his_colour(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # #25: Borea on a yellow card, his shaded side nearest the dark pawn's widely spread
    # grey; only the second look named him. His pixels nearer his lightness now count as
    # his (`pawns._own_share`), and the colour finder places him itself.
    scene, without = _dev_reading(25, False, monkeypatch)
    assert without[Spirit.BOREA] == scene.pawns[Spirit.BOREA]


@pytest.mark.slow
def test_a_pawn_light_explains_most_of_is_taken_whole_where_its_card_does_not_show(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # #33: Borea, white on a pale grey card in a dim corner, whitens it as glare would;
    # light alone explained most of its object and the fragment left was "small". Its
    # whole object hides the card's print, so it is taken whole, and named.
    scene, found = _dev_reading(33, True, monkeypatch)
    assert found[Spirit.BOREA] == scene.pawns[Spirit.BOREA]
    monkeypatch.setattr(pawn_objects, "WHOLE_OPAQUE", -1.0)  # no object is ever opaque enough
    # (the first look finds this Borea too now, by the print it hides: not that look here)
    monkeypatch.setattr(pawn_stage, "NOVEL_HIDDEN", np.inf)
    _, without = _dev_reading(33, True, monkeypatch)
    assert Spirit.BOREA not in without


@pytest.mark.slow
def test_an_object_too_small_for_the_pawn_whose_colour_it_has_is_taken_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # #160: Austro, dark on a blue-grey card, part of him explained as shade; the object
    # left is 0.47 of his at calibration, too small for him though not for every pawn. It
    # is taken whole the way an object too small for any pawn is, and named.
    # (On the rigid fit of the cards that its session kept until e40fe0a: the free one it
    # keeps since, its outline's sides 1.5-3x the typical edge, shows him whole.)
    monkeypatch.setattr(print_identity, "FAINT_OVER_TYPICAL", 3.0)
    # (and on the cards' alignments before the search a step past its edge: with it the
    # expected board around him moves a pixel, he is found without this rule, and the
    # photo no longer tests it)
    _without_past_reach(monkeypatch)
    # (and with no object named under MIN_AREA x his, as before NAMED_AREA: his 0.47 is
    # named as it is since, and the photo would no longer test this rule)
    monkeypatch.setattr(pawn_objects, "NAMED_AREA", pawn_objects.MIN_AREA)
    taken_whole = pawn_objects._opaque_whole
    sizes: list[float] = []  # the least size each object taken whole had to reach

    def asked(*args: Any) -> Any:
        sizes.append(args[5])
        return taken_whole(*args)

    monkeypatch.setattr(pawn_objects, "_opaque_whole", asked)
    scene, found = _dev_reading(160, True, monkeypatch)
    assert found[Spirit.AUSTRO] == scene.pawns[Spirit.AUSTRO]
    # the rule before this one asks for the smallest pawn's size, the least of all
    assert len(set(sizes)) > 1
    smallest = min(sizes)

    def only_below_every_pawn(*args: Any) -> Any:
        return taken_whole(*args) if args[5] <= smallest else None

    monkeypatch.setattr(pawn_objects, "_opaque_whole", only_below_every_pawn)
    _, without = _dev_reading(160, True, monkeypatch)
    assert Spirit.AUSTRO not in without


@pytest.mark.slow
def test_glare_over_dark_art_is_not_taken_whole_for_a_pawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Fresh design 9029 (`pawn_diag.py --designs 9000-9999 --seed 37`, #174, no pawn on the
    # table): glare over a card's dark art hid its print, and light explained all but 4 px
    # of its 64; taken whole, it was named Borea. (Calibration now takes the solved photo's
    # glare off with the pawns photo's pixels, which leaves no such object here: the
    # profile is made as before, so that the case still shows the rule.)
    monkeypatch.setattr(calibrate_module, "clear_glare", lambda board, lab, *_: (board, lab))
    # (nor a card compared a step past its search's edge: with that, the expected board
    # there moves a pixel and the glare is not named even with this rule off)
    _without_past_reach(monkeypatch)
    scene, found = _dev_reading(174, True, monkeypatch, 37, range(9000, 10000))
    assert scene.pawns == {} and found == {}
    monkeypatch.setattr(pawn_objects, "WHOLE_CORE", 0.0)
    _, phantom = _dev_reading(174, True, monkeypatch, 37, range(9000, 10000))
    assert Spirit.BOREA in phantom


@pytest.mark.slow
def test_the_white_pawn_lit_and_shaded_on_a_pale_card_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Fresh deck 3016 (`pawn_diag.py --designs 3000-3999 --seed 11`, #99; 3014's #85 is
    # alike): Borea on a pale blue card, whitened where lit and darkened where shaded;
    # light explained every pixel but scattered ones, and no object was left to name.
    # (LIT_AND_SHADED 1.01: never both)
    _named_only_with(monkeypatch, (range(3000, 4000), 11, 99), "LIT_AND_SHADED", 1.01)


def _named_only_with(
    monkeypatch: pytest.MonkeyPatch,
    photo: tuple[Sequence[int], int, int],
    rule: str,
    off: Any,
    spirit: Spirit = Spirit.BOREA,
) -> None:
    """``spirit`` is placed right in ``photo`` (designs, seed, index) and, with ``rule`` of
    pawn_objects set to ``off``, missed with his card left uncertain."""
    truth, seen, _ = pawn_seen(*photo, spirit)
    assert truth is not None and seen == truth
    monkeypatch.setattr(pawn_objects, rule, off)
    _, without, reading = pawn_seen(*photo, spirit)
    assert without is None and truth.cell in reading.uncertain


@pytest.mark.slow
def test_the_dark_pawn_on_a_grey_card_taken_for_its_glare_gone_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # DEV seed 5 #137 (`pawn_diag.py --read-only --seed 5`): Austro on the grey circle of
    # card 21, every pixel of him passing for that grey with the calibration's glare gone;
    # the first look was unsure and the second found no object. (BEYOND_SHADE 1.01: never)
    photo = (DEV_DESIGNS, 5, 137)
    _named_only_with(monkeypatch, photo, "BEYOND_SHADE", 1.01, Spirit.AUSTRO)


def test_a_pawn_whose_look_was_not_learned_is_never_named() -> None:
    g = _geometry()
    expected = _board()
    lab = expected.copy()
    _put(lab, g.cell_centre((1, 1)), (65.0, 20.0, 60.0))
    unlearned = PawnLooks(LOOKS.colours, LOOKS.areas * np.array([1, 0, 1, 1, 1]), LOOKS.offsets)
    mask = (np.abs(lab - expected).sum(axis=-1) > 3).astype(np.uint8)
    args = (_learned_at(), FLAT, {}, [], g)
    assert second_look(lab, expected, mask, LOOKS, *args).seen[0].spirit is Spirit.JUGO
    assert second_look(lab, expected, mask, unlearned, *args).seen == []


def _calibration_looks(shown: list[int]) -> PawnLooks:
    """The looks learned from a ``pawns`` photo where only the pawns ``shown`` (calibration
    indices) differ from the solved photo: the others stand on cards of their own colour."""
    ref = _board()
    lab = ref.copy()
    centres = _learned_at()
    for i in shown:
        _put(lab, tuple(centres[i]), tuple(LOOKS.colours[i]), seed=i)
    mask = (np.abs(lab - ref).sum(axis=-1) > 3).astype(np.uint8)
    return learn_looks(lab, ref, mask, centres, np.zeros((5, 2)), LOOKS.colours)


def test_a_pawn_unseen_at_calibration_borrows_the_others_size_and_is_named() -> None:
    # Jugo stood on a card of its own colour: no object of its own in the pawns photo
    looks = _calibration_looks([0, 2, 3, 4])
    assert looks.areas[1] == pytest.approx(float(np.median(looks.areas[[0, 2, 3, 4]])))
    assert looks.areas[1] > 0
    np.testing.assert_allclose(looks.colours[1], LOOKS.colours[1])
    g = _geometry()
    expected = _board()
    lab = expected.copy()
    _put(lab, g.cell_centre((2, 3)), (65.0, 20.0, 60.0))
    mask = (np.abs(lab - expected).sum(axis=-1) > 3).astype(np.uint8)
    look = second_look(lab, expected, mask, looks, _learned_at(), FLAT, {}, [], g)
    assert [(s.spirit, s.position) for s in look.seen] == [(Spirit.JUGO, Position((2, 3)))]


def test_a_pawn_learned_small_at_calibration_is_named_at_the_pawns_common_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Borea on a pale card at calibration: a third of his object learned (fresh deck 5016,
    # 5000-5999 seed 31 #97: his object then 2.8 x that, "sized wrong", missed). The pawns
    # are of one size, and the first look's rule holds here too (pawns.SMALL_LEARNED).
    small = PawnLooks(LOOKS.colours, LOOKS.areas * np.array([1 / 3, 1, 1, 1, 1]), LOOKS.offsets)
    g = _geometry()
    expected = _board()
    lab = expected.copy()
    _put(lab, g.cell_centre((2, 3)), tuple(LOOKS.colours[0]))
    assert _look(lab, expected, looks=small) == {Spirit.BOREA: Position((2, 3))}
    monkeypatch.setattr(pawn_objects, "SMALL_LEARNED", 0.0)
    assert _look(lab, expected, looks=small) == {}


def test_with_most_pawns_unseen_at_calibration_none_borrows_a_size() -> None:
    looks = _calibration_looks([0, 4])
    assert looks.areas[0] > 0 and looks.areas[4] > 0
    assert (looks.areas[1:4] == 0).all()


def test_a_grey_pawn_unseen_at_calibration_borrows_no_size() -> None:
    # Shadows and glare look like Borea and Austro: their looks are their own objects only
    assert _calibration_looks([1, 2, 3, 4]).areas[0] == 0
    assert _calibration_looks([0, 1, 2, 3]).areas[4] == 0


def _looks_with_borea_as_glare(size: int) -> PawnLooks:
    """The looks learned when Borea's object in the pawns photo is the card whitened by half
    (what glare looks like) over ``size`` x ``size`` board px, the others as in LOOKS."""
    ref = _board()
    lab = ref.copy()
    centres = _learned_at()
    for i in range(1, 5):
        _put(lab, tuple(centres[i]), tuple(LOOKS.colours[i]), seed=i)
    x, y = (round(v) for v in centres[0])
    half = size // 2
    lab[y - half : y + half, x - half : x + half] = (70.0, 10.0, 15.0)  # (40, 20, 30) whitened
    mask = (np.abs(lab - ref).sum(axis=-1) > 3).astype(np.uint8)
    return learn_looks(lab, ref, mask, centres, np.zeros((5, 2)), LOOKS.colours)


def test_a_grey_pawn_light_explains_at_calibration_is_learned_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    looks = _looks_with_borea_as_glare(14)
    assert looks.areas[0] == 49  # 7 x 7 half-res px
    np.testing.assert_allclose(looks.colours[0], (70.0, 10.0, 15.0), atol=0.01)
    # light's pixels left out, as a reading leaves them, nothing of him is left to learn
    monkeypatch.setattr(pawn_objects, "_grey_whole_look", lambda *args: None)
    assert _looks_with_borea_as_glare(14).areas[0] == 0


def test_a_grey_pawn_taken_whole_far_bigger_than_the_others_is_not_learned() -> None:
    # (the pawn and glare beside him as one object: fresh deck 6024's Borea)
    looks = _looks_with_borea_as_glare(28)  # 196 half-res px, the others 42
    assert looks.areas[0] == 0
    np.testing.assert_allclose(looks.colours[0], LOOKS.colours[0])
    assert (looks.areas[1:] == 42).all()


@pytest.mark.slow
def test_a_white_pawn_mostly_light_at_calibration_is_learned_from_its_whole_object(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Fresh deck 5036 (`pawn_diag.py --designs 5000-5999 --seed 13`, #220): in the pawns
    # photo Borea's lit top passes for glare, and what light leaves of him is his shaded
    # side, nearer Austro's grey than his own; he was learned no look, and when the first
    # look doubted him (another colour on his card), the second could not name him.
    photo = (range(5000, 6000), 13, 220)
    _named_only_with(monkeypatch, photo, "_grey_whole_look", lambda *args: None)


RING = (50.0, -35.0, 25.0)  # a green shade around Austro, nearest Etesia's colour


def _austro_in_a_ring(
    ring: int, body: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int]]:
    """The pawns photo (Lab) and the solved one: the other pawns as in LOOKS, and Austro's
    ``2 body`` board px square of his grey inside a ``2 ring`` px square of RING; the
    residual's mask, and where Austro stands (board px)."""
    ref = _board()
    lab = ref.copy()
    for i in range(4):
        _put(lab, tuple(_learned_at()[i]), tuple(LOOKS.colours[i]), seed=i)
    x, y = (2 * round(v / 2) for v in _learned_at()[4])
    lab[y - ring : y + ring, x - ring : x + ring] = RING
    lab[y - body : y + body, x - body : x + body] = LOOKS.colours[4]
    mask = (np.abs(lab - ref).sum(axis=-1) > 3).astype(np.uint8)
    return lab, ref, mask, (x, y)


def _learned(lab: np.ndarray, ref: np.ndarray, mask: np.ndarray) -> PawnLooks:
    return learn_looks(lab, ref, mask, _learned_at(), np.zeros((5, 2)), LOOKS.colours)


def test_a_grey_pawn_joined_to_his_shadow_at_calibration_is_learned_from_his_core() -> None:
    # Austro's 8 x 8 board px object inside a 2 px ring of shadow on the card, as one
    # object: the ring is most of it at half resolution, so the whole median is the ring's
    # (nearest Etesia's colour); the core, the object less its rim, is his own grey.
    lab, ref, mask, (x, y) = _austro_in_a_ring(6, 4)
    labels, shapes = objects(lab, ref, mask)
    austro = shapes[labels[y // 2, x // 2] - 1]
    whole, core = pawn_objects._median_colour(lab, labels, austro)
    np.testing.assert_allclose(whole, RING)
    np.testing.assert_allclose(core, LOOKS.colours[4])
    looks = _learned(lab, ref, mask)
    assert looks.areas[4] == austro.area
    np.testing.assert_allclose(looks.colours[4], LOOKS.colours[4])
    # (nor does a ring alone, no core of his grey, teach him a look)
    assert _learned(*_austro_in_a_ring(6, 0)[:3]).areas[4] == 0


def test_a_grey_pawn_inside_a_wider_object_not_his_is_learned_from_his_own_pixels() -> None:
    # Austro's 8 x 8 board px body inside a 6 px ring of another colour, as one object:
    # neither its whole median nor its core (less a half-res pixel of rim) is his grey, nor
    # is the mask's object taken whole; his own pixels in it are (DEV design 8: a dark grey
    # pawn on a pale card, light explaining his body and his shadow around it).
    lab, ref, mask, (x, y) = _austro_in_a_ring(10, 4)
    labels, shapes = objects(lab, ref, mask)
    whole, core = pawn_objects._median_colour(lab, labels, shapes[labels[y // 2, x // 2] - 1])
    np.testing.assert_allclose((whole, core), (RING, RING))
    looks = _learned(lab, ref, mask)
    assert looks.areas[4] == 16  # 4 x 4 half-res px
    np.testing.assert_allclose(looks.colours[4], LOOKS.colours[4])
    # (fewer of his pixels than GREY_LEAST are none of his to learn)
    assert _learned(*_austro_in_a_ring(10, 2)[:3]).areas[4] == 0


@pytest.mark.slow
def test_a_dark_pawn_light_explains_at_calibration_is_named_in_readings() -> None:
    # DEV design 8 (`pawn_diag.py --seed 5`, per setup 6, #52): Austro on a pale card in the
    # pawns photo, his object the card's art beside him; learned no look, the second look
    # could not name him where the first missed him.
    truth, seen, _ = pawn_seen(DEV_DESIGNS, 5, 52, Spirit.AUSTRO)
    assert truth is not None and seen == truth


@pytest.mark.slow
def test_a_pawn_showing_under_half_of_his_calibration_object_is_named() -> None:
    # DEV design 14 (`pawn_diag.py --seed 5`, per setup 6, #88): a white Borea of whom
    # light explains most, his object x0.38 of the one learned at calibration; the first
    # look saw several blobs, the second called him "sized wrong" under MIN_AREA.
    assert pawn_objects.NAMED_AREA < 0.38 < pawn_objects.MIN_AREA
    truth, seen, _ = pawn_seen(DEV_DESIGNS, 5, 88, Spirit.BOREA)
    assert truth is not None and seen == truth


@pytest.mark.slow
def test_a_pawn_too_small_to_grow_whole_is_still_named_down_to_named_area() -> None:
    # Fresh deck 8002 (`pawn_diag.py --designs 8000-8099 --seed 19`, per setup 6, #13): a
    # Jugo under MIN_AREA x the smallest learned object that cannot be grown whole; passed
    # over as "small" before, though naming goes down to NAMED_AREA.
    truth, seen, _ = pawn_seen(range(8000, 9000), 19, 13, Spirit.JUGO)
    assert truth is not None and seen == truth


@pytest.mark.slow
def test_a_dark_pawn_joined_to_his_shadow_at_calibration_is_named_in_readings() -> None:
    # Fresh deck 8028 (`pawn_diag.py --designs 8000-8999 --seed 19`, per setup 6, #168):
    # Austro learned no look at calibration (his object's whole median nearer Borea's
    # colour than his), and the second look could not name him where the first missed him.
    truth, seen, _ = pawn_seen(range(8000, 9000), 19, 168, Spirit.AUSTRO)
    assert truth is not None and seen == truth


@pytest.mark.parametrize(
    ("colour", "named"),
    [
        # Austro's grey lit, 7 Lab from his colour at the most light allowed and 26 from
        # Borea's: not plainly his, nor is Austro named there
        ((30.0, 0.0, 0.0), []),
        # his own grey, within 2 Lab and 45 from the next (DEV seed 5 #157): named there
        ((20.0, 0.0, 0.0), [(Spirit.AUSTRO, Position((1, 2)))]),
    ],
)
def test_a_pawn_placed_on_another_pawns_colour_is_doubted(
    colour: tuple[float, float, float], named: list[tuple[Spirit, Position]]
) -> None:
    # The first look placed Borea on an object whose median is Austro's dark grey (the
    # dark pawn's lit facets read as the white one: DEV seed 5 #127).
    g = _geometry()
    expected = _board()
    lab = expected.copy()
    at = g.cell_centre((1, 2))
    _put(lab, at, colour)
    mask = (np.abs(lab - expected).sum(axis=-1) > 3).astype(np.uint8)
    args = (LOOKS, _learned_at(), FLAT)
    look = second_look(lab, expected, mask, *args, {Spirit.BOREA: at}, [], g)
    assert look.doubted == {Spirit.BOREA}
    assert [(s.spirit, s.position) for s in look.seen] == named
    look = second_look(lab, expected, mask, *args, {Spirit.AUSTRO: at}, [], g)
    assert look.doubted == set()


def test_a_pawn_doubted_where_he_was_placed_is_named_where_his_colour_is() -> None:
    # DEV seed 5 #157: the first look placed Borea on the dark pawn's lit top, and the
    # white pawn's own object, named Borea on another card, was passed over as a pawn
    # placed already. Doubted where he was placed, he is looked for like a pawn unplaced.
    g = _geometry()
    expected = _board()
    lab = expected.copy()
    at, own = g.cell_centre((1, 2)), g.cell_centre((3, 3))
    _put(lab, at, (20.0, 0.0, 0.0))
    _put(lab, own, (60.0, 0.0, -10.0), seed=1)
    mask = (np.abs(lab - expected).sum(axis=-1) > 3).astype(np.uint8)
    args = (LOOKS, _learned_at(), FLAT)
    look = second_look(lab, expected, mask, *args, {Spirit.BOREA: at}, [], g)
    assert look.doubted == {Spirit.BOREA}
    assert {(s.spirit, s.position) for s in look.seen} == {
        (Spirit.BOREA, Position((3, 3))),
        (Spirit.AUSTRO, Position((1, 2))),  # (the object plainly his colour)
    }
    # ...but a pawn placed on an object of his own colour is not looked for again
    _put(lab, at, (60.0, 0.0, -10.0), seed=2)
    mask = (np.abs(lab - expected).sum(axis=-1) > 3).astype(np.uint8)
    look = second_look(lab, expected, mask, *args, {Spirit.BOREA: at}, [], g)
    assert look.doubted == set() and look.seen == []


@pytest.mark.slow
def test_the_white_pawn_taken_off_the_dark_ones_lit_top_is_found_on_his_card() -> None:
    truth, seen, reading = pawn_seen(range(16), 5, 157, Spirit.BOREA)  # (DEV decks 0-15)
    assert truth is not None and seen == truth
    # ...and the dark one is named on his own (the object plainly his colour)
    assert reading.pawns.get(Spirit.AUSTRO) == Position((4, 2))


def _rimmed(lab: np.ndarray, at: tuple[float, float], colour: tuple[float, ...]) -> None:
    """A pawn's object whose rim (2 board px, a half-res pixel) blends half with the card."""
    x, y = round(at[0]), round(at[1])
    lab[y - 7 : y + 7, x - 6 : x + 6] = (np.array(colour, np.float32) + np.array(CARD)) / 2
    lab[y - 5 : y + 5, x - 4 : x + 4] = colour


def test_a_coloured_pawn_is_named_by_its_core_where_its_rim_blends_with_the_card() -> None:
    # More than half of a small object's pixels are its rim: blended with the card, they
    # pull the whole median 15 Lab off Etesia's colour. The core is Etesia's own.
    g = _geometry()
    expected = _board()
    lab = expected.copy()
    _rimmed(lab, g.cell_centre((2, 2)), (50.0, -40.0, 30.0))
    assert _look(lab, expected) == {Spirit.ETESIA: Position((2, 2))}


def test_a_grey_pawn_is_still_named_by_its_whole_object() -> None:
    # The grey pawns' colours are what glare's and shadows' cores look like: an object
    # whose core alone is Borea's grey is not named Borea.
    g = _geometry()
    expected = _board()
    lab = expected.copy()
    _rimmed(lab, g.cell_centre((2, 2)), (60.0, 0.0, -10.0))
    assert _look(lab, expected) == {}
    lab = expected.copy()
    _put(lab, g.cell_centre((2, 2)), (60.0, 0.0, -10.0))
    assert _look(lab, expected) == {Spirit.BOREA: Position((2, 2))}


def test_a_coloured_pawn_with_a_lamps_reflection_on_it_is_named() -> None:
    # DEV seed 5 #211: Jugo learned at (42, 29, 45.8); his object's core read (67.9, 22.9,
    # 48.5), 20 Lab off, lighter with his hue nearly kept: his colour with white added
    looks = _with_colour(Spirit.JUGO, (42.0, 29.0, 45.8))
    g = _geometry()
    expected = _board()
    lab = expected.copy()
    _put(lab, g.cell_centre((3, 2)), (67.9, 22.9, 48.5))
    assert _look(lab, expected, looks=looks) == {Spirit.JUGO: Position((3, 2))}


def test_an_orange_pawns_colour_taken_past_white_names_no_yellow_object() -> None:
    # Fresh deck 8039 #237: Jugo learned bright orange, (70.1, 34.7, 70.3); a yellow
    # card's art under 1.2 times that light, (83.5, 1.8, 68.7), is his colour so lit with
    # its red clipped, and was named Jugo. A mix past white is not taken.
    looks = _with_colour(Spirit.JUGO, (70.1, 34.7, 70.3))
    g = _geometry()
    expected = _board()
    lab = expected.copy()
    at = g.cell_centre((3, 0))
    _put(lab, at, (83.5, 1.8, 68.7))
    field = _brighter(at, tuple(_learned_at()[1]), 1.2)
    assert _look(lab, expected, field, looks=looks) == {}


def _with_colour(spirit: Spirit, colour: tuple[float, float, float]) -> PawnLooks:
    colours = LOOKS.colours.copy()
    colours[CALIBRATION_ORDER.index(spirit)] = colour
    return PawnLooks(colours, LOOKS.areas, LOOKS.offsets)


def _on_art_of_its_colour(
    lit: float | None, colour: tuple[float, float, float] = (50.0, -40.0, 30.0)
) -> Look:
    """A pawn's ``colour`` (Etesia's unless told) over cell (2, 3), on a card whose art in
    the middle was that colour ``lit`` L lighter at calibration (the rim of the object the
    brown card around it), or on the plain brown card if ``lit`` is None."""
    g = _geometry()
    expected = _board()
    at = g.cell_centre((2, 3))
    x, y = round(at[0]), round(at[1])
    if lit is not None:
        expected[y - 6 : y + 6, x - 5 : x + 5] = (colour[0] + lit, colour[1], colour[2])
    lab = expected.copy()
    _put(lab, at, colour)
    mask = (np.abs(lab - expected).sum(axis=-1) > 3).astype(np.uint8)
    return second_look(lab, expected, mask, LOOKS, _learned_at(), FLAT, {}, [], g)


def test_an_object_whose_middle_barely_changed_is_a_doubt_not_a_pawn() -> None:
    # Fresh decks 3000-3999 seed 11 (#55, #192, #198), 9000-9999 seed 21 (#180) and DEV
    # seed 21 (#176), `pawn_diag.py ... --n 240 --per-setup 8 --read-only`: objects named
    # by their median colour whose middles changed by 4-16 Lab (a card's own colour relit,
    # the table's pattern at a card's edge) were reported as pawns, phantoms.
    look = _on_art_of_its_colour(lit=10.0)
    assert look.seen == []
    assert (2, 3) in look.doubts
    # the same object on the plain card changes its middle strongly: named
    look = _on_art_of_its_colour(lit=None)
    assert [(s.spirit, s.position) for s in look.seen] == [(Spirit.ETESIA, Position((2, 3)))]
    # The white pawn on a card of nearly his grey may change its middle as little: he is
    # still named (three Boreas on the referee's tables were named right so)
    look = _on_art_of_its_colour(lit=10.0, colour=(60.0, 0.0, -10.0))
    assert [(s.spirit, s.position) for s in look.seen] == [(Spirit.BOREA, Position((2, 3)))]
