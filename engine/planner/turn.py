"""Searching one spirit's turn: a beam search over action sequences, and the exhaustive
search the tests compare it with.

A *leaf* is where a turn can end: a state in which ``EndTurn`` is legal (Austro must end
beside a free card; a pawn under a fresh gem must fly first), or a state the rules already
moved on from (the game ended). States reached by different orders of the same actions are
searched once: a turn's actions often commute (two swaps far apart).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ..actions import Action, Breeze, EndTurn, Retrieve, Spend
from ..grid import index
from ..rules import PricedAction, apply_action, legal_actions
from ..state import GameState, Mode, Phase
from .evaluate import (
    DEFAULT_WEIGHTS,
    POINTS,
    STEPS,
    Features,
    Weights,
    estimate,
    features,
    future_ap,
    storms_to_come,
    value_of,
)

StateKey = tuple[object, ...]


class OutOfBudget(Exception):
    """Raised inside a search when its time or node budget is spent."""


@dataclass
class Budget:
    """Time and node budget shared by every search of one decision, with the counters.

    ``nodes`` counts states expanded (legal actions generated); it is what the tests and
    the benchmark use to see how much searching a budget buys.
    """

    deadline: float | None = None  # time.perf_counter() value
    max_nodes: int | None = None
    nodes: int = 0
    enforced: bool = True  # off while the first, always-completed iteration runs
    legal_cache: dict[StateKey, list[PricedAction]] = field(default_factory=dict)

    def expand(self, state: GameState) -> list[PricedAction]:
        if self.enforced:
            if self.max_nodes is not None and self.nodes >= self.max_nodes:
                raise OutOfBudget
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise OutOfBudget
        key = full_key(state)
        moves = self.legal_cache.get(key)
        if moves is None:
            self.nodes += 1
            moves = legal_actions(state)
            self.legal_cache[key] = moves
        return moves


def position_key(state: GameState) -> StateKey:
    """What distinguishes two states inside one turn."""
    return (state.grid, state.pawns, state.anchored, state.gems_held, state.ap, state.must_leave)


def full_key(state: GameState) -> StateKey:
    # the solo choices' options depend on who sleeps and who played
    return (
        *position_key(state),
        state.phase,
        state.active,
        state.round,
        state.turns_done,
        state.sleeping,
        state.played,
    )


def same_turn(a: GameState, b: GameState) -> bool:
    return (
        b.phase is Phase.TURN
        and a.phase is Phase.TURN
        and a.active == b.active
        and a.round == b.round
        and a.turns_done == b.turns_done
    )


def storm_free(state: GameState) -> GameState:
    """The same position in a game without storms.

    The storm and grid decks are face down, but they are in the state: a search that plays
    past the start of a round on the real state would see the next storm. Past a round
    start the planner plays on this copy instead, imagining no storm.
    """
    if state.config.mode is not Mode.STORM:
        return state
    return replace(state, config=replace(state.config, mode=Mode.STANDARD))


def apply_blind(state: GameState, action: Action) -> GameState:
    """``apply_action``, except that a turn ending a storm round strikes no storm."""
    child = apply_action(state, action)
    if child.round != state.round and state.config.mode is Mode.STORM:
        # Only Fly and Breeze end a turn by themselves, and both are legal without storms.
        child = apply_action(storm_free(state), action)
    return child


@dataclass(frozen=True)
class TurnLeaf:
    """One way to play the turn: ``actions`` (without the final EndTurn) and where it ends.

    ``ended`` is True when the rules already moved past the turn (the game is over);
    otherwise ``state`` is the position just before EndTurn.
    """

    actions: tuple[Action, ...]
    state: GameState
    ended: bool
    value: float


@dataclass
class TurnSearch:
    leaves: list[TurnLeaf]  # best first
    truncated: bool  # False: every reachable leaf was considered (an exhaustive search)


def _leaf_value(state: GameState, later_ap: int, storms: int, weights: Weights) -> float:
    return estimate(state, later_ap, storms=storms, weights=weights)


def _predict(state: GameState, f: Features, priced: PricedAction) -> tuple[Features, int, bool]:
    """The features and AP after ``priced`` without building the state.

    Building a state (``apply_action`` checks the action again and copies the state) costs
    far more than this, so the beam ranks every move by prediction and builds only the
    moves it keeps. Returns the features, the AP left and whether the turn ends by itself.
    """
    action, cost = priced
    ap = state.ap - cost
    gems = sum(state.gems_held)
    if isinstance(action, Breeze):
        grid = state.grid
        ia, ib = index(action.a), index(action.b)
        x, y = grid[ia], grid[ib]
        home_before = (x - 1 == ia) + (y - 1 == ib)
        home_after = (x - 1 == ib) + (y - 1 == ia)
        f = Features(
            f.score + POINTS[x][ib] + POINTS[y][ia] - POINTS[x][ia] - POINTS[y][ib],
            f.distance + STEPS[x][ib] + STEPS[y][ia] - STEPS[x][ia] - STEPS[y][ib],
            f.anchored,
            f.loose + home_after - home_before,  # swapped cards are never anchored
        )
    elif isinstance(action, Retrieve):
        home = state.is_home(action.cell)
        f = Features(f.score + 1, f.distance, f.anchored - 1, f.loose + home)
        gems += 1
    elif isinstance(action, Spend):
        return Features(f.score - 1, f.distance, f.anchored, f.loose), state.ap + 1, False
    return f, ap, ap == 0 and gems == 0


def beam_turn(
    root: GameState,
    width: int,
    budget: Budget,
    *,
    weights: Weights = DEFAULT_WEIGHTS,
) -> TurnSearch:
    """Beam search over the active spirit's action sequences, ``width`` states per step.

    Each step ranks every move of every state in the beam by its predicted estimate (the
    AP left counted at ``weights.ap_now`` each, so a cheaper way to the same grid ranks
    higher), then builds the best moves until it holds ``width`` new states. Every state
    where the turn may end is a leaf. A move that ends the turn by itself (the last AP) is
    a leaf whose value the prediction gives exactly, so it is only built if it ranks among
    the ``width`` best leaves: the search stays exhaustive as long as no in-turn state is
    cut from the beam.
    """
    later = future_ap(root)
    storms = storms_to_come(root)
    leaves: dict[StateKey, TurnLeaf] = {}
    pending: list[tuple[float, GameState, tuple[Action, ...], Action]] = []
    seen = {position_key(root)}
    frontier: list[tuple[GameState, tuple[Action, ...]]] = [(root, ())]
    truncated = False

    def add_leaf(state: GameState, actions: tuple[Action, ...], ended: bool) -> None:
        key = full_key(state)
        old = leaves.get(key)
        # The same end position by fewer actions reads better in a hint.
        if old is None or len(actions) < len(old.actions):
            value = _leaf_value(state, later, storms, weights)
            leaves[key] = TurnLeaf(actions, state, ended, value)

    while frontier:
        ranked: list[tuple[float, int, GameState, tuple[Action, ...], Action]] = []
        for state, actions in frontier:
            moves = budget.expand(state)
            f = features(state)
            for priced in moves:
                if isinstance(priced.action, EndTurn):
                    add_leaf(state, actions, ended=False)
                    continue
                g, ap, ends = _predict(state, f, priced)
                if ends:
                    value = value_of(g, later, 0, storms, weights)
                    pending.append((value, state, actions, priced.action))
                    continue
                value = value_of(g, later, ap, storms, weights)
                # the counter keeps the sort stable and away from comparing states
                ranked.append((value, len(ranked), state, actions, priced.action))
        ranked.sort(key=lambda item: (-item[0], item[1]))
        frontier = []
        for _, _, state, actions, action in ranked:
            if len(frontier) >= width:
                truncated = True
                break
            child = apply_blind(state, action)
            path = (*actions, action)
            if not same_turn(root, child):  # cannot happen (predicted), kept for safety
                add_leaf(child, path, ended=True)
                continue
            key = position_key(child)
            if key not in seen:
                seen.add(key)
                frontier.append((child, path))
    # Build the turn-ending moves that rank among the best leaves.
    floor = sorted((leaf.value for leaf in leaves.values()), reverse=True)
    cut = floor[width - 1] if len(floor) >= width else float("-inf")
    pending.sort(key=lambda item: -item[0])
    for value, state, actions, action in pending[:width]:
        if value < cut:
            break
        add_leaf(apply_blind(state, action), (*actions, action), ended=True)
    ordered = sorted(leaves.values(), key=lambda leaf: (-leaf.value, len(leaf.actions)))
    return TurnSearch(ordered[:width] if len(ordered) > width else ordered, truncated)


def exhaustive_turn(
    root: GameState,
    *,
    weights: Weights = DEFAULT_WEIGHTS,
    evaluate: Callable[[GameState, bool], float] | None = None,
) -> tuple[float, tuple[Action, ...], int]:
    """The best value over *every* legal action sequence of the turn (for the tests).

    Returns the best leaf value, one sequence reaching it and the number of sequences
    tried (no transposition table: each order is played out, as a referee would).
    """
    later = future_ap(root)
    storms = storms_to_come(root)

    def value_of(state: GameState, ended: bool) -> float:
        if evaluate is not None:
            return evaluate(state, ended)
        return _leaf_value(state, later, storms, weights)

    best: tuple[float, tuple[Action, ...]] = (float("-inf"), ())
    count = 0

    def walk(state: GameState, actions: tuple[Action, ...]) -> None:
        nonlocal best, count
        for priced in legal_actions(state):
            action = priced.action
            if isinstance(action, EndTurn):
                count += 1
                v = value_of(state, False)
                if v > best[0]:
                    best = (v, actions)
                continue
            child = apply_blind(state, action)
            if not same_turn(root, child):
                count += 1
                v = value_of(child, True)
                if v > best[0]:
                    best = (v, (*actions, action))
                continue
            walk(child, (*actions, action))

    walk(root, ())
    return best[0], best[1], count
