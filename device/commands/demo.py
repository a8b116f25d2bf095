"""zefiria demo: a whole simulated game, no hardware: virtual table, real vision, referee, OLED."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = (
    "play a whole simulated game: virtual players at a virtual table, read by the real "
    "vision code and judged by the referee; OLED frames saved as PNG and GIF"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players",
        type=int,
        choices=(1, 2, 3, 4),
        default=2,
        help="number of players, 1 = solo (default 2)",
    )
    parser.add_argument(
        "--mode", choices=("standard", "storm"), default="storm", help="game mode (default storm)"
    )
    parser.add_argument(
        "--difficulty",
        choices=("easy", "medium", "hard"),
        default="hard",
        help="solo difficulty (default hard: the shortest solo game)",
    )
    parser.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    parser.add_argument(
        "--table",
        type=int,
        default=1,
        help="which virtual table: light, camera angle, card layout (default 1)",
    )
    parser.add_argument(
        "--lang",
        choices=("en", "it"),
        default="en",
        help="language of the screens and the rating (default en)",
    )
    parser.add_argument(
        "--fast", action="store_true", help="quicker: fewer photos per move and a shallower planner"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("demo-out"),
        help="folder for OLED frames, GIF, photos, journal (default ./demo-out)",
    )


def run(args: argparse.Namespace) -> int:
    from zefiria.device.referee.demo import DemoOptions, run_demo
    from zefiria.engine.state import Difficulty, Mode
    from zefiria.vision.calibrate import CalibrationError

    options = DemoOptions(
        players=args.players,
        mode=Mode(args.mode),
        seed=args.seed,
        lang=args.lang,
        fast=args.fast,
        out=args.out,
        difficulty=Difficulty(args.difficulty),
        table=args.table,
    )
    try:
        report = run_demo(options)
    except CalibrationError as exc:
        print(f"zefiria demo: calibration failed: {exc}", file=sys.stderr)
        return 1
    t = report.tally
    times = sorted(s for _, s in report.verdict_seconds)
    print()
    if report.stopped:
        print(f"The game stopped {report.stopped}")
    else:
        print(f"Final score: {report.score} VP")
        print(f"Rating: {report.rating}")
    print(
        f"Referee: {t.accepted}/{t.legal} legal moves accepted, "
        f"{t.refused}/{t.illegal} illegal moves refused, {len(t.wrong)} wrong verdicts"
        + (
            f", {t.withdrawn} moves taken back (a pawn or cards the camera could not see)"
            if t.withdrawn
            else ""
        )
    )
    if times:
        median = times[len(times) // 2]
        print(f"Table still -> verdict: median {median:.2f} s, worst {times[-1]:.2f} s")
    print(f"OLED frames: {args.out / 'oled'}/*.png and {args.out / 'oled.gif'}")
    print(f"Done in {report.seconds:.0f} s ({args.out / 'summary.json'})")
    for line in t.wrong:
        print(f"WRONG: {line}", file=sys.stderr)
    if report.stopped:
        print(f"zefiria demo: the game stopped {report.stopped}", file=sys.stderr)
        return 1
    return 0 if t.correct else 2
