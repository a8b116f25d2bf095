"""Random legal playouts in every mode, and hypothesis properties of the rules.

Set ``ZEFIRIA_PLAYOUTS=N`` for N games per configuration (default 100; the ``slow`` marker
tags the long run). Every game must end in phase OVER with a score in range, and along the
way: the grid is a permutation of 1..25, AP are never negative, anchored cards never move,
pawns never share a card, and every listed cost is the cost the judge gives.
"""

from __future__ import annotations

import os
import random
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from zefiria.engine.actions import (
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
from zefiria.engine.game import Game
from zefiria.engine.grid import ALL_CELLS
from zefiria.engine.rules import action_cost, apply_action, check_action, legal_actions
from zefiria.engine.scoring import score
from zefiria.engine.setup import new_game
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import Difficulty, GameConfig, GameState, Mode, Phase

PLAYOUTS = int(os.environ.get("ZEFIRIA_PLAYOUTS", "100"))

CONFIGS: list[tuple[int, Mode, Difficulty | None]] = [
    (players, mode, None) for players in (2, 3, 4) for mode in Mode
] + [(1, mode, d) for mode in Mode for d in Difficulty]


def make_config(players: int, mode: Mode, difficulty: Difficulty | None, rnd: random.Random):
    count = 3 if players == 1 else players
    spirits = tuple(rnd.sample(list(Spirit), count))
    return GameConfig(players, mode, spirits, difficulty)


def choose(options: list[Action], rnd: random.Random) -> Action:
    """Mostly act, sometimes end the turn early (so games both explore and finish)."""
    acting = [a for a in options if not isinstance(a, EndTurn)]
    if acting and rnd.random() < 0.85:
        return rnd.choice(acting)
    return rnd.choice(options)


def check_invariants(before: GameState | None, after: GameState) -> None:
    assert sorted(after.grid) == list(range(1, 26))
    assert after.ap >= 0
    assert all(n >= 0 for n in after.gems_held)
    on_cards = [p.cell for p in after.pawns if p is not None and not p.outside]
    assert len(on_cards) == len(set(on_cards))
    if after.config.mode is Mode.STORM:
        gems = len(after.anchored) + after.gem_pool + sum(after.gems_held) + after.gems_returned
        assert gems == 6
    if before is not None:
        for cell in before.anchored & after.anchored:
            assert before.island_at(cell) == after.island_at(cell)
        for cell in after.anchored - before.anchored:
            assert after.is_home(cell)  # only storms anchor, and only home cards


def play(config: GameConfig, seed: int) -> GameState:
    rnd = random.Random(seed)
    state = new_game(config, seed=seed)
    check_invariants(None, state)
    turns = 0
    while state.phase is not Phase.OVER:
        priced = legal_actions(state)
        assert priced, f"no legal action in {state}"
        for p in rnd.sample(priced, min(3, len(priced))):
            assert action_cost(state, p.action) == p.cost
        action = choose([p.action for p in priced], rnd)
        after = apply_action(state, action)
        check_invariants(state, after)
        if after.turns_done != state.turns_done or after.round != state.round:
            turns += 1
        state = after
        assert turns < 200
    assert state.round == config.purple_gems and state.purple_left == 0
    total = score(state).total
    assert -50 <= total <= 31
    return state


@pytest.mark.slow
@pytest.mark.parametrize(("players", "mode", "difficulty"), CONFIGS)
def test_random_playouts_end_in_phase_over(
    players: int, mode: Mode, difficulty: Difficulty | None
) -> None:
    base = 100_000 * CONFIGS.index((players, mode, difficulty))
    for n in range(PLAYOUTS):
        rnd = random.Random(base + n)
        play(make_config(players, mode, difficulty, rnd), base + n)


# -- every action the notation can name, for agreement checks ---------------------------------
UNIVERSE: list[Action] = [EndTurn()]
UNIVERSE += [kind(c) for kind in (Fly, Place, Leave, Retrieve) for c in ALL_CELLS]
UNIVERSE += [kind(s) for kind in (Spend, ChooseFirst, ChooseSleeper) for s in Spirit]
for a in ALL_CELLS:
    for b in ALL_CELLS:
        if a < b:
            UNIVERSE.append(Breeze(a, b))
        if a != b:
            UNIVERSE += [Breeze(a, b, a), Breeze(a, b, b)]


def states_of(config: GameConfig, seed: int, limit: int) -> list[GameState]:
    rnd = random.Random(seed)
    state = new_game(config, seed=seed)
    seen = [state]
    while state.phase is not Phase.OVER and len(seen) < limit:
        state = apply_action(state, choose([p.action for p in legal_actions(state)], rnd))
        seen.append(state)
    return seen


config_strategy = st.sampled_from(CONFIGS)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cfg=config_strategy, seed=st.integers(0, 2**32), pick=st.integers(0, 10**6))
def test_the_judge_agrees_with_the_list(
    cfg: tuple[int, Mode, Difficulty | None], seed: int, pick: int
) -> None:
    """An action is legal exactly when it is listed (Skyron may name his cells either way)."""
    config = make_config(*cfg, random.Random(seed))
    seen = states_of(config, seed, 120)
    state = seen[pick % len(seen)]
    listed = {p.action: p.cost for p in legal_actions(state)}
    for action in UNIVERSE:
        error = check_action(state, action)
        if action in listed:
            assert error is None, (action, error)
        elif error is None:
            assert isinstance(action, Breeze) and state.active_spirit is Spirit.SKYRON
            assert Breeze(action.b, action.a, action.stand) in listed
        else:
            with pytest.raises(type(error)):
                apply_action(state, action)


@settings(max_examples=30, deadline=None)
@given(cfg=config_strategy, seed=st.integers(0, 2**32), length=st.integers(1, 150))
def test_undo_round_trips_exactly(
    cfg: tuple[int, Mode, Difficulty | None], seed: int, length: int
) -> None:
    rnd = random.Random(seed)
    game = Game(new_game(make_config(*cfg, rnd), seed=seed))
    history = [game.state]
    for _ in range(length):
        if game.is_over:
            break
        game.push(choose([p.action for p in game.legal_actions()], rnd))
        history.append(game.state)
    for expected in reversed(history[:-1]):
        game.undo()
        assert game.state == expected
    assert game.state == game.initial and game.actions == []


@settings(max_examples=30, deadline=None)
@given(cfg=config_strategy, seed=st.integers(0, 2**32))
def test_replaying_a_game_gives_the_same_states(
    cfg: tuple[int, Mode, Difficulty | None], seed: int
) -> None:
    rnd = random.Random(seed)
    game = Game(new_game(make_config(*cfg, rnd), seed=seed))
    while not game.is_over:
        game.push(choose([p.action for p in game.legal_actions()], rnd))
    replay = Game(game.initial, game.actions)
    assert replay.states == game.states
    for before, after in pairwise(game.states):
        check_invariants(before, after)
