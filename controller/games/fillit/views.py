"""Views of a Fillit position: its saved form, one seat's observation and the board's marks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from controller.games.fillit.state import FillitState

# Shared pieces, one per seat or side (a position's occupancy is compared often; its tuples are too).
_PAWNS = tuple((Piece("pawn", seat, PAWN_MAGNET),) for seat in range(4))
_STONES = tuple((Piece("stone", side, STONE_MAGNET),) for side in range(4))


def to_json(state: FillitState) -> dict[str, Any]:
    fmt = state.grid.format_cell
    return {
        **jsonutil.header(state._game.name, FORMAT_VERSION),
        "board": state.board,
        "setup": state._setup,
        "players": state._players,
        "current_player": state._current,
        "phase": state._phase,
        "turn": state._turn,
        "ply": state._ply,
        "max_turns": state._max_turns,
        "pawns": [fmt(cell) for cell in state._pawns],
        "stones": [
            {"cell": fmt(cell), "owner": owner}
            for cell, owner in sorted(state._stones.items(), key=lambda item: board_order(item[0]))
        ],
        "chips": [
            {"cell": fmt(cell), "owner": owner}
            for cell, owner in sorted(state._chips.items(), key=lambda item: board_order(item[0]))
        ],
        "supply": list(state._supply),
    }


def observation(state: FillitState, player: int) -> dict[str, Any]:
    # Fillit has no hidden information: every player sees the whole position.
    data = to_json(state)
    data.update(
        player=player,
        colours=list(state.seats),
        side=state.side_of(player),
        side_colours=list(state.side_colours),
        terminal=state.is_terminal(),
        returns=list(state.returns()),
    )
    return data


def occupancy(state: FillitState) -> Occupancy:
    # Chips carry no magnet; pawns and stones face the sensor with opposite poles. A stone's
    # owner is its side: the seat whose colour it has (with four players the team colour's seat).
    occupancy: Occupancy = {}
    for seat, cell in enumerate(state._pawns):
        occupancy[cell] = _PAWNS[seat]
    for cell, side in state._stones.items():
        occupancy[cell] = _STONES[side]
    return occupancy


def occupancy_changes(state: FillitState, action: Action) -> Occupancy:
    """F-7: a stone step swaps what stands on its two hexes; F-6: a slide moves the pawn onto a
    hex without pieces (chips are light only). Found without building the next position."""
    state.check_legal(action)
    assert isinstance(action, StoneStep | Slide)
    moving = _pieces_on(state, action.origin)
    staying = _pieces_on(state, action.target) if isinstance(action, StoneStep) else ()
    return {action.origin: staying, action.target: moving}


def _pieces_on(state: FillitState, cell: Cell) -> tuple[Piece, ...]:
    side = state._stones.get(cell)
    if side is not None:
        return _STONES[side]
    return _PAWNS[state._pawns.index(cell)] if cell in state._pawns else ()


def marks(state: FillitState) -> dict[Cell, Mark]:
    # F-2: chips are virtual; the LED under a hex shows the colour of the chip on it.
    marks = {cell: Mark("chip", state.side_colours[side], side) for cell, side in state._chips.items()}
    marks[CENTRE] = Mark("blocked", BLOCKED_COLOUR)
    return marks
