"""``zefiria hint STATE.json``: the planner's advice for the player to act.

Prints the plan in the action notation, one action a line, then the explanation; with
``--json`` a stable object (extend it only by adding keys). Exit status: 0 a plan, 2 bad
input (file, JSON, record) or a finished game (a message on stderr, nothing on stdout).
"""

from __future__ import annotations

import argparse
import json
import sys

from zefiria.engine.planner.plan import DEFAULT_BUDGET_S

HELP = "advise the best turn for a saved state or game (the planner)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "state",
        metavar="STATE.json",
        help="a saved state or game record (zefiria-state / zefiria-game); - reads stdin",
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=DEFAULT_BUDGET_S,
        metavar="S",
        help=f"seconds of search (default {DEFAULT_BUDGET_S}; a Pi 5 searches about 3x less)",
    )
    parser.add_argument(
        "--nodes",
        type=int,
        default=None,
        metavar="N",
        help="cap the positions searched instead: the same answer on every machine",
    )
    parser.add_argument("--json", action="store_true", help="print the plan as JSON")


def run(args: argparse.Namespace) -> int:
    from zefiria.engine.errors import ZefiriaError
    from zefiria.engine.planner import best_turn
    from zefiria.engine.records import load_state
    from zefiria.engine.state import Phase

    try:
        state = load_state(args.state)
    except ZefiriaError as exc:
        print(f"zefiria hint: {exc}", file=sys.stderr)
        return 2
    if state.phase is Phase.OVER:
        print("zefiria hint: the game is over: nothing to advise", file=sys.stderr)
        return 2
    plan = best_turn(state, budget_s=args.budget, max_nodes=args.nodes)
    if args.json:
        out = {
            "spirit": state.active_spirit.value,
            "actions": plan.notation(),
            "cost": plan.cost,
            "score_before": plan.score_before,
            "score_after": plan.score_after,
            "value": round(plan.value, 2),
            "explanation": plan.explanation,
            "nodes": plan.nodes,
            "horizon": plan.horizon,
            "exhaustive": plan.exhaustive,
        }
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    for text in plan.notation():
        print(text)
    print(plan.explanation)
    return 0
