"""The text notation for actions: what players type and what records store.

Cells are written ``a1`` .. ``e5``: the letter is the column (``a`` on the left), the number
the row (``1`` on top), as the board display labels them. Canonical forms::

    place a1          leave a3          fly c3            breeze b2 d2
    breeze c3 d4 stand d4               retrieve b2       spend borea
    end               first jugo        sleep etesia

Parsing also accepts short verbs (``f c3``, ``b b2 d2``, ``e``) and, when a state is given,
island numbers instead of cells (``fly #24``, ``breeze #18 #10``), like SAN beside UCI: the
number is resolved to the cell where that island lies now. :func:`format_action` always
writes the canonical form, so ``parse_action(format_action(a)) == a`` for every action.

>>> parse_action("b b2 d2")
Breeze(a=(1, 1), b=(1, 3), stand=None)
>>> format_action(Fly((2, 2)))
'fly c3'
"""

from __future__ import annotations

from .actions import (
    Action,
    Breeze,
    ChooseFirst,
    ChooseSleeper,
    EndTurn,
    Fly,
    Leave,
    Place,
    Retrieve,
    Spend,
)
from .errors import InvalidActionError
from .grid import SIZE, Cell, on_grid
from .spirits import Spirit
from .state import GameState, Position

COLUMNS = "abcde"

# Canonical verb -> every spelling a player may type. Short forms are chosen so that no
# spelling means two verbs ("s" is spend; sleep is "sl" or "z").
VERBS: dict[str, tuple[str, ...]] = {
    "place": ("place", "p"),
    "leave": ("leave", "l"),
    "fly": ("fly", "f"),
    "breeze": ("breeze", "b", "br"),
    "retrieve": ("retrieve", "r", "ret"),
    "spend": ("spend", "s", "sp"),
    "end": ("end", "e"),
    "first": ("first", "fi", "1st"),
    "sleep": ("sleep", "sl", "z"),
}
_VERB_OF: dict[str, str] = {alias: verb for verb, aliases in VERBS.items() for alias in aliases}
_STAND_WORDS = ("stand", "st", "s")


def format_cell(cell: Cell) -> str:
    """``(row, column)`` -> ``"a1"``.

    >>> format_cell((0, 0)), format_cell((4, 2))
    ('a1', 'c5')
    """
    if not on_grid(cell):
        raise ValueError(f"cell {cell!r} is off the 5x5 grid")
    return f"{COLUMNS[cell[1]]}{cell[0] + 1}"


def parse_cell(text: str, state: GameState | None = None) -> Cell:
    """``"a1"`` -> ``(0, 0)``; with a state, ``"#24"`` is the cell island 24 lies in now.

    >>> parse_cell("C5")
    (4, 2)
    """
    word = text.strip().lower()
    if word.startswith("#"):
        number = word[1:]
        if not number.isdigit() or not 1 <= int(number) <= SIZE * SIZE:
            raise InvalidActionError(f"{text!r} is not an island: islands are #1 to #25")
        if state is None:
            raise InvalidActionError(
                f"{text!r}: island numbers need a game to look them up; write a cell like c3"
            )
        return state.cell_of(int(number))
    if len(word) == 2 and word[0] in COLUMNS and word[1].isdigit() and 1 <= int(word[1]) <= SIZE:
        return (int(word[1]) - 1, COLUMNS.index(word[0]))
    raise InvalidActionError(
        f"{text!r} is not a cell: write a column a-e and a row 1-5, like c3"
        + (", or an island like #24" if state is not None else "")
    )


def format_action(action: Action) -> str:
    """The canonical text of ``action``.

    >>> format_action(Breeze((2, 2), (3, 3), stand=(3, 3)))
    'breeze c3 d4 stand d4'
    """
    match action:
        case Place(cell):
            return f"place {format_cell(cell)}"
        case Leave(cell):
            return f"leave {format_cell(cell)}"
        case Fly(to):
            return f"fly {format_cell(to)}"
        case Breeze(a, b, stand):
            text = f"breeze {format_cell(a)} {format_cell(b)}"
            return text if stand is None else f"{text} stand {format_cell(stand)}"
        case Retrieve(cell):
            return f"retrieve {format_cell(cell)}"
        case Spend(holder):
            return f"spend {holder.value}"
        case EndTurn():
            return "end"
        case ChooseFirst(spirit):
            return f"first {spirit.value}"
        case ChooseSleeper(spirit):
            return f"sleep {spirit.value}"
    raise TypeError(f"not an action: {action!r}")


def parse_action(text: str, state: GameState | None = None) -> Action:
    """Parse one action in the notation; raise :class:`InvalidActionError` on bad text.

    The error message quotes the text and says what was expected. Only the syntax is
    checked here: whether the action is legal is for :mod:`zefiria.engine.rules`.

    >>> parse_action("breeze c3 d4 stand d4")
    Breeze(a=(2, 2), b=(3, 3), stand=(3, 3))
    >>> parse_action("jump c3")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    InvalidActionError: 'jump c3': unknown action 'jump'; expected place, leave, fly, ...
    """
    words = text.replace(",", " ").split()
    if not words:
        raise InvalidActionError(f"{text!r}: empty action")
    verb = _VERB_OF.get(words[0].lower())
    if verb is None:
        names = list(VERBS)
        expected = ", ".join(names[:-1]) + " or " + names[-1]
        raise InvalidActionError(f"{text!r}: unknown action {words[0]!r}; expected {expected}")
    args = words[1:]
    try:
        return _build(verb, args, state)
    except InvalidActionError as exc:
        raise InvalidActionError(f"{text!r}: {exc}") from None


def _build(verb: str, args: list[str], state: GameState | None) -> Action:
    if verb == "end":
        # "end turn" reads naturally, so the word "turn" is allowed after "end".
        if args and [w.lower() for w in args] != ["turn"]:
            raise InvalidActionError(f"'end' takes nothing after it, got {' '.join(args)!r}")
        return EndTurn()
    if verb in ("spend", "first", "sleep"):
        if len(args) != 1:
            raise InvalidActionError(f"{verb!r} needs one spirit name, like '{verb} borea'")
        try:
            spirit = Spirit.parse(args[0])
        except ValueError as exc:
            raise InvalidActionError(str(exc)) from None
        if verb == "spend":
            return Spend(spirit)
        return ChooseFirst(spirit) if verb == "first" else ChooseSleeper(spirit)
    if verb == "breeze":
        return _build_breeze(args, state)
    if len(args) != 1:
        raise InvalidActionError(f"{verb!r} needs one cell, like '{verb} c3'")
    cell = parse_cell(args[0], state)
    if verb == "place":
        return Place(cell)
    if verb == "leave":
        return Leave(cell)
    return Fly(cell) if verb == "fly" else Retrieve(cell)


def _build_breeze(args: list[str], state: GameState | None) -> Breeze:
    usage = "'breeze' needs two cells, like 'breeze b2 d2' (Skyron: 'breeze c3 d4 stand d4')"
    if len(args) == 2:
        return Breeze(parse_cell(args[0], state), parse_cell(args[1], state))
    if len(args) == 4 and args[2].lower() in _STAND_WORDS:
        a, b = parse_cell(args[0], state), parse_cell(args[1], state)
        # An island number after "stand" names the card as it lies *before* the swap, the
        # way the player sees the table while typing; the stand cell is where it lands.
        stand = parse_cell(args[3], state)
        if args[3].startswith("#"):
            stand = b if stand == a else a if stand == b else stand
        return Breeze(a, b, stand)
    raise InvalidActionError(usage)


def describe_action(
    action: Action, state: GameState, *, cost: int | None = None, lang: str = "en"
) -> str:
    """A sentence for people, with island numbers as on the table.

    ``cost`` defaults to what the rules say in ``state`` (left out when the rules refuse
    the action). ``lang`` is ``"en"`` or ``"it"``.
    """
    if cost is None:
        cost = _cost(state, action)
    words = _WORDS["it" if lang == "it" else "en"]
    who = state.active_spirit.title
    ap = f" ({cost} {words['ap']})" if cost else ""

    def isl(cell: Cell) -> str:
        return str(state.island_at(cell))

    match action:
        case Place(cell):
            return words["place"].format(who=who, island=isl(cell), cell=format_cell(cell))
        case Leave(cell):
            return words["leave"].format(who=who, island=isl(cell), cell=format_cell(cell))
        case Fly(to):
            pos = state.position_of(state.active_spirit)
            key = "fly_outside" if _is_outside(pos) else "fly"
            return words[key].format(who=who, island=isl(to)) + ap
        case Breeze(a, b, stand):
            text = words["breeze"].format(who=who, x=isl(a), y=isl(b))
            if stand is not None:
                # The swap moves the card from the other cell onto ``stand``: that card,
                # as numbered on the table now, is where he ends.
                on = isl(b) if stand == a else isl(a)
                text += words["stand"].format(island=on)
            return text + ap
        case Retrieve(cell):
            return words["retrieve"].format(who=who, island=isl(cell)) + ap
        case Spend(holder):
            return words["spend"].format(holder=holder.title, who=who)
        case EndTurn():
            return words["end"].format(who=who, ap=state.ap)
        case ChooseFirst(spirit):
            return words["first"].format(who=spirit.title)
        case ChooseSleeper(spirit):
            return words["sleep"].format(who=spirit.title)
    raise TypeError(f"not an action: {action!r}")


def _is_outside(pos: Position | None) -> bool:
    return pos is not None and pos.outside


def _cost(state: GameState, action: Action) -> int | None:
    # Imported here so that the notation stays usable on its own (records, parsers) and
    # the rules may use the notation in their messages without an import cycle.
    from .rules import action_cost, check_action

    if check_action(state, action) is not None:
        return None
    return action_cost(state, action)


_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "ap": "AP",
        "place": "{who} starts on island {island} ({cell})",
        "leave": "{who} leaves the grid beside island {island} ({cell})",
        "fly": "{who} flies to {island}",
        "fly_outside": "{who} flies beside {island}",
        "breeze": "{who} swaps {x} and {y}",
        "stand": " and stands on {island}",
        "retrieve": "{who} retrieves the red gem on {island}",
        "spend": "{holder} spends a red gem: +1 AP for {who}",
        "end": "{who} ends the turn ({ap} AP unused)",
        "first": "{who} plays first this round",
        "sleep": "{who} sleeps next round",
    },
    "it": {
        "ap": "PA",
        "place": "{who} parte dall'isola {island} ({cell})",
        "leave": "{who} esce dalla griglia accanto all'isola {island} ({cell})",
        "fly": "{who} vola sull'isola {island}",
        "fly_outside": "{who} vola accanto all'isola {island}",
        "breeze": "{who} scambia {x} e {y}",
        "stand": " e resta sull'isola {island}",
        "retrieve": "{who} recupera la gemma rossa dall'isola {island}",
        "spend": "{holder} spende una gemma rossa: +1 PA per {who}",
        "end": "{who} termina il turno ({ap} PA non usati)",
        "first": "{who} gioca per primo questo round",
        "sleep": "{who} dorme nel prossimo round",
    },
}
