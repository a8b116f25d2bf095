"""``zefiria demo``: a whole game at a virtual table, judged through the real vision code.

1. The synthetic renderer photographs the calibration layouts of a virtual table session;
   the real calibration learns the deck from them (as a user does with their own cards).
2. Virtual players lay out a shuffled grid, place their pawns and play: the renderer draws
   the table (with a hand over it while someone acts), the simulated camera photographs it,
   :func:`zefiria.vision.reader.read_table` reads it and the referee judges it with the
   engine. Now and then a player tries an illegal move, which must be refused and put back.
3. Every OLED screen goes to PNG frames and a GIF; the terminal gets a short live log; the
   final score and rating, and how every move was judged, end the run.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray
from zefiria.engine.actions import Action
from zefiria.engine.errors import ZefiriaError
from zefiria.engine.scoring import rating, score
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Difficulty, GameState, Mode

from .history import History
from .journal import Journal
from .loop import Referee, Setup
from .session import Session
from .simulation import Simulation, SimulationError, Tally
from .virtual_players import VirtualTable
from .watcher import StillnessWatcher, WatchSettings

if TYPE_CHECKING:  # the renderer pulls in OpenCV: imported only when a demo runs
    from zefiria.vision.synthetic.dataset import Setup as TableSession
    from zefiria.vision.synthetic.scene import Scene

Image = NDArray[np.uint8]

# The deck design and table session the demo photographs (zefiria.vision.synthetic.dataset);
# --table picks another session of the same design, the benchmark also runs others.
DEMO_DESIGN = 1
DEMO_TABLE = 1
# Photos after which a demo game stops, whatever the vision does (a whole game takes
# 400-700 with --fast): the demo ends with its tally instead of hanging.
MAX_PHOTOS = 4000


@dataclass(frozen=True)
class DemoOptions:
    players: int = 2
    mode: Mode = Mode.STORM
    seed: int = 1
    lang: str = "en"
    fast: bool = False
    out: Path = Path("demo-out")
    difficulty: Difficulty = Difficulty.MEDIUM
    cheat_rate: float = 0.12
    photo_size: tuple[int, int] | None = None  # None: the renderer's camera resolution
    table: int = DEMO_TABLE  # the table session: light, camera pose, card layout
    design: int = DEMO_DESIGN  # the deck's look


@dataclass
class DemoReport:
    setup: Setup
    tally: Tally
    score: int
    rating: str
    seconds: float
    verdict_seconds: list[tuple[str, float]] = field(default_factory=list)
    reading_ms: list[float] = field(default_factory=list)
    frames: int = 0
    stopped: str = ""  # why the game ended before its end (empty: it was played out)
    remembered: int = 0  # cards in doubt read by a photo of the table the game knew
    pawns_remembered: int = 0  # pawns missed, found on their card as the game knew it

    def summary(self) -> dict[str, Any]:
        times = [s for _, s in self.verdict_seconds]
        return {
            "players": self.setup.players,
            "mode": self.setup.mode.value,
            "spirits": [s.value for s in self.setup.spirits],
            "seed": self.setup.seed,
            "score": self.score,
            "rating": self.rating,
            "legal_moves": self.tally.legal,
            "accepted": self.tally.accepted,
            "illegal_moves": self.tally.illegal,
            "refused": self.tally.refused,
            "wrong_verdicts": self.tally.wrong,
            "instructions_carried_out": self.tally.instructions,
            "rereads": self.tally.rereads,
            "pawns_vouched": self.tally.vouched,
            "gems_asked": self.tally.gems_asked,
            "cards_vouched": self.tally.cards_vouched,
            "picked_from_lists": self.tally.picked,
            "cards_remembered": self.remembered,
            "pawns_remembered": self.pawns_remembered,
            "moves_withdrawn": self.tally.withdrawn,
            "stopped": self.stopped or None,
            "verdicts": len(times),
            "still_to_verdict_median_s": round(statistics.median(times), 3) if times else None,
            "still_to_verdict_worst_s": round(max(times), 3) if times else None,
            "photos": self.frames,
            "seconds": round(self.seconds, 1),
        }


def demo_setup(options: DemoOptions) -> Setup:
    """The game the demo plays: spirits drawn from the seed."""
    rng = random.Random(options.seed)
    count = 3 if options.players == 1 else options.players
    spirits = tuple(rng.sample(list(Spirit), count))
    return Setup(
        players=options.players,
        mode=options.mode,
        spirits=spirits,
        difficulty=options.difficulty if options.players == 1 else None,
        lang=options.lang,
        seed=options.seed,
    )


Reader = Callable[[Image], dict[str, Any]]


def run_demo(
    options: DemoOptions,
    log: Callable[[str], None] = print,
    reader_for: Callable[[VirtualTable], Reader] | None = None,
) -> DemoReport:
    """Play the whole demo game; raises CalibrationError with a reason.

    A game that cannot go on (the referee gets no answer from the table, whatever the
    vision does) ends the demo too: the report says why in ``stopped``, with the tally of
    the moves judged so far.

    ``reader_for`` replaces the vision code (calibration and reading) by another reader of
    the virtual table; the tests use it to play quickly. None: the real vision code.
    """
    from zefiria.device.camera.simulated import SimulatedTable
    from zefiria.device.config import DisplayConfig
    from zefiria.device.controls.events import EventQueue
    from zefiria.device.controls.lights import NoLights
    from zefiria.device.display import close_display, open_display, show
    from zefiria.device.display.screens import Screen
    from zefiria.vision.synthetic.dataset import random_setup

    started = time.perf_counter()
    out = options.out
    out.mkdir(parents=True, exist_ok=True)

    # 1. The virtual table, photographed by the simulated camera; the vision calibrated on
    # the session's calibration photos.
    table_session = random_setup(options.table, options.design)
    if options.photo_size is not None:
        table_session = replace(table_session, size=options.photo_size)
    table = virtual_table(table_session, options.seed)
    camera = SimulatedTable(table.photo, preview_size=(320, 240))
    reader = vision_reader(table_session, out, log) if reader_for is None else reader_for(table)

    # 2. The OLED, as PNG frames and a GIF.
    frames_dir = out / "oled"
    for old in frames_dir.glob("frame_*.png"):
        old.unlink()
    capture = open_display(DisplayConfig(driver="capture"), frames_dir)
    gif = open_display(DisplayConfig(driver="gifanim"), out / "oled.gif")

    shown: list[Screen] = []

    def screen(view: Screen) -> None:
        # The same screen twice is one frame: the GIF writer merges identical frames and
        # adds up their durations, which overflow GIF's 16-bit delay after 44 repeats.
        if shown and shown[-1] == view:
            return
        shown[:] = [view]
        show(capture, view)
        show(gif, view)

    # 3. The referee: a fresh journal each run; the history keeps every demo game.
    journal_path = out / "journal.jsonl"
    if journal_path.exists():
        journal_path.unlink()
    history = History(out / "history.sqlite")
    setup = demo_setup(options)
    referee = Referee(setup, Journal.open(journal_path), history)
    controls = EventQueue()
    planner = planner_for(options.fast, log)

    session = Session(
        referee,
        camera,
        reader,
        controls,
        NoLights(),
        screen,
        log=lambda line: log(_prefix(referee) + line),
        watcher=StillnessWatcher(WatchSettings(still_frames=1 if options.fast else 2)),
        hinter=planner,
    )
    who = ", ".join(s.title for s in setup.spirits)
    log(f"{setup.players}p {setup.mode.value} game, seed {setup.seed}: {who}")
    sim = Simulation(
        session,
        table,
        controls,
        seed=options.seed,
        planner=planner,
        cheat_rate=options.cheat_rate,
        log=log,
        max_photos=MAX_PHOTOS,
    )
    stopped = ""
    try:
        tally = sim.play()
    except SimulationError as exc:
        # Keep what the camera saw last, so the failure can be looked at.
        import cv2

        last = out / "last-photo.jpg"
        cv2.imwrite(str(last), table.photo())
        tally = sim.tally
        where = f"round {referee.state.round}" if referee.started else "setup"
        stopped = f"at {where}: {exc} (the camera's last photo: {last})"
    finally:
        close_display(capture)
        close_display(gif)
    total = score(referee.state).total if referee.started else 0
    report = DemoReport(
        setup=setup,
        tally=tally,
        score=total,
        rating=rating(total, setup.lang),
        seconds=time.perf_counter() - started,
        verdict_seconds=session.timing.verdicts,
        reading_ms=session.timing.reading_ms,
        frames=table.photos,
        stopped=stopped,
        remembered=getattr(reader, "remembered", 0),
        pawns_remembered=getattr(reader, "remembered_pawns", 0),
    )
    (out / "summary.json").write_text(json.dumps(report.summary(), indent=2) + "\n")
    return report


def virtual_table(table_session: TableSession, seed: int) -> VirtualTable:
    """A virtual table photographed in ``table_session`` (light, camera pose, layout)."""
    changes = [0]

    def photograph(scene: Scene) -> Image:
        # Each new picture of the cards nudges them a little, as hands do; a still table
        # photographs the same (VirtualTable caches it).
        changes[0] += 1
        return table_session.photo(scene, seed=seed * 7919 + changes[0]).image

    return VirtualTable(photograph)


def vision_reader(table_session: TableSession, out: Path, log: Callable[[str], None]) -> Reader:
    """Calibrate the real vision code on the session's calibration photos; its reader."""
    import cv2
    from zefiria.vision.calibrate import calibrate
    from zefiria.vision.profile import save_profile

    from .table_reader import TableReader

    solved, pawns = table_session.calibration()
    cv2.imwrite(str(out / "calibration-solved.jpg"), solved.image)
    cv2.imwrite(str(out / "calibration-pawns.jpg"), pawns.image)
    profile = calibrate(solved.image, pawns.image)
    save_profile(profile, out / "profile.npz")
    log(f"calibrated from {out / 'calibration-solved.jpg'} and calibration-pawns.jpg")

    return TableReader(profile)


class CalibrationTable:
    """The virtual table during a guided calibration: laid out as each prompt asks.

    ``photo`` is the simulated camera's render: the solved layout until the players are
    asked for the pawns, then the pawns photo (the renderer's, as the spec lays them out).
    """

    def __init__(self, table_session: TableSession) -> None:
        self.table_session = table_session
        self.step = "solved"
        self._photos: tuple[Image, Image] | None = None

    def prompt(self, step: str) -> None:
        self.step = step

    def photo(self) -> Image:
        if self._photos is None:
            solved, pawns = self.table_session.calibration()
            self._photos = (solved.image, pawns.image)
        return self._photos[0] if self.step == "solved" else self._photos[1]


def planner_for(fast: bool, log: Callable[[str], None]) -> Callable[[GameState], list[Action]]:
    from zefiria.engine.planner import best_turn

    # A node budget rather than a time budget: the same seed plays the same game anywhere.
    nodes = 300 if fast else 3000

    def plan(state: GameState) -> list[Action]:
        try:
            return list(best_turn(state, budget_s=5.0, max_nodes=nodes).actions)
        except ZefiriaError as exc:
            # A planner that fails must not end the demo: the players play at random then.
            log(f"(planner failed: {exc}; this turn is played at random)")
            return []

    return plan


def _prefix(referee: Referee) -> str:
    if not referee.started or referee.state.round == 0:
        return "setup "
    return f"r{referee.state.round:<5}"
