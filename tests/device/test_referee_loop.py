"""Whole games at a virtual table: every legal move accepted, every illegal one refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from zefiria.device.referee.history import History
from zefiria.device.referee.loop import Setup
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Difficulty, Mode, Phase

from .referee_doubles import simulated

GAMES = [
    Setup(2, Mode.STANDARD, (Spirit.BOREA, Spirit.ETESIA), seed=11),
    Setup(3, Mode.STORM, (Spirit.SKYRON, Spirit.AUSTRO, Spirit.JUGO), seed=12),
    Setup(1, Mode.STORM, (Spirit.AUSTRO, Spirit.ETESIA, Spirit.BOREA), Difficulty.HARD, seed=13),
]


@pytest.mark.parametrize("setup", GAMES, ids=["2p-standard", "3p-storm", "solo-storm"])
def test_a_whole_game_is_judged_right(tmp_path: Path, setup: Setup) -> None:
    sim, screens, log = simulated(tmp_path, setup, seed=setup.seed)
    tally = sim.play()
    assert tally.wrong == [], "\n".join(log[-30:])
    assert tally.correct and tally.illegal > 0 and tally.legal > 10
    referee = sim.referee
    assert referee.state.phase is Phase.OVER and referee.saved
    games = History(tmp_path / "h.sqlite").games()
    assert len(games) == 1 and games[0].players == setup.players
    assert screens, "the OLED showed nothing"
