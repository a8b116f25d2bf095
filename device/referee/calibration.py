"""Guided calibration from the configured camera: the screen asks, the buttons answer.

The reading spec (``shared/spec/reading.md``) wants two photos taken with the camera where it
will stay: the 25 cards in order 1..25 ("solved"), then the same layout with each pawn on
its island ("pawns": Borea on 1 .. Austro on 5). A player setting the device up has no
files to pass, so this walks them through it: each step is shown on the screen and printed
on the terminal, OK takes the photo, Undo goes back a step, and a calibration the vision
refuses shows its reason and starts again from the first photo (either photo may be the
bad one, and the cards are still laid out, so retaking both costs two presses).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np
from numpy.typing import NDArray
from zefiria.device.controls.events import Event
from zefiria.device.display.screens import MessageView, Screen

from .words import word

Image = NDArray[np.uint8]
Step = Literal["solved", "pawns"]
Calibrate = Callable[[Image, Image], Any]  # (solved, pawns) -> profile, or CalibrationError
Save = Callable[[Any], Path]  # profile -> where it was written


class StillCamera(Protocol):
    def capture_still(self) -> Image: ...


class Controls(Protocol):
    def next_event(self, timeout: float | None = None) -> Event | None: ...


class CalibrationCancelled(Exception):
    """The player quit (or held Undo for a shutdown) during the calibration."""

    def __init__(self, shutdown: bool = False) -> None:
        super().__init__("calibration cancelled")
        self.shutdown = shutdown


@dataclass(frozen=True)
class Calibrated:
    """A saved profile and how many attempts it took (refusals included)."""

    profile: Any
    path: Path
    attempts: int


def guided_calibration(
    camera: StillCamera,
    controls: Controls,
    show: Callable[[Screen], None],
    save: Save,
    *,
    lang: str = "en",
    log: Callable[[str], None] = print,
    calibrate: Calibrate | None = None,
    idle: Callable[[], object] = lambda: None,
    on_prompt: Callable[[Step], object] = lambda step: None,
) -> Calibrated:
    """Take both calibration photos from ``camera``, calibrate, save; retake on refusal.

    ``calibrate`` defaults to the vision's; ``save`` writes the profile (the caller knows
    where the config keeps it). ``idle`` runs while waiting for a button (the systemd
    watchdog); ``on_prompt`` is told each step as it is asked (a simulated table lays the
    cards out then). Raises :class:`CalibrationCancelled` on quit or shutdown.
    """
    from zefiria.vision.calibrate import CalibrationError

    if calibrate is None:
        from zefiria.vision.calibrate import calibrate as vision_calibrate

        calibrate = vision_calibrate

    def say(title: str, text: str, detail: str = "") -> None:
        show(MessageView(title, text))
        log(f"{title}: {detail or text}")

    attempts = 0
    while True:
        attempts += 1
        photos: dict[Step, Image] = {}
        step: Step = "solved"
        while len(photos) < 2:
            on_prompt(step)
            number = 1 if step == "solved" else 2
            say(
                word(lang, "cal_title", n=number),
                word(lang, f"cal_{step}"),
                word(lang, f"cal_{step}_long"),
            )
            if _wait(controls, idle) is Event.UNDO:
                if step == "pawns":
                    step = "solved"  # back to the first photo
                    photos.clear()
                continue
            try:
                photos[step] = camera.capture_still()
            except (OSError, RuntimeError) as exc:  # CameraError is a RuntimeError
                say(word(lang, "camera"), f"{exc}. {word(lang, 'cal_retry')}")
                _wait(controls, idle)
                continue
            step = "pawns"
        say(word(lang, "cal_working_title"), word(lang, "cal_working"))
        try:
            profile = calibrate(photos["solved"], photos["pawns"])
        except CalibrationError as exc:
            # The vision says why (grid not found, two islands alike...): the player needs
            # it to fix the table, then both photos are taken again.
            say(word(lang, "cal_refused_title"), f"{exc}. {word(lang, 'cal_retry')}")
            _wait(controls, idle)
            continue
        path = save(profile)
        say(word(lang, "cal_done_title"), word(lang, "cal_done"), f"profile saved to {path}")
        return Calibrated(profile, path, attempts)


def _wait(controls: Controls, idle: Callable[[], object]) -> Event:
    """OK or Undo; other buttons mean nothing here. Quit and shutdown cancel."""
    while True:
        event = controls.next_event(timeout=0.5)
        if event is None:
            idle()
        elif event in (Event.QUIT, Event.SHUTDOWN):
            raise CalibrationCancelled(shutdown=event is Event.SHUTDOWN)
        elif event in (Event.OK, Event.UNDO):
            return event


def profile_saver(path: Path) -> Save:
    """Write the profile to ``path`` (the config's ``profile_file``), making its folder."""

    def save(profile: Any) -> Path:
        from zefiria.vision.profile import save_profile

        path.parent.mkdir(parents=True, exist_ok=True)
        return save_profile(profile, path)

    return save
