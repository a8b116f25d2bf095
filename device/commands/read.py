"""``zefiria read``: read one photo of the table with a calibration profile, print JSON.

The JSON follows the reading contract (status, grid, pawns, gems, uncertain, ms, and reason
when unreadable). Exit status: 0 for a reading with status "ok", 1 for an "unreadable"
reading (the JSON says why), 2 when the photo or the profile file cannot be used at all.
"""

from __future__ import annotations

import argparse
import sys

HELP = "read a photo of the table (grid, pawns, gems, doubts) and print the JSON reading"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photo", metavar="PHOTO", help="photo taken from the calibrated pose")
    parser.add_argument("--profile", required=True, help="profile from zefiria calibrate")
    parser.add_argument(
        "--overlay", metavar="PNG", help="also draw the reading over the photo into this file"
    )


def run(args: argparse.Namespace) -> int:
    import cv2
    from zefiria.vision.overlay import draw_overlay
    from zefiria.vision.photo_io import PhotoError, load_photo
    from zefiria.vision.profile import ProfileError, load_profile
    from zefiria.vision.reader import prepare, read_table

    try:
        profile = load_profile(args.profile)
    except ProfileError as exc:
        print(f"zefiria read: {exc}", file=sys.stderr)
        return 2
    try:
        photo = load_photo(args.photo)
    except PhotoError as exc:
        print(f"zefiria read: {exc}", file=sys.stderr)
        return 2
    prepare(profile)  # per-profile set-up, not part of this reading's time
    reading = read_table(photo, profile)
    print(reading.to_json())
    if args.overlay:
        picture = draw_overlay(photo, reading, profile)
        try:
            if not cv2.imwrite(args.overlay, picture):
                raise OSError("unsupported file type (use .png or .jpg)")
        except (OSError, cv2.error) as exc:
            print(f"zefiria read: cannot write overlay {args.overlay}: {exc}", file=sys.stderr)
            return 2
    return 0 if reading.ok else 1
