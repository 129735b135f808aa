"""Board geometries by name, so a board profile's field names can be read as game cells.

Profiles name their geometry ("square" with width and height, "hex" with a radius, "rail" with its
first and last dotted line); this returns the grid that parses and formats that board's notation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from controller.games.base import Cell, NotationError
from controller.games.grid import SquareGrid


class BoardGeometry(Protocol):
    def parse_cell(self, text: str) -> Cell: ...

    def format_cell(self, cell: Cell) -> str: ...

    def cells(self) -> tuple[Cell, ...]: ...


_RAIL_TEXT = re.compile(r"L(-?[0-9]+)")


@dataclass(frozen=True)
class Rail:
    """A row of positions along Zillertal's Valley, one per dotted line: `L<line>` is cell (line, 0).

    Lines outside `first .. last` still parse (the Valley may grow past the rail's ends); `cells()`
    are the ones the rail has an LED for.
    """

    first: int = 0
    last: int = 0

    def parse_cell(self, text: str) -> Cell:
        match = _RAIL_TEXT.fullmatch(text.strip())
        if match is None:
            raise NotationError(f"{text!r} is not a dotted line of the Valley (e.g. L0, L-4, L12)")
        return (int(match.group(1)), 0)

    def format_cell(self, cell: Cell) -> str:
        return f"L{cell[0]}"

    def cells(self) -> tuple[Cell, ...]:
        return tuple((line, 0) for line in range(self.first, self.last + 1))


def geometry(kind: str, size: tuple[int, ...]) -> BoardGeometry:
    if kind == "square":
        return SquareGrid(*size)
    if kind == "rail":
        return Rail(*size)
    if kind == "hex":
        from controller.games.hexgrid import HexGrid

        return HexGrid(*size)
    raise ValueError(f"unknown board geometry {kind!r} (square, hex or rail)")


def parse_fields(kind: str, size: tuple[int, ...], names: Iterable[str], source: str) -> dict[str, Cell]:
    """The cell of every field name; errors name the profile and the field."""
    grid = geometry(kind, size)
    cells: dict[str, Cell] = {}
    for name in names:
        try:
            cells[name] = grid.parse_cell(name)
        except ValueError as error:
            raise ValueError(f"{source}: field {name}: {error}") from None
    return cells
