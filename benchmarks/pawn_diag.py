"""Pawn and gem diagnosis on DEV decks: failures by kind, with and without the cards' reading.

    taskset -c 0 nice .venv/bin/python benchmarks/pawn_diag.py --n 192 --crops /tmp/pawn_diag

Sessions of ``make_dataset(n, seed, DEV_DESIGNS, per_setup)`` (tuning decks only), calibrated
once each. Every photo is read twice: by ``read_table`` as it is (``read``), and with the
cards' identification replaced by the true island of each cell and no card taken for hidden
(``true``, photos without a hand only), so that pawn and gem figures do not depend on how
well the cards are read. Failure kinds:

- pawns: right, missed (and whether its cell was at least marked uncertain), wrong cell,
  outside/inside confusion (on a card vs beside the grid, or beside another edge cell),
  phantom (a spirit not on the table), the last three each with whether the cell it is
  reported on was marked uncertain; pawns a hand hides are counted apart;
- gems: found, missed (doubted or silent), phantom; and apart, the gems on cards that also
  hold a pawn (a gem under or beside a pawn's base): found, doubted (cell uncertain) or
  silently missed.

``--read-only`` skips the ``true`` pass (about twice as fast). ``--designs A-B`` reads other
decks than DEV (fresh ones, e.g. ``2000-2015``, to look for failure kinds; never EVAL).
``--tables A-B`` reads the referee benchmark's tables instead (``zefiria demo --table T``:
the demo's deck on table session T, calibrated once per table, ``--per-setup`` photos
each): a pawn placed wrong there can become a wrong verdict in ``referee_bench.py``, whose
games take a path that a change to any reading may alter, so a rule that passes the decks
may still show a wrong verdict there only by the new path (see docs/vision.md).

``--crops DIR`` writes a PNG crop of the photo around each failure (truth and answer marked).

``--gems`` says why each gem of the ``read`` pass was missed: no change there in the objects
mask, too few red pixels, or the verdict on the red blob found there (``gems.GEM_TRACE``),
with what lies around it (a pawn on the card, the card's edge, red art, glare, a dark card).
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
from collections import Counter
from collections.abc import Iterator
from itertools import count
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from zefiria.device.referee.demo import DEMO_DESIGN
from zefiria.engine.grid import ALL_CELLS
from zefiria.engine.state import Position
from zefiria.vision import gems as gem_stage
from zefiria.vision import pawn_objects, reader
from zefiria.vision import pawns as pawn_stage
from zefiria.vision.calibrate import CalibrationError, calibrate
from zefiria.vision.profile import Profile
from zefiria.vision.reader import read_table
from zefiria.vision.reading import Reading
from zefiria.vision.synthetic import DEV_DESIGNS, EVAL_DESIGNS, Sample, make_dataset
from zefiria.vision.synthetic.dataset import random_setup, samples_in
from zefiria.vision.synthetic.render import RenderResult


def referee_tables(n: int, seed: int, tables: tuple[int, ...], per_table: int) -> Iterator[Sample]:
    """``n`` photos on the referee benchmark's tables, ``per_table`` on each in turn: the
    demo's deck on table session T, as ``zefiria demo --table T`` lays it out, with the
    random scenes of :func:`make_dataset` (hands and all)."""
    sessions = (random_setup(tables[k % len(tables)], DEMO_DESIGN) for k in count())
    return samples_in(sessions, n, seed, per_table)


@contextlib.contextmanager
def true_islands(sample: Sample) -> Iterator[None]:
    """The reader's card assignment replaced by the truth, and no card taken for hidden
    (a card that matches its true island badly would otherwise be left out of the expected
    board); everything else unchanged. Meant for photos without a hand."""
    truth = np.array([sample.scene.island_at(c) - 1 for c in ALL_CELLS], np.intp)
    solve, max_own = reader.assignment.solve, reader.MAX_OWN
    reader.assignment.solve = lambda cost: truth.copy()  # type: ignore[assignment]
    reader.MAX_OWN = float("inf")
    try:
        yield
    finally:
        reader.assignment.solve = solve  # type: ignore[assignment]
        reader.MAX_OWN = max_own


def _where(profile: Profile, pos: Position) -> tuple[float, float]:
    """Board px of a cell's centre, or just beyond the grid edge for an outside position."""
    g = profile.geometry
    x, y = g.cell_centre(pos.cell)
    if pos.outside:
        r, c = pos.cell
        dx = -0.8 if c == 0 else 0.8 if c == 4 else 0.0
        dy = -0.8 if r == 0 else 0.8 if r == 4 else 0.0
        x, y = x + dx * g.pitch, y + dy * g.pitch
    return x, y


def _crop(
    photo: RenderResult,
    profile: Profile,
    marks: list[tuple[tuple[float, float], tuple[int, int, int]]],
    path: Path,
) -> None:
    """A crop of the photo around the marked image points (truth green, answer red)."""
    img = photo.image.copy()
    pts = np.array([m[0] for m in marks])
    for (x, y), colour in marks:
        cv2.circle(img, (round(x), round(y)), 6, colour, 1)
    pitch = profile.geometry.pitch * profile.geometry.shrink * 2
    x0, y0 = (pts.min(axis=0) - pitch).astype(int)
    x1, y1 = (pts.max(axis=0) + pitch).astype(int)
    h, w = img.shape[:2]
    crop = img[max(0, y0) : min(h, y1), max(0, x0) : min(w, x1)]
    scale = max(1, round(240 / max(1, crop.shape[0])))
    crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
    cv2.imwrite(str(path), crop)


class GemInputs:
    """The arguments of the last ``find_gems`` call of a reading (board Lab, expected, mask)."""

    def __init__(self) -> None:
        self.args: tuple[Any, ...] = ()
        self.find = reader.find_gems

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.args = args
        return self.find(*args, **kwargs)


GEM_INPUTS = GemInputs()


def gem_causes(
    sample: Sample, photo: RenderResult, reading: Reading, profile: Profile, c: Counter[str]
) -> list[str]:
    """Why each gem of this reading was missed, counted into ``c`` as ``cause: ...`` and
    ``context: ...``; one line per missed gem."""
    if len(GEM_INPUTS.args) < 6:
        return []
    lab, expected, mask, _, card_area, g = GEM_INPUTS.args[:6]
    m = g.lattice_to_image @ np.linalg.inv(g.lattice_to_board())
    to_board = np.linalg.inv(m)
    pawn_cells = {p.cell for p in sample.scene.pawns.values() if not p.outside}
    truth = set(sample.scene.gems) - set(photo.truth.hidden_gems)
    lines = []
    for cell in sorted(truth - set(reading.gems)):
        ix, iy = photo.truth.gems[cell]
        p = cv2.perspectiveTransform(np.array([[[ix, iy]]], np.float64), to_board)[0, 0]
        x, y = float(p[0]), float(p[1])
        r = max(3, round(0.12 * g.pitch))
        xi, yi = round(x), round(y)
        win = (slice(max(0, yi - r), yi + r + 1), slice(max(0, xi - r), xi + r + 1))
        seen, exp = lab[win].reshape(-1, 3), expected[win].reshape(-1, 3)
        inmask = mask[win].reshape(-1).astype(bool)
        a, b = seen[:, 1], seen[:, 2]
        differs = (a - exp[:, 1] > 20.0) | (
            (np.abs(seen - exp).sum(axis=-1) > gem_stage.GEM_DIFF) & (b > gem_stage.GEM_HUE * a)
        )
        red = (a > 30.0) & (a > 0.9 * np.abs(b)) & differs & inmask
        near = [t for t in gem_stage.GEM_TRACE if np.hypot(t[0] - x, t[1] - y) < 1.5 * r]
        if near:
            t = max(near, key=lambda t: t[2])
            cause = f"blob: {t[3]}"
        elif inmask.mean() < 0.15:
            cause = "not in objects mask"
        elif red.sum() < 0.004 * card_area:
            cause = "too few red px"
        else:
            cause = "red px, no blob"
        ctx = []
        if cell in pawn_cells:
            ctx.append("pawn on card")
        col, row = g.board_to_lattice(x, y)
        if min(abs(col - round(col)), abs(row - round(row))) < 0.15:
            ctx.append("near card edge")
        if float(np.median(exp[:, 1])) > 20.0:
            ctx.append("red art")
        if float(np.median(seen[:, 0])) > float(np.median(exp[:, 0])) + 10.0:
            ctx.append("lighter (glare?)")
        if float(np.median(exp[:, 0])) < 40.0:
            ctx.append("dark card")
        doubted = cell in reading.uncertain
        c[f"cause: {cause}"] += 1
        c[f"cause: {cause} ({'doubted' if doubted else 'SILENT'})"] += 1
        for k in ctx:
            c[f"context: {k}"] += 1
        stats = (
            f"mask {inmask.mean():.2f} red {int(red.sum())} a* max {float(a.max()):.0f} "
            f"L {float(np.median(seen[:, 0])):.0f} exp L {float(np.median(exp[:, 0])):.0f} "
            f"exp a* {float(np.median(exp[:, 1])):.0f}"
        )
        lines.append(
            f"#{sample.index} design {sample.setup.design} gem {cell}: {cause}"
            f"{' (doubted)' if doubted else ''} [{', '.join(ctx)}] {stats}"
        )
    return lines


def _flagged(kind: str, got: Position, reading: Reading, c: Counter[str], tag: str) -> str:
    """``kind`` of a pawn placed wrong or a phantom, and whether the cell it is reported on
    (for Austro beside the grid, the edge cell he stands by) is marked uncertain: the
    reading's own doubt about it. Counted when it is not."""
    if got.cell in reading.uncertain:
        return f"{kind} (cell uncertain)"
    c[f"{tag} pawn misplaced, cell NOT uncertain"] += 1
    return kind


def _second_look_verdict(photo: RenderResult, profile: Profile, spirit: Any) -> str:
    """What the second look (pawn_objects) said of the object nearest a pawn's middle."""
    if spirit not in photo.truth.pawns:
        return "?"
    g = profile.geometry
    to_board = np.linalg.inv(g.lattice_to_image @ np.linalg.inv(g.lattice_to_board()))
    ends = np.array([[photo.truth.pawns[spirit], photo.truth.pawn_tops[spirit]]], np.float64)
    foot, top = cv2.perspectiveTransform(ends, to_board)[0]
    x, y = (foot + top) / 2
    near = [(np.hypot(t[0] - x, t[1] - y), t[2]) for t in pawn_objects.LOOK_TRACE]
    near = [n for n in near if n[0] < 0.3 * g.pitch]
    return min(near)[1] if near else "no object"


def score(
    tag: str,
    sample: Sample,
    photo: RenderResult,
    reading: Reading,
    profile: Profile,
    c: Counter[str],
    log: list[str],
    crops: Path | None,
) -> None:
    if not reading.ok:
        c[f"{tag} unreadable"] += 1
        return
    c[f"{tag} photos"] += 1
    c[f"{tag} uncertain cells"] += len(reading.uncertain)
    g = profile.geometry
    scene = sample.scene
    hidden = photo.truth.hidden_pawns
    bad: list[tuple[str, Any, Position | None, Position | None]] = []
    for spirit, pos in scene.pawns.items():
        got = reading.pawns.get(spirit)
        if spirit in hidden:
            c[f"{tag} pawn hidden by hand"] += 1
            if got is not None and got != pos:
                c[f"{tag} pawn hidden, reported WRONG"] += 1
                bad.append(("hidden-wrong", spirit, pos, got))
            continue
        c[f"{tag} pawns"] += 1
        if got == pos:
            c[f"{tag} pawn right"] += 1
        elif got is None:
            kind = "missed (cell uncertain)" if pos.cell in reading.uncertain else "missed"
            if pos.outside:
                kind += " outside"
            c[f"{tag} pawn {kind}"] += 1
            c[f"{tag} pawn missed, why: {pawn_stage.WHY_MISSED.get(spirit, '?')}"] += 1
            look = _second_look_verdict(photo, profile, spirit)
            c[f"{tag} pawn missed, second look: {look.split(' (')[0]}"] += 1
            kind += f" [{pawn_stage.WHY_MISSED.get(spirit, '?')}; second look: {look}]"
            bad.append((kind, spirit, pos, got))
        elif got.outside != pos.outside or (got.outside and got.cell != pos.cell):
            c[f"{tag} pawn OUTSIDE/INSIDE confusion"] += 1
            bad.append((_flagged("in/out", got, reading, c, tag), spirit, pos, got))
        else:
            c[f"{tag} pawn WRONG CELL"] += 1
            bad.append((_flagged("wrong", got, reading, c, tag), spirit, pos, got))
    for spirit, got in reading.pawns.items():
        if spirit not in scene.pawns:
            c[f"{tag} pawn PHANTOM"] += 1
            bad.append((_flagged("phantom", got, reading, c, tag), spirit, None, got))
    truth_gems = set(scene.gems) - set(photo.truth.hidden_gems)
    got_gems = set(reading.gems)
    c[f"{tag} gems"] += len(truth_gems)
    c[f"{tag} gem found"] += len(truth_gems & got_gems)
    pawn_cells = {p.cell for p in scene.pawns.values() if not p.outside}
    for cell in truth_gems & pawn_cells:
        c[f"{tag} gems with a pawn"] += 1
        if cell in got_gems:
            c[f"{tag} gem with a pawn found"] += 1
        elif cell in reading.uncertain:
            c[f"{tag} gem with a pawn doubted"] += 1
        else:
            c[f"{tag} gem with a pawn MISSED SILENTLY"] += 1
    for cell in sorted(truth_gems - got_gems):
        kind = "gem missed (uncertain)" if cell in reading.uncertain else "gem missed"
        kind += " beside a pawn" if cell in pawn_cells else ""
        c[f"{tag} {kind}"] += 1
        bad.append((kind, "gem", Position(cell), None))
    for cell in sorted(got_gems - set(scene.gems)):
        c[f"{tag} gem PHANTOM"] += 1
        bad.append(("gem phantom", "gem", None, Position(cell)))
    for n, (kind, what, want, got) in enumerate(bad):
        name = what.value if hasattr(what, "value") else str(what)
        log.append(
            f"{tag} #{sample.index} design {sample.setup.design} {name}: {kind}, truth {want}, "
            f"got {got}"
        )
        if crops is None:
            continue
        marks = []
        if want is not None:
            if hasattr(what, "value") and what in photo.truth.pawns:
                marks.append((photo.truth.pawns[what], (0, 255, 0)))
            elif want.cell in photo.truth.gems:
                marks.append((photo.truth.gems[want.cell], (0, 255, 0)))
        if got is not None:
            b = g.board_to_image(np.array([_where(profile, got)]))[0]
            marks.append(((float(b[0]), float(b[1])), (0, 0, 255)))
        if marks:
            safe = kind.replace(" ", "_").replace("(", "").replace(")", "").replace("/", "")
            _crop(photo, profile, marks, crops / f"{tag}_{sample.index:04d}_{name}_{safe}_{n}.png")


def _span(text: str) -> tuple[int, ...]:
    """ "A-B" (or "A") as the numbers A..B."""
    a, _, b = text.partition("-")
    return tuple(range(int(a), int(b or a) + 1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=192, help="game photos")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--per-setup", type=int, default=6)
    ap.add_argument("--crops", type=Path, default=None, help="write failure crops (PNG) here")
    ap.add_argument("--log", action="store_true", help="print every failure")
    ap.add_argument("--read-only", action="store_true", help="the `read` pass only (faster)")
    ap.add_argument("--gems", action="store_true", help="why each gem was missed (read pass)")
    ap.add_argument(
        "--designs", type=str, default=None, help="decks A-B instead of DEV (never EVAL's)"
    )
    ap.add_argument(
        "--tables",
        type=str,
        default=None,
        help="the referee benchmark's tables A-B (`zefiria demo --table T`) instead of decks",
    )
    args = ap.parse_args()
    designs: tuple[int, ...] = DEV_DESIGNS
    if args.designs is not None and args.tables is not None:
        ap.error("--designs or --tables, not both")
    if args.designs is not None:
        designs = _span(args.designs)
        if set(designs) & set(EVAL_DESIGNS):
            ap.error("the EVAL decks are never read while tuning")
    samples = (
        make_dataset(args.n, args.seed, designs, per_setup=args.per_setup)
        if args.tables is None
        else referee_tables(args.n, args.seed, _span(args.tables), args.per_setup)
    )
    cv2.setNumThreads(1)
    gem_log: list[str] = []
    if args.gems:
        reader.find_gems = GEM_INPUTS  # type: ignore[assignment]
    if args.crops is not None:
        args.crops.mkdir(parents=True, exist_ok=True)
    c: Counter[str] = Counter()
    log: list[str] = []
    objects_ms: list[float] = []
    setup = None
    profile: Profile | None = None
    for sample in samples:
        if sample.setup is not setup:
            setup = sample.setup
            solved, pawns = setup.calibration()
            c["sessions"] += 1
            try:
                profile = calibrate(solved.image, pawns.image)
            except CalibrationError as exc:
                profile = None
                c["sessions refused"] += 1
                log.append(f"session of #{sample.index} refused: {exc}")
        if profile is None:
            continue
        photo = sample.render()
        GEM_INPUTS.args = ()
        reading = read_table(photo.image, profile)
        if "objects" in reading.stages:
            objects_ms.append(reading.stages["objects"])
        score("read", sample, photo, reading, profile, c, log, args.crops)
        if args.gems and reading.ok:
            gem_log += gem_causes(sample, photo, reading, profile, c)
        if args.read_only:
            continue
        if photo.truth.hand_cells:
            c["true skipped (hand)"] += 1
            continue
        with true_islands(sample):
            truth_reading = read_table(photo.image, profile)
        score("true", sample, photo, truth_reading, profile, c, log, args.crops)
    if args.log:
        print("\n".join(log))
    if gem_log:
        print("\n".join(gem_log))
    which = "DEV designs" if args.designs is None else f"designs {args.designs}"
    if args.tables is not None:
        which = f"referee tables {args.tables} (deck {DEMO_DESIGN})"
    print(f"{which}, --n {args.n} --seed {args.seed} --per-setup {args.per_setup}")
    for key in sorted(c):
        print(f"  {key}: {c[key]}")
    for tag in ("read", "true"):
        p, g = c[f"{tag} pawns"], c[f"{tag} gems"]
        if p:
            print(
                f"{tag}: pawns right {100 * c[f'{tag} pawn right'] / p:.1f}% "
                f"({c[f'{tag} pawn right']}/{p}), wrong {c[f'{tag} pawn WRONG CELL']}, "
                f"in/out {c[f'{tag} pawn OUTSIDE/INSIDE confusion']}, "
                f"phantom {c[f'{tag} pawn PHANTOM']} (of these three, "
                f"{c[f'{tag} pawn misplaced, cell NOT uncertain']} on a cell not uncertain)"
            )
        if p:
            silent = sum(
                v
                for k, v in c.items()
                if k.startswith(f"{tag} pawn missed")
                and "uncertain" not in k
                and "why" not in k
                and "second look" not in k
            )
            per = c[f"{tag} uncertain cells"] / max(c[f"{tag} photos"], 1)
            print(f"{tag}: pawns missed silently {silent}, uncertain cells per photo {per:.2f}")
        wp = c[f"{tag} gems with a pawn"]
        if wp:
            print(
                f"{tag}: gems on a card with a pawn {wp}: found "
                f"{c[f'{tag} gem with a pawn found']}, doubted "
                f"{c[f'{tag} gem with a pawn doubted']}, missed silently "
                f"{c[f'{tag} gem with a pawn MISSED SILENTLY']}"
            )
        if g:
            print(
                f"{tag}: gems found {100 * c[f'{tag} gem found'] / g:.1f}% "
                f"({c[f'{tag} gem found']}/{g}), phantom {c[f'{tag} gem PHANTOM']}"
            )
    if objects_ms:
        print(
            f"objects stage (read): median {statistics.median(objects_ms):.1f} ms, "
            f"p95 {float(np.percentile(objects_ms, 95)):.1f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
