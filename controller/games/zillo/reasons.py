"""Why a Zillo action is illegal, in words a player understands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.games.base import (
    Action,
)
from controller.games.cards import Card
from controller.games.zillo import actions as notation
from controller.games.zillo import movegen
from controller.games.zillo.actions import Discard, Move, NewGame, Shift, card_of
from controller.games.zillo.deck import (
    CARD_INDEX,
    RELATIVE_PATHS,
    describe,
    kind,
    moves_zillo,
)
from controller.games.zillo.layout import (
    AREA,
    PARTS,
    ROTATIONS,
    Placement,
    corner_for_anchor,
)
from controller.games.zillo.model import (
    PHYSICAL,
    TOP,
)

if TYPE_CHECKING:
    from controller.games.zillo.state import ZilloState


def why_illegal(state: ZilloState, action: Action) -> str:
    t = state._position
    if state.is_terminal():
        return "the game is over"
    if t.caught is not None:
        catcher = state.colour(t.caught.player)
        return f"{catcher} caught the Zillo: deal the next game ({notation.NEW_GAME_TEXT})"
    if isinstance(action, NewGame):
        return "a new game is dealt only after a catch in a match"
    card = card_of(action)
    if card is None:
        return f"{action!r} is not a Zillo action"
    if card not in CARD_INDEX:
        return f"{card!r} is not a Zillo card"
    who = state.colour(t.current)
    reason = _why_card_unavailable(state, card, who)
    if reason is not None:
        return reason
    if isinstance(action, Discard):
        if t.hands_mode == PHYSICAL or t.phase == TOP:
            return f"{card} has a legal move, so it must be played (Z-4)"
        return f"{who} has a card with a legal move: discard only when no card can be played (Z-4)"
    if isinstance(action, Shift):
        return _why_shift_illegal(state, action)
    assert isinstance(action, Move)
    return _why_move_illegal(state, action, who)


def _why_card_unavailable(state: ZilloState, card: Card, who: str) -> str | None:
    t = state._position
    if t.hands_mode == PHYSICAL:
        if card not in state.unseen_cards():
            return f"{card} has already been played since the cards were last shuffled (Z-6)"
        return None
    if t.phase == TOP:
        assert t.pile is not None
        if card != t.pile[-1]:
            return f"in top-card play {who} must play the top card of the pile, {t.pile[-1]}"
        return None
    if card not in state.playable_cards():
        return f"{card} is not in {who}'s hand"
    return None


def _why_shift_illegal(state: ZilloState, action: Shift) -> str:
    if kind(action.card) != "shift":
        return f"{describe(action.card)} moves a piece, not a board part"
    if action.part not in PARTS:
        return f"there is no board part {action.part} (parts 1 to 4)"
    if action.turn not in ROTATIONS:
        return f"a part turns by 0, 90, 180 or 270 degrees, not {action.turn}"
    layout = state._position.layout
    rotation = (layout.placement(action.part).rotation + action.turn) % 360
    placement = Placement(corner_for_anchor(action.anchor, rotation), rotation)
    return layout.shift_problem(action.part, placement) or f"{action!r} is not a legal shift"


def _why_move_illegal(state: ZilloState, action: Move, who: str) -> str:
    t = state._position
    card = action.card
    if kind(card) == "shift":
        return f"{card} is a Shift card: it moves a board part (write S-n:<part>r<turn>@<field>)"
    if not (AREA.contains(action.origin) and AREA.contains(action.target)):
        return "both fields of a move must be on the 14x14 board"
    origin, target = AREA.format_cell(action.origin), AREA.format_cell(action.target)
    if moves_zillo(card):
        if action.count is not None:
            return f"{describe(card)} moves the Zillo, not Catchers"
        if action.origin != t.zillo:
            return f"the Zillo stands on {AREA.format_cell(t.zillo)}, not on {origin}"
    else:
        if action.count is None:
            return f"{describe(card)} moves Catchers: say how many (1 to 3)"
        stack = t.catchers.get(action.origin)
        if stack is None or stack.player != t.current:
            return f"{who} has no Catchers on {origin}"
        if not 1 <= action.count <= stack.count:
            return f"{who} has {stack.count} Catcher(s) on {origin}, so cannot move {action.count}"
    offset = (action.target[0] - action.origin[0], action.target[1] - action.origin[1])
    if all(path[-1] != offset for path in RELATIVE_PATHS[card]):
        return f"{describe(card)} cannot go from {origin} to {target}"
    if action.target not in movegen.targets(t.layout, card, action.origin):
        return f"every step from {origin} to {target} must land on a board part, and one would not"
    landing = state.landing(t.current, action.origin, action.target, action.count)
    if isinstance(landing, str):
        return landing
    return f"{notation.action_to_str(action)} is not legal here"
