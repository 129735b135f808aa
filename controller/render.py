"""Text drawings of a position for the terminal: ANSI colours on a tty, plain text elsewhere.

A field shows its piece (squares by their colour's initial, other pieces by a short glyph) and,
behind it, the colour its LED has: the game's marks, or a full LED frame when one is given.
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.games import Cell, Game, Mark, Piece, State
from controller.games.grid import SquareGrid
from controller.palette import RGB, mark_colour

RESET = "\x1b[0m"


def piece_glyph(pieces: tuple[Piece, ...], seats: tuple[str, ...] | None) -> str:
    """One or two characters for what stands on a field."""
    top = pieces[-1]
    if top.kind.startswith("cylinder"):
        return top.kind.removeprefix("cylinder") or "o"
    glyph = seats[top.owner][0].upper() if top.owner is not None and seats is not None else top.kind[:1].upper()
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
) -> str:
    """The board, north at the top, with column letters and row numbers."""
    grid = grid_of(game, state)
    occupancy = state.occupancy()
    marks = state.marks()
    seats = getattr(state, "seats", None)
    lines = []
    for y in reversed(range(grid.height)):
        row = [f"{y + 1:>3} "]
        for x in range(grid.width):
            cell = (x, y)
            pieces = occupancy.get(cell)
            glyph = piece_glyph(pieces, seats) if pieces else "·"
            mark = marks.get(cell)
            if ansi:
                row.append(_ansi_cell(glyph, _background(mark, leds, cell)))
            else:
                row.append(f"{glyph:>2}{_mark_letter(mark)}")
        lines.append("".join(row))
    lines.append("    " + "".join(f"{chr(ord('a') + x):>2} " for x in range(grid.width)))
    return "\n".join(lines)


def _mark_letter(mark: Mark | None) -> str:
    return mark.colour[0] if mark is not None else " "


def _background(mark: Mark | None, leds: Mapping[Cell, RGB] | None, cell: Cell) -> RGB | None:
    if leds is not None:
        colour = leds.get(cell)
        return colour if colour and colour != (0, 0, 0) else None
    return mark_colour(mark.colour) if mark is not None else None


def _ansi_cell(glyph: str, background: RGB | None) -> str:
    text = f"{glyph:>2} "
    if background is None:
        return text
    r, g, b = _visible(background)
    return f"\x1b[48;2;{r};{g};{b}m\x1b[1;97m{text}{RESET}"


def _visible(colour: RGB) -> RGB:
    # Dimmed LED colours are nearly black on a screen: stretch them so the hue can be seen.
    peak = max(colour) or 1
    factor = min(1.0, 200 / peak) if peak > 200 else 200 / peak
    return tuple(min(255, round(c * factor)) for c in colour)  # type: ignore[return-value]
