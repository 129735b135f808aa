"""The table PIN drawn on the board's LEDs: four digits in the seat colours, for people who look at
the board (docs/web.md, "The PIN and the seat links"). Only someone at the table can read it, which
is what the PIN proves.

The digits are drawn in a 3x5 font on a 2x2 grid of digit places (first row: digits 1 and 2), laid
over the board's field centres, so the same drawing works on square and hexagonal boards of any size.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from controller.games import Cell
from controller.table.board import BoardMap
from controller.table.palette import OFF, PLAYER_COLOURS, RGB

# Each digit: five rows of three pixels, top row first ("#" lit).
FONT = {
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("###", "..#", "###", "#..", "###"),
    "3": ("###", "..#", ".##", "..#", "###"),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "###", "..#", "###"),
    "6": ("###", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", ".#.", ".#.", ".#."),
    "8": ("###", "#.#", "###", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "###"),
}
DIGIT_COLOURS = ("red", "yellow", "green", "blue")  # the order to read them in: the seat colours
GRID_W, GRID_H = 7, 11  # two digits of 3 with a gap of 1; two rows of 5 with a gap of 1
SHOW_MS = 20_000


def cell_centre(geometry: str, cell: Cell) -> tuple[float, float]:
    """A field's centre in field units, y growing upwards (north, as the board is drawn). Hex rows
    run from the north (r = -R) to the south, so y falls as r grows."""
    if geometry == "hex":
        q, r = cell
        return math.sqrt(3) * (q + r / 2), -1.5 * r
    return float(cell[0]), float(cell[1])


def pin_frame(board: BoardMap, pin: str) -> tuple[RGB, ...]:
    """The LED frame that shows `pin` (four digits) on the board; every other LED is off."""
    if len(pin) != 4 or not all(digit in FONT for digit in pin):
        raise ValueError("the table PIN is four digits")
    frame = [OFF] * board.profile.led_count
    centres = {cell: cell_centre(board.profile.geometry, cell) for cell in board.led_of}
    if not centres:
        return tuple(frame)
    xs = [x for x, _ in centres.values()]
    ys = [y for _, y in centres.values()]
    left, width = min(xs), (max(xs) - min(xs)) or 1.0
    bottom, height = min(ys), (max(ys) - min(ys)) or 1.0
    for cell, (x, y) in centres.items():
        column = min(GRID_W - 1, int((x - left) / width * GRID_W))
        row = min(GRID_H - 1, int((bottom + height - y) / height * GRID_H))  # row 0 at the top
        lit = _pixel(pin, column, row)
        if lit is not None:
            frame[board.led_of[cell]] = PLAYER_COLOURS[DIGIT_COLOURS[lit]]
    return tuple(frame)


def _pixel(pin: Sequence[str], column: int, row: int) -> int | None:
    """Which digit (0-3) lights the grid pixel at `column`, `row`; None for a dark pixel."""
    if column == 3 or row == 5:
        return None  # the gaps between the digits
    index = (2 if row > 5 else 0) + (1 if column > 3 else 0)
    glyph = FONT[pin[index]]
    return index if glyph[row % 6][column % 4] == "#" else None
