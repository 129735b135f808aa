"""Text drawings of a position for the terminal: ANSI colours on a tty, plain text elsewhere.

`render_board` picks the drawing for the game's board: square (render_square) or hex (render_hex).
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.games import Cell, Game, Occupancy, State
from controller.table.palette import RGB
from controller.terminal.cells import HINT_SYMBOLS, LEGEND, ansi_block
from controller.terminal.render_hex import render_hex_board
from controller.terminal.render_square import render_square_board

__all__ = ["HINT_SYMBOLS", "LEGEND", "ansi_block", "render_board"]


def render_board(
    game: Game, state: State, *, ansi: bool, leds: Mapping[Cell, RGB] | None = None, occupancy: Occupancy | None = None
) -> str:
    """The board drawing for any game: square boards here, hex boards in render_hex."""
    if game.capabilities.geometry == "hex":
        return render_hex_board(game, state, ansi=ansi, leds=leds, occupancy=occupancy)
    return render_square_board(game, state, ansi=ansi, leds=leds, occupancy=occupancy)
