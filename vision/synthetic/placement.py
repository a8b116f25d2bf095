"""Where each pawn and gem stands on the table (mm), with the jitter of real hands.

Pawns stand roughly in the middle of their card; Austro outside stands beside his edge card.
A gem lies anywhere on its card, or towards one end when a pawn shares the card. The supply
(loose red gems and the face-down storm deck) lies off the grid, to one side of it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from zefiria.engine import SIZE, Cell, Position, Spirit

from .camera import GRID_FRAME_MM, OUTSIDE_MARGIN_MM
from .design import CARD_MM
from .layout import Layout, to_table
from .props import GEM, PAWNS, Solid
from .scene import Scene


@dataclass(frozen=True)
class Prop:
    solid: Solid
    x: float
    y: float
    turn: float  # radians about its axis (faceted solids)


@dataclass(frozen=True)
class Supply:
    """Things beside the grid: the storm deck (centre, angle) and loose red gems."""

    deck: tuple[float, float, float] | None
    gems: tuple[Prop, ...]


@dataclass(frozen=True)
class Placement:
    pawns: dict[Spirit, Prop]
    gems: dict[Cell, Prop]
    supply: Supply

    def props(self) -> list[Prop]:
        return [*self.pawns.values(), *self.gems.values(), *self.supply.gems]


def place(scene: Scene, layout: Layout, rng: np.random.Generator, side_seed: int) -> Placement:
    """Positions for everything standing on the table. ``side_seed`` fixes the supply's side
    for a whole session (players keep it where they first put it)."""
    pawns = {}
    for spirit in Spirit:
        pos = scene.pawns.get(spirit)
        if pos is not None:
            x, y = _pawn_spot(pos, layout, PAWNS[spirit], rng)
            pawns[spirit] = Prop(PAWNS[spirit], x, y, float(rng.uniform(0, np.pi)))
    standing = {p.cell: s for s, p in scene.pawns.items() if not p.outside}
    gems = {}
    for cell in sorted(scene.gems):
        if cell in standing:  # beside the pawn, towards an end of the card, not touching it
            pawn = pawns[standing[cell]]
            a = np.radians(layout.angle(cell))
            way = np.array([rng.uniform(-0.45, 0.45), rng.choice([-1.0, 1.0])])
            way = way / np.linalg.norm(way)
            way = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) @ way
            reach = pawn.solid.radius + GEM.radius + rng.uniform(2.0, 6.0)
            x, y = pawn.x + way[0] * reach, pawn.y + way[1] * reach
        else:
            local = (np.clip(rng.normal(0, 7), -20, 20), np.clip(rng.normal(0, 10), -33, 33))
            x, y = to_table(layout, cell, np.array([local], np.float64))[0]
        gems[cell] = Prop(GEM, float(x), float(y), float(rng.uniform(0, np.pi)))
    return Placement(pawns, gems, _supply(scene, rng, side_seed))


def _pawn_spot(
    pos: Position, layout: Layout, solid: Solid, rng: np.random.Generator
) -> tuple[float, float]:
    if not pos.outside:
        jitter = rng.normal(0, 3.5, 2).clip(-8, 8)
        local = (float(jitter[0]), float(jitter[1]))
    else:
        r, c = pos.cell
        edges = (
            ("top", r == 0),
            ("bottom", r == SIZE - 1),
            ("left", c == 0),
            ("right", c == SIZE - 1),
        )
        sides = [s for s, ok in edges if ok]
        side = sides[int(rng.integers(len(sides)))]
        out = CARD_MM[1] / 2 if side in ("top", "bottom") else CARD_MM[0] / 2
        out += solid.radius + rng.uniform(4, 14)
        along = float(rng.normal(0, 5))
        local = {
            "top": (along, -out),
            "bottom": (along, out),
            "left": (-out, along),
            "right": (out, along),
        }[side]
    x, y = to_table(layout, pos.cell, np.array([local], np.float64))[0]
    return (float(x), float(y))


def _supply(scene: Scene, rng: np.random.Generator, side_seed: int) -> Supply:
    if not scene.storm_deck and scene.loose_gems == 0:
        return Supply(None, ())
    home = np.random.default_rng([side_seed, 0x5A1])
    side = 1.0 if home.random() < 0.5 else -1.0
    # just beyond the room the camera keeps for Austro: often only partly in the photo
    x = side * (GRID_FRAME_MM[2] + OUTSIDE_MARGIN_MM + home.uniform(5, 45))
    y = float(home.uniform(-150, 150))
    deck = None
    if scene.storm_deck:
        deck = (x, y, float(rng.normal(0, 8)))
    pile_x, pile_y = x, y + (CARD_MM[1] / 2 + 25 if deck else 0.0) * (1 if y < 0 else -1)
    spots: list[tuple[float, float]] = []
    for _ in range(scene.loose_gems):
        # a loose heap: gems touch but never pass through each other
        for spread in np.linspace(8, 80, 100):  # wider and wider until a gap turns up
            gx, gy = pile_x + rng.normal(0, spread / 2), pile_y + rng.normal(0, spread / 2)
            if all(np.hypot(gx - u, gy - v) > 2 * GEM.radius + 0.5 for u, v in spots):
                break
        spots.append((float(gx), float(gy)))
    gems = tuple(Prop(GEM, gx, gy, float(rng.uniform(0, np.pi))) for gx, gy in spots)
    return Supply(deck, gems)
