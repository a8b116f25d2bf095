"""Planning a turn together with the turns that follow it: a beam search over whole turns.

The spirits cooperate, so a turn is good when it sets up the next spirits' turns (Borea's
colours and icons, Skyron standing on a card he can carry, Etesia beside the cards to swap).
A greedy turn-by-turn player cannot see that. This search keeps the ``round_width`` best
positions after every turn of a horizon of ``horizon`` turns, each extended by a beam search
of the next spirit's turn, and returns the first turn of the best line found.

Choices between turns (the solo sleeper and first spirit, Austro's exit side) branch like
moves. In storm mode the decks are face down: a line that crosses the start of a round goes
on in a storm-free copy of the state, so the planner never sees the next storm.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import EndTurn
from ..rules import apply_action
from ..state import GameState, Mode, Phase
from .evaluate import DEFAULT_WEIGHTS, Weights
from .turn import Budget, TurnLeaf, beam_turn, full_key, storm_free

CHOICE_PHASES = (Phase.CHOOSE_FIRST, Phase.CHOOSE_SLEEPER, Phase.AUSTRO_EXIT)


@dataclass(frozen=True)
class Line:
    """A line of play: the first turn (what we answer) and the last position reached."""

    first: TurnLeaf
    last: TurnLeaf
    turns: int


@dataclass(frozen=True)
class Iteration:
    """The widths of one iteration of the anytime search."""

    turn_width: int  # beam width of the first turn
    later_width: int  # beam width of the turns after it
    round_width: int  # lines kept after each turn
    horizon: int  # turns searched, the first included


# Iterative widening and deepening: each iteration costs roughly twice the previous one.
SCHEDULE: tuple[Iteration, ...] = (
    Iteration(3, 2, 1, 1),
    Iteration(6, 3, 2, 2),
    Iteration(10, 4, 3, 2),
    Iteration(16, 5, 4, 3),
    Iteration(24, 6, 5, 3),
    Iteration(32, 8, 6, 4),
    Iteration(48, 10, 8, 4),
    Iteration(64, 12, 10, 5),
    Iteration(96, 16, 12, 6),
    Iteration(160, 24, 16, 6),
    Iteration(256, 32, 24, 8),
    Iteration(512, 48, 32, 8),
)


def after_turn(leaf: TurnLeaf, budget: Budget) -> list[GameState]:
    """The positions where the next turn starts, one per combination of choices between.

    Empty when the game is over.
    """
    if leaf.ended:
        states = [leaf.state]
    else:
        before = leaf.state
        crosses = before.config.mode is Mode.STORM and _last_turn_of_round(before)
        start = storm_free(before) if crosses else before
        states = [apply_action(start, EndTurn())]
    out: list[GameState] = []
    while states:
        state = states.pop()
        if state.phase is Phase.OVER:
            continue
        if state.phase in CHOICE_PHASES:
            # expanding through the budget counts the node and honours the deadline
            states.extend(apply_action(state, p.action) for p in budget.expand(state))
            continue
        out.append(state)
    return out


def _last_turn_of_round(state: GameState) -> bool:
    per_round = 2 if state.config.solo else state.config.players
    done = state.turns_done if state.config.solo else state.active
    return done + 1 >= per_round


def search_lines(
    root: GameState,
    it: Iteration,
    budget: Budget,
    *,
    weights: Weights = DEFAULT_WEIGHTS,
) -> tuple[list[Line], bool]:
    """One iteration: the best lines of ``it.horizon`` turns from ``root`` (best first).

    The flag is True when nothing was cut (the search was exhaustive over the horizon).
    """
    first = beam_turn(root, it.turn_width, budget, weights=weights)
    complete = not first.truncated
    lines = [Line(leaf, leaf, 1) for leaf in first.leaves]
    if len(lines) > it.round_width and it.horizon > 1:
        complete = False
    if it.horizon == 1:
        return lines, complete
    lines = lines[: it.round_width]
    finished: list[Line] = []
    for _ in range(it.horizon - 1):
        grown: dict[object, Line] = {}
        for line in lines:
            starts = after_turn(line.last, budget)
            if not starts:
                finished.append(line)  # the game ends with this turn: exact score
                continue
            for start in starts:
                nxt = beam_turn(start, it.later_width, budget, weights=weights)
                complete = complete and not nxt.truncated
                for leaf in nxt.leaves[: it.round_width]:
                    key = full_key(leaf.state)
                    old = grown.get(key)
                    if old is None or leaf.value > old.last.value:
                        grown[key] = Line(line.first, leaf, line.turns + 1)
        ranked = sorted(grown.values(), key=lambda ln: -ln.last.value)
        if len(ranked) > it.round_width:
            complete = False
        lines = ranked[: it.round_width]
        if not lines:
            break
    every = sorted(finished + lines, key=lambda ln: -ln.last.value)
    return every, complete
