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
