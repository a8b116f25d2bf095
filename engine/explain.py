"""Explaining a change on the table: the referee's core.

The players move cards and pawns by hand; the camera sees only the result. :func:`explain`
finds which legal actions of the active spirit, within its AP, turn the engine's state into
the observed table, cheapest first, using the rules of :mod:`zefiria.engine.rules` for every
action it considers (this module never decides what is legal or what it costs).

The search (see ``docs/explain.md``):

1. **Cheapest explanation**: A* over states keyed by (grid, pawn, anchored cells), with an
   admissible, consistent lower bound: a Breeze of cost ``c`` moves two cards by at most
   ``c`` cells each, so the Breezes still needed cost at least half the sum of the Manhattan
   distances of the cards from where the camera saw them; a pawn not where it was seen needs
   one more AP (Skyron's Breeze may carry him, so for him the two bounds are not added); each
   gem that vanished needs a Retrieve. Every child is priced by ``legal_actions`` and produced
   by ``apply_action``.
2. **Ambiguity**: a depth-first search over the AP that remain for *minimal* explanations of
   a different cost (ambiguity policy in ``docs/explain.md``).
3. **Illegal**: the nearest table the spirit could have made, by a best-first search over
   Breezes that put a card where the camera saw it, and the single-action interpretation of
   the change judged by :func:`zefiria.engine.rules.check_action` for a precise reason.

The searches live in :mod:`zefiria.engine.explain_search`; this module turns their results
into a verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from .actions import Action, Breeze, Fly, Leave, Retrieve
from .differences import Difference, describe_differences, table_differences
from .errors import Reason, Wording
from .explain_search import Explanation, Target, TurnSearch
from .grid import ALL_CELLS
from .observation import Observation, observation_of
from .rules import apply_action, check_action, legal_actions
from .spirits import Spirit
from .state import GameState, Phase

__all__ = ["Explanation", "Verdict", "VerdictKind", "explain"]

VerdictKind = Literal["unchanged", "legal", "ambiguous", "illegal"]


@dataclass(frozen=True)
class Verdict:
    """What the referee concludes about an observed table.

    - ``unchanged``: the table is as the state has it (``explanations`` holds the empty one).
    - ``legal``: ``explanations[0]`` is the cheapest explanation.
    - ``ambiguous``: minimal explanations of different costs exist; ``explanations`` lists
      them cheapest first and the device charges the first.
    - ``illegal``: no explanation within the AP. ``nearest`` is the legal table closest to the
      observed one, ``differences`` what to change on the table to reach it, ``message`` the
      same as a sentence, ``reason`` the rule broken when one clearly is (``wording``: the
      same as data).
    """

    kind: VerdictKind
    explanations: tuple[Explanation, ...] = ()
    nearest: Explanation | None = None
    differences: tuple[Difference, ...] = ()
    reason: Reason | None = None
    message: str = ""
    # The rule broken (``message`` before its colon) as data for other languages: a rules
    # refusal's Wording, or "change_costs" (cost, budget). None when no single rule is.
    wording: Wording | None = None

    @property
    def best(self) -> Explanation | None:
        """The explanation the device charges (``None`` when illegal)."""
        return self.explanations[0] if self.explanations else None


def explain(
    state: GameState, observation: Observation, *, max_extra_ap: int | None = None
) -> Verdict:
    """Explain the observed table as actions of ``state``'s active spirit.

    ``state`` is the engine's state at any point of the active spirit's turn (``TURN`` phase,
    or ``AUSTRO_EXIT`` when Austro's exit is still to choose). ``max_extra_ap`` caps the red
    gems the players may have spent for extra AP (``None``: all they hold, plus the gems
    retrieved during the turn). ``state`` is never changed.
    """
    if state.phase is Phase.AUSTRO_EXIT:
        return _explain_exit(state, observation, max_extra_ap)
    if state.phase is not Phase.TURN:
        raise ValueError(f"explain needs a state in a turn, not in phase {state.phase.value}")
    return _verdict(TurnSearch(state, observation, max_extra_ap))


def _explain_exit(state: GameState, obs: Observation, max_extra_ap: int | None) -> Verdict:
    """Austro's tie exit is free and invisible but for where he stands: try each side."""
    verdicts: list[tuple[Leave, Verdict]] = []
    for priced in legal_actions(state):
        if isinstance(priced.action, Leave):
            after = apply_action(state, priced.action)
            verdicts.append((priced.action, _verdict(TurnSearch(after, obs, max_extra_ap))))
    good = [(leave, v) for leave, v in verdicts if v.kind != "illegal"]
    if not good:
        return verdicts[0][1]
    leave, verdict = min(good, key=lambda lv: lv[1].explanations[0].cost)
    kind: VerdictKind = "legal" if verdict.kind == "unchanged" else verdict.kind
    explanations = tuple(replace(e, actions=(leave, *e.actions)) for e in verdict.explanations)
    return replace(verdict, kind=kind, explanations=explanations)


def _verdict(search: TurnSearch) -> Verdict:
    """Run the searches in turn and conclude."""
    target = search.target
    real = search.real
    if not target.static:
        root = search.root()
        if target.reached(root.s, root.pos, root.state.anchored):
            empty = Explanation((), 0, real, observation_of(real))
            return Verdict("unchanged", (empty,), message="the table is unchanged")
        result = search.cheapest()
        if result is not None:
            best, skeleton = result
            others = search.alternatives(best.cost, skeleton)
            if others:
                costs = ", ".join(f"{e.cost} AP" for e in (best, *others))
                return Verdict(
                    "ambiguous",
                    (best, *others),
                    message=(
                        f"this change can be made in more than one way ({costs}); "
                        f"charged the cheapest: {best.describe(real)}"
                    ),
                )
            return Verdict("legal", (best,), message=best.describe(real))
    nearest, table_state = search.nearest()
    diffs = tuple(table_differences(table_state, search.obs))
    reason, why, wording = _reason(search)
    what = describe_differences(diffs, table_state)
    message = f"{why}: {what}" if why else what
    return Verdict(
        "illegal",
        (),
        nearest=nearest,
        differences=diffs,
        reason=reason,
        message=message,
        wording=wording,
    )


# How far beyond the AP the referee looks to tell "too dear" from "impossible", and with how
# many states at most (an impossible table would otherwise be searched to the end).
EXTRA_AP_LOOKED_AT = 5
EXTRA_AP_NODES = 1_000


def _reason(search: TurnSearch) -> tuple[Reason | None, str, Wording | None]:
    """The rule broken: the one action the change reads as, judged by the rules; else, if the
    change is legal but dearer than the AP, ``not_enough_ap``; else no single rule."""
    action = _single_action(search.real, search.obs, search.target)
    if action is not None:
        # Spent gems would have given more AP: judge the action with them.
        judged = replace(search.real, ap=search.budget)
        error = check_action(judged, action)
        if error is not None:
            return error.reason, str(error), error.wording
    if search.target.static:
        return None, "", None  # another pawn moved, or a gem appeared: no AP would explain it
    richer = replace(search.real, ap=search.real.ap + EXTRA_AP_LOOKED_AT)
    more = TurnSearch(richer, search.obs, search.max_spend, max_nodes=EXTRA_AP_NODES)
    found = more.cheapest()
    if found is None:
        return None, "", None
    cost = found[0].cost
    return (
        Reason.NOT_ENOUGH_AP,
        f"this change costs {cost} AP and only {search.budget} were left",
        Wording.of("change_costs", cost=cost, budget=search.budget),
    )


def _single_action(state: GameState, obs: Observation, target: Target) -> Action | None:
    """The one action the observed change would be, if it is one: a swap, a Fly, a Retrieve."""
    wrong = [
        c
        for c in ALL_CELLS
        if obs.island_at(c) is not None and obs.island_at(c) != state.island_at(c)
    ]
    pos = state.pawns[state.active]
    assert pos is not None
    seen = target.pawn
    moved = seen is not None and seen != pos
    if len(wrong) == 2:
        a, b = wrong
        if obs.island_at(a) != state.island_at(b) or obs.island_at(b) != state.island_at(a):
            return None
        if state.active_spirit is Spirit.SKYRON:
            own, other = (a, b) if b != pos.cell else (b, a)
            stand = seen.cell if seen is not None and seen.cell in (a, b) else own
            return Breeze(own, other, stand)
        return None if moved else Breeze(a, b)
    if wrong:
        return None
    if moved and seen is not None:
        return Fly(seen.cell) if not target.drop else None
    if len(target.drop) == 1:
        return Retrieve(next(iter(target.drop)))
    return None
