"""Views of a Fillit position: its saved form, one seat's observation and the board's marks."""

from __future__ import annotations

from typing import Any

from controller.games import jsonutil
from controller.games.base import (
    Action,
    Cell,
    Mark,
    Occupancy,
    Piece,
)
from controller.games.fillit.actions import Slide, StoneStep
from controller.games.fillit.model import BLOCKED_COLOUR, FORMAT_VERSION, PAWN_MAGNET, STONE_MAGNET, board_order
from controller.games.hexgrid import (
    CENTRE,
)

# Shared pieces, one per seat or side (a position's occupancy is compared often; its tuples are too).
_PAWNS = tuple((Piece("pawn", seat, PAWN_MAGNET),) for seat in range(4))
_STONES = tuple((Piece("stone", side, STONE_MAGNET),) for side in range(4))


class FillitViews:
    """What others may see of a state: the saved form, a seat's observation, the board's marks."""

    # --- views -------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        fmt = self.grid.format_cell
        return {
            **jsonutil.header(self._game.name, FORMAT_VERSION),
            "board": self.board,
            "setup": self._setup,
            "players": self._players,
            "current_player": self._current,
            "phase": self._phase,
            "turn": self._turn,
            "ply": self._ply,
            "max_turns": self._max_turns,
            "pawns": [fmt(cell) for cell in self._pawns],
            "stones": [
                {"cell": fmt(cell), "owner": owner}
                for cell, owner in sorted(self._stones.items(), key=lambda item: board_order(item[0]))
            ],
            "chips": [
                {"cell": fmt(cell), "owner": owner}
                for cell, owner in sorted(self._chips.items(), key=lambda item: board_order(item[0]))
            ],
            "supply": list(self._supply),
        }

    def observation(self, player: int) -> dict[str, Any]:
        # Fillit has no hidden information: every player sees the whole position.
        data = self.to_json()
        data.update(
            player=player,
            colours=list(self.seats),
            side=self.side_of(player),
            side_colours=list(self.side_colours),
            terminal=self.is_terminal(),
            returns=list(self.returns()),
        )
        return data

    def occupancy(self) -> Occupancy:
        # Chips carry no magnet; pawns and stones face the sensor with opposite poles. A stone's
        # owner is its side: the seat whose colour it has (with four players the team colour's seat).
        occupancy: Occupancy = {}
        for seat, cell in enumerate(self._pawns):
            occupancy[cell] = _PAWNS[seat]
        for cell, side in self._stones.items():
            occupancy[cell] = _STONES[side]
        return occupancy

    def occupancy_changes(self, action: Action) -> Occupancy:
        """F-7: a stone step swaps what stands on its two hexes; F-6: a slide moves the pawn onto a
        hex without pieces (chips are light only). Found without building the next position."""
        self.check_legal(action)
        assert isinstance(action, StoneStep | Slide)
        moving = self._pieces_on(action.origin)
        staying = self._pieces_on(action.target) if isinstance(action, StoneStep) else ()
        return {action.origin: staying, action.target: moving}

    def _pieces_on(self, cell: Cell) -> tuple[Piece, ...]:
        side = self._stones.get(cell)
        if side is not None:
            return _STONES[side]
        return _PAWNS[self._pawns.index(cell)] if cell in self._pawns else ()

    def marks(self) -> dict[Cell, Mark]:
        # F-2: chips are virtual; the LED under a hex shows the colour of the chip on it.
        marks = {cell: Mark("chip", self.side_colours[side], side) for cell, side in self._chips.items()}
        marks[CENTRE] = Mark("blocked", BLOCKED_COLOUR)
        return marks
