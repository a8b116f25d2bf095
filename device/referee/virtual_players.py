"""Simulated players and the physical table they play on, for ``zefiria demo`` and the tests.

The virtual table is the *physical* table: cards, pawns and gems where hands put them, and
sometimes a hand over the cards. It knows no rules: a move onto an anchored card happens on
it as easily as a legal one, exactly as on a real table, and the referee must catch it.
The camera photographs it through the synthetic renderer, and the referee reads the photo
with the real vision code.

:func:`illegal_move` finds a move the rules forbid for the players to try now and then
(see :mod:`zefiria.device.referee.simulation`), so the demo shows refusals too.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from zefiria.engine.actions import (
    Action,
    Breeze,
    ChooseFirst,
    ChooseSleeper,
    Fly,
    Leave,
    Place,
    Retrieve,
)
from zefiria.engine.grid import ALL_CELLS, SIZE, Cell, index, manhattan, neighbours
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import GameState, Position
from zefiria.vision.synthetic.scene import Hand, Scene

Image = NDArray[np.uint8]
Render = Callable[[Scene], Image]


@dataclass
class VirtualTable:
    """What is physically on the table; :meth:`photo` is what a camera above it sees."""

    render: Render
    grid: list[int] = field(default_factory=lambda: list(range(1, SIZE * SIZE + 1)))
    pawns: dict[Spirit, Position] = field(default_factory=dict)
    gems: set[Cell] = field(default_factory=set)
    hand: Hand | None = None
    # Where the hand will be in the next photos, one entry per photo: a move is a hand
    # reaching in, the cards changing under it, and the hand going away.
    _script: deque[tuple[Hand | None, Callable[[], None] | None]] = field(default_factory=deque)
    _cache: tuple[Scene, Image] | None = None
    photos: int = 0

    def scene(self) -> Scene:
        return Scene(
            grid=tuple(self.grid), pawns=dict(self.pawns), gems=frozenset(self.gems), hand=self.hand
        )

    def photo(self) -> Image:
        """The next photo: the hand script advances one step per photo taken."""
        if self._script:
            hand, change = self._script.popleft()
            if change is not None:
                change()
            self.hand = hand
        scene = self.scene()
        self.photos += 1
        if self._cache is not None and self._cache[0] == scene:
            return self._cache[1]  # a still table photographs the same (the renderer is slow)
        image = self.render(scene)
        self._cache = (scene, image)
        return image

    @property
    def busy(self) -> bool:
        """A hand is still acting (or about to)."""
        return bool(self._script) or self.hand is not None

    def act(self, where: Cell, change: Callable[[], None]) -> None:
        """A hand reaches for ``where``, makes ``change`` there, and withdraws."""
        # Two photos with a difference are enough for the watcher to see motion: one with
        # the hand over the changed cards, one without it. Each photo costs a render.
        over = Hand(tip=(float(where[0]), float(where[1])))
        self._script.extend([(over, change), (None, None)])

    # -- the physical changes -------------------------------------------------------------
    def lay_out(self, grid: tuple[int, ...]) -> None:
        self.grid = list(grid)
        self.pawns.clear()
        self.gems.clear()
        self._cache = None

    def perform(self, state: GameState, action: Action, who: Spirit | None = None) -> None:
        """Do ``action`` with the hands, as the active player (or ``who``) would."""
        spirit = who or state.active_spirit
        pos = self.pawns.get(spirit)
        if isinstance(action, Place):
            self.act(action.cell, lambda: self._put(spirit, Position(action.cell)))
        elif isinstance(action, Leave):
            self.act(action.cell, lambda: self._put(spirit, Position(action.cell, outside=True)))
        elif isinstance(action, Fly):
            outside = pos is not None and pos.outside
            self.act(action.to, lambda: self._put(spirit, Position(action.to, outside=outside)))
        elif isinstance(action, Breeze):
            self.act(action.a, lambda: self._swap(action.a, action.b, spirit, action.stand))
        elif isinstance(action, Retrieve):
            self.act(action.cell, lambda: self.gems.discard(action.cell))
        # Spend, EndTurn and the solo choices are buttons, not table changes.

    def match(self, state: GameState) -> None:
        """Make the table what the referee says it is (put back, storm, Austro's steps)."""
        target_pawns = {
            s: p for s, p in zip(state.spirits, state.pawns, strict=True) if p is not None
        }
        changed = [c for c in ALL_CELLS if self.grid[index(c)] != state.grid[index(c)]]
        changed += [p.cell for s, p in target_pawns.items() if self.pawns.get(s) != p]
        changed += list(self.gems ^ set(state.anchored))
        if not changed and self.pawns == target_pawns:
            return

        def fix() -> None:
            self.grid = list(state.grid)
            self.pawns = dict(target_pawns)
            self.gems = set(state.anchored)

        self.act(changed[0] if changed else (2, 2), fix)

    def restore(self, state: GameState) -> None:
        """Lay the table out as ``state`` has it at once (after a power cut, say)."""
        self.grid = list(state.grid)
        self.pawns = {s: p for s, p in zip(state.spirits, state.pawns, strict=True) if p}
        self.gems = set(state.anchored)
        self._script.clear()
        self.hand = None

    def _put(self, spirit: Spirit, pos: Position) -> None:
        self.pawns[spirit] = pos

    def _swap(self, a: Cell, b: Cell, spirit: Spirit, stand: Cell | None) -> None:
        ia, ib = index(a), index(b)
        self.grid[ia], self.grid[ib] = self.grid[ib], self.grid[ia]
        if stand is not None:  # Skyron travels with his card, then stands where he chose
            self.pawns[spirit] = Position(stand)


@dataclass(frozen=True)
class Move:
    """What a virtual player does next: an action on the table, a button, or a cheat."""

    action: Action
    legal: bool
    who: Spirit | None = None  # the pawn moved, when it is not the active spirit's
    note: str = ""


def illegal_move(state: GameState, rng: random.Random) -> Move | None:
    """A table change no sequence of legal actions can produce, or None if none is handy.

    - a swap of two free cards further apart than the AP (plus every gem the players could
      spend): a Breeze moves a card at least its Manhattan distance, so no series of legal
      swaps can pay for it;
    - another player's pawn flying (only the active pawn moves in a turn);
    - a Fly onto an anchored card (no move ever ends there).
    """
    budget = state.ap + sum(state.gems_held)
    occupied = state.occupied_cells()
    free = [c for c in ALL_CELLS if c not in occupied and c not in state.anchored]
    options: list[Move] = []
    far = [(a, b) for a in free for b in free if a < b and manhattan(a, b) > budget]
    if far:
        a, b = rng.choice(far)
        options.append(Move(Breeze(a, b), legal=False, note="a swap that costs too much"))
    others = [
        (s, p)
        for s, p in zip(state.spirits, state.pawns, strict=True)
        if p is not None and not p.outside and s is not state.active_spirit
    ]
    for spirit, pos in others:
        to = [n for n in neighbours(pos.cell) if n in free]
        if to:
            options.append(
                Move(
                    Fly(rng.choice(to)),
                    legal=False,
                    who=spirit,
                    note=f"{spirit.title} moves out of turn",
                )
            )
            break
    active = state.pawns[state.active]
    # (not the card the pawn stands on: "flying" there moves nothing, and nothing is wrong)
    targets = sorted(set(state.anchored) - ({active.cell} if active is not None else set()))
    if targets and active is not None and not active.outside:
        target = rng.choice(targets)
        options.append(Move(Fly(target), legal=False, note="a Fly onto an anchored card"))
    return rng.choice(options) if options else None


def choice_index(state: GameState, options: tuple[Action, ...], rng: random.Random) -> int:
    """Which menu item a virtual player picks (solo first spirit, sleeper, Austro's side)."""
    preferred = [i for i, a in enumerate(options) if isinstance(a, ChooseFirst | ChooseSleeper)]
    return rng.choice(preferred or list(range(len(options))))
