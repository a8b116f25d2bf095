"""The search behind :func:`zefiria.engine.explain.explain`: states, bounds and the three searches.

Everything here is priced and played by :mod:`zefiria.engine.rules` (``legal_actions`` and
``apply_action``); this module only decides which states to look at. See ``docs/explain.md``.

The search runs on a *sandbox* copy of the state with AP to spare, so that the rules never
end the turn under it; every explanation is then replayed on the real state, inserting the
Spend actions that the extra AP need (spending is invisible to the camera).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from .actions import Action, Breeze, Fly, Retrieve, Spend
from .differences import (
    CardDifference,
    Difference,
    GemDifference,
    PawnDifference,
    table_differences,
)
from .errors import IllegalActionError
from .grid import ALL_CELLS, SIZE, Cell, index, is_edge, manhattan
from .notation import describe_action
from .observation import Observation, observation_of
from .rules import PricedAction, apply_action, legal_actions
from .spirits import Spirit
from .state import GameState, Mode, Phase, Position

__all__ = ["Explanation", "Skeleton", "Target", "TurnSearch"]

# Bounds that keep a pathological reading from stalling the device. They are far above what a
# real turn needs (see benchmarks/results/engine.md); reaching one only weakens the answer
# (an alternative or a nearer table may go unreported), never makes it wrong.
MAX_NODES = 200_000
MAX_ALTERNATIVES = 3
NEAREST_EXPANSIONS = 400


@dataclass(frozen=True)
class Explanation:
    """A legal sequence of actions that produces a table.

    ``actions`` include the Spend actions the extra AP need (before the action that needs
    them); ``cost`` is the AP the actions spend. ``state`` is the engine's state after them,
    exactly as :func:`~zefiria.engine.rules.apply_action` returns it (if the last AP went and
    nobody holds a gem, the rules have already ended the turn). ``table`` is the table right
    after the actions, as a perfect camera would see it.
    """

    actions: tuple[Action, ...]
    cost: int
    state: GameState
    table: Observation = field(repr=False, compare=False)

    def describe(self, start: GameState) -> str:
        """The actions as sentences, from ``start`` (the state they were explained from)."""
        words: list[str] = []
        state = start
        for action in self.actions:
            words.append(describe_action(action, state))
            state = apply_action(state, action)
        return "; ".join(words) if words else "nothing"


# -- the target: what the camera saw, as distances ------------------------------------------------
class Target:
    """The observation compiled for the search: per-card distances and the goal tests."""

    def __init__(self, state: GameState, obs: Observation) -> None:
        wild = obs.wildcards
        wild_idx = [index(c) for c in wild]
        # Distance from each cell to the nearest wildcard cell: a card the camera did not see
        # must end in one of them.
        near_wild = [
            min((manhattan(ALL_CELLS[i], ALL_CELLS[w]) for w in wild_idx), default=_FAR)
            for i in range(SIZE * SIZE)
        ]
        where: dict[int, int] = {}
        for cell in ALL_CELLS:
            island = obs.island_at(cell)
            if island is not None:
                where[island] = index(cell)
        self.dist: list[list[int]] = [[0] * (SIZE * SIZE)]  # dist[island][cell index]
        for island in range(1, SIZE * SIZE + 1):
            goal = where.get(island)
            if goal is None:
                self.dist.append(list(near_wild))
            else:
                self.dist.append([manhattan(c, ALL_CELLS[goal]) for c in ALL_CELLS])
        self.pawn: Position | None = obs.pawns.get(state.active_spirit)
        self.skyron = state.active_spirit is Spirit.SKYRON
        # Gems only ever leave the table during a turn (Retrieve): the ones gone from a
        # readable cell must be retrieved, a gem that appeared cannot be explained.
        self.drop = frozenset(c for c in state.anchored if c not in wild and c not in obs.gems)
        self.static: list[Difference] = [
            d for d in table_differences(state, obs) if not _changeable(d, state, self.drop)
        ]

    def grid_sum(self, grid: Sequence[int]) -> int:
        dist = self.dist
        return sum(dist[k][i] for i, k in enumerate(grid))

    def h(self, s: int, pos: Position, anchored: frozenset[Cell]) -> int:
        """Admissible, consistent lower bound on the AP still needed."""
        grid_h = (s + 1) // 2
        pawn_h = 0 if self.pawn is None or self.pawn == pos else 1
        gems_h = len(self.drop & anchored) if self.drop else 0
        if self.skyron:
            # Skyron flies to adjacent cards only and a Breeze of cost c carries him at most
            # c cells: he needs at least his distance in AP, but his Breezes may serve both.
            if self.pawn is not None and pawn_h:
                pawn_h = manhattan(pos.cell, self.pawn.cell)
            return max(grid_h, pawn_h) + gems_h
        return grid_h + pawn_h + gems_h

    def reached(self, s: int, pos: Position, anchored: frozenset[Cell]) -> bool:
        return s == 0 and (self.pawn is None or self.pawn == pos) and not (self.drop & anchored)

    def mismatch(self, state: GameState) -> int:
        """How far a table is from the observation: wrong cards, pawn and gems."""
        pos = state.pawns[state.active]
        dist = self.dist
        wrong = sum(1 for i, k in enumerate(state.grid) if dist[k][i] > 0)
        wrong += 0 if self.pawn is None or self.pawn == pos else 1
        return wrong + len(self.drop & state.anchored)


_FAR = 4 * SIZE  # farther than any two cells: "no wildcard cell to go to"


def _changeable(d: Difference, state: GameState, drop: frozenset[Cell]) -> bool:
    """Can the active spirit's turn account for this difference at all?"""
    if isinstance(d, CardDifference):
        return True
    if isinstance(d, PawnDifference):
        return d.spirit is state.active_spirit
    assert isinstance(d, GemDifference)
    return d.cell in drop


# -- search nodes ---------------------------------------------------------------------------------
class _Node:
    """A state reached in the sandbox, how (parent, action) and at what cost."""

    __slots__ = ("action", "cost", "g", "parent", "s", "state")

    def __init__(
        self,
        state: GameState,
        g: int,
        s: int,
        parent: _Node | None = None,
        action: Action | None = None,
        cost: int = 0,
    ) -> None:
        self.state = state
        self.g = g
        self.s = s
        self.parent = parent
        self.action = action
        self.cost = cost

    @property
    def pos(self) -> Position:
        pos = self.state.pawns[self.state.active]
        assert pos is not None
        return pos

    def key(self) -> Key:
        return (self.state.grid, self.pos, self.state.anchored)

    def path(self) -> list[tuple[Action, int]]:
        out: list[tuple[Action, int]] = []
        node: _Node | None = self
        while node is not None and node.action is not None:
            out.append((node.action, node.cost))
            node = node.parent
        out.reverse()
        return out


Key = tuple[tuple[int, ...], Position, frozenset[Cell]]


class _Move(NamedTuple):
    """A priced action and the key of the state it leads to, before the rules apply it."""

    action: Action
    cost: int
    g: int
    s: int
    key: Key
    f: int  # AP spent plus the lower bound: the least an explanation through it costs


GridAction = tuple[str, tuple[Cell, ...]]
Skeleton = tuple[GridAction, ...]


def _grid_action(action: Action) -> GridAction | None:
    """What a Breeze or a Retrieve does to the table, whoever stands where (else None)."""
    if isinstance(action, Breeze):
        return ("breeze", tuple(sorted((action.a, action.b))))
    if isinstance(action, Retrieve):
        return ("retrieve", (action.cell,))
    return None


def _skeleton(path: Sequence[tuple[Action, int]]) -> Skeleton:
    """The grid-changing actions of a path, as a multiset (sorted): the same changes made in
    another order are the same changes, so they never make an explanation ambiguous."""
    return tuple(sorted(ga for action, _ in path if (ga := _grid_action(action)) is not None))


Table = tuple[tuple[int, ...], frozenset[Cell]]


def _apply_to_table(table: Table, action: Action) -> Table:
    """A Breeze or a Retrieve as a plain permutation/removal, legality ignored."""
    grid, anchored = table
    if isinstance(action, Breeze):
        g = list(grid)
        a, b = index(action.a), index(action.b)
        g[a], g[b] = g[b], g[a]
        return (tuple(g), anchored)
    assert isinstance(action, Retrieve)
    return (grid, anchored - {action.cell})


# -- the search -----------------------------------------------------------------------------------
class TurnSearch:
    """One explanation problem: a state, an observation and the AP that may be spent."""

    def __init__(
        self,
        state: GameState,
        obs: Observation,
        max_extra_ap: int | None,
        *,
        max_nodes: int = MAX_NODES,
    ) -> None:
        self.real = state
        self.max_nodes = max_nodes
        obs = _austro_as_engine_sees_him(state, obs)
        self.obs = obs
        self.target = Target(state, obs)
        extra = 0
        self.held = sum(state.gems_held)
        if state.config.mode is Mode.STORM:
            # Gems held now, and the ones retrieved this turn, may all be spent.
            extra = sum(state.gems_held) + len(self.target.drop)
            if max_extra_ap is not None:
                extra = min(extra, max(0, max_extra_ap))
        self.max_spend = extra
        self.budget = state.ap + extra
        # AP to spare so the rules never end the turn inside the search (ap >= 1 always).
        self.sandbox = replace(state, ap=self.budget + 1)
        self.nodes = 0
        self._legal: dict[object, tuple[int, list[PricedAction]]] = {}

    # -- helpers -----------------------------------------------------------------------------
    def root(self) -> _Node:
        return _Node(self.sandbox, 0, self.target.grid_sum(self.sandbox.grid))

    def moves(self, node: _Node, bound: int, minimal: bool = False) -> Iterator[_Move]:
        """Legal actions whose lower bound fits in ``bound`` AP, priced by the rules.

        They are not applied yet: the caller drops those leading to a state it has seen, so
        :func:`apply_action` (the costly part) runs only for new states.
        ``minimal``: only Breezes that move a card not yet where the camera saw it.
        """
        target = self.target
        state = node.state
        grid = state.grid
        dist = target.dist
        pos = node.pos
        anchored = state.anchored
        # AP in hand now: a gem retrieved this turn can be spent, but only once it is held.
        gems_left = len(target.drop & anchored) if target.drop else 0
        retrieved = len(target.drop) - gems_left
        in_hand = min(bound, self.real.ap + min(self.max_spend, self.held + retrieved))
        # The bound's pawn and gem terms for a Breeze that leaves the pawn where it is.
        still = gems_left + (0 if target.pawn is None or target.pawn == pos else 1)
        for action, cost in self.legal(state):
            g = node.g + cost
            if g > in_hand:
                continue
            if isinstance(action, Breeze):
                a, b = index(action.a), index(action.b)
                ka, kb = grid[a], grid[b]
                before = dist[ka][a] + dist[kb][b]
                if minimal and before == 0:
                    continue
                s = node.s + dist[ka][b] + dist[kb][a] - before
                if action.stand is None:
                    f = g + (s + 1) // 2 + still
                    new_pos = pos
                else:
                    new_pos = Position(action.stand)
                    f = g + target.h(s, new_pos, anchored)
                if f > bound:
                    continue  # most Breezes stop here, before any tuple is built
                cells = list(grid)
                cells[a], cells[b] = kb, ka
                yield _Move(action, cost, g, s, (tuple(cells), new_pos, anchored), f)
            elif isinstance(action, Fly):
                new_pos = Position(action.to, outside=pos.outside)
                f = g + target.h(node.s, new_pos, anchored)
                if f <= bound:
                    yield _Move(action, cost, g, node.s, (grid, new_pos, anchored), f)
            elif isinstance(action, Retrieve):
                if action.cell not in target.drop:
                    continue  # a gem still seen on the table was not retrieved
                new_anchored = anchored - {action.cell}
                f = g + target.h(node.s, pos, new_anchored)
                if f <= bound:
                    yield _Move(action, cost, g, node.s, (grid, pos, new_anchored), f)
            # Spend and EndTurn are not table actions.

    def legal(self, state: GameState) -> list[PricedAction]:
        """``legal_actions``, remembered per table: searches meet the same table often.

        The sandbox's AP only shrink along a path, and fewer AP only ever remove actions
        (those costing more than is left), so a list made with at least as many AP serves.
        """
        pos = state.pawns[state.active]
        key = (state.grid, pos, state.anchored, state.must_leave)
        hit = self._legal.get(key)
        if hit is not None and hit[0] >= state.ap:
            return hit[1]
        actions = legal_actions(state)
        self._legal[key] = (state.ap, actions)
        return actions

    def child(self, node: _Node, move: _Move) -> _Node:
        self.nodes += 1
        state = apply_action(node.state, move.action)
        return _Node(state, move.g, move.s, node, move.action, move.cost)

    def replay(
        self, path: Sequence[tuple[Action, int]], table_state: GameState
    ) -> Explanation | None:
        """Play ``path`` on the real state with Spend where AP run short; None if refused."""
        state = self.real
        actions: list[Action] = []
        spent = 0
        total = 0
        for n, (action, cost) in enumerate(path):
            while state.ap < cost:
                holder = _holder(state)
                if holder is None or spent >= self.max_spend:
                    return None
                spend = Spend(holder)
                state = apply_action(state, spend)
                actions.append(spend)
                spent += 1
            try:
                state = apply_action(state, action)
            except IllegalActionError:
                return None
            actions.append(action)
            total += cost
            last = n == len(path) - 1
            if not last and (state.phase is not Phase.TURN or state.active != self.real.active):
                return None  # the rules ended the turn before the path did
        return Explanation(tuple(actions), total, state, observation_of(table_state))

    # -- 1. the cheapest explanation ------------------------------------------------------------
    def cheapest(self) -> tuple[Explanation, Skeleton] | None:
        """A* for the cheapest explanation; among equal costs, the fewest grid actions.

        A state's rank is (AP spent, grid actions made): a state met again as cheaply but
        with fewer Breezes is taken again, so "swap, fly, fly" wins over a three-swap route
        of the same cost (the simpler story for the players, and the same charge).
        """
        target = self.target
        root = self.root()
        best: dict[Key, tuple[int, int]] = {root.key(): (0, 0)}
        tie = itertools.count()
        heap: list[tuple[int, int, int, int, _Node, int]] = [
            (target.h(root.s, root.pos, root.state.anchored), 0, 0, next(tie), root, 0)
        ]
        worst = (self.budget + 1, 0)
        while heap and self.nodes < self.max_nodes:
            _, _, _, _, node, k = heapq.heappop(heap)
            if best.get(node.key(), (node.g, k)) < (node.g, k):
                continue
            if target.reached(node.s, node.pos, node.state.anchored):
                path = node.path()
                found = self.replay(path, node.state)
                if found is not None:
                    return found, _skeleton(path)
                continue
            for move in self.moves(node, self.budget):
                rank = (move.g, k + (_grid_action(move.action) is not None))
                if best.get(move.key, worst) <= rank:
                    continue
                best[move.key] = rank
                child = self.child(node, move)
                f = move.g + target.h(move.s, child.pos, child.state.anchored)
                # Among equal f: fewer grid actions, then deeper (reaches goals sooner).
                heapq.heappush(heap, (f, rank[1], -move.g, next(tie), child, rank[1]))
        return None

    # -- 2. minimal explanations of another cost ------------------------------------------------
    def alternatives(self, cheapest: int, skeleton: Skeleton) -> list[Explanation]:
        """Minimal explanations whose cost differs from ``cheapest``, cheapest first.

        A depth-first search over the AP left, keeping only what a minimal explanation can
        be: every Breeze moves a card not yet where the camera saw it, no subset of the grid
        actions cancels out (checked on the tables every subsequence of them makes), and a
        run of flights never goes where a shorter run from its start already went.
        """
        if self.budget <= cheapest:
            return []
        target = self.target
        found: dict[Skeleton, list[tuple[Action, int]]] = {}
        seen: set[tuple[Key, int]] = set()
        root = self.root()
        start_table: Table = (root.state.grid, root.state.anchored)

        def dfs(node: _Node, subs: frozenset[Table], reach: frozenset[Position]) -> None:
            if len(found) >= MAX_ALTERNATIVES or self.nodes >= self.max_nodes:
                return
            if target.reached(node.s, node.pos, node.state.anchored):
                path = node.path()
                sk = _skeleton(path)
                if node.g != cheapest and sk != skeleton and sk not in found:
                    found[sk] = path
                return
            # Most promising first, so that alternatives, when there are some, come early.
            moves = sorted(self.moves(node, self.budget, minimal=True), key=lambda m: m.f)
            # Where this run of flights could already be after one more Fly from here.
            further = reach | {m.key[1] for m in moves if isinstance(m.action, Fly)}
            for move in moves:
                mark = (move.key, move.g)
                if mark in seen:
                    continue
                action = move.action
                if isinstance(action, Fly):
                    if move.key[1] in reach:
                        continue  # a shorter run of flights gets there
                    seen.add(mark)
                    dfs(self.child(node, move), subs, further)
                    continue
                table: Table = (move.key[0], move.key[2])
                if table in subs:
                    continue  # some of the grid actions cancel out: not minimal
                seen.add(mark)
                child = self.child(node, move)
                dfs(
                    child,
                    subs | {_apply_to_table(t, action) for t in subs},
                    frozenset({child.pos}),
                )

        seen.add((root.key(), 0))
        dfs(root, frozenset({start_table}), frozenset({root.pos}))
        out: list[Explanation] = []
        for sk, path in found.items():
            best = self.cheapest_with(sk, sum(c for _, c in path)) or path
            cost = sum(c for _, c in best)
            if cost == cheapest:
                continue  # equal cost: not ambiguous
            end = self._table_state(best)
            explanation = self.replay(best, end)
            if explanation is not None:
                out.append(explanation)
        out.sort(key=lambda e: e.cost)
        return out

    def cheapest_with(self, skeleton: Skeleton, bound: int) -> list[tuple[Action, int]] | None:
        """The cheapest explanation made of exactly these grid actions, in any order (A*)."""
        target = self.target
        root = self.root()
        tie = itertools.count()
        heap: list[tuple[int, int, _Node, Skeleton]] = [(0, next(tie), root, skeleton)]
        best: dict[tuple[Key, Skeleton], int] = {}
        while heap:
            _, _, node, left = heapq.heappop(heap)
            g = node.g
            mark = (node.key(), left)
            if best.get(mark, g + 1) <= g:
                continue
            best[mark] = g
            if not left and target.reached(node.s, node.pos, node.state.anchored):
                return node.path()
            for move in self.moves(node, bound):
                ga = _grid_action(move.action)
                rest = left
                if ga is not None:
                    if ga not in left:
                        continue
                    i = left.index(ga)
                    rest = left[:i] + left[i + 1 :]
                if best.get((move.key, rest), move.g + 1) <= move.g:
                    continue
                child = self.child(node, move)
                f = move.g + target.h(move.s, child.pos, child.state.anchored)
                heapq.heappush(heap, (f, next(tie), child, rest))
        return None

    def _table_state(self, path: Sequence[tuple[Action, int]]) -> GameState:
        state = self.sandbox
        for action, _ in path:
            state = apply_action(state, action)
        return state

    # -- 3. the nearest legal table -------------------------------------------------------------
    def nearest(self) -> tuple[Explanation, GameState]:
        """The reachable table with the fewest differences from the observation (then cheapest).

        Best-first over Breezes that put a card where the camera saw it, any Fly and the
        Retrieves of vanished gems: the table a player most plausibly meant to make.
        """
        target = self.target
        root = self.root()
        tie = itertools.count()
        start = (target.mismatch(root.state), 0)
        best_node, best_score = root, start
        heap: list[tuple[tuple[int, int], int, _Node]] = [(start, next(tie), root)]
        seen = {root.key()}
        expansions = 0
        while heap and expansions < NEAREST_EXPANSIONS:
            node = heapq.heappop(heap)[2]
            expansions += 1
            for action, cost in legal_actions(node.state):
                g = node.g + cost
                if g > self.budget:
                    continue
                if isinstance(action, Breeze):
                    a, b = index(action.a), index(action.b)
                    ka, kb = node.state.grid[a], node.state.grid[b]
                    fixes = (target.dist[ka][b] == 0 < target.dist[ka][a]) or (
                        target.dist[kb][a] == 0 < target.dist[kb][b]
                    )
                    if not fixes:
                        continue
                elif isinstance(action, Retrieve):
                    if action.cell not in target.drop:
                        continue
                elif not isinstance(action, Fly):
                    continue
                child_state = apply_action(node.state, action)
                child = _Node(child_state, g, 0, node, action, cost)
                if child.key() in seen:
                    continue
                seen.add(child.key())
                child_score = (target.mismatch(child_state), g)
                if child_score < best_score:
                    path = child.path()
                    if self.replay(path, child_state) is not None:
                        best_node, best_score = child, child_score
                heapq.heappush(heap, (child_score, next(tie), child))
        path = best_node.path()
        explanation = self.replay(path, best_node.state)
        assert explanation is not None  # the empty path and every accepted one replay
        return explanation, best_node.state


def _holder(state: GameState) -> Spirit | None:
    """Who spends a gem: the active spirit's player first, then the others in turn order."""
    order = [state.active, *(i for i in range(len(state.spirits)) if i != state.active)]
    for i in order:
        if state.gems_held[i] > 0:
            return state.spirits[i]
    return None


def _austro_as_engine_sees_him(state: GameState, obs: Observation) -> Observation:
    """During Austro's turn, his pawn seen on an edge card stands beside it.

    The player may not have stepped him off his card yet at the start of the turn, or may
    already have put him back on the card beside him at its end: either way he is, for the
    rules, outside beside that card. Seen on an inner card (a storm carried him there and he
    has not left yet), where he will stand is not known: the reading says nothing about him.
    """
    pos = obs.pawns.get(Spirit.AUSTRO)
    if state.active_spirit is not Spirit.AUSTRO or pos is None or pos.outside:
        return obs
    pawns = dict(obs.pawns)
    if is_edge(pos.cell):
        pawns[Spirit.AUSTRO] = Position(pos.cell, outside=True)
    else:
        del pawns[Spirit.AUSTRO]
    return replace(obs, pawns=pawns)
