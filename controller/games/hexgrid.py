"""Hex-grid geometry shared by the hex-board game (Fillit), its board profile and the renderers.

Cells are axial `(q, r)` with the third cube coordinate `s = -q - r` (F-1). A board of radius `R` is
every hex with `max(|q|, |r|, |s|) <= R`: 61 hexes for R = 4, 37 for R = 3. Rows run from `r = -R`
(north) to `r = +R` (south); a row is drawn shifted half a hex east per step south, so the six
neighbours of a hex are E, NE, NW, W, SW and SE.

Notation (F-1): rows are letters from the north (`a` is r = -R), hexes are numbered from 1 at the
west end of each row. The centre is `e5` on the 61-hex board and `d4` on the 37-hex board.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from controller.games.base import Cell, NotationError

Direction = tuple[int, int]

EAST: Direction = (1, 0)
NORTH_EAST: Direction = (1, -1)
NORTH_WEST: Direction = (0, -1)
WEST: Direction = (-1, 0)
SOUTH_WEST: Direction = (-1, 1)
SOUTH_EAST: Direction = (0, 1)
DIRECTIONS: tuple[Direction, ...] = (EAST, NORTH_EAST, NORTH_WEST, WEST, SOUTH_WEST, SOUTH_EAST)
"""The six directions counter-clockwise from east (the order of F-1)."""
DIRECTION_NAMES: dict[str, Direction] = {
    "E": EAST,
    "NE": NORTH_EAST,
    "NW": NORTH_WEST,
    "W": WEST,
    "SW": SOUTH_WEST,
    "SE": SOUTH_EAST,
}
NAME_OF_DIRECTION: dict[Direction, str] = {d: name for name, d in DIRECTION_NAMES.items()}

CENTRE: Cell = (0, 0)

_CELL_TEXT = re.compile(r"([a-z])([1-9][0-9]?)")


def step(cell: Cell, direction: Direction, count: int = 1) -> Cell:
    return (cell[0] + direction[0] * count, cell[1] + direction[1] * count)


def ring(cell: Cell) -> int:
    """Distance from the centre: the R of the smallest board that contains `cell`."""
    q, r = cell
    return max(abs(q), abs(r), abs(q + r))


def distance(a: Cell, b: Cell) -> int:
    """Number of single steps from `a` to `b`."""
    return ring((a[0] - b[0], a[1] - b[1]))


def rotate60(cell: Cell) -> Cell:
    """Turn a cell (or direction) 60 degrees counter-clockwise about the centre: E becomes NE."""
    q, r = cell
    return (q + r, -q)


def rotate(cell: Cell, sixths: int) -> Cell:
    """Turn by `sixths` x 60 degrees, counter-clockwise for positive `sixths`."""
    for _ in range(sixths % 6):
        cell = rotate60(cell)
    return cell


def rotate120(cell: Cell) -> Cell:
    """F-4's 120-degree turn `(q, r) -> (r, -q - r)` (counter-clockwise: E becomes NW)."""
    q, r = cell
    return (r, -q - r)


def negate(cell: Cell) -> Cell:
    """F-4's point reflection through the centre (a 180-degree turn)."""
    return (-cell[0], -cell[1])


def direction_between(origin: Cell, target: Cell) -> Direction | None:
    """The direction in which `target` lies on a straight line from `origin`, or None."""
    dq, dr = target[0] - origin[0], target[1] - origin[1]
    length = ring((dq, dr))
    if length == 0:
        return None
    direction = (dq // length, dr // length) if dq % length == 0 and dr % length == 0 else None
    return direction if direction in NAME_OF_DIRECTION else None


@cache
def _hexes(radius: int) -> frozenset[Cell]:
    """Every hex of the board of `radius` (kept per radius: 1..12)."""
    span = range(-radius, radius + 1)
    return frozenset((q, r) for q in span for r in span if ring((q, r)) <= radius)


@cache
def _neighbours(radius: int) -> dict[Cell, tuple[Cell, ...]]:
    """Each hex's neighbours on the board of `radius`, in the order of DIRECTIONS."""
    hexes = _hexes(radius)
    return {cell: tuple(n for n in (step(cell, d) for d in DIRECTIONS) if n in hexes) for cell in hexes}


@cache
def _lines(radius: int) -> dict[tuple[Cell, Direction], tuple[Cell, ...]]:
    """From each hex in each direction, the hexes up to the board's edge (kept per radius)."""
    hexes = _hexes(radius)
    lines: dict[tuple[Cell, Direction], tuple[Cell, ...]] = {}
    for start in hexes:
        for dq, dr in DIRECTIONS:
            cells = []
            cell = (start[0] + dq, start[1] + dr)
            while cell in hexes:
                cells.append(cell)
                cell = (cell[0] + dq, cell[1] + dr)
            lines[start, (dq, dr)] = tuple(cells)
    return lines


@dataclass(frozen=True, slots=True)
class HexGrid:
    """A hex-hex board of `radius` R: 3R(R+1)+1 hexes with the notation of F-1."""

    radius: int

    def __post_init__(self) -> None:
        if not 1 <= self.radius <= 12:
            raise ValueError(f"a hex board has a radius of 1..12, not {self.radius}")

    @property
    def size(self) -> int:
        return 3 * self.radius * (self.radius + 1) + 1

    def contains(self, cell: Cell) -> bool:
        return ring(cell) <= self.radius

    def row_span(self, r: int) -> range:
        """The q values of row `r`, west to east."""
        return range(max(-self.radius, -self.radius - r), min(self.radius, self.radius - r) + 1)

    def rows(self) -> range:
        """The r values, north to south."""
        return range(-self.radius, self.radius + 1)

    def cells(self) -> tuple[Cell, ...]:
        """Every hex, row by row from the north, west to east within a row."""
        return tuple((q, r) for r in self.rows() for q in self.row_span(r))

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The adjacent hexes on the board, in the order of DIRECTIONS (a table: games ask often)."""
        found = _neighbours(self.radius).get(cell)
        if found is None:  # off the board
            return tuple(n for n in (step(cell, d) for d in DIRECTIONS) if self.contains(n))
        return found

    def ray(self, start: Cell, direction: Direction, blocked: Callable[[Cell], bool]) -> tuple[Cell, ...]:
        """The hexes a piece sliding from `start` enters before the edge or a `blocked` hex stops it.

        The start hex is not included; the last hex is where the piece stops. Empty if it cannot move.
        """
        line = _lines(self.radius).get((start, direction))
        if line is None:  # from off the board, or not one of DIRECTIONS: nowhere to go
            return ()
        for index, cell in enumerate(line):
            if blocked(cell):
                return line[:index]
        return line

    def row_letter(self, r: int) -> str:
        return chr(ord("a") + r + self.radius)

    def format_cell(self, cell: Cell) -> str:
        if not self.contains(cell):
            raise ValueError(f"{cell} is not on a hex board of radius {self.radius}")
        q, r = cell
        return f"{self.row_letter(r)}{q - self.row_span(r).start + 1}"

    def parse_cell(self, text: str) -> Cell:
        match = _CELL_TEXT.fullmatch(text)
        if match is None:
            raise NotationError(f"{text!r} is not a hex (expected a row letter and a number, e.g. e5)")
        r = ord(match.group(1)) - ord("a") - self.radius
        last_row = self.row_letter(self.radius)
        if not -self.radius <= r <= self.radius:
            raise NotationError(f"{text!r} is not on this board (rows a to {last_row})")
        span = self.row_span(r)
        index = int(match.group(2))
        if index > len(span):
            raise NotationError(f"{text!r} is not on this board (row {match.group(1)} has {len(span)} hexes)")
        return (span.start + index - 1, r)
