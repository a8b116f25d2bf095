"""``zefiria play``: a whole game of Zefiria in the terminal, actions typed in the notation.

It reads plain lines from stdin when stdin is not a terminal, echoing them after the prompt,
so a script can play a full game: ``printf 'place a1\\nplace e5\\n...' | zefiria play``.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zefiria.device.terminal.session import Reader
    from zefiria.engine.game import Game
    from zefiria.engine.records import GameRecord
    from zefiria.engine.spirits import Spirit
    from zefiria.engine.state import GameConfig

HELP = "play a game of Zefiria in the terminal"

# Default spirits by number of players: the simpler spirits first, Austro (who lives
# outside the grid) only when asked for.
DEFAULT_SPIRITS = {
    1: ("borea", "jugo", "etesia"),
    2: ("borea", "jugo"),
    3: ("borea", "jugo", "etesia"),
    4: ("borea", "jugo", "etesia", "skyron"),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players", type=int, choices=range(1, 5), metavar="1-4", help="1 plays solo"
    )
    parser.add_argument(
        "--spirits",
        metavar="NAMES",
        help="spirits in turn order, comma separated, e.g. borea,skyron "
        "(solo: the three spirits; default depends on --players)",
    )
    parser.add_argument("--mode", choices=("standard", "storm"), default="standard")
    parser.add_argument(
        "--difficulty", choices=("easy", "medium", "hard"), help="solo only (default medium)"
    )
    parser.add_argument("--lang", choices=("en", "it"), default="en")
    parser.add_argument("--seed", type=int, help="the same seed deals the same game")
    parser.add_argument("--deck", metavar="FILE", help="a deck TOML file replacing the default")
    parser.add_argument(
        "--resume", metavar="SAVE.json", help="continue a game saved with 'save FILE'"
    )
    parser.add_argument("--no-color", action="store_true", help="plain text, no ANSI colours")


def run(args: argparse.Namespace) -> int:
    from zefiria.device.terminal.session import Session
    from zefiria.engine.errors import ZefiriaError
    from zefiria.engine.game import Game
    from zefiria.engine.records import GameRecord

    record: GameRecord | None
    try:
        if args.resume:
            record, game = _resume(args.resume)
        else:
            seed = args.seed if args.seed is not None else secrets.randbits(32)
            record = GameRecord.start(_config(args), seed=seed)
            game = Game(record.initial_state())
    except (ZefiriaError, ValueError) as exc:
        # DeckError, ConfigError, RecordError, a bad spirit name: all name the bad input.
        print(f"zefiria play: {exc}", file=sys.stderr)
        return 2

    color = not args.no_color and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    session = Session(
        game, record=record, read=_reader(), out=sys.stdout, lang=args.lang, color=color
    )
    try:
        return session.run()
    except BrokenPipeError:
        # The output was piped into something that stopped reading (`| head`).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _resume(path: str) -> tuple[GameRecord | None, Game]:
    """The saved game (a record replays from its setup, so undo reaches back to it)."""
    from zefiria.engine.game import Game
    from zefiria.engine.records import GameRecord, load_any

    loaded = load_any(path)
    if isinstance(loaded, GameRecord):
        return loaded, Game(loaded.initial_state(), loaded.actions)
    return None, Game(loaded)


def _config(args: argparse.Namespace) -> GameConfig:
    from zefiria.engine.deck import default_deck, load_deck
    from zefiria.engine.spirits import Spirit
    from zefiria.engine.state import Difficulty, GameConfig, Mode

    names: list[str] = []
    if args.spirits:
        names = [n for n in args.spirits.replace(",", " ").split() if n]
    players = args.players
    if players is None:
        players = len(names) if names else 2
    if not names:
        names = list(DEFAULT_SPIRITS[players])
    spirits: tuple[Spirit, ...] = tuple(Spirit.parse(n) for n in names)
    deck = load_deck(args.deck) if args.deck else default_deck()
    return GameConfig(
        players=players,
        mode=Mode(args.mode),
        spirits=spirits,
        # Solo defaults to medium; a difficulty for a team game is left for the engine to
        # refuse, so the player hears why instead of having the option silently ignored.
        difficulty=Difficulty(args.difficulty or "medium")
        if players == 1
        else (Difficulty(args.difficulty) if args.difficulty else None),
        deck=deck,
    )


def _reader() -> Reader:
    """``input()`` at a terminal (line editing); plain lines, echoed, from a pipe or file."""
    if sys.stdin.isatty():

        def interactive(prompt: str) -> str | None:
            try:
                return input(prompt)
            except EOFError:
                print()
                return None

        return interactive

    def scripted(prompt: str) -> str | None:
        line = sys.stdin.readline()
        if not line:
            return None
        # Echo the line so that a transcript reads like the session a person would see.
        print(prompt + line.rstrip("\n"))
        return line

    return scripted
