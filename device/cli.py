"""The ``zefiria`` command line: one subcommand per module in ``zefiria.device.commands``.

We use argparse: it is in the standard library (nothing more to install on a Pi), gives
``--help`` for every subcommand, and the subcommands are few and simple. Each command module
exposes ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int`` and keeps heavy imports
(OpenCV, luma, gpiozero) inside ``run`` so that ``zefiria play`` starts fast on a Pi.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

# name -> module in zefiria.device.commands (the order is the order of --help)
COMMANDS: dict[str, str] = {
    "demo": "demo",
    "play": "play",
    "check": "check",
    "hint": "hint",
    "autoplay": "autoplay",
    "storm": "storm",
    "calibrate": "calibrate",
    "read": "read",
    "render": "render",
    "referee": "referee",
    "history": "history",
}


def _load(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"zefiria.device.commands.{COMMANDS[name]}")
    except ModuleNotFoundError as exc:
        if exc.name == f"zefiria.device.commands.{COMMANDS[name]}":
            return None  # not built yet: the command is simply not offered
        raise


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="zefiria",
        description="Zefiria Companion: referee, scorer and storm randomiser for Zefiria.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        module = _load(name)
        if module is None:
            continue
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args._run(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
