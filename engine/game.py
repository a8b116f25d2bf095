"""A game in progress: the states it went through and the actions that led there.

:class:`Game` is the stateful wrapper the referee and the CLI hold; the rules themselves are
pure functions of immutable states, so undo is simply going back to an earlier state.

>>> from zefiria.engine.actions import EndTurn, Place
>>> from zefiria.engine.spirits import Spirit
>>> from zefiria.engine.state import GameConfig, Mode
>>> game = Game.new(GameConfig(2, Mode.STANDARD, (Spirit.BOREA, Spirit.JUGO)), seed=5)
>>> _ = game.push(Place((0, 0))); _ = game.push(Place((4, 4)))
>>> game.state.round, game.state.active_spirit
(1, <Spirit.BOREA: 'borea'>)
>>> _ = game.push(EndTurn())
>>> game.undo()
EndTurn()
>>> len(game.actions)
2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .actions import Action
from .errors import NothingToUndoError
from .rules import PricedAction, apply_action, legal_actions
from .setup import new_game
from .spirits import Spirit
from .state import GameConfig, GameState, Phase

__all__ = ["Game", "NothingToUndoError"]

_TURN_PHASES = (Phase.TURN, Phase.AUSTRO_EXIT)


class Game:
    """A game from its initial state, with every action pushed so far.

    ``push`` is all or nothing: a refused action raises
    :class:`~zefiria.engine.errors.IllegalActionError` and leaves the game unchanged.
    """

    def __init__(self, initial: GameState, actions: Iterable[Action] = ()) -> None:
        self.initial = initial
        self._states: list[GameState] = [initial]
        self._actions: list[Action] = []
        for action in actions:
            self.push(action)

    @classmethod
    def new(
        cls,
        config: GameConfig,
        *,
        seed: int,
        grid: Sequence[int] | None = None,
        sleeper: Spirit | None = None,
    ) -> Game:
        """A new game in setup (see :func:`zefiria.engine.setup.new_game`)."""
        return cls(new_game(config, seed=seed, grid=grid, sleeper=sleeper))

    @property
    def state(self) -> GameState:
        return self._states[-1]

    @property
    def actions(self) -> list[Action]:
        """The actions pushed so far, oldest first (a copy)."""
        return list(self._actions)

    @property
    def states(self) -> list[GameState]:
        """Every state so far, ``initial`` first and ``state`` last (a copy)."""
        return list(self._states)

    def push(self, action: Action) -> GameState:
        """Apply ``action``; return the new state. Refused actions change nothing."""
        after = apply_action(self._states[-1], action)
        self._states.append(after)
        self._actions.append(action)
        return after

    def undo(self) -> Action:
        """Take back the last action exactly, with any round start or storm it triggered."""
        if not self._actions:
            raise NothingToUndoError("nothing to undo: no action has been played")
        self._states.pop()
        return self._actions.pop()

    def undo_turn(self) -> list[Action]:
        """Go back to the start of the current turn; return the undone actions, oldest first.

        At the very start of a turn, or outside a turn (setup, a solo choice, game over),
        nothing is undone.
        """
        now = self.state
        undone: list[Action] = []
        if now.phase not in _TURN_PHASES:
            return undone
        while self._actions and _same_turn(self._states[-2], now):
            undone.append(self.undo())
        undone.reverse()
        return undone

    def legal_actions(self) -> list[PricedAction]:
        return legal_actions(self.state)

    @property
    def is_over(self) -> bool:
        return self.state.phase is Phase.OVER

    def __repr__(self) -> str:
        s = self.state
        where = f"round {s.round} {s.phase.value} {s.active_spirit.title}"
        return f"<Game {where}, {len(self._actions)} actions>"


def _same_turn(before: GameState, now: GameState) -> bool:
    return (
        before.phase in _TURN_PHASES
        and before.round == now.round
        and before.turns_done == now.turns_done
        and before.active == now.active
    )
