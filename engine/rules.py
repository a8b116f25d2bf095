"""The rules of Zefiria: which actions are legal, what they cost, and what they do.

This is the API the referee, the explainer, the planner and the CLI build on:

- :func:`legal_actions` lists every legal action of the active spirit with its AP cost;
- :func:`action_cost`, :func:`check_action` and :func:`is_legal` judge one action;
- :func:`apply_action` returns the next state (states are immutable; a refused action raises
  :class:`~zefiria.engine.errors.IllegalActionError` with a precise ``reason`` and a sentence
  a player understands, and changes nothing).

>>> from zefiria.engine.setup import new_game
>>> from zefiria.engine.state import GameConfig, Mode
>>> from zefiria.engine.spirits import Spirit
>>> state = new_game(GameConfig(2, Mode.STANDARD, (Spirit.BOREA, Spirit.JUGO)), seed=1)
>>> [p.action for p in legal_actions(state)]
[Place(cell=(0, 0)), Place(cell=(0, 4)), Place(cell=(4, 0)), Place(cell=(4, 4))]
>>> state = apply_action(state, Place((0, 0)))
>>> check_action(state, Place((0, 4))).reason
<Reason.NOT_OPPOSITE_CORNER: 'not_opposite_corner'>
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

from . import flow
from .abilities import blocked_mask, breeze_options, fly_targets, total_gems_held
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
from .errors import IllegalActionError, Reason, Wording
from .grid import (
    ALL_CELLS,
    CORNERS,
    SIZE,
    Cell,
    index,
    is_edge,
    nearest_edge_cells,
    opposite_corner,
)
from .paths import CROSSES, breeze_distances, diagonal_between, is_adjacent
from .spirits import Spirit
from .state import GameState, Mode, Phase, Position
from .storm import swap_cards

__all__ = [
    "PricedAction",
    "action_cost",
    "apply_action",
    "check_action",
    "is_legal",
    "legal_actions",
]


class PricedAction(NamedTuple):
    """A legal action and the AP it costs now (0 for free actions; Spend gives +1 AP)."""

    action: Action
    cost: int


_END_TURN = EndTurn()

# Actions are immutable values: build each possible Fly and Breeze once, so listing the legal
# actions of a state allocates only the PricedAction pairs.
_FLIES = tuple(Fly(c) for c in ALL_CELLS)
_BREEZES = tuple(Breeze(a, b) for a in ALL_CELLS for b in ALL_CELLS)  # [25 * a + b]
_CARRIED = tuple(  # Skyron's: [2 * (25 * a + b) + (stand is b)]
    Breeze(a, b, stand) for a in ALL_CELLS for b in ALL_CELLS for stand in (a, b)
)


# -- enumeration ------------------------------------------------------------------------------
def legal_actions(state: GameState) -> list[PricedAction]:
    """Every legal action of the active spirit (or the choosing player), with its AP cost.

    Breezes are listed once per unordered pair with ``a < b``, except Skyron's, whose ``a`` is
    his own cell, once per ``stand`` choice. The list is empty only when the game is over.
    """
    phase = state.phase
    if phase is Phase.TURN:
        return _turn_actions(state)
    if phase is Phase.SETUP:
        return [PricedAction(Place(c), 0) for c in CORNERS if _place_problem(state, c) is None]
    if phase is Phase.AUSTRO_EXIT:
        pos = state.pawns[state.active]
        assert pos is not None
        return [PricedAction(Leave(c), 0) for c in nearest_edge_cells(pos.cell)]
    if phase is Phase.CHOOSE_FIRST:
        return [PricedAction(ChooseFirst(s), 0) for s in state.spirits if s is not state.sleeping]
    if phase is Phase.CHOOSE_SLEEPER:
        return [PricedAction(ChooseSleeper(s), 0) for s in state.played]
    return []


def _turn_actions(state: GameState) -> list[PricedAction]:
    blocked = blocked_mask(state)
    ap = state.ap
    spirit = state.active_spirit
    pos = state.pawns[state.active]
    assert pos is not None
    out: list[PricedAction] = []
    if ap >= 1:
        out.extend(PricedAction(_FLIES[t], 1) for t in fly_targets(state, blocked))
    storm = state.config.mode is Mode.STORM
    austro = spirit is Spirit.AUSTRO
    gems = total_gems_held(state)
    centre = index(pos.cell)
    if not state.must_leave and ap >= 1:
        for a, b, d in breeze_options(state, blocked, ap):
            if austro and _strands_austro(blocked, centre, centre in (a, b), ap - d, gems):
                continue
            if spirit is Spirit.SKYRON:
                k = 2 * (25 * a + b)
                out.append(PricedAction(_CARRIED[k], d))
                out.append(PricedAction(_CARRIED[k + 1], d))
            else:
                out.append(PricedAction(_BREEZES[25 * a + b], d))
        if storm:
            for cell in sorted(state.anchored):
                freed = index(cell) == centre and not _occupied(state, cell)
                if austro and _strands_austro(blocked, centre, freed, ap - 1, gems):
                    continue
                out.append(PricedAction(Retrieve(cell), 1))
    if storm:
        held = zip(state.spirits, state.gems_held, strict=True)
        out.extend(PricedAction(Spend(s), 0) for s, n in held if n > 0)
    if not state.must_leave and not (austro and blocked[centre]):
        out.append(PricedAction(_END_TURN, 0))
    return out


def _strands_austro(
    blocked: Sequence[bool], centre: int, freed: bool, ap_after: int, gems: int
) -> bool:
    """Would Austro be left beside a card he may not land on, with no AP to fly on?

    He must end his turn on the free card beside him. An action that leaves him beside an
    occupied or anchored card with no AP left (and no gem any player could spend for him)
    would make the turn impossible to end, so it is refused (house ruling).
    """
    landing_free = freed or not blocked[centre]
    return not landing_free and ap_after + gems < 1


def _occupied(state: GameState, cell: Cell) -> bool:
    return any(p is not None and not p.outside and p.cell == cell for p in state.pawns)


# -- single actions ---------------------------------------------------------------------------
def action_cost(state: GameState, action: Action) -> int:
    """The AP ``action`` costs now; raises :class:`IllegalActionError` if it is not legal."""
    return _price(state, action)


def check_action(state: GameState, action: Action) -> IllegalActionError | None:
    """``None`` if ``action`` is legal now, else the error :func:`apply_action` would raise."""
    try:
        _price(state, action)
    except IllegalActionError as error:
        return error
    return None


def is_legal(state: GameState, action: Action) -> bool:
    return check_action(state, action) is None


def apply_action(state: GameState, action: Action) -> GameState:
    """The state after ``action``; raises :class:`IllegalActionError` and changes nothing.

    The turn ends by itself when the AP reach 0 and no player holds a gem that could be spent
    (if someone does, the turn waits for Spend or EndTurn). Ending a turn may start the next
    round, with its storm: all of that happens inside this one call.
    """
    cost = _price(state, action)
    if isinstance(action, Place):
        return _place(state, action.cell)
    if isinstance(action, Leave):
        return flow.leave(state, action.cell)
    if isinstance(action, ChooseFirst):
        return flow.begin_turn(replace(state, played=()), state.spirits.index(action.spirit))
    if isinstance(action, ChooseSleeper):
        return flow.begin_round(replace(state, sleeping=action.spirit))
    if isinstance(action, EndTurn):
        return flow.end_turn(state)
    # Turn actions that may spend AP.
    if isinstance(action, Fly):
        pos = state.pawns[state.active]
        assert pos is not None
        pawns = list(state.pawns)
        pawns[state.active] = Position(action.to, outside=pos.outside)
        state = replace(state, pawns=tuple(pawns), must_leave=False)
    elif isinstance(action, Breeze):
        state = _breeze(state, action)
    elif isinstance(action, Retrieve):
        held = list(state.gems_held)
        held[state.active] += 1
        state = replace(state, anchored=state.anchored - {action.cell}, gems_held=tuple(held))
    elif isinstance(action, Spend):
        held = list(state.gems_held)
        held[state.spirits.index(action.holder)] -= 1
        return replace(
            state,
            gems_held=tuple(held),
            gems_returned=state.gems_returned + 1,
            ap=state.ap + 1,
        )
    state = replace(state, ap=state.ap - cost)
    if state.ap == 0 and total_gems_held(state) == 0:
        return flow.end_turn(state)
    return state


def _place(state: GameState, cell: Cell) -> GameState:
    pawns = list(state.pawns)
    pawns[state.active] = Position(cell)
    state = replace(state, pawns=tuple(pawns))
    if state.active + 1 < len(state.spirits):
        return replace(state, active=state.active + 1)
    return flow.begin_round(replace(state, active=0))


def _breeze(state: GameState, action: Breeze) -> GameState:
    a, b = action.a, action.b
    state = swap_cards(state, a, b)
    if action.stand is not None:  # Skyron: he travelled with his card, now he picks a cell
        pawns = list(state.pawns)
        pawns[state.active] = Position(action.stand)
        state = replace(state, pawns=tuple(pawns))
    return state


# -- the judge --------------------------------------------------------------------------------
_WHAT = {
    Place: "placing a pawn",
    Leave: "choosing Austro's exit",
    Fly: "a Fly",
    Breeze: "a Breeze",
    Retrieve: "retrieving a gem",
    Spend: "spending a gem",
    EndTurn: "ending the turn",
    ChooseFirst: "choosing who plays first",
    ChooseSleeper: "choosing who sleeps",
}

_PHASE_ACTIONS: dict[Phase, tuple[type, ...]] = {
    Phase.SETUP: (Place,),
    Phase.AUSTRO_EXIT: (Leave,),
    Phase.CHOOSE_FIRST: (ChooseFirst,),
    Phase.CHOOSE_SLEEPER: (ChooseSleeper,),
    Phase.TURN: (Fly, Breeze, Retrieve, Spend, EndTurn),
}

_PRONOUN = {
    Spirit.BOREA: "her",
    Spirit.JUGO: "his",
    Spirit.ETESIA: "her",
    Spirit.SKYRON: "his",
    Spirit.AUSTRO: "his",
}


def _refuse(
    reason: Reason, message: str, action: Action | None, wording: Wording | None = None
) -> IllegalActionError:
    return IllegalActionError(reason, message[0].upper() + message[1:], action, wording)


# The refusals' Wording keys and their values (see errors.Wording). Small words: ``action``
# is the action's class name in lower case, ``need`` the phase that waits ("setup",
# "austro_exit", "choose_first", "choose_sleeper", "turn"), ``block`` "anchored" or
# "occupied" (``by``: who stands there, "" when anchored), ``side`` "on" or "beside".
W = Wording.of


def _phase_wording(state: GameState) -> str:
    phase = state.phase
    if phase in (Phase.SETUP, Phase.AUSTRO_EXIT, Phase.CHOOSE_FIRST, Phase.CHOOSE_SLEEPER):
        return str(phase.value)
    return "turn"


def _phase_need(state: GameState) -> str:
    spirit = state.active_spirit.title
    phase = state.phase
    if phase is Phase.SETUP:
        return f"{spirit} must first place a pawn on a corner"
    if phase is Phase.AUSTRO_EXIT:
        return "Austro must first choose which side of the grid he leaves to"
    if phase is Phase.CHOOSE_FIRST:
        return "first choose which spirit plays first this round"
    if phase is Phase.CHOOSE_SLEEPER:
        return "first choose which spirit sleeps next round"
    return f"it is {spirit}'s turn"


def _is_cell(cell: object) -> bool:
    return (
        isinstance(cell, tuple)
        and len(cell) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < SIZE for v in cell)
    )


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def _price(state: GameState, action: Action) -> int:
    """The cost of ``action`` in ``state``, or raise the precise refusal."""
    if state.phase is Phase.OVER:
        return _fail(Reason.GAME_OVER, "the game is over: no more actions", action, W("game_over"))
    allowed = _PHASE_ACTIONS[state.phase]
    if not isinstance(action, allowed):
        what = _WHAT.get(type(action), repr(action))
        return _fail(
            Reason.WRONG_PHASE,
            f"{what} is not possible now: {_phase_need(state)}",
            action,
            W(
                "wrong_phase",
                action=type(action).__name__.lower(),
                need=_phase_wording(state),
                spirit=state.active_spirit.title,
            ),
        )
    for name in ("cell", "to", "a", "b"):
        if hasattr(action, name) and not _is_cell(getattr(action, name)):
            bad = getattr(action, name)
            return _fail(
                Reason.OFF_GRID,
                f"{bad!r} is not a cell of the 5x5 grid",
                action,
                W("off_grid", cell=repr(bad)),
            )
    if isinstance(action, Place):
        problem = _place_problem(state, action.cell)
        if problem is not None:
            raise _refuse(problem[0], problem[1], action, problem[2])
        return 0
    if isinstance(action, Leave):
        return _price_leave(state, action)
    if isinstance(action, ChooseFirst):
        if action.spirit not in state.spirits or action.spirit is state.sleeping:
            awake = " or ".join(s.title for s in state.spirits if s is not state.sleeping)
            return _fail(
                Reason.NOT_A_CHOICE,
                f"{action.spirit.title} cannot play first this round: choose {awake}",
                action,
                W(
                    "not_first",
                    spirit=action.spirit.title,
                    options=tuple(s.title for s in state.spirits if s is not state.sleeping),
                ),
            )
        return 0
    if isinstance(action, ChooseSleeper):
        if action.spirit not in state.played:
            options = " or ".join(s.title for s in state.played)
            return _fail(
                Reason.NOT_A_CHOICE,
                f"{action.spirit.title} cannot be chosen to sleep: choose {options}, "
                "who played this round",
                action,
                W(
                    "not_sleeper",
                    spirit=action.spirit.title,
                    options=tuple(s.title for s in state.played),
                ),
            )
        return 0
    if isinstance(action, Spend):
        return _price_spend(state, action)
    if isinstance(action, EndTurn):
        return _price_end_turn(state, action)
    if isinstance(action, Fly):
        return _price_fly(state, action)
    if isinstance(action, Breeze):
        return _price_breeze(state, action)
    assert isinstance(action, Retrieve)
    return _price_retrieve(state, action)


def _fail(
    reason: Reason, message: str, action: Action | None, wording: Wording | None = None
) -> int:
    raise _refuse(reason, message, action, wording)


def _place_problem(state: GameState, cell: Cell) -> tuple[Reason, str, Wording] | None:
    spirit = state.active_spirit.title
    if cell not in CORNERS:
        return (
            Reason.NOT_A_CORNER,
            f"{spirit}'s pawn must start on a corner card",
            W("not_a_corner", spirit=spirit),
        )
    if _occupied(state, cell):
        island = state.island_at(cell)
        return (
            Reason.OCCUPIED,
            f"corner card {island} already has a pawn",
            W("corner_occupied", island=island),
        )
    if state.config.players == 2 and state.active == 1:
        first = state.pawns[0]
        assert first is not None
        if cell != opposite_corner(first.cell):
            want = state.island_at(opposite_corner(first.cell))
            return (
                Reason.NOT_OPPOSITE_CORNER,
                f"in a 2-player game the pawns stand on opposite corners: {spirit} must "
                f"start on card {want}",
                W("not_opposite_corner", spirit=spirit, island=want),
            )
    return None


def _price_leave(state: GameState, action: Leave) -> int:
    pos = state.pawns[state.active]
    assert pos is not None
    options = nearest_edge_cells(pos.cell)
    if action.cell not in options:
        names = " or ".join(f"card {state.island_at(c)}" for c in options)
        return _fail(
            Reason.NOT_A_CHOICE,
            f"Austro leaves card {state.island_at(pos.cell)} to the nearest side of the grid: "
            f"beside {names}",
            action,
            W(
                "leave_side",
                island=state.island_at(pos.cell),
                options=tuple(str(state.island_at(c)) for c in options),
            ),
        )
    return 0


def _price_spend(state: GameState, action: Spend) -> int:
    if state.config.mode is not Mode.STORM:
        return _fail(
            Reason.NOT_STORM_MODE,
            "red gems are only used in storm mode",
            action,
            W("not_storm_mode"),
        )
    if action.holder not in state.spirits:
        return _fail(
            Reason.NOT_A_CHOICE,
            f"{action.holder.title} is not playing in this game",
            action,
            W("not_playing", spirit=action.holder.title),
        )
    if state.gems_held[state.spirits.index(action.holder)] == 0:
        return _fail(
            Reason.NO_GEM,
            f"{action.holder.title} holds no red gem to spend",
            action,
            W("no_gem_to_spend", spirit=action.holder.title),
        )
    return 0


def _price_end_turn(state: GameState, action: EndTurn) -> int:
    spirit = state.active_spirit
    pos = state.pawns[state.active]
    assert pos is not None
    if state.must_leave:
        return _fail(
            Reason.MUST_LEAVE_FIRST,
            f"a gem anchors card {state.island_at(pos.cell)} under {spirit.title}: "
            f"{_PRONOUN[spirit]} first action must be a Fly away from it",
            action,
            W("must_leave_first", island=state.island_at(pos.cell), spirit=spirit.title),
        )
    if pos.outside and not state.is_free(pos.cell):
        why = "anchored" if pos.cell in state.anchored else "occupied"
        return _fail(
            Reason.LANDING_NOT_FREE,
            f"Austro must end his turn on the card beside him, and card "
            f"{state.island_at(pos.cell)} is {why}: fly beside a free card first",
            action,
            W("austro_end_not_free", island=state.island_at(pos.cell), block=why),
        )
    return 0


class _Blocked(NamedTuple):
    reason: Reason
    text: str
    values: dict[str, str | int]  # block, at, by: the Wording values of the blocked card


def _blocked_reason(state: GameState, cell: Cell) -> _Blocked | None:
    island = state.island_at(cell)
    if cell in state.anchored:
        values: dict[str, str | int] = {"block": "anchored", "at": island, "by": ""}
        return _Blocked(Reason.ANCHORED, f"card {island} is anchored by a red gem", values)
    if _occupied(state, cell):
        who = next(
            s.title
            for s, p in zip(state.spirits, state.pawns, strict=True)
            if p is not None and not p.outside and p.cell == cell
        )
        values = {"block": "occupied", "at": island, "by": who}
        return _Blocked(Reason.OCCUPIED, f"card {island} is occupied by {who}", values)
    return None


def _need_ap(state: GameState, action: Action, cost: int, what: str) -> None:
    if cost > state.ap:
        raise _refuse(
            Reason.NOT_ENOUGH_AP,
            f"{what} costs {cost} AP and {state.active_spirit.title} has {state.ap} AP left",
            action,
            W(
                "not_enough_ap",
                action=type(action).__name__.lower(),
                cost=cost,
                spirit=state.active_spirit.title,
                ap=state.ap,
            ),
        )


def _price_fly(state: GameState, action: Fly) -> int:
    spirit = state.active_spirit
    name = spirit.title
    pos = state.pawns[state.active]
    assert pos is not None
    to = action.to
    island = state.island_at(to)
    if to == pos.cell:
        where = "beside" if pos.outside else "on"
        return _fail(
            Reason.SAME_CELL,
            f"{name} is already {where} card {island}",
            action,
            W("fly_same_cell", spirit=name, side=where, island=island),
        )
    if pos.outside and not is_edge(to):
        return _fail(
            Reason.NOT_EDGE,
            f"Austro flies around the outside of the grid: card {island} is not on its edge",
            action,
            W("not_edge", island=island),
        )
    blocked = _blocked_reason(state, to)
    if blocked is not None:
        verb = "fly beside" if pos.outside else "fly to"
        side = "beside" if pos.outside else "on"
        return _fail(
            blocked.reason,
            f"{name} cannot {verb} card {island}: {blocked.text}",
            action,
            W("fly_blocked", spirit=name, side=side, island=island, **blocked.values),
        )
    if not pos.outside and not is_adjacent(pos.cell, to):
        here = state.island_at(pos.cell)
        deck = state.config.deck
        if spirit is Spirit.BOREA:
            colour = deck.colour(here)
            if deck.colour(island) != colour:
                return _fail(
                    Reason.WRONG_COLOUR,
                    f"Borea flies to an adjacent card or to a card of her card's colour "
                    f"({colour}); card {island} is {deck.colour(island)}",
                    action,
                    W("fly_colour", colour=colour, island=island, its=deck.colour(island)),
                )
        elif spirit is Spirit.JUGO:
            icon = deck.icon(here)
            if deck.icon(island) != icon:
                return _fail(
                    Reason.WRONG_ICON,
                    f"Jugo flies to an adjacent card or to a card showing his card's icon "
                    f"({icon}); card {island} shows {_a(deck.icon(island))}",
                    action,
                    W("fly_icon", icon=icon, island=island, its=deck.icon(island)),
                )
        elif spirit is Spirit.ETESIA:
            between = diagonal_between(pos.cell, to)
            if between is None:
                return _fail(
                    Reason.NOT_ON_DIAGONAL,
                    f"Etesia flies to an adjacent card or along a diagonal; card {island} is "
                    "on neither",
                    action,
                    W("fly_diagonal", island=island),
                )
            for cell in between:
                stop = _blocked_reason(state, cell)
                if stop is not None:
                    return _fail(
                        Reason.BLOCKED_PATH,
                        f"Etesia cannot fly over card {state.island_at(cell)} to card "
                        f"{island}: {stop.text}",
                        action,
                        W("fly_over", island=island, **stop.values),
                    )
        else:
            return _fail(
                Reason.NOT_ADJACENT,
                f"{name} flies only to an orthogonally adjacent card; card {island} is not "
                f"next to card {here}",
                action,
                W("fly_adjacent", spirit=name, island=island, here=here),
            )
    _need_ap(state, action, 1, "a Fly")
    return 1


def _price_retrieve(state: GameState, action: Retrieve) -> int:
    if state.config.mode is not Mode.STORM:
        return _fail(
            Reason.NOT_STORM_MODE,
            "red gems are only used in storm mode",
            action,
            W("not_storm_mode"),
        )
    island = state.island_at(action.cell)
    if action.cell not in state.anchored:
        return _fail(
            Reason.NO_GEM,
            f"there is no red gem on card {island}",
            action,
            W("no_gem_here", island=island),
        )
    _must_leave_check(state, action)
    _need_ap(state, action, 1, "retrieving a gem")
    pos = state.pawns[state.active]
    assert pos is not None
    if pos.outside:
        freed = action.cell == pos.cell and not _occupied(state, action.cell)
        _austro_landing_check(state, action, freed, state.ap - 1)
    return 1


def _must_leave_check(state: GameState, action: Action) -> None:
    if state.must_leave:
        spirit = state.active_spirit
        pos = state.pawns[state.active]
        assert pos is not None
        raise _refuse(
            Reason.MUST_LEAVE_FIRST,
            f"a gem anchors card {state.island_at(pos.cell)} under {spirit.title}: "
            f"{_PRONOUN[spirit]} first action must be a Fly away from it",
            action,
            W("must_leave_first", island=state.island_at(pos.cell), spirit=spirit.title),
        )


def _austro_landing_check(state: GameState, action: Action, freed: bool, ap_after: int) -> None:
    pos = state.pawns[state.active]
    assert pos is not None
    blocked = blocked_mask(state)
    if _strands_austro(blocked, index(pos.cell), freed, ap_after, total_gems_held(state)):
        raise _refuse(
            Reason.LANDING_NOT_FREE,
            f"after this Austro would have no AP left to fly beside a free card, and he may "
            f"not land on card {state.island_at(pos.cell)}",
            action,
            W("austro_stranded", island=state.island_at(pos.cell)),
        )


def _price_breeze(state: GameState, action: Breeze) -> int:
    spirit = state.active_spirit
    name = spirit.title
    pos = state.pawns[state.active]
    assert pos is not None
    a, b = action.a, action.b
    if a == b:
        return _fail(
            Reason.SAME_CELL, "a Breeze swaps two different cards", action, W("breeze_same_cell")
        )
    _must_leave_check(state, action)
    deck = state.config.deck
    here = state.island_at(pos.cell)
    region: tuple[bool, ...] | None = None
    if spirit is Spirit.SKYRON:
        if b == pos.cell and a != pos.cell:
            a, b = b, a
        if a != pos.cell:
            return _fail(
                Reason.NOT_OWN_CARD,
                f"Skyron's Breeze swaps his own card ({here}) with another card; neither card "
                f"{state.island_at(action.a)} nor card {state.island_at(action.b)} is his",
                action,
                W(
                    "skyron_own_card",
                    here=here,
                    a=state.island_at(action.a),
                    b=state.island_at(action.b),
                ),
            )
        if action.stand not in (a, b):
            return _fail(
                Reason.BAD_STAND,
                f"after his Breeze Skyron stands on one of the two swapped cards "
                f"({state.island_at(a)} or {state.island_at(b)}): say which",
                action,
                W("skyron_stand", a=state.island_at(a), b=state.island_at(b)),
            )
        if a in state.anchored:
            return _fail(
                Reason.ANCHORED,
                f"Skyron's card {here} is anchored by a red gem and cannot move",
                action,
                W("skyron_anchored", here=here),
            )
        problem = _blocked_reason(state, b)
        if problem is not None:
            return _fail(
                problem.reason,
                f"Skyron cannot swap with card {state.island_at(b)}: {problem.text}",
                action,
                W("skyron_blocked", island=state.island_at(b), **problem.values),
            )
    else:
        if action.stand is not None:
            return _fail(
                Reason.BAD_STAND,
                f"only Skyron chooses where to stand after a Breeze, not {name}",
                action,
                W("stand_not_skyron", spirit=name),
            )
        for cell in (a, b):
            problem = _blocked_reason(state, cell)
            if problem is not None:
                return _fail(
                    problem.reason,
                    f"{name} cannot swap card {state.island_at(cell)}: {problem.text}",
                    action,
                    W(
                        "breeze_blocked",
                        spirit=name,
                        island=state.island_at(cell),
                        **problem.values,
                    ),
                )
        ia, ib = state.island_at(a), state.island_at(b)
        if spirit is Spirit.BOREA:
            icon = deck.icon(here)
            if deck.icon(ia) != icon and deck.icon(ib) != icon:
                return _fail(
                    Reason.WRONG_ICON,
                    f"Borea can only swap a card showing her card's icon ({icon}); "
                    f"card {ia} shows {_a(deck.icon(ia))} and card {ib} shows "
                    f"{_a(deck.icon(ib))}",
                    action,
                    W(
                        "breeze_icon",
                        icon=icon,
                        a=ia,
                        a_is=deck.icon(ia),
                        b=ib,
                        b_is=deck.icon(ib),
                    ),
                )
        elif spirit is Spirit.JUGO:
            colour = deck.colour(here)
            if deck.colour(ia) != colour and deck.colour(ib) != colour:
                return _fail(
                    Reason.WRONG_COLOUR,
                    f"Jugo can only swap a card of his card's colour ({colour}); "
                    f"card {ia} is {deck.colour(ia)} and card {ib} is {deck.colour(ib)}",
                    action,
                    W(
                        "breeze_colour",
                        colour=colour,
                        a=ia,
                        a_is=deck.colour(ia),
                        b=ib,
                        b_is=deck.colour(ib),
                    ),
                )
        elif spirit is Spirit.ETESIA:
            if not is_adjacent(pos.cell, a) and not is_adjacent(pos.cell, b):
                return _fail(
                    Reason.NOT_ADJACENT_TO_SPIRIT,
                    f"Etesia can only swap a card orthogonally adjacent to her (on card "
                    f"{here}); neither card {ia} nor card {ib} is",
                    action,
                    W("breeze_adjacent", here=here, a=ia, b=ib),
                )
        elif spirit is Spirit.AUSTRO:
            region = CROSSES[index(pos.cell)]
            for cell in (a, b):
                if not region[index(cell)]:
                    return _fail(
                        Reason.OUTSIDE_CROSS,
                        f"Austro, beside card {here}, can only swap cards in its row or "
                        f"column; card {state.island_at(cell)} is in neither",
                        action,
                        W("breeze_cross", here=here, island=state.island_at(cell)),
                    )
    blocked = blocked_mask(state)
    cost = breeze_distances(index(a), blocked, region)[index(b)]
    if cost < 0:
        via = " within his cross" if region is not None else ""
        return _fail(
            Reason.NO_PATH,
            f"card {state.island_at(a)} cannot reach card {state.island_at(b)}{via}: every "
            "path overflies an occupied or anchored card",
            action,
            W(
                "breeze_no_path",
                a=state.island_at(a),
                b=state.island_at(b),
                cross="yes" if region is not None else "",
            ),
        )
    _need_ap(state, action, cost, "this Breeze")
    if pos.outside:
        _austro_landing_check(state, action, pos.cell in (a, b), state.ap - cost)
    return cost
