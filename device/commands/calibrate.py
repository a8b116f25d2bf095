"""``zefiria calibrate``: learn the table, the camera pose and the deck from two photos.

Take both photos with the camera where it will stay (see docs and the reading spec):
``solved``: islands 1..25 in reading order, island 1 top left in the image, no pawns;
``pawns``: the same layout with Borea on 1, Jugo on 2, Etesia on 3, Skyron on 4, Austro on 5.

With ``--solved`` and ``--pawns`` the photos are files. Without them the configured camera
takes them, guided step by step on the screen and the terminal, and the buttons (or the
keyboard) answer; ``--simulate`` does the same at a virtual table.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

HELP = "learn the grid, the 25 cards and the 5 pawns: from the camera, guided, or two photos"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--solved", metavar="PHOTO", help="the solved layout (a file)")
    parser.add_argument(
        "--pawns", metavar="PHOTO", help="solved layout, pawns on islands 1-5 (a file)"
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="PROFILE",
        type=Path,
        help="profile file to write (default: the config's, where `zefiria referee` looks)",
    )
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help="TOML config (default: $ZEFIRIA_CONFIG, ~/.config/zefiria/...)",
    )
    parser.add_argument(
        "--keyboard", action="store_true", help="keyboard instead of the GPIO buttons"
    )
    parser.add_argument(
        "--simulate",
        action="store_true",
        help="no hardware: a virtual table photographed by the simulated camera, keyboard",
    )


def run(args: argparse.Namespace) -> int:
    if args.solved or args.pawns:
        if not (args.solved and args.pawns):
            return _fail("give both --solved and --pawns, or neither to use the camera")
        if args.output is None:
            return _fail("-o PROFILE is needed with photo files")
        return _from_files(args.solved, args.pawns, args.output)
    return _guided(args)


def _fail(message: str) -> int:
    print(f"zefiria calibrate: {message}", file=sys.stderr)
    return 2


def _from_files(solved_file: str, pawns_file: str, output: Path) -> int:
    from zefiria.vision.calibrate import CalibrationError, calibrate
    from zefiria.vision.photo_io import PhotoError, load_photo
    from zefiria.vision.profile import save_profile

    try:
        solved = load_photo(solved_file)
        pawns = load_photo(pawns_file)
    except PhotoError as exc:
        return _fail(str(exc))
    try:
        profile = calibrate(solved, pawns)
    except CalibrationError as exc:
        return _fail(f"calibration refused: {exc}")
    try:
        path = save_profile(profile, output)
    except OSError as exc:
        return _fail(f"cannot write {output}: {exc}")
    _report(profile, path)
    return 0


def _report(profile: Any, path: Path) -> None:
    from zefiria.vision.calibrate import islands_in_doubt
    from zefiria.vision.card_print import PRINT_CHANNELS

    w, h = profile.geometry.image_size
    print(f"profile written to {path} ({w}x{h} photos, 25 cards, 5 pawns)")
    if profile.print_channel != PRINT_CHANNELS[0]:
        # (grey is tried first; a fit in colour reads, but left more cells null on fresh
        # decks than grey fits)
        print(
            "zefiria calibrate: note: the cards' edges stood out only in colour (their "
            "border is as light as the table in grey); readings may leave more cards in "
            "doubt. A table darker or lighter than the cards' border reads more surely.",
            file=sys.stderr,
        )
    doubtful = islands_in_doubt(profile)
    if doubtful:
        names = ", ".join(str(k) for k in doubtful)
        print(
            f"zefiria calibrate: warning: the edges of island{'s' if len(doubtful) > 1 else ''}"
            f" {names} were not found in the solved photo; readings will doubt "
            f"{'those cards' if len(doubtful) > 1 else 'that card'} more often. To read them "
            "better, lay the cards a finger apart on a plainer surface and calibrate again.",
            file=sys.stderr,
        )


def _guided(args: argparse.Namespace) -> int:
    """The configured camera (or the virtual table), prompts on the screen, the buttons."""
    from zefiria.device.camera import CameraError, CameraSource, open_camera
    from zefiria.device.commands.device_config import command_config
    from zefiria.device.config import ConfigError
    from zefiria.device.controls import ControlsError, open_controls
    from zefiria.device.display import DisplayError, close_display, open_display, show
    from zefiria.device.referee.calibration import (
        CalibrationCancelled,
        guided_calibration,
        profile_saver,
    )

    try:
        config = command_config(args.config, args.simulate)
    except ConfigError as exc:
        return _fail(str(exc))
    # A simulated table's profile must never replace the real camera's.
    default = config.data_dir / "simulated" / "profile.npz" if args.simulate else None
    output = args.output or default or config.profile_file
    on_prompt: Any = lambda step: None  # noqa: E731
    try:
        if args.simulate:
            from zefiria.device.camera.simulated import SimulatedTable
            from zefiria.device.referee.demo import DEMO_DESIGN, DEMO_TABLE, CalibrationTable
            from zefiria.vision.synthetic.dataset import random_setup

            table = CalibrationTable(random_setup(DEMO_TABLE, DEMO_DESIGN))
            camera: CameraSource = SimulatedTable(table.photo, config.camera.preview_size)
            on_prompt = table.prompt
        else:
            camera = open_camera(config.camera)
    except CameraError as exc:
        return _fail(str(exc))
    try:
        display = open_display(config.display)
        controls = open_controls(config, keyboard=args.keyboard or args.simulate)
    except (DisplayError, ControlsError) as exc:
        camera.close()
        return _fail(str(exc))
    try:
        done = guided_calibration(
            camera,
            controls,
            lambda view: show(display, view),
            profile_saver(output),
            lang=config.language,
            on_prompt=on_prompt,
        )
    except CalibrationCancelled:
        return _fail("cancelled; no profile written")
    except OSError as exc:
        return _fail(f"cannot write {output}: {exc.strerror or exc}")
    finally:
        controls.close()
        close_display(display)
        camera.close()
    _report(done.profile, done.path)
    return 0
