"""zefiria history: the finished games the referee saved, most recent first."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HELP = "list the finished games (date, players, mode, score, rating)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config", type=Path, default=None, help="TOML config whose data folder holds the history"
    )
    parser.add_argument(
        "--file",
        type=Path,
        default=None,
        help="a history file instead (e.g. demo-out/history.sqlite)",
    )
    parser.add_argument("--limit", type=int, default=20, help="at most this many games (20)")
    parser.add_argument("--json", action="store_true", help="JSON lines, one game each")
    parser.add_argument(
        "--record",
        metavar="ID",
        default=None,
        help="print the whole record of one game (its id or a prefix)",
    )


def run(args: argparse.Namespace) -> int:
    from zefiria.device.referee.history import History, HistoryError

    if args.file is not None:
        path = args.file
    else:
        from zefiria.device.config import ConfigError, load_config

        try:
            path = load_config(args.config).history_file
        except ConfigError as exc:
            print(f"zefiria history: {exc}", file=sys.stderr)
            return 2
    try:
        games = History(path).games(None if args.record else args.limit)
    except HistoryError as exc:
        print(f"zefiria history: {exc}", file=sys.stderr)
        return 2
    if args.record is not None:
        found = [g for g in games if g.id.startswith(args.record)]
        if len(found) != 1:
            print(f"zefiria history: {len(found)} games match {args.record!r}", file=sys.stderr)
            return 1
        print(found[0].record)
        return 0
    if not games:
        print(f"no finished games yet ({path})")
        return 0
    for g in games:
        if args.json:
            row = {k: v for k, v in vars(g).items() if k != "record"}
            print(json.dumps(row, ensure_ascii=False))
        else:
            print(f"{g.id[:8]}  {g.line()}")
    return 0
