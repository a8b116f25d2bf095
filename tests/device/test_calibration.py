"""Guided calibration from the camera: prompts, buttons, refusals and retakes, the profile saved."""

from __future__ import annotations

import io
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from zefiria.device.cli import main
from zefiria.device.config import ButtonsConfig
from zefiria.device.controls import ButtonControls, Event, EventQueue
from zefiria.device.display.screens import MenuView, MessageView, Screen
from zefiria.device.referee.calibration import CalibrationCancelled, guided_calibration
from zefiria.vision.calibrate import CalibrationError
from zefiria.vision.profile import load_profile

from .referee_doubles import simulated
from .test_referee_loop import GAMES

SOLVED = np.full((8, 8, 3), 10, np.uint8)
PAWNS = np.full((8, 8, 3), 20, np.uint8)


class PromptedTable:
    """A camera over a table the player lays out as each prompt asks (photos by step)."""

    def __init__(self) -> None:
        self.step = "solved"
        self.prompts: list[str] = []

    def prompt(self, step: str) -> None:
        self.step = step
        self.prompts.append(step)

    def capture_still(self) -> np.ndarray:
        return SOLVED if self.step == "solved" else PAWNS


class FussyCalibration:
    """Refuses the first ``refusals`` calibrations with a reason, then accepts; checks photos."""

    def __init__(self, refusals: int) -> None:
        self.refusals = refusals
        self.calls = 0

    def __call__(self, solved: np.ndarray, pawns: np.ndarray) -> str:
        assert solved is SOLVED and pawns is PAWNS  # each photo taken at its own prompt
        self.calls += 1
        if self.calls <= self.refusals:
            raise CalibrationError("solved photo: grid not found: too few card edges")
        return "profile"


def _events(*events: Event) -> EventQueue:
    queue = EventQueue()
    for event in events:
        queue.put(event)
    return queue


def test_a_refused_calibration_shows_the_reason_and_is_retaken(tmp_path: Path) -> None:
    table = PromptedTable()
    screens: list[Screen] = []
    saved: list[Any] = []
    fussy = FussyCalibration(refusals=1)
    # OK solved, OK pawns (refused), OK to retake, OK solved, OK pawns.
    done = guided_calibration(
        table,
        _events(*[Event.OK] * 5),
        screens.append,
        lambda profile: saved.append(profile) or tmp_path / "p.npz",
        log=lambda line: None,
        calibrate=fussy,
        on_prompt=table.prompt,
    )
    assert done.attempts == 2 and saved == ["profile"] and fussy.calls == 2
    assert table.prompts == ["solved", "pawns", "solved", "pawns"]
    texts = [s.text for s in screens if isinstance(s, MessageView)]
    assert any("grid not found" in t and "take the photos again" in t for t in texts)
    assert isinstance(screens[-1], MessageView) and screens[-1].title == "Calibrated"


def test_undo_at_the_pawns_step_goes_back_to_the_first_photo() -> None:
    table = PromptedTable()
    done = guided_calibration(
        table,
        _events(Event.OK, Event.UNDO, Event.HINT, Event.OK, Event.OK),
        lambda view: None,
        lambda profile: Path("p.npz"),
        log=lambda line: None,
        calibrate=FussyCalibration(refusals=0),
        on_prompt=table.prompt,
    )
    assert done.attempts == 1
    assert table.prompts == ["solved", "pawns", "solved", "pawns"]


@pytest.mark.parametrize("event", [Event.QUIT, Event.SHUTDOWN])
def test_quitting_cancels_and_saves_nothing(event: Event) -> None:
    table = PromptedTable()
    saved: list[Any] = []
    with pytest.raises(CalibrationCancelled) as cancelled:
        guided_calibration(
            table,
            _events(Event.OK, event),
            lambda view: None,
            lambda profile: saved.append(profile) or Path("p.npz"),
            log=lambda line: None,
            calibrate=FussyCalibration(refusals=0),
        )
    assert cancelled.value.shutdown is (event is Event.SHUTDOWN) and not saved


def test_the_buttons_drive_the_calibration_through_gpiozero(mock_factory: Any) -> None:
    buttons = ButtonsConfig(menu_hold=0.05, shutdown_hold=0.1, bounce=0)
    table = PromptedTable()
    italian: list[Screen] = []

    def press_ok_twice() -> None:
        for _ in range(2):
            time.sleep(0.05)
            pin = mock_factory.pin(buttons.ok)
            pin.drive_low()
            pin.drive_high()

    with ButtonControls(buttons) as controls:
        presser = threading.Thread(target=press_ok_twice)
        presser.start()
        done = guided_calibration(
            table,
            controls,
            italian.append,
            lambda profile: Path("p.npz"),
            lang="it",
            log=lambda line: None,
            calibrate=FussyCalibration(refusals=0),
            on_prompt=table.prompt,
        )
        presser.join()
    assert done.profile == "profile"
    titles = [s.title for s in italian if isinstance(s, MessageView)]
    assert titles[:2] == ["Calibra 1/2", "Calibra 2/2"] and titles[-1] == "Calibrato"


def test_calibrate_simulate_writes_a_profile_from_the_keyboard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The real vision calibrates the virtual table's photos, OK typed twice."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n\n"))
    out = tmp_path / "profile.npz"
    config = tmp_path / "c.toml"
    config.write_text('[display]\ndriver = "dummy"\n')
    assert main(["calibrate", "--simulate", "--config", str(config), "-o", str(out)]) == 0
    assert load_profile(out).geometry.image_size == (1640, 1232)
    printed = capsys.readouterr().out
    assert "Borea on 1" in printed and f"profile written to {out}" in printed


def test_the_referee_without_a_profile_calibrates_from_the_camera_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No profile: the referee walks the players through calibration, then offers a game."""
    import cv2
    from zefiria.vision.synthetic.dataset import random_setup

    photos = tmp_path / "photos"
    photos.mkdir()
    solved, pawns = random_setup(1, 1).calibration()
    cv2.imwrite(str(photos / "1-solved.png"), solved.image)
    cv2.imwrite(str(photos / "2-pawns.png"), pawns.image)
    config = tmp_path / "c.toml"
    config.write_text(
        f'data_dir = "{tmp_path / "data"}"\n[display]\ndriver = "dummy"\n'
        f'[camera]\nsource = "folder"\nfolder = "{photos}"\n'
    )
    # OK, OK take the two photos; the end of input then quits the setup menu.
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n\n"))
    assert main(["referee", "--config", str(config), "--keyboard"]) == 0
    assert load_profile(tmp_path / "data" / "profile.npz").geometry.image_size == (1640, 1232)


def test_the_long_press_menu_recalibrates_then_waits_for_the_game_table(
    tmp_path: Path,
) -> None:
    sim, screens, _ = simulated(tmp_path, GAMES[0], seed=4, cheat_rate=0.0)
    calls: list[int] = []
    sim.session.calibrator = lambda: calls.append(1)
    referee = sim.referee
    while not (referee.started and referee.state.phase.value == "turn"):
        sim.turn_step()
    sim.controls.put(Event.MENU)
    assert sim.session.step() is None
    menu = screens[-1]
    assert isinstance(menu, MenuView) and "Calibrate the camera" in menu.items
    for _ in range(menu.items.index("Calibrate the camera")):
        sim.controls.put(Event.HINT)
    sim.controls.put(Event.OK)
    outcome = None
    while outcome is None:
        outcome = sim.session.step()
    assert calls == [1] and outcome.kind == "waiting" and referee.out_of_sync
    assert "back as they were" in outcome.put_back[0]
    # The table is still the game's: the next look finds it right again.
    sim.controls.put(Event.OK)
    again = sim.session.step()
    assert again is not None and again.kind == "restored"
