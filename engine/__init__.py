"""Zefiria's rules engine: standard library only, so it runs anywhere (the Pi, a phone port).

The public API is re-exported here; see ``docs/`` for the notation and the record format.
"""

from .actions import (
    Action,
    Breeze,
    ChooseFirst,
    ChooseSleeper,
    EndTurn,
    Fly,
    Leave,
    Place,
    Retrieve,
    Spend,
)
from .deck import Blizzard, Deck, DeckError, GridCard, IslandFace, Tornado, default_deck, load_deck
from .errors import (
    ConfigError,
    IllegalActionError,
    InvalidActionError,
    NothingToUndoError,
    Reason,
    RecordError,
    ZefiriaError,
)
from .game import Game
from .grid import ALL_CELLS, CORNERS, SIZE, Cell, Direction, home_cell
from .rng import Rng
from .rules import PricedAction, action_cost, apply_action, check_action, is_legal, legal_actions
from .scoring import Score, rating, rating_band, score
from .setup import new_game
from .spirits import Spirit
from .state import (
    Difficulty,
    GameConfig,
    GameState,
    Mode,
    Phase,
    Position,
    StormEffect,
    StormEvent,
)

__all__ = [
    "ALL_CELLS",
    "CORNERS",
    "SIZE",
    "Action",
    "Blizzard",
    "Breeze",
    "Cell",
    "ChooseFirst",
    "ChooseSleeper",
    "ConfigError",
    "Deck",
    "DeckError",
    "Difficulty",
    "Direction",
    "EndTurn",
    "Fly",
    "Game",
    "GameConfig",
    "GameState",
    "GridCard",
    "IllegalActionError",
    "InvalidActionError",
    "IslandFace",
    "Leave",
    "Mode",
    "NothingToUndoError",
    "Phase",
    "Place",
    "Position",
    "PricedAction",
    "Reason",
    "RecordError",
    "Retrieve",
    "Rng",
    "Score",
    "Spend",
    "Spirit",
    "StormEffect",
    "StormEvent",
    "Tornado",
    "ZefiriaError",
    "action_cost",
    "apply_action",
    "check_action",
    "default_deck",
    "home_cell",
    "is_legal",
    "legal_actions",
    "load_deck",
    "new_game",
    "rating",
    "rating_band",
    "score",
]
