"""A red gem under a pawn: the camera cannot tell it taken from hidden, so the players say.

A Fly onto an anchored card whose gem the pawn now hides looks exactly like "retrieve the
gem, then fly there" (legal, 2 AP). The referee must not accept it on the camera's word.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from zefiria.device.referee.loop import Setup
from zefiria.device.referee.virtual_players import VirtualTable
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Mode

from .referee_doubles import TruthReader, simulated


class GemUnderPawnReader(TruthReader):
    """The truth, except that a gem on a card a pawn stands on is never seen."""

    def __init__(self, table: VirtualTable) -> None:
        super().__init__(table)
        self.hid = 0

    def __call__(self, image: Any) -> dict[str, Any]:
        reading = super().__call__(image)
        if reading["status"] != "ok":
            return reading
        under = [p["cell"] for p in reading["pawns"].values() if "cell" in p]
        kept = [g for g in reading["gems"] if g not in under]
        self.hid += len(reading["gems"]) - len(kept)
        reading["gems"] = kept
        return reading


@pytest.mark.parametrize("seed", [3, 9])
def test_a_fly_onto_an_anchored_card_hiding_its_gem_is_refused(tmp_path: Path, seed: int) -> None:
    setup = Setup(2, Mode.STORM, (Spirit.BOREA, Spirit.JUGO), seed=seed)
    sim, _, log = simulated(tmp_path, setup, seed=seed, cheat_rate=0.5)
    reader = GemUnderPawnReader(sim.table)
    sim.session.reader = reader
    tally = sim.play()
    anchored_flies = [line for line in log if "onto an anchored card" in line]
    assert anchored_flies, "the seed must try a Fly onto an anchored card"
    assert reader.hid > 0 and tally.gems_asked > 0
    assert tally.wrong == [], tally.wrong
    assert tally.refused == tally.illegal and tally.accepted == tally.legal
