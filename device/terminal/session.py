"""The terminal game's loop: read a line, act on it, show what changed.

Input comes through a ``read(prompt) -> str | None`` function (``None`` at end of input), so
the same loop serves a person at a keyboard and a script piping lines in (the tests drive
whole games that way). Nothing a player types can crash the loop or half-change the game:
the engine refuses bad actions whole, and every refusal is shown as a sentence.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from zefiria.engine.actions import Action, Spend
from zefiria.engine.errors import IllegalActionError, InvalidActionError
from zefiria.engine.game import Game, NothingToUndoError
from zefiria.engine.notation import describe_action, format_action, format_cell, parse_action
from zefiria.engine.records import GameRecord, dumps_record, dumps_state
from zefiria.engine.scoring import rating, score
from zefiria.engine.state import GameState, Phase

from .board import render_board, status_line, storm_report
from .texts import text

Reader = Callable[[str], str | None]

QUIT = ("quit", "exit", "q")
HELP = ("?", "help", "h")
BOARD = ("board", "show")


class Session:
    """One game in the terminal. :meth:`run` returns the process exit code."""

    def __init__(
        self,
        game: Game,
        *,
        record: GameRecord | None,
        read: Reader,
        out: TextIO,
        lang: str = "en",
        color: bool = False,
    ) -> None:
        self.game = game
        # The record holds the seed and setup; without one (resumed from a bare state) a
        # save writes the current state instead of the whole game.
        self.record = record
        self.read = read
        self.out = out
        self.lang = lang
        self.color = color

    # -- output ---------------------------------------------------------------------------
    def say(self, line: str = "") -> None:
        print(line, file=self.out)

    def t(self, key: str, **values: object) -> str:
        return text(self.lang, key, **values)

    def show(self) -> None:
        state = self.game.state
        self.say(render_board(state, color=self.color))
        self.say(status_line(state, self.lang))
        for hint in self.hints(state):
            self.say(hint)

    def hints(self, state: GameState) -> list[str]:
        """What the active player must do now, when it is not the usual turn."""
        options = ", ".join(format_action(p.action) for p in self.game.legal_actions())
        who = state.active_spirit.title
        if state.phase is Phase.SETUP:
            return [self.t("phase_setup", who=who, options=options)]
        if state.phase is Phase.CHOOSE_FIRST:
            return [self.t("phase_choose_first", options=options)]
        if state.phase is Phase.CHOOSE_SLEEPER:
            return [self.t("phase_choose_sleeper", options=options)]
        if state.phase is Phase.AUSTRO_EXIT:
            return [self.t("phase_austro_exit", options=options)]
        out: list[str] = []
        pos = state.pawns[state.active]
        if state.phase is Phase.TURN and pos is not None and pos.outside:
            out.append(
                self.t(
                    "outside",
                    who=who,
                    cell=format_cell(pos.cell),
                    island=state.island_at(pos.cell),
                )
            )
        if state.phase is Phase.TURN and state.must_leave:
            out.append(self.t("must_leave", who=who))
        return out

    def show_legal(self) -> None:
        self.say(self.t("legal"))
        items = []
        for action, cost in self.game.legal_actions():
            price = "+1" if isinstance(action, Spend) else str(cost)
            items.append(f"{format_action(action)} ({price})")
        width = max((len(i) for i in items), default=0) + 2
        per_line = max(1, 78 // width)
        for start in range(0, len(items), per_line):
            row = "".join(i.ljust(width) for i in items[start : start + per_line])
            self.say(("  " + row).rstrip())
        self.say(self.t("commands"))

    def report(self, before: GameState, after: GameState) -> None:
        """Headers for what an action started: a round (and its storm), a turn."""
        if after.round != before.round and after.phase is not Phase.OVER:
            self.say(self.t("new_round", round=after.round, rounds=after.config.purple_gems))
            if after.last_storm is not None and after.last_storm != before.last_storm:
                for line in storm_report(after.last_storm, after, self.lang):
                    self.say(line)
        new_turn = (after.active, after.turns_done, after.round) != (
            before.active,
            before.turns_done,
            before.round,
        ) or before.phase is not Phase.TURN
        if after.phase is Phase.TURN and new_turn:
            self.say(self.t("new_turn", who=after.active_spirit.title, ap=after.ap))

    # -- the loop ---------------------------------------------------------------------------
    def run(self) -> int:
        if self.record is not None:
            self.say(self.t("seed", seed=self.record.seed))
        self.say(self.t("commands"))
        self.show()
        while not self.game.is_over:
            line = self.read(self.prompt())
            if line is None:
                self.say(self.t("eof"))
                return 1
            command = " ".join(line.lower().split())
            if not command:
                continue
            if command in QUIT:
                self.say(self.t("bye"))
                return 0
            if command in HELP:
                self.show_legal()
            elif command in BOARD:
                self.show()
            elif command == "undo":
                self.undo()
            elif command == "undo turn":
                self.undo_turn()
            elif command == "save" or command.startswith("save "):
                self.save(line.strip()[4:].strip())
            else:
                self.play(line.strip())
        self.finish()
        return 0

    def prompt(self) -> str:
        state = self.game.state
        who = state.active_spirit.title
        if state.phase is Phase.TURN:
            return f"{who} [{self.t('ap', n=state.ap)}]> "
        return f"{who}> "

    def play(self, line: str) -> None:
        before = self.game.state
        try:
            action = parse_action(line, before)
        except InvalidActionError as exc:
            self.say(self.t("bad", text=str(exc)))
            return
        try:
            after = self.game.push(action)
        except IllegalActionError as exc:
            self.say(self.t("refused", text=exc.message))
            return
        self.say(describe_action(action, before, lang=self.lang))
        self.report(before, after)
        if not self.game.is_over:
            self.show()

    def undo(self) -> None:
        try:
            action = self.game.undo()
        except NothingToUndoError:
            self.say(self.t("nothing_to_undo"))
            return
        self.say(self.t("undone", what=format_action(action)))
        self.show()

    def undo_turn(self) -> None:
        undone: list[Action] = self.game.undo_turn()
        if not undone:
            self.say(self.t("nothing_to_undo_turn"))
            return
        self.say(self.t("undone", what=", ".join(format_action(a) for a in undone)))
        self.show()

    def save(self, name: str) -> None:
        if not name:
            self.say(self.t("save_usage"))
            return
        path = Path(name).expanduser()
        if self.record is not None:
            document = dumps_record(self.record.with_actions(self.game.actions, self.game.state))
        else:
            document = dumps_state(self.game.state)
        try:
            write_atomically(path, document)
        except OSError as exc:
            self.say(self.t("save_failed", path=path, why=exc.strerror or exc))
            return
        self.say(self.t("saved", path=path))

    def finish(self) -> None:
        state = self.game.state
        self.say(self.t("over"))
        self.say(render_board(state, color=self.color))
        result = score(state)
        self.say(
            self.t(
                "score",
                right=result.right,
                wrong_in_row=result.wrong_in_row,
                wrong_row=result.wrong_row,
                wrong_row2=2 * result.wrong_row,
                gems=result.gems,
                total=result.total,
            )
        )
        self.say(self.t("rating", text=rating(result.total, self.lang)))


def write_atomically(path: Path, document: str) -> None:
    """Write through a temporary file and rename it, so a crash never leaves half a save."""
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(document)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
