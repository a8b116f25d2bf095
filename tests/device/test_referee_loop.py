"""Whole games at a virtual table: every legal move accepted, every illegal one refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from zefiria.device.cli import main
from zefiria.device.controls.events import Event
from zefiria.device.display.screens import BODY, MenuView, MessageView, Screen
from zefiria.device.display.text import font, wrap
from zefiria.device.referee.confirm import deduce, merge
from zefiria.device.referee.history import History
from zefiria.device.referee.journal import Journal, JournalError
from zefiria.device.referee.loop import HAND_LOOKS, HAND_OVER, Referee, Setup, open_referee
from zefiria.device.referee.simulation import Simulation
from zefiria.device.referee.words import word
from zefiria.engine.observation import Observation
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Difficulty, Mode, Phase
from zefiria.vision.bare_table import NO_GRID, VIEW_LOST
from zefiria.vision.focus import OUT_OF_FOCUS
from zefiria.vision.reader import WASHED_OUT

from .referee_doubles import BlindSpotReader, TruthReader, simulated

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


def _bare_referee(tmp_path: Path, setup: Setup) -> Referee:
    return Referee(setup, Journal.open(tmp_path / "journal.jsonl"), History(tmp_path / "h.sqlite"))


def test_resume_rebuilds_the_same_game_with_undo_and_out_of_sync(tmp_path: Path) -> None:
    sim, _, _ = simulated(tmp_path, GAMES[1], seed=4)
    for _ in range(40):
        sim.turn_step()
    referee = sim.referee
    undone = referee.undo()
    assert undone.kind == "undone"
    again = Referee.resume(Journal.open(tmp_path / "journal.jsonl"))
    assert again is not None
    assert again.state == referee.state and again.game_id == referee.game_id
    assert again.out_of_sync  # the table is checked before anything is judged


def test_a_damaged_journal_is_set_aside_and_a_new_game_starts(tmp_path: Path) -> None:
    sim, _, _ = simulated(tmp_path, GAMES[0], seed=4)
    for _ in range(10):
        sim.turn_step()
    path = tmp_path / "journal.jsonl"
    lines = path.read_bytes().split(b"\n")
    lines[1] = lines[1][:-3] + b"xx}"
    path.write_bytes(b"\n".join(lines))
    referee, note = open_referee(path, None, GAMES[0])
    assert referee is not None and not referee.started
    assert "damaged" in note and "line 2" in note
    kept = [p for p in tmp_path.iterdir() if ".damaged-" in p.name]
    assert len(kept) == 1 and kept[0].read_bytes() == b"\n".join(lines)


def test_a_journal_that_does_not_replay_is_refused(tmp_path: Path) -> None:
    sim, _, _ = simulated(tmp_path, GAMES[0], seed=4)
    for _ in range(6):
        sim.turn_step()
    journal = Journal.open(tmp_path / "journal.jsonl")
    journal.append({"kind": "action", "action": "breeze a1 e5"})  # not legal now
    with pytest.raises(JournalError, match="cannot replay"):
        Referee.resume(Journal.open(tmp_path / "journal.jsonl"))


def test_unreadable_readings_and_a_bad_layout_change_nothing(tmp_path: Path) -> None:
    referee = _bare_referee(tmp_path, GAMES[0])
    assert referee.judge({"status": "unreadable", "reason": "hand"}).kind == "unreadable"
    rows = [[1, 2, 3, 4, 5]] * 5  # the same five islands five times
    assert referee.judge({"status": "ok", "grid": rows}).kind == "refused"
    holes = [[None] * 5] * 5
    assert "25 cards" in referee.judge({"status": "ok", "grid": holes}).message
    assert not referee.started and referee.journal.events == []


def test_the_referee_command_explains_a_bad_config_and_a_missing_profile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('language = "fr"\n')
    assert main(["referee", "--config", str(bad)]) == 2
    assert "bad.toml" in capsys.readouterr().err
    good = tmp_path / "good.toml"
    good.write_text(f'data_dir = "{tmp_path / "data"}"\n[display]\ndriver = "dummy"\n')
    # No profile: the referee would calibrate from the camera, and there is none here.
    assert main(["referee", "--config", str(good), "--keyboard"]) == 2
    err = capsys.readouterr().err
    assert "camera source picamera2" in err


@pytest.mark.parametrize("blind", [1, 4, 8])
def test_unread_cards_never_lead_to_a_wrong_verdict(tmp_path: Path, blind: int) -> None:
    sim, _, log = simulated(tmp_path, GAMES[1], seed=3)
    sim.session.reader = BlindSpotReader(sim.table, blind)
    tally = sim.play()
    assert tally.wrong == [], "\n".join(log[-20:])
    assert tally.correct and (blind == 1 or tally.rereads > 0)  # one card is deduced


def test_merge_fills_unread_cards_from_an_earlier_photo_of_the_same_table() -> None:
    full = tuple(range(1, 26))
    older = Observation(grid=(None, *full[1:10], None, *full[11:]))
    newer = Observation(grid=(*full[:5], None, None, *full[7:]), uncertain=frozenset({(4, 4)}))
    merged = merge(older, newer, full)
    assert merged.grid == full and merged.wildcards == frozenset()
    # one unread card among 24 sure ones is deduced
    assert deduce(Observation(grid=(None, *full[1:]))).grid == full
    # a card read in another cell means the table changed: the older photo is dropped
    moved = Observation(grid=(2, 1, *([None] * 23)))
    assert merge(older, moved, full) == moved
    # a card an older photo saw moved is not taken from it (the table may have changed)
    swapped = Observation(grid=(2, 1, *full[2:]))
    assert merge(swapped, Observation(grid=(None, None, *full[2:])), full).wildcards == {
        (0, 0),
        (0, 1),
    }


def test_merge_never_reads_an_island_twice_when_a_doubt_shows_it() -> None:
    """An uncertain card showing the island an older photo read for sure elsewhere.

    Filling the older photo's card used to give an observation with that island twice,
    which raised ReadingError out of the referee's judge (the session crashed).
    """
    full = tuple(range(1, 26))
    older = Observation(grid=full)
    newer = Observation(grid=(None, 1, *full[2:]), uncertain=frozenset({(0, 1)}))
    merged = merge(older, newer, full)
    # a1 from the older photo, b1 then deduced: the only island left
    assert merged.grid == full and merged.wildcards == frozenset()


def test_the_menu_undoes_the_whole_turn_and_the_journal_remembers(tmp_path: Path) -> None:
    sim, screens, _ = simulated(tmp_path, GAMES[0], seed=4, cheat_rate=0.0)
    referee = sim.referee
    while not (referee.started and referee.state.phase is Phase.TURN and referee.state.ap < 4):
        sim.turn_step()
    turn_start = referee.state.ap
    assert turn_start < 5
    sim.controls.put(Event.MENU)
    assert sim.session.step() is None
    menu = screens[-1]
    assert isinstance(menu, MenuView) and "Undo the whole turn" in menu.items
    for _ in range(menu.items.index("Undo the whole turn")):
        sim.controls.put(Event.HINT)
    sim.controls.put(Event.OK)
    outcome = None
    while outcome is None:
        outcome = sim.session.step()
    assert outcome.kind == "undone" and referee.state.ap == 5 and outcome.put_back
    again = Referee.resume(Journal.open(tmp_path / "journal.jsonl"))
    assert again is not None and again.state == referee.state


def test_a_lost_camera_stops_the_session_with_a_reason_and_keeps_the_game(
    tmp_path: Path,
) -> None:
    from zefiria.device.camera.source import CameraError

    sim, screens, _ = simulated(tmp_path, GAMES[0], seed=4)
    for _ in range(12):
        sim.turn_step()
    state = sim.referee.state

    class GoneCamera:
        def grab_preview(self) -> object:
            raise CameraError("webcam 0: no frame (unplugged?)")

        capture_still = grab_preview

    sim.session.camera = GoneCamera()  # type: ignore[assignment]
    assert sim.session.step() is None
    assert sim.session.stopped and "unplugged" in (sim.session.failure or "")
    assert isinstance(screens[-1], MessageView) and "unplugged" in screens[-1].text
    again = Referee.resume(Journal.open(tmp_path / "journal.jsonl"))
    assert again is not None and again.state == state


def test_an_italian_game_speaks_italian(tmp_path: Path) -> None:
    setup = Setup(2, Mode.STANDARD, (Spirit.JUGO, Spirit.AUSTRO), lang="it", seed=8)
    sim, screens, log = simulated(tmp_path, setup, seed=8)
    sim.play()
    assert any("il tavolo è di nuovo giusto" in line for line in log)
    assert any(isinstance(s, MessageView) and s.title == "Sul tavolo" for s in screens)


def test_the_setup_menu_is_answered_with_the_buttons() -> None:
    from zefiria.device.controls.events import EventQueue
    from zefiria.device.referee.menu import MenuClosed, choose_setup

    controls = EventQueue()
    presses = [Event.OK, Event.OK, Event.HINT, Event.OK, Event.OK, Event.HINT, Event.OK]
    for event in presses:  # English, 2 players, storm, Borea, then the second left: Etesia
        controls.put(event)
    shown: list[object] = []
    setup = choose_setup(controls, shown.append)
    assert (setup.players, setup.mode, setup.spirits) == (
        2,
        Mode.STORM,
        (Spirit.BOREA, Spirit.ETESIA),
    )
    assert setup.lang == "en" and shown
    controls.put(Event.UNDO)
    controls.put(Event.QUIT)
    with pytest.raises(MenuClosed):
        choose_setup(controls, shown.append)


def test_the_setup_menu_can_calibrate_the_camera_first() -> None:
    from zefiria.device.controls.events import EventQueue
    from zefiria.device.referee.calibration import CalibrationCancelled
    from zefiria.device.referee.menu import MenuClosed, choose_setup

    controls = EventQueue()
    calibrations: list[str] = []

    def calibrate() -> None:
        calibrations.append("done")
        if len(calibrations) == 2:
            raise CalibrationCancelled()  # a cancel keeps the old profile: ask again

    # English; Players: up from "2" to "1 (solo)" then up again wraps to the calibration.
    presses = [Event.OK, Event.UNDO, Event.UNDO, Event.OK]  # calibrate once
    presses += [Event.UNDO, Event.UNDO, Event.OK]  # calibrate again, cancelled
    presses += [Event.OK, Event.OK, Event.OK, Event.OK]  # 2 players, standard, Borea, Jugo
    for event in presses:
        controls.put(event)
    shown: list[MenuView] = []
    setup = choose_setup(controls, shown.append, calibrate=calibrate)  # type: ignore[arg-type]
    assert calibrations == ["done", "done"]
    assert (setup.players, setup.mode, setup.spirits) == (
        2,
        Mode.STANDARD,
        (Spirit.BOREA, Spirit.JUGO),
    )
    assert "Calibrate camera" in shown[1].items
    # Without a calibrator (the demo, the tests) the option is not offered.
    controls.put(Event.OK)
    controls.put(Event.QUIT)
    shown.clear()
    with pytest.raises(MenuClosed):
        choose_setup(controls, shown.append)  # type: ignore[arg-type]
    assert "Calibrate camera" not in shown[-1].items


def test_a_pawn_of_a_spirit_not_playing_changes_nothing(tmp_path: Path) -> None:
    sim, _, _ = simulated(tmp_path, GAMES[0], seed=4, cheat_rate=0.0)  # Borea and Etesia
    while not (sim.referee.started and sim.referee.state.phase is Phase.TURN):
        sim.turn_step()
    reading = TruthReader(sim.table)(None)
    reading["pawns"]["austro"] = {"cell": [2, 2]}  # left on the table, or a misreading
    assert sim.referee.judge(reading).kind in ("unchanged", "restored")
    reading["pawns"] = ["not", "a", "mapping"]
    assert sim.referee.judge(reading).kind == "unreadable"


def test_gems_seen_in_a_standard_game_change_nothing(tmp_path: Path) -> None:
    sim, _, _ = simulated(tmp_path, GAMES[0], seed=4, cheat_rate=0.0)  # standard mode
    while not (sim.referee.started and sim.referee.state.phase is Phase.TURN):
        sim.turn_step()
    reading = TruthReader(sim.table)(None)
    reading["gems"] = [[1, 1], [3, 4]]  # red things on the cards that are not gems
    assert sim.referee.judge(reading).kind in ("unchanged", "restored")


def test_a_reading_with_a_hand_waits_for_the_hand_to_go(tmp_path: Path) -> None:
    """The camera reads the cards a hand leaves visible, but a hand means someone is acting:
    a half-done move (a card lifted, a pawn in the air) is no move to judge."""
    sim, _, _ = simulated(tmp_path, GAMES[0], seed=4, cheat_rate=0.0)
    while not (sim.referee.started and sim.referee.state.phase is Phase.TURN):
        sim.turn_step()
    before = sim.referee.state
    reading = TruthReader(sim.table)(None)
    first = next(iter(reading["pawns"]))
    del reading["pawns"][first]  # the hand lifted a pawn: it looks like an illegal move
    reading["grid"][4][2] = None
    reading["uncertain"] = [[4, 2]]
    reading["hand"] = [[4, 2]]
    outcome = sim.referee.judge(reading)
    assert outcome.kind == "unreadable" and "hand" in outcome.message
    assert sim.referee.state == before


def _in_a_turn_counting_buzzes(tmp_path: Path) -> tuple[Simulation, list[Screen], list[str]]:
    """A simulated game played to a turn, its screens, and the mismatch buzzes from now."""
    sim, screens, _ = simulated(tmp_path, GAMES[0], seed=4, cheat_rate=0.0)
    while not (sim.referee.started and sim.referee.state.phase is Phase.TURN):
        sim.turn_step()
    buzzes: list[str] = []
    sim.session.feedback.mismatch = lambda: buzzes.append("mismatch")  # type: ignore[method-assign]
    return sim, screens, buzzes


def test_a_hand_that_stays_photo_after_photo_may_be_a_camera_moved(tmp_path: Path) -> None:
    """A camera knocked far on its mast shows no card where calibration found it, and the
    reader takes what covers them for a hand: after HAND_LOOKS photos in a row with a hand,
    the screen says that if there is none, the camera moved. The game does not change."""
    sim, screens, buzzes = _in_a_turn_counting_buzzes(tmp_path)
    before = sim.referee.state
    truth = sim.session.reader
    refused = {"status": "unreadable", "reason": "hand or object over the cards (21 cards hidden)"}
    with_hand = {**truth(None), "hand": [[r, c] for r in range(5) for c in range(5)]}
    photos = [refused, with_hand, refused, with_hand]
    sim.session.reader = lambda _image: photos.pop(0)
    outcomes = [sim.session.read_now() for _ in range(4)]
    assert [o.camera for o in outcomes] == [i + 1 >= HAND_LOOKS for i in range(4)]
    assert outcomes[0].message.startswith("hand or object over the cards")
    assert isinstance(screens[-1], MessageView)
    assert screens[-1].text.startswith("No hand on the cards? Then the camera moved")
    assert buzzes == ["mismatch"] and sim.referee.state == before
    # a photo without a hand starts the count again
    sim.session.reader = truth
    assert sim.session.read_now().kind != "unreadable"
    sim.session.reader = lambda _image: refused
    assert not sim.session.read_now().camera


def test_a_blurred_photo_asks_for_the_lens_and_changes_nothing(tmp_path: Path) -> None:
    """The reader's "image is blurred" is shown worded for the players (wipe the lens,
    check its focus), with one buzz as for a moved camera: nothing reads until they act.
    The game does not change."""
    sim, screens, buzzes = _in_a_turn_counting_buzzes(tmp_path)
    before = sim.referee.state
    truth = sim.session.reader
    blurred = {"status": "unreadable", "reason": f"{OUT_OF_FOCUS}: the cards' print is 12%"}
    sim.session.reader = lambda _image: blurred
    for _ in range(2):
        outcome = sim.session.read_now()
        assert outcome.kind == "unreadable" and outcome.message == word("en", "blurred")
        assert isinstance(screens[-1], MessageView) and "lens" in screens[-1].text
    assert buzzes == ["mismatch"] and sim.referee.state == before
    sim.session.reader = truth
    assert sim.session.read_now().kind != "unreadable"


@pytest.mark.parametrize(
    ("reason", "words"),
    [
        (
            f"{VIEW_LOST}: the table around the grid is not seen (1% of it as calibrated)",
            "view_lost",
        ),
        (WASHED_OUT, "washed_out"),
    ],
)
def test_a_camera_that_shows_no_table_says_so_and_changes_nothing(
    tmp_path: Path, reason: str, words: str
) -> None:
    """A faulty or covered camera (no table seen) or light into its lens (all white) is the
    camera's fault: worded for the players, one buzz, and the game does not change."""
    sim, screens, buzzes = _in_a_turn_counting_buzzes(tmp_path)
    before = sim.referee.state
    truth = sim.session.reader
    sim.session.reader = lambda _image: {"status": "unreadable", "reason": reason}
    for _ in range(HAND_LOOKS + 1):
        outcome = sim.session.read_now()
        assert outcome.kind == "unreadable" and outcome.camera
        assert outcome.message == word("en", words)
        assert isinstance(screens[-1], MessageView) and "lens" in screens[-1].text
    assert buzzes == ["mismatch"] and sim.referee.state == before
    sim.session.reader = truth
    assert sim.session.read_now().kind != "unreadable"


def test_a_cleared_table_is_waited_out_without_a_buzz(tmp_path: Path) -> None:
    """The cards cleared away (a game over, or put back in the box) are no grid: not a hand
    that stays, so never "the camera moved", no buzz, nothing over the screen shown; the
    game does not change, and it reads again once the cards are back."""
    sim, screens, buzzes = _in_a_turn_counting_buzzes(tmp_path)
    before, shown = sim.referee.state, len(screens)
    truth = sim.session.reader
    cleared = {"status": "unreadable", "reason": f"{NO_GRID}: no card on the table"}
    sim.session.reader = lambda _image: cleared
    outcomes = [sim.session.read_now() for _ in range(HAND_LOOKS + 1)]
    assert all(o.kind == "unreadable" and not o.camera for o in outcomes)
    assert all(o.message.startswith(NO_GRID) for o in outcomes)
    assert buzzes == [] and len(screens) == shown and sim.referee.state == before
    sim.session.reader = truth
    assert sim.session.read_now().kind != "unreadable"


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_camera_messages_fit_the_oled(lang: str) -> None:
    f = font(BODY)
    for key in ("camera_moved", "hand_stays", "blurred"):
        assert len(wrap(word(lang, key), f, 126)) <= 4, key


def test_a_camera_moved_since_calibration_is_shown_until_a_photo_reads(tmp_path: Path) -> None:
    """No hand will leave: the players are told to put the camera back or calibrate again,
    with one buzz however many photos it refuses, and the game does not change."""
    sim, screens, buzzes = _in_a_turn_counting_buzzes(tmp_path)
    before = sim.referee.state
    truth = sim.session.reader
    moved = {"status": "unreadable", "reason": "camera moved: the cards lie 0.20 of a card"}
    sim.session.reader = lambda _image: moved
    for _ in range(3):
        outcome = sim.session.read_now()
        assert outcome.kind == "unreadable" and outcome.camera
        assert isinstance(screens[-1], MessageView)
        assert screens[-1].text.startswith("the camera moved") and "Calibrate" in screens[-1].text
    assert buzzes == ["mismatch"] and sim.referee.state == before
    sim.session.reader = truth
    assert sim.session.read_now().kind != "unreadable"
    sim.session.reader = lambda _image: moved
    sim.session.read_now()
    assert buzzes == ["mismatch", "mismatch"]  # moved again after a photo read: told again


def test_the_referee_knows_the_readers_hand_reason() -> None:
    from zefiria.vision import hand

    assert HAND_OVER == hand.HAND_OVER
