"""The session tells its reader when the photo just read shows the game's own table.

A reader that remembers a photo as the game's table reads later cards by it, so being told
at the wrong moment (a refused move still on the table, a storm not yet done) would make it
read cards as islands they are not. Whole games at the virtual table check the moment.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from zefiria.device.referee.loop import Setup
from zefiria.device.referee.table_reader import TableReader
from zefiria.device.referee.virtual_players import VirtualTable
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import GameState, Mode

from .referee_doubles import TruthReader, simulated


class RecordingReader(TruthReader):
    """The truth, and each ``remember``: was the game's table the one photographed?"""

    def __init__(self, table: VirtualTable) -> None:
        super().__init__(table)
        self.told: list[bool] = []

    def __call__(self, image: Any) -> dict[str, Any]:
        self.last = self.table.scene()
        return super().__call__(image)

    def remember(self, state: GameState) -> None:
        self.told.append(
            self.last.grid == state.grid and set(self.last.gems) == set(state.anchored)
        )


@pytest.mark.parametrize("seed", [3, 5])
def test_the_reader_is_told_only_of_tables_that_match_the_game(tmp_path: Path, seed: int) -> None:
    setup = Setup(3, Mode.STORM, (Spirit.SKYRON, Spirit.AUSTRO, Spirit.JUGO), seed=12)
    sim, _, log = simulated(tmp_path, setup, seed=seed, cheat_rate=0.3)
    reader = RecordingReader(sim.table)
    sim.session.reader = reader
    tally = sim.play()
    assert tally.wrong == [], "\n".join(log[-20:])
    assert tally.illegal > 0  # refused moves were on the table, and were not remembered
    assert len(reader.told) > tally.legal  # the layout, every move, every put-back
    assert all(reader.told), reader.told.index(False)


def test_a_reader_without_a_profile_says_the_camera_is_not_calibrated() -> None:
    reader = TableReader(None)
    reading = reader(None)
    assert reading == {"status": "unreadable", "reason": "the camera is not calibrated"}
    reader.remember(GameState.__new__(GameState))  # nothing read yet: nothing to keep
