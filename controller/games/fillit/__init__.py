"""Fillit: slide your pawn across the hex board, laying chips of your colour, and fill the board first.

The rules and rulings (F-1 ... and the engine's own decisions FE-1 ...) are in docs/games/fillit.md.
The package: model.py (boards, seats, set-ups), actions.py (actions and notation), game.py (options and
new games), state.py (positions and legal actions) with turns.py (applying actions, reasons) and
views.py (saved form, observations, marks).
"""

from controller.games.fillit.actions import Slide, StoneStep
from controller.games.fillit.game import FILLIT_GAMES, Fillit
from controller.games.fillit.model import (
    BLOCKED_COLOUR,
    CHIPS,
    FORMAT_VERSION,
    GRIDS,
    PAWN_MAGNET,
    PHASE_PAWN_MOVED,
    PHASE_START,
    PHASE_STONE_MOVED,
    PHASES,
    PLAYER_COUNTS,
    SEATS,
    SETUPS,
    STONE_MAGNET,
    STONES,
    TEAM_COLOURS,
    SetUp,
    board_order,
)
from controller.games.fillit.state import FillitState

__all__ = [
    "BLOCKED_COLOUR",
    "CHIPS",
    "FILLIT_GAMES",
    "FORMAT_VERSION",
    "GRIDS",
    "PAWN_MAGNET",
    "PHASES",
    "PHASE_PAWN_MOVED",
    "PHASE_START",
    "PHASE_STONE_MOVED",
    "PLAYER_COUNTS",
    "SEATS",
    "SETUPS",
    "STONES",
    "STONE_MAGNET",
    "TEAM_COLOURS",
    "Fillit",
    "FillitState",
    "SetUp",
    "Slide",
    "StoneStep",
    "board_order",
]
