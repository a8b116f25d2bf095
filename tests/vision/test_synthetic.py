"""The synthetic table renderer: the ground truth every vision test and benchmark trusts."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from zefiria.engine import ALL_CELLS, GameConfig, Mode, Position, Spirit
from zefiria.engine.setup import new_game
from zefiria.vision.synthetic import (
    DEV_DESIGNS,
    EVAL_DESIGNS,
    CameraPose,
    Hand,
    Scene,
    calibration_scenes,
    card_faces,
    design,
    make_dataset,
    random_layout,
    random_scene,
    random_setup,
    random_style,
    render,
    scene_from_state,
)

SMALL = (820, 616)  # half size: the same drawing, four times cheaper


def _inside(pt: tuple[float, float] | np.ndarray, quad: np.ndarray) -> bool:
    contour = quad.astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(contour, (float(pt[0]), float(pt[1])), False) >= 0


def test_photo_is_a_1640x1232_bgr_image_by_default() -> None:
    photo = render(random_scene(1), 1, seed=1)
    assert photo.image.shape == (1232, 1640, 3)
    assert photo.image.dtype == np.uint8
    assert render(Scene(), 1, seed=1, size=SMALL).image.shape == (616, 820, 3)


def test_same_arguments_same_photo_other_seed_other_photo() -> None:
    scene = random_scene(5, hand_chance=1.0)
    a = render(scene, 2, seed=3, size=SMALL)
    b = render(scene, 2, seed=3, size=SMALL)
    c = render(scene, 2, seed=4, size=SMALL)
    assert np.array_equal(a.image, b.image)
    assert not np.array_equal(a.image, c.image)


@pytest.mark.parametrize("seed", range(12))
def test_cards_pawns_and_gems_lie_inside_the_photo(seed: int) -> None:
    scene = random_scene(seed)
    photo = render(scene, seed % 3, seed=seed, size=SMALL, compress=False)
    h, w = photo.image.shape[:2]
    points = [*photo.truth.corners.values(), np.array([*photo.truth.pawns.values()]).reshape(-1, 2)]
    for pts in points:
        assert np.all(pts >= 0) and np.all(pts[:, 0] < w) and np.all(pts[:, 1] < h)


@pytest.mark.parametrize(
    "pose",
    [
        CameraPose(tilt_deg=35, tilt_azimuth_deg=az, roll_deg=roll, distance_mm=550, fill=0.9)
        for az, roll in ((0, 15), (90, -15), (200, 15), (300, -15))
    ],
)
def test_extreme_poses_keep_the_grid_and_its_surroundings_in_view(pose: CameraPose) -> None:
    _, pawns = calibration_scenes()
    scene = replace(pawns, pawns={Spirit.AUSTRO: Position((4, 4), outside=True)})
    photo = render(scene, 0, pose=pose, seed=2, size=SMALL)
    h, w = photo.image.shape[:2]
    for quad in photo.truth.corners.values():
        assert np.all(quad >= 0) and np.all(quad[:, 0] < w) and np.all(quad[:, 1] < h)
    x, y = photo.truth.pawns[Spirit.AUSTRO]
    assert 0 <= x < w and 0 <= y < h


def test_truth_corners_follow_the_grid_order() -> None:
    photo = render(Scene(), 4, pose=CameraPose(roll_deg=10, tilt_deg=20), seed=0, size=SMALL)
    centre = {cell: q.mean(axis=0) for cell, q in photo.truth.corners.items()}
    # under a roll of at most 15 degrees, rows go down the image and columns go right
    for r in range(5):
        for c in range(4):
            assert centre[(r, c + 1)][0] > centre[(r, c)][0]
            assert centre[(c + 1, r)][1] > centre[(c, r)][1]


def test_pawns_stand_on_their_cards_and_austro_outside_on_none() -> None:
    scene = Scene(
        pawns={
            Spirit.BOREA: Position((1, 1)),
            Spirit.JUGO: Position((2, 3)),
            Spirit.AUSTRO: Position((0, 2), outside=True),
        },
        gems=frozenset({(1, 1), (4, 4)}),
    )
    for seed in range(4):
        truth = render(scene, seed, seed=seed, size=SMALL).truth
        assert _inside(truth.pawns[Spirit.BOREA], truth.corners[(1, 1)])
        assert _inside(truth.pawns[Spirit.JUGO], truth.corners[(2, 3)])
        assert not any(_inside(truth.pawns[Spirit.AUSTRO], q) for q in truth.corners.values())
        for cell in scene.gems:
            assert _inside(truth.gems[cell], truth.corners[cell])


def test_pawns_are_visible_where_the_truth_says() -> None:
    setup = random_setup(11, design=2)
    empty, with_pawns = setup.calibration()
    for spirit, (x, y) in with_pawns.truth.pawn_tops.items():
        x0, y0 = round(x) - 4, round(y) - 4
        a = empty.image[y0 : y0 + 9, x0 : x0 + 9].astype(float)
        b = with_pawns.image[y0 : y0 + 9, x0 : x0 + 9].astype(float)
        assert np.abs(a - b).mean() > 8, spirit


def test_a_hand_over_the_middle_covers_the_middle_cards() -> None:
    hand = Hand(tip=(2.0, 2.0), angle_deg=90)
    bare = render(Scene(), 1, seed=6, size=SMALL)
    covered = render(Scene(hand=hand), 1, seed=6, size=SMALL)
    assert bare.truth.hand_cells == frozenset()
    assert (2, 2) in covered.truth.hand_cells and (4, 2) in covered.truth.hand_cells
    assert (0, 0) not in covered.truth.hand_cells
    assert covered.truth.hidden_pawns == frozenset() == bare.truth.hidden_pawns
    # the photo really is different over a covered card, and the same far from the hand
    for cell, changed in (((3, 2), True), ((0, 0), False)):
        x, y = covered.truth.corners[cell].mean(axis=0).round().astype(int)
        diff = np.abs(
            covered.image[y - 5 : y + 5, x - 5 : x + 5].astype(float)
            - bare.image[y - 5 : y + 5, x - 5 : x + 5]
        ).mean()
        assert (diff > 10) == changed, (cell, diff)


def test_calibration_scenes_follow_the_spec() -> None:
    solved, pawns = calibration_scenes()
    assert solved.grid == tuple(range(1, 26))
    assert solved.pawns == {} and solved.gems == frozenset() and solved.hand is None
    assert pawns.grid == solved.grid and pawns.gems == frozenset() and pawns.hand is None
    order = [Spirit.BOREA, Spirit.JUGO, Spirit.ETESIA, Spirit.SKYRON, Spirit.AUSTRO]
    for island, spirit in enumerate(order, start=1):
        pos = pawns.pawns[spirit]
        assert not pos.outside and pawns.island_at(pos.cell) == island


def test_calibration_photos_keep_the_cards_still() -> None:
    solved, pawns = random_setup(3, design=5).calibration()
    for cell in ALL_CELLS:
        assert np.allclose(solved.truth.corners[cell], pawns.truth.corners[cell])
    assert set(pawns.truth.pawns) == set(Spirit)


def test_designs_differ_and_each_has_25_distinct_faces() -> None:
    decks = [card_faces(design(s)) for s in (0, 1, 1000)]
    for faces in decks:
        assert len(faces) == 25 and faces[0].shape[2] == 4
        flat = {f.tobytes() for f in faces}
        assert len(flat) == 25
    for a, b in ((0, 1), (0, 2), (1, 2)):
        diff = np.abs(decks[a][6][:, :, :3].astype(float) - decks[b][6][:, :, :3]).mean()
        assert diff > 15
    assert len({design(s) for s in range(20)}) == 20


def test_scene_from_state_takes_grid_placed_pawns_and_anchors() -> None:
    config = GameConfig(players=2, mode=Mode.STORM, spirits=(Spirit.JUGO, Spirit.AUSTRO))
    state = new_game(config, seed=4)
    state = replace(
        state,
        pawns=(Position((0, 0)), None),
        anchored=frozenset({(2, 2)}),
    )
    scene = scene_from_state(state)
    assert scene.grid == state.grid
    assert scene.pawns == {Spirit.JUGO: Position((0, 0))}
    assert scene.gems == frozenset({(2, 2)})


def test_scenes_refuse_impossible_tables() -> None:
    with pytest.raises(ValueError, match=r"islands 1\.\.25"):
        Scene(grid=(1,) * 25)
    with pytest.raises(ValueError, match="not an edge cell"):
        Scene(pawns={Spirit.AUSTRO: Position((2, 2), outside=True)})


def test_dataset_is_reproducible_varied_and_uses_held_out_designs() -> None:
    assert not set(DEV_DESIGNS) & set(EVAL_DESIGNS)
    samples = list(make_dataset(200, seed=1))
    again = list(make_dataset(200, seed=1))
    assert [s.scene for s in samples] == [s.scene for s in again]
    assert {s.setup.design for s in samples} <= set(EVAL_DESIGNS)
    assert len({s.setup.design for s in samples}) >= 5
    hands = sum(s.scene.hand is not None for s in samples)
    assert 8 <= hands <= 40
    assert any(p.outside for s in samples for p in s.scene.pawns.values())
    assert max(len(s.scene.gems) for s in samples) >= 6
    assert len({s.scene.grid for s in samples}) == 200


def test_game_photos_nudge_the_cards_but_keep_the_camera() -> None:
    setup = random_setup(8, design=DEV_DESIGNS[0])
    solved, _ = setup.calibration()
    game = setup.photo(random_scene(2), seed=9)
    move = max(
        float(np.abs(game.truth.corners[c] - solved.truth.corners[c]).max()) for c in ALL_CELLS
    )
    assert 0 < move < 25
    assert np.allclose(game.truth.homography, solved.truth.homography)


def test_styles_vary() -> None:
    styles = [random_style(s) for s in range(40)]
    assert {s.table for s in styles} == {"wood", "cloth", "plain", "pattern"}
    assert len({random_layout(s) for s in range(5)}) == 5


def test_render_command_writes_calibration_and_game_photos(tmp_path: Path) -> None:
    from zefiria.device.cli import main

    assert main(["render", "--calibration", str(tmp_path / "cal"), "--design", "2"]) == 0
    for name in ("solved.jpg", "pawns.jpg"):
        img = cv2.imread(str(tmp_path / "cal" / name))
        assert img is not None and img.shape == (1232, 1640, 3)
    out = tmp_path / "game.png"
    args = ["render", "--random", "--seed", "3", "--hand", "-o", str(out), "--size", "820x616"]
    assert main([*args, "--truth", str(tmp_path / "t.json")]) == 0
    img = cv2.imread(str(out))
    assert img is not None and img.shape == (616, 820, 3)
    assert (tmp_path / "t.json").read_text().startswith('{"grid"')
    assert main(["render", "--random", "--size", "big", "-o", str(out)]) == 2


def test_render_command_photographs_a_saved_state(tmp_path: Path) -> None:
    from zefiria.device.cli import main
    from zefiria.engine import Place
    from zefiria.engine.records import dumps_state
    from zefiria.engine.rules import apply_action

    config = GameConfig(players=2, mode=Mode.STANDARD, spirits=(Spirit.BOREA, Spirit.SKYRON))
    state = new_game(config, seed=2)
    for corner in ((0, 0), (4, 4)):
        state = apply_action(state, Place(corner))
    (tmp_path / "s.json").write_text(dumps_state(state))
    out, truth = tmp_path / "s.jpg", tmp_path / "t.json"
    args = ["render", "--state", str(tmp_path / "s.json"), "-o", str(out), "--truth", str(truth)]
    assert main([*args, "--size", "820x616"]) == 0
    data = json.loads(truth.read_text())
    assert data["grid"] == [list(state.grid[r * 5 : r * 5 + 5]) for r in range(5)]
    assert data["pawns"] == {"borea": {"cell": [0, 0]}, "skyron": {"cell": [4, 4]}}
    (tmp_path / "bad.json").write_text("{")
    assert main(["render", "--state", str(tmp_path / "bad.json"), "-o", str(out)]) == 2


def test_the_supply_lies_off_the_grid() -> None:
    scene = Scene(gems=frozenset({(2, 2)}), loose_gems=5, storm_deck=True)
    for seed in range(3):
        truth = render(scene, seed, seed=seed, size=SMALL).truth
        assert set(truth.gems) == {(2, 2)} and len(truth.loose_gems) == 5
        for gem in truth.loose_gems:
            assert not any(_inside(gem, q) for q in truth.corners.values())
    with pytest.raises(ValueError, match="loose_gems"):
        Scene(loose_gems=-1)


def test_truth_says_which_pawns_and_gems_the_hand_hides() -> None:
    scene = Scene(
        pawns={Spirit.JUGO: Position((3, 2)), Spirit.BOREA: Position((0, 0))},
        gems=frozenset({(3, 2), (0, 4)}),
        hand=Hand(tip=(2.0, 2.0), angle_deg=90, width_mm=95),
    )
    truth = render(scene, 3, pose=CameraPose(), seed=1, size=SMALL).truth
    assert truth.hidden_pawns == frozenset({Spirit.JUGO})
    assert truth.hidden_gems == frozenset({(3, 2)})


def test_lens_distortion_moves_image_and_truth_alike() -> None:
    from zefiria.vision.synthetic.lens import distort_image, distort_points

    img = np.zeros((300, 400, 3), np.uint8)
    cv2.circle(img, (360, 30), 4, (255, 255, 255), -1)
    bent = distort_image(img, -0.05)
    ys, xs = np.nonzero(bent[:, :, 0] > 100)
    expected = distort_points(np.array([[360.0, 30.0]]), (400, 300), -0.05)[0]
    assert np.hypot(xs.mean() - expected[0], ys.mean() - expected[1]) < 0.5
    assert np.hypot(*(expected - [360, 30])) > 3  # a barrel pulls the corners in


def test_render_command_writes_a_dataset_with_its_index(tmp_path: Path) -> None:
    from zefiria.device.cli import main

    args = ["render", "--dataset", str(tmp_path), "--count", "3", "--size", "410x308"]
    assert main([*args, "--designs", "dev"]) == 0
    index = json.loads((tmp_path / "index.json").read_text())
    assert len(index) == 3 and all(item["design"] in DEV_DESIGNS for item in index)
    for item in index:
        for key in ("photo", "solved", "pawns"):
            assert cv2.imread(str(tmp_path / item[key])).shape == (308, 410, 3)
        assert len(item["truth"]["grid"]) == 5


def test_cards_never_lie_on_top_of_each_other() -> None:
    for seed in range(60):
        layout = random_layout(seed)
        assert not layout.overlapping()
        assert not layout.nudged(seed + 1).overlapping()


def test_gems_and_pawns_never_pass_through_each_other() -> None:
    from zefiria.vision.synthetic.placement import place

    for seed in range(30):
        scene = random_scene(seed)
        scene = replace(
            scene,
            gems=scene.gems | {p.cell for p in scene.pawns.values() if not p.outside},
            loose_gems=8,
        )
        spots = place(scene, random_layout(seed), np.random.default_rng(seed), side_seed=seed)
        things = spots.props()
        for i, a in enumerate(things):
            for b in things[i + 1 :]:
                assert np.hypot(a.x - b.x, a.y - b.y) >= a.solid.radius + b.solid.radius
