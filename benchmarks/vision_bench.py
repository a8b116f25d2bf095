"""Vision benchmark: calibration and reading on synthetic photos of held-out (EVAL) decks.

    taskset -c 1 .venv/bin/python benchmarks/vision_bench.py          # print the report
    taskset -c 1 .venv/bin/python benchmarks/vision_bench.py --write  # and save it

(``--write`` saves benchmarks/results/vision.md.)

Finding failures without touching the held-out decks:

    nice .venv/bin/python benchmarks/vision_bench.py --designs 3000-3099 --n 400
    nice .venv/bin/python benchmarks/vision_bench.py --designs 3000-3099 --n 400 --photo 137

``--designs A-B`` draws fresh decks (design seeds A..B, in neither DEV nor EVAL): an unseen
deck set for hunting misreads, whose figures are neither the tuning set's nor the
benchmark's. Every silent misread is printed with its session and photo index; ``--photo N``
replays that one photo (same ``--n/--seed/--per-setup/--designs``) and prints each silent
misread's evidence: the truth, the answer, its margin and costs, and the runner-up.

Sessions of ``make_dataset(n, seed, EVAL_DESIGNS)``: each session is calibrated once from its
two calibration photos, then every game photo is read. Rendering is not timed. Reported:
cells right among the visible ones (cells a hand does not cover), silent misreads (a wrong
island not marked uncertain: the failure that matters), pawns, gems, hand scenes flagged,
speed per photo (wall and CPU, by stage) on one core, and memory. And a camera moved after
calibration: each session's first game scene photographed again with the camera turned,
pushed and zoomed a little (``BUMPS``), untimed: how many such photos are refused as "camera
moved", and any island read wrong in them. And a camera out of focus: the same photo blurred
(``BLURS``), untimed: how many are refused as blurred, the cells still read right in the
others, and any island read wrong. And cards taken off the table: the same scene with
``CLEARINGS`` cards cleared away (and what lay on them), untimed: how many are refused as "no
grid found", the cells still read right in the others, and any island read where no card
lies or read wrong.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import resource
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent

from zefiria.engine.grid import ALL_CELLS  # noqa: E402
from zefiria.vision.bare_table import NO_GRID  # noqa: E402
from zefiria.vision.calibrate import CalibrationError, calibrate  # noqa: E402
from zefiria.vision.camera_drift import CAMERA_MOVED  # noqa: E402
from zefiria.vision.focus import OUT_OF_FOCUS  # noqa: E402
from zefiria.vision.profile import Profile  # noqa: E402
from zefiria.vision.reader import DEBUG, Identification, prepare, read_table  # noqa: E402
from zefiria.vision.reading import Reading, Status  # noqa: E402
from zefiria.vision.synthetic import (  # noqa: E402
    DEV_DESIGNS,
    EVAL_DESIGNS,
    Sample,
    Setup,
    make_dataset,
)
from zefiria.vision.synthetic.scene import Scene  # noqa: E402

PURPOSE = {
    "FRESH (neither DEV nor EVAL)": "for finding failures, not the benchmark",
    "DEV": "the tuning set",
    "EVAL": "never used while tuning",
}


# The camera knocked after calibration: turned in the image (degrees), pushed across it
# (shares of the image's width) or zoomed in (the grid's share of the image, times this)
BUMPS = {
    "turned 2 deg": (2.0, 0.0, 1.0),
    "pushed 2%": (0.0, 0.02, 1.0),
    "zoomed 4%": (0.0, 0.0, 1.04),
    # about a card's pitch: every cell shows its neighbour's card where its own lay
    "pushed 8%": (0.0, 0.08, 1.0),
}


# The camera out of focus (a lens turned, fogged or smudged): each session's first game photo
# blurred by a Gaussian of this many photo px
BLURS = {"blurred 3 px": 3.0, "blurred 8 px": 8.0}

# Cards taken off the table (cleared away after a game, or lifted during a move): each
# session's first game scene with this many cards cleared, chosen at random
CLEARINGS = {"all 25 cards cleared": 25, "3 cards lifted": 3}


def _others(c: Counter[str], prefix: str) -> str:
    """``; refused as "reason" n, ...`` for the counts of ``c`` keyed ``prefix + reason``."""
    said = [f'"{k[len(prefix) :]}" {n}' for k, n in sorted(c.items()) if k.startswith(prefix)]
    return f"; refused as {', '.join(said)}" if said else ""


def tally(c: Counter[str], name: str, seen: Reading, scene: Scene, reason: str, wrong: str) -> None:
    """Count one untimed photo of ``scene`` (``name``: its row): refused for ``reason``, read,
    cells read right, and under ``wrong`` the islands read wrong or where no card lies."""
    c[f"{name} photos"] += 1
    c[f"{name} refused"] += (seen.reason or "").startswith(reason)
    c[f"{name} ok"] += seen.ok
    if not seen.ok:
        return
    for cell in ALL_CELLS:
        got = seen.grid[cell[0]][cell[1]]
        if got is None:
            continue
        if cell in scene.cleared or got != scene.island_at(cell):
            c[wrong] += 1
        else:
            c[f"{name} cells"] += 1


def cleared(scene: Scene, n: int, seed: int) -> Scene:
    """``scene`` with ``n`` of its cards (random, from ``seed``) and what lay on them gone."""
    rng = np.random.default_rng(seed)
    gone = frozenset(ALL_CELLS[int(i)] for i in rng.choice(len(ALL_CELLS), n, replace=False))
    return dataclasses.replace(
        scene,
        cleared=gone,
        pawns={s: p for s, p in scene.pawns.items() if p.outside or p.cell not in gone},
        gems=frozenset(g for g in scene.gems if g not in gone),
    )


def bumped(setup: Setup, roll: float, push: float, zoom: float) -> Setup:
    """``setup`` with its camera turned by ``roll`` degrees, pushed by ``push`` of the image
    and zoomed by ``zoom``: the same table, cards and light."""
    pose = setup.pose
    moved = dataclasses.replace(
        pose,
        roll_deg=pose.roll_deg + roll,
        shift=(pose.shift[0] + push, pose.shift[1]),
        fill=pose.fill * zoom,
    )
    return dataclasses.replace(setup, pose=moved)


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.1f}% ({a}/{b})" if b else "n/a"


def calibrated(samples: Iterable[Sample]) -> Iterator[tuple[Sample, Profile | None]]:
    """Each sample with its session's profile: calibrated once per session from its two
    calibration photos, None where calibration refused them."""
    setup = None
    profile: Profile | None = None
    for sample in samples:
        if sample.setup is not setup:
            setup = sample.setup
            solved, pawns = setup.calibration()
            try:
                profile = calibrate(solved.image, pawns.image)
            except CalibrationError:
                profile = None
        yield sample, profile


def cpu_model() -> str:
    """The processor's name (Linux's /proc/cpuinfo): results move between host CPUs, so a
    figure is only comparable with one measured on the same model."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def design_range(text: str) -> tuple[int, ...]:
    """``"A-B"`` as design seeds A..B, refused if it shares a deck with DEV or EVAL."""
    try:
        a, b = (int(x) for x in text.split("-"))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected A-B (two design seeds), got {text!r}") from exc
    if b < a:
        raise argparse.ArgumentTypeError(f"empty design range {text!r}")
    out = tuple(range(a, b + 1))
    shared = sorted(set(out) & (set(DEV_DESIGNS) | set(EVAL_DESIGNS)))
    if shared:
        raise argparse.ArgumentTypeError(
            f"designs {text} include DEV or EVAL decks ({shared[0]}...): pick fresh seeds"
        )
    return out


def evidence_lines(ident: Identification, cell: int, truth: int) -> list[str]:
    """Why cell ``cell`` was read sure: its answer against the truth and the runner-up."""
    got = int(ident.choice[cell])
    row = ident.cost[cell].astype(np.float64).copy()
    row[got] = np.inf
    runner = int(np.argmin(row))

    def costs(k: int) -> str:
        return (
            f"cost {float(ident.cost[cell, k]):.3f} "
            f"(print {float(ident.evidence.cost[cell, k]):.3f}, "
            f"colour {float(ident.colour[cell, k]):.3f})"
        )

    return [
        f"    answer {got + 1}: {costs(got)}; sure {bool(ident.sure[cell])}, "
        f"margin {float(ident.margins[cell]):.3f}, framed {bool(ident.evidence.framed[cell])}",
        f"    truth  {truth + 1}: {costs(truth)}",
        f"    runner-up {runner + 1}: {costs(runner)}",
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=240, help="game photos")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--per-setup", type=int, default=8, help="photos per session")
    ap.add_argument("--write", action="store_true")
    ap.add_argument(
        "--dev", action="store_true", help="the tuning decks (DEV_DESIGNS) instead: never --write"
    )
    ap.add_argument(
        "--designs",
        type=design_range,
        metavar="A-B",
        help="fresh decks (design seeds A..B, neither DEV nor EVAL) to hunt failures on",
    )
    ap.add_argument(
        "--photo", type=int, metavar="N", help="replay game photo N only and show its evidence"
    )
    args = ap.parse_args()
    if args.dev and args.write:
        ap.error("--dev measures the tuning decks: its figures are not the benchmark's")
    if args.designs and (args.dev or args.write):
        ap.error("--designs draws fresh decks: neither the tuning set (--dev) nor --write")
    if args.photo is not None and args.write:
        ap.error("--photo replays one photo: nothing to --write")
    if args.photo is not None and not 0 <= args.photo < args.n:
        ap.error(f"--photo must be a photo index below --n {args.n}")
    decks = args.designs or (DEV_DESIGNS if args.dev else EVAL_DESIGNS)
    deck_set = "FRESH (neither DEV nor EVAL)" if args.designs else "DEV" if args.dev else "EVAL"
    if args.designs:
        print(
            f"decks: FRESH designs {decks[0]}-{decks[-1]}: neither DEV nor EVAL, for finding "
            "failures; these figures are not the benchmark's",
            file=sys.stderr,
        )
    cv2.setNumThreads(1)
    load_before = os.getloadavg()

    c: Counter[str] = Counter()
    walls: list[float] = []
    cpus: list[float] = []
    stages: dict[str, list[float]] = {}
    peaks: list[float] = []
    cal_fail: Counter[str] = Counter()
    designs: Counter[int] = Counter()
    setup = None
    profile = None
    for sample in make_dataset(args.n, args.seed, decks, per_setup=args.per_setup):
        if args.photo is not None and sample.index // args.per_setup != (
            args.photo // args.per_setup
        ):
            continue  # another session: neither calibrated nor read
        if sample.setup is not setup:
            setup = sample.setup
            solved, pawns = setup.calibration()
            c["sessions"] += 1
            try:
                profile = calibrate(solved.image, pawns.image)
            except CalibrationError as exc:
                profile = None
                cal_fail[str(exc)] += 1
            else:
                # untimed, as the device does once per profile (device/commands/read.py)
                prepare(profile)
        if args.photo is not None and sample.index != args.photo:
            continue  # its session is calibrated above; only this photo is read
        photo = sample.render()
        c["photos"] += 1
        if profile is None:
            c["photos_uncalibrated"] += 1
            continue
        designs[setup.design] += 1
        t0 = time.process_time()
        reading = read_table(photo.image, profile)
        cpus.append((time.process_time() - t0) * 1000.0)
        walls.append(reading.ms)
        for k, v in reading.stages.items():
            stages.setdefault(k, []).append(v)
        if c["read_photos"] % 10 == 0:  # memory on every tenth photo, read again untimed
            tracemalloc.start()
            read_table(photo.image, profile)
            peaks.append(tracemalloc.get_traced_memory()[1] / 1e6)
            tracemalloc.stop()
        scene = sample.scene
        if sample.index % args.per_setup == 0:
            for roll, push, zoom in BUMPS.values():
                moved = read_table(
                    bumped(setup, roll, push, zoom).photo(scene, sample.seed).image, profile
                )
                c["bumped"] += 1
                said = moved.reason or ""
                c["bumped_named"] += said.startswith(CAMERA_MOVED)
                c["bumped_ok"] += moved.ok
                c["bumped_wrong"] += sum(
                    1
                    for r, col in ALL_CELLS
                    if moved.ok and moved.grid[r][col] not in (None, scene.island_at((r, col)))
                )
            for name, sigma in BLURS.items():
                soft = read_table(cv2.GaussianBlur(photo.image, (0, 0), sigma), profile)
                tally(c, name, soft, scene, OUT_OF_FOCUS, "blurred_wrong")
            for name, n in CLEARINGS.items():
                bare = cleared(scene, n, sample.seed)
                seen = read_table(setup.photo(bare, sample.seed).image, profile)
                tally(c, name, seen, bare, NO_GRID, "cleared_wrong")
                if not seen.ok and not (seen.reason or "").startswith(NO_GRID):
                    # (refused otherwise: the reason's first words, counted)
                    said = (seen.reason or "").split(":")[0].split(" (")[0]
                    c[f"{name} said: {said}"] += 1
        hand = bool(photo.truth.hand_cells)
        c["read_photos"] += 1
        if hand:
            c["hand_scenes"] += 1
            # flagged: refused, or every card the hand covers in doubt
            if reading.status is Status.UNREADABLE or set(photo.truth.hand_cells) <= set(
                reading.uncertain
            ):
                c["hand_flagged"] += 1
            c["hand_read"] += reading.status is Status.OK
        elif reading.status is Status.UNREADABLE:
            c["false_unreadable"] += 1
        for cell in ALL_CELLS:
            if cell in photo.truth.hand_cells:
                continue
            c["visible"] += 1
            got = reading.grid[cell[0]][cell[1]] if reading.ok else None
            if got is None:
                c["null"] += 1
            elif got == scene.island_at(cell):
                c["right"] += 1
                # (given, but its cell in doubt: a pawn or gem there, or a hand's reach)
                c["right_uncertain"] += cell in reading.uncertain
            else:
                c["wrong"] += 1
                if cell not in reading.uncertain:
                    c["silent"] += 1
                    print(
                        f"silent misread: photo {sample.index} (session "
                        f"{sample.index // args.per_setup}, design {setup.design}) cell "
                        f"{cell}: truth {scene.island_at(cell)}, read {got}",
                        file=sys.stderr,
                    )
                    if args.photo is not None:
                        i = ALL_CELLS.index(cell)
                        lines = evidence_lines(DEBUG[-1], i, scene.island_at(cell) - 1)
                        print("\n".join(lines), file=sys.stderr)
        if reading.ok:
            # A pawn or a gem the hand hides cannot be seen: only a wrong answer about it
            # counts (a pawn hidden there and read elsewhere is wrong).
            for spirit, pos in scene.pawns.items():
                got_pos = reading.pawns.get(spirit)
                if spirit in photo.truth.hidden_pawns:
                    c["pawns_hidden"] += 1
                    c["pawns_wrong"] += got_pos is not None and got_pos != pos
                    c["pawns_misplaced_sure"] += (
                        got_pos is not None
                        and got_pos != pos
                        and got_pos.cell not in reading.uncertain
                    )
                    continue
                c["pawns"] += 1
                if got_pos == pos:
                    c["pawns_right"] += 1
                elif got_pos is not None:
                    c["pawns_wrong"] += 1
                    c["pawns_misplaced_sure"] += got_pos.cell not in reading.uncertain
                elif pos.cell not in reading.uncertain:
                    # (the referee would take its card for bare; Austro beside the grid is
                    # doubted by the edge cell he stands by, which the referee offers first
                    # when it asks where he is: as pawn_diag.py counts him)
                    c["pawns_silent"] += 1
                    c["pawns_silent_beside"] += pos.outside
                elif pos.outside:
                    c["pawns_beside_doubted"] += 1
            c["pawns_phantom"] += sum(1 for s in reading.pawns if s not in scene.pawns)
            # (a pawn reported on a cell the reading marks uncertain, "not trustworthy" by the
            # contract, comes with the reading's own doubt)
            c["pawns_misplaced_sure"] += sum(
                1
                for s, p in reading.pawns.items()
                if s not in scene.pawns and p.cell not in reading.uncertain
            )
            truth_gems = set(scene.gems) - set(photo.truth.hidden_gems)
            c["gems"] += len(truth_gems)
            c["gems_right"] += len(truth_gems & set(reading.gems))
            c["gems_phantom"] += len(set(reading.gems) - set(scene.gems))
    load_after = os.getloadavg()

    lines = [
        "# Vision benchmark",
        "",
        f"Command: `taskset -c 1 .venv/bin/python benchmarks/vision_bench.py --write` "
        f"(`--n {args.n} --seed {args.seed} --per-setup {args.per_setup}`)",
        "",
        f"- machine: {cpu_model()} ({platform.machine()}), {os.cpu_count()} cores, "
        f"{platform.system()} "
        f"{platform.release()}; Python {platform.python_version()}, OpenCV {cv2.__version__},"
        f" numpy {np.__version__}; `cv2.setNumThreads(1)`; "
        f"affinity {sorted(os.sched_getaffinity(0))}",
        f"- load average (1, 5, 15 min) before: {', '.join(f'{x:.2f}' for x in load_before)};"
        f" after: {', '.join(f'{x:.2f}' for x in load_after)} (the machine is shared)",
        f"- decks: {deck_set} designs {sorted(designs)} "
        f"({PURPOSE[deck_set]}); "
        f"{c['sessions']} sessions, {c['photos']} game photos",
        "",
        "## Calibration",
        "",
        f"- sessions calibrated: {pct(c['sessions'] - sum(cal_fail.values()), c['sessions'])}",
    ]
    for reason, n in cal_fail.most_common():
        lines.append(f"- refused ({n}): {reason}")
    lines += [
        f"- photos of refused sessions (not read): {c['photos_uncalibrated']}",
        "",
        f"## Readings ({c['read_photos']} photos of calibrated sessions)",
        "",
        "| measure | result | target |",
        "|---|---|---|",
        f"| visible cells read right | {pct(c['right'], c['visible'])} | 100% |",
        f"| ... of them with the cell marked uncertain (a pawn, gem or hand in doubt there) "
        f"| {pct(c['right_uncertain'], c['visible'])} | |",
        f"| visible cells left null (doubt) | {pct(c['null'], c['visible'])} | |",
        f"| wrong islands given | {c['wrong']} | 0 |",
        f"| **silent misreads** (wrong, not uncertain) | **{c['silent']}** | 0 |",
        f"| pawns right (photos read ok) | {pct(c['pawns_right'], c['pawns'])} | 100% |",
        f"| pawns placed wrong / phantom | {c['pawns_wrong']} / {c['pawns_phantom']} | 0 |",
        "| ... of them reported on a cell the reading did not mark uncertain | "
        f"{c['pawns_misplaced_sure']} | 0 |",
        f"| pawns missed silently (card, or edge cell Austro stands by, not uncertain) "
        f"| {c['pawns_silent']} ({c['pawns_silent_beside']} Austro beside the grid; "
        f"{c['pawns_beside_doubted']} more there with the edge cell uncertain) | |",
        f"| gems found (photos read ok) | {pct(c['gems_right'], c['gems'])} | >= 99% |",
        f"| phantom gems | {c['gems_phantom']} | 0 |",
        f"| hand scenes flagged (refused, or every covered card uncertain) "
        f"| {pct(c['hand_flagged'], c['hand_scenes'])} | 100% |",
        f"| hand scenes read (the cards the hand leaves visible) "
        f"| {pct(c['hand_read'], c['hand_scenes'])} | |",
        f"| photos without a hand called unreadable | "
        f"{pct(c['false_unreadable'], c['read_photos'] - c['hand_scenes'])} | 0 |",
        f'| camera moved after calibration ({", ".join(BUMPS)}): refused as "camera moved" '
        f"| {pct(c['bumped_named'], c['bumped'])} ({c['bumped_ok']} read ok) | |",
        f"| ... islands read wrong in those | {c['bumped_wrong']} | 0 |",
        *(
            f'| out of focus, {name}: refused as "{OUT_OF_FOCUS}" '
            f"| {pct(c[f'{name} refused'], c[f'{name} photos'])} ({c[f'{name} ok']} read ok, "
            f"{c[f'{name} cells']} cells read right) | |"
            for name in BLURS
        ),
        f"| ... islands read wrong in those | {c['blurred_wrong']} | 0 |",
        *(
            f'| cards off the table, {name}: refused as "{NO_GRID}" '
            f"| {pct(c[f'{name} refused'], c[f'{name} photos'])} ({c[f'{name} ok']} read ok, "
            f"{c[f'{name} cells']} cells read right{_others(c, f'{name} said: ')}) | |"
            for name in CLEARINGS
        ),
        f"| ... islands read where no card lies, or wrong | {c['cleared_wrong']} | 0 |",
        "",
        "## Speed per photo (1640x1232, one core)",
        "",
        "| stage | median ms | p95 ms |",
        "|---|---|---|",
    ]
    for name, vals in [*stages.items(), ("total (wall)", walls), ("total (CPU)", cpus)]:
        p95 = float(np.percentile(vals, 95)) if vals else float("nan")
        med = statistics.median(vals) if vals else float("nan")
        lines.append(f"| {name} | {med:.1f} | {p95:.1f} |")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    lines += [
        "",
        f"Each profile is prepared (`reader.prepare`) untimed before its first reading, as "
        f"the device does. Stages after an unreadable verdict are skipped, so stage counts "
        f"differ. Memory: "
        f"peak Python/numpy allocations during one reading (tracemalloc, every tenth photo, "
        f"read again untimed) median "
        f"{statistics.median(peaks or [np.nan]):.1f} MB, max {max(peaks or [np.nan]):.1f} MB "
        f"(OpenCV's own buffers "
        f"are not traced); whole benchmark process peak RSS {rss:.0f} MB, renderer included.",
        "",
    ]
    report = "\n".join(lines)
    print(report)
    if args.write:
        out = ROOT / "benchmarks" / "results" / "vision.md"
        out.write_text(report)
        print(f"written to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
