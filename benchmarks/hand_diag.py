"""Hand diagnosis: scenes that all have a hand over the table, read whole.

    taskset -c 0 nice .venv/bin/python benchmarks/hand_diag.py --n 96 --seed 41
    taskset -c 0 nice .venv/bin/python benchmarks/hand_diag.py --n 96 --seed 43 --designs 6000-6999

Sessions of ``make_dataset(n, seed, decks, per_setup, hand_chance=1.0)`` (DEV by default;
``--designs A-B`` for fresh decks, never EVAL), calibrated once each, every photo read by
``read_table``. A card counts as covered when the hand hides a tenth of it (the renderer's
``HAND_COVER``, as in ``vision_bench.py``); the others are visible. Reported:

- covered cards not in ``uncertain`` (a hand not flagged), and whether the hand was seen at
  all (``hand_reach`` ran); covered cards given an island (their print sure), and wrong;
- visible cards left null, and read wrong;
- visible cards left null by the share of them the hand's reach (``hand_over_cards``) and
  the hand's own change (its reach without the margin) cover;
- pawns and gems the hand does not hide: right, placed wrong (or a hidden pawn read
  somewhere), missed silently (their cell not uncertain), phantom.

``--touch X`` sets ``hand.HAND_TOUCH`` (the share of a card in the reach that puts it in doubt).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent))

from vision_bench import calibrated, design_range
from zefiria.engine.grid import ALL_CELLS, Cell
from zefiria.vision import hand
from zefiria.vision.reader import read_table
from zefiria.vision.reading import Status
from zefiria.vision.synthetic import DEV_DESIGNS, make_dataset
from zefiria.vision.synthetic.render import HAND_COVER

# Per reading: each card's share in the hand's reach, and in its change alone (no margin).
SHARES: dict[Cell, tuple[float, float]] = {}
_hand_over_cards = hand.hand_over_cards


def _traced(mask: Any, outside: Any, geometry: Any) -> tuple[Any, set[Cell]]:
    reach, cells = _hand_over_cards(mask, outside, geometry)
    margin = hand.HAND_MARGIN
    hand.HAND_MARGIN = 0.0
    try:
        own, _ = _hand_over_cards(mask, outside, geometry)
    finally:
        hand.HAND_MARGIN = margin
    for c in ALL_CELLS:
        region = hand.cards_region([c], geometry, reach.shape, 1)
        SHARES[c] = (float(reach[region].mean()), float(own[region].mean()))
    return reach, cells


def bucket(share: float | None) -> str:
    if share is None:
        return "no hand seen"
    for top in (0.02, 0.06, 0.1, 0.2):
        if share < top:
            return f"< {top}"
    return ">= 0.2"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=96)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--per-setup", type=int, default=8)
    ap.add_argument("--designs", type=design_range, default=DEV_DESIGNS)
    ap.add_argument("--touch", type=float, default=None)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    hand.hand_over_cards = _traced  # (hand_reach looks it up in its module at each call)
    if args.touch is not None:
        hand.HAND_TOUCH = args.touch
    c: Counter[str] = Counter()
    nulls: Counter[tuple[str, str]] = Counter()
    refused: set[int] = set()
    samples = make_dataset(args.n, args.seed, args.designs, args.per_setup, hand_chance=1.0)
    for sample, profile in calibrated(samples):
        if profile is None:
            refused.add(id(sample.setup))
            continue
        photo = sample.render()
        SHARES.clear()
        reading = read_table(photo.image, profile)
        c["photos"] += 1
        if reading.status is not Status.OK:
            c["photos unreadable"] += 1
            continue
        unsure = set(reading.uncertain)
        scene, truth = sample.scene, photo.truth
        for cell in ALL_CELLS:
            got = reading.grid[cell[0]][cell[1]]
            reach, own = SHARES.get(cell, (None, None))
            if truth.hand_cover[cell] >= HAND_COVER:
                c["covered cards"] += 1
                if cell not in unsure:
                    c["covered cards NOT uncertain"] += 1
                    c["... of which the hand was not seen at all"] += int(not SHARES)
                if got is not None:
                    # given (its print sure through the fingers), uncertain all the same
                    right = got == scene.island_at(cell)
                    c["covered cards given" + ("" if right else ", WRONG")] += 1
                continue
            c["visible cards"] += 1
            if got is None:
                c["visible cards null"] += 1
                nulls[(bucket(reach), bucket(own))] += 1
            elif got != scene.island_at(cell):
                silent = cell not in unsure
                c["visible cards WRONG" + (" (SILENT)" if silent else ", uncertain")] += 1
                print(
                    f"wrong: photo {sample.index} (design {sample.setup.design}) cell {cell}: "
                    f"truth {scene.island_at(cell)}, read {got}, "
                    f"hand covers {truth.hand_cover[cell]:.2f}"
                    + (", not uncertain" if silent else ", uncertain"),
                    file=sys.stderr,
                )
        for spirit, pos in scene.pawns.items():
            got_pos = reading.pawns.get(spirit)
            if spirit in truth.hidden_pawns:
                # (a pawn the hand hides, read somewhere else, is wrong)
                c["pawns placed WRONG"] += got_pos is not None and got_pos != pos
                continue
            c["pawns"] += 1
            if got_pos == pos:
                c["pawns right"] += 1
            elif got_pos is not None:
                c["pawns placed WRONG"] += 1
            elif pos.outside or pos.cell not in unsure:
                c["pawns missed or misplaced SILENTLY"] += 1
        c["pawns phantom"] += sum(s not in scene.pawns for s in reading.pawns)
        for cell in scene.gems:
            if cell in truth.hidden_gems:
                continue
            c["gems"] += 1
            if cell in reading.gems:
                c["gems found"] += 1
            elif cell not in unsure:
                c["gems missed SILENTLY"] += 1
        c["gems phantom"] += sum(g not in scene.gems for g in reading.gems)
    c["sessions refused"] = len(refused)
    designs = f"{args.designs[0]}-{args.designs[-1]}"
    print(f"hand scenes: decks {designs}, --n {args.n} --seed {args.seed}, touch {hand.HAND_TOUCH}")
    for k, v in c.items():
        print(f"  {k}: {v}")
    print("visible cards null, by share of the card in the reach / in the hand's own change:")
    for (reach, own), v in sorted(nulls.items()):
        print(f"  reach {reach:>12}, own {own:>12}: {v}")


if __name__ == "__main__":
    main()
