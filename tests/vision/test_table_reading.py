"""Calibration and reading on synthetic photos of decks the recogniser was not tuned on.

The photos come from :mod:`zefiria.vision.synthetic` with EVAL designs. What must hold:
calibration refuses photos it cannot learn from, a reading never states a wrong island as
certain, a hand over the cards is flagged, and the commands run end to end.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from zefiria.device.cli import main
from zefiria.engine.grid import ALL_CELLS
from zefiria.vision.calibrate import CalibrationError, calibrate, islands_in_doubt
from zefiria.vision.profile import Profile, ProfileError, load_profile, save_profile
from zefiria.vision.reader import read_table
from zefiria.vision.reading import Status
from zefiria.vision.synthetic import EVAL_DESIGNS, Sample, make_dataset

from .photos import cells_not_read_right, photo_read

pytestmark = pytest.mark.slow

# Sessions of make_dataset(48, seed=7, EVAL_DESIGNS, per_setup=4) (two eval decks).
SEED = 7
SESSIONS = (0, 1)


@cache
def _samples() -> tuple[Sample, ...]:
    return tuple(make_dataset(12, SEED, EVAL_DESIGNS, per_setup=4))


@cache
def _profile(session: int) -> Profile:
    solved, pawns = _samples()[4 * session].setup.calibration()
    return calibrate(solved.image, pawns.image)


@pytest.mark.parametrize("session", SESSIONS)
def test_readings_are_never_silently_wrong(session: int) -> None:
    profile = _profile(session)
    read = 0
    for sample in _samples()[4 * session : 4 * session + 4]:
        photo = sample.render()
        reading = read_table(photo.image, profile)
        if photo.truth.hand_cells:
            assert reading.status is Status.UNREADABLE or reading.uncertain
            continue
        assert reading.status is Status.OK, reading.reason
        for r, c in ALL_CELLS:
            island = reading.grid[r][c]
            if island is not None:
                assert island == sample.scene.island_at((r, c)), f"misread at {(r, c)}"
                read += 1
    # Doubt is allowed, but a reader that doubts everything is useless: these two sessions
    # read all of their visible cards with this version (100 of 100 each).
    assert read >= 80


def test_hand_over_the_cards_is_flagged() -> None:
    from zefiria.vision.synthetic import Hand

    sample = _samples()[0]
    scene = sample.scene.__class__(
        grid=sample.scene.grid, hand=Hand(tip=(2.0, 2.0), angle_deg=90.0)
    )
    photo = sample.setup.photo(scene, 99)
    reading = read_table(photo.image, _profile(0))
    assert reading.status is Status.UNREADABLE or set(photo.truth.hand_cells) <= set(
        reading.uncertain
    )
    if reading.status is Status.UNREADABLE:
        assert reading.reason and "hand" in reading.reason


def test_black_frame_and_wrong_size_are_unreadable() -> None:
    profile = _profile(0)
    w, h = profile.geometry.image_size
    dark = read_table(np.zeros((h, w, 3), np.uint8), profile)
    assert dark.status is Status.UNREADABLE and dark.reason
    small = read_table(np.zeros((h // 2, w // 2, 3), np.uint8), profile)
    assert small.status is Status.UNREADABLE and "calibrated" in (small.reason or "")


def test_a_frame_of_noise_or_all_white_is_said_to_be_the_cameras_fault() -> None:
    # A faulty camera's noise was taken for "hand or object over the cards" (20 cards
    # hidden), and a white frame called blank: the players would wait for a hand, or look
    # at the table, instead of at the camera.
    profile = _profile(0)
    w, h = profile.geometry.image_size
    noise = np.random.default_rng(0).integers(0, 256, (h, w, 3), dtype=np.uint8)
    reading = read_table(noise, profile)
    assert reading.status is Status.UNREADABLE
    assert (reading.reason or "").startswith("camera view lost"), reading.reason
    white = read_table(np.full((h, w, 3), 255, np.uint8), profile)
    assert white.status is Status.UNREADABLE
    assert "washed out" in (white.reason or ""), white.reason
    # (a mid-grey frame is still blank)
    grey = read_table(np.full((h, w, 3), 128, np.uint8), profile)
    assert "blank" in (grey.reason or ""), grey.reason


def test_calibration_refuses_bad_photos() -> None:
    solved, pawns = _samples()[0].setup.calibration()
    rng = np.random.default_rng(0)
    table = np.clip(rng.normal(120, 10, solved.image.shape), 0, 255).astype(np.uint8)
    with pytest.raises(CalibrationError, match="grid not found"):
        calibrate(table, pawns.image)
    with pytest.raises(CalibrationError, match="missing"):
        calibrate(solved.image, solved.image)  # no pawns in the pawns photo
    with pytest.raises(CalibrationError, match="differ in size"):
        calibrate(solved.image, pawns.image[:600])


def test_profile_round_trip_and_refusals(tmp_path: Path) -> None:
    profile = _profile(0)
    path = save_profile(profile, tmp_path / "table.profile")
    back = load_profile(path)
    assert back.header() == profile.header()
    assert np.array_equal(back.templates, profile.templates)
    assert back.card_prints is not None and profile.card_prints is not None
    assert np.array_equal(back.card_prints, profile.card_prints)
    assert back.pawn_looks is not None and profile.pawn_looks is not None
    assert np.array_equal(back.pawn_looks, profile.pawn_looks)
    # a profile written before the pawns' whole objects were learned still loads (the
    # second look for pawns is then off), but a damaged one is refused
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files if k != "pawn_looks"}
    earlier = tmp_path / "earlier.npz"
    np.savez(earlier, **arrays)
    assert load_profile(earlier).pawn_looks is None
    np.savez(earlier, **arrays, pawn_looks=np.zeros((5, 5)))
    with pytest.raises(ProfileError, match="pawn_looks"):
        load_profile(earlier)
    # the prints' channel round-trips; a file without one (written before) cut them in
    # grey, and one naming no known channel is refused
    least = save_profile(replace(profile, print_channel="least"), tmp_path / "least.profile")
    assert load_profile(least).print_channel == "least"
    header = json.loads(str(arrays["header"]))
    for channel, expect in ((None, "grey"), ("purple", "print_channel 'purple'")):
        if channel is None:
            header.pop("print_channel")
        else:
            header["print_channel"] = channel
        np.savez(earlier, **{**arrays, "header": np.array(json.dumps(header))})
        if channel is None:
            assert load_profile(earlier).print_channel == expect
        else:
            with pytest.raises(ProfileError, match=expect):
                load_profile(earlier)
    broken = tmp_path / "broken.profile"
    broken.write_bytes(path.read_bytes()[:200])
    with pytest.raises(ProfileError, match=r"broken\.profile"):
        load_profile(broken)
    other = tmp_path / "other.npz"
    np.savez(other, header=np.array(json.dumps({"format": "something else"})))
    with pytest.raises(ProfileError, match="not a calibration profile"):
        load_profile(other)
    old = tmp_path / "old.npz"
    np.savez(old, header=np.array(json.dumps({"format": "zefiria-vision-profile", "version": 0})))
    with pytest.raises(ProfileError, match="version"):
        load_profile(old)


def test_commands_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sample = _samples()[1]
    solved, pawns = sample.setup.calibration()
    files = {}
    for name, img in (("solved", solved.image), ("pawns", pawns.image), ("game", None)):
        files[name] = tmp_path / f"{name}.jpg"
        cv2.imwrite(str(files[name]), img if img is not None else sample.render().image)
    profile = tmp_path / "table.profile"
    argv = ["calibrate", "--solved", str(files["solved"]), "--pawns", str(files["pawns"])]
    assert main([*argv, "-o", str(profile)]) == 0
    capsys.readouterr()
    overlay = tmp_path / "overlay.png"
    code = main(["read", str(files["game"]), "--profile", str(profile), "--overlay", str(overlay)])
    data = json.loads(capsys.readouterr().out)
    assert code == (0 if data["status"] == "ok" else 1)
    assert {"status", "grid", "pawns", "gems", "uncertain", "ms"} <= set(data)
    picture = cv2.imread(str(overlay))
    assert picture is not None and picture.shape == sample.render().image.shape

    text = tmp_path / "notes.jpg"
    text.write_text("hello")
    assert main(["read", str(text), "--profile", str(profile)]) == 2
    assert "notes.jpg: not an image" in capsys.readouterr().err
    assert main(["read", str(files["game"]), "--profile", str(text)]) == 2
    assert "notes.jpg: not a calibration profile (not a NumPy .npz archive)" in (
        capsys.readouterr().err
    )
    assert main(["calibrate", "--solved", str(text), "--pawns", str(text), "-o", "x"]) == 2
    assert "not an image" in capsys.readouterr().err


def test_calibration_names_the_islands_whose_edges_it_could_not_find(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An island whose print is framed neither by the deck's outline nor by its layout is
    # doubted in every reading to come: the player is told at calibration, not left to wonder.
    from zefiria.device.commands.calibrate import _report

    profile = _profile(0)
    assert profile.card_prints is not None
    assert 7 not in islands_in_doubt(profile)
    prints = profile.card_prints.copy()
    prints[6] = int(prints[6].mean())  # island 7's print blank: no outline, no layout
    blank = replace(profile, card_prints=prints)
    assert 7 in islands_in_doubt(blank)
    _report(blank, tmp_path / "table.profile")
    printed = capsys.readouterr()
    assert "profile written to" in printed.out
    assert re.search(r"warning: the edges of islands? ([0-9]+, )*7\b", printed.err)
    assert "calibrate again" in printed.err
    assert "only in colour" not in printed.err
    # ...and that its cards' edges were found only in colour (card_print.PRINT_CHANNELS)
    _report(replace(profile, print_channel="least"), tmp_path / "table.profile")
    assert "note: the cards' edges stood out only in colour" in capsys.readouterr().err


def test_the_one_card_left_unsure_is_the_island_left_over(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every island lies on the table once: with 24 cards sure, the 25th is the island none
    # of them is, even when its own print could not be framed (a pawn on its edge, glare).
    from zefiria.vision import reader

    sample = _samples()[0]
    profile = _profile(0)
    photo = sample.render()
    sure = reader.certain

    def all_but_one(*args: object, **kwargs: object) -> np.ndarray:
        out = sure(*args, **kwargs).copy()
        out[:] = True
        out[7] = False
        return out

    monkeypatch.setattr(reader, "certain", all_but_one)
    reading = read_table(photo.image, profile)
    assert reading.ok
    r, c = ALL_CELLS[7]
    assert reading.grid[r][c] == sample.scene.island_at((r, c))
    assert all(v is not None for row in reading.grid for v in row)


def test_austro_in_doubt_beside_the_grid_leaves_his_edge_cell_uncertain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A pawn whose place is in doubt (his foot near a cell's border, a blob sized oddly)
    # leaves his card uncertain; Austro beside the grid was reported with nothing in doubt.
    from zefiria.engine.spirits import Spirit
    from zefiria.engine.state import Position
    from zefiria.vision import reader

    sample = _samples()[0]
    profile = _profile(0)
    photo = sample.render()
    plain = read_table(photo.image, profile)
    edge = next((r, 4) for r in range(5) if (r, 4) not in plain.uncertain)
    find = reader.find_pawns

    def austro_in_doubt(*args: Any) -> tuple:
        found, doubtful, unplaced = find(*args)
        at = args[9]  # each reported pawn's blob point, in the order of ``found``
        points = dict(zip(found, at, strict=True))
        points[Spirit.AUSTRO] = tuple(profile.geometry.cell_centre(edge))  # (its blob: any)
        found = {s: p for s, p in found.items() if s is not Spirit.AUSTRO}
        found[Spirit.AUSTRO] = Position(edge, outside=True)
        at[:] = [points[s] for s in found]
        return found, doubtful | {Spirit.AUSTRO}, unplaced

    monkeypatch.setattr(reader, "find_pawns", austro_in_doubt)
    reading = read_table(photo.image, profile)
    assert reading.pawns[Spirit.AUSTRO] == Position(edge, outside=True)
    assert edge in reading.uncertain


def test_the_card_left_is_not_taken_when_hidden_or_not_alone() -> None:
    from zefiria.vision.reader import _last_one_left

    sure = np.ones(25, bool)
    sure[3] = False
    unseen = np.zeros(25, bool)
    assert np.flatnonzero(_last_one_left(sure, unseen)).tolist() == [3]
    unseen[3] = True  # under a hand or covered: what lies there is not seen
    assert not _last_one_left(sure, unseen).any()
    sure[5] = False  # two left: which island is which is the reading's to say
    assert not _last_one_left(sure, np.zeros(25, bool)).any()


def test_a_deck_printed_in_five_colours_is_told_apart_by_its_prints() -> None:
    """Fresh deck 8002 (`cell_diag.py --designs 8000-8999 --seed 19`, #16): five islands
    of each colour, numbers faint. The light on a card, unlike where its island lay at
    calibration, moved its colour cost more among its colour's islands than its print told
    them apart: the assignment chose four cards wrong (caught, left null). Read by their
    prints, every card is read right."""
    sample, reading = photo_read(range(8000, 9000), 19, 16, per_setup=8)
    assert sample.setup.design == 8002
    assert reading.status is Status.OK, reading.reason
    assert cells_not_read_right(sample, reading) == []
