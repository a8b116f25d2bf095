"""Fingerprints of every decision the vision makes on DEV photos: proof a speed-up changed none.

    taskset -c 0 nice .venv/bin/python benchmarks/reading_fingerprints.py --save /tmp/before.json
    (change the code)
    taskset -c 0 nice .venv/bin/python benchmarks/reading_fingerprints.py --compare /tmp/before.json

Save and compare on the same number of cores (``taskset``): BLAS splits the print
comparisons' matrix products over the cores it has, and a different split changes the
costs' last bits (every photo's cost hash differed between one core and two, 2026-11-26).

Sessions of ``make_dataset(n, seed, DEV_DESIGNS, per_setup)`` are calibrated (each profile's
arrays hashed, or its refusal kept) and every game photo is read. Kept per photo: the
reading's JSON without ``ms``, its confidences, and the identify stage's choice, certainty,
framing and cost matrix (hashed: bit for bit). ``--compare`` lists every difference and
exits 1 if there is one. DEV decks only: this measures nothing, it only compares.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from zefiria.vision.calibrate import CalibrationError, calibrate
from zefiria.vision.profile import Profile
from zefiria.vision.reader import DEBUG, read_table
from zefiria.vision.synthetic import DEV_DESIGNS, make_dataset


def digest(a: Any) -> str:
    return hashlib.sha1(np.ascontiguousarray(a).tobytes()).hexdigest()


def profile_print(profile: Profile) -> dict[str, Any]:
    out: dict[str, Any] = {"lattice_to_image": digest(profile.geometry.lattice_to_image)}
    for name, value in vars(profile).items():
        if isinstance(value, np.ndarray):
            out[name] = digest(value)
        elif name != "geometry":
            out[name] = repr(value)
    return out


def fingerprints(n: int, seed: int, per_setup: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    setup = None
    profile: Profile | None = None
    for sample in make_dataset(n, seed, DEV_DESIGNS, per_setup=per_setup):
        if sample.setup is not setup:
            setup = sample.setup
            solved, pawns = setup.calibration()
            key = f"session {sample.index // per_setup}"
            try:
                profile = calibrate(solved.image, pawns.image)
                out[key] = profile_print(profile)
            except CalibrationError as exc:
                profile = None
                out[key] = f"refused: {exc}"
        if profile is None:
            continue
        DEBUG.clear()
        reading = read_table(sample.render().image, profile)
        record = reading.to_dict()
        record.pop("ms")
        record["confidence"] = digest(np.array(reading.confidence, np.float64))
        if DEBUG:
            ident = DEBUG[-1]
            record["choice"] = ident.choice.tolist()
            record["sure"] = ident.sure.tolist()
            record["framed"] = ident.evidence.framed.tolist()
            record["cost"] = digest(ident.cost)
        out[f"photo {sample.index}"] = record
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--save", type=Path, help="write the fingerprints to this file")
    group.add_argument("--compare", type=Path, help="compare with fingerprints saved before")
    ap.add_argument("--n", type=int, default=96, help="game photos")
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--per-setup", type=int, default=8, help="photos per session")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    got = fingerprints(args.n, args.seed, args.per_setup)
    photos = sum(1 for k in got if k.startswith("photo"))
    if args.save:
        args.save.write_text(json.dumps(got, indent=1, sort_keys=True))
        print(f"{photos} photos fingerprinted: {args.save}")
        return 0
    before = json.loads(args.compare.read_text())
    keys = sorted(set(before) | set(got))
    differ = [k for k in keys if before.get(k) != got.get(k)]
    for k in differ:
        print(f"{k} differs:\n  before {before.get(k)}\n  now    {got.get(k)}")
    print(f"{photos} photos read, {len(keys)} entries compared: {len(differ)} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
