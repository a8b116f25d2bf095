"""Calibration diagnosis on DEV decks: refusals, false "hand" verdicts, card-corner error.

    taskset -c 0 nice .venv/bin/python benchmarks/calibration_diag.py
    taskset -c 0 nice .venv/bin/python benchmarks/calibration_diag.py --seeds 21 22 --n 96

Sessions of ``make_dataset(n, seed, DEV_DESIGNS, per_setup, hand_chance)`` for each seed (DEV
designs only: this is the tuning tool; EVAL decks are for ``vision_bench.py``). Each session
is calibrated once; every synthetic photo is valid, so every refusal is a wrong one. Reported:

- calibration refusals by reason (and which design/seed),
- game photos without a hand called unreadable, by reason,
- hand scenes flagged (unreadable, or a covered cell among ``uncertain``),
- card corners found at calibration against the renderer's truth, per design: the profile's
  board-px corners mapped to the photo by the profile's own homography (the exact map the
  board is warped with), compared with the true corners in photo px (median / max).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict

import cv2
import numpy as np
from vision_bench import design_range
from zefiria.engine.grid import ALL_CELLS
from zefiria.vision.calibrate import CalibrationError, calibrate
from zefiria.vision.reader import read_table
from zefiria.vision.reading import Status
from zefiria.vision.synthetic import DEV_DESIGNS, make_dataset

BAD_CORNER = 6.0  # photo px: sessions with a corner further off than this are listed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[21, 22])
    ap.add_argument("--n", type=int, default=96, help="game photos per seed")
    ap.add_argument("--per-setup", type=int, default=6)
    ap.add_argument("--hand-chance", type=float, default=0.15)
    ap.add_argument("--no-read", action="store_true", help="calibrate only")
    ap.add_argument("--designs", type=design_range, metavar="A-B", help="fresh decks, not DEV")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    decks = args.designs or DEV_DESIGNS

    c: Counter[str] = Counter()
    refusals: dict[str, list[str]] = defaultdict(list)
    false_hand: Counter[str] = Counter()
    false_where: Counter[str] = Counter()
    missed_hands: list[str] = []
    corner_err: dict[int, list[float]] = defaultdict(list)
    bad_sessions: list[str] = []
    for seed in args.seeds:
        setup = None
        profile = None
        dataset = make_dataset(
            args.n, seed, decks, per_setup=args.per_setup, hand_chance=args.hand_chance
        )
        for sample in dataset:
            if sample.setup is not setup:
                setup = sample.setup
                solved, pawns = setup.calibration()
                c["sessions"] += 1
                tag = f"seed {seed} design {setup.design}"
                try:
                    profile = calibrate(solved.image, pawns.image)
                except CalibrationError as exc:
                    profile = None
                    refusals[str(exc)].append(tag)
                else:
                    assert profile.card_quads is not None
                    found = profile.geometry.board_to_image(profile.card_quads.reshape(-1, 2))
                    truth = np.concatenate([solved.truth.corners[cell] for cell in ALL_CELLS])
                    err = np.linalg.norm(found - truth, axis=1)
                    corner_err[setup.design].extend(err.tolist())
                    if err.max() > BAD_CORNER:
                        bad_sessions.append(
                            f"{tag}: median {np.median(err):.2f}, max {err.max():.2f}"
                        )
            if profile is None or args.no_read:
                continue
            photo = sample.render()
            reading = read_table(photo.image, profile)
            c["photos"] += 1
            if photo.truth.hand_cells:
                c["hand_scenes"] += 1
                if reading.status is Status.UNREADABLE or set(photo.truth.hand_cells) & set(
                    reading.uncertain
                ):
                    c["hand_flagged"] += 1
                else:
                    missed_hands.append(f"seed {seed} design {setup.design} photo {sample.index}")
            elif reading.status is Status.UNREADABLE:
                c["false_unreadable"] += 1
                false_hand[reading.reason or "?"] += 1
                false_where[f"seed {seed} design {setup.design}"] += 1

    print(
        f"# calibration_diag: seeds {args.seeds}, n {args.n}, per_setup {args.per_setup}, "
        f"hand_chance {args.hand_chance}, "
        + ("DEV designs" if args.designs is None else f"designs {decks[0]}-{decks[-1]}")
    )
    refused = sum(len(v) for v in refusals.values())
    print(f"sessions calibrated: {c['sessions'] - refused}/{c['sessions']}")
    for reason, where in sorted(refusals.items(), key=lambda kv: -len(kv[1])):
        print(f"  refused ({len(where)}): {reason}  [{'; '.join(where)}]")
    if not args.no_read:
        free = c["photos"] - c["hand_scenes"]
        print(f"hand-free photos called unreadable: {c['false_unreadable']}/{free}")
        for reason, n in false_hand.most_common():
            print(f"  ({n}) {reason}")
        for where, n in false_where.most_common():
            print(f"  ({n}) {where}")
        print(f"hand scenes flagged: {c['hand_flagged']}/{c['hand_scenes']}")
        for m in missed_hands:
            print(f"  missed: {m}")
    print("card corners at calibration vs truth (photo px): design median / max")
    allerr: list[float] = []
    for design in sorted(corner_err):
        e = np.array(corner_err[design])
        allerr.extend(e.tolist())
        n = len(e) // 100
        print(f"  design {design:2d}: {np.median(e):.2f} / {e.max():.2f}  ({n} sessions)")
    if allerr:
        a = np.array(allerr)
        p95 = np.percentile(a, 95)
        print(f"  all: median {np.median(a):.2f}, p95 {p95:.2f}, max {a.max():.2f}")
    for line in bad_sessions:
        print(f"  corner off by more than {BAD_CORNER} px: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
