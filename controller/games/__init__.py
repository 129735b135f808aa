"""The rules engines: pure, immutable game states behind one API (see base.py).

`GAMES` maps each registered game's name to its Game; `load_game(name)` looks one up with a clear
error for an unknown name.
"""

from __future__ import annotations

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
from controller.games.fillit import Fillit
from controller.games.klotz import Klotz
from controller.games.zillertal import Zillertal
from controller.games.zillo import Zillo
from controller.games.zodiac import Zodiac

GAMES: dict[str, Game] = {game.name: game for game in (Klotz(), Fillit(), Zillo(), Zillertal(), Zodiac())}


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
