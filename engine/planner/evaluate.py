"""The planner's estimate of a state's final score.

``value = score now + potential``. The score is the rulebook's; the potential estimates what
the AP still to be played will add. Searches compare states reached at the same moment of
the game, so the potential only has to rank them well, not predict the final score exactly:

* every misplaced card's Manhattan distance to its home (``D``) costs roughly one AP per
  step to repair, so a smaller ``D`` is worth more while AP remain, and nothing at the end;
* a red gem still anchoring a card can be retrieved later for 1 AP (worth a little less than
  a gem in hand), and an anchored card is safe from the storms still to come.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..grid import SIZE
from ..state import GameState, Mode, Phase


@dataclass(frozen=True)
class Weights:
    """Tunable weights of the potential (see docs/planner.md for how they were chosen)."""

    # value of one step of D while plenty of AP remain; 0.4 / 0.6 / 0.9 / 1.2 / 1.6 gave
    # 21.1 / 21.9 / 22.5 / 22.9 / 22.8 VP on 30 tuning deals (seeds 1000..1029, not the
    # benchmark's), 2-player standard, 150 positions per decision
    distance: float = 1.2
    saturation_ap: int = 10  # below this many future AP the distance term fades out
    ap_now: float = 0.7  # value of one AP still unspent in the current turn
    gem_on_card: float = 0.5  # a gem on the grid, retrievable later for 1 AP
    storm_risk: float = 0.1  # per storm to come and per home card left unanchored


DEFAULT_WEIGHTS = Weights()


def _points(island: int, i: int) -> int:
    home = island - 1
    if home == i:
        return 1
    return -1 if home // SIZE == i // SIZE else -2


def _steps(island: int, i: int) -> int:
    home = island - 1
    return abs(home // SIZE - i // SIZE) + abs(home % SIZE - i % SIZE)


# POINTS[island][i] and STEPS[island][i]: island's score and distance home in cell index i.
POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_points(k, i) for i in range(SIZE * SIZE)) for k in range(SIZE * SIZE + 1)
)
STEPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_steps(k, i) for i in range(SIZE * SIZE)) for k in range(SIZE * SIZE + 1)
)


def grid_points(grid: tuple[int, ...]) -> int:
    """The grid's part of the score: +1 home, -1 right row, -2 wrong row."""
    return sum(POINTS[island][i] for i, island in enumerate(grid))


def current_score(state: GameState) -> int:
    """The score the game would get if it ended now.

    The planner scores millions of states, so it inlines the rulebook's scoring (a test
    checks it against :func:`zefiria.engine.scoring.score`). Gems held are counted in any
    mode: a standard game never has any, and the lookahead plays storm games past a round
    start on a storm-free copy of the state (no peeking at the face-down decks).
    """
    return grid_points(state.grid) + sum(state.gems_held)


def misplaced_distance(grid: tuple[int, ...]) -> int:
    """``D``: the sum of the Manhattan distances of all cards to their home cells."""
    return sum(STEPS[island][i] for i, island in enumerate(grid))


@dataclass(frozen=True)
class Features:
    """What the estimate reads from a state (a search updates them move by move)."""

    score: int
    distance: int  # D
    anchored: int  # gems on cards
    loose: int  # home cards without a gem: what the storms can still break


def features(state: GameState) -> Features:
    grid = state.grid
    home = [i for i, island in enumerate(grid) if island - 1 == i]
    anchored = {r * SIZE + c for r, c in state.anchored}
    return Features(
        score=grid_points(grid) + sum(state.gems_held),
        distance=misplaced_distance(grid),
        anchored=len(anchored),
        loose=sum(1 for i in home if i not in anchored),
    )


def turns_per_round(state: GameState) -> int:
    return 2 if state.config.solo else state.config.players


def future_turns(state: GameState) -> int:
    """Whole turns still to be played after the current one (0 in the last turn)."""
    if state.phase is Phase.OVER:
        return 0
    per_round = turns_per_round(state)
    if state.phase is Phase.SETUP:
        return per_round * state.config.purple_gems
    if state.config.solo:
        done = state.turns_done
    else:
        done = state.active if state.phase is Phase.TURN else state.turns_done
    this_round = max(0, per_round - done - 1)
    return this_round + per_round * state.purple_left


def storms_to_come(state: GameState) -> int:
    """Storms revealed from now on: one at the start of every round still to come."""
    return state.purple_left if state.config.mode is Mode.STORM else 0


def future_ap(state: GameState) -> int:
    """AP of the whole turns still to come after the current one."""
    return future_turns(state) * state.config.ap_per_turn


def estimate(
    state: GameState,
    later_ap: int,
    *,
    ap_now: int = 0,
    storms: int | None = None,
    weights: Weights = DEFAULT_WEIGHTS,
) -> float:
    """Estimated final score of ``state``.

    ``later_ap`` is the AP of the turns still to come after the current turn (the caller
    knows which turn a state belongs to, so it passes it); ``ap_now`` the AP the active
    spirit still has in the middle of its turn (0 for a turn about to end); ``storms`` the
    storms still to come, when the caller knows better than ``state`` (a storm-free copy of
    a storm game, see :func:`zefiria.engine.planner.turn.storm_free`).
    """
    if state.phase is Phase.OVER:
        return float(current_score(state))
    if storms is None:
        storms = storms_to_come(state)
    return value_of(features(state), later_ap, ap_now, storms, weights)


def value_of(f: Features, later_ap: int, ap_now: int, storms: int, weights: Weights) -> float:
    """The estimate from a state's features (see the module docstring)."""
    future = later_ap + ap_now
    value = f.score + weights.ap_now * ap_now
    if future > 0:
        fade = min(1.0, future / weights.saturation_ap) if weights.saturation_ap else 1.0
        value += weights.gem_on_card * f.anchored - weights.distance * fade * f.distance
    return value - weights.storm_risk * storms * f.loose
