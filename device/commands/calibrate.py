"""``zefiria calibrate``: learn the table, the camera pose and the deck from two photos.

Take both photos with the camera where it will stay (see docs and the reading spec):
``--solved``: islands 1..25 in reading order, island 1 top left in the image, no pawns;
``--pawns``: the same layout with Borea on 1, Jugo on 2, Etesia on 3, Skyron on 4, Austro on 5.
"""

from __future__ import annotations

import argparse
import sys

HELP = "learn the grid, the 25 cards and the 5 pawns from the solved and pawns photos"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--solved", required=True, metavar="PHOTO", help="the solved layout")
    parser.add_argument(
        "--pawns", required=True, metavar="PHOTO", help="solved layout, pawns on islands 1-5"
    )
    parser.add_argument(
        "-o", "--output", required=True, metavar="PROFILE", help="profile file to write"
    )


def run(args: argparse.Namespace) -> int:
    from zefiria.vision.calibrate import CalibrationError, calibrate
    from zefiria.vision.photo_io import PhotoError, load_photo
    from zefiria.vision.profile import save_profile

    try:
        solved = load_photo(args.solved)
        pawns = load_photo(args.pawns)
    except PhotoError as exc:
        print(f"zefiria calibrate: {exc}", file=sys.stderr)
        return 2
    try:
        profile = calibrate(solved, pawns)
    except CalibrationError as exc:
        print(f"zefiria calibrate: calibration refused: {exc}", file=sys.stderr)
        return 2
    try:
        path = save_profile(profile, args.output)
    except OSError as exc:
        print(f"zefiria calibrate: cannot write {args.output}: {exc}", file=sys.stderr)
        return 2
    w, h = profile.geometry.image_size
    print(f"profile written to {path} ({w}x{h} photos, 25 cards, 5 pawns)")
    return 0
