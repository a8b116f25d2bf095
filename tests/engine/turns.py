"""Random mid-game states and random turns, played with the real rules.

Shared by the explainer's property tests and ``benchmarks/engine_bench.py``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from zefiria.engine.actions import Action, Breeze, EndTurn, Fly, Retrieve, Spend
from zefiria.engine.errors import IllegalActionError
from zefiria.engine.rules import PricedAction, action_cost, apply_action, legal_actions
from zefiria.engine.setup import new_game
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Difficulty, GameConfig, GameState, Mode, Phase

TABLE_ACTIONS = (Fly, Breeze, Retrieve)


def _pick(rng: random.Random, options: list[PricedAction]) -> Action:
    # Breezes outnumber everything else; pick the kind first so flights get played too.
    kinds: dict[type, list[PricedAction]] = {}
    for p in options:
        kinds.setdefault(type(p.action), []).append(p)
    kind = rng.choice(sorted(kinds, key=lambda k: k.__name__))
    return rng.choice(kinds[kind]).action


def mid_game(
    seed: int,
    spirit: Spirit,
    *,
    storm: bool | None = None,
    players_from: tuple[int, ...] = (2, 3, 4, 1),
) -> GameState:
    """A state at the start of ``spirit``'s turn after some rounds of random play."""
    rng = random.Random(seed)
    others = [s for s in Spirit if s is not spirit]
    rng.shuffle(others)
    players = rng.choice(players_from)
    if players == 1:
        spirits = (spirit, *others[:2])
    else:
        spirits = (spirit, *others[: players - 1])
        spirits = tuple(rng.sample(spirits, len(spirits)))
    mode = (
        (Mode.STORM if rng.random() < 0.5 else Mode.STANDARD)
        if storm is None
        else (Mode.STORM if storm else Mode.STANDARD)
    )
    config = GameConfig(players, mode, spirits, Difficulty.EASY if players == 1 else None)
    state = new_game(config, seed=seed, sleeper=others[0] if players == 1 else None)
    target_turns = rng.randrange(2, 8)
    turns = 0
    while True:
        if state.phase is Phase.OVER:  # a short game ended: start again
            return mid_game(seed + 7919, spirit, storm=storm, players_from=players_from)
        if (
            state.phase is Phase.TURN
            and state.active_spirit is spirit
            and turns >= target_turns
            and state.ap == state.config.ap_per_turn
        ):
            return state
        options = legal_actions(state)
        if state.phase is Phase.TURN and rng.random() < 0.15:
            action: Action = (
                EndTurn()
                if any(isinstance(p.action, EndTurn) for p in options)
                else _pick(rng, options)
            )
        else:
            action = _pick(rng, options)
        before = state.active
        state = apply_action(state, action)
        if state.phase is not Phase.TURN or state.active != before:
            turns += 1


@dataclass(frozen=True)
class Turn:
    start: GameState
    actions: tuple[Action, ...]  # table actions and the Spend actions they needed
    cost: int  # AP spent
    table: GameState  # the state right after the last action, before any end of turn


def random_turn(start: GameState, rng: random.Random, max_actions: int = 4) -> Turn:
    """1..max_actions random table actions of the active spirit within its AP."""
    state = start
    # The rules end the turn at 0 AP; play on a copy with AP to spare, then replay for real.
    sandbox_ap = start.ap + sum(start.gems_held) + 10
    sandbox = _with_ap(start, sandbox_ap)
    budget = start.ap + sum(start.gems_held)
    n = rng.randint(1, max_actions)
    actions: list[Action] = []
    cost = 0
    retrieved = 0
    for _ in range(n):
        options = [
            p
            for p in legal_actions(sandbox)
            if isinstance(p.action, TABLE_ACTIONS) and cost + p.cost <= budget + retrieved
        ]
        if not options:
            break
        action = _pick(rng, options)
        price = next(p.cost for p in options if p.action == action)
        sandbox = apply_action(sandbox, action)
        actions.append(action)
        cost += price
        retrieved += isinstance(action, Retrieve)
    # Replay on the real state, spending gems when the AP run short.
    real: list[Action] = []
    state = start
    for action in actions:
        price = _price(state, action)
        while state.ap < price:
            holder = next(s for s, k in zip(state.spirits, state.gems_held, strict=True) if k)
            state = apply_action(state, Spend(holder))
            real.append(Spend(holder))
        state = apply_action(state, action)
        real.append(action)
    table = _with_ap(sandbox, 0)
    return Turn(start, tuple(real), cost, table)


def _price(state: GameState, action: Action) -> int:
    # With too few AP the rules refuse; price it with AP to spare.
    try:
        return action_cost(state, action)
    except IllegalActionError:
        return action_cost(_with_ap(state, 99), action)


def _with_ap(state: GameState, ap: int) -> GameState:
    return replace(state, ap=ap)
