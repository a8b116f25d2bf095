"""A pawn the camera cannot see: the screen says which and what to do; OK or Undo resolve it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from zefiria.device.controls.events import Event
from zefiria.device.display.screens import MenuView, MessageView
from zefiria.device.referee.demo import DemoOptions, run_demo
from zefiria.device.referee.history import History
from zefiria.device.referee.journal import Journal
from zefiria.device.referee.loop import UNSEEN_LOOKS, Setup
from zefiria.device.referee.virtual_players import VirtualTable
from zefiria.engine.actions import ChooseFirst, Fly
from zefiria.engine.grid import ALL_CELLS
from zefiria.engine.observation import Observation
from zefiria.engine.rules import is_legal
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Mode, Phase, Position

from .referee_doubles import TruthReader, simulated

SETUP = Setup(2, Mode.STANDARD, (Spirit.BOREA, Spirit.ETESIA), seed=11)


class HidingReader(TruthReader):
    """The truth, but ``spirit``'s pawn is never seen once ``hidden`` is set."""

    def __init__(self, table: VirtualTable, spirit: Spirit) -> None:
        super().__init__(table)
        self.spirit = spirit
        self.hidden = False

    def __call__(self, image: Any) -> dict[str, Any]:
        reading = super().__call__(image)
        if self.hidden and reading["status"] == "ok":
            reading["pawns"].pop(self.spirit.value, None)
        return reading


def _in_turn(tmp_path: Path) -> Any:
    sim, screens, _ = simulated(tmp_path, SETUP, seed=4, cheat_rate=0.0)
    reader = HidingReader(sim.table, Spirit.BOREA)
    sim.session.reader = reader
    while not (sim.referee.started and sim.referee.state.phase is Phase.TURN):
        sim.turn_step()
    return sim, screens, reader


def test_the_screen_names_the_unseen_pawn_after_a_few_looks_and_ok_vouches(
    tmp_path: Path,
) -> None:
    sim, screens, reader = _in_turn(tmp_path)
    reader.hidden = True
    outcomes = [sim.session.read_now() for _ in range(UNSEEN_LOOKS)]
    assert [o.kind for o in outcomes] == ["unreadable"] * UNSEEN_LOOKS
    assert [o.ask for o in outcomes] == [False] * (UNSEEN_LOOKS - 1) + [True]
    shown = screens[-1]
    assert isinstance(shown, MessageView)
    assert shown.text.startswith("Can't see Borea's pawn: is it on its card (")
    # OK answers "it is": the still table is judged without her, and it has not changed.
    sim.controls.put(Event.OK)
    outcome = sim.session.step()
    assert outcome is not None and outcome.kind in ("unchanged", "restored")
    # The answer lasts one verdict: still hidden, the next change asks again.
    again = [sim.session.read_now() for _ in range(UNSEEN_LOOKS)]
    assert again[-1].ask


def test_undo_resolves_a_pawn_lost_after_a_move(tmp_path: Path) -> None:
    sim, _, reader = _in_turn(tmp_path)
    referee = sim.referee
    state = referee.state
    fly = next(f for f in (Fly((r, c)) for r in range(5) for c in range(5)) if is_legal(state, f))
    sim.table.perform(state, fly)
    accepted = sim._until_verdict()
    assert accepted.kind == "accepted"
    reader.hidden = True
    for _ in range(UNSEEN_LOOKS):
        sim.session.read_now()
    sim.controls.put(Event.UNDO)
    undone = sim.session.step()
    assert undone is not None and undone.kind == "undone" and referee.state == state
    assert sim.session._asked_unseen == ()


def test_a_pawn_never_seen_again_ends_the_game_without_a_wrong_verdict(tmp_path: Path) -> None:
    """Whatever the vision does the simulated game ends, and nothing unseen is charged.

    Borea flies and the camera never sees her again: "is she on her card?" is not true, so
    the virtual players press Hint and pick where she stands from the list; no move has to be
    taken back (before the list, every Fly of hers was: 3 in this game).
    """
    sim, _, reader = _in_turn(tmp_path)
    reader.hidden = True
    tally = sim.play()
    assert sim.referee.saved and tally.wrong == []
    assert tally.withdrawn == 0 and tally.picked > 0 and tally.vouched > 0


def test_the_players_say_where_a_lost_pawn_flew(tmp_path: Path) -> None:
    sim, screens, reader = _in_turn(tmp_path)
    referee = sim.referee
    state = referee.state
    flies = [f for f in (Fly((r, c)) for r in range(5) for c in range(5)) if is_legal(state, f)]
    fly = flies[-1]
    sim.table.perform(state, fly)
    reader.hidden = True  # she lands where the camera cannot see her
    for _ in range(2 * UNSEEN_LOOKS):
        asked = sim.session.read_now()
        if asked.ask:
            break
    assert asked.ask and asked.elsewhere is not None and asked.message.endswith("Hint: elsewhere")
    places = asked.elsewhere.places
    assert state.position_of(Spirit.BOREA) not in places  # that is what OK answers
    sim.controls.put(Event.HINT)
    sim.session.step()
    shown = screens[-1]
    assert isinstance(shown, MenuView) and shown.title == "Where is Borea's pawn?"
    for _ in range(places.index(Position(fly.to))):
        sim.controls.put(Event.HINT)
        sim.session.step()
    sim.controls.put(Event.OK)
    outcome = sim.session.step()
    assert outcome is not None and outcome.kind == "accepted" and outcome.actions == (fly,)
    assert referee.state.position_of(Spirit.BOREA) == Position(fly.to)


def test_the_demo_ends_with_its_tally_and_the_reason_when_the_game_stops(
    tmp_path: Path,
) -> None:
    def blind(table: VirtualTable) -> Any:
        return lambda image: {"status": "unreadable", "reason": "glare", "ms": 0.0}

    options = DemoOptions(seed=2, fast=True, out=tmp_path / "out", photo_size=(410, 308))
    report = run_demo(options, log=lambda line: None, reader_for=blind)
    assert report.stopped.startswith("at setup: the table cannot be read: glare")
    assert (tmp_path / "out" / "summary.json").exists()
    assert History(tmp_path / "out" / "history.sqlite").games() == []
    assert Journal.open(tmp_path / "out" / "journal.jsonl").events == []


def test_a_pawn_never_seen_on_its_corner_is_placed_from_the_list(tmp_path: Path) -> None:
    """At setup the players say which corner an unseen pawn stands on, and the game goes on."""
    sim, screens, _ = simulated(tmp_path, SETUP, seed=4, cheat_rate=0.0)
    reader = HidingReader(sim.table, Spirit.BOREA)
    reader.hidden = True
    sim.session.reader = reader
    tally = sim.play()
    asked = [s for s in screens if isinstance(s, MenuView) and "which corner" in s.title]
    assert asked and asked[0].title == "Can't see Borea's pawn: which corner?"
    assert tally.picked >= 1 and sim.referee.saved and tally.wrong == [], tally.wrong


def test_a_press_meant_for_a_longer_list_stays_inside_the_menu_on_screen(tmp_path: Path) -> None:
    # The setup list had 4 corners and Hint was pressed 3 times; the camera then saw the pawn
    # and a 2-item menu came up before the presses were handled (1p storm seed 2 crashed).
    sim, _, _ = _in_turn(tmp_path)
    sim.session.selected = 3
    options = (ChooseFirst(Spirit.BOREA), ChooseFirst(Spirit.ETESIA))
    outcome = sim.session._menu_press(Event.OK, "who plays first?", options)
    assert outcome is not None and sim.session.selected == 1


def test_austro_unseen_is_looked_for_first_beside_an_edge_card_the_camera_doubts(
    tmp_path: Path,
) -> None:
    # The camera doubts the edge cell Austro stands by when it saw him beside the grid but
    # could not be sure of him: "where is he?" offers that place right after the doubted
    # cards, not after every card of the grid.
    setup = Setup(2, Mode.STANDARD, (Spirit.AUSTRO, Spirit.ETESIA), seed=11)
    sim, _, _ = simulated(tmp_path, setup, seed=4, cheat_rate=0.0)
    while not (sim.referee.started and sim.referee.state.phase is Phase.TURN):
        sim.turn_step()
    state = sim.referee.state
    grid = tuple(state.island_at(c) for c in ALL_CELLS)
    seen = Observation(grid, uncertain=frozenset({(1, 1), (2, 4)}))
    pos = state.position_of(Spirit.AUSTRO)
    assert pos is not None and pos.cell not in {(0, 0), (2, 4)}
    places = sim.referee._where_pick(Spirit.AUSTRO, pos, seen).places
    beside = places.index(Position((2, 4), outside=True))
    cards = [i for i, p in enumerate(places) if not p.outside]
    doubted = [i for i in cards if places[i].cell in seen.uncertain]
    assert doubted and max(doubted) < beside < min(set(cards) - set(doubted))
    # (every other place beside the grid after the cards; none for another pawn)
    assert places.index(Position((0, 0), outside=True)) > max(cards)
    etesia = state.position_of(Spirit.ETESIA)
    assert etesia is not None
    assert not any(p.outside for p in sim.referee._where_pick(Spirit.ETESIA, etesia, seen).places)
