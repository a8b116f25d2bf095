"""Setting up a game: check the configuration, shuffle the grid and the decks, seat the pawns.

>>> from zefiria.engine.state import GameConfig, Mode, Phase
>>> from zefiria.engine.spirits import Spirit
>>> state = new_game(GameConfig(3, Mode.STORM, (Spirit.BOREA, Spirit.JUGO, Spirit.AUSTRO)), seed=7)
>>> state.phase, sorted(state.grid) == list(range(1, 26)), state.gem_pool, state.purple_left
(<Phase.SETUP: 'setup'>, True, 6, 5)

The pawns are then placed with :class:`~zefiria.engine.actions.Place` actions in turn order
(see :func:`zefiria.engine.rules.legal_actions`); the last one starts round 1.
"""

from __future__ import annotations

from collections.abc import Sequence

from .deck import GridCard, StormCard
from .errors import ConfigError, ZefiriaError
from .grid import ISLANDS
from .rng import Rng
from .spirits import Spirit
from .state import RED_GEMS, Difficulty, GameConfig, GameState, Mode, Phase
from .storm import shuffled_grid_deck, shuffled_storm_deck

__all__ = ["ConfigError", "new_game", "validate_config", "validate_grid"]


def validate_config(config: GameConfig) -> None:
    """Raise :class:`ConfigError` (a :class:`ZefiriaError`) naming what is wrong."""
    if not isinstance(config.players, int) or not 1 <= config.players <= 4:
        raise ConfigError(f"Zefiria is played by 1 to 4 players, not {config.players!r}")
    if not isinstance(config.mode, Mode):
        raise ConfigError(f"unknown mode {config.mode!r}: expected standard or storm")
    spirits = config.spirits
    if any(not isinstance(s, Spirit) for s in spirits):
        raise ConfigError(f"not a Wind Spirit among {spirits!r}")
    dupes = sorted({s.title for s in spirits if spirits.count(s) > 1})
    if dupes:
        raise ConfigError(f"each spirit plays at most once; repeated: {', '.join(dupes)}")
    wanted = 3 if config.solo else config.players
    if len(spirits) != wanted:
        who = (
            "a solo game uses 3 spirits"
            if config.solo
            else (f"a {config.players}-player game uses {config.players} spirits")
        )
        raise ConfigError(f"{who}, got {len(spirits)}")
    if config.solo and not isinstance(config.difficulty, Difficulty):
        raise ConfigError("a solo game needs a difficulty: easy, medium or hard")
    if not config.solo and config.difficulty is not None:
        raise ConfigError("difficulty applies to solo games only")


def validate_grid(grid: Sequence[int]) -> tuple[int, ...]:
    """The grid as a tuple if it holds each island 1..25 exactly once, else a ZefiriaError."""
    values = tuple(grid)
    if len(values) != len(ISLANDS):
        raise ZefiriaError(f"a grid holds 25 island cards, got {len(values)}")
    bad = [v for v in values if not isinstance(v, int) or isinstance(v, bool) or v not in ISLANDS]
    if bad:
        raise ZefiriaError(f"island numbers run from 1 to 25; got {bad[0]!r}")
    repeated = sorted({v for v in values if values.count(v) > 1})
    if repeated:
        missing = sorted(set(ISLANDS) - set(values))
        raise ZefiriaError(
            f"each island appears once; repeated: {', '.join(map(str, repeated))}; "
            f"missing: {', '.join(map(str, missing))}"
        )
    return values


def new_game(
    config: GameConfig,
    *,
    seed: int,
    grid: Sequence[int] | None = None,
    sleeper: Spirit | None = None,
) -> GameState:
    """A new game in the SETUP phase, everything random drawn from ``seed``.

    ``grid`` (25 islands, row-major) replaces the shuffle, for a table already laid out;
    ``sleeper`` (solo only) replaces the random draw of the first round's sleeping spirit.
    The draws happen in a fixed order (grid, storm deck, grid deck, sleeper), so one seed
    always gives the same game.
    """
    validate_config(config)
    rng = Rng.seeded(seed)
    if grid is None:
        cells, rng = rng.shuffled(tuple(ISLANDS))
    else:
        cells = validate_grid(grid)
    storm_deck: tuple[StormCard, ...] = ()
    grid_deck: tuple[tuple[GridCard, int], ...] = ()
    storm = config.mode is Mode.STORM
    if storm:
        storm_deck, rng = shuffled_storm_deck(config.deck.storms, rng)
        grid_deck, rng = shuffled_grid_deck(config.deck.grids, rng)
    sleeping: Spirit | None = None
    if config.solo:
        if sleeper is None:
            pick, rng = rng.below(len(config.spirits))
            sleeping = config.spirits[pick]
        elif sleeper not in config.spirits:
            raise ConfigError(f"the sleeper must be one of the three spirits, not {sleeper.title}")
        else:
            sleeping = sleeper
    elif sleeper is not None:
        raise ConfigError("only a solo game has a sleeping spirit")
    return GameState(
        config=config,
        grid=cells,
        pawns=(None,) * len(config.spirits),
        phase=Phase.SETUP,
        active=0,
        round=0,
        purple_left=config.purple_gems,
        ap=0,
        gem_pool=RED_GEMS if storm else 0,
        gems_held=(0,) * len(config.spirits),
        sleeping=sleeping,
        storm_deck=storm_deck,
        grid_deck=grid_deck,
        rng=rng,
    )
