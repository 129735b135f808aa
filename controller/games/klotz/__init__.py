"""Klotz (Schmidt & Frey, 1986): race your square block into your corner while blocking the others.

The rules, and the rulings K-1 to K-6 and KE-1, KE-2 with their reasons: docs/games/klotz.md.
The package: model.py (board, blocks, moves, K-3's path tables), game.py (new games, saved
positions) and state.py (positions, legal moves, notation, views).
"""

from controller.games.klotz.game import Klotz
from controller.games.klotz.model import (
    CORNERS,
    CYLINDER_SETUP,
    FORMAT_VERSION,
    GRID,
    INNER,
    PASS,
    SEATS,
    SQUARE_STEPS,
    Block,
    Move,
    Pass,
)
from controller.games.klotz.state import KlotzState

__all__ = [
    "CORNERS",
    "CYLINDER_SETUP",
    "FORMAT_VERSION",
    "GRID",
    "INNER",
    "PASS",
    "SEATS",
    "SQUARE_STEPS",
    "Block",
    "Klotz",
    "KlotzState",
    "Move",
    "Pass",
]
