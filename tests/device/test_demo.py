"""The demo's wiring: the real renderer and display, a test-double reader for speed.

The real vision code is what ``zefiria demo`` and ``benchmarks/referee_bench.py`` run; here
the reader is the virtual table's truth (see referee_doubles) so the test takes seconds.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from zefiria.device.cli import build_parser
from zefiria.device.referee.demo import DemoOptions, run_demo
from zefiria.device.referee.history import History
from zefiria.engine.state import Difficulty, Mode

from .referee_doubles import TruthReader


@pytest.mark.slow
def test_a_solo_demo_game_runs_to_the_score_with_frames_and_gif(tmp_path: Path) -> None:
    out = tmp_path / "demo-out"
    lines: list[str] = []
    options = DemoOptions(
        players=1,
        mode=Mode.STORM,
        seed=3,
        fast=True,
        out=out,
        difficulty=Difficulty.HARD,
        photo_size=(410, 308),
    )
    report = run_demo(options, log=lines.append, reader_for=TruthReader)
    assert report.tally.correct and report.tally.wrong == []
    assert report.tally.illegal > 0 and report.tally.legal > 10
    assert len(list((out / "oled").glob("frame_*.png"))) > 20
    assert (out / "oled.gif").stat().st_size > 1000
    summary = json.loads((out / "summary.json").read_text())
    assert summary["refused"] == summary["illegal_moves"] and summary["score"] == report.score
    assert len(History(out / "history.sqlite").games()) == 1
    assert any("refused" in line for line in lines)


def test_the_cli_offers_demo_with_its_options() -> None:
    args = build_parser().parse_args(
        ["demo", "--players", "3", "--mode", "standard", "--seed", "9", "--lang", "it", "--fast"]
    )
    assert (args.players, args.mode, args.seed, args.lang, args.fast) == (
        3,
        "standard",
        9,
        "it",
        True,
    )
    assert args.out == Path("demo-out")


def test_no_illegal_fly_onto_the_card_the_pawn_stands_on() -> None:
    """A storm may anchor the card under the active pawn; "flying" there moves nothing, so
    the virtual players must not count it as an illegal move the referee should refuse."""
    import random

    from zefiria.device.referee.virtual_players import illegal_move
    from zefiria.engine.spirits import Spirit
    from zefiria.engine.state import Mode

    from tests.engine.builders import turn_state

    pawns = {Spirit.BOREA: (2, 2), Spirit.JUGO: (0, 0)}
    under = turn_state(pawns, Spirit.BOREA, mode=Mode.STORM, anchored=[(2, 2)])
    beside = turn_state(pawns, Spirit.BOREA, mode=Mode.STORM, anchored=[(2, 3)])
    note = "a Fly onto an anchored card"
    notes_under = {getattr(illegal_move(under, random.Random(k)), "note", None) for k in range(300)}
    notes_beside = {
        getattr(illegal_move(beside, random.Random(k)), "note", None) for k in range(300)
    }
    assert note not in notes_under
    assert note in notes_beside
