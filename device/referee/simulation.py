"""A whole game at a virtual table: virtual players act, the session watches and judges.

Used by ``zefiria demo``, the referee benchmark and the power-cut test. Everything the
referee does here goes through the same :class:`~zefiria.device.referee.session.Session` as
on the device: the players only touch the virtual table and press buttons.

The players' every decision is drawn from the seed, the number of actions played so far and
the tries at that point, never from a generator running across the game, so a game resumed
after a power cut makes exactly the decisions the uninterrupted game would have made.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from zefiria.device.controls.events import Event, EventQueue
from zefiria.engine.actions import Action, EndTurn, Spend
from zefiria.engine.grid import ISLANDS, Cell, index
from zefiria.engine.rules import apply_action, legal_actions
from zefiria.engine.spirits import Spirit
from zefiria.engine.state import GameState, Phase

from .loop import Outcome, Pick
from .session import Session
from .virtual_players import Move, VirtualTable, choice_index, illegal_move

Planner = Callable[[GameState], list[Action]]

# A move is a handful of photos (hand in, hand over, hand out, then still frames); far more
# than this without a verdict means the referee is stuck, which the simulation reports.
MAX_FRAMES_PER_MOVE = 80
# Times the players straighten a pawn the screen says it cannot see before they take their
# move back (the pawn returns to the card the screen names).
WITHDRAW_AFTER = 2


class SimulationError(RuntimeError):
    """The simulated game could not go on (the referee never answered, a reading failed)."""


@dataclass
class Tally:
    """How the referee judged the virtual players' moves."""

    legal: int = 0
    accepted: int = 0
    illegal: int = 0
    refused: int = 0
    wrong: list[str] = field(default_factory=list)  # verdicts that were not what the rules say
    instructions: int = 0  # storms, Austro's steps, put-backs carried out by the players
    rereads: int = 0  # unreadable still tables that needed OK pressed
    vouched: int = 0  # "is the pawn on its card?" answered OK for a pawn the camera missed
    withdrawn: int = 0  # moves taken back because the camera could not see the moved pawn
    cards_vouched: int = 0  # "did the unread cards move?" answered OK: they had not
    picked: int = 0  # setup lists answered: "card b2: which island?", "which corner?"
    gems_asked: int = 0  # "a red gem on card N?" answered (the camera cannot tell: a pawn on it)

    @property
    def correct(self) -> bool:
        return not self.wrong and self.accepted == self.legal and self.refused == self.illegal


class Simulation:
    """Play the referee's game to the end with virtual players at a virtual table."""

    def __init__(
        self,
        session: Session,
        table: VirtualTable,
        controls: EventQueue,
        seed: int,
        planner: Planner | None = None,
        cheat_rate: float = 0.12,
        log: Callable[[str], None] = lambda _: None,
        max_photos: int | None = None,
    ) -> None:
        self.session = session
        self.referee = session.referee
        self.table = table
        self.controls = controls
        self.seed = seed
        self.planner = planner
        self.cheat_rate = cheat_rate
        self.log = log
        # A bound on the whole game, whatever the vision does: each move is bounded already,
        # but 2,000 moves of up to 80 photos each is hours at a real table's pace.
        self.max_photos = max_photos
        self.tally = Tally()
        self._tries: dict[int, int] = {}
        self.last_outcome: Outcome | None = None
        self.withdrawn = False  # the players took the move being judged back (see answer)
        self._plan: tuple[tuple[int, int, int], list[Action]] | None = None

    def rng(self) -> random.Random:
        """A generator for the next decision, drawn from where the game stands."""
        played = len(self.referee.game.actions) if self.referee.game is not None else -1
        tries = self._tries.get(played, 0)
        self._tries[played] = tries + 1
        return random.Random(f"{self.seed}:{played}:{tries}")

    # -- the game ----------------------------------------------------------------------------
    def play(self, max_moves: int = 2000, max_stuck: int = 25) -> Tally:
        progress, stuck = -2, 0
        for _ in range(max_moves):
            if self.session.stopped:
                raise SimulationError("the referee stopped")
            if self.max_photos is not None and self.table.photos > self.max_photos:
                raise SimulationError(f"no end after {self.table.photos} photos")
            played = len(self.referee.game.actions) if self.referee.game is not None else -1
            stuck = stuck + 1 if played == progress else 0
            progress = played
            if stuck > max_stuck:
                # The referee keeps refusing what the players do (the camera misreads the
                # table, say): a real table would call for help here.
                raise SimulationError(
                    f"no progress in {max_stuck} moves; last: {self.last_outcome.message}"
                    if self.last_outcome
                    else f"no progress in {max_stuck} moves"
                )
            if self.referee.over:
                self._until_verdict()  # the session scores and saves the game
                if self.referee.saved:
                    return self.tally
                continue
            self.turn_step()
        raise SimulationError(f"no end after {max_moves} moves")

    def turn_step(self) -> None:
        referee = self.referee
        if not referee.started:
            self._lay_out()
            return
        state = referee.state
        if referee.out_of_sync:
            self.tally.instructions += 1
            self.table.match(state)
            self._until_verdict()
            return
        _, options = referee.choices()
        if options:
            self._choose(state, options)
            return
        if state.phase is Phase.SETUP:
            self._place(state)
            return
        move = self._decide(state)
        if isinstance(move.action, EndTurn):
            self._press(Event.END_TURN)
            self._until_verdict()
            return
        if isinstance(move.action, Spend):
            self._press(Event.MENU)  # the menu lists the gems to spend first
            self._press(Event.OK)
            self._until_verdict()
            return
        self.withdrawn = False
        self.table.perform(state, move.action, move.who)
        outcome = self._until_verdict()
        self._check(state, move, outcome)

    def _lay_out(self) -> None:
        rng = self.rng()
        grid = list(ISLANDS)
        rng.shuffle(grid)
        self.table.lay_out(tuple(grid))
        self.table.act((2, 2), lambda: None)  # the hand that laid out the last card
        self._until_verdict()

    def _place(self, state: GameState) -> None:
        options = [p.action for p in legal_actions(state)]
        action = self.rng().choice(options)
        self.table.perform(state, action)
        self._until_verdict()

    def _choose(self, state: GameState, options: tuple[Action, ...]) -> None:
        i = choice_index(state, options, self.rng())
        for _ in range(i):
            self._press(Event.HINT)  # Hint moves down the menu
        self._press(Event.OK)
        self._until_verdict()

    def _decide(self, state: GameState) -> Move:
        rng = self.rng()
        if rng.random() < self.cheat_rate:
            cheat = illegal_move(state, rng)
            if cheat is not None:
                return cheat
        return Move(self._planned(state, rng), legal=True)

    def _planned(self, state: GameState, rng: random.Random) -> Action:
        legal = [p.action for p in legal_actions(state)]
        if self.planner is not None:
            key = (state.round, state.active, state.turns_done)
            if self._plan is None or self._plan[0] != key:
                self._plan = (key, list(self.planner(state)))
            plan = self._plan[1]
            while plan:
                action = plan.pop(0)
                if action in legal:
                    return action
                plan.clear()  # stale after an undo or a refusal: random from here
        table = [a for a in legal if not isinstance(a, Spend | EndTurn)]
        if not table or rng.random() < 0.12:
            return EndTurn()
        return rng.choice(table)

    def _press(self, event: Event) -> None:
        self.controls.put(event)

    # -- waiting for the referee ---------------------------------------------------------------
    def _until_verdict(self) -> Outcome:
        """Step the session until it answers something other than "unreadable"."""
        rereads = [0]
        waited = 0  # photos of a still table without an answer
        patience = self.session.watcher.settings.still_frames + 2
        last = "nothing read"

        def straighten() -> None:
            # A still table the camera could not read: a player straightens the cards and
            # pawns (they land a little differently) and the watcher sees the table anew.
            rereads[0] += 1
            self.tally.rereads += 1
            if rereads[0] > 8:
                raise SimulationError(f"the table cannot be read: {last}")
            self.table.act((2, 2), lambda: None)

        def vouch_or_withdraw(true: bool, what: str) -> bool:
            # OK when what the screen asks is true, as a player would. If it is not (the
            # pawn or cards just moved), they straighten what the camera missed; if it still
            # cannot see it, they give up that move: back where the game has it, then OK.
            if true:
                self._press(Event.OK)
            elif rereads[0] < WITHDRAW_AFTER:
                straighten()
            else:
                self.withdrawn = True
                self.table.match(self.referee.state)
                self.log(f"  the camera cannot see {what}: the move is taken back")
            return true

        def answer(unseen: tuple[Spirit, ...]) -> None:
            # "Can't see Borea's pawn: is it on its card (12)? ... Hint: elsewhere"
            true = self._pawns_where_the_game_has_them(unseen)
            elsewhere = self.session.asking_elsewhere
            if not true and elsewhere is not None:
                # It flew where the camera does not see it: Hint opens the list of places,
                # the players move down it to where the pawn stands (Hint), then OK.
                truth = self.table.scene().pawns.get(elsewhere.spirit) if elsewhere.spirit else None
                if truth in elsewhere.places:
                    for _ in range(1 + elsewhere.places.index(truth)):
                        self._press(Event.HINT)
                    self._press(Event.OK)
                    self.tally.picked += 1
                    return
            if vouch_or_withdraw(true, "the pawn there"):
                self.tally.vouched += 1

        def answer_cards(cells: tuple[Cell, ...]) -> None:
            # "Can't read the cards in a5, b5: straighten them. OK: they did not move."
            if vouch_or_withdraw(self._cards_where_the_game_has_them(cells), "the moved cards"):
                self.tally.cards_vouched += 1

        def answer_pick(pick: Pick) -> None:
            # "Card b2: which island?" / "which corner?": the players read the number on the
            # card, or look where the pawn stands, move down the list to it (Hint), then OK.
            scene = self.table.scene()
            if pick.cell is not None:
                options: tuple[object, ...] = pick.islands
                truth: object = scene.grid[index(pick.cell)]
            else:
                assert pick.spirit is not None
                options = pick.corners
                pos = scene.pawns.get(pick.spirit)
                truth = pos.cell if pos is not None else None
            if truth not in options:
                straighten()  # the list does not hold the answer: the table has moved
                return
            for _ in range(options.index(truth)):
                self._press(Event.HINT)
            self._press(Event.OK)
            self.tally.picked += 1

        def answer_gems(cells: tuple[Cell, ...]) -> None:
            # "Red gem of card 20 taken?" The players look: OK if it is gone, Undo if not.
            self.tally.gems_asked += 1
            still_there = any(c in self.table.scene().gems for c in cells)
            self._press(Event.UNDO if still_there else Event.OK)

        for _ in range(MAX_FRAMES_PER_MOVE):
            outcome = self.session.step()
            if self.session.stopped:
                raise SimulationError("the referee stopped")
            if outcome is None:
                waited = 0 if self.table.busy else waited + 1
                if waited > patience and self.session.picking is None:
                    # Still and no answer (the change was too small for the watcher, or the
                    # straightened cards look the same): press OK, as a player would, unless
                    # OK would say yes to a pawn the screen asks about and that is elsewhere.
                    asked = self.session.asking_unseen
                    if self.session.asking_gems:
                        answer_gems(self.session.asking_gems)
                    elif self.session.asking_cards:
                        answer_cards(self.session.asking_cards)
                    elif asked and not self._pawns_where_the_game_has_them(asked):
                        answer(asked)
                    else:
                        self._press(Event.OK)
                    waited = 0
                continue
            if outcome.kind != "unreadable":
                self.last_outcome = outcome
                return outcome
            last = outcome.message
            if outcome.ask and outcome.pick is not None:
                answer_pick(outcome.pick)
            elif outcome.ask and outcome.gems:
                answer_gems(outcome.gems)
            elif outcome.ask and outcome.cards:
                answer_cards(outcome.cards)
            elif outcome.ask:
                answer(outcome.unseen)
            elif not self.table.busy:
                straighten()
        raise SimulationError("the referee gave no verdict")

    def _cards_where_the_game_has_them(self, cells: tuple[Cell, ...]) -> bool:
        scene, state = self.table.scene(), self.referee.state
        return all(scene.grid[index(c)] == state.island_at(c) for c in cells)

    def _pawns_where_the_game_has_them(self, spirits: tuple[Spirit, ...]) -> bool:
        scene = self.table.scene()
        state = self.referee.state
        return all(scene.pawns.get(s) == state.position_of(s) for s in spirits)

    def _check(self, before: GameState, move: Move, outcome: Outcome) -> None:
        tally = self.tally
        if self.withdrawn:
            # Not a verdict on the move: the players took it back before the referee could
            # see it (it must then have charged nothing, which the next check would catch).
            self.withdrawn = False
            tally.withdrawn += 1
            if self.referee.state != before:
                tally.wrong.append(f"withdrawn {move.action} still changed the game")
            return
        text = f"{move.action} ({move.note or 'legal'})"
        if not move.legal:
            tally.illegal += 1
            if outcome.kind == "refused":
                tally.refused += 1
                self.log(f"  refused as it should: {move.note}")
            else:
                tally.wrong.append(f"illegal {text} got {outcome.kind}: {outcome.message}")
            return
        tally.legal += 1
        if outcome.kind != "accepted":
            tally.wrong.append(f"legal {text} got {outcome.kind}: {outcome.message}")
            return
        tally.accepted += 1
        expected = apply_action(before, move.action)
        actual = self.referee.state
        if expected != actual and not same_table(expected, actual):
            tally.wrong.append(f"legal {text} was explained as {outcome.actions}")


def same_table(a: GameState, b: GameState) -> bool:
    """Same cards, gems and pawns (a cheaper explanation of the same change is fine)."""
    return a.grid == b.grid and a.anchored == b.anchored and a.pawns == b.pawns
