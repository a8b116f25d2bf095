"""``zefiria render``: draw synthetic camera photos of a table (calibration or a game state).

The photos come from :mod:`zefiria.vision.synthetic`, a virtual camera: the same ``--design``,
``--style`` and ``--pose`` numbers give the same deck, table and camera, so the calibration
photos and later game photos belong to one session, as with the real device.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from zefiria.vision.synthetic import Hand, RenderResult, Scene

HELP = "draw synthetic table photos: the calibration pair, a saved state or a random game"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument(
        "--calibration",
        metavar="OUTDIR",
        help="write the calibration photos OUTDIR/solved.jpg and OUTDIR/pawns.jpg",
    )
    what.add_argument(
        "--state", metavar="STATE.json", help="photograph a saved state or game record (its end)"
    )
    what.add_argument("--random", action="store_true", help="photograph a random mid-game table")
    what.add_argument(
        "--dataset",
        metavar="OUTDIR",
        help="write a benchmark set: sessions of calibration photos, game photos and their "
        "truth, listed in OUTDIR/index.json",
    )
    parser.add_argument(
        "--count", type=int, default=200, help="game photos in a --dataset (default 200)"
    )
    parser.add_argument(
        "--designs",
        choices=("eval", "dev"),
        default="eval",
        help="--dataset decks: held-out evaluation designs or development ones (default eval)",
    )
    parser.add_argument(
        "-o", "--output", metavar="PHOTO", help="image file to write (.jpg or .png)"
    )
    parser.add_argument("--seed", type=int, default=0, help="this photo's seed (default 0)")
    parser.add_argument("--design", type=int, default=0, help="deck design number (default 0)")
    parser.add_argument(
        "--style", type=int, default=0, help="table, light and card layout number (default 0)"
    )
    parser.add_argument(
        "--pose", type=int, default=None, help="camera pose number (default: the style number)"
    )
    parser.add_argument("--hand", action="store_true", help="a hand reaching over the cards")
    parser.add_argument(
        "--size", default="1640x1232", help="image size WIDTHxHEIGHT (default 1640x1232)"
    )
    parser.add_argument(
        "--truth", metavar="FILE.json", help="also write what the photo shows, as JSON"
    )


def run(args: argparse.Namespace) -> int:
    import numpy as np
    from zefiria.engine.errors import ZefiriaError
    from zefiria.vision.synthetic import (
        Setup,
        random_layout,
        random_pose,
        random_scene,
        random_style,
    )
    from zefiria.vision.synthetic.scene import random_hand

    try:
        size = _size(args.size)
    except ValueError as exc:
        return _fail(str(exc))
    pose_seed = args.style if args.pose is None else args.pose
    setup = Setup(
        design=args.design,
        style=random_style(args.style),
        pose=random_pose(pose_seed),
        layout=random_layout(args.style),
        seed=args.style,
        size=size,
    )
    hand = random_hand(np.random.default_rng([args.seed, 0x4A4D])) if args.hand else None
    if args.calibration is not None:
        out = Path(args.calibration)
        out.mkdir(parents=True, exist_ok=True)
        photos = setup.calibration()
        for name, photo in zip(("solved", "pawns"), photos, strict=True):
            _write(out / f"{name}.jpg", photo)
            print(out / f"{name}.jpg")
        return 0
    if args.dataset is not None:
        if args.count < 1:
            return _fail(f"--count {args.count}: at least one photo")
        write_dataset(Path(args.dataset), args.count, args.seed, args.designs, size)
        print(Path(args.dataset) / "index.json")
        return 0
    if args.output is None:
        return _fail("-o/--output PHOTO is needed with --state and --random")
    if args.state is not None:
        try:
            scene = _state_scene(args.state)
        except ZefiriaError as exc:
            return _fail(str(exc))
    else:
        scene = random_scene(args.seed, hand_chance=0.0)
    if hand is not None:
        scene = _with_hand(scene, hand)
    photo = setup.photo(scene, args.seed)
    _write(Path(args.output), photo)
    if args.truth:
        Path(args.truth).write_text(json.dumps(truth_json(photo)) + "\n", "utf-8")
    print(args.output)
    return 0


def _fail(message: str) -> int:
    print(f"zefiria render: {message}", file=sys.stderr)
    return 2


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"--size {text!r}: expected WIDTHxHEIGHT, e.g. 1640x1232") from None
    if not (160 <= w <= 8000 and 120 <= h <= 8000):
        raise ValueError(f"--size {text!r}: out of range (160x120 .. 8000x8000)")
    return (w, h)


def _state_scene(name: str) -> Scene:
    from zefiria.engine.records import load_state
    from zefiria.vision.synthetic import scene_from_state

    return scene_from_state(load_state(name))


def _with_hand(scene: Scene, hand: Hand) -> Scene:
    from dataclasses import replace

    return replace(scene, hand=hand)


def _write(path: Path, photo: RenderResult) -> None:
    import cv2

    path.parent.mkdir(parents=True, exist_ok=True)
    # the photo already carries its style's JPEG loss: save it without adding much more
    if not cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 97]):
        raise OSError(f"cannot write {path} (is the extension .jpg or .png?)")


def truth_json(photo: RenderResult) -> dict[str, Any]:
    """The photo's ground truth in the reading format's terms, plus where things are."""
    scene, truth = photo.scene, photo.truth
    pawns = {
        s.value: {"outside" if p.outside else "cell": list(p.cell)} for s, p in scene.pawns.items()
    }
    return {
        "grid": [list(scene.grid[r * 5 : r * 5 + 5]) for r in range(5)],
        "pawns": pawns,
        "gems": sorted([list(c) for c in scene.gems]),
        "hand_cells": sorted([list(c) for c in truth.hand_cells]),
        "hidden_pawns": sorted(s.value for s in truth.hidden_pawns),
        "hidden_gems": sorted([list(c) for c in truth.hidden_gems]),
        "loose_gems": len(truth.loose_gems),
        "corners": {f"{r},{c}": q.round(1).tolist() for (r, c), q in truth.corners.items()},
        "pawn_pixels": {s.value: [round(x, 1), round(y, 1)] for s, (x, y) in truth.pawns.items()},
    }


def write_dataset(out: Path, count: int, seed: int, designs: str, size: tuple[int, int]) -> None:
    """Sessions in OUTDIR/sNNN/ (solved.jpg, pawns.jpg, pNNNN.jpg) and one index.json."""
    from dataclasses import replace

    from zefiria.vision.synthetic import DEV_DESIGNS, EVAL_DESIGNS, make_dataset

    pool = EVAL_DESIGNS if designs == "eval" else DEV_DESIGNS
    index: list[dict[str, Any]] = []
    sessions: dict[int, str] = {}
    for sample in make_dataset(count, seed=seed, designs=pool):
        setup = replace(sample.setup, size=size)
        key = setup.seed
        if key not in sessions:
            sessions[key] = f"s{len(sessions):03d}"
            for name, photo in zip(("solved", "pawns"), setup.calibration(), strict=True):
                _write(out / sessions[key] / f"{name}.jpg", photo)
        name = f"{sessions[key]}/p{sample.index:04d}.jpg"
        photo = setup.photo(sample.scene, sample.seed)
        _write(out / name, photo)
        index.append(
            {
                "photo": name,
                "solved": f"{sessions[key]}/solved.jpg",
                "pawns": f"{sessions[key]}/pawns.jpg",
                "design": setup.design,
                "truth": truth_json(photo),
            }
        )
    (out / "index.json").write_text(json.dumps(index) + "\n", "utf-8")
