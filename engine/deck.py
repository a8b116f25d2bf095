"""Deck data: each island's colour and icon, the Storm cards and the Grid cards.

The printed decks' full contents are not in the rulebook, so they are data: the documented
default ships as ``data/deck.toml`` and a user's TOML file may replace it. Bad data is
refused with :class:`DeckError`, whose message names the file, the line and the problem.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from .grid import ISLANDS, SIZE, Cell, Direction


class DeckError(ValueError):
    """Deck data that cannot be used; the message names the source, line and problem."""


@dataclass(frozen=True)
class IslandFace:
    colour: str
    icon: str


@dataclass(frozen=True)
class Tornado:
    """Turn the grid card clockwise ``turns`` quarter turns to find target 2."""

    turns: int

    def describe(self) -> str:
        return f"Tornado {self.turns}"


@dataclass(frozen=True)
class Blizzard:
    """Count ``steps`` cells from target 1 towards ``direction`` to find target 2."""

    direction: Direction
    steps: int

    def describe(self) -> str:
        return f"Blizzard {self.direction.name.lower()} {self.steps}"


StormCard = Tornado | Blizzard


@dataclass(frozen=True)
class GridCard:
    """A grid card: the cell marked on its 5x5 diagram, printed upright."""

    cell: Cell


@dataclass(frozen=True)
class Deck:
    islands: tuple[IslandFace, ...]  # islands[k - 1] is island k's face
    storms: tuple[StormCard, ...]
    grids: tuple[GridCard, ...]
    source: str = "default"

    def face(self, island: int) -> IslandFace:
        return self.islands[island - 1]

    def colour(self, island: int) -> str:
        return self.islands[island - 1].colour

    def icon(self, island: int) -> str:
        return self.islands[island - 1].icon


def default_deck() -> Deck:
    """The documented default deck shipped with the engine."""
    text = resources.files("zefiria.engine").joinpath("data/deck.toml").read_text("utf-8")
    return parse_deck(text, source="default deck (zefiria/engine/data/deck.toml)")


def load_deck(path: str | Path) -> Deck:
    """Read a user's deck file; refuse it with a :class:`DeckError` naming line and problem."""
    p = Path(path)
    try:
        text = p.read_text("utf-8")
    except OSError as exc:
        raise DeckError(f"{p}: cannot read deck file: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise DeckError(f"{p}: not a text file (UTF-8 expected)") from None
    return parse_deck(text, source=str(p))


def parse_deck(text: str, source: str = "deck") -> Deck:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # tomllib's message already ends with "(at line N, column M)".
        raise DeckError(f"{source}: not valid TOML: {exc}") from None
    finder = _LineFinder(text, source)
    unknown = set(data) - {"islands", "storm", "grid"}
    if unknown:
        key = sorted(unknown)[0]
        raise finder.error(rf"^\s*\[*\s*{re.escape(key)}\b", f"unknown section or key {key!r}")
    islands = _parse_islands(data.get("islands"), finder)
    storms = _parse_storms(data.get("storm"), finder)
    grids = _parse_grids(data.get("grid"), finder)
    return Deck(islands=islands, storms=storms, grids=grids, source=source)


class _LineFinder:
    """Finds the line a semantic problem sits on (tomllib reports lines only for syntax)."""

    def __init__(self, text: str, source: str) -> None:
        self.lines = text.splitlines()
        self.source = source

    def line_of(self, pattern: str, nth: int = 0) -> int | None:
        seen = 0
        rx = re.compile(pattern)
        for i, line in enumerate(self.lines, start=1):
            if rx.search(line):
                if seen == nth:
                    return i
                seen += 1
        return None

    def error(self, pattern: str, problem: str, nth: int = 0) -> DeckError:
        line = self.line_of(pattern, nth)
        where = f"line {line}" if line is not None else "file"
        return DeckError(f"{self.source}, {where}: {problem}")


def _parse_islands(table: Any, finder: _LineFinder) -> tuple[IslandFace, ...]:
    if not isinstance(table, dict):
        raise finder.error(
            r"^\s*\[\s*islands\s*\]", "an [islands] table with islands 1..25 is needed"
        )
    faces: dict[int, IslandFace] = {}
    for key, value in table.items():
        pattern = rf"^\s*\"?{re.escape(key)}\"?\s*="
        if not key.isdigit() or int(key) not in ISLANDS:
            raise finder.error(pattern, f"island {key!r} is not a number from 1 to 25")
        if not isinstance(value, dict):
            raise finder.error(pattern, f'island {key} needs {{ colour = "...", icon = "..." }}')
        extra = set(value) - {"colour", "icon"}
        if extra:
            raise finder.error(pattern, f"island {key}: unknown key {sorted(extra)[0]!r}")
        for field in ("colour", "icon"):
            v = value.get(field)
            if not isinstance(v, str) or not v.strip():
                raise finder.error(pattern, f"island {key}: {field} must be a non-empty string")
        faces[int(key)] = IslandFace(value["colour"].strip().lower(), value["icon"].strip().lower())
    missing = [k for k in ISLANDS if k not in faces]
    if missing:
        raise finder.error(
            r"^\s*\[\s*islands\s*\]",
            f"islands missing from [islands]: {', '.join(map(str, missing))}",
        )
    return tuple(faces[k] for k in ISLANDS)


def _parse_storms(items: Any, finder: _LineFinder) -> tuple[StormCard, ...]:
    header = r"^\s*\[\[\s*storm\s*\]\]"
    if not isinstance(items, list) or not items:
        raise finder.error(header, "at least one [[storm]] card is needed")
    cards: list[StormCard] = []
    for n, item in enumerate(items):

        def bad(problem: str, n: int = n) -> DeckError:
            return finder.error(header, f"storm card {n + 1}: {problem}", nth=n)

        kind = item.get("kind")
        if kind == "tornado":
            turns = item.get("turns")
            if set(item) - {"kind", "turns"}:
                raise bad(f"unknown key {sorted(set(item) - {'kind', 'turns'})[0]!r}")
            if not isinstance(turns, int) or isinstance(turns, bool) or not 1 <= turns <= 3:
                raise bad("a tornado needs turns = 1, 2 or 3")
            cards.append(Tornado(turns))
        elif kind == "blizzard":
            if set(item) - {"kind", "direction", "steps"}:
                raise bad(f"unknown key {sorted(set(item) - {'kind', 'direction', 'steps'})[0]!r}")
            direction = item.get("direction")
            names = {d.name.lower(): d for d in Direction}
            if direction not in names:
                raise bad('a blizzard needs direction = "north", "east", "south" or "west"')
            steps = item.get("steps")
            if not isinstance(steps, int) or isinstance(steps, bool) or not 1 <= steps < SIZE:
                raise bad(f"a blizzard needs steps from 1 to {SIZE - 1}")
            cards.append(Blizzard(names[direction], steps))
        else:
            raise bad('kind must be "tornado" or "blizzard"')
    return tuple(cards)


def _parse_grids(items: Any, finder: _LineFinder) -> tuple[GridCard, ...]:
    header = r"^\s*\[\[\s*grid\s*\]\]"
    if not isinstance(items, list) or not items:
        raise finder.error(header, "at least one [[grid]] card is needed")
    cards: list[GridCard] = []
    for n, item in enumerate(items):
        cell = item.get("cell")
        ok = (
            isinstance(cell, list)
            and len(cell) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < SIZE for v in cell)
        )
        if not ok or set(item) - {"cell"}:
            raise finder.error(
                header, f"grid card {n + 1}: needs cell = [row, column], each 0..4", nth=n
            )
        cards.append(GridCard((cell[0], cell[1])))
    return tuple(cards)
