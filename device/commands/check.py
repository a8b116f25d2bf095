"""``zefiria check STATE.json ACTION...``: judge actions against a saved state, as JSON.

Scripts and tests outside the project rely on this output (docs/records.md): extend it only
by adding keys. Exit status: 0 every action legal, 1 one was refused (the output stops at
it), 2 bad input (file, JSON, record or notation; a message on stderr, nothing on stdout).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from zefiria.engine.state import GameState

HELP = "apply actions (in the notation) to a saved state or game and print the verdict as JSON"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "state",
        metavar="STATE.json",
        help="a saved state or game record (zefiria-state / zefiria-game); - reads stdin",
    )
    parser.add_argument(
        "actions",
        metavar="ACTION",
        nargs="*",
        help='one action per argument, e.g. "fly c3" "breeze #18 #10" end; '
        "';' separates several in one argument",
    )
    parser.add_argument(
        "--compact", action="store_true", help="print the JSON on one line instead of laid out"
    )


def run(args: argparse.Namespace) -> int:
    # ZefiriaError covers RecordError (file, JSON, record) and InvalidActionError (notation).
    from zefiria.engine.errors import ZefiriaError

    try:
        from zefiria.engine.records import load_state

        state = load_state(args.state)
        texts = [t.strip() for arg in args.actions for t in arg.split(";") if t.strip()]
        verdict = check(state, texts)
    except ZefiriaError as exc:
        print(f"zefiria check: {exc}", file=sys.stderr)
        return 2
    from zefiria.engine.records import pretty_json

    if args.compact:
        document = json.dumps(verdict, ensure_ascii=False, separators=(",", ":")) + "\n"
    else:
        document = pretty_json(verdict)
    try:
        sys.stdout.write(document)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`| head`): not our error, and no traceback at exit either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0 if verdict["legal"] else 1


def check(state: GameState, texts: list[str]) -> dict[str, Any]:
    """The verdict dict for ``texts`` applied in order to ``state``.

    Notation errors raise :class:`InvalidActionError` (bad input, exit 2); an illegal
    action ends the list, and the state reported is then the unchanged input state.
    """
    from zefiria.engine.notation import format_action, parse_action
    from zefiria.engine.records import state_to_json
    from zefiria.engine.rules import action_cost, apply_action, check_action

    start = state
    results: list[dict[str, Any]] = []
    total = 0
    for text in texts:
        # Island numbers (#24) are read against the state this action is played in.
        action = parse_action(text, state)
        error = check_action(state, action)
        if error is not None:
            results.append(
                {
                    "action": format_action(action),
                    "legal": False,
                    "cost": None,
                    "reason": error.reason.value,
                    "message": error.message,
                }
            )
            return {
                "legal": False,
                "actions": results,
                "cost": total,
                "state": state_to_json(start),
            }
        cost = action_cost(state, action)
        state = apply_action(state, action)
        total += cost
        results.append(
            {
                "action": format_action(action),
                "legal": True,
                "cost": cost,
                "reason": None,
                "message": None,
            }
        )
    return {"legal": True, "actions": results, "cost": total, "state": state_to_json(state)}
