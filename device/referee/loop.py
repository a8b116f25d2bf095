"""The referee's state machine: setup, judging each still table, turns, storms, the end.

:class:`Referee` is the judge and nothing else: it takes readings and button presses and
answers with an :class:`Outcome`; it touches no hardware. Every change it accepts goes to
the :class:`~zefiria.device.referee.journal.Journal` *before* the outcome is returned, so
whatever the players have been told survives a power cut, and :meth:`Referee.resume`
rebuilds exactly the same game from the journal. The hardware side (camera, watcher,
buttons, screen) is :class:`zefiria.device.referee.session.Session`.

Journal events, in order: one ``start`` (the engine's game record of the setup: config,
seed and the grid read from the table), then ``action`` (notation text), ``undo`` and
``undo_turn``; ``saved`` once the finished game is in the history.
"""

from __future__ import annotations

import secrets
import time
import uuid
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from zefiria.engine.actions import (
    Action,
    ChooseFirst,
    ChooseSleeper,
    EndTurn,
    Leave,
    Place,
    Retrieve,
    Spend,
)
from zefiria.engine.deck import default_deck, load_deck
from zefiria.engine.differences import check_storm, table_differences
from zefiria.engine.errors import IllegalActionError, ZefiriaError
from zefiria.engine.explain import explain
from zefiria.engine.game import Game
from zefiria.engine.grid import ALL_CELLS, CORNERS, Cell, index, is_edge, nearest_edge_cells
from zefiria.engine.notation import describe_action, format_action, format_cell, parse_action
from zefiria.engine.observation import (
    Observation,
    ReadingError,
    observation_from_reading,
    observation_of,
)
from zefiria.engine.records import (
    GameRecord,
    dumps_record,
    record_from_json,
    record_to_json,
)
from zefiria.engine.rules import is_legal
from zefiria.engine.scoring import rating, score
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Difficulty, GameConfig, GameState, Mode, Phase, Position

from .confirm import fill, merge
from .history import FinishedGame, History
from .journal import Journal, JournalError
from .sentences import say_differences, say_refusal, say_storm, say_verdict
from .words import word

# Photos of a changed table with unread cards the referee asks for before it accepts the
# cheapest explanation of what it saw (and says which cards it did not see).
BLIND_LOOKS = 3
# Photos of the still table that must all find a move illegal before it is refused: a pawn
# misread in one photo (noise, glare) must not buzz at a player who moved legally.
CONFIRM_LOOKS = 2
# Photos in a row without seeing a pawn before the players are asked about it on the screen
# (a pawn hidden by a hand or glare for a photo or two comes back by itself).
UNSEEN_LOOKS = 3
# Photos of the layout in a row that leave cards unread before the players are asked which
# island lies on each (they straighten the cards in between).
LAYOUT_LOOKS = 4
# Photos of the still table in a row that show a hand over the cards before the screen says
# the camera may have moved instead: a camera knocked far on its mast (turned 10 degrees or
# more) leaves no card where calibration found it, and the reader, which can then measure
# nothing of the move, takes what covers the cards for a hand (docs/vision.md, "The camera
# moved"); a real hand is gone from the next photos.
HAND_LOOKS = 3
# The reader's reason for a hand over the cards (vision.hand.HAND_OVER), written again: its
# module brings OpenCV, which judging a table the camera did read, or `zefiria check`, does
# without (a test holds the two equal).
HAND_OVER = "hand or object over the cards"

OutcomeKind = Literal[
    "accepted",  # the change is legal: actions applied and journaled
    "refused",  # illegal: the table must be put back
    "unchanged",  # the table matches the game
    "restored",  # after a refusal or an instruction, the table matches the game again
    "waiting",  # the table is not yet as the device asked (a storm, a choice pending)
    "unreadable",  # the camera could not read the table (hand, glare...)
    "layout",  # setup: the grid was read and the game created
    "undone",
    "turn_ended",
    "over",  # the game has ended and is saved
]


@dataclass(frozen=True)
class Pick:
    """What the camera cannot tell and the players choose from a list.

    At setup, either which island lies on the layout card ``cell`` (``islands``: those not
    read elsewhere), or on which corner ``spirit``'s unseen pawn stands (``corners``: the free
    ones). In a turn, where ``spirit``'s unseen pawn stands when it is not where the game
    has it (``places``: the cards in doubt first, then the others).
    """

    question: str
    labels: tuple[str, ...]
    cell: Cell | None = None
    islands: tuple[int, ...] = ()
    spirit: Spirit | None = None
    corners: tuple[Cell, ...] = ()
    places: tuple[Position, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """What the referee decided, with the words to show and the cards to put back."""

    kind: OutcomeKind
    message: str
    actions: tuple[Action, ...] = ()
    cost: int = 0
    put_back: tuple[str, ...] = ()  # what the players must change on the table
    round_started: bool = False  # a new round began (a storm may have struck)
    score: int | None = None  # "over": the final score, and ``message`` its rating
    ap_left: int | None = None  # "accepted" in a turn: the mover's AP after the move
    # "unreadable" because these pawns cannot be seen; ``ask`` once it has lasted
    # UNSEEN_LOOKS photos: the screen asks the players, and OK answers "it is on its card".
    unseen: tuple[Spirit, ...] = ()
    ask: bool = False
    # "unreadable" with ``ask``: whether these cards carry a red gem decides the verdict and
    # the camera cannot tell (a pawn stands on the card, or the card was not read): OK
    # answers "no gem there", Undo "a gem lies there".
    gems: tuple[Cell, ...] = ()
    # "unreadable" with ``ask``: these cards stay unread after looking again: the players
    # straighten them, or OK answers "they did not move".
    cards: tuple[Cell, ...] = ()
    # "unreadable" with ``ask`` at setup: a list the players choose from with the buttons.
    pick: Pick | None = None
    # "unreadable" with ``ask`` about one unseen pawn in a turn: the list Hint opens when it
    # is neither where the game has it nor to be taken back ("where is it?").
    elsewhere: Pick | None = None
    # "unreadable" because of the camera itself, moved since calibration or out of focus:
    # nothing reads until the players act, so the screen tells them what to do (put it back
    # or calibrate again; wipe the lens or focus it). A hand over the cards is waited out.
    camera: bool = False


@dataclass(frozen=True)
class Setup:
    """What the setup menu decided: everything :func:`new_game` needs but the grid."""

    players: int
    mode: Mode
    spirits: tuple[Spirit, ...]
    difficulty: Difficulty | None = None
    lang: str = "en"
    seed: int = field(default_factory=lambda: secrets.randbits(32))
    deck: str | None = None  # a user's deck file; None: the default deck
    sleeper: Spirit | None = None

    def config(self) -> GameConfig:
        deck = load_deck(self.deck) if self.deck else default_deck()
        return GameConfig(
            players=self.players,
            mode=self.mode,
            spirits=self.spirits,
            difficulty=self.difficulty,
            deck=deck,
        )

    def record(self, grid: tuple[int, ...]) -> GameRecord:
        """The engine's game record of this setup on the grid read from the table."""
        return GameRecord.start(self.config(), seed=self.seed, grid=grid, sleeper=self.sleeper)

    @classmethod
    def from_record(cls, record: GameRecord, lang: str) -> Setup:
        config = record.config
        return cls(
            players=config.players,
            mode=config.mode,
            spirits=config.spirits,
            difficulty=config.difficulty,
            lang=lang,
            seed=record.seed,
            sleeper=record.sleeper if record.sleeper_chosen else None,
        )


class Referee:
    """One game, from the first reading of the layout to the saved score."""

    def __init__(self, setup: Setup, journal: Journal, history: History | None = None) -> None:
        self.setup = setup
        self.journal = journal
        self.history = history
        self.game: Game | None = None  # None until the layout has been read
        self.record: GameRecord | None = None  # the game's setup, as the engine records it
        self.game_id = uuid.uuid4().hex
        self.out_of_sync = False  # the table differs from the game (refusal, storm, undo)
        self.saved = False
        self._layout_seen: dict[int, int] = {}  # cards of the layout read for sure so far
        self._hand_looks = 0  # photos in a row with a hand over the cards
        self._layout_said: dict[int, int] = {}  # cards of the layout the players named
        self._layout_looks = 0  # layout photos in a row that left cards unread
        self._setup_looks = 0  # setup photos in a row without the next pawn on a corner
        self._seen: Observation | None = None  # this still table, merged over its photos
        self._blind_looks = 0  # photos asked for because cards were not read for sure
        self._confirm_looks = 0  # photos asked for before refusing a move
        self._unseen_looks = 0  # photos in a row missing a pawn of the game
        self._vouched: frozenset[Spirit] = frozenset()  # unseen pawns the players vouched for
        self._placed: dict[Spirit, Position] = {}  # unseen pawns the players said stand there
        # Cards the players said carry no red gem / carry one, when the camera could not tell.
        self._gems_gone: frozenset[Cell] = frozenset()
        self._gems_kept: frozenset[Cell] = frozenset()
        self._cards_vouched: frozenset[Cell] = frozenset()  # "those cards did not move"

    # -- starting and resuming ----------------------------------------------------------
    @classmethod
    def resume(cls, journal: Journal, history: History | None = None) -> Referee | None:
        """The game the journal holds, replayed exactly; None when it holds none.

        Raises :class:`JournalError` when an event cannot be replayed: the file is then
        damaged beyond a power cut, and the caller sets it aside.
        """
        events = journal.events
        if not events:
            return None
        first = events[0]
        where = f"{journal.path}"
        if first.get("kind") != "start":
            raise JournalError(f"{where}, line 1: a journal starts with the game's setup")
        try:
            record = record_from_json(first["game"], source=f"{where}, line 1")
            referee = cls(Setup.from_record(record, str(first.get("lang", "en"))), journal, history)
            referee.game_id = str(first["id"])
            referee.record = record
            referee.game = Game(record.initial_state())
        except (KeyError, TypeError, ValueError) as exc:
            raise JournalError(f"{where}, line 1: unusable game setup: {exc}") from None
        for number, event in enumerate(events[1:], start=2):
            try:
                referee._replay(event)
            except (KeyError, TypeError, ValueError, IndexError) as exc:
                problem = f"{where}, line {number}: cannot replay {event}: {exc}"
                raise JournalError(problem) from None
        # The table may have been changed while the power was off: check before judging.
        referee.out_of_sync = True
        return referee

    def _replay(self, event: dict[str, Any]) -> None:
        game = self._game()
        kind = event["kind"]
        if kind == "action":
            game.push(parse_action(str(event["action"])))
        elif kind == "undo":
            game.undo()
        elif kind == "undo_turn":
            game.undo_turn()
        elif kind == "saved":
            self.saved = True
        else:
            raise ValueError(f"unknown event kind {kind!r}")

    def _w(self, key: str, **values: object) -> str:
        return word(self.setup.lang, key, **values)

    def _refusal(self, exc: IllegalActionError) -> str:
        return say_refusal(exc.wording, exc.message, self.setup.lang)

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("the game has not started: the layout was not read yet")
        return self.game

    @property
    def started(self) -> bool:
        return self.game is not None

    @property
    def state(self) -> GameState:
        return self._game().state

    @property
    def over(self) -> bool:
        return self.game is not None and self.state.phase is Phase.OVER

    # -- judging the table ----------------------------------------------------------------
    def judge(self, reading: dict[str, Any]) -> Outcome:
        """Judge one reading (the JSON form of the reading contract)."""
        hands, self._hand_looks = self._hand_looks, 0
        if reading.get("status") != "ok":
            reason = str(reading.get("reason") or "the table cannot be read")
            # (imported here: the vision package brings OpenCV, which judging a table the
            # camera did read, or `zefiria check`, does without)
            from zefiria.vision.bare_table import VIEW_LOST
            from zefiria.vision.camera_drift import CAMERA_MOVED
            from zefiria.vision.focus import OUT_OF_FOCUS
            from zefiria.vision.reader import WASHED_OUT

            # (no hand to wait out: nothing will read until the players act)
            for said, words in (
                (CAMERA_MOVED, "camera_moved"),
                (OUT_OF_FOCUS, "blurred"),
                (VIEW_LOST, "view_lost"),
                (WASHED_OUT, "washed_out"),
            ):
                if reason.startswith(said):
                    return Outcome("unreadable", self._w(words), camera=True)
            if reason.startswith(HAND_OVER):
                return self._hand_over(hands, reason)
            return Outcome("unreadable", reason)
        if reading.get("hand") is not None:
            # Someone is acting: the cards left visible are read, but the table is judged
            # once the hand is gone.
            return self._hand_over(hands, HAND_OVER)
        if self.game is None:
            return self._read_layout(reading)
        state = self.state
        if state.phase is Phase.OVER:
            return Outcome("over", self._w("game_over"))
        if state.phase is Phase.SETUP:
            return self._judge_setup(reading)
        try:
            playing = {**reading, "pawns": self._with_vouched(_playing_pawns(reading, state))}
            if state.config.mode is Mode.STANDARD:
                playing["gems"] = []  # no red gem is in play: whatever looks like one is not
            # The players' word is about the table as it is now, so it goes into this photo
            # before the older photos fill its gaps: a card an older photo read where the
            # players have since put it back (a move taken back) then yields to it.
            photo = self._with_vouched_cards(observation_from_reading(playing))
            observation = merge(self._seen, photo, state.grid)
        except ReadingError as exc:
            return Outcome("unreadable", str(exc))
        self._seen = observation
        observation = self._with_said_gems(observation)
        if state.phase not in (Phase.TURN, Phase.AUSTRO_EXIT):
            # A solo choice is made with the buttons: the table must simply stay as it is.
            return self._compare(state, observation, self._w("choose_first"))
        verdict = explain(state, observation)
        blind = sorted(observation.wildcards)
        if blind and verdict.kind != "illegal" and self._blind_looks < BLIND_LOOKS:
            # The watcher saw something change; cards the camera did not see may be part of
            # it (two unread cards swapped look like no change at all): look again first.
            self._blind_looks += 1
            where = ", ".join(format_cell(c) for c in blind)
            return Outcome("unreadable", self._w("unsure", where=where))
        unseen = tuple(s for s in state.spirits if s not in observation.pawns)
        if unseen:
            # A pawn the camera missed is a wildcard to the explainer, so a Fly would read as
            # no change at all, and a legal Fly the camera half saw can look illegal (the pawn
            # "missing" from its card): never judge a turn without seeing every pawn.
            return self._pawns_unseen(unseen, observation)
        if blind and verdict.kind != "illegal":
            # Still unread after looking again: any arrangement of the unread cards may be on
            # the table, an illegal one included (two cards swapped against the rules and
            # both unread look like no change at all), so the players say.
            return self._ask_cards(tuple(blind))
        if verdict.kind == "unchanged":
            return self._in_sync()
        if verdict.kind in ("legal", "ambiguous") and verdict.best is not None:
            hidden = self._gems_maybe_hidden(verdict.best.actions, observation)
            if hidden:
                return self._ask_gems(hidden, "gem_taken_ask")
            # Cheapest first: the players pay the least the rules allow for what they did
            # (Undo is there when they meant a dearer explanation).
            return self._accept(verdict.best.actions, verdict.best.cost, observation)
        if self._confirm_looks < CONFIRM_LOOKS:
            self._confirm_looks += 1
            self._seen = None  # judge the next photo on its own
            return Outcome("unreadable", self._w("checking"))
        fringe = self._gems_maybe_fringe(state, observation)
        if fringe:
            return self._ask_gems(fringe, "gem_there_ask")
        self._forget_looks()  # the players will put things back: a new table to look at
        storm = check_storm(state, observation) if state.last_storm is not None else None
        if storm is not None and storm.kind == "pending":
            self.out_of_sync = True
            todo = say_storm(storm, state, self.setup.lang)
            return Outcome("waiting", todo, put_back=(todo,))
        self.out_of_sync = True
        todo = say_differences(verdict.differences, state, self.setup.lang)
        message = say_verdict(verdict, state, self.setup.lang)
        return Outcome("refused", message or todo, put_back=(todo,) if todo else ())

    def _pawns_unseen(self, unseen: tuple[Spirit, ...], observation: Observation) -> Outcome:
        self._unseen_looks += 1
        names = ", ".join(s.title for s in unseen)
        if self._unseen_looks < UNSEEN_LOOKS:
            return Outcome("unreadable", self._w("pawn_unseen", names=names), unseen=unseen)
        if len(unseen) == 1:
            spirit = unseen[0]
            pos = self.state.position_of(spirit)
            assert pos is not None  # in a turn every pawn of the game stands somewhere
            key = "pawn_ask_beside" if pos.outside else "pawn_ask"
            island = self.state.island_at(pos.cell)
            ask = self._w(key, name=spirit.title, island=island)
            # A pawn that flew where the camera cannot see it is neither on its card nor to
            # be taken back: Hint lists where it may be, and the players say.
            elsewhere = self._where_pick(spirit, pos, observation)
            return Outcome("unreadable", ask, unseen=unseen, ask=True, elsewhere=elsewhere)
        ask = self._w("pawns_ask", names=names)
        return Outcome("unreadable", ask, unseen=unseen, ask=True)

    def _where_pick(self, spirit: Spirit, pos: Position, observation: Observation) -> Pick:
        """Where ``spirit``'s unseen pawn may stand: the cards the camera has doubts about
        first (something it could not name may be the pawn), and for Austro the places
        beside those of them on the edge (the camera doubts the edge cell he stands by when
        it saw him there but could not be sure); then every other free card and, for
        Austro, every other place beside the grid."""
        state = self.state
        taken = {p.cell for s, p in observation.pawns.items() if s is not spirit and not p.outside}
        doubtful = [c for c in ALL_CELLS if c in observation.uncertain]
        beside = (
            [Position(c, outside=True) for c in ALL_CELLS if is_edge(c)]
            if spirit is Spirit.AUSTRO
            else []
        )
        places = [Position(c) for c in doubtful if c not in taken]
        places += [p for p in beside if p.cell in observation.uncertain]
        places += [Position(c) for c in ALL_CELLS if c not in taken and c not in doubtful]
        places += [p for p in beside if p.cell not in observation.uncertain]
        places = [p for p in places if p != pos]
        labels = tuple(
            self._w("place_beside", where=format_cell(p.cell), island=state.island_at(p.cell))
            if p.outside
            else f"{format_cell(p.cell)} ({state.island_at(p.cell)})"
            for p in places
        )
        question = self._w("pawn_where", name=spirit.title)
        return Pick(question, labels, spirit=spirit, places=tuple(places))

    def vouch_unseen(self, spirits: tuple[Spirit, ...]) -> None:
        """The players say these unseen pawns stand where the game has them.

        Until the next verdict the referee reads them there: the camera's silence on them is
        filled with the game's own places (never guessed: the screen named the card).
        Lasts one verdict, so a pawn lost again later is asked about again.
        """
        self._vouched = self._vouched | frozenset(spirits)

    def _with_vouched(self, pawns: dict[str, Any]) -> dict[str, Any]:
        if not (self._vouched or self._placed) or not isinstance(pawns, dict):
            return pawns
        state = self.state
        said = {s: state.position_of(s) for s in self._vouched}
        filled = dict(pawns)
        for spirit, pos in {**said, **self._placed}.items():
            if spirit.value not in filled and pos is not None:
                filled[spirit.value] = {"outside" if pos.outside else "cell": list(pos.cell)}
        return filled

    def _ask_cards(self, cells: tuple[Cell, ...]) -> Outcome:
        where = ", ".join(format_cell(c) for c in cells)
        return Outcome("unreadable", self._w("cards_ask", where=where), cards=cells, ask=True)

    def vouch_cards(self, cells: tuple[Cell, ...]) -> None:
        """The players say these unread cards did not move: read them as the game has them.

        Lasts until the next verdict. Ignored when the cards the photo reads for sure
        contradict it (an island of the game's at these cells is seen elsewhere).
        """
        self._cards_vouched = self._cards_vouched | frozenset(cells)

    def _with_vouched_cards(self, observation: Observation) -> Observation:
        cells = self._cards_vouched & observation.wildcards
        if not cells:
            return observation
        state = self.state
        theirs = {c: state.island_at(c) for c in cells}
        seen_elsewhere = {
            observation.grid[index(c)] for c in ALL_CELLS if c not in observation.wildcards
        }
        if seen_elsewhere & set(theirs.values()):
            return observation
        gems = (observation.gems - cells) | (cells & set(state.anchored))
        return replace(fill(observation, theirs), gems=gems)

    def _gems_maybe_hidden(
        self, actions: tuple[Action, ...], observation: Observation
    ) -> tuple[Cell, ...]:
        """Gems the explanation takes that the camera could not have seen go.

        A pawn flown onto an anchored card may stand on its gem: the photo then shows no gem
        there, which the cheapest explanation reads as "retrieved, then flown there" (legal)
        when the player broke the anchor. No camera can tell these apart, so the players say
        which it was. (Cards not read for sure never get this far: they are asked about.)
        """
        under_pawns = _under_pawns(observation)
        hidden = {
            a.cell
            for a in actions
            if isinstance(a, Retrieve) and a.cell not in self._gems_gone and a.cell in under_pawns
        }
        return tuple(sorted(hidden))

    def _gems_maybe_fringe(self, state: GameState, observation: Observation) -> tuple[Cell, ...]:
        """Gems seen under pawns, not in the game, without which the change would be legal.

        A pawn's reddish fringe or shadow on its card can pass for a gem (a spirit landing on
        the card whose gem was just retrieved): asked about before a legal move is refused.
        """
        doubtful = (observation.gems & _under_pawns(observation)) - set(state.anchored)
        doubtful -= self._gems_kept
        if not doubtful:
            return ()
        without = replace(observation, gems=observation.gems - doubtful)
        if explain(state, without).kind == "illegal":
            return ()
        return tuple(sorted(doubtful))

    def _ask_gems(self, cells: tuple[Cell, ...], key: str) -> Outcome:
        state = self.state
        islands = ", ".join(str(state.island_at(c)) for c in cells)
        return Outcome("unreadable", self._w(key, islands=islands), gems=cells, ask=True)

    def say_no_gems(self, cells: tuple[Cell, ...]) -> None:
        """The players say these cards carry no red gem (taken, or never there)."""
        self._gems_gone = self._gems_gone | frozenset(cells)
        self._gems_kept = self._gems_kept - frozenset(cells)

    def say_gems_there(self, cells: tuple[Cell, ...]) -> None:
        """The players say a red gem lies on each of these cards: read them there.

        The next photos are judged afresh with the gems in place, so a pawn standing on one
        is a Fly onto an anchored card, refused like any illegal move.
        """
        self._gems_kept = self._gems_kept | frozenset(cells)
        self._gems_gone = self._gems_gone - frozenset(cells)
        self._seen = None

    def _with_said_gems(self, observation: Observation) -> Observation:
        gone, kept = self._gems_gone, self._gems_kept
        if not gone and not kept:
            return observation
        # The players' word settles the gem; a card read for sure is no longer in doubt.
        said = gone | kept
        sure = {c for c in said if observation.grid[index(c)] is not None}
        gems = (observation.gems - gone) | kept
        return replace(observation, gems=gems, uncertain=observation.uncertain - sure)

    def table_disturbed(self) -> None:
        """The table was used for something else (a calibration): check it before judging."""
        self._forget_looks()
        self.out_of_sync = True

    def _hand_over(self, hands: int, reason: str) -> Outcome:
        """A photo with a hand over the cards, the ``hands`` + 1st in a row: wait for it to
        go, or from the ``HAND_LOOKS``th say that if no hand is there the camera moved."""
        self._hand_looks = hands + 1
        if self._hand_looks >= HAND_LOOKS:
            return Outcome("unreadable", self._w("hand_stays"), camera=True)
        return Outcome("unreadable", reason)

    def _forget_looks(self) -> None:
        """A verdict was given: the next change starts with fresh doubts."""
        self._seen = None
        self._blind_looks = 0
        self._confirm_looks = 0
        self._unseen_looks = 0
        self._vouched = frozenset()
        self._placed = {}
        self._gems_gone = frozenset()
        self._gems_kept = frozenset()
        self._cards_vouched = frozenset()

    def _in_sync(self) -> Outcome:
        self._forget_looks()
        if self.out_of_sync:
            self.out_of_sync = False
            return Outcome("restored", self._w("right_again"))
        return Outcome("unchanged", self._w("no_change"))

    def _compare(self, state: GameState, observation: Observation, note: str) -> Outcome:
        diffs = table_differences(state, observation)
        if not diffs:
            return self._in_sync()
        self.out_of_sync = True
        todo = say_differences(diffs, state, self.setup.lang)
        return Outcome("waiting", f"{note}: {todo}", put_back=(todo,))

    def _read_layout(self, reading: dict[str, Any]) -> Outcome:
        rows = reading.get("grid") or []
        cells = [v for row in rows for v in row]
        if len(cells) != 25:
            return Outcome("unreadable", "no grid of 25 cards in the reading")
        grid, missing = self._layout_from(cells, reading.get("uncertain") or [])
        if grid is None:
            self._layout_looks += 1
            if self._layout_looks >= LAYOUT_LOOKS:
                return self._ask_island()
            return Outcome("unreadable", self._w("not_read", n=missing))
        try:
            record = self.setup.record(grid)
        except ZefiriaError as exc:
            return Outcome("refused", self._w("bad_layout", why=exc))
        start = {"kind": "start", "id": self.game_id, "lang": self.setup.lang}
        self.journal.append({**start, "game": record_to_json(record)})
        self.record = record
        self.game = Game(record.initial_state())
        outcome = self._judge_setup(reading)
        if outcome.kind == "accepted":
            return outcome
        return Outcome("layout", self._w("layout"))

    def _ask_island(self) -> Outcome:
        """Ask the players which island lies on the first card still unread.

        Look-alike cards (two islands whose prints differ by little more than their number)
        may never be told apart for sure; the players read the number on the card.
        """
        known = {**self._layout_seen, **self._layout_said}
        unread = [i for i in range(25) if i not in known]
        left = tuple(sorted(set(range(1, 26)) - set(known.values())))
        cell = divmod(unread[0], 5)
        question = self._w("which_island", where=format_cell(cell))
        pick = Pick(question, tuple(str(i) for i in left), cell=cell, islands=left)
        return Outcome("unreadable", question, ask=True, pick=pick)

    def answer_pick(self, pick: Pick, choice: int) -> Outcome | None:
        """The players chose item ``choice`` of ``pick``; an outcome when that decided one."""
        if pick.places:
            # "Where is Borea's pawn?": read it there until the next verdict (as OK reads it
            # on its own card), so the move that took it there is judged like any other.
            assert pick.spirit is not None
            if self.started and self.state.phase in (Phase.TURN, Phase.AUSTRO_EXIT):
                self._placed = {**self._placed, pick.spirit: pick.places[choice]}
            return None
        if pick.cell is not None:
            self.say_island(pick.cell, pick.islands[choice])
            return None
        assert pick.spirit is not None
        state = self.state
        if state.phase is not Phase.SETUP or state.active_spirit is not pick.spirit:
            return None  # the camera saw the pawn meanwhile: the question is stale
        place = Place(pick.corners[choice])
        try:
            self._push(place)
        except IllegalActionError as exc:
            return Outcome("refused", self._refusal(exc))
        self._setup_looks = 0
        return Outcome("accepted", self._w("pawns_placed"), actions=(place,))

    def _ask_corner(self) -> Outcome:
        state = self.state
        spirit = state.active_spirit
        taken = state.occupied_cells()
        corners = tuple(c for c in CORNERS if c not in taken)
        labels = tuple(f"{format_cell(c)} ({state.island_at(c)})" for c in corners)
        question = self._w("which_corner", name=spirit.title)
        pick = Pick(question, labels, spirit=spirit, corners=corners)
        return Outcome("unreadable", question, ask=True, pick=pick)

    def say_island(self, cell: Cell, island: int) -> None:
        """The players say which island lies on an unread card of the layout."""
        self._layout_said[index(cell)] = island

    def _layout_from(
        self, cells: list[Any], uncertain: list[Any]
    ) -> tuple[tuple[int, ...] | None, int]:
        """The starting grid once every card has been read for sure, and how many are not.

        The starting grid is the one thing never to guess, and a photo may leave a card or
        two in doubt. Each photo of the layout (the players straighten the cards in between)
        adds the cards it read for sure; a card read as two different islands, or an island
        read in two places, means the layout changed: start over from this photo.
        """
        doubtful = {(int(c[0]), int(c[1])) for c in uncertain}
        sure = {
            i: int(v) for i, v in enumerate(cells) if v is not None and divmod(i, 5) not in doubtful
        }
        known = self._layout_seen
        merged = {**known, **sure}
        conflict = any(known.get(i, v) != v for i, v in sure.items())
        if conflict or len(set(merged.values())) != len(merged):
            merged = sure
        self._layout_seen = merged
        # The players' word fills what the camera did not read; a card read for sure since
        # (or an island seen elsewhere) overrules it.
        said = {i: v for i, v in self._layout_said.items() if i not in merged}
        said = {i: v for i, v in said.items() if v not in merged.values()}
        if len(set(said.values())) == len(said):
            merged = {**merged, **said}
        if len(merged) == 24:  # the last card is the one island not seen elsewhere
            (cell,) = set(range(25)) - set(merged)
            (island,) = set(range(1, 26)) - set(merged.values())
            merged = {**merged, cell: island}
        if len(merged) < 25:
            return None, 25 - len(merged)
        return tuple(merged[i] for i in range(25)), 0

    def _judge_setup(self, reading: dict[str, Any]) -> Outcome:
        """Setup: pawns go on corners in turn order; each one seen there is a Place."""
        game = self._game()
        seen: dict[Spirit, tuple[int, int]] = {}
        for name, where in _playing_pawns(reading, game.state).items():
            spirit = Spirit(name)
            if "cell" in where:
                seen[spirit] = (int(where["cell"][0]), int(where["cell"][1]))
            else:
                return Outcome("refused", self._w("on_a_corner", who=spirit.title))
        for spirit, cell in seen.items():
            if cell not in CORNERS:
                where = format_cell(cell)
                return Outcome("refused", self._w("not_a_corner", who=spirit.title, where=where))
        placed: list[Action] = []
        while game.state.phase is Phase.SETUP:
            corner = seen.get(game.state.active_spirit)
            if corner is None:
                break
            action = Place(corner)
            try:
                self._push(action)
            except IllegalActionError as exc:
                self.out_of_sync = True
                todo = self._w("another_corner", who=game.state.active_spirit.title)
                return Outcome("refused", self._refusal(exc), put_back=(todo,))
            placed.append(action)
        if not placed:
            # A pawn put on its corner but never seen there: after a few photos the players
            # say which corner (a pawn not yet put down keeps the screen asking, harmlessly).
            self._setup_looks += 1
            if self._setup_looks >= UNSEEN_LOOKS + 1:
                return self._ask_corner()
            return Outcome("unchanged", self._w("pawns_wanted"))
        self._setup_looks = 0
        return Outcome("accepted", self._w("pawns_placed"), actions=tuple(placed))

    def _accept(self, actions: tuple[Action, ...], cost: int, observation: Observation) -> Outcome:
        before = self.state
        texts = []
        for action in actions:
            texts.append(describe_action(action, self.state, lang=self.setup.lang))
            self._push(action)
        after = self.state
        round_started = after.round != before.round
        todo = self._instructions(before, observation)
        self._forget_looks()
        same_turn = (after.round, after.active, after.turns_done) == (
            before.round,
            before.active,
            before.turns_done,
        )
        return Outcome(
            "accepted",
            "; ".join(texts),
            actions=actions,
            cost=cost,
            put_back=(todo,) if todo else (),
            round_started=round_started,
            ap_left=after.ap if same_turn else 0,  # the turn ended: nothing left
        )

    def _instructions(self, before: GameState, observation: Observation) -> str:
        """What the players must now change on the table, which showed ``observation``.

        Automatic consequences of what was just accepted (Austro stepping off or onto his
        card, a storm at round start) or of an undo are for the players to copy onto the
        table; until they do, the table and the game differ.
        """
        after = self.state
        if after.round != before.round and after.last_storm is not None:
            storm = check_storm(after, observation)
            todo = "" if storm.kind == "done" else say_storm(storm, after, self.setup.lang)
        else:
            diffs = table_differences(after, observation)
            todo = say_differences(diffs, after, self.setup.lang)
        self.out_of_sync = bool(todo)
        return todo

    def _push(self, action: Action) -> None:
        """Apply ``action`` (raises IllegalActionError) and journal it before anyone sees it."""
        game = self._game()
        game.push(action)
        try:
            self.journal.append({"kind": "action", "action": format_action(action)})
        except OSError:
            # Not on disk means not accepted: the game must not run ahead of its journal.
            game.undo()
            raise

    # -- buttons --------------------------------------------------------------------------
    def undo(self) -> Outcome:
        game = self._game()
        if not game.actions or game.state.phase is Phase.OVER:
            return Outcome("refused", self._w("nothing_to_undo"))
        before = game.state
        last = game.undo()
        self.journal.append({"kind": "undo"})
        self._forget_looks()
        text = describe_action(last, game.state, lang=self.setup.lang)
        todo = self._instructions(before, observation_of(before))
        return Outcome(
            "undone",
            self._w("undone", what=text),
            actions=(last,),
            put_back=(todo,) if todo else (),
        )

    def undo_turn(self) -> Outcome:
        """Take back every action of the current turn (the menu's "undo the whole turn")."""
        game = self._game()
        before = game.state
        undone = game.undo_turn()
        if not undone:
            return Outcome("refused", self._w("nothing_to_undo"))
        self.journal.append({"kind": "undo_turn"})
        self._forget_looks()
        todo = self._instructions(before, observation_of(before))
        who = game.state.active_spirit.title
        text = self._w("undone_turn", n=len(undone), who=who)
        return Outcome("undone", text, actions=tuple(undone), put_back=(todo,) if todo else ())

    def end_turn(self) -> Outcome:
        state = self.state
        if state.phase is not Phase.TURN or not is_legal(state, EndTurn()):
            return Outcome("refused", self._w("cannot_end"))
        who = state.active_spirit.title
        self._push(EndTurn())
        todo = self._instructions(state, observation_of(state))
        return Outcome(
            "turn_ended",
            self._w("turn_over", who=who),
            actions=(EndTurn(),),
            put_back=(todo,) if todo else (),
            round_started=self.state.round != state.round,
        )

    def choices(self) -> tuple[str, tuple[Action, ...]]:
        """The question the players must answer with the buttons now, and its options.

        Empty when nothing is asked: solo first spirit and sleeper, Austro's exit side.
        """
        if self.game is None:
            return "", ()
        state = self.state
        if state.phase is Phase.CHOOSE_FIRST:
            awake = tuple(ChooseFirst(s) for s in state.spirits if s is not state.sleeping)
            return self._w("first"), awake
        if state.phase is Phase.CHOOSE_SLEEPER:
            return self._w("sleeper"), tuple(ChooseSleeper(s) for s in state.played)
        if state.phase is Phase.AUSTRO_EXIT:
            pos = state.pawns[state.active]
            assert pos is not None
            return self._w("austro_exit"), tuple(Leave(c) for c in nearest_edge_cells(pos.cell))
        return "", ()

    def spend_options(self) -> tuple[Spend, ...]:
        """Gems the players hold that could be spent now (+1 AP for the active spirit)."""
        if self.game is None or self.state.phase is not Phase.TURN:
            return ()
        return tuple(Spend(s) for s in self.state.spirits if is_legal(self.state, Spend(s)))

    def choose(self, action: Action) -> Outcome:
        """A button choice (solo choices, Austro's exit, spending a gem)."""
        before = self.state
        try:
            self._push(action)
        except IllegalActionError as exc:
            return Outcome("refused", self._refusal(exc))
        text = describe_action(action, before, lang=self.setup.lang)
        todo = self._instructions(before, observation_of(before))
        return Outcome(
            "accepted",
            text,
            actions=(action,),
            put_back=(todo,) if todo else (),
            round_started=self.state.round != before.round,
        )

    # -- the end ----------------------------------------------------------------------------
    def finish(self) -> Outcome:
        """Score the finished game, save it to the history once, and close the journal."""
        state = self.state
        result = score(state)
        total = int(result.total)
        words = rating(total, self.setup.lang)
        if self.history is not None and not self.saved:
            self.history.add(self.finished_game(total, words))
        if not self.saved:
            self.journal.append({"kind": "saved"})
            self.saved = True
        return Outcome("over", words, score=total)

    def finished_game(self, total: int, words: str) -> FinishedGame:
        state = self.state
        assert self.record is not None
        record = self.record.with_actions(self._game().actions, final=state)
        return FinishedGame(
            id=self.game_id,
            finished_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            players=state.config.players,
            spirits=tuple(s.value for s in state.spirits),
            mode=state.config.mode.value,
            difficulty=None if state.config.difficulty is None else state.config.difficulty.value,
            score=total,
            rating=words,
            record=dumps_record(record),
        )


def _under_pawns(observation: Observation) -> set[Cell]:
    """Cards a pawn stands on: the camera cannot be sure of a gem there, either way."""
    return {p.cell for p in observation.pawns.values() if not p.outside}


def _playing_pawns(reading: dict[str, Any], state: GameState) -> dict[str, Any]:
    """The reading's pawns of the spirits in this game.

    The other pawns stay in the box and no rule looks at them, so a pawn the camera reports
    for a spirit that does not play (left on the table, or a misreading) changes nothing.
    """
    names = {s.value for s in state.spirits}
    pawns = reading.get("pawns") or {}
    if not isinstance(pawns, dict):
        return pawns  # type: ignore[no-any-return]  # malformed: the reading check says so
    return {name: where for name, where in pawns.items() if str(name).lower() in names}


def open_referee(
    journal_path: Path, history: History | None, setup: Setup | None
) -> tuple[Referee | None, str]:
    """Resume the journal's game, or start ``setup``'s; a damaged journal is set aside.

    Returns the referee (None when there is nothing to resume and no setup) and a message
    for the screen and the log.
    """
    from .journal import set_aside_damaged

    try:
        journal = Journal.open(journal_path)
        referee = Referee.resume(journal, history)
    except JournalError as exc:
        kept = set_aside_damaged(journal_path)
        journal = Journal.open(journal_path)
        note = f"journal damaged ({exc}); kept as {kept}, starting a new game"
        return (Referee(setup, journal, history) if setup else None), note
    if referee is not None:
        if referee.saved:
            journal.set_aside("finished")
        else:
            return referee, f"resumed the game at round {referee.state.round}"
    if setup is None:
        return None, "no game to resume"
    return Referee(setup, journal, history), "new game"
