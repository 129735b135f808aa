"""Klotz (Schmidt & Frey, 1986): race your square block into your corner while blocking the others.

The rules, and the rulings K-1 to K-6 and KE-1, KE-2 with their reasons: docs/games/klotz.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.games import jsonutil
from controller.games.base import (
    Action,
    Cell,
    Game,
    IllegalAction,
    Mark,
    NotationError,
    Occupancy,
    Option,
    Piece,
    State,
)
from controller.games.grid import Path, PathTable, SquareGrid, bent_paths, destinations
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
COLOUR_OF_CORNER = {cell: colour for colour, cell in CORNERS.items()}
COLOUR_OF_INNER = {cell: colour for colour, cell in INNER.items()}

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

_MOVE_TEXT = re.compile(r"([a-z][0-9]+)-([a-z][0-9]+)")


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


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """Move the block on `origin` to `target` (K-3: the path does not matter)."""

    origin: Cell
    target: Cell


@dataclass(frozen=True, slots=True)
class Pass:
    """K-5: the only action of a player who has no legal move."""


PASS = Pass()

Way = tuple[int, tuple[int, ...], Move]
"""A block's way to one end field: the end's bit, the masks of the fields passed on each path there
(PathTable), and the move, one Move object shared by every state."""
_WAYS: dict[tuple[int, Cell], tuple[Way, ...]] = {}


KnownMoves = tuple["Block", tuple[int, int], tuple[Move, ...]]
"""A block's moves as one position worked them out: the block, the blocks and cylinders in its
region then (masks of BIT), and its moves."""
_REGIONS: dict[tuple[int, Cell], int] = {}


def region_of(size: int, origin: Cell) -> int:
    """Every field a block of `size` on `origin` may pass or end on, as a mask of BIT."""
    region = _REGIONS.get((size, origin))
    if region is None:
        region = 0
        for bit, masks_passed, _ in ways_of(size, origin):
            region |= bit
            for mask in masks_passed:
                region |= mask
        _REGIONS[size, origin] = region
    return region


def ways_of(size: int, origin: Cell) -> tuple[Way, ...]:
    """Every way of a block of `size` from `origin`, by end field."""
    ways = _WAYS.get((size, origin))
    if ways is None:
        ends = PATHS[size].ends(origin)
        ways = _WAYS[size, origin] = tuple((BIT[end], masks, Move(origin, end)) for end, masks in ends)
    return ways


class Klotz(Game):
    name = "klotz"
    title = "Klotz"
    player_counts = (2, 3, 4)
    options = (Option("max_plies", 600, "K-6: end the game as a draw after this many plies; None switches it off"),)

    def new_game(self, players: int | None = None, seed: int = 0, **options: Any) -> KlotzState:
        count = self.check_players(players)
        settings = self.resolve_options(options)
        max_plies = _check_max_plies(settings["max_plies"])
        seats = SEATS[count]
        blocks: dict[Cell, Block] = {}
        for player, colour in enumerate(seats):
            blocks[INNER[colour]] = Block("square", SQUARE_STEPS, player)
        for size, cells in CYLINDER_SETUP.items():
            for text in cells:
                blocks[GRID.parse_cell(text)] = Block("cylinder", size, None)
        return KlotzState(self, count, blocks, current=0, ply=0, passes=0, winner=None, max_plies=max_plies)

    def state_from_json(self, data: Mapping[str, Any]) -> KlotzState:
        data = jsonutil.check_header(data, self.name, FORMAT_VERSION)
        players = jsonutil.field(data, "players", int)
        self.check_players(players)
        blocks: dict[Cell, Block] = {}
        for index, entry in enumerate(jsonutil.field(data, "blocks", list)):
            where = f"blocks[{index}]"
            if not isinstance(entry, Mapping):
                raise ValueError(f"{where} must be an object")
            try:
                cell = GRID.parse_cell(jsonutil.field(entry, "cell", str))
                block = Block(
                    jsonutil.field(entry, "kind", str),
                    jsonutil.field(entry, "size", int),
                    jsonutil.field(entry, "player", (int, type(None))),
                )
            except ValueError as error:
                raise ValueError(f"{where}: {error}") from None
            _check_block(block, players, where)
            if cell in blocks:
                raise ValueError(f"{where}: two blocks on {GRID.format_cell(cell)}")
            blocks[cell] = block
        current = jsonutil.field(data, "current_player", int)
        if not 0 <= current < players:
            raise ValueError(f"current_player {current} is not a seat of a {players}-player game")
        winner = jsonutil.field(data, "winner", (int, type(None)))
        if winner is not None and not 0 <= winner < players:
            raise ValueError(f"winner {winner} is not a seat of a {players}-player game")
        ply = jsonutil.field(data, "ply", int)
        if ply < 0:
            raise ValueError(f"ply must not be negative, not {ply}")
        passes = jsonutil.field(data, "passes", int)
        if not 0 <= passes <= players:
            raise ValueError(f"passes must be 0..{players} (passes in a row), not {passes}")
        _check_position(blocks, SEATS[players], winner)
        return KlotzState(
            self,
            players,
            blocks,
            current=current,
            ply=ply,
            passes=passes,
            winner=winner,
            max_plies=_check_max_plies(jsonutil.field(data, "max_plies", (int, type(None)))),
        )

    def cells(self, state: State) -> tuple[Cell, ...]:
        return GRID.cells()

    def format_cell(self, cell: Cell) -> str:
        return GRID.format_cell(cell)

    def parse_cell(self, text: str) -> Cell:
        return GRID.parse_cell(text)


def _check_max_plies(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"max_plies must be a positive whole number or None, not {value!r}")
    return value


def _check_block(block: Block, players: int, where: str) -> None:
    if block.kind == "square":
        if block.size != SQUARE_STEPS or block.player is None or not 0 <= block.player < players:
            raise ValueError(f"{where}: a square has size 4 and belongs to a seat 0..{players - 1}")
    elif block.kind == "cylinder":
        if block.size not in (1, 2, 3):
            raise ValueError(f"{where}: a cylinder has size 1, 2 or 3, not {block.size}")
        if block.player is not None and not 0 <= block.player < players:
            raise ValueError(f"{where}: tile owner {block.player} is not a seat")
    else:
        raise ValueError(f"{where}: unknown block kind {block.kind!r} (square or cylinder)")


_SQUARE_PIECES = {player: (Piece("square", player, SQUARE_MAGNET),) for player in range(4)}
_CYLINDER_PIECES = {size: (Piece(f"cylinder{size}", None, CYLINDER_MAGNET),) for size in (1, 2, 3)}


def _pieces_of(block: Block) -> tuple[Piece, ...]:
    """The sensed pieces of a block; shared tuples, so comparing positions is cheap."""
    return _SQUARE_PIECES[block.player or 0] if block.is_square else _CYLINDER_PIECES[block.size]


def _check_position(blocks: Mapping[Cell, Block], seats: tuple[str, ...], winner: int | None) -> None:
    """Reject saved positions that no game can reach and that `apply` would mishandle."""
    for seat, colour in enumerate(seats):
        name = colour_title(colour)
        squares = [cell for cell, b in blocks.items() if b.is_square and b.player == seat]
        if len(squares) != 1:
            raise ValueError(f"blocks: {name} (seat {seat}) must have exactly one square, not {len(squares)}")
        tiles = sorted(cell for cell, b in blocks.items() if not b.is_square and b.player == seat)
        if len(tiles) > 1:
            # K-4: each player has one tile, so it sits on at most one cylinder.
            fields = ", ".join(GRID.format_cell(cell) for cell in tiles)
            raise ValueError(f"blocks: {name}'s one tile cannot be on several cylinders ({fields})")
        if seat == winner and squares[0] != CORNERS[colour]:
            corner = GRID.format_cell(CORNERS[colour])
            raise ValueError(f"winner: {name} won, so their square must stand on {corner}")
    seat_of = {colour: seat for seat, colour in enumerate(seats)}
    for colour, cell in INNER.items():
        block = blocks.get(cell)
        if block is not None and not (block.is_square and block.player == seat_of.get(colour)):
            # K-3: nothing stops on an inner field; only a square still at its start field stands there.
            field, owner = GRID.format_cell(cell), colour_title(colour)
            raise ValueError(f"blocks: {field} is an inner field; only {owner}'s square may stand there")
    for colour, cell in CORNERS.items():
        block = blocks.get(cell)
        if block is not None and not (block.is_square and block.player == seat_of.get(colour) == winner):
            # K-3: a corner is entered only by its own square, and that move wins at once.
            field, owner = GRID.format_cell(cell), colour_title(colour)
            raise ValueError(f"blocks: {field} is a corner; only {owner}'s winning square may stand there")


class KlotzState(State):
    __slots__ = (
        "_blocks",
        "_current",
        "_game",
        "_inherited",
        "_known_moves",
        "_legal",
        "_max_plies",
        "_occupancy",
        "_occupied",
        "_passes",
        "_players",
        "_ply",
        "_winner",
    )

    def __init__(
        self,
        game: Klotz,
        players: int,
        blocks: dict[Cell, Block],
        *,
        current: int,
        ply: int,
        passes: int,
        winner: int | None,
        max_plies: int | None,
        occupied: tuple[int, int] | None = None,
        inherited: dict[Cell, KnownMoves] | None = None,
    ) -> None:
        self._game = game
        self._players = players
        self._blocks = blocks  # never mutated after construction
        self._current = current
        self._ply = ply
        self._passes = passes
        self._winner = winner
        self._max_plies = max_plies
        self._legal: tuple[Action, ...] | None = None
        self._occupancy: Occupancy | None = None
        # The fields holding a block, and those holding a cylinder, as masks of BIT (None: not yet).
        self._occupied = occupied
        # Each block's moves as worked out here, and as the position before worked them out.
        self._known_moves: dict[Cell, KnownMoves] | None = None
        self._inherited = inherited

    def forget_derived(self) -> None:
        self._legal = self._known_moves = self._inherited = None

    # --- description -------------------------------------------------------------------------
    @property
    def game(self) -> Klotz:
        return self._game

    @property
    def players(self) -> int:
        return self._players

    @property
    def current_player(self) -> int:
        return self._current

    @property
    def ply(self) -> int:
        return self._ply

    @property
    def seats(self) -> tuple[str, ...]:
        """The colour of each seat, in turn order."""
        return SEATS[self._players]

    @property
    def blocks(self) -> Mapping[Cell, Block]:
        return dict(self._blocks)

    @property
    def winner(self) -> int | None:
        return self._winner

    def block_at(self, cell: Cell) -> Block | None:
        return self._blocks.get(cell)

    def corner_of(self, player: int) -> Cell:
        return CORNERS[self.seats[player]]

    def home_of(self, player: int) -> Cell:
        return INNER[self.seats[player]]

    def is_draw(self) -> bool:
        if self._winner is not None:
            return False
        if self._passes >= self._players:  # K-5: every player passed in a row
            return True
        return self._max_plies is not None and self._ply >= self._max_plies  # K-6

    def is_terminal(self) -> bool:
        return self._winner is not None or self.is_draw()

    def returns(self) -> tuple[float, ...]:
        if self._winner is not None:
            return tuple(1.0 if p == self._winner else 0.0 for p in range(self._players))
        if self.is_draw():
            return (0.5,) * self._players
        return (0.0,) * self._players

    # --- movement ----------------------------------------------------------------------------
    def _can_pass(self, cell: Cell) -> bool:
        # K-3: only empty fields can be passed; corners never; empty inner fields may be crossed.
        return GRID.contains(cell) and cell not in self._blocks and cell not in CORNER_CELLS

    def block_paths(self, origin: Cell) -> Iterator[Path]:
        """Every legal path of the block on `origin`, whoever may move it."""
        block = self._blocks[origin]
        if block.is_square:
            own_corner = self.corner_of(block.player or 0)

            def can_stop(cell: Cell) -> bool:
                # K-3: a square stops on an empty field, never an inner field, and on a corner only
                # when it is its own (the winning move). Squares cannot capture (rule text).
                if cell == own_corner:
                    return cell not in self._blocks
                return self._can_pass(cell) and cell not in INNER_CELLS

        else:

            def can_stop(cell: Cell) -> bool:
                # Rule text: a cylinder ending on a square captures it. K-3: never on inner fields
                # (so a square at home cannot be captured) nor on corners.
                if not GRID.contains(cell) or cell in CORNER_CELLS or cell in INNER_CELLS:
                    return False
                other = self._blocks.get(cell)
                return other is None or other.is_square

        return bent_paths(origin, block.size, self._can_pass, can_stop)

    def block_moves(self, origin: Cell) -> list[Move]:
        """K-3: the moves of the block on `origin` to every field it may end on, by target (the path
        tables' answer to `block_destinations`, without walking the paths)."""
        return list(self._moves_from(origin, self._blocks[origin], self._masks()))

    def _masks(self) -> tuple[int, int]:
        """The fields holding a block, and those holding a cylinder, as masks of BIT."""
        masks = self._occupied
        if masks is None:
            blocks = self._blocks
            anything = sum(BIT[cell] for cell in blocks)
            masks = self._occupied = (anything, sum(BIT[cell] for cell, block in blocks.items() if not block.is_square))
        return masks

    def _moves_from(self, origin: Cell, block: Block, masks: tuple[int, int]) -> tuple[Move, ...]:
        """K-3: the moves of `block` on `origin`. They depend only on the fields its paths pass and
        end on (its region): a block whose region holds the same blocks as in the position before
        keeps the moves worked out there (a move changes two or three fields of the board)."""
        known = self._known_moves
        if known is None:
            known = self._known_moves = {}
        entry = known.get(origin)
        if entry is not None and entry[0] is block:
            return entry[2]
        region = region_of(block.size, origin)
        near = (masks[0] & region, masks[1] & region)
        inherited = self._inherited
        entry = inherited.get(origin) if inherited is not None else None
        if entry is not None and entry[0] is block and entry[1] == near:
            moves = entry[2]
        else:
            found: list[Move] = []
            self._add_moves(origin, block, masks, found)
            moves = tuple(found)
        known[origin] = (block, near, moves)
        return moves

    def _add_moves(self, origin: Cell, block: Block, masks: tuple[int, int], moves: list[Move]) -> None:
        anything, cylinders = masks
        if block.is_square:  # never onto a block; onto a corner only when it is its own
            barred = (anything | NEVER_STOP) & ~BIT[self.corner_of(block.player or 0)] | anything
        else:  # a cylinder captures a square, never a cylinder
            barred = cylinders | NEVER_STOP
        append = moves.append
        for bit, masks_passed, move in ways_of(block.size, origin):
            if bit & barred:
                continue
            for mask in masks_passed:
                if not mask & anything:
                    append(move)
                    break

    def block_destinations(self, origin: Cell) -> dict[Cell, Path]:
        """K-3: distinct end fields of the block on `origin` (several paths to one field are one move)."""
        return destinations(self.block_paths(origin))

    def may_move(self, player: int, block: Block) -> bool:
        """Rule text and K-4: your own square, a free cylinder, or a cylinder carrying your tile."""
        if block.is_square:
            return block.player == player
        return block.player is None or block.player == player

    def moves_of(self, player: int) -> tuple[Move, ...]:
        """Every move `player` could make if it were their turn (used for threats and hints)."""
        moves: list[Move] = []
        blocks, masks = self._blocks, self._masks()
        for origin in sorted(blocks):
            block = blocks[origin]
            if self.may_move(player, block):
                moves.extend(self._moves_from(origin, block, masks))
        return tuple(moves)

    def legal_actions(self) -> tuple[Action, ...]:
        legal = self._legal  # read once: another thread may make the state forget it (forget_derived)
        if legal is None:
            legal = self._legal = () if self.is_terminal() else self.moves_of(self._current) or (PASS,)
        return legal

    def apply(self, action: Action) -> KlotzState:
        if not self._is_legal(action):
            raise IllegalAction(self._why_illegal(action))
        following = (self._current + 1) % self._players
        if isinstance(action, Pass):
            return self._successor(self._blocks, following, passes=self._passes + 1, winner=None, masks=self._occupied)
        assert isinstance(action, Move)
        player = self._current
        blocks = dict(self._blocks)
        block = blocks.pop(action.origin)
        anything, cylinders = self._masks()
        origin_bit, target_bit = BIT[action.origin], BIT[action.target]
        anything = anything & ~origin_bit | target_bit
        if not block.is_square:
            cylinders = cylinders & ~origin_bit | target_bit
        if not block.is_square and block.player is None:
            # K-4: the mover's tile leaves the cylinder it was on and goes onto this one.
            for cell, other in blocks.items():
                if not other.is_square and other.player == player:
                    blocks[cell] = Block("cylinder", other.size, None)
                    break
            block = Block("cylinder", block.size, player)
        victim = blocks.get(action.target)
        if victim is not None:
            # Rule text: the captured square goes back to its start field in the middle.
            home = self.home_of(victim.player or 0)
            blocks[home] = victim
            anything |= BIT[home]
        blocks[action.target] = block
        won = block.is_square and action.target == self.corner_of(player)
        return self._successor(blocks, following, passes=0, winner=player if won else None, masks=(anything, cylinders))

    def _is_legal(self, action: Action) -> bool:
        if isinstance(action, Move):
            block = self._blocks.get(action.origin)
            return (
                block is not None
                and not self.is_terminal()
                and self.may_move(self._current, block)
                and action in self.block_moves(action.origin)
            )
        return action == PASS and self.legal_actions() == (PASS,)

    def action_reach(self, action: Action) -> tuple[Cell, ...]:
        """The block's two fields, and the home a captured square goes back to (K-4's tile changes
        hands unseen: a cylinder reads the same whoever's tile it carries)."""
        if not isinstance(action, Move):
            return ()
        victim = self._blocks.get(action.target)
        if victim is None:
            return (action.origin, action.target)
        return (action.origin, action.target, self.home_of(victim.player or 0))

    def _successor(
        self,
        blocks: dict[Cell, Block],
        current: int,
        *,
        passes: int,
        winner: int | None,
        masks: tuple[int, int] | None,
    ) -> KlotzState:
        return KlotzState(
            self._game,
            self._players,
            blocks,
            current=current,
            ply=self._ply + 1,
            passes=passes,
            winner=winner,
            max_plies=self._max_plies,
            occupied=masks,
            inherited=self._known_moves,
        )

    def _why_illegal(self, action: Action) -> str:
        if self.is_terminal():
            return "the game is over"
        if isinstance(action, Pass):
            return "you may only pass when you have no legal move (K-5)"
        if not isinstance(action, Move):
            return f"{action!r} is not a Klotz move"
        if not (GRID.contains(action.origin) and GRID.contains(action.target)):
            return "both fields must be on the 14x14 board"
        origin, target = GRID.format_cell(action.origin), GRID.format_cell(action.target)
        block = self._blocks.get(action.origin)
        if block is None:
            return f"there is no block on {origin}"
        mover = colour_title(self.seats[self._current])
        if block.is_square and block.player != self._current:
            return f"{mover} may only move their own square; the square on {origin} is not theirs"
        if not block.is_square and block.player not in (None, self._current):
            owner = colour_title(self.seats[block.player])
            return f"the {block.size}-block on {origin} carries {owner}'s tile; only {owner} may move it"
        what = block.describe(self.seats)
        if action.target in CORNER_CELLS:
            if block.is_square and action.target == self.corner_of(self._current):
                return f"{what} cannot reach its corner {target} in exactly 4 steps along free fields"
            return f"{target} is a corner field: no block may enter it except its own square (K-3)"
        if action.target in INNER_CELLS:
            return f"{target} is an inner field: nothing may stop there (K-3)"
        other = self._blocks.get(action.target)
        if other is not None:
            if block.is_square:
                return f"{target} is occupied; squares cannot capture"
            if not other.is_square:
                return f"{target} holds a cylinder; cylinders cannot be captured"
        return (
            f"{what} on {origin} cannot reach {target}: it moves exactly {block.size} field(s) "
            "orthogonally, with at most one 90-degree turn, over empty fields only"
        )

    # --- notation ----------------------------------------------------------------------------
    def action_to_str(self, action: Action) -> str:
        if isinstance(action, Pass):
            return "pass"
        if isinstance(action, Move):
            return f"{GRID.format_cell(action.origin)}-{GRID.format_cell(action.target)}"
        raise NotationError(f"{action!r} is not a Klotz action")

    def parse_action(self, text: str) -> Action:
        text = text.strip()
        if text == "pass":
            return PASS
        match = _MOVE_TEXT.fullmatch(text)
        if match is None:
            raise NotationError(f"{text!r} is not a Klotz move (write from-to, e.g. g12-g9, or pass)")
        return Move(GRID.parse_cell(match.group(1)), GRID.parse_cell(match.group(2)))

    # --- views -------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            **jsonutil.header(self._game.name, FORMAT_VERSION),
            "players": self._players,
            "current_player": self._current,
            "ply": self._ply,
            "passes": self._passes,
            "winner": self._winner,
            "max_plies": self._max_plies,
            "blocks": [
                {"cell": GRID.format_cell(cell), "kind": b.kind, "size": b.size, "player": b.player}
                for cell, b in sorted(self._blocks.items())
            ],
        }

    def observation(self, player: int) -> dict[str, Any]:
        # Klotz has no hidden information: every player sees the whole position.
        data = self.to_json()
        data.update(
            player=player,
            colours=list(self.seats),
            terminal=self.is_terminal(),
            returns=list(self.returns()),
        )
        return data

    def occupancy(self) -> Occupancy:
        if self._occupancy is None:
            self._occupancy = {cell: _pieces_of(block) for cell, block in self._blocks.items()}
        return dict(self._occupancy)

    def marks(self) -> dict[Cell, Mark]:
        seat_of = {colour: seat for seat, colour in enumerate(self.seats)}
        marks: dict[Cell, Mark] = {}
        for colour, cell in CORNERS.items():
            marks[cell] = Mark("corner", colour, seat_of.get(colour))
        for colour, cell in INNER.items():
            marks[cell] = Mark("inner", colour, seat_of.get(colour))
        for cell, block in self._blocks.items():
            if not block.is_square and block.player is not None:
                # K-4: tiles are invisible to sensors; the LED shows the owner's colour instead.
                marks[cell] = Mark("tile", self.seats[block.player], block.player)
        return marks

    def __repr__(self) -> str:
        return f"<KlotzState ply={self._ply} to_move={self.seats[self._current]}>"
