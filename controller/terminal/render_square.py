"""Text drawings of a square-board position (Klotz, Zillo) for the terminal.

A field shows its piece (squares by their colour's initial, other pieces by a short glyph) and,
behind it, the colour its LED has: the game's marks, or a full LED frame when one is given.
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.games import Cell, Game, Occupancy, Piece, State
from controller.games.grid import SquareGrid
from controller.table.palette import RGB
from controller.terminal.cells import ansi_cell, led_background, plain_marker


def piece_glyph(pieces: tuple[Piece, ...], seats: tuple[str, ...]) -> str:
    """One or two characters for what stands on a field."""
    top = pieces[-1]
    if top.kind.startswith("cylinder"):
        return top.kind.removeprefix("cylinder") or "o"
    glyph = seats[top.owner][0].upper() if top.owner is not None and top.owner < len(seats) else top.kind[:1].upper()
    return glyph if len(pieces) == 1 else f"{glyph}{len(pieces)}"


def grid_of(game: Game, state: State) -> SquareGrid:
    cells = game.cells(state)
    return SquareGrid(max(x for x, _ in cells) + 1, max(y for _, y in cells) + 1)


def render_square_board(
    game: Game,
    state: State,
    *,
    ansi: bool,
    leds: Mapping[Cell, RGB] | None = None,
    occupancy: Occupancy | None = None,
) -> str:
    """The board, north at the top, with column letters and row numbers.

    `occupancy` overrides the state's pieces (to draw what physically stands on a board).
    """
    grid = grid_of(game, state)
    occupancy = state.occupancy() if occupancy is None else occupancy
    marks = state.marks()
    seats = state.seats
    lines = []
    for y in reversed(range(grid.height)):
        row = [f"{y + 1:>3} "]
        for x in range(grid.width):
            cell = (x, y)
            pieces = occupancy.get(cell)
            glyph = piece_glyph(pieces, seats) if pieces else "·"
            mark = marks.get(cell)
            if ansi:
                row.append(ansi_cell(glyph, led_background(mark, leds, cell)))
            else:
                row.append(f"{glyph:>2}{plain_marker(mark, leds, cell)}")
        lines.append("".join(row))
    lines.append("    " + "".join(f"{chr(ord('a') + x):>2} " for x in range(grid.width)))
    return "\n".join(lines)
