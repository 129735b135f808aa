"""Fillit's boards, seats, teams, chips and stones, the starting set-ups and the checks of the game's options."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from controller.games import jsonutil
from controller.games.base import (
    Cell,
)
from controller.games.hexgrid import (
    HexGrid,
    negate,
    rotate120,
)

FORMAT_VERSION = 1


# F-1: the two sides of the board.
GRIDS: dict[str, HexGrid] = {"large": HexGrid(4), "mini": HexGrid(3)}


PLAYER_COUNTS: dict[str, tuple[int, ...]] = {"large": (2, 3, 4), "mini": (2, 3)}


# Seat colours in turn order (rules README: a subset of Red, Blue, Yellow, Green). Two players take
# the opposite seats Red and Yellow; four players are two teams, Red+Yellow and Blue+Green.
SEATS: dict[int, tuple[str, ...]] = {
    2: ("red", "yellow"),
    3: ("red", "blue", "yellow"),
    4: ("red", "blue", "yellow", "green"),
}


TEAM_COLOURS: tuple[str, ...] = ("red", "blue")  # rule text: red chips for red/yellow, blue for blue/green


# F-2: chips per player (per team with four players), the chip under each pawn included.
CHIPS: dict[tuple[str, int], int] = {
    ("large", 2): 25,
    ("large", 3): 18,
    ("large", 4): 25,
    ("mini", 2): 14,
    ("mini", 3): 11,
}


# F-3: stones per player (per team with four players).
STONES: dict[tuple[str, int], int] = {
    ("large", 2): 4,
    ("large", 3): 2,
    ("large", 4): 4,
    ("mini", 2): 4,
    ("mini", 3): 1,
}


PAWN_MAGNET = 1


STONE_MAGNET = -1  # the other pole faces the sensor, so a signed sensor sees a stone-pawn swap


PHASE_START = "start"  # nothing moved yet this turn


PHASE_STONE_MOVED = "stone-moved"  # F-5: the stone stepped first; the pawn must slide now


PHASE_PAWN_MOVED = "pawn-moved"  # F-5: the pawn slid first; a stone must step now


PHASES = (PHASE_START, PHASE_STONE_MOVED, PHASE_PAWN_MOVED)


BLOCKED_COLOUR = "white"  # F-1: the centre is shown as a dim white field that nothing enters


@dataclass(frozen=True, slots=True)
class SetUp:
    """F-4: where the pieces start. `pawns` per seat, `stones` per side (player or team)."""

    pawns: tuple[Cell, ...]
    stones: tuple[tuple[Cell, ...], ...]


def _opposed(pawn: Cell, stones: tuple[Cell, ...]) -> SetUp:
    """F-4: two players; player 2's pieces are player 1's negated."""
    return SetUp((pawn, negate(pawn)), (stones, tuple(negate(c) for c in stones)))


def _rotated(pawn: Cell, stones: tuple[Cell, ...]) -> SetUp:
    """F-4: three players; each next player's pieces are the previous player's turned by 120 degrees."""
    pawns = [pawn]
    sides = [stones]
    for _ in range(2):
        pawns.append(rotate120(pawns[-1]))
        sides.append(tuple(rotate120(c) for c in sides[-1]))
    return SetUp(tuple(pawns), tuple(sides))


# F-4: set-ups A and B by (board, players, letter); every one passes the checks F-4 states.
SETUPS: dict[tuple[str, int, str], SetUp] = {
    ("large", 2, "A"): _opposed((0, -4), ((-3, -1), (-1, -2), (1, -3), (3, -4))),
    ("large", 2, "B"): _opposed((-2, -2), ((-4, 1), (-3, -1), (1, -4), (2, -3))),
    ("large", 3, "A"): _rotated((0, -4), ((-2, -1), (2, -3))),
    ("large", 3, "B"): _rotated((-2, -2), ((0, -2), (-3, 1))),
    ("large", 4, "A"): SetUp(
        ((0, -4), (4, -4), (0, 4), (-4, 4)),
        (((-2, -1), (2, 1), (-1, 3), (1, -3)), ((3, -1), (-3, 1), (-2, 3), (2, -3))),
    ),
    ("large", 4, "B"): SetUp(
        ((-2, -2), (4, -2), (2, 2), (-4, 2)),
        (((0, -2), (0, 2), (-1, -1), (1, 1)), ((2, -2), (-2, 2), (2, -1), (-2, 1))),
    ),
    ("mini", 2, "A"): _opposed((0, -3), ((-2, -1), (-1, -1), (1, -2), (2, -3))),
    ("mini", 2, "B"): _opposed((-3, 0), ((-3, 2), (-1, -1), (0, -2), (-2, 3))),
    ("mini", 3, "A"): _rotated((0, -3), ((-1, -1),)),
    ("mini", 3, "B"): _rotated((-1, -2), ((1, -2),)),
}


board_order: Callable[[Cell], tuple[int, int]] = itemgetter(1, 0)
"""Sort key: row by row from the north, west to east (the order of the notation). A C-level key:
sorting runs in every position of a playout."""


def _check_board(value: Any) -> str:
    board = value.strip().lower() if isinstance(value, str) else value
    if board not in GRIDS:
        raise ValueError(f'board must be "large" or "mini", not {value!r}')
    return board


def _check_setup(value: Any) -> str:
    letter = value.strip().upper() if isinstance(value, str) else value
    if letter not in ("A", "B"):
        raise ValueError(f'setup must be "A" or "B", not {value!r}')
    return letter


def _check_max_turns(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"max_turns must be a positive whole number or None, not {value!r}")
    return value


def _owned_cells(
    data: Mapping[str, Any], name: str, cell_of: Callable[[Any, str], Cell], sides: int
) -> dict[Cell, int]:
    cells: dict[Cell, int] = {}
    for index, entry in enumerate(jsonutil.field(data, name, list)):
        where = f"{name}[{index}]"
        if not isinstance(entry, Mapping):
            raise ValueError(f"{where} must be an object with cell and owner")
        try:
            text = jsonutil.field(entry, "cell", str)
            owner = jsonutil.field(entry, "owner", int)
        except ValueError as error:
            raise ValueError(f"{where}: {error}") from None
        cell = cell_of(text, where)
        if not 0 <= owner < sides:
            raise ValueError(f"{where}: owner {owner} is not a side 0..{sides - 1}")
        if cell in cells:
            raise ValueError(f"{where}: two {name} on {text}")
        cells[cell] = owner
    return cells


def _side_count(players: int) -> int:
    """Players play for themselves, except four players, who play as two teams."""
    return 2 if players == 4 else players


def _side_of(players: int, seat: int) -> int:
    """The side a seat plays for: itself, or with four players its team (Red+Yellow 0, Blue+Green 1)."""
    return seat % 2 if players == 4 else seat
