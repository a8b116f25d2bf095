"""Run (or resume) one simulated game in this process; the power-cut test SIGKILLs it.

Usage: python power_cut_child.py FOLDER SEED

The journal and the history live in FOLDER. When the game is over, the final state is written
to FOLDER/final.json. The physical table survives a power cut but not this process, so on
resume the players lay the table out as the device says it is (the move they were making
when the power went is made again: the players decide from the game's position, not from
the time).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from zefiria.device.referee.history import History
from zefiria.device.referee.loop import Setup, open_referee
from zefiria.engine.records import dumps_state, loads_record
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Mode

from tests.device.referee_doubles import simulated

SETUP = Setup(3, Mode.STORM, (Spirit.SKYRON, Spirit.AUSTRO, Spirit.ETESIA), seed=5)


def main(folder: Path, seed: int) -> int:
    history = History(folder / "h.sqlite")
    final = folder / "final.json"
    saved = history.games()
    if saved:  # the game ended and was saved before the power went
        state = loads_record(saved[0].record).final
        assert state is not None
        _write_final(final, dumps_state(state))
        return 0
    referee, note = open_referee(folder / "journal.jsonl", history, SETUP)
    assert referee is not None
    print(note, flush=True)
    sim, _, _ = simulated(folder, SETUP, seed=seed, referee=referee)
    if referee.started:
        sim.table.grid = list(referee.state.grid)
        sim.table.pawns = {
            s: p for s, p in zip(referee.state.spirits, referee.state.pawns, strict=True) if p
        }
        sim.table.gems = set(referee.state.anchored)
    sim.play()
    _write_final(final, dumps_state(referee.state))
    return 0


def _write_final(final: Path, text: str) -> None:
    """The result, whole or not at all: a kill while it is written (the test's last cut can
    land there) must leave no empty final.json for the test to compare."""
    part = final.with_suffix(".part")
    part.write_text(text)
    os.replace(part, final)


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), int(sys.argv[2])))
