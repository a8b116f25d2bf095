"""Reading speed alone, for telling the machine's speed from the code's.

    taskset -c 1 .venv/bin/python benchmarks/reading_speed.py
    taskset -c 1 /path/to/other/venv/bin/python benchmarks/reading_speed.py

The machine this project is measured on is shared, and its speed varies through a day (the
same code measured 24 ms and 37-42 ms per photo twelve hours apart). To tell what a change
costs, read the same photos with two versions of the code, one after the other: this
script uses whichever ``zefiria`` the interpreter imports, so run it with the virtual
environment of each checkout (an older one: ``python -m venv /tmp/v && /tmp/v/bin/pip
install -e /path/to/worktree``). It imports nothing from ``benchmarks/`` for that reason:
older checkouts' benchmark helpers differ.

The first ``--n`` photos of ``vision_bench.py``'s set (EVAL decks, ``--seed 11``, 8 per
session) are rendered and calibrated untimed, read once to warm up, then ``--passes`` times;
each pass's median CPU time per photo is printed.
"""

from __future__ import annotations

import argparse
import statistics
import time

import cv2
from zefiria.vision.calibrate import CalibrationError, calibrate
from zefiria.vision.reader import read_table
from zefiria.vision.synthetic import EVAL_DESIGNS, make_dataset


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=40, help="photos (refused sessions' skipped)")
    ap.add_argument("--passes", type=int, default=3)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    jobs = []
    setup = None
    profile = None
    for sample in make_dataset(args.n, 11, EVAL_DESIGNS, per_setup=8):
        if sample.setup is not setup:
            setup = sample.setup
            solved, pawns = setup.calibration()
            try:
                profile = calibrate(solved.image, pawns.image)
            except CalibrationError:
                profile = None
        if profile is not None:
            jobs.append((sample.render().image, profile))
    for image, p in jobs:
        read_table(image, p)
    for k in range(args.passes):
        times = []
        for image, p in jobs:
            start = time.process_time()
            read_table(image, p)
            times.append(time.process_time() - start)
        median = 1000 * statistics.median(times)
        print(f"pass {k + 1}: {len(jobs)} photos, median {median:.1f} ms CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
