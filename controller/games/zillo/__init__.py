"""Zillo: the engine (state.py), board parts (layout.py), cards (deck.py), actions and notation
(actions.py) and saved states (serial.py)."""

from controller.games.zillo.actions import NEW_GAME, Discard, Move, NewGame, Shift
from controller.games.zillo.game import Zillo
from controller.games.zillo.layout import INITIAL_LAYOUT, Field, Layout, Placement
from controller.games.zillo.model import Catch, Played, Stack
from controller.games.zillo.reach import Landing
from controller.games.zillo.state import ZilloState

__all__ = [
    "INITIAL_LAYOUT",
    "NEW_GAME",
    "Catch",
    "Discard",
    "Field",
    "Landing",
    "Layout",
    "Move",
    "NewGame",
    "Placement",
    "Played",
    "Shift",
    "Stack",
    "Zillo",
    "ZilloState",
]
