"""The planner: legal plans in every phase, the exhaustive optimum on small turns, budgets.

Searches here are capped by node counts (``max_nodes``), never by time, so the tests give
the same answers on a loaded machine. The big runs are in benchmarks (zefiria autoplay).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest
from zefiria.engine.actions import Action
from zefiria.engine.planner import best_turn, current_score, exhaustive_turn
from zefiria.engine.planner.selfplay import (
    deal,
    greedy_policy,
    planner_policy,
    play_game,
    random_policy,
)
from zefiria.engine.rules import apply_action, legal_actions
from zefiria.engine.scoring import score
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import GameState, Mode, Phase

from .builders import turn_state

ALL = tuple(Spirit)


def _first_turn(spirits: tuple[Spirit, ...], mode: Mode, seed: int) -> GameState:
    state = deal(len(spirits), mode, seed, spirits=spirits)
    while state.phase is Phase.SETUP:
        state = apply_action(state, legal_actions(state)[0].action)
    return state


def _small_cases() -> list[tuple[str, GameState]]:
    """Turns with 1 or 2 AP for every spirit, standard and storm (with gems on the grid)."""
    cases = []
    for n, spirit in enumerate(ALL):
        other = ALL[(n + 1) % len(ALL)]
        for ap in (1, 2):
            state = _first_turn((spirit, other), Mode.STANDARD, seed=10 * n + ap)
            cases.append((f"{spirit.value}-{ap}ap", replace(state, ap=ap)))
    # Storm, last turn: a nearly solved grid, two gems anchoring home cards.
    grid = list(range(1, 26))
    grid[6], grid[7] = grid[7], grid[6]
    storm = turn_state(
        {Spirit.SKYRON: (1, 1), Spirit.BOREA: (4, 4)},
        Spirit.SKYRON,
        grid=grid,
        ap=2,
        mode=Mode.STORM,
        anchored=[(0, 0), (2, 2)],
        purple_left=0,
    )
    cases.append(("storm-gems", storm))
    return cases


SMALL = _small_cases()


@pytest.mark.parametrize(("name", "state"), SMALL, ids=[n for n, _ in SMALL])
def test_planner_matches_exhaustive_search_on_small_turns(name: str, state: GameState) -> None:
    best, _, sequences = exhaustive_turn(state)
    plan = best_turn(state, budget_s=60.0, horizon=1)
    assert plan.exhaustive
    assert plan.value == pytest.approx(best)
    assert sequences >= 1


@pytest.mark.parametrize(("name", "state"), SMALL[:6], ids=[n for n, _ in SMALL[:6]])
def test_small_beam_finds_the_best_immediate_score(name: str, state: GameState) -> None:
    """Score only: the planner's first, narrowest iterations already find the optimum."""
    from zefiria.engine.planner.selfplay import GREEDY_WEIGHTS

    def immediate(s: GameState, ended: bool) -> float:
        return float(current_score(s))

    best, _, _ = exhaustive_turn(state, evaluate=immediate)
    plan = best_turn(state, max_nodes=40, horizon=1, weights=GREEDY_WEIGHTS)
    assert plan.score_after == best


THREE_AP = [
    replace(_first_turn((s, ALL[(n + 1) % len(ALL)]), Mode.STANDARD, seed=10 * n + 3), ap=3)
    for n, s in enumerate(ALL)
    if s is not Spirit.JUGO  # Jugo's 3-AP tree is like Borea's: save the test time
]


@pytest.mark.parametrize("state", THREE_AP, ids=[s.active_spirit.value for s in THREE_AP])
def test_a_narrow_beam_reaches_the_optimum_of_3_ap_turns(state: GameState) -> None:
    """Thousands of action sequences; 60 expanded positions find the best of them."""
    best, _, sequences = exhaustive_turn(state)
    plan = best_turn(state, max_nodes=60, horizon=1)
    assert sequences > 500
    assert plan.value == pytest.approx(best)


def test_last_storm_turn_solves_the_grid_then_retrieves_a_gem() -> None:
    """Swap 7 and 8 home (1 AP, +4), then the last AP retrieves a gem (+1)."""
    state = SMALL[-1][1]
    plan = best_turn(state, max_nodes=200, horizon=1)
    assert plan.score_after == 25 + 1
    assert plan.cost == 2


def test_gems_are_spent_when_they_buy_more_than_they_cost() -> None:
    """Borea's gem gives Skyron the 3rd AP he needs to carry card 1 home (+3 for -1)."""
    grid = list(range(1, 26))
    grid[0], grid[3] = grid[3], grid[0]
    state = turn_state(
        {Spirit.SKYRON: (0, 3), Spirit.BOREA: (4, 4)},
        Spirit.SKYRON,
        grid=grid,
        ap=2,
        mode=Mode.STORM,
        gems_held={Spirit.BOREA: 1},
        purple_left=0,
    )
    plan = best_turn(state, max_nodes=300, horizon=1)
    assert plan.score_after == 25
    assert any(type(a).__name__ == "Spend" for a in plan.actions)


def test_inline_score_is_the_rulebooks() -> None:
    for mode in Mode:
        state = _first_turn((Spirit.BOREA, Spirit.JUGO), mode, seed=5)
        state = replace(state, gems_held=(1, 2) if mode is Mode.STORM else (0, 0))
        assert current_score(state) == score(state).total


def _replay(state: GameState, actions: Sequence[Action]) -> GameState:
    for action in actions:
        state = apply_action(state, action)
    return state


@pytest.mark.parametrize(
    ("players", "mode", "spirits"),
    [
        (2, Mode.STANDARD, (Spirit.AUSTRO, Spirit.ETESIA)),
        (3, Mode.STORM, (Spirit.SKYRON, Spirit.BOREA, Spirit.JUGO)),
        (1, Mode.STORM, (Spirit.AUSTRO, Spirit.SKYRON, Spirit.BOREA)),
    ],
)
def test_whole_games_are_legal_in_every_phase(
    players: int, mode: Mode, spirits: tuple[Spirit, ...]
) -> None:
    """Setup corners, solo choices, Austro's exits and storms: every plan applies cleanly."""
    state = deal(players, mode, 3, spirits=spirits)
    seen = set()
    while state.phase is not Phase.OVER:
        seen.add(state.phase)
        plan = best_turn(state, max_nodes=25, budget_s=60.0)
        after = _replay(state, plan.actions)
        if state.phase is Phase.TURN:  # the plan is the whole turn: the next one starts
            assert after.phase is not Phase.TURN or after.active != state.active
        state = after
    assert Phase.SETUP in seen and Phase.TURN in seen
    if players == 1:
        assert {Phase.CHOOSE_FIRST, Phase.CHOOSE_SLEEPER} <= seen


def test_more_budget_searches_more() -> None:
    state = _first_turn((Spirit.SKYRON, Spirit.ETESIA), Mode.STANDARD, seed=7)
    small = best_turn(state, max_nodes=20, budget_s=60.0)
    large = best_turn(state, max_nodes=200, budget_s=60.0)
    assert small.nodes <= 40 < large.nodes  # an iteration may finish past its cap only once
    assert large.horizon >= small.horizon
    tiny = best_turn(state, budget_s=0.0)  # the first, cheapest iteration always completes
    assert tiny.actions and tiny.nodes > 0


def test_planner_does_not_peek_at_the_face_down_storm_decks() -> None:
    state = _first_turn((Spirit.SKYRON, Spirit.JUGO), Mode.STORM, seed=11)
    other = replace(state, storm_deck=state.storm_deck[::-1], grid_deck=state.grid_deck[::-1])
    assert best_turn(state, max_nodes=150).actions == best_turn(other, max_nodes=150).actions


def test_plan_explains_itself() -> None:
    state = _first_turn((Spirit.SKYRON, Spirit.ETESIA), Mode.STANDARD, seed=2)
    plan = best_turn(state, max_nodes=60)
    assert plan.explanation.startswith("Skyron:")
    assert "cards home" in plan.explanation
    assert plan.cost <= state.ap
    assert plan.score_after == current_score(_replay(state, plan.actions))


def test_planner_beats_the_baselines_on_a_few_deals() -> None:
    planner, greedy, rand = (
        [play_game(deal(2, Mode.STANDARD, s), p, s).score for s in range(1, 7)]
        for p in (planner_policy(60.0, max_nodes=60), greedy_policy(60), random_policy(0))
    )
    assert sum(planner) >= sum(greedy) > sum(rand)
