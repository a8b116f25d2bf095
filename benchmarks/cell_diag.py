"""Why visible cells are left null: each doubt's first reason, on tuning or fresh decks.

    nice .venv/bin/python benchmarks/cell_diag.py --n 240 --seed 13 --designs 3000-3999

Sessions of ``make_dataset(n, seed, decks, per_setup)`` (DEV by default; ``--designs A-B``
for fresh decks, never EVAL), calibrated once each; every photo read by ``read_table``. Each
visible cell left null is put under the first of these that holds (the order of
``print_identity.certain``'s rules):

- ``unreadable``: the whole photo was refused (and why);
- ``hand's reach``: sure, but within the reach of a hand (or of something over a card);
- ``covered``: neither its print nor its colours match its island (taken for hidden);
- ``not framed``: the card's outline was not found in this photo (and it does not fit its
  island closely, ``print_identity.FIT_FRAMES``);
- ``island not framed``: the island read was not framed at calibration (and the card, framed
  now and away from that island's own cell, does not fit it closely);
- ``poor fit`` / ``misfits``: the card fits its island poorly, or too many cards do;
- ``beaten`` / ``contested``: another card fits its island's print far better, or another
  card's print is told apart in favour of its island (``print_identity._contested``);
- ``rival ...``: another island is not ruled out; split by why (``close colour, no telling
  blocks``, ``too little apart``, ``rho below SIDE``, and for a rival whose print was not
  framed ``rival not framed, rho below its side``), and by whether
  that rival is sure elsewhere (then the cell would have followed).

Each reason is split by whether the island chosen was right (a null on a wrong choice is
the reader doing its job). ``--log`` prints every null cell with its reason.

Last, the joint margins of the null cells (``assignment.alternatives``: the least extra
total cost of an assignment giving the cell another island): the largest margin of a
wrong choice, and how many right choices lie above it. A rule making cells sure on their
margin alone would have to stay above the first everywhere (see docs/vision.md, "Measured
and set aside").
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from vision_bench import calibrated, design_range
from zefiria.engine.grid import ALL_CELLS
from zefiria.vision import print_identity as pid
from zefiria.vision import reader
from zefiria.vision.synthetic import DEV_DESIGNS, make_dataset


def rival_reason(
    ev: pid.Evidence,
    deck: pid.PrintDeck,
    choice: np.ndarray,
    i: int,
    k: int,
    j: int,
) -> str:
    """Why island ``j`` stays a rival of ``k`` in cell ``i`` (mirrors ``open_rivals``)."""
    p = float(ev.block_px)
    sep = deck.separations_from(np.array([k]))[0, j]
    ek = ev.block_err[i, k, ev.best[i, k]]
    ej = ev.block_err[i, j, ev.best[i, j]]
    seen = (np.minimum(ek, ej) / p <= pid.OCCLUDED) & (sep / p >= pid.TELLING)
    den = float((sep * seen).sum())
    if not seen.any():
        return "no telling block seen"
    if den / p < pid.MIN_APART:
        return "too little apart"
    rho = float(((ej - ek) * seen).sum()) / max(den, 1e-6)
    framed = pid.vouched(ev, deck, choice)[j]
    kind = "rho below side" if framed else "rival not framed, rho below its side"
    return f"{kind} ({'<0' if rho < 0 else '<0.2' if rho < 0.2 else '<side'})"


def reasons(ident: reader.Identification, deck: pid.PrintDeck) -> list[str]:
    ev, colour, choice = ident.evidence, ident.colour, ident.choice
    n = len(choice)
    idx = np.arange(n)
    fit = ev.cost[idx, choice] <= pid.POOR_FIT
    many = int((~fit).sum()) >= pid.MISFITS
    out = []
    open_rivals = pid.open_rivals(ev, deck, colour, choice)
    sure = pid.certain(ev, deck, colour, choice)
    covered = (colour[idx, choice] > reader.MAX_OWN) & (ev.cost[idx, choice] > reader.COVER_PRINT)
    placed = set(choice[sure].tolist())
    beaten = pid._beaten(ev.cost, choice)
    _, favours = pid._told_apart(ev, deck, colour, choice)
    contested = np.isin(choice, pid._contested(ev, choice, favours, None))
    card_framed, island_framed = pid.framing(ev, deck, choice)
    for i in range(n):
        k = int(choice[i])
        if covered[i]:
            out.append("covered")
        elif sure[i]:
            out.append("sure")
        elif not card_framed[i]:
            out.append("not framed")
        elif not island_framed[i]:
            out.append("island not framed")
        elif not fit[i]:
            out.append("poor fit")
        elif many:
            out.append("misfits")
        elif beaten[i]:
            out.append("beaten (another card fits its island far better)")
        elif contested[i]:
            out.append("contested (another card's print favours its island)")
        else:
            rivals = [int(j) for j in open_rivals[i] if int(j) not in placed]
            if not rivals:
                out.append("rival (all placed?)")
            else:
                out.append("rival: " + rival_reason(ev, deck, choice, i, k, rivals[0]))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=240)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--per-setup", type=int, default=8)
    ap.add_argument("--designs", type=design_range, metavar="A-B")
    ap.add_argument("--log", action="store_true")
    args = ap.parse_args()
    decks = args.designs or DEV_DESIGNS
    c: Counter[str] = Counter()
    per_design: Counter[tuple[int, str]] = Counter()
    margins: dict[bool, list[float]] = {True: [], False: []}  # null cells, by choice right
    for sample, profile in calibrated(
        make_dataset(args.n, args.seed, decks, per_setup=args.per_setup)
    ):
        if profile is None:
            continue
        setup = sample.setup
        photo = sample.render()
        reader.DEBUG.clear()
        reading = reader.read_table(photo.image, profile)
        why = reasons(reader.DEBUG[-1], reader.print_deck()) if reader.DEBUG else None
        ident = reader.DEBUG[-1] if reader.DEBUG else None
        for i, cell in enumerate(ALL_CELLS):
            if cell in photo.truth.hand_cells:
                continue
            c["visible"] += 1
            got = reading.grid[cell[0]][cell[1]] if reading.ok else None
            if got is not None:
                right = got == sample.scene.island_at(cell)
                kind = (
                    "read" if right else "wrong" if cell in reading.uncertain else "WRONG (silent)"
                )
                c[kind] += 1
                if args.log and not right:
                    truth = sample.scene.island_at(cell)
                    print(
                        f"#{sample.index} design {setup.design} cell {cell}: {kind}, "
                        f"read {got}, is {truth}"
                    )
                continue
            truth = sample.scene.island_at(cell)
            if not reading.ok or why is None or ident is None:
                reason = f"unreadable: {reading.reason}"
            else:
                # (a sure card left null is in the reach of a hand: reader.hand_over_cards)
                reason = "hand's reach" if why[i] == "sure" else why[i]
                reason += (
                    " [choice right]" if int(ident.choice[i]) + 1 == truth else " [choice WRONG]"
                )
            c[reason] += 1
            per_design[(setup.design, "null")] += 1
            if ident is not None:
                margins[int(ident.choice[i]) + 1 == truth].append(float(ident.margins[i]))
            if args.log:
                print(f"#{sample.index} design {setup.design} cell {cell}: {reason}")
    print(f"decks {decks[0]}-{decks[-1]}, --n {args.n} --seed {args.seed}")
    print(
        f"visible {c['visible']}, read {c['read']} ({100 * c['read'] / max(c['visible'], 1):.1f}%)"
    )
    for k, v in c.most_common():
        if k not in ("visible", "read"):
            print(f"  {v:5d}  {k}")
    worst = sorted(((v, d) for (d, _), v in per_design.items()), reverse=True)[:8]
    print("most nulls by design: " + ", ".join(f"{d}: {v}" for v, d in worst))
    print(margin_summary(margins[True], margins[False]))
    return 0


def margin_summary(right: list[float], wrong: list[float]) -> str:
    """The null cells' joint margins: the largest on a wrong choice, and the right choices
    above it (what a margin-alone rule could gain at best, with no room to spare)."""
    if not wrong:
        return f"null margins: {len(right)} right choices, no wrong choice among the nulls"
    top = max(wrong)
    above = sum(m > top for m in right)
    return (
        f"null margins: wrong choices {len(wrong)}, largest margin {top:.2f}; "
        f"right choices above it {above} of {len(right)}"
    )


if __name__ == "__main__":
    sys.exit(main())
