"""JSON records: a whole game state, and a game as its setup plus the actions played.

Two documents, both versioned (see ``docs/records.md``)::

    {"format": "zefiria-state", "version": 1, "config": {...}, "grid": [[...] x5], ...}
    {"format": "zefiria-game", "version": 1, "config": {...}, "seed": "42",
     "grid": [[...] x5], "sleeper": null, "actions": ["place a1", ...], "final": {...}}

Loading validates everything before building anything, so a bad document is refused whole
with a :class:`RecordError` that names the line (``json``'s own for syntax errors; for a
semantic problem the line of the offending key or action) and the reason. Writing then
reading gives back an equal value: ``loads_state(dumps_state(s)) == s``.
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, NoReturn, TypeVar

from .actions import Action
from .deck import Blizzard, Deck, GridCard, IslandFace, StormCard, Tornado, default_deck
from .errors import IllegalActionError, InvalidActionError, RecordError
from .grid import ISLANDS, SIZE, Cell, Direction, cell_at, is_edge, on_grid
from .notation import format_action, parse_action
from .rng import Rng
from .spirits import Spirit
from .state import (
    RED_GEMS,
    Difficulty,
    GameConfig,
    GameState,
    Mode,
    Phase,
    Position,
    StormEffect,
    StormEvent,
)

STATE_FORMAT = "zefiria-state"
GAME_FORMAT = "zefiria-game"
VERSION = 1
_MAX_RNG = (1 << 64) - 1

Path = tuple[str | int, ...]  # where a value sits in the document: keys and list indices
T = TypeVar("T")


class _Bad(Exception):
    """A semantic problem found while reading a document, before its line is known."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(reason)
        self.path = path
        self.reason = reason


def _fail(path: Path, reason: str) -> NoReturn:
    raise _Bad(path, reason)


# -- writing ------------------------------------------------------------------------------


def _cell(cell: Cell) -> list[int]:
    return [cell[0], cell[1]]


def _storm_card(card: StormCard) -> dict[str, Any]:
    if isinstance(card, Tornado):
        return {"kind": "tornado", "turns": card.turns}
    return {"kind": "blizzard", "direction": card.direction.name.lower(), "steps": card.steps}


@functools.cache
def _default_deck() -> Deck:
    # Parsed once: every state written or read compares its deck with it. Decks are frozen.
    return default_deck()


def _deck(deck: Deck) -> str | dict[str, Any]:
    if deck == _default_deck():
        return "default"
    return {
        "source": deck.source,
        "islands": {
            str(k): {"colour": f.colour, "icon": f.icon} for k, f in enumerate(deck.islands, 1)
        },
        "storms": [_storm_card(c) for c in deck.storms],
        "grids": [_cell(g.cell) for g in deck.grids],
    }


def config_to_json(config: GameConfig) -> dict[str, Any]:
    return {
        "players": config.players,
        "mode": config.mode.value,
        "spirits": [s.value for s in config.spirits],
        "difficulty": None if config.difficulty is None else config.difficulty.value,
        "deck": _deck(config.deck),
    }


def _grid(grid: Sequence[int]) -> list[list[int]]:
    return [list(grid[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)]


def _position(pos: Position | None) -> dict[str, list[int]] | None:
    if pos is None:
        return None
    return {"outside" if pos.outside else "cell": _cell(pos.cell)}


def _storm_event(event: StormEvent | None) -> dict[str, Any] | None:
    if event is None:
        return None
    return {
        "round": event.round,
        "storm": _storm_card(event.storm),
        "grid": _cell(event.grid.cell),
        "rotation": event.rotation,
        "target1": _cell(event.target1),
        "target2": None if event.target2 is None else _cell(event.target2),
        "effect": event.effect.value,
    }


def state_to_json(state: GameState) -> dict[str, Any]:
    """The state as a JSON-ready dict (the ``zefiria-state`` document)."""
    spirits = state.config.spirits
    return {
        "format": STATE_FORMAT,
        "version": VERSION,
        "config": config_to_json(state.config),
        "phase": state.phase.value,
        "round": state.round,
        "purple_left": state.purple_left,
        "active": spirits[state.active].value,
        "ap": state.ap,
        "grid": _grid(state.grid),
        "pawns": {s.value: _position(p) for s, p in zip(spirits, state.pawns, strict=True)},
        "anchored": [_cell(c) for c in sorted(state.anchored)],
        "gem_pool": state.gem_pool,
        # A state built by hand may leave gems_held empty: nobody holds a gem.
        "gems_held": {
            s.value: n for s, n in zip(spirits, state.gems_held or (0,) * len(spirits), strict=True)
        },
        "gems_returned": state.gems_returned,
        "must_leave": state.must_leave,
        "turns_done": state.turns_done,
        "sleeping": None if state.sleeping is None else state.sleeping.value,
        "played": [s.value for s in state.played],
        "storm_deck": [_storm_card(c) for c in state.storm_deck],
        "grid_deck": [{"cell": _cell(g.cell), "rotation": r} for g, r in state.grid_deck],
        "last_storm": _storm_event(state.last_storm),
        # A decimal string: JSON readers in other languages lose precision above 2**53.
        "rng": str(state.rng.state),
    }


def dumps_state(state: GameState) -> str:
    """The state as pretty JSON text, ending with a newline."""
    return pretty_json(state_to_json(state))


def pretty_json(value: Any) -> str:
    """JSON laid out for people and diffs: small lists and objects on one line.

    Game actions always go one per line, so a refused action's line number points at it.
    """
    return _pretty(value, "", 0) + "\n"


def _pretty(value: Any, key: str, depth: int) -> str:
    compact = json.dumps(value, ensure_ascii=False)
    pad = "  " * (depth + 1)
    if isinstance(value, list) and value and (key == "actions" or len(compact) > 72):
        items = [pad + _pretty(v, "", depth + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * depth + "]"
    if isinstance(value, dict) and value and (depth == 0 or len(compact) > 72):
        items = [
            f"{pad}{json.dumps(k, ensure_ascii=False)}: {_pretty(v, k, depth + 1)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + "  " * depth + "}"
    return compact


# -- reading: small checked accessors ----------------------------------------------------


def _dotted(path: Path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "document"


def _object(value: Any, path: Path, keys: Sequence[str], optional: Sequence[str] = ()) -> None:
    """Check ``value`` is an object with exactly ``keys`` (plus any of ``optional``)."""
    if not isinstance(value, dict):
        _fail(path, f"expected an object, got {_kind(value)}")
    for k in keys:
        if k not in value:
            _fail(path, f"missing key {k!r}")
    for k in value:
        if k not in keys and k not in optional:
            _fail((*path, k), f"unknown key {k!r}")


def _show(value: Any) -> str:
    """A bad value as JSON, cut short: a message names it, it need not reprint it all."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {
        bool: "true/false",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "an object",
    }.get(type(value), type(value).__name__)


def _int(value: Any, path: Path, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        _fail(path, f"expected a whole number, got {_kind(value)} {_show(value)}")
    if not low <= value <= high:
        _fail(path, f"{value} is out of range {low}..{high}")
    return value


def _bool(value: Any, path: Path) -> bool:
    if not isinstance(value, bool):
        _fail(path, f"expected true or false, got {_show(value)}")
    return value


def _list(value: Any, path: Path) -> list[Any]:
    if not isinstance(value, list):
        _fail(path, f"expected a list, got {_kind(value)}")
    return value


def _choice(value: Any, path: Path, options: dict[str, T], what: str) -> T:
    if not isinstance(value, str) or value not in options:
        _fail(path, f"{_show(value)} is not a {what}: expected one of {', '.join(options)}")
    return options[value]


_SPIRITS = {s.value: s for s in Spirit}
_MODES = {m.value: m for m in Mode}
_DIFFICULTIES = {d.value: d for d in Difficulty}
_PHASES = {p.value: p for p in Phase}
_EFFECTS = {e.value: e for e in StormEffect}
_DIRECTIONS = {d.name.lower(): d for d in Direction}


def _spirit(value: Any, path: Path, among: Sequence[Spirit] | None = None) -> Spirit:
    spirit = _choice(value, path, _SPIRITS, "spirit")
    if among is not None and spirit not in among:
        _fail(path, f"{spirit.value} is not playing in this game")
    return spirit


def _read_cell(value: Any, path: Path) -> Cell:
    ok = (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )
    if not ok:
        _fail(path, f"a cell is [row, column], got {_show(value)}")
    cell = (value[0], value[1])
    if not on_grid(cell):
        _fail(path, f"cell {_show(value)} is off the grid (rows and columns are 0..4)")
    return cell


def _read_storm_card(value: Any, path: Path) -> StormCard:
    if not isinstance(value, dict):
        _fail(path, f"a storm card is an object, got {_kind(value)}")
    kind = value.get("kind")
    if kind == "tornado":
        _object(value, path, ("kind", "turns"))
        return Tornado(_int(value["turns"], (*path, "turns"), 1, 3))
    if kind == "blizzard":
        _object(value, path, ("kind", "direction", "steps"))
        direction = _choice(value["direction"], (*path, "direction"), _DIRECTIONS, "direction")
        return Blizzard(direction, _int(value["steps"], (*path, "steps"), 1, SIZE - 1))
    _fail((*path, "kind"), f'kind must be "tornado" or "blizzard", got {_show(kind)}')


def _read_deck(value: Any, path: Path) -> Deck:
    if value == "default":
        return _default_deck()
    if not isinstance(value, dict):
        _fail(path, f'expected "default" or a full deck object, got {_show(value)}')
    _object(value, path, ("islands", "storms", "grids"), optional=("source",))
    source = value.get("source", "record")
    if not isinstance(source, str):
        _fail((*path, "source"), "expected a string")
    islands = value["islands"]
    ipath = (*path, "islands")
    _object(islands, ipath, [str(k) for k in ISLANDS])
    faces = []
    for k in ISLANDS:
        face = islands[str(k)]
        _object(face, (*ipath, str(k)), ("colour", "icon"))
        for f in ("colour", "icon"):
            if not isinstance(face[f], str) or not face[f].strip():
                _fail((*ipath, str(k), f), f"{f} must be a non-empty string")
        faces.append(IslandFace(face["colour"], face["icon"]))
    storms = _list(value["storms"], (*path, "storms"))
    grids = _list(value["grids"], (*path, "grids"))
    if not storms or not grids:
        _fail(path, "a deck needs at least one storm card and one grid card")
    return Deck(
        islands=tuple(faces),
        storms=tuple(_read_storm_card(c, (*path, "storms", i)) for i, c in enumerate(storms)),
        grids=tuple(GridCard(_read_cell(c, (*path, "grids", i))) for i, c in enumerate(grids)),
        source=source,
    )


def _read_config(value: Any, path: Path = ("config",)) -> GameConfig:
    _object(value, path, ("players", "mode", "spirits", "difficulty", "deck"))
    players = _int(value["players"], (*path, "players"), 1, 4)
    mode = _choice(value["mode"], (*path, "mode"), _MODES, "mode")
    names = _list(value["spirits"], (*path, "spirits"))
    spirits = tuple(_spirit(v, (*path, "spirits", i)) for i, v in enumerate(names))
    wanted = 3 if players == 1 else players
    if len(spirits) != wanted:
        _fail((*path, "spirits"), f"{players} player(s) need {wanted} spirits, got {len(spirits)}")
    if len(set(spirits)) != len(spirits):
        _fail((*path, "spirits"), "a spirit is listed twice")
    difficulty: Difficulty | None = None
    if players == 1:
        difficulty = _choice(
            value["difficulty"], (*path, "difficulty"), _DIFFICULTIES, "difficulty"
        )
    elif value["difficulty"] is not None:
        _fail((*path, "difficulty"), "difficulty is for solo games only: use null")
    deck = _read_deck(value["deck"], (*path, "deck"))
    return GameConfig(players, mode, spirits, difficulty, deck)


def _read_grid(value: Any, path: Path) -> tuple[int, ...]:
    rows = _list(value, path)
    if len(rows) != SIZE:
        _fail(path, f"the grid needs {SIZE} rows, got {len(rows)}")
    flat: list[int] = []
    for r, row in enumerate(rows):
        row = _list(row, (*path, r))
        if len(row) != SIZE:
            _fail((*path, r), f"row {r} needs {SIZE} islands, got {len(row)}")
        flat.extend(_int(v, (*path, r, c), 1, SIZE * SIZE) for c, v in enumerate(row))
    seen: dict[int, int] = {}
    for i, island in enumerate(flat):
        if island in seen:
            r, c = cell_at(i)
            _fail(
                (*path, r),
                f"island {island} appears twice "
                f"(cells {list(cell_at(seen[island]))} and [{r}, {c}])",
            )
        seen[island] = i
    return tuple(flat)


def _read_position(value: Any, path: Path, spirit: Spirit) -> Position | None:
    if value is None:
        return None
    if (
        not isinstance(value, dict)
        or len(value) != 1
        or next(iter(value)) not in ("cell", "outside")
    ):
        _fail(path, 'a pawn is null, {"cell": [r, c]} or {"outside": [r, c]}')
    where = next(iter(value))
    cell = _read_cell(value[where], (*path, where))
    if where == "outside":
        if spirit is not Spirit.AUSTRO:
            _fail(path, f"only Austro stands outside the grid, not {spirit.title}")
        if not is_edge(cell):
            _fail(path, f"Austro stands outside beside an edge cell, and {list(cell)} is inside")
    return Position(cell, where == "outside")


def _read_event(value: Any, path: Path, deck: Deck, rounds: int) -> StormEvent | None:
    if value is None:
        return None
    keys = ("round", "storm", "grid", "rotation", "target1", "target2", "effect")
    _object(value, path, keys)
    storm = _read_storm_card(value["storm"], (*path, "storm"))
    if storm not in deck.storms:
        _fail((*path, "storm"), "this storm card is not in the game's deck")
    grid = GridCard(_read_cell(value["grid"], (*path, "grid")))
    if grid not in deck.grids:
        _fail((*path, "grid"), "this grid card is not in the game's deck")
    effect = _choice(value["effect"], (*path, "effect"), _EFFECTS, "storm effect")
    target2 = None
    if value["target2"] is not None:
        target2 = _read_cell(value["target2"], (*path, "target2"))
    # Target 2 is not computed when target 1 is already home: it is anchored then, or
    # nothing happens (already anchored, or the pool is empty). A swap needs both targets.
    if effect is StormEffect.ANCHORED and target2 is not None:
        _fail((*path, "target2"), 'an "anchored" storm has no target2: use null')
    if effect is StormEffect.SWAPPED and target2 is None:
        _fail((*path, "target2"), 'a "swapped" storm needs target2')
    return StormEvent(
        round=_int(value["round"], (*path, "round"), 2, rounds),
        storm=storm,
        grid=grid,
        rotation=_int(value["rotation"], (*path, "rotation"), 0, 3),
        target1=_read_cell(value["target1"], (*path, "target1")),
        target2=target2,
        effect=effect,
    )


def _check_cards_from(cards: Sequence[T], deck: Sequence[T], path: Path, what: str) -> None:
    """Every card comes from the deck, each at most as often as the deck has it."""
    left = list(deck)
    for i, card in enumerate(cards):
        if card not in left:
            _fail((*path, i), f"this {what} card is not in the game's deck (or appears too often)")
        left.remove(card)


STATE_KEYS = (
    "format", "version", "config", "phase", "round", "purple_left", "active", "ap", "grid",
    "pawns", "anchored", "gem_pool", "gems_held", "gems_returned", "must_leave", "turns_done",
    "sleeping", "played", "storm_deck", "grid_deck", "last_storm", "rng",
)  # fmt: skip


def _check_header(
    data: Any, path: Path, fmt: str, keys: Sequence[str], optional: Sequence[str] = ()
) -> None:
    if not isinstance(data, dict):
        _fail(path, f"expected a {fmt} object, got {_kind(data)}")
    if data.get("format") != fmt:
        _fail((*path, "format"), f'"format" must be "{fmt}", got {_show(data.get("format"))}')
    version = data.get("version")
    if version != VERSION:
        newer = isinstance(version, int) and not isinstance(version, bool) and version > VERSION
        hint = " (written by a newer Zefiria Companion)" if newer else ""
        _fail(
            (*path, "version"),
            f"version {_show(version)} is not supported{hint}; this reads version {VERSION}",
        )
    _object(data, path, keys, optional)


def _read_state(data: Any, path: Path = ()) -> GameState:
    _check_header(data, path, STATE_FORMAT, STATE_KEYS)

    def at(*keys: str | int) -> Path:
        return (*path, *keys)

    config = _read_config(data["config"], at("config"))
    spirits = config.spirits
    total = config.purple_gems
    phase = _choice(data["phase"], at("phase"), _PHASES, "phase")
    round_ = _int(data["round"], at("round"), 0, total)
    purple_left = _int(data["purple_left"], at("purple_left"), 0, total)
    active = spirits.index(_spirit(data["active"], at("active"), spirits))
    ap = _int(data["ap"], at("ap"), 0, config.ap_per_turn + RED_GEMS)
    grid = _read_grid(data["grid"], at("grid"))

    pawn_data = data["pawns"]
    _object(pawn_data, at("pawns"), [s.value for s in spirits])
    pawns = tuple(_read_position(pawn_data[s.value], at("pawns", s.value), s) for s in spirits)
    on_cards: dict[Cell, Spirit] = {}
    for s, p in zip(spirits, pawns, strict=True):
        if p is not None and not p.outside:
            if p.cell in on_cards:
                _fail(
                    at("pawns", s.value),
                    f"{s.title} and {on_cards[p.cell].title} stand on the same card {list(p.cell)}",
                )
            on_cards[p.cell] = s

    anchored_list = _list(data["anchored"], at("anchored"))
    anchored = [_read_cell(v, at("anchored", i)) for i, v in enumerate(anchored_list)]
    if len(set(anchored)) != len(anchored):
        _fail(at("anchored"), "a cell is anchored twice")
    gem_pool = _int(data["gem_pool"], at("gem_pool"), 0, RED_GEMS)
    held_data = data["gems_held"]
    _object(held_data, at("gems_held"), [s.value for s in spirits])
    gems_held = tuple(
        _int(held_data[s.value], at("gems_held", s.value), 0, RED_GEMS) for s in spirits
    )
    gems_returned = _int(data["gems_returned"], at("gems_returned"), 0, RED_GEMS)
    gems = len(anchored) + gem_pool + sum(gems_held) + gems_returned
    if config.mode is Mode.STORM and gems != RED_GEMS:
        _fail(
            at("gem_pool"),
            f"red gems on cards, in the pool, held and returned add up to {gems}, not {RED_GEMS}",
        )
    if config.mode is Mode.STANDARD and gems - gem_pool:
        _fail(at("anchored"), "a standard game has no red gems on cards, held or returned")

    must_leave = _bool(data["must_leave"], at("must_leave"))
    turns_done = _int(data["turns_done"], at("turns_done"), 0, len(spirits))
    sleeping = None
    if data["sleeping"] is not None:
        sleeping = _spirit(data["sleeping"], at("sleeping"), spirits)
        if not config.solo:
            _fail(at("sleeping"), "only a solo game has a sleeping spirit")
    played_list = _list(data["played"], at("played"))
    played = tuple(_spirit(v, at("played", i), spirits) for i, v in enumerate(played_list))
    if len(set(played)) != len(played):
        _fail(at("played"), "a spirit is listed twice")

    storm_list = _list(data["storm_deck"], at("storm_deck"))
    storm_deck = tuple(_read_storm_card(v, at("storm_deck", i)) for i, v in enumerate(storm_list))
    _check_cards_from(storm_deck, config.deck.storms, at("storm_deck"), "storm")
    grid_list = _list(data["grid_deck"], at("grid_deck"))
    grid_deck: list[tuple[GridCard, int]] = []
    for i, v in enumerate(grid_list):
        _object(v, at("grid_deck", i), ("cell", "rotation"))
        card = GridCard(_read_cell(v["cell"], at("grid_deck", i, "cell")))
        grid_deck.append((card, _int(v["rotation"], at("grid_deck", i, "rotation"), 0, 3)))
    _check_cards_from([g for g, _ in grid_deck], config.deck.grids, at("grid_deck"), "grid")
    last_storm = _read_event(data["last_storm"], at("last_storm"), config.deck, total)

    rng_text = data["rng"]
    if (
        not isinstance(rng_text, str)
        or not re.fullmatch(r"[0-9]{1,20}", rng_text)
        or int(rng_text) > _MAX_RNG
    ):
        _fail(
            at("rng"),
            f"rng must be a decimal string of a 64-bit number, got {_show(rng_text)}",
        )

    # Phase consistency: the fields a phase implies, so a hand-edited file cannot put the
    # engine somewhere the rules never go.
    if phase is Phase.SETUP:
        if round_ != 0 or purple_left != total:
            _fail(at("round"), f"during setup the round is 0 and all {total} purple gems are left")
        placed = [p is not None for p in pawns]
        if placed != [i < active for i in range(len(spirits))]:
            _fail(
                at("pawns"),
                f"during setup exactly the spirits before {spirits[active].value} "
                "have placed their pawns",
            )
    else:
        missing = [s.value for s, p in zip(spirits, pawns, strict=True) if p is None]
        if missing:
            _fail(at("pawns", missing[0]), f"{missing[0]} has no pawn on the grid after setup")
        if round_ < 1 or round_ + purple_left != total:
            _fail(
                at("purple_left"),
                f"round {round_} with {purple_left} purple gems left "
                f"does not add up to {total} rounds",
            )
    for s, p in zip(spirits, pawns, strict=True):
        if p is not None and p.outside and not (phase is Phase.TURN and spirits[active] is s):
            _fail(at("pawns", s.value), "Austro stands outside the grid only during his own turn")
    if must_leave and phase is not Phase.TURN:
        _fail(at("must_leave"), "must_leave is true only during a turn")
    if config.solo and phase is not Phase.SETUP and sleeping is None:
        _fail(at("sleeping"), "a solo game names its sleeping spirit after setup")
    if phase in (Phase.CHOOSE_FIRST, Phase.CHOOSE_SLEEPER) and not config.solo:
        _fail(
            at("phase"),
            f"{phase.value} is a solo phase, and this game has {config.players} players",
        )
    if phase is Phase.AUSTRO_EXIT and spirits[active] is not Spirit.AUSTRO:
        _fail(at("phase"), "austro_exit is Austro's choice, but the active spirit is not Austro")
    if sleeping is not None and phase is not Phase.SETUP and spirits[active] is sleeping:
        _fail(at("active"), f"{sleeping.value} is asleep this round and cannot be active")
    if sleeping is not None and sleeping in played:
        _fail(at("played"), f"{sleeping.value} is asleep and cannot have played")

    return GameState(
        config=config,
        grid=grid,
        pawns=pawns,
        phase=phase,
        active=active,
        round=round_,
        purple_left=purple_left,
        ap=ap,
        anchored=frozenset(anchored),
        gem_pool=gem_pool,
        gems_held=gems_held,
        gems_returned=gems_returned,
        must_leave=must_leave,
        turns_done=turns_done,
        sleeping=sleeping,
        played=played,
        storm_deck=storm_deck,
        grid_deck=tuple(grid_deck),
        last_storm=last_storm,
        rng=Rng(int(rng_text)),
    )


# -- errors with line numbers --------------------------------------------------------------


def _record_error(source: str, text: str | None, bad: _Bad) -> RecordError:
    where = _dotted(bad.path)
    if text is None:
        return RecordError(f"{source}: {where}: {bad.reason}")
    line = _line_of(text, bad.path)
    return RecordError(f"{source}, line {line}: {where}: {bad.reason}")


def _parse_json(text: str, source: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"{source}, line {exc.lineno}: not valid JSON: {exc.msg} (column {exc.colno})"
        ) from None
    except RecursionError:
        raise RecordError(f"{source}: not a Zefiria record: nested too deeply") from None


_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")


def _skip(text: str, pos: int) -> int:
    match = _SPACE.match(text, pos)
    return match.end() if match else pos


def _line_of(text: str, path: Path) -> int:
    """The line where the value at ``path`` starts (or the deepest part of it that exists).

    ``json`` reports lines only for syntax errors, so we walk the text again with its own
    decoder, skipping over values we do not descend into.
    """
    pos = _skip(text, 0)
    try:
        for key in path:
            pos = _child(text, pos, key)
    except (_NotFound, IndexError, ValueError):
        pass
    return text.count("\n", 0, pos) + 1


class _NotFound(Exception):
    pass


def _child(text: str, pos: int, key: str | int) -> int:
    """The position of member ``key`` of the object or list starting at ``pos``."""
    opening = text[pos]
    if (opening, isinstance(key, str)) not in (("{", True), ("[", False)):
        raise _NotFound
    pos = _skip(text, pos + 1)
    found = None
    n = 0
    while text[pos] not in "}]":
        if opening == "{":
            name, pos = _DECODER.raw_decode(text, pos)
            pos = _skip(text, _skip(text, pos) + 1)  # past the colon
            hit = name == key
        else:
            hit = n == key
        if hit:
            found = pos  # keep looking: json.loads keeps the last of duplicate keys
        _, pos = _DECODER.raw_decode(text, pos)
        pos = _skip(text, pos)
        if text[pos] == ",":
            pos = _skip(text, pos + 1)
        n += 1
    if found is None:
        raise _NotFound
    return found


# -- public reading API for states ----------------------------------------------------------


def _reading(read: Callable[[Any], T], data: Any, source: str, text: str | None) -> T:
    """Run a reader, turning its problem into a RecordError (with a line when text is known)."""
    try:
        return read(data)
    except _Bad as bad:
        raise _record_error(source, text, bad) from None


def state_from_json(data: Any, *, source: str = "state") -> GameState:
    """Build a state from a ``zefiria-state`` dict; refuse a bad one with :class:`RecordError`."""
    return _reading(_read_state, data, source, None)


def loads_state(text: str, *, source: str = "state") -> GameState:
    """Read a state from JSON text; errors name ``source`` and the line."""
    return _reading(_read_state, _parse_json(text, source), source, text)


# -- game records -----------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """A game as its setup and the actions played.

    The setup is what :func:`~zefiria.engine.setup.new_game` needs to deal the same game
    again: the config, the seed, and the initial grid and solo sleeper when the players chose
    them (``grid_chosen`` / ``sleeper_chosen``) instead of drawing them from the seed. The
    record stores the initial grid and sleeper either way, so people can read them, and
    loading checks that the seed deals exactly them.

    ``final`` is the state after the last action when the record carries it; loading checks
    that replaying the actions reaches exactly that state.
    """

    config: GameConfig
    seed: int
    grid: tuple[int, ...]
    sleeper: Spirit | None = None
    actions: tuple[Action, ...] = ()
    final: GameState | None = None
    grid_chosen: bool = False
    sleeper_chosen: bool = False

    @classmethod
    def start(
        cls,
        config: GameConfig,
        *,
        seed: int,
        grid: Sequence[int] | None = None,
        sleeper: Spirit | None = None,
    ) -> GameRecord:
        """The record of a new game, as :func:`~zefiria.engine.setup.new_game` deals it."""
        initial = _new_game(config, seed, grid, sleeper)
        return cls(
            config,
            seed,
            initial.grid,
            initial.sleeping,
            grid_chosen=grid is not None,
            sleeper_chosen=sleeper is not None,
        )

    def initial_state(self) -> GameState:
        return _new_game(
            self.config,
            self.seed,
            self.grid if self.grid_chosen else None,
            self.sleeper if self.sleeper_chosen else None,
        )

    def with_actions(self, actions: Sequence[Action], final: GameState | None = None) -> GameRecord:
        return replace(self, actions=tuple(actions), final=final)

    def states(self) -> Iterator[GameState]:
        """The initial state, then the state after each action (raises on an illegal one)."""
        from .rules import apply_action

        state = self.initial_state()
        yield state
        for action in self.actions:
            state = apply_action(state, action)
            yield state

    def replay(self) -> GameState:
        """The state after the last action."""
        *_, last = self.states()
        return last


def _new_game(
    config: GameConfig, seed: int, grid: Sequence[int] | None, sleeper: Spirit | None
) -> GameState:
    from .setup import new_game

    return new_game(config, seed=seed, grid=grid, sleeper=sleeper)


GAME_KEYS = ("format", "version", "config", "seed", "grid", "sleeper", "chosen", "actions")
_CHOICES = ("grid", "sleeper")


def record_to_json(record: GameRecord) -> dict[str, Any]:
    """The record as a JSON-ready dict (the ``zefiria-game`` document)."""
    data: dict[str, Any] = {
        "format": GAME_FORMAT,
        "version": VERSION,
        "config": config_to_json(record.config),
        "seed": str(record.seed),
        "grid": _grid(record.grid),
        "sleeper": None if record.sleeper is None else record.sleeper.value,
        "chosen": [
            name
            for name, chosen in zip(
                _CHOICES, (record.grid_chosen, record.sleeper_chosen), strict=True
            )
            if chosen
        ],
        "actions": [format_action(a) for a in record.actions],
    }
    if record.final is not None:
        data["final"] = state_to_json(record.final)
    return data


def dumps_record(record: GameRecord) -> str:
    return pretty_json(record_to_json(record))


def _read_record(data: Any) -> GameRecord:
    _check_header(data, (), GAME_FORMAT, GAME_KEYS, optional=("final",))
    config = _read_config(data["config"])
    seed_text = data["seed"]
    if (
        not isinstance(seed_text, str)
        or not re.fullmatch(r"[0-9]{1,20}", seed_text)
        or int(seed_text) > _MAX_RNG
    ):
        _fail(
            ("seed",),
            f"seed must be a decimal string of a 64-bit number, got {_show(seed_text)}",
        )
    grid = _read_grid(data["grid"], ("grid",))
    sleeper = None
    if data["sleeper"] is not None:
        sleeper = _spirit(data["sleeper"], ("sleeper",), config.spirits)
        if not config.solo:
            _fail(("sleeper",), "only a solo game has a sleeper: use null")
    final = None
    if data.get("final") is not None:
        final = _read_state(data["final"], ("final",))
    chosen = _list(data["chosen"], ("chosen",))
    for i, name in enumerate(chosen):
        if name not in _CHOICES or chosen.count(name) > 1:
            _fail(
                ("chosen", i),
                f'"chosen" lists "grid" and/or "sleeper" once each, got {_show(name)}',
            )
    if "sleeper" in chosen and sleeper is None:
        _fail(("sleeper",), "the sleeper is chosen but not named")
    lines = _list(data["actions"], ("actions",))
    record = GameRecord(
        config,
        int(seed_text),
        grid,
        sleeper,
        grid_chosen="grid" in chosen,
        sleeper_chosen="sleeper" in chosen,
    )
    try:
        state = record.initial_state()
    except ValueError as exc:
        _fail(("config",), f"cannot set up this game: {exc}")
    if state.grid != grid:
        _fail(
            ("grid",),
            f"seed {seed_text} does not deal this grid "
            '(list "grid" in "chosen" for a grid laid out by hand)',
        )
    if state.sleeping != sleeper:
        _fail(
            ("sleeper",),
            f"seed {seed_text} does not draw this sleeper "
            '(list "sleeper" in "chosen" for a chosen one)',
        )
    from .rules import apply_action

    actions: list[Action] = []
    for i, text in enumerate(lines):
        path: Path = ("actions", i)
        if not isinstance(text, str):
            _fail(path, f"an action is a string in the notation, got {_kind(text)}")
        try:
            action = parse_action(text, state)
        except InvalidActionError as exc:
            _fail(path, f"action {i + 1}: {exc}")
        try:
            state = apply_action(state, action)
        except IllegalActionError as exc:
            _fail(path, f"action {i + 1} {text!r} is illegal ({exc.reason.value}): {exc}")
        actions.append(action)
    if final is not None and final != state:
        diff = _first_difference(final, state)
        _fail(
            ("final", diff),
            f"the final state does not match the actions replayed (first difference: {diff})",
        )
    return record.with_actions(actions, final)


def _first_difference(a: GameState, b: GameState) -> str:
    # The state's field names are the document's keys, so the path points at the line.
    for f in fields(GameState):
        if getattr(a, f.name) != getattr(b, f.name):
            return f.name
    return "format"


def record_from_json(data: Any, *, source: str = "game") -> GameRecord:
    """Build and replay a record from a ``zefiria-game`` dict; refuse a bad one whole."""
    return _reading(_read_record, data, source, None)


def loads_record(text: str, *, source: str = "game") -> GameRecord:
    """Read and replay a game record from JSON text; errors name ``source`` and the line."""
    return _reading(_read_record, _parse_json(text, source), source, text)


def load_any(path: str | os.PathLike[str]) -> GameState | GameRecord:
    """Read a saved state or game record from a file; a RecordError names the file."""
    name = os.fspath(path)
    try:
        with open(name, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        raise RecordError(f"{name}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{name}: not a text file (UTF-8 JSON expected)") from None
    return loads_any(text, source=name)


def load_state(name: str) -> GameState:
    """The state saved in file ``name`` (``-``: standard input); a game record gives its last
    state. What ``zefiria check``, ``hint`` and ``render`` read."""
    loaded = loads_any(sys.stdin.read(), source="<stdin>") if name == "-" else load_any(name)
    return loaded.replay() if isinstance(loaded, GameRecord) else loaded


def loads_any(text: str, *, source: str = "file") -> GameState | GameRecord:
    """Read either document, by its ``"format"`` key."""
    return _reading(_read_any, _parse_json(text, source), source, text)


def _read_any(data: Any) -> GameState | GameRecord:
    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt == GAME_FORMAT:
        return _read_record(data)
    if fmt != STATE_FORMAT:
        _fail(
            ("format",) if isinstance(data, dict) else (),
            f'expected "format": "{STATE_FORMAT}" or "{GAME_FORMAT}", got {_show(fmt)}',
        )
    return _read_state(data)
