"""The planner: hints for the players and the simulated players of ``zefiria demo``.

>>> from zefiria.engine.planner import best_turn          # doctest: +SKIP
>>> plan = best_turn(state, budget_s=0.9)                 # doctest: +SKIP
>>> plan.actions, plan.cost, plan.value, plan.explanation  # doctest: +SKIP

``best_turn`` answers in every phase: in a turn it plans the active spirit's whole turn
(ending with ``EndTurn``); in a choice (setup corner, solo first spirit or sleeper, Austro's
exit side) it returns the one chosen action. Apply ``plan.actions`` in order with
:func:`zefiria.engine.rules.apply_action`. See docs/planner.md for the algorithm.
"""

from .evaluate import DEFAULT_WEIGHTS, Weights, current_score, estimate
from .plan import Plan, best_turn
from .turn import exhaustive_turn

__all__ = [
    "DEFAULT_WEIGHTS",
    "Plan",
    "Weights",
    "best_turn",
    "current_score",
    "estimate",
    "exhaustive_turn",
]
