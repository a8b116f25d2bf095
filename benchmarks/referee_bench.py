"""Referee benchmark: verdicts, time from "table still" to verdict, memory over 1,000 readings.

    .venv/bin/python benchmarks/referee_bench.py            # writes benchmarks/results/referee.md
    .venv/bin/python benchmarks/referee_bench.py --quick    # fewer games, prints only
    .venv/bin/python benchmarks/referee_bench.py --misreads # part 1 only, checked, prints only

1. End to end with the real vision code: ``zefiria demo`` games (renderer -> simulated camera
   -> zefiria.vision read_table -> referee). Every legal move must be accepted, every
   illegal one refused, with zero wrong verdicts; a game the camera cannot get through is
   reported with the reason.
2. The referee alone, with a reader that knows the truth but leaves k random cards unread
   in every photo (tests/device/referee_doubles.py): verdicts and time per verdict.
3. Memory: games back to back until 1,000 readings, tracemalloc and RSS sampled every 100.

``--misreads`` runs part 1 alone and prints every reading that places a pawn where the
virtual table it photographed has none of it (on another cell, or a phantom): a wrong
verdict needs such a reading, but such a reading makes one only on some paths of a game,
and the path changes with any reading (see docs/vision.md, "Measuring and tuning").
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import platform
import shutil
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from zefiria.device.referee.demo import DEMO_TABLE, DemoOptions, run_demo  # noqa: E402
from zefiria.device.referee.loop import Setup  # noqa: E402
from zefiria.device.referee.simulation import SimulationError  # noqa: E402
from zefiria.engine.spirits import Spirit  # noqa: E402
from zefiria.engine.state import Difficulty, Mode  # noqa: E402

from tests.device.referee_doubles import BlindSpotReader, simulated  # noqa: E402

DEMOS = [
    DemoOptions(players=2, mode=Mode.STORM, seed=1, fast=True),
    DemoOptions(players=1, mode=Mode.STORM, seed=2, fast=True, difficulty=Difficulty.HARD),
    DemoOptions(players=3, mode=Mode.STANDARD, seed=3, fast=True),
    # the other 2-player demos of `zefiria demo --fast --seed N`
    *(DemoOptions(players=2, mode=Mode.STORM, seed=n, fast=True) for n in range(2, 7)),
    # other tables (light, camera pose, card layout: `zefiria demo --table N`), one game each
    # on table sessions 11-18, whatever happens there: 1-4 players in turn, storm and standard
    *(
        DemoOptions(
            players=1 + (t - 11) % 4,
            mode=Mode.STORM if t % 2 else Mode.STANDARD,
            seed=t,
            table=t,
            fast=True,
        )
        for t in range(11, 19)
    ),
]
GAMES = [
    Setup(2, Mode.STANDARD, (Spirit.BOREA, Spirit.ETESIA), seed=11),
    Setup(3, Mode.STORM, (Spirit.SKYRON, Spirit.AUSTRO, Spirit.JUGO), seed=12),
    Setup(1, Mode.STORM, (Spirit.AUSTRO, Spirit.ETESIA, Spirit.BOREA), Difficulty.HARD, seed=13),
    Setup(4, Mode.STORM, (Spirit.JUGO, Spirit.BOREA, Spirit.AUSTRO, Spirit.SKYRON), seed=14),
]


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _times(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{statistics.median(values) * 1000:.0f} ms / {max(values) * 1000:.0f} ms"


@contextlib.contextmanager
def pawn_misreads(label: str) -> Iterator[list[str]]:
    """Each reading made inside that places a pawn off the virtual table's place for it,
    as a line (also printed): the reader and the table's camera wrapped meanwhile."""
    from zefiria.device.referee.virtual_players import VirtualTable
    from zefiria.engine.notation import format_cell
    from zefiria.vision import reader

    read, photo = reader.read_table, VirtualTable.photo
    shown: list[Any] = [None]  # the scene of the last photo taken
    lines: list[str] = []
    count = 0

    def photographed(table: VirtualTable) -> Any:
        image = photo(table)
        shown[0] = table.scene()
        return image

    def where(pos: Any) -> str:
        if pos is None:
            return "nowhere"
        return ("beside " if pos.outside else "on ") + format_cell(pos.cell)

    def checked(image: Any, profile: Any) -> Any:
        nonlocal count
        reading = read(image, profile)
        count += 1
        scene = shown[0]
        for spirit, pos in reading.pawns.items() if scene is not None else ():
            truth = scene.pawns.get(spirit)
            if truth != pos:
                doubt = (
                    " (cell uncertain)" if not pos.outside and pos.cell in reading.uncertain else ""
                )
                lines.append(
                    f"{label}: reading {count}: {spirit.title} read {where(pos)}{doubt}, "
                    f"stands {where(truth)}"
                )
                print(lines[-1], flush=True)
        return reading

    reader.read_table = checked  # type: ignore[assignment]
    VirtualTable.photo = photographed  # type: ignore[method-assign]
    try:
        yield lines
    finally:
        reader.read_table = read  # type: ignore[assignment]
        VirtualTable.photo = photo  # type: ignore[method-assign]


def end_to_end(quick: bool, misreads: bool = False) -> list[dict[str, Any]]:
    rows = []
    for options in DEMOS[:1] if quick else DEMOS:
        # (each game's folder removed after: a run left 28 of them, ~80 MB, in /tmp)
        with tempfile.TemporaryDirectory(prefix="referee-bench-") as folder:
            rows.append(_demo_row(options, Path(folder), misreads))
    return rows


def _demo_row(options: DemoOptions, out: Path, misreads: bool) -> dict[str, Any]:
    """One demo game played into ``out``: its summary row (or why it stopped)."""
    label = f"{options.players}p {options.mode.value} seed {options.seed}"
    if options.table != DEMO_TABLE:
        label += f" table {options.table}"
    started = time.perf_counter()
    checking = pawn_misreads(label) if misreads else contextlib.nullcontext([])
    try:
        with checking as wrong:
            report = run_demo(DemoOptions(**{**vars(options), "out": out}), log=lambda _: None)
    except (SimulationError, ValueError) as exc:
        print(f"{label}: stopped: {exc}", flush=True)
        return {"game": label, "error": str(exc), "seconds": time.perf_counter() - started}
    row = {"game": label, **report.summary()}
    row["times"] = [s for _, s in report.verdict_seconds]
    if misreads:
        row["pawn_misreads"] = len(wrong)
    print(f"{label}: {json.dumps(report.summary())}", flush=True)
    return row


def referee_alone(quick: bool) -> list[dict[str, Any]]:
    rows = []
    for blind in (0, 4, 8):
        for setup in GAMES[:2] if quick else GAMES:
            with tempfile.TemporaryDirectory(prefix="referee-bench-") as folder:
                sim, _, _ = simulated(Path(folder), setup, seed=setup.seed)
                if blind:
                    sim.session.reader = BlindSpotReader(sim.table, blind)
                started = time.perf_counter()
                tally = sim.play()
            times = [s for _, s in sim.session.timing.verdicts]
            rows.append(
                {
                    "game": f"{setup.players}p {setup.mode.value}",
                    "blind": blind,
                    "legal": tally.legal,
                    "accepted": tally.accepted,
                    "illegal": tally.illegal,
                    "refused": tally.refused,
                    "wrong": len(tally.wrong),
                    "rereads": tally.rereads,
                    "times": times,
                    "seconds": time.perf_counter() - started,
                }
            )
            print(
                f"blind {blind} {rows[-1]['game']}: {tally.legal} legal, "
                f"{tally.illegal} illegal, {len(tally.wrong)} wrong",
                flush=True,
            )
    return rows


def memory(readings: int) -> list[tuple[int, float, float]]:
    """(readings so far, tracemalloc MiB, RSS MiB) every 100 readings, games back to back."""
    samples: list[tuple[int, float, float]] = []
    games: list[Path] = []  # each game's folder, removed at the end
    tracemalloc.start()
    done = 0
    game = 0
    next_sample = 0
    while done < readings:
        setup = GAMES[game % len(GAMES)]
        folder = Path(tempfile.mkdtemp(prefix="referee-mem-"))
        sim, _, _ = simulated(folder, setup, seed=setup.seed + 100 * game)
        games.append(folder)
        sim.session.reader = BlindSpotReader(sim.table, 4, seed=game)
        session = sim.session
        original = session.read_now

        def counted(original: Any = original) -> Any:
            nonlocal done, next_sample
            outcome = original()
            done += 1
            if done >= next_sample:
                gc.collect()
                current, _ = tracemalloc.get_traced_memory()
                samples.append((done, current / 2**20, rss_mb()))
                next_sample += 100
            return outcome

        session.read_now = counted  # type: ignore[method-assign]
        sim.play()
        game += 1
    tracemalloc.stop()
    for folder in games:  # (after the last sample: the measure is as it was)
        shutil.rmtree(folder, ignore_errors=True)
    return samples


def write(
    path: Path,
    e2e: list[dict[str, Any]],
    alone: list[dict[str, Any]],
    mem: list[tuple[int, float, float]],
) -> None:
    lines = [
        "# Referee benchmark",
        "",
        f"`{' '.join(['.venv/bin/python', 'benchmarks/referee_bench.py'])}` on "
        f"{platform.machine()} {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.",
        "",
        'Time from "table still" to verdict = still capture + reading + judging (median / '
        "worst, per verdict).",
        "",
        "## 1. End to end: renderer -> simulated camera -> real vision -> referee",
        "",
        "Each game is `zefiria demo --fast` with the options shown.",
        "",
        'Players help the camera when it asks: *vouched* counts the "is the pawn on its card?" '
        "questions answered OK (the camera missed a pawn that was there), *cards* the \"can't "
        'read these cards: OK, they did not move" answers, *gems asked* the '
        '"red gem taken?" questions (a pawn stands where a gem went), *picked* the setup lists '
        'answered ("card b2: which island?", "which corner?"), *re-reads* the still '
        "tables it could not read until a player straightened something. *Remembered*: cards "
        "the reading left in doubt that looked exactly as in the last photo of a table the "
        "game knew (vision/table_memory.py), so read as the island the game had there; "
        "pawns the reading missed whose card, pawn and all, looked exactly as there, so "
        "placed where the game had them (cards / pawns).",
        "",
        "| game | legal moves accepted | illegal moves refused | wrong verdicts | "
        "still -> verdict | photos | vouched / cards / gems asked / picked / re-reads | "
        "remembered | time | result |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in e2e:
        if "error" in r:
            lines.append(
                f"| {r['game']} | - | - | - | - | - | - | - | {r['seconds']:.0f} s | "
                f"stopped: {r['error']} |"
            )
            continue
        lines.append(
            f"| {r['game']} | {r['accepted']}/{r['legal_moves']} | "
            f"{r['refused']}/{r['illegal_moves']} | {len(r['wrong_verdicts'])} | "
            f"{_times(r['times'])} | {r['photos']} | "
            f"{r['pawns_vouched']} / {r['cards_vouched']} / {r['gems_asked']} / "
            f"{r['picked_from_lists']} / {r['rereads']} | "
            f"{r['cards_remembered']} / {r['pawns_remembered']} | "
            f"{r['seconds']:.0f} s | "
            + (f"stopped: {r['stopped']} |" if r.get("stopped") else f"{r['score']} VP |")
        )
    lines += [
        "",
        "## 2. The referee alone: truth reader with k cards left unread in every photo",
        "",
        "| game | unread per photo | legal accepted | illegal refused | wrong | re-reads "
        "| still -> verdict |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in alone:
        lines.append(
            f"| {r['game']} | {r['blind']} | {r['accepted']}/{r['legal']} | "
            f"{r['refused']}/{r['illegal']} | {r['wrong']} | {r['rereads']} | "
            f"{_times(r['times'])} |"
        )
    lines += [
        "",
        "## 3. Memory over a long session (games back to back, 4 unread cards per photo)",
        "",
        "| readings | tracemalloc (MiB) | RSS (MiB) |",
        "|---|---|---|",
    ]
    lines += [f"| {n} | {t:.2f} | {r:.1f} |" for n, t, r in mem]
    lines += [
        "",
        "tracemalloc counts the Python objects alive at each sample, the game in progress",
        "included; RSS is the whole process (numpy, OpenCV and the renderer's caches too).",
    ]
    path.write_text("\n".join(lines) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games; nothing written")
    parser.add_argument("--readings", type=int, default=1000)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/referee.md")
    parser.add_argument("--skip-vision", action="store_true", help="leave out part 1")
    parser.add_argument(
        "--misreads",
        action="store_true",
        help="part 1 alone, printing each reading that places a pawn wrong; nothing written",
    )
    args = parser.parse_args()
    if args.misreads:
        for row in end_to_end(args.quick, misreads=True):
            verdicts = len(row.get("wrong_verdicts", []))
            print(
                f"{row['game']}: {row.get('pawn_misreads', '-')} readings with a pawn "
                f"placed wrong, {verdicts} wrong verdicts"
            )
        return 0
    e2e = [] if args.skip_vision else end_to_end(args.quick)
    alone = referee_alone(args.quick)
    mem = memory(200 if args.quick else args.readings)
    for n, t, r in mem:
        print(f"memory after {n} readings: tracemalloc {t:.2f} MiB, RSS {r:.1f} MiB")
    if not args.quick:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        write(args.out, e2e, alone, mem)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
