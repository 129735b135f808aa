"""What a Zillo action does to the pieces on the board, as the tracker asks it: the board after an
action, the fields it changes and may reach, and which actions look the same on the board.

Functions of a `ZilloState` (they read its table and its rules: `_board_after`, `landing`,
`homes`), kept apart from the rules that decide which actions are legal.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from controller.games.base import Action, Cell, Occupancy, State
from controller.games.zillo.actions import Discard, Move, NewGame, Shift
from controller.games.zillo.layout import INITIAL_LAYOUT, Layout, Placement, corner_for_anchor
from controller.games.zillo.model import Stack
from controller.games.zillo.views import _occupancy, pieces_at

if TYPE_CHECKING:
    from controller.games.zillo.state import ZilloState


def layout_after(state: ZilloState, action: Action) -> Layout:
    """The parts after a legal action, without building the next state (layout previews)."""
    if isinstance(action, NewGame):
        return INITIAL_LAYOUT
    return state._board_after(action)[0]


def occupancy_after(state: ZilloState, action: Action) -> Occupancy:
    """What will stand on the board after a legal action, without building the next state (what
    the tracker expects to see); after `new-game` it is the set-up of the next game."""
    state.check_legal(action)
    if isinstance(action, NewGame):
        return state.apply(action).occupancy()
    _, catchers, zillo, _ = state._board_after(action)
    return _occupancy(catchers, zillo)


def occupancy_changes(state: ZilloState, action: Action) -> Occupancy:
    """Found without the whole board after: a move (Z-2) changes only the fields it reaches (its
    two, and the start fields captured Catchers go home to, ZE-1), and a shift (Z-3) only its
    part's pieces, where they stand and where they are carried (parts never overlap, so nothing
    else stands there)."""
    if not isinstance(action, (Move, Shift)):
        return State.occupancy_changes(state, action)
    state.check_legal(action)
    t = state._position
    changes: Occupancy = {}
    if isinstance(action, Move):
        landing = state.landing(t.current, action.origin, action.target, action.count)
        assert not isinstance(landing, str)  # a legal move lands
        for cell in dict.fromkeys(action_reach(state, action) or ()):
            after = pieces_at(landing.catchers, landing.zillo, cell)
            if after != pieces_at(t.catchers, t.zillo, cell):
                changes[cell] = after
        return changes
    carried: Occupancy = {}
    for cell, target in _carried(state, action):
        changes[cell] = ()
        carried[target] = pieces_at(t.catchers, t.zillo, cell)
    changes.update(carried)
    return changes


def _shifted(state: ZilloState, action: Shift) -> tuple[Layout, dict[Cell, Stack], Cell]:
    """Z-3: the part moves with everything on it; pieces stay on their printed fields."""
    old, new = _placements(state, action)

    def carry(cell: Cell) -> Cell:
        printed = old.local(cell)
        return cell if printed is None else new.cell(printed)

    catchers = {carry(cell): stack for cell, stack in state._position.catchers.items()}
    return state._position.layout.moved(action.part, new), catchers, carry(state._position.zillo)


def _carried(state: ZilloState, action: Shift) -> list[tuple[Cell, Cell]]:
    """Z-3: each field with pieces on the shifted part, and the field they are carried to."""
    _, new = _placements(state, action)
    return [(cell, new.cell(printed)) for cell, printed in _pieces_on(state, action.part)]


def _pieces_on(state: ZilloState, part: int) -> tuple[tuple[Cell, Cell], ...]:
    """The fields of `part` with pieces on them, each with its printed field (kept by the state)."""
    on_parts = state._on_parts
    if on_parts is None:
        t = state._position
        fields = t.layout.fields()
        found: dict[int, list[tuple[Cell, Cell]]] = {}
        for cell in dict.fromkeys((*t.catchers, t.zillo)):
            field = fields.get(cell)
            if field is not None:
                found.setdefault(field.part, []).append((cell, field.printed))
        on_parts = state._on_parts = {number: tuple(cells) for number, cells in found.items()}
    return on_parts.get(part, ())


def _placements(state: ZilloState, action: Shift) -> tuple[Placement, Placement]:
    """Where the shifted part lies before and after (ZE-5: the turn is the card's)."""
    old = state._position.layout.placement(action.part)
    rotation = (old.rotation + action.turn) % 360
    return old, Placement(corner_for_anchor(action.anchor, rotation), rotation)


def action_effect(state: ZilloState, action: Action) -> Hashable:
    """The pieces' side of an action: which card allows a move or a shift does not show on the
    board, and every discard leaves it as it is."""
    if isinstance(action, Move):
        return ("move", action.origin, action.target, action.count)
    if isinstance(action, Shift):
        return ("shift", action.part, action.turn, action.anchor)
    if isinstance(action, Discard):
        return "discard"
    return action


def action_reach(state: ZilloState, action: Action) -> list[Cell] | None:
    """The fields a legal action may change: a move's two fields, and every start field when it
    captures (Catchers go home, ZE-1: and on); a shift's pieces where they stand and where they
    are carried. A discard changes none; a new game may change any."""
    t = state._position
    if isinstance(action, Move):
        occupant = t.catchers.get(action.target)
        if occupant is not None and (action.count is None or occupant.player != t.current):
            return [action.origin, action.target, *state.homes().values()]
        return [action.origin, action.target]
    if isinstance(action, Shift):
        return [cell for pair in _carried(state, action) for cell in pair]
    if isinstance(action, Discard):
        return []
    return None
