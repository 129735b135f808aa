"""Klotz positions: K-3's moves from the path tables, applying moves and passes, notation and views."""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from controller.games import jsonutil
from controller.games.base import Action, Cell, Mark, NotationError, Occupancy, State
from controller.games.grid import Path, bent_paths, destinations
from controller.games.klotz.model import (
    BIT,
    CORNER_BITS,
    CORNER_CELLS,
    CORNERS,
    CYLINDERS,
    FORMAT_VERSION,
    GRID,
    INNER,
    INNER_CELLS,
    LAST_WORKED_OUT,
    PASS,
    SEATS,
    Block,
    Move,
    Pass,
    moves_of_block,
    parse_action,
    pieces_of,
    work_out,
)
from controller.games.seats import colour_title, with_seat

if TYPE_CHECKING:
    from controller.games.klotz.game import Klotz


class KlotzState(State):
    __slots__ = (
        "_blocks",
        "_current",
        "_game",
        "_legal",
        "_max_plies",
        "_occupancy",
        "_occupied",
        "_order",
        "_passes",
        "_players",
        "_ply",
        "_tiles",
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
        order: list[Cell] | None = None,
        tiles: tuple[Cell | None, ...] | None = None,
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
        self._order = order  # the fields holding a block, sorted (None: not yet)
        self._tiles = tiles  # by seat, the field of the cylinder carrying its tile (None: not yet)

    def forget_derived(self) -> None:
        self._legal = None

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
        block = self._blocks[origin]
        anything, cylinders = self._masks()
        return list(moves_of_block(origin, block, anything, cylinders, BIT[self.corner_of(block.player or 0)]))

    def _masks(self) -> tuple[int, int]:
        """The fields holding a block, and those holding a cylinder, as masks of BIT."""
        masks = self._occupied
        if masks is None:
            blocks = self._blocks
            anything = sum(BIT[cell] for cell in blocks)
            masks = self._occupied = (anything, sum(BIT[cell] for cell, block in blocks.items() if not block.is_square))
        return masks

    def block_destinations(self, origin: Cell) -> dict[Cell, Path]:
        """K-3: distinct end fields of the block on `origin` (several paths to one field are one move)."""
        return destinations(self.block_paths(origin))

    def may_move(self, player: int, block: Block) -> bool:
        """Rule text and K-4: your own square, a free cylinder, or a cylinder carrying your tile."""
        if block.is_square:
            return block.player == player
        return block.player is None or block.player == player

    def moves_of(self, player: int) -> tuple[Move, ...]:
        """Every move `player` could make if it were their turn (used for threats and hints). The
        playouts' hot path: `may_move` and `moves_of_block`'s look-up written out for each block."""
        moves: list[Move] = []
        extend = moves.extend
        blocks = self._blocks
        anything, cylinders = self._masks()
        corner = CORNER_BITS[self._players][player]
        last = LAST_WORKED_OUT
        order = self._order
        if order is None:
            order = self._order = sorted(blocks)
        for origin in order:
            block = blocks[origin]
            owner = block.player
            square = block.is_square
            if owner != player and (owner is not None or square):
                continue
            entry = last.get(origin)
            if entry is not None and entry[0] is block:
                region = entry[1]
                if anything & region == entry[2] and (corner if square else cylinders & region) == entry[3]:
                    extend(entry[4])
                    continue
            extend(work_out(origin, block, anything, cylinders, corner))
        return tuple(moves)

    def legal_actions(self) -> tuple[Action, ...]:
        legal = self._legal  # read once: another thread may make the state forget it (forget_derived)
        if legal is None:
            legal = self._legal = () if self.is_terminal() else self.moves_of(self._current) or (PASS,)
        return legal

    def tiles(self) -> tuple[Cell | None, ...]:
        """By seat, the field of the cylinder carrying its tile (K-4), or None before its first cylinder
        move."""
        tiles = self._tiles
        if tiles is None:
            found: list[Cell | None] = [None] * self._players
            for cell, block in self._blocks.items():
                if not block.is_square and block.player is not None:
                    found[block.player] = cell
            tiles = self._tiles = tuple(found)
        return tiles

    def apply_legal(self, action: Action) -> KlotzState:
        following = (self._current + 1) % self._players
        if isinstance(action, Pass):
            return self._successor(
                self._blocks,
                following,
                passes=self._passes + 1,
                winner=None,
                masks=self._occupied,
                order=self._order,
                tiles=self._tiles,
            )
        assert isinstance(action, Move)
        player = self._current
        blocks = dict(self._blocks)
        origin, target = action.origin, action.target
        block = blocks.pop(origin)
        anything, cylinders = self._masks()
        origin_bit, target_bit = BIT[origin], BIT[target]
        anything = anything & ~origin_bit | target_bit
        tiles = self._tiles
        if not block.is_square:
            cylinders = cylinders & ~origin_bit | target_bit
            tiles = self.tiles()
            if block.player is None:
                # K-4: the mover's tile leaves the cylinder it was on and goes onto this one.
                carrying = tiles[player]
                if carrying is not None:
                    blocks[carrying] = CYLINDERS[blocks[carrying].size, None]
                block = CYLINDERS[block.size, player]
            tiles = with_seat(tiles, player, target)
        order = self._order
        if order is not None:
            order = order.copy()
            order.remove(origin)
        victim = blocks.get(target)
        if victim is not None:  # rule text: a square captured goes back to its start field
            home = self.home_of(victim.player or 0)
            blocks[home] = victim
            anything |= BIT[home]
            if order is not None:
                insort(order, home)
        elif order is not None:
            insort(order, target)
        blocks[target] = block
        won = block.is_square and target == self.corner_of(player)
        return self._successor(
            blocks,
            following,
            passes=0,
            winner=player if won else None,
            masks=(anything, cylinders),
            order=order,
            tiles=tiles,
        )

    def is_legal(self, action: Action) -> bool:
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
        captured = self._captured(action.target)
        if captured is None:
            return (action.origin, action.target)
        return (action.origin, action.target, captured[0])

    def occupancy_changes(self, action: Action) -> Occupancy:
        """A move changes its block's two fields and a captured square's home (K-4's tile changes
        hands unseen): found without building the next position."""
        self.check_legal(action)
        if not isinstance(action, Move):
            return {}
        changes = {action.origin: (), action.target: pieces_of(self._blocks[action.origin])}
        captured = self._captured(action.target)
        if captured is not None:
            home, victim = captured
            changes[home] = pieces_of(victim)
        return changes

    def _captured(self, target: Cell) -> tuple[Cell, Block] | None:
        """Rule text: a (legal) move onto a square captures it, and the square goes back to its start
        field in the middle: that field and the square, or None when the target is empty."""
        victim = self._blocks.get(target)
        return None if victim is None else (self.home_of(victim.player or 0), victim)

    def _successor(
        self,
        blocks: dict[Cell, Block],
        current: int,
        *,
        passes: int,
        winner: int | None,
        masks: tuple[int, int] | None,
        order: list[Cell] | None,
        tiles: tuple[Cell | None, ...] | None,
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
            order=order,
            tiles=tiles,
        )

    def why_illegal(self, action: Action) -> str:
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
        if isinstance(action, Move | Pass):
            return str(action)
        raise NotationError(f"{action!r} is not a Klotz action")

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

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
            self._occupancy = {cell: pieces_of(block) for cell, block in self._blocks.items()}
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
