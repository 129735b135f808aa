"""The rules engines: pure, immutable game states behind one API (see base.py).

`GAMES` maps each registered game's name to its Game; `load_game(name)` looks one up with a clear
error for an unknown name. A game's package is imported when the game is first looked up, so a
board that plays Klotz never loads the card games (each `tafel run` starts sooner, on a Pi too).
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.games.base import (
    Action,
    Capabilities,
    Cell,
    Game,
    IllegalAction,
    Mark,
    NotationError,
    Occupancy,
    Option,
    Piece,
    State,
)
from controller.games.registry import LazyRegistry


def _klotz() -> Game:
    from controller.games.klotz import Klotz

    return Klotz()


def _fillit() -> Game:
    from controller.games.fillit import Fillit

    return Fillit()


def _zillo() -> Game:
    from controller.games.zillo import Zillo

    return Zillo()


def _zillertal() -> Game:
    from controller.games.zillertal import Zillertal

    return Zillertal()


def _zodiac() -> Game:
    from controller.games.zodiac import Zodiac

    return Zodiac()


GAMES: Mapping[str, Game] = LazyRegistry(
    {"klotz": _klotz, "fillit": _fillit, "zillo": _zillo, "zillertal": _zillertal, "zodiac": _zodiac}
)


def load_game(name: str) -> Game:
    """The registered game called `name` (case-insensitive)."""
    try:
        return GAMES[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise ValueError(f"unknown game {name!r} (known games: {known})") from None


__all__ = [
    "GAMES",
    "Action",
    "Capabilities",
    "Cell",
    "Game",
    "IllegalAction",
    "Mark",
    "NotationError",
    "Occupancy",
    "Option",
    "Piece",
    "State",
    "load_game",
]
