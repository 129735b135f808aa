"""Klotz as a game: new games, saved positions read back and checked, and the board's fields."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.games import jsonutil
from controller.games.base import Capabilities, Cell, Game, Option, State
from controller.games.klotz.model import (
    CORNERS,
    CYLINDER_SETUP,
    CYLINDERS,
    FORMAT_VERSION,
    GRID,
    INNER,
    SEATS,
    SQUARE_STEPS,
    Block,
)
from controller.games.klotz.state import KlotzState
from controller.games.seats import colour_title


class Klotz(Game):
    name = "klotz"
    title = "Klotz"
    player_counts = (2, 3, 4)
    capabilities = Capabilities(move_examples=("c7-a6",))
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
                blocks[GRID.parse_cell(text)] = CYLINDERS[size, None]
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
        winner: int | None = jsonutil.field(data, "winner", (int, type(None)))
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
