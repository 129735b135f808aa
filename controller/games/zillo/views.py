"""Views of a Zillo position: notation, its saved form, one seat's observation and the board's marks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from controller.games.base import (
    Action,
    Cell,
    Mark,
    Occupancy,
    Piece,
)
from controller.games.zillo import actions as notation
from controller.games.zillo import serial
from controller.games.zillo.model import (
    CATCHER_MAGNET,
    HANDS,
    ZILLO_MAGNET,
    Stack,
)

if TYPE_CHECKING:
    from controller.games.zillo.state import ZilloState

ZILLO = Piece("zillo", None, ZILLO_MAGNET)
_CATCHERS = tuple(Piece("catcher", seat, CATCHER_MAGNET) for seat in range(4))


def catcher_piece(player: int) -> Piece:
    """One Catcher of `player` (seats 0..3), as the sensors see it."""
    return _CATCHERS[player]


def pieces_at(catchers: Mapping[Cell, Stack], zillo_cell: Cell, cell: Cell) -> tuple[Piece, ...]:
    """What stands on one field: a stack's Catchers, bottom to top, and the Zillo, which shares a
    field only when it has just been caught (it lies under the Catchers that caught it; ZE-2: never
    before)."""
    stack = catchers.get(cell)
    pieces = (_CATCHERS[stack.player],) * stack.count if stack is not None else ()
    return (ZILLO, *pieces) if cell == zillo_cell else pieces


def _occupancy(catchers: Mapping[Cell, Stack], zillo_cell: Cell) -> Occupancy:
    """One Piece per Catcher (a stack is several), bottom to top, and the Zillo."""
    return {cell: pieces_at(catchers, zillo_cell, cell) for cell in (*catchers, zillo_cell)}


def laid_face_down(action: Action, phase: str) -> bool:
    """ZE-8: a card discarded from the hand goes face down; every other card played is shown."""
    return isinstance(action, notation.Discard) and phase == HANDS


def action_to_str(state: ZilloState, action: Action) -> str:
    return notation.action_to_str(action)


def parse_action(state: ZilloState, text: str) -> Action:
    return notation.parse_action(text)


def public_action_to_str(state: ZilloState, action: Action) -> str:
    """ZE-8: a card discarded from the hand goes face down; the others see that a card went."""
    if laid_face_down(action, state._position.phase):
        return "discard (face down)"
    return notation.action_to_str(action)


# --- views -------------------------------------------------------------------------------
def to_json(state: ZilloState) -> dict[str, Any]:
    return serial.table_to_json(state._position, state._game.name)


def observation(state: ZilloState, player: int) -> dict[str, Any]:
    """What `player` may see: the board, the scores, how many cards everyone holds, their own
    hand, the cards shown since the last shuffle, and (in top-card play) the card just turned up.
    Other hands, face-down discards of others and the pile order stay hidden (Z-6)."""
    t = state._position
    if not 0 <= player < t.players:
        raise ValueError(f"player {player} is not a seat of a {t.players}-player game")
    data = serial.public_json(t, state._game.name)
    data["played"] = [{"player": e.player, "card": e.card if e.shown or e.player == player else None} for e in t.played]
    own = state.hand(player)
    data.update(
        player=player,
        colours=list(state.seats),
        hand=None if own is None else list(own),
        face_up=state.face_up(),
        unseen=list(state.unseen_by(player)),
        terminal=state.is_terminal(),
        returns=list(state.returns()),
    )
    return data


def occupancy(state: ZilloState) -> Occupancy:
    return _occupancy(state._position.catchers, state._position.zillo)


def marks(state: ZilloState) -> dict[Cell, Mark]:
    """Every field of the parts as they lie now: plain fields dim white (ZE-11), the big start
    fields and small Zillo fields in their part's colour (seat None for a colour nobody plays)."""
    seat_of = {colour: seat for seat, colour in enumerate(state.seats)}
    marks: dict[Cell, Mark] = {}
    for cell, field in state._position.layout.fields().items():
        if field.kind == "plain":
            marks[cell] = Mark("part", "white")
        else:
            marks[cell] = Mark(field.kind, field.colour, seat_of.get(field.colour))
    return marks
