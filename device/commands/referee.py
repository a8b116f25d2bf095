"""zefiria referee: the device's main program (the systemd service runs it at boot).

It resumes the game in the journal if there is one (after a power cut), else asks for a new
game on the OLED menu; then it watches the table and judges every move until the game ends,
saves it to the history and offers the next one. On a laptop, ``--simulate`` puts virtual
players at a virtual table (the camera photographs it, the real vision code reads it) and
takes the buttons from the keyboard: kill it at any moment and start it again to see the
game resume.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

HELP = "the table-side referee: watch the table, judge every move, keep the score"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help="TOML config (default: $ZEFIRIA_CONFIG, ~/.config/zefiria/...)",
    )
    parser.add_argument(
        "--simulate",
        action="store_true",
        help="no hardware: virtual players at a simulated table, keyboard",
    )
    parser.add_argument(
        "--keyboard",
        action="store_true",
        help="keyboard instead of the GPIO buttons, no LEDs or buzzer",
    )
    sim = parser.add_argument_group("with --simulate (a new game; a journal resumes instead)")
    sim.add_argument("--players", type=int, choices=(1, 2, 3, 4), default=2)
    sim.add_argument("--mode", choices=("standard", "storm"), default="storm")
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--lang", choices=("en", "it"), default=None)


def run(args: argparse.Namespace) -> int:
    from zefiria.device.commands.device_config import command_config
    from zefiria.device.config import ConfigError
    from zefiria.device.controls import ControlsError, open_controls, open_feedback
    from zefiria.device.display import DisplayError, close_display, open_display, show
    from zefiria.device.referee.history import History, HistoryError

    try:
        config = command_config(args.config, args.simulate)
    except ConfigError as exc:
        return _fail(str(exc))
    profile = None
    unusable = ""  # why there is no profile: the device calibrates from the camera first
    if not args.simulate:
        from zefiria.vision.profile import ProfileError, load_profile

        try:
            profile = load_profile(config.profile_file)
        except ProfileError as exc:
            unusable = str(exc)
    try:
        display = open_display(config.display)
        controls = open_controls(config, keyboard=args.keyboard or args.simulate)
        feedback = open_feedback(config, quiet=args.keyboard or args.simulate)
    except (DisplayError, ControlsError) as exc:
        return _fail(str(exc))
    history = History(config.history_file)
    journal = config.journal_dir / "game.jsonl"

    def screen(view: Any) -> None:
        show(display, view)

    try:
        if args.simulate:
            return _simulate(args, config, journal, history, controls, feedback, screen)
        return _serve(config, profile, unusable, journal, history, controls, feedback, screen)
    except HistoryError as exc:
        return _fail(str(exc))
    except OSError as exc:
        # The data folder cannot be written (a read-only card, a full disk): say where.
        return _fail(f"cannot write in {config.data_dir}: {exc.strerror or exc}")
    finally:
        controls.close()
        close_display(display)


def _fail(message: str) -> int:
    print(f"zefiria referee: {message}", file=sys.stderr)
    return 2


def _serve(
    config: Any,
    profile: Any,
    unusable: str,
    journal: Path,
    history: Any,
    controls: Any,
    feedback: Any,
    screen: Any,
) -> int:
    """The device: real camera, calibrated profile, buttons; one game after another."""
    from dataclasses import replace

    from zefiria.device import notify
    from zefiria.device.camera import CameraError, open_camera
    from zefiria.device.display.screens import MessageView
    from zefiria.device.referee.calibration import (
        CalibrationCancelled,
        guided_calibration,
        profile_saver,
    )
    from zefiria.device.referee.loop import open_referee
    from zefiria.device.referee.menu import MenuClosed, choose_setup
    from zefiria.device.referee.session import Session
    from zefiria.device.referee.table_reader import TableReader
    from zefiria.device.referee.words import word

    try:
        camera = open_camera(config.camera)
    except CameraError as exc:
        screen(MessageView(word(config.language, "camera"), str(exc)))
        return _fail(str(exc))

    reader = TableReader(profile)  # the menu may recalibrate: the reader reads with the latest

    watchdog = notify.Watchdog()

    def calibrate() -> None:
        done = guided_calibration(
            camera,
            controls,
            screen,
            profile_saver(config.profile_file),
            lang=config.language,
            idle=watchdog.kick,
        )
        reader.use(done.profile)

    notify.ready("watching the table")
    try:
        if reader.profile is None:
            # A new device (or a damaged profile): calibrate from the camera with the buttons
            # rather than stop, since the players at the table have no terminal.
            print(f"{unusable}: calibrating from the camera", flush=True)
            lang = config.language
            screen(MessageView(word(lang, "camera"), word(lang, "cal_needed")))
            try:
                calibrate()
            except CalibrationCancelled as cancelled:
                return _power_off(screen, config.language) if cancelled.shutdown else 0
        while True:
            referee, note = open_referee(journal, history, None)
            print(note, flush=True)
            if referee is None:
                try:
                    setup = choose_setup(
                        controls, screen, config.language, watchdog.kick, calibrate
                    )
                except MenuClosed as closed:
                    return _power_off(screen, config.language) if closed.shutdown else 0
                if config.deck is not None:
                    setup = replace(setup, deck=str(config.deck))
                referee, note = open_referee(journal, history, setup)
                assert referee is not None
            session = Session(
                referee,
                camera,
                reader,
                controls,
                feedback,
                screen,
                hinter=_hint,
                calibrator=calibrate,
            )
            while not session.stopped and not referee.saved:
                session.step(timeout=0.05)
                watchdog.kick()
            if session.failure is not None:
                # The journal keeps the game: it resumes when the camera is back.
                return _fail(f"{session.failure}; the game is kept and resumes at the next start")
            if session.shutdown:
                return _power_off(screen, config.language)
            if session.stopped:
                return 0
    finally:
        notify.stopping()
        camera.close()


def _power_off(screen: Any, lang: str) -> int:
    """The long press on Undo: everything is on disk already, so say so and power off."""
    import subprocess

    from zefiria.device.display.screens import MessageView
    from zefiria.device.referee.words import word

    screen(MessageView("Zefiria", word(lang, "unplug")))
    # The journal is fsynced after every move: nothing is left to save. logind lets the
    # service's user power off (the polkit rule systemd/install.sh installs).
    done = subprocess.run(["systemctl", "poweroff"], check=False)
    return 0 if done.returncode == 0 else _fail("systemctl poweroff failed: switch off by hand")


def _hint(state: Any) -> list[Any]:
    """The Hint button: the planner's best turn from here (a second at most on a Pi)."""
    from zefiria.engine.planner import best_turn

    return list(best_turn(state).actions)


def _simulate(
    args: argparse.Namespace,
    config: Any,
    journal: Path,
    history: Any,
    controls: Any,
    feedback: Any,
    screen: Any,
) -> int:
    """A laptop stand-in for the table: virtual players, simulated camera, real vision."""
    from zefiria.device.camera.simulated import SimulatedTable
    from zefiria.device.referee.demo import (
        DEMO_DESIGN,
        DEMO_TABLE,
        DemoOptions,
        demo_setup,
        planner_for,
        virtual_table,
        vision_reader,
    )
    from zefiria.device.referee.loop import open_referee
    from zefiria.device.referee.session import Session
    from zefiria.device.referee.simulation import Simulation, SimulationError
    from zefiria.engine.state import Mode
    from zefiria.vision.calibrate import CalibrationError
    from zefiria.vision.synthetic.dataset import random_setup

    options = DemoOptions(
        players=args.players, mode=Mode(args.mode), seed=args.seed, lang=args.lang or "en"
    )
    referee, note = open_referee(journal, history, demo_setup(options))
    assert referee is not None
    print(note, flush=True)
    # The same virtual table every start, so a resumed game is photographed as before the cut.
    seed = referee.setup.seed
    table_session = random_setup(DEMO_TABLE, DEMO_DESIGN)
    table = virtual_table(table_session, seed)
    if referee.started:
        table.restore(referee.state)
    work = config.data_dir / "simulated"
    work.mkdir(parents=True, exist_ok=True)
    try:
        reader = vision_reader(table_session, work, print)
    except CalibrationError as exc:
        return _fail(f"calibration of the simulated table failed: {exc}")
    planner = planner_for(False, print)
    session = Session(
        referee,
        SimulatedTable(table.photo),
        reader,
        controls,
        feedback,
        screen,
        hinter=planner,
    )
    sim = Simulation(session, table, controls, seed=seed, planner=planner, log=print)
    try:
        tally = sim.play()
    except SimulationError as exc:
        if session.stopped:
            print("stopped; the journal keeps the game for the next start")
            return 0
        return _fail(str(exc))
    print(
        f"{tally.accepted}/{tally.legal} legal moves accepted, "
        f"{tally.refused}/{tally.illegal} illegal refused, {len(tally.wrong)} wrong"
    )
    return 0 if tally.correct else 1
