"""Square-grid geometry shared by the square-board games (Klotz, Zillo).

Cells are `(x, y)`: x is the column from the west, y the row from the south; notation is chess-like
(`a1` is `(0, 0)`). Directions are board-fixed compass directions, N being +y.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from controller.games.base import Cell, NotationError

Direction = tuple[int, int]

NORTH: Direction = (0, 1)
EAST: Direction = (1, 0)
SOUTH: Direction = (0, -1)
WEST: Direction = (-1, 0)
ORTHOGONAL: tuple[Direction, ...] = (NORTH, EAST, SOUTH, WEST)
DIRECTION_NAMES: dict[str, Direction] = {"N": NORTH, "E": EAST, "S": SOUTH, "W": WEST}
NAME_OF_DIRECTION: dict[Direction, str] = {d: name for name, d in DIRECTION_NAMES.items()}

_CELL_TEXT = re.compile(r"([a-z])([1-9][0-9]?)")


def step(cell: Cell, direction: Direction, count: int = 1) -> Cell:
    return (cell[0] + direction[0] * count, cell[1] + direction[1] * count)


def perpendicular(direction: Direction) -> tuple[Direction, Direction]:
    """The two directions at right angles: turning right (clockwise) first, then left."""
    dx, dy = direction
    return ((dy, -dx), (-dy, dx))


def turn_right(direction: Direction) -> Direction:
    return perpendicular(direction)[0]


def turn_left(direction: Direction) -> Direction:
    return perpendicular(direction)[1]


def manhattan(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


@dataclass(frozen=True, slots=True)
class SquareGrid:
    """A `width` x `height` board with chess-like notation (columns a.., rows 1..)."""

    width: int
    height: int

    def __post_init__(self) -> None:
        if not (1 <= self.width <= 26 and 1 <= self.height <= 99):
            raise ValueError(f"a square grid is 1..26 columns by 1..99 rows, not {self.width}x{self.height}")

    def contains(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    def cells(self) -> tuple[Cell, ...]:
        """Every cell, row by row from the south-west corner."""
        return tuple((x, y) for y in range(self.height) for x in range(self.width))

    def format_cell(self, cell: Cell) -> str:
        if not self.contains(cell):
            raise ValueError(f"{cell} is not on a {self.width}x{self.height} board")
        return f"{chr(ord('a') + cell[0])}{cell[1] + 1}"

    def parse_cell(self, text: str) -> Cell:
        match = _CELL_TEXT.fullmatch(text)
        if match is None:
            raise NotationError(f"{text!r} is not a field (expected a letter and a row number, e.g. a1)")
        cell = (ord(match.group(1)) - ord("a"), int(match.group(2)) - 1)
        if not self.contains(cell) or match.group(2).startswith("0"):
            last = self.format_cell((self.width - 1, self.height - 1))
            raise NotationError(f"{text!r} is not on this board (a1 to {last})")
        return cell


Path = tuple[Cell, ...]
"""The cells a piece enters, in order, without its start cell; the last one is where it stops."""


def bent_paths(
    start: Cell,
    length: int,
    can_pass: Callable[[Cell], bool],
    can_stop: Callable[[Cell], bool],
    first: Iterable[Direction] = ORTHOGONAL,
    second: Callable[[Direction], Iterable[Direction]] = perpendicular,
    max_turns: int = 1,
) -> Iterator[Path]:
    """Every path of exactly `length` orthogonal steps with at most one 90-degree turn.

    `can_pass(cell)` says whether a piece may move over a field it does not stop on (the turn field
    included); `can_stop(cell)` whether it may end there. `first` limits the starting directions and
    `second(d1)` the directions after the turn (both perpendicular by default, so the path never
    reverses). With `max_turns=0` only straight paths are produced. Straight paths come first for each
    starting direction, then the turns from the earliest turn field on.
    """
    if length < 1:
        raise ValueError(f"a path has at least one step, not {length}")
    if max_turns not in (0, 1):
        raise ValueError(f"bent_paths makes straight paths (max_turns=0) or one turn (1), not {max_turns}")
    for d1 in first:
        leg: list[Cell] = []
        cell = start
        for k in range(1, length + 1):
            cell = step(cell, d1)
            leg.append(cell)
            if k == length:
                if can_stop(cell):
                    yield tuple(leg)
                break
            if not can_pass(cell):
                break
        if max_turns < 1:
            continue
        # Turns: after k steps in d1 (k < length), the rest in d2. `leg` holds the passable prefix.
        for k in range(1, min(len(leg), length - 1) + 1):
            corner = leg[k - 1]
            if not can_pass(corner):
                break
            for d2 in second(d1):
                tail = _straight(corner, d2, length - k, can_pass, can_stop)
                if tail is not None:
                    yield (*leg[:k], *tail)


def _straight(
    start: Cell,
    direction: Direction,
    length: int,
    can_pass: Callable[[Cell], bool],
    can_stop: Callable[[Cell], bool],
) -> Path | None:
    cells = []
    cell = start
    for k in range(1, length + 1):
        cell = step(cell, direction)
        if k < length and not can_pass(cell):
            return None
        cells.append(cell)
    return tuple(cells) if can_stop(cell) else None


def destinations(paths: Iterable[Path]) -> dict[Cell, Path]:
    """The distinct end fields of `paths`, each with the first path that reaches it."""
    ends: dict[Cell, Path] = {}
    for path in paths:
        ends.setdefault(path[-1], path)
    return ends


class PathTable:
    """Every path `bent_paths` makes of one length from any cell of a grid, kept by end field with the
    fields it passes over as a bit mask: whether a piece reaches an end is then a test or two of those
    masks against the occupied fields, instead of a walk along its paths.

    `never_pass` are fields no piece may pass over whatever stands there (Klotz's corners). Paths are
    worked out per start cell the first time it is asked for; the ends come sorted."""

    def __init__(self, grid: SquareGrid, length: int, never_pass: Iterable[Cell] = ()) -> None:
        self.grid = grid
        self.length = length
        self._never = frozenset(never_pass)
        self.bit: dict[Cell, int] = {cell: 1 << index for index, cell in enumerate(grid.cells())}
        self._ends: dict[Cell, tuple[tuple[Cell, tuple[int, ...]], ...]] = {}

    def mask(self, cells: Iterable[Cell]) -> int:
        """The bit mask of `cells` (those on the grid)."""
        bit = self.bit
        return sum(bit[cell] for cell in set(cells) if cell in bit)

    def ends(self, start: Cell) -> tuple[tuple[Cell, tuple[int, ...]], ...]:
        """(end field, the masks of the fields passed on each way there), by end field. A piece on
        `start` reaches an end when one of its masks shares no bit with the occupied fields."""
        known = self._ends.get(start)
        if known is None:
            known = self._ends[start] = self._work_out(start)
        return known

    def _work_out(self, start: Cell) -> tuple[tuple[Cell, tuple[int, ...]], ...]:
        grid, never = self.grid, self._never
        ways: dict[Cell, set[int]] = {}
        for path in bent_paths(
            start, self.length, lambda cell: grid.contains(cell) and cell not in never, grid.contains
        ):
            ways.setdefault(path[-1], set()).add(self.mask(path[:-1]))
        table = []
        for end in sorted(ways):
            masks = sorted(ways[end], key=lambda mask: (mask.bit_count(), mask))
            # A way that passes over every field another passes over (and more) is never needed.
            kept = [mask for mask in masks if not any(other != mask and other & mask == other for other in masks)]
            table.append((end, tuple(kept)))
        return tuple(table)
