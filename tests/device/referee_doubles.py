"""TEST DOUBLES for the referee tests: a fast block renderer and a reader that knows the truth.

The real renderer and the real vision code are exercised by ``zefiria demo`` and the
benchmark; these doubles let the tests play whole games in seconds. The reader reports the
table exactly as the virtual table holds it, and a hand over the cards as unreadable, as the
reading contract says.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from zefiria.device.controls.events import EventQueue
from zefiria.device.controls.lights import NoLights
from zefiria.device.display.screens import Screen
from zefiria.device.referee.history import History
from zefiria.device.referee.journal import Journal
from zefiria.device.referee.loop import Referee, Setup
from zefiria.device.referee.session import Session
from zefiria.device.referee.simulation import Simulation
from zefiria.device.referee.virtual_players import VirtualTable
from zefiria.engine.grid import SIZE
from zefiria.engine.spirits import Spirit
from zefiria.vision.synthetic.scene import Scene

CELL = 16


def block_render(scene: Scene) -> np.ndarray:
    """Each card a flat colour from its number, pawns and gems as dots, a hand as a dark bar."""
    img = np.zeros((SIZE * CELL + 2 * CELL, SIZE * CELL + 2 * CELL, 3), np.uint8)
    for i, island in enumerate(scene.grid):
        r, c = divmod(i, SIZE)
        y, x = (r + 1) * CELL, (c + 1) * CELL
        img[y + 1 : y + CELL - 1, x + 1 : x + CELL - 1] = (island * 9, 255 - island * 9, 120)
    for n, (spirit, pos) in enumerate(sorted(scene.pawns.items(), key=lambda kv: kv[0].value)):
        r, c = pos.cell
        y, x = (r + 1) * CELL + 4, (c + 1) * CELL + 4
        if pos.outside:  # beside the nearest edge
            y = 0 if r == 0 else y if 0 < r < SIZE - 1 else (SIZE + 1) * CELL
            x = 0 if c == 0 and r not in (0, SIZE - 1) else x
        img[y : y + 5, x : x + 5] = (255, 255, 40 * n)
        del spirit
    for r, c in scene.gems:
        y, x = (r + 1) * CELL + 10, (c + 1) * CELL + 10
        img[y : y + 4, x : x + 4] = (0, 0, 255)
    if scene.hand is not None:
        tr, tc = scene.hand.tip
        y, x = int((tr + 1) * CELL), int((tc + 1) * CELL)
        img[max(y, 0) :, max(x - 6, 0) : max(x + 10, 0)] = (30, 40, 60)
    return img


class TruthReader:
    """Reads the virtual table's truth (the scene last photographed)."""

    def __init__(self, table: VirtualTable) -> None:
        self.table = table

    def __call__(self, image: Any) -> dict[str, Any]:
        scene = self.table.scene()
        if scene.hand is not None:
            return {"status": "unreadable", "reason": "hand over the cards", "ms": 0.0}
        return {
            "status": "ok",
            "grid": [list(scene.grid[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)],
            "pawns": {
                s.value: {"outside" if p.outside else "cell": list(p.cell)}
                for s, p in scene.pawns.items()
            },
            "gems": [list(c) for c in sorted(scene.gems)],
            "uncertain": [],
            "ms": 0.0,
        }


class TableCamera:
    """The virtual table seen through a camera: a still and a preview are the same photo."""

    def __init__(self, table: VirtualTable) -> None:
        self.table = table

    def capture_still(self) -> np.ndarray:
        return self.table.photo()

    def grab_preview(self) -> np.ndarray:
        return self.table.photo()


def simulated(
    tmp: Path,
    setup: Setup,
    seed: int,
    cheat_rate: float = 0.15,
    referee: Referee | None = None,
) -> tuple[Simulation, list[Screen], list[str]]:
    """A simulation wired with the doubles; the journal and history live in ``tmp``."""
    table = VirtualTable(block_render)
    controls = EventQueue()
    screens: list[Screen] = []
    log: list[str] = []
    if referee is None:
        referee = Referee(setup, Journal.open(tmp / "journal.jsonl"), History(tmp / "h.sqlite"))
    session = Session(
        referee,
        TableCamera(table),
        TruthReader(table),
        controls,
        NoLights(),
        screens.append,
        log.append,
    )
    sim = Simulation(session, table, controls, seed=seed, cheat_rate=cheat_rate, log=log.append)
    return sim, screens, log


SPIRITS = (Spirit.BOREA, Spirit.JUGO, Spirit.ETESIA, Spirit.SKYRON, Spirit.AUSTRO)


class BlindSpotReader(TruthReader):
    """The truth with ``blind`` random cards left unread in every photo, as vision abstains."""

    def __init__(self, table: VirtualTable, blind: int, seed: int = 1) -> None:
        super().__init__(table)
        self.blind = blind
        self.rng = np.random.default_rng(seed)

    def __call__(self, image: Any) -> dict[str, Any]:
        reading = super().__call__(image)
        if reading["status"] == "ok":
            for i in self.rng.choice(SIZE * SIZE, self.blind, replace=False):
                reading["grid"][i // SIZE][i % SIZE] = None
        return reading
