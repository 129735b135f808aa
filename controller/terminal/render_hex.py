"""Text drawings of a hex-board position (Fillit) for the terminal, the hex twin of render_square.py.

Rows run north to south, each shifted half a hex per step from the middle row, labelled with the row
letter of F-1 (hexes are numbered from 1 at the west end of each row). A hex shows its piece — a pawn
by its seat colour's initial in capitals, a stone by its owner's initial in small letters — and behind
it the colour its LED has: the game's marks (chips in their owner's colour, the blocked centre), or a
full LED frame when one is given. Plain text cannot show colours, so a chip is the small initial of
its colour after the piece glyph (`Rr`: Red's pawn on a red chip, `·y`: a yellow chip), and the
blocked centre is `#`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from controller.games import Cell, Game, Mark, Occupancy, Piece, State
from controller.games.hexgrid import HexGrid, ring
from controller.table.palette import RGB
from controller.terminal.cells import ansi_cell, led_background, plain_marker

ANSI_CODE = re.compile(r"\x1b\[[0-9;]*m")
EMPTY = "·"
BLOCKED = "#"


def hex_piece_glyph(pieces: tuple[Piece, ...], seats: tuple[str, ...]) -> str:
    """One or two characters for what stands on a hex: pawns in capitals, stones in small letters."""
    top = pieces[-1]
    glyph = seats[top.owner][0] if top.owner is not None and top.owner < len(seats) else top.kind[:1]
    glyph = glyph.lower() if top.kind == "stone" else glyph.upper()
    return glyph if len(pieces) == 1 else f"{glyph}{len(pieces)}"


def hex_grid_of(game: Game, state: State) -> HexGrid:
    return HexGrid(max(ring(cell) for cell in game.cells(state)))


def render_hex_board(
    game: Game,
    state: State,
    *,
    ansi: bool,
    leds: Mapping[Cell, RGB] | None = None,
    occupancy: Occupancy | None = None,
) -> str:
    """The board, north at the top, one line per row of hexes (`occupancy` overrides the pieces)."""
    grid = hex_grid_of(game, state)
    occupancy = state.occupancy() if occupancy is None else occupancy
    marks = state.marks()
    seats = state.seats
    lines = []
    for r in grid.rows():
        row = [f"{grid.row_letter(r)} ", "  " * abs(r)]
        for q in grid.row_span(r):
            cell = (q, r)
            pieces = occupancy.get(cell)
            mark = marks.get(cell)
            glyph = hex_piece_glyph(pieces, seats) if pieces else _empty_glyph(mark)
            if ansi:
                row.append(ansi_cell(glyph, led_background(mark, leds, cell)) + " ")
            else:
                marker = plain_marker(mark, leds, cell) if mark is None or mark.kind != "blocked" else " "
                row.append(f"{glyph:>2}{marker} ")
        lines.append("".join(row).rstrip())
    # Coordinates: the row letter on the left, the row's hexes on the right, in one column.
    width = max(len(ANSI_CODE.sub("", line)) for line in lines)
    for index, r in enumerate(grid.rows()):
        letter = grid.row_letter(r)
        pad = width - len(ANSI_CODE.sub("", lines[index]))
        lines[index] += " " * pad + f"   {letter}1-{letter}{len(grid.row_span(r))}"
    last = grid.row_letter(max(grid.rows()))
    lines.append(f"rows a (north) to {last}; hexes are numbered from 1 at the west end of each row")
    return "\n".join(lines)


def _empty_glyph(mark: Mark | None) -> str:
    return BLOCKED if mark is not None and mark.kind == "blocked" else EMPTY
