"""Text drawings of a position for the terminal: ANSI colours on a tty, plain text elsewhere.

A field shows its piece (squares by their colour's initial, other pieces by a short glyph) and,
behind it, the colour its LED has: the game's marks, or a full LED frame when one is given.
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.games import Cell, Game, Mark, Occupancy, Piece, State
from controller.games.grid import SquareGrid
from controller.palette import HINT_COLOURS, RGB, mark_colour

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
    occupancy: Occupancy | None = None,
) -> str:
    """The board, north at the top, with column letters and row numbers.

    `occupancy` overrides the state's pieces (to draw what physically stands on a board).
    """
    grid = grid_of(game, state)
    occupancy = state.occupancy() if occupancy is None else occupancy
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
                row.append(ansi_cell(glyph, led_background(mark, leds, cell)))
            else:
                row.append(f"{glyph:>2}{plain_marker(mark, leds, cell)}")
        lines.append("".join(row))
    lines.append("    " + "".join(f"{chr(ord('a') + x):>2} " for x in range(grid.width)))
    return "\n".join(lines)


# Plain-text stand-ins for the full-brightness hint colours of the LED palette.
HINT_SYMBOLS: dict[RGB, str] = {
    HINT_COLOURS["white"]: "o",  # lifted piece's origin
    HINT_COLOURS["green"]: "+",  # legal destination
    HINT_COLOURS["red"]: "x",  # capture, or remove a piece here
    HINT_COLOURS["blue"]: "*",  # put a piece here
    HINT_COLOURS["amber"]: "?",  # please confirm
}
LEGEND = "o lifted from   + legal destination   x capture/remove here   * put a piece here   ? confirm"


def plain_marker(mark: Mark | None, leds: Mapping[Cell, RGB] | None, cell: Cell) -> str:
    """One character after the piece: a hint shown by the LED, else the mark's colour initial."""
    if leds is not None:
        symbol = HINT_SYMBOLS.get(leds.get(cell, (0, 0, 0)))
        if symbol is not None:
            return symbol
    return mark.colour[0] if mark is not None else " "


def led_background(mark: Mark | None, leds: Mapping[Cell, RGB] | None, cell: Cell) -> RGB | None:
    if leds is not None:
        colour = leds.get(cell)
        return colour if colour and colour != (0, 0, 0) else None
    return mark_colour(mark.colour) if mark is not None else None


def ansi_cell(glyph: str, background: RGB | None) -> str:
    text = f"{glyph:>2} "
    if background is None:
        return text
    r, g, b = _visible(background)
    return f"\x1b[48;2;{r};{g};{b}m\x1b[1;97m{text}{RESET}"


def ansi_block(colour: RGB, text: str = " ") -> str:
    """`text` on the LED's colour: one LED of a strip drawn in a terminal."""
    r, g, b = _visible(colour)
    return f"\x1b[48;2;{r};{g};{b}m{text}{RESET}"


def _visible(colour: RGB) -> RGB:
    # Dimmed LED colours are nearly black on a screen: stretch them so the hue can be seen.
    peak = max(colour) or 1
    factor = min(1.0, 200 / peak) if peak > 200 else 200 / peak
    return tuple(min(255, round(c * factor)) for c in colour)  # type: ignore[return-value]


def render_board(
    game: Game, state: State, *, ansi: bool, leds: Mapping[Cell, RGB] | None = None, occupancy: Occupancy | None = None
) -> str:
    """The board drawing for any game: square boards here, hex boards in render_hex."""
    if getattr(game, "geometry", "square") == "hex":
        from controller.render_hex import render_hex_board

        return render_hex_board(game, state, ansi=ansi, leds=leds, occupancy=occupancy)
    return render_square_board(game, state, ansi=ansi, leds=leds, occupancy=occupancy)
