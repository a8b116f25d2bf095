"""A camera moved after calibration: what each reading says, with and without the check.

    nice .venv/bin/python benchmarks/bumped_camera_diag.py
    nice .venv/bin/python benchmarks/bumped_camera_diag.py --seed 3 --sessions 4

The first game scene of each of ``--sessions`` sessions of ``make_dataset(n, seed,
DEV_DESIGNS, per_setup=4)`` (DEV decks: this is a tuning tool) is photographed again with
the camera turned, pushed across the image or zoomed (the same table, cards and light), and
read twice: as the reader does, and with ``camera_drift.camera_moved`` switched off (what
the reader said before the check). Printed per photo: the verdict, the cells read and left
in doubt, islands read wrong and pawns placed wrong; then the reasons counted.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

import cv2
from vision_bench import bumped
from zefiria.engine.grid import ALL_CELLS
from zefiria.vision import reader
from zefiria.vision.calibrate import CalibrationError, calibrate
from zefiria.vision.reading import Reading
from zefiria.vision.synthetic import DEV_DESIGNS, Sample, make_dataset

# (roll degrees, push as a share of the image's width, zoom factor)
BUMPS = {
    "turned 1 deg": (1.0, 0.0, 1.0),
    "turned 2 deg": (2.0, 0.0, 1.0),
    "turned 3 deg": (3.0, 0.0, 1.0),
    "pushed 1%": (0.0, 0.01, 1.0),
    "pushed 2%": (0.0, 0.02, 1.0),
    "pushed 4%": (0.0, 0.04, 1.0),
    "zoomed 3%": (0.0, 0.0, 1.03),
}


def summary(reading: Reading, sample: Sample) -> str:
    scene = sample.scene
    if not reading.ok:
        return f"unreadable: {(reading.reason or '')[:44]}"
    grid = reading.grid
    read = sum(1 for r, c in ALL_CELLS if grid[r][c] is not None)
    wrong = sum(1 for r, c in ALL_CELLS if grid[r][c] not in (None, scene.island_at((r, c))))
    pawns = sum(1 for s, p in reading.pawns.items() if scene.pawns.get(s) != p)
    return f"ok: {read} read, {len(reading.uncertain)} in doubt, {wrong} wrong, {pawns} pawns wrong"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--sessions", type=int, default=4)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    check = reader.camera_moved
    said: Counter[str] = Counter()
    samples = make_dataset(4 * args.sessions, args.seed, DEV_DESIGNS, per_setup=4)
    for sample in samples:
        if sample.index % 4:
            continue
        solved, pawns = sample.setup.calibration()
        try:
            profile = calibrate(solved.image, pawns.image)
        except CalibrationError as exc:
            print(f"session {sample.index // 4}: calibration refused: {exc}")
            continue
        for name, bump in BUMPS.items():
            photo = bumped(sample.setup, *bump).photo(sample.scene, sample.seed)
            now = reader.read_table(photo.image, profile)
            reader.camera_moved = lambda *_: None  # type: ignore[assignment]
            try:
                before = reader.read_table(photo.image, profile)
            finally:
                reader.camera_moved = check
            print(
                f"session {sample.index // 4} (deck {sample.setup.design}) {name:13s} "
                f"now {summary(now, sample)} | without the check {summary(before, sample)}"
            )
            said["now: " + ("ok" if now.ok else (now.reason or "")[:28])] += 1
            said["before: " + ("ok" if before.ok else (before.reason or "")[:28])] += 1
    for k, v in sorted(said.items()):
        print(f"{v:4d}  {k}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
