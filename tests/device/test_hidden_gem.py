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


class FringeReader(TruthReader):
    """The truth, plus a gem seen under the pawn that moved last, for as long as it stays."""

    def __init__(self, table: VirtualTable) -> None:
        super().__init__(table)
        self.last: dict[str, Any] = {}
        self.fringe: list[int] | None = None
        self.phantom_photos = 0

    def __call__(self, image: Any) -> dict[str, Any]:
        reading = super().__call__(image)
        if reading["status"] != "ok":
            return reading
        pawns = reading["pawns"]
        moved = [p["cell"] for s, p in pawns.items() if self.last.get(s) != p and "cell" in p]
        self.last = dict(pawns)
        if moved:
            self.fringe = moved[0]
        if self.fringe in [p.get("cell") for p in pawns.values()] and (
            self.fringe not in reading["gems"]
        ):
            self.phantom_photos += 1
            reading["gems"] = [*reading["gems"], self.fringe]
        return reading


def test_a_gem_seen_only_under_a_pawn_that_just_landed_is_asked_about(tmp_path: Path) -> None:
    setup = Setup(2, Mode.STORM, (Spirit.BOREA, Spirit.JUGO), seed=5)
    sim, _, _ = simulated(tmp_path, setup, seed=5, cheat_rate=0.15)
    reader = FringeReader(sim.table)
    sim.session.reader = reader
    tally = sim.play()
    assert reader.phantom_photos > 0 and tally.gems_asked > 0
    assert tally.wrong == [], tally.wrong
    assert tally.refused == tally.illegal and tally.accepted == tally.legal
