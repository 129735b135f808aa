"""Klotz's pieces and board: seats, corners and inner fields, the cylinder set-up, blocks and moves,
and K-3's path tables, worked out once."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from controller.games.base import Cell, NotationError, Piece
from controller.games.grid import PathTable, SquareGrid
from controller.games.seats import colour_title

GRID = SquareGrid(14, 14)
SQUARE_STEPS = 4
FORMAT_VERSION = 1

# K-1: seat colours per player count, in turn order.
SEATS: dict[int, tuple[str, ...]] = {
    2: ("red", "yellow"),
    3: ("red", "blue", "yellow"),
    4: ("red", "blue", "yellow", "green"),
}
# K-1: corner fields and inner (start) fields by colour.
CORNERS: dict[str, Cell] = {"red": (0, 13), "blue": (13, 13), "yellow": (13, 0), "green": (0, 0)}
INNER: dict[str, Cell] = {"red": (6, 7), "blue": (7, 7), "yellow": (7, 6), "green": (6, 6)}
CORNER_CELLS = frozenset(CORNERS.values())
INNER_CELLS = frozenset(INNER.values())

# K-2: the cylinder set-up, by size.
CYLINDER_SETUP: dict[int, tuple[str, ...]] = {
    1: ("f6", "g6", "h6", "i6", "f7", "i7", "f8", "i8", "f9", "g9", "h9", "i9"),
    2: ("d4", "k4", "d11", "k11"),
    3: ("g3", "h3", "c7", "c8", "l7", "l8", "g12", "h12"),
}

SQUARE_MAGNET = -1  # squares face the sensor with the other pole, so a signed sensor tells them apart
CYLINDER_MAGNET = 1

# K-3's geometry, worked out once: every path of each block size (1..3, squares 4) from every field,
# by end field, never over a corner.
PATHS = {size: PathTable(GRID, size, CORNER_CELLS) for size in (1, 2, 3, SQUARE_STEPS)}
BIT = PATHS[1].bit
NEVER_STOP = PATHS[1].mask(CORNER_CELLS | INNER_CELLS)  # K-3 (but a square may stop on its own corner)


@dataclass(frozen=True, slots=True)
class Block:
    """A block on the board. `player` is the owner of a square, or whose tile sits on a cylinder."""

    kind: str  # "square" or "cylinder"
    size: int  # fields it must move: 1..3 for cylinders, 4 for squares
    player: int | None
    is_square: bool = field(init=False, repr=False, compare=False)  # asked for at every move generated

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_square", self.kind == "square")

    def describe(self, seats: tuple[str, ...]) -> str:
        if self.is_square:
            return f"{colour_title(seats[self.player or 0])}'s square"
        return f"the {self.size}-block"


CYLINDERS = {(size, player): Block("cylinder", size, player) for size in (1, 2, 3) for player in (None, 0, 1, 2, 3)}
"""One block value per cylinder size and tile, shared by every position: a move makes no new block,
and a block's moves worked out once stay known wherever the same block stands (KnownMoves)."""


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """Move the block on `origin` to `target` (K-3: the path does not matter). Prints and parses its
    notation, `g12-g9`."""

    origin: Cell
    target: Cell

    def __str__(self) -> str:
        return f"{GRID.format_cell(self.origin)}-{GRID.format_cell(self.target)}"

    @classmethod
    def parse(cls, text: str) -> Move:
        """A move from its notation; NotationError for text that is not one (legality aside)."""
        match = _MOVE_TEXT.fullmatch(text.strip())
        if match is None:
            raise NotationError(f"{text!r} is not a Klotz move (write from-to, e.g. g12-g9, or pass)")
        return cls(GRID.parse_cell(match.group(1)), GRID.parse_cell(match.group(2)))


@dataclass(frozen=True, slots=True)
class Pass:
    """K-5: the only action of a player who has no legal move; written `pass`."""

    def __str__(self) -> str:
        return "pass"


PASS = Pass()
_MOVE_TEXT = re.compile(r"([a-z][0-9]+)-([a-z][0-9]+)")


def parse_action(text: str) -> Move | Pass:
    """A Klotz action from its notation (`g12-g9` or `pass`)."""
    return PASS if text.strip() == "pass" else Move.parse(text)


Way = tuple[int, tuple[int, ...], Move]
"""A block's way to one end field: the end's bit, the masks of the fields passed on each path there
(PathTable), and the move, one Move object shared by every state."""
_WAYS: dict[tuple[int, Cell], tuple[Way, ...]] = {}


KnownMoves = tuple[Block, int, tuple[Move, ...]]
"""A block's moves as one position worked them out: (block, region, moves), its region the fields it
may pass or end on (`reach_of`), whose blocks alone decide the moves. A plain tuple, always unpacked by
these names: it is made for every block of every position a playout passes (a named tuple costs a
tenth of the speed)."""
Reach = tuple[int, tuple[Way, ...]]
"""A block's reach from a field: its region (every field it may pass or end on, as a mask of BIT) and
its ways by end field."""
_REACH: dict[tuple[int, Cell], Reach] = {}


def reach_of(size: int, origin: Cell) -> Reach:
    """The region and the ways of a block of `size` on `origin`, worked out once."""
    reach = _REACH.get((size, origin))
    if reach is None:
        ends = PATHS[size].ends(origin)
        ways = tuple((BIT[end], masks, Move(origin, end)) for end, masks in ends)
        region = 0
        for bit, masks_passed, _ in ways:
            region |= bit
            for mask in masks_passed:
                region |= mask
        reach = _REACH[size, origin] = (region, ways)
    return reach


SQUARE_PIECES = {player: (Piece("square", player, SQUARE_MAGNET),) for player in range(4)}
CYLINDER_PIECES = {size: (Piece(f"cylinder{size}", None, CYLINDER_MAGNET),) for size in (1, 2, 3)}


def pieces_of(block: Block) -> tuple[Piece, ...]:
    """The sensed pieces of a block; shared tuples, so comparing positions is cheap."""
    return SQUARE_PIECES[block.player or 0] if block.is_square else CYLINDER_PIECES[block.size]
