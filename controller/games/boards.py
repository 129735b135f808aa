"""Board geometries by name, so a board profile's field names can be read as game cells.

Profiles name their geometry ("square" with width and height, "hex" with a radius); this returns the
grid that parses and formats that board's notation.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from controller.games.base import Cell
from controller.games.grid import SquareGrid


class BoardGeometry(Protocol):
    def parse_cell(self, text: str) -> Cell: ...

    def format_cell(self, cell: Cell) -> str: ...

    def cells(self) -> tuple[Cell, ...]: ...


def geometry(kind: str, size: tuple[int, ...]) -> BoardGeometry:
    if kind == "square":
        return SquareGrid(*size)
    if kind == "hex":
        from controller.games.hexgrid import HexGrid

        return HexGrid(*size)
    raise ValueError(f"unknown board geometry {kind!r} (square or hex)")


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
