"""``zefiria storm``: the storm randomiser alone, for a table without a camera.

It shuffles the storm deck and the grid deck (each grid card with a random rotation) as the
rulebook's setup does, then prints, for every round from the second on, the storm card, the
two targets, a 5x5 map of them and what to do. The draws are the engine's: the same seed
gives the same storms as a refereed game with that seed (the engine draws the island grid
first, so we draw it too and throw it away).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from zefiria.engine.deck import Deck, GridCard, StormCard

HELP = "draw the storms of a Storm-mode game (no camera needed): targets, map and what to do"

DIFFICULTIES = ("easy", "medium", "hard")

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Zefiria storms: {rounds} rounds, seed {seed}",
        "replay": "(the same --seed draws the same storms again)",
        "round": "Round {round}",
        "storm": "Storm card: {storm}",
        "grid": "Grid card: marks {cell}, turned {degrees}° clockwise",
        "tornado": "Tornado {turns}",
        "blizzard": "Blizzard {direction} {steps}",
        "why2_tornado": "target 2: the grid card turned a further {degrees}° clockwise",
        "why2_blizzard": "target 2: {steps} step(s) {direction} of target 1, wrapping round",
        "targets": "Target 1: {t1}    Target 2: {t2}",
        "do": (
            "If the card at target 1 ({t1}) is already in its right place (island {home}), "
            "anchor it with a red gem; otherwise swap the cards at the two targets, {t1} and "
            "{t2} (unless either is anchored)."
        ),
        "same": (
            "If the card at target 1 ({t1}) is already in its right place (island {home}), "
            "anchor it with a red gem; otherwise nothing happens (both targets are {t1})."
        ),
        "next": "Press Enter for round {round} (q to stop) ",
        "north": "north",
        "east": "east",
        "south": "south",
        "west": "west",
    },
    "it": {
        "title": "Tempeste di Zefiria: {rounds} round, seme {seed}",
        "replay": "(lo stesso --seed estrae di nuovo le stesse tempeste)",
        "round": "Round {round}",
        "storm": "Carta Tempesta: {storm}",
        "grid": "Carta Griglia: segna {cell}, ruotata di {degrees}° in senso orario",
        "tornado": "Tornado {turns}",
        "blizzard": "Bufera {direction} {steps}",
        "why2_tornado": "bersaglio 2: la carta Griglia ruotata di altri {degrees}° in senso orario",
        "why2_blizzard": (
            "bersaglio 2: {steps} passi verso {direction} dal bersaglio 1, "
            "continuando dalla parte opposta"
        ),
        "targets": "Bersaglio 1: {t1}    Bersaglio 2: {t2}",
        "do": (
            "Se la carta nel bersaglio 1 ({t1}) è già nella posizione corretta (isola {home}), "
            "ancoratela con una Gemma rossa; altrimenti scambiate le carte nei due bersagli, "
            "{t1} e {t2} (a meno che una delle due sia ancorata)."
        ),
        "same": (
            "Se la carta nel bersaglio 1 ({t1}) è già nella posizione corretta (isola {home}), "
            "ancoratela con una Gemma rossa; altrimenti non succede nulla (i due bersagli "
            "coincidono: {t1})."
        ),
        "next": "Premi Invio per il round {round} (q per smettere) ",
        "north": "nord",
        "east": "est",
        "south": "sud",
        "west": "ovest",
    },
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    length = parser.add_mutually_exclusive_group()
    length.add_argument(
        "--players",
        type=int,
        choices=(1, 2, 3, 4),
        default=None,
        help="number of players: the rounds follow the purple gems (2p 6, 3p 5, 4p 4; "
        "solo: see --difficulty); default 2",
    )
    length.add_argument(
        "--rounds", type=int, default=None, help="number of rounds, instead of --players"
    )
    parser.add_argument(
        "--difficulty",
        choices=DIFFICULTIES,
        default="medium",
        help="solo difficulty (--players 1): easy 7, medium 6, hard 5 rounds",
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="draw these storms (default: a random seed)"
    )
    parser.add_argument("--deck", metavar="FILE", help="a deck TOML replacing the default deck")
    parser.add_argument("--lang", choices=tuple(TEXTS), default="en", help="language (en, it)")
    parser.add_argument("--json", action="store_true", help="print every storm as JSON")


@dataclass(frozen=True)
class StormDraw:
    """One round's storm: the cards and where they strike."""

    round: int
    storm: StormCard
    card: GridCard
    rotation: int  # quarter turns clockwise given to the grid card at setup
    target1: tuple[int, int]
    target2: tuple[int, int]

    @property
    def home_island(self) -> int:
        """The island whose right place is target 1 (if it lies there, it is anchored)."""
        return self.target1[0] * 5 + self.target1[1] + 1


def draw_storms(deck: Deck, rounds: int, seed: int) -> list[StormDraw]:
    """The storms of rounds 2..``rounds``, drawn as the engine draws them for ``seed``."""
    from zefiria.engine.grid import ISLANDS, rotate_clockwise
    from zefiria.engine.rng import Rng
    from zefiria.engine.storm import shuffled_grid_deck, shuffled_storm_deck, target_two

    rng = Rng.seeded(seed)
    _, rng = rng.shuffled(tuple(ISLANDS))  # the island grid: on a real table, the players'
    storms, rng = shuffled_storm_deck(deck.storms, rng)
    grids, rng = shuffled_grid_deck(deck.grids, rng)
    draws: list[StormDraw] = []
    for round_ in range(2, rounds + 1):
        # A deck smaller than the game is reshuffled when empty (the engine's house ruling).
        if not storms:
            storms, rng = shuffled_storm_deck(deck.storms, rng)
        if not grids:
            grids, rng = shuffled_grid_deck(deck.grids, rng)
        storm, storms = storms[0], storms[1:]
        (card, rotation), grids = grids[0], grids[1:]
        target1 = rotate_clockwise(card.cell, rotation)
        target2 = target_two(storm, card, rotation)
        draws.append(StormDraw(round_, storm, card, rotation, target1, target2))
    return draws


def mini_map(target1: tuple[int, int], target2: tuple[int, int]) -> str:
    """The 5x5 grid with the targets marked 1 and 2 (columns a-e, rows 1-5 as notation)."""
    lines = ["    a b c d e"]
    for r in range(5):
        cells = []
        for c in range(5):
            if (r, c) == target1:
                cells.append("*" if target1 == target2 else "1")
            elif (r, c) == target2:
                cells.append("2")
            else:
                cells.append("·")
        lines.append(f"  {r + 1} " + " ".join(cells))
    return "\n".join(lines)


def describe(draw: StormDraw, lang: str) -> dict[str, Any]:
    """Texts and data of one storm (what the text output prints and --json emits)."""
    from zefiria.engine.deck import Tornado
    from zefiria.engine.notation import format_cell

    t = TEXTS[lang]
    t1, t2 = format_cell(draw.target1), format_cell(draw.target2)
    if isinstance(draw.storm, Tornado):
        storm_text = t["tornado"].format(turns=draw.storm.turns)
        why2 = t["why2_tornado"].format(degrees=90 * draw.storm.turns)
        storm_data: dict[str, Any] = {"kind": "tornado", "turns": draw.storm.turns}
    else:
        direction = draw.storm.direction.name.lower()
        storm_text = t["blizzard"].format(direction=t[direction], steps=draw.storm.steps)
        why2 = t["why2_blizzard"].format(direction=t[direction], steps=draw.storm.steps)
        storm_data = {"kind": "blizzard", "direction": direction, "steps": draw.storm.steps}
    same = draw.target1 == draw.target2
    instruction = t["same" if same else "do"].format(t1=t1, t2=t2, home=draw.home_island)
    return {
        "round": draw.round,
        "storm": storm_data,
        "storm_text": storm_text,
        "grid_card": {"cell": list(draw.card.cell), "rotation": draw.rotation},
        "grid_text": t["grid"].format(cell=format_cell(draw.card.cell), degrees=90 * draw.rotation),
        "target1": {"cell": list(draw.target1), "name": t1},
        "target2": {"cell": list(draw.target2), "name": t2},
        "target2_text": why2,
        "same_cell": same,
        "home_island": draw.home_island,
        "instruction": instruction,
        "map": mini_map(draw.target1, draw.target2),
    }


def format_storm(info: dict[str, Any], lang: str) -> str:
    t = TEXTS[lang]
    lines = [
        f"== {t['round'].format(round=info['round'])} ==",
        t["storm"].format(storm=info["storm_text"]),
        info["grid_text"],
        t["targets"].format(t1=info["target1"]["name"], t2=info["target2"]["name"])
        + f"   ({info['target2_text']})",
        "",
        info["map"],
        "",
        info["instruction"],
    ]
    return "\n".join(lines)


def _interactive() -> bool:
    """Wait for Enter between rounds only when a person is at a terminal."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def rounds_for(args: argparse.Namespace) -> int:
    from zefiria.engine.state import PURPLE_GEMS, SOLO_PURPLE_GEMS, Difficulty

    if args.rounds is not None:
        return int(args.rounds)
    players = args.players if args.players is not None else 2
    if players == 1:
        return SOLO_PURPLE_GEMS[Difficulty(args.difficulty)]
    return PURPLE_GEMS[players]


def run(args: argparse.Namespace) -> int:
    from zefiria.engine.deck import DeckError, default_deck, load_deck

    rounds = rounds_for(args)
    if not 2 <= rounds <= 50:
        print(f"zefiria storm: --rounds {rounds}: storms need 2 to 50 rounds", file=sys.stderr)
        return 2
    if args.seed is not None and args.seed < 0:
        print(f"zefiria storm: --seed {args.seed}: must be 0 or more", file=sys.stderr)
        return 2
    try:
        deck = load_deck(args.deck) if args.deck else default_deck()
    except DeckError as exc:
        print(f"zefiria storm: {exc}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    infos = [describe(d, args.lang) for d in draw_storms(deck, rounds, seed)]
    try:
        _print(infos, seed, rounds, deck.source, args)
    except BrokenPipeError:  # `zefiria storm | head`: the reader left, nothing is wrong
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _print(
    infos: list[dict[str, Any]], seed: int, rounds: int, source: str, args: argparse.Namespace
) -> None:
    if args.json:
        out = {"seed": seed, "rounds": rounds, "deck": source, "storms": infos}
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return
    t = TEXTS[args.lang]
    print(t["title"].format(rounds=rounds, seed=seed))
    print(t["replay"])
    interactive = _interactive()
    for info in infos:
        if interactive:
            try:
                answer = input("\n" + t["next"].format(round=info["round"]))
            except EOFError:
                break
            if answer.strip().lower().startswith("q"):
                break
        print()
        print(format_storm(info, args.lang))
