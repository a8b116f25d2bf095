"""Whole games played by a policy: the planner, one-turn greedy, or random legal play.

``zefiria autoplay`` and the tests use this to measure the planner on the same deals as
the baselines: a deal is a seed, and :func:`deal` turns it into the same starting state
(grid, storm decks, solo sleeper, spirits) whichever policy then plays it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..actions import Action, EndTurn
from ..rules import apply_action, legal_actions
from ..setup import new_game
from ..spirits import Spirit
from ..state import Difficulty, GameConfig, GameState, Mode, Phase
from .evaluate import Weights, current_score
from .plan import DEFAULT_BUDGET_S, best_turn

Policy = Callable[[GameState], Sequence[Action]]

# One-turn greedy: the best immediate score change this turn, nothing for the future.
GREEDY_WEIGHTS = Weights(distance=0.0, ap_now=0.0, gem_on_card=0.0, storm_risk=0.0)
GREEDY_NODES = 150  # enough to find the best score change of a 4-5 AP turn in practice


def deal(
    players: int,
    mode: Mode,
    seed: int,
    *,
    spirits: Sequence[Spirit] | None = None,
    difficulty: Difficulty | None = None,
) -> GameState:
    """The starting state of deal ``seed``: spirits drawn from the seed unless given."""
    count = 3 if players == 1 else players
    if spirits is None:
        spirits = random.Random(f"spirits-{seed}").sample(list(Spirit), count)
    if players == 1 and difficulty is None:
        difficulty = Difficulty.MEDIUM
    config = GameConfig(players, mode, tuple(spirits), difficulty if players == 1 else None)
    return new_game(config, seed=seed)


def planner_policy(
    budget_s: float = DEFAULT_BUDGET_S, max_nodes: int | None = None, horizon: int | None = None
) -> Policy:
    def play(state: GameState) -> Sequence[Action]:
        return best_turn(state, budget_s=budget_s, max_nodes=max_nodes, horizon=horizon).actions

    return play


def greedy_policy(max_nodes: int = GREEDY_NODES) -> Policy:
    def play(state: GameState) -> Sequence[Action]:
        plan = best_turn(
            state, budget_s=3600.0, max_nodes=max_nodes, horizon=1, weights=GREEDY_WEIGHTS
        )
        return plan.actions

    return play


def random_policy(seed: int) -> Policy:
    """Random legal play: any legal action but EndTurn while one is left, then EndTurn."""
    rng = random.Random(seed)

    def play(state: GameState) -> Sequence[Action]:
        moves = [p.action for p in legal_actions(state)]
        if state.phase is not Phase.TURN:
            return [rng.choice(moves)]
        actions: list[Action] = []
        start = (state.active, state.round)
        while state.phase is Phase.TURN and (state.active, state.round) == start:
            moves = [p.action for p in legal_actions(state)]
            doing = [m for m in moves if not isinstance(m, EndTurn)]
            action = rng.choice(doing) if doing else moves[0]
            actions.append(action)
            state = apply_action(state, action)
        return actions

    return play


@dataclass(frozen=True)
class GameResult:
    seed: int
    spirits: tuple[Spirit, ...]
    score: int
    decision_s: tuple[float, ...]  # wall time of every turn decision
    solved: bool  # every card home (in storm mode a score of 25 may hide gems)


def final_score(state: GameState) -> int:
    try:
        from ..scoring import score
    except ImportError:  # the scoring module is another engineer's; inline until it lands
        return current_score(state)
    return int(score(state).total)


def play_game(state: GameState, policy: Policy, seed: int = 0) -> GameResult:
    """Play ``state`` to the end with ``policy``; time every turn decision."""
    times: list[float] = []
    while state.phase is not Phase.OVER:
        turn = state.phase is Phase.TURN
        start = time.perf_counter()
        actions = policy(state)
        if turn:
            times.append(time.perf_counter() - start)
        if not actions:
            raise RuntimeError(f"the policy gave no action in phase {state.phase.value}")
        for action in actions:
            state = apply_action(state, action)
    solved = state.grid == tuple(range(1, len(state.grid) + 1))
    return GameResult(seed, state.spirits, final_score(state), tuple(times), solved)
