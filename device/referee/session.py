"""The referee at the table: camera, watcher, buttons, screen and lights around a Referee.

:class:`Session` owns no rule: it asks the :class:`~zefiria.device.referee.watcher.
StillnessWatcher` when to read, hands readings and button presses to the
:class:`~zefiria.device.referee.loop.Referee`, and shows the outcome. One call to
:meth:`Session.step` does one small piece of work (one button event, one preview frame), so
the device's main loop, the demo's virtual players and the tests drive it the same way.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray
from zefiria.device.controls.events import Event
from zefiria.device.controls.lights import Feedback
from zefiria.device.display.screens import (
    HintView,
    MenuView,
    MessageView,
    MoveView,
    RoundView,
    ScoreView,
    Screen,
    SpiritView,
    StormView,
)
from zefiria.engine.actions import Action, Place
from zefiria.engine.grid import Cell
from zefiria.engine.notation import describe_action, format_cell
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import GameState, Phase, StormEffect

from .loop import Outcome, Pick, Referee
from .watcher import StillnessWatcher
from .words import word

Image = NDArray[np.uint8]


class Camera(Protocol):
    def grab_preview(self) -> Image: ...
    def capture_still(self) -> Image: ...


class Controls(Protocol):
    def next_event(self, timeout: float | None = None) -> Event | None: ...


Reader = Callable[[Image], dict[str, Any]]  # a still photo -> the reading contract's JSON dict
# Verdicts after which the photo just read shows exactly the game's table.
TABLE_KNOWN = frozenset({"accepted", "unchanged", "restored", "layout"})
Show = Callable[[Screen], None]
Log = Callable[[str], None]
Hinter = Callable[[GameState], list[Action]]


@dataclass
class Timing:
    """Seconds from "table still" to verdict, one entry per reading that was judged."""

    verdicts: list[tuple[str, float]] = field(default_factory=list)
    reading_ms: list[float] = field(default_factory=list)


class Session:
    """Drive one :class:`Referee` from the hardware (or its simulated stand-ins)."""

    def __init__(
        self,
        referee: Referee,
        camera: Camera,
        reader: Reader,
        controls: Controls,
        feedback: Feedback,
        show: Show,
        log: Log = print,
        watcher: StillnessWatcher | None = None,
        hinter: Hinter | None = None,
        calibrator: Callable[[], object] | None = None,
    ) -> None:
        self.referee = referee
        self.camera = camera
        self.reader = reader
        self.controls = controls
        self.feedback = feedback
        self.show = show
        self.log = log
        self.watcher = watcher or StillnessWatcher()
        self.hinter = hinter
        # The menu's "calibrate the camera": runs the guided calibration (it raises
        # CalibrationCancelled when the players give up); None where there is no camera to
        # calibrate (the simulated table has its own profile).
        self.calibrator = calibrator
        self.timing = Timing()
        self.selected = 0  # highlighted item of a button menu
        self.stopped = False
        self.failure: str | None = None  # why the session stopped by itself (camera gone)
        self.shutdown = False  # stopped by the long press on Undo: power the Pi off
        self._asked = ""  # the question on screen, so it is drawn once
        self._menu: list[tuple[str, Callable[[], Outcome]]] | None = None  # long-press menu
        self._asked_unseen: tuple[Spirit, ...] = ()  # pawns the screen asks the players about
        self._asked_gems: tuple[Cell, ...] = ()  # gems the screen asks about: taken or not?
        self._asked_cards: tuple[Cell, ...] = ()  # unread cards: did they move?
        self._picking: Pick | None = None  # "card b2: which island?" at setup
        self._elsewhere: Pick | None = None  # "where is it?": what Hint opens for a lost pawn
        self._camera_moved = False  # the screen says the camera moved since calibration

    @property
    def asking_unseen(self) -> tuple[Spirit, ...]:
        """The pawns the screen asks about ("is it on its card?"); OK answers yes."""
        return self._asked_unseen

    @property
    def picking(self) -> Pick | None:
        """The setup list on screen (a layout card's island, an unseen pawn's corner)."""
        return self._picking

    @property
    def asking_elsewhere(self) -> Pick | None:
        """The list Hint opens while the screen asks about a lost pawn ("where is it?")."""
        return self._elsewhere

    @property
    def asking_cards(self) -> tuple[Cell, ...]:
        """The unread cards the screen asks about; OK answers "they did not move"."""
        return self._asked_cards

    @property
    def asking_gems(self) -> tuple[Cell, ...]:
        """The cards the screen asks about: OK says no gem lies there, Undo that one does."""
        return self._asked_gems

    def _w(self, key: str, **values: object) -> str:
        return word(self.referee.setup.lang, key, **values)

    # -- one step ---------------------------------------------------------------------------
    def step(self, timeout: float = 0.0) -> Outcome | None:
        """Handle one button event (waiting up to ``timeout``) or else one preview frame."""
        event = self.controls.next_event(timeout=timeout)
        if event is not None:
            return self.press(event)
        if self.referee.over:
            return self._finish() if not self.referee.saved else None
        question, options = self.referee.choices()
        if options and question != self._asked:
            self._asked = question
            self.selected = 0
            self._show_menu(question, options)
        # The table is watched during a choice too: a storm may still be waiting for hands.
        return self.look()

    def look(self) -> Outcome | None:
        """Feed one preview frame to the watcher; read and judge when the table is still."""
        try:
            frame = self.camera.grab_preview()
        except (OSError, RuntimeError) as exc:
            self._camera_failed(exc)
            return None
        if not self.watcher.feed(frame):
            return None
        return self.read_now()

    def _camera_failed(self, exc: BaseException) -> None:
        # Nothing is lost: the journal holds every accepted move, the game resumes later.
        self.log(f"camera: {exc}")
        self.show(MessageView(self._w("camera"), str(exc)))
        self.failure = f"camera: {exc}"
        self.stopped = True

    def read_now(self) -> Outcome:
        """Take a still, read it and judge it (also what OK does)."""
        still_at = time.perf_counter()
        self.feedback.busy()
        try:
            photo = self.camera.capture_still()
        except (OSError, RuntimeError) as exc:
            self._camera_failed(exc)
            return Outcome("unreadable", f"camera: {exc}")
        reading = self.reader(photo)
        outcome = self.referee.judge(reading)
        seconds = time.perf_counter() - still_at
        if outcome.kind in TABLE_KNOWN and self.referee.started and not self.referee.out_of_sync:
            # The photo shows the game's own table (not when what was accepted set the players
            # something to do, a storm at round start: the game is then ahead of the table).
            # A reader that remembers it reads the cards that do not move by it later
            # (device/referee/table_reader.py). Kept after the verdict's time is taken:
            # keeping the photo is not part of judging it.
            remember = getattr(self.reader, "remember", None)
            if remember is not None:
                remember(self.referee.state)
        self.watcher.mark_read()
        if outcome.kind != "unreadable":
            self.timing.verdicts.append((outcome.kind, seconds))
        self.timing.reading_ms.append(float(reading.get("ms", 0.0)))
        self.present(outcome)
        return outcome

    def press(self, event: Event) -> Outcome | None:
        referee = self.referee
        if self._menu is not None:
            return self._game_menu_press(event)
        if self._picking is not None:
            return self._pick_press(event)
        question, options = referee.choices() if referee.started else ("", ())
        if options:
            return self._menu_press(event, question, options)
        if event is Event.HINT and self._elsewhere is not None:
            # "...Hint: elsewhere": the pawn is neither on its card nor to be taken back.
            self._picking, self.selected = self._elsewhere, 0
            self._elsewhere, self._asked_unseen = None, ()
            self._show_pick()
            return None
        if event is Event.OK:
            if self._asked_unseen:
                # The answer to "is it on its card?": yes, read it on the card the screen named.
                referee.vouch_unseen(self._asked_unseen)
                self._asked_unseen = ()
            if self._asked_gems:
                referee.say_no_gems(self._asked_gems)
                self._asked_gems = ()
            if self._asked_cards:
                referee.vouch_cards(self._asked_cards)
                self._asked_cards = ()
            self.watcher.forget()
            return self.read_now()
        if event in (Event.QUIT, Event.SHUTDOWN):
            self.shutdown = event is Event.SHUTDOWN
            self.stopped = True
            return None
        if not referee.started:
            return None
        if event is Event.UNDO and self._asked_gems:
            # The answer to a gem question: a gem lies on the card (not an undo).
            referee.say_gems_there(self._asked_gems)
            self._asked_gems = ()
            self.watcher.forget()
            return self.read_now()
        if event is Event.UNDO:
            outcome = referee.undo()
        elif event is Event.END_TURN:
            outcome = referee.end_turn()
        elif event is Event.HINT:
            self._hint()
            return None
        elif event is Event.MENU:
            self._open_menu()
            return None
        else:
            return None
        self.watcher.forget()
        self.present(outcome)
        return outcome

    def _menu_press(
        self, event: Event, question: str, options: tuple[Action, ...]
    ) -> Outcome | None:
        # Hint moves down, Undo moves up, OK chooses: four buttons, no rotary encoder.
        # (A press queued for an earlier list may arrive here: stay inside this one.)
        self.selected %= len(options)
        if event is Event.HINT:
            self.selected = (self.selected + 1) % len(options)
        elif event is Event.UNDO:
            self.selected = (self.selected - 1) % len(options)
        elif event is Event.OK:
            outcome = self.referee.choose(options[self.selected])
            self._asked = ""
            self.watcher.forget()
            self.present(outcome)
            return outcome
        elif event in (Event.QUIT, Event.SHUTDOWN):
            self.stopped = True
            return None
        self._show_menu(question, options)
        return None

    def _pick_press(self, event: Event) -> Outcome | None:
        # Hint moves down the list, Undo moves up, OK says "this one" and looks again.
        pick = self._picking
        assert pick is not None
        if event is Event.HINT:
            self.selected = (self.selected + 1) % len(pick.labels)
        elif event is Event.UNDO:
            self.selected = (self.selected - 1) % len(pick.labels)
        elif event is Event.OK:
            self._picking = None
            decided = self.referee.answer_pick(pick, self.selected)
            self.watcher.forget()
            if decided is not None:
                self.present(decided)
                return decided
            return self.read_now()
        elif event in (Event.QUIT, Event.SHUTDOWN):
            self.shutdown = event is Event.SHUTDOWN
            self.stopped = True
            return None
        self._show_pick()
        return None

    def _show_pick(self) -> None:
        assert self._picking is not None
        self.show(MenuView(self._picking.question, self._picking.labels, self.selected))

    def _open_menu(self) -> None:
        """The long-press menu: spend a red gem for +1 AP, undo the whole turn, back."""
        referee = self.referee
        items: list[tuple[str, Callable[[], Outcome]]] = []
        for spend in referee.spend_options():
            text = describe_action(spend, referee.state, lang=referee.setup.lang)
            items.append((text, lambda spend=spend: referee.choose(spend)))  # type: ignore[misc]
        if referee.state.phase is Phase.TURN:
            items.append((self._w("undo_turn"), referee.undo_turn))
        if self.calibrator is not None:
            items.append((self._w("cal_menu"), self._calibrate))
        items.append((self._w("back"), lambda: Outcome("unchanged", self._w("menu_closed"))))
        self._menu = items
        self.selected = 0
        self.show(MenuView(self._w("menu"), tuple(label for label, _ in items), 0))

    def _calibrate(self) -> Outcome:
        from .calibration import CalibrationCancelled

        assert self.calibrator is not None
        try:
            self.calibrator()
        except CalibrationCancelled as cancelled:
            self.shutdown = self.stopped = cancelled.shutdown
            return Outcome("unchanged", self._w("cal_cancelled"))
        # The cards now lie in the calibration layout: the game's table must come back
        # before anything is judged, which the referee checks like any put-back.
        self.referee.table_disturbed()
        todo = self._w("cal_put_back")
        return Outcome("waiting", todo, put_back=(todo,))

    def _game_menu_press(self, event: Event) -> Outcome | None:
        items = self._menu
        assert items is not None
        if event is Event.HINT:
            self.selected = (self.selected + 1) % len(items)
        elif event is Event.UNDO:
            self.selected = (self.selected - 1) % len(items)
        elif event is Event.OK:
            self._menu = None
            outcome = items[self.selected][1]()
            self.watcher.forget()
            self.present(outcome)
            return outcome
        elif event in (Event.MENU, Event.QUIT, Event.SHUTDOWN):
            self._menu = None
            self.stopped = event is not Event.MENU
            self.show(spirit_view(self.referee.state, self.referee.setup.lang))
            return None
        self.show(MenuView(self._w("menu"), tuple(label for label, _ in items), self.selected))
        return None

    def _show_menu(self, question: str, options: tuple[Action, ...]) -> None:
        state = self.referee.state
        items = tuple(describe_action(a, state, lang=self.referee.setup.lang) for a in options)
        self.show(MenuView(question, items, self.selected))

    def _hint(self) -> None:
        if self.hinter is None or self.referee.state.phase is not Phase.TURN:
            self.show(HintView(self._w("no_hint")))
            return
        plan = self.hinter(self.referee.state)
        state = self.referee.state
        text = describe_action(plan[0], state, lang=self.referee.setup.lang) if plan else "end"
        self.show(HintView(text))

    def _finish(self) -> Outcome:
        outcome = self.referee.finish()
        self.present(outcome)
        return outcome

    # -- showing an outcome -----------------------------------------------------------------
    def present(self, outcome: Outcome) -> None:
        """Screen, lights and log line for ``outcome``."""
        referee = self.referee
        kind = outcome.kind
        score = f"{outcome.score} VP: " if outcome.score is not None else ""
        self.log(f"[{kind}] {score}{outcome.message}" + _todo(outcome))
        already_asked = bool(self._asked_unseen or self._asked_gems or self._asked_cards)
        self._asked_unseen = outcome.unseen if outcome.ask else ()
        self._elsewhere = outcome.elsewhere if outcome.ask else None
        self._asked_gems = outcome.gems if outcome.ask else ()
        self._asked_cards = outcome.cards if outcome.ask else ()
        said_moved, self._camera_moved = self._camera_moved, outcome.camera
        if outcome.pick is not None and outcome.pick != self._picking:
            self._picking, self.selected = outcome.pick, 0
        elif kind != "unreadable" and self._picking is not None:
            self._picking, self.selected = None, 0  # answered by the camera meanwhile
        if kind == "unreadable":
            if self._picking is not None:
                self._show_pick()
                return
            if outcome.camera:
                # (one buzz until a photo reads again: the watcher reads on every change)
                if not said_moved:
                    self.feedback.mismatch()
                self.show(MessageView(self._w("camera"), outcome.message))
                return
            if outcome.ask:
                # Looking again has not found the pawn: the players must know which one and
                # what to do, and the watcher keeps looking meanwhile (one buzz, not one a
                # photo).
                if not already_asked:
                    self.feedback.mismatch()
                self.show(MessageView(self._w("camera"), outcome.message))
            return
        if kind == "refused":
            self.feedback.refused()
            self.show(MoveView(False, outcome.message, reason="; ".join(outcome.put_back)))
            return
        if kind == "over":
            state = referee.state
            self.feedback.ready()
            assert outcome.score is not None
            self.show(
                ScoreView(
                    outcome.score,
                    outcome.message,
                    title=self._w("final"),
                    details=state.config.mode.value,
                )
            )
            return
        if kind in ("accepted", "turn_ended", "undone"):
            self.feedback.accepted()
            if kind == "accepted" and not all(isinstance(a, Place) for a in outcome.actions):
                self.show(MoveView(True, outcome.message, ap=outcome.ap_left))
        elif kind == "layout":
            self.feedback.ready()
            self.show(MessageView(self._w("setup"), outcome.message))
            return
        if not referee.started:
            return
        state = referee.state
        if outcome.round_started:
            self.show(
                RoundView(
                    state.round,
                    state.config.purple_gems,
                    state.purple_left,
                    storm=state.last_storm is not None,
                    label=self._w("round"),
                    gems_label=self._w("gems_left"),
                )
            )
            storm = storm_view(state, referee.setup.lang)
            if storm is not None:
                self.show(storm)
        if outcome.put_back:
            self.feedback.mismatch()
            self.show(MessageView(self._w("on_table"), "; ".join(outcome.put_back)))
        elif kind in ("restored", "accepted", "turn_ended", "undone"):
            self.feedback.ready()
            self.show(spirit_view(state, referee.setup.lang))


def storm_view(state: GameState, lang: str = "en") -> StormView | None:
    event = state.last_storm
    if event is None:
        return None
    if event.effect is StormEffect.ANCHORED:
        effect = word(lang, "storm_anchor", island=state.island_at(event.target1))
    elif event.effect is StormEffect.SWAPPED and event.target2 is not None:
        # After the swap, the card now at target 1 came from target 2 and vice versa.
        a, b = state.island_at(event.target2), state.island_at(event.target1)
        effect = word(lang, "storm_swap", a=a, b=b)
    else:
        effect = word(lang, "storm_none")
    return StormView(
        storm=event.storm.describe(),
        target1=event.target1,
        target2=event.target2,
        effect=effect,
        anchored=state.anchored,
    )


def spirit_view(state: GameState, lang: str = "en") -> Screen:
    if state.phase is Phase.OVER:
        return MessageView(word(lang, "game_over_title"), word(lang, "scoring"))
    if state.phase is not Phase.TURN:
        title = word(lang, "setup" if state.phase is Phase.SETUP else "choose")
        return MessageView(title, state.phase.value)
    pos = state.pawns[state.active]
    note = word(lang, "fly_away") if state.must_leave else ""
    if pos is not None and pos.outside:
        note = note or word(lang, "outside_by", cell=format_cell(pos.cell))
    return SpiritView(
        spirit=state.active_spirit.title,
        ap=state.ap,
        ap_max=state.config.ap_per_turn,
        gems=sum(state.gems_held),
        round=state.round,
        note=note,
    )


def _todo(outcome: Outcome) -> str:
    return f" -> {'; '.join(outcome.put_back)}" if outcome.put_back else ""
