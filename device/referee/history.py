"""Finished games in a small SQLite file: date, players, spirits, mode, score, rating, record.

SQLite because it is in the standard library, survives power cuts by design (its own
rollback journal, ``synchronous=FULL``) and answers "my best storm games" without us
writing a parser. A game is keyed by the id its journal gave it, so saving the same game
twice (a power cut between saving and clearing the journal) stores it once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    finished_at TEXT NOT NULL,
    players INTEGER NOT NULL,
    spirits TEXT NOT NULL,
    mode TEXT NOT NULL,
    difficulty TEXT,
    score INTEGER NOT NULL,
    rating TEXT NOT NULL,
    record TEXT NOT NULL
)
"""


class HistoryError(ValueError):
    """A history file that cannot be used; the message names the file and the problem."""


@dataclass(frozen=True)
class FinishedGame:
    id: str
    finished_at: str  # ISO 8601, UTC
    players: int
    spirits: tuple[str, ...]
    mode: str
    difficulty: str | None
    score: int
    rating: str
    record: str  # the whole game, as the engine's game record text

    def line(self) -> str:
        """One line for ``zefiria history``."""
        who = ", ".join(s.capitalize() for s in self.spirits)
        mode = self.mode if self.difficulty is None else f"{self.mode} solo {self.difficulty}"
        return (
            f"{self.finished_at[:16].replace('T', ' ')}  {self.players}p {mode:<16} "
            f"{self.score:>4} VP  {self.rating}  ({who})"
        )


class History:
    """The history file. Every call opens, does its work and closes: nothing stays half-open."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path)
        except (OSError, sqlite3.Error) as exc:
            raise HistoryError(f"{self.path}: cannot open the history: {exc}") from None
        try:
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute(SCHEMA)
            with conn:  # one transaction: committed on success, rolled back on error
                yield conn
        except sqlite3.DatabaseError as exc:
            raise HistoryError(
                f"{self.path}: not a usable history file ({exc}); "
                "move it aside to start a new history"
            ) from None
        finally:
            conn.close()

    def add(self, game: FinishedGame) -> bool:
        """Store ``game``; False when a game with its id was already stored."""
        with self._connect() as conn:
            cur = conn.execute(
                "INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game.id,
                    game.finished_at,
                    game.players,
                    ",".join(game.spirits),
                    game.mode,
                    game.difficulty,
                    game.score,
                    game.rating,
                    game.record,
                ),
            )
            return cur.rowcount == 1

    def games(self, limit: int | None = None) -> list[FinishedGame]:
        """Finished games, the most recent first."""
        if not self.path.exists():
            return []
        query = "SELECT * FROM games ORDER BY finished_at DESC, rowid DESC"
        params: tuple[int, ...] = ()
        if limit is not None:
            query += " LIMIT ?"
            params = (limit,)
        with self._connect() as conn:
            rows = conn.execute(query, params).fetchall()
        return [
            FinishedGame(
                id=r[0],
                finished_at=r[1],
                players=r[2],
                spirits=tuple(r[3].split(",")) if r[3] else (),
                mode=r[4],
                difficulty=r[5],
                score=r[6],
                rating=r[7],
                record=r[8],
            )
            for r in rows
        ]

    def get(self, game_id: str) -> FinishedGame | None:
        return next((g for g in self.games() if g.id == game_id), None)
