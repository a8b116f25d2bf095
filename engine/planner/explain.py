"""Plain-language explanations of a plan: what each action does to the grid.

The notation module (another part of the engine) formats actions as players write them;
until it exists we fall back to the action's ``repr``.
"""

from __future__ import annotations

from ..actions import Action, Breeze, Retrieve, Spend
from ..grid import home_cell
from ..state import GameState


def format_action(action: Action) -> str:
    try:
        from ..notation import format_action as notation_format
    except ImportError:
        return repr(action)
    return str(notation_format(action))


def _card_word(island: int, cell: tuple[int, int]) -> str | None:
    home = home_cell(island)
    if home == cell:
        return f"{island} home"
    if home[0] == cell[0]:
        return f"{island} into its row"
    return None


def describe(before: GameState, action: Action, after: GameState) -> str:
    """One short clause on why ``action`` helps (what it puts home, what it sets up)."""
    text = format_action(action)
    if isinstance(action, Breeze):
        gains = []
        for cell in (action.a, action.b):
            island = after.island_at(cell)
            word = _card_word(island, cell)
            was = before.island_at(cell)
            if word is not None:
                gains.append(word)
            elif home_cell(was) == cell:
                gains.append(f"{was} leaves home")
        return f"{text} ({', '.join(gains)})" if gains else f"{text} (sets up)"
    if isinstance(action, Retrieve):
        return f"{text} (+1 VP gem)"
    if isinstance(action, Spend):
        return f"{text} (+1 AP, -1 VP)"
    return text


def explain(
    states: list[GameState],
    actions: tuple[Action, ...],
    *,
    score_before: int,
    score_after: int,
    nodes: int,
    horizon: int,
) -> str:
    """A hint in a few lines: the actions, the score change and how far the search looked.

    The search's value is left out: it ranks positions (the score minus the distance still
    to repair) and means little to a player before the last round.
    """
    who = states[0].active_spirit.title if states else ""
    steps = [describe(states[i], a, states[i + 1]) for i, a in enumerate(actions)]
    parts = [f"{who}: " + "; ".join(steps) if steps else f"{who}: nothing helps, end the turn"]
    home = (sum(1 for i, k in enumerate(s.grid) if k == i + 1) for s in (states[0], states[-1]))
    parts.append(
        f"Score {score_before} -> {score_after}, cards home {' -> '.join(map(str, home))}."
    )
    ahead = "this turn" if horizon <= 1 else f"{horizon} turns ahead"
    parts.append(f"Searched {nodes} positions, {ahead}.")
    return "\n".join(parts)
