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
CORNER_BITS = {players: tuple(BIT[CORNERS[colour]] for colour in seats) for players, seats in SEATS.items()}
"""By player count, each seat's corner as a mask of BIT."""


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
and a block's moves worked out once stay known wherever the same block stands (`LAST_WORKED_OUT`)."""


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


Way = tuple[int, int, int, Move]
"""A block's way to one end field: the end's bit, the masks of the fields passed on the two paths there
(PathTable; a path with at most one turn reaches an end straight, one path, or around a corner either
way, two: a straight end's two masks are the same), and the move, one Move object shared by every
state."""


Reach = tuple[int, tuple[Way, ...]]
"""A block's reach from a field: its region (every field it may pass or end on, as a mask of BIT) and
its ways by end field."""
_REACH: dict[tuple[int, Cell], Reach] = {}


def _way(origin: Cell, end: Cell, masks: tuple[int, ...]) -> Way:
    if not 1 <= len(masks) <= 2:
        raise ValueError(f"K-3 reaches {end} from {origin} along {len(masks)} paths; one turn at most makes 1 or 2")
    return (BIT[end], masks[0], masks[-1], Move(origin, end))


def reach_of(size: int, origin: Cell) -> Reach:
    """The region and the ways of a block of `size` on `origin`, worked out once."""
    reach = _REACH.get((size, origin))
    if reach is None:
        ways = tuple(_way(origin, end, masks) for end, masks in PATHS[size].ends(origin))
        region = 0
        for bit, first, other, _ in ways:
            region |= bit | first | other
        reach = _REACH[size, origin] = (region, ways)
    return reach


SQUARE_PIECES = {player: (Piece("square", player, SQUARE_MAGNET),) for player in range(4)}
CYLINDER_PIECES = {size: (Piece(f"cylinder{size}", None, CYLINDER_MAGNET),) for size in (1, 2, 3)}


def pieces_of(block: Block) -> tuple[Piece, ...]:
    """The sensed pieces of a block; shared tuples, so comparing positions is cheap."""
    return SQUARE_PIECES[block.player or 0] if block.is_square else CYLINDER_PIECES[block.size]


WorkedOut = tuple[Block, int, int, int, tuple[Move, ...]]
"""A block's moves as worked out on one field: (block, region, blocks in the region, what else decides
them, moves). The region is every field the block may pass or end on (`reach_of`); what else decides
them is, for a square, its own corner (the one field it may end on that nothing else may), and for a
cylinder, the cylinders in the region (squares it may capture, cylinders it may not). A plain tuple,
always unpacked by these names: one is made for most moves a playout passes (a named tuple costs a
tenth of the speed)."""
LAST_WORKED_OUT: dict[Cell, WorkedOut] = {}
"""By field, the moves last worked out there, whatever the position: K-3's moves of a block depend on
nothing but what its region holds, so a position whose region around the block holds what it held
then has the same moves. Most moves leave most regions alone, so most blocks' moves are looked up;
one entry per field keeps it bounded. Shared by every position and thread: entries are replaced
whole, never changed."""


def moves_of_block(origin: Cell, block: Block, anything: int, cylinders: int, corner: int) -> tuple[Move, ...]:
    """K-3: the moves of `block` on `origin`, with `anything` and `cylinders` the fields holding a block
    and a cylinder and `corner` the square's own corner (masks of BIT)."""
    entry = LAST_WORKED_OUT.get(origin)
    if entry is not None and entry[0] is block:
        region = entry[1]
        if anything & region == entry[2] and (corner if block.is_square else cylinders & region) == entry[3]:
            return entry[4]
    return work_out(origin, block, anything, cylinders, corner)


def work_out(origin: Cell, block: Block, anything: int, cylinders: int, corner: int) -> tuple[Move, ...]:
    """K-3: the moves of `block` on `origin` from the path tables (the end fields it may stop on that
    some path reaches over empty fields only), kept in `LAST_WORKED_OUT`."""
    region, ways = reach_of(block.size, origin)
    near = anything & region
    if block.is_square:  # never onto a block; onto a corner only when it is its own
        barred = (near | NEVER_STOP) & ~corner | near
        deciding = corner
    else:  # a cylinder captures a square, never a cylinder
        deciding = cylinders & region
        barred = deciding | NEVER_STOP
    found: list[Move] = []
    append = found.append
    for bit, first, other, move in ways:
        if not (bit & barred or (first & near and other & near)):
            append(move)
    moves = tuple(found)
    LAST_WORKED_OUT[origin] = (block, region, near, deciding, moves)
    return moves
