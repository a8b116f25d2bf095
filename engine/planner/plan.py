"""``best_turn``: the planner's one entry point, an anytime search under a time budget."""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..actions import Action, EndTurn
from ..rules import apply_action, legal_actions
from ..state import GameState, Phase
from .evaluate import DEFAULT_WEIGHTS, Weights, current_score
from .explain import explain, format_action
from .lookahead import SCHEDULE, Iteration, Line, after_turn, search_lines
from .turn import Budget, OutOfBudget, TurnLeaf, storm_free


@dataclass(frozen=True)
class Plan:
    """What the planner advises: apply ``actions`` in order.

    ``value`` is the estimated final score if the players follow the planner from here on;
    ``exhaustive`` is True when the search considered every option over its horizon.
    """

    actions: tuple[Action, ...]
    cost: int  # AP the actions cost (gems spent add AP, they do not lower the cost)
    score_before: int
    score_after: int
    value: float
    explanation: str
    nodes: int  # positions expanded: how much searching the budget bought
    horizon: int  # turns looked ahead, this one included
    exhaustive: bool

    def notation(self) -> list[str]:
        return [format_action(a) for a in self.actions]


# The search stops at its deadline but finishes the expansion under way, which measured up to
# ~15 ms over with a 1 s budget (benchmarks/results/planner.md). 0.9 s keeps a decision under
# the 1 s target on the development machine (about 3 s on a Pi 5, where each step is slower).
DEFAULT_BUDGET_S = 0.9


def best_turn(
    state: GameState,
    *,
    budget_s: float = DEFAULT_BUDGET_S,
    max_nodes: int | None = None,
    horizon: int | None = None,
    weights: Weights = DEFAULT_WEIGHTS,
) -> Plan:
    """The best plan for the player to act in ``state`` found within the budget.

    ``budget_s`` bounds the wall time loosely (the first, cheapest iteration always
    completes; a running one is abandoned at the deadline). ``max_nodes`` bounds the
    positions expanded instead, which makes the answer reproducible. ``horizon`` caps the
    number of turns looked ahead (1 = this turn only).
    """
    if state.phase is Phase.OVER:
        raise ValueError("the game is over: there is nothing to plan")
    budget = Budget(deadline=time.perf_counter() + budget_s, max_nodes=max_nodes)
    schedule = [it for it in SCHEDULE if horizon is None or it.horizon <= horizon]
    if horizon is not None:
        # keep widening past the schedule's end when the horizon is capped (small tests)
        last = schedule[-1]
        schedule += [
            Iteration(last.turn_width * k, last.later_width * k, last.round_width * k, horizon)
            for k in (2, 4, 8, 16, 64, 256, 1024)
        ]
    if state.phase is Phase.TURN:
        return _plan_turn(state, schedule, budget, weights)
    return _plan_choice(state, schedule, budget, weights)


def _anytime(
    roots: list[GameState], schedule: list[Iteration], budget: Budget, weights: Weights
) -> tuple[list[list[Line]], Iteration, bool]:
    """Run the schedule on every root until the budget is spent; the last full answers."""
    best: list[list[Line]] = []
    used = schedule[0]
    complete = False
    for n, it in enumerate(schedule):
        budget.enforced = n > 0
        answers = []
        finished = True
        try:
            for root in roots:
                lines, done = search_lines(root, it, budget, weights=weights)
                answers.append(lines)
                finished = finished and done
        except OutOfBudget:
            break
        best, used, complete = answers, it, finished
        if complete:
            break
    return best, used, complete


def _plan_turn(state: GameState, schedule: list[Iteration], budget: Budget, w: Weights) -> Plan:
    answers, used, complete = _anytime([state], schedule, budget, w)
    lines = answers[0]
    if lines:
        first, value = lines[0].first, lines[0].last.value
    else:  # no way to end the turn was found (should not happen): end it now
        first, value = TurnLeaf((), state, False, 0.0), None
    actions = first.actions if first.ended else (*first.actions, EndTurn())
    return _make_plan(state, actions, value, budget.nodes, used.horizon, complete)


def _plan_choice(state: GameState, schedule: list[Iteration], budget: Budget, w: Weights) -> Plan:
    """Setup corners, solo choices and Austro's exit: try each option, search after it."""
    options = [p.action for p in legal_actions(state)]
    if len(options) == 1:
        return _make_plan(state, (options[0],), None, 0, 0, True)
    starts = [_first_turns(state, a) for a in options]
    roots = [s for group in starts for s in group]
    answers, used, complete = _anytime(roots, schedule, budget, w)
    values: list[float] = []
    i = 0
    for group in starts:
        group_values = [answers[i + k][0].last.value for k in range(len(group)) if answers[i + k]]
        values.append(max(group_values, default=float("-inf")))
        i += len(group)
    pick = max(range(len(options)), key=lambda k: values[k])
    return _make_plan(state, (options[pick],), values[pick], budget.nodes, used.horizon, complete)


def _first_turns(state: GameState, action: Action) -> list[GameState]:
    """Where turns start after choosing ``action`` (the rest of a setup played simply)."""
    if state.phase is Phase.CHOOSE_SLEEPER:
        state = storm_free(state)  # the next round's storm is face down
    nxt = apply_action(state, action)
    while nxt.phase is Phase.SETUP:  # the other players' corners: their first option
        nxt = apply_action(nxt, legal_actions(nxt)[0].action)
    if nxt.phase is Phase.TURN:
        return [nxt]
    if nxt.phase is Phase.OVER:
        return []
    probe = TurnLeaf((), nxt, True, 0.0)
    return after_turn(probe, Budget(enforced=False))


def _make_plan(
    state: GameState,
    actions: tuple[Action, ...],
    value: float | None,
    nodes: int,
    horizon: int,
    exhaustive: bool,
) -> Plan:
    """Replay the actions to price them and to explain them (``value`` None: no search)."""
    states = [state]
    cost = 0
    for action in actions:
        current = states[-1]
        priced = {p.action: p.cost for p in legal_actions(current)}
        cost += priced.get(action, 0)
        states.append(apply_action(current, action))
    before, after = current_score(state), current_score(states[-1])
    if value is None:
        value = float(after)
    text = explain(
        states,
        actions,
        score_before=before,
        score_after=after,
        nodes=nodes,
        horizon=horizon,
    )
    return Plan(actions, cost, before, after, value, text, nodes, horizon, exhaustive)
