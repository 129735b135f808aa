"""The moves each Zillo card allows in a position (Z-2, Z-3), from tables made once per card and field.

Random playouts and search ask for every legal move of every card in hand at each turn, so what does
not depend on the position is worked out once: for a card and a field, where its paths end, each
path as a bit mask of board fields, and the move objects to each end (one per number of Catchers).
A position then only tests the masks against the fields its parts cover and keeps the moves whose
landing the capture rules allow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.games.base import Action, Cell
from controller.games.cards import Card
from controller.games.zillo.actions import Move, Shift
from controller.games.zillo.deck import kind, moves_zillo
from controller.games.zillo.layout import PARTS, Layout, Placement, turns_at
from controller.games.zillo.model import CATCHERS_PER_PLAYER
from controller.games.zillo.reach import Landing, covered_bits, path_masks

if TYPE_CHECKING:
    from controller.games.zillo.state import ZilloState

End = tuple[Cell, tuple[int, ...], tuple[Move, ...]]
"""One end of a card's paths from a field: the end, its paths as masks, and the moves there (by
number of Catchers less one; the Zillo's one move alone)."""

CardReach = tuple[int, tuple[End, ...]]
"""A card's paths from a field: every field they pass or end on, as a mask, and their ends. Where the
parts cover all those fields (a piece in the middle of the board), every end is reached without
testing its paths one by one."""

_ENDS: dict[tuple[Card, Cell], CardReach] = {}
_SHIFTS: dict[tuple[Card, int, int, Cell, bool], tuple[Shift, ...]] = {}


def _reach(card: Card, origin: Cell) -> CardReach:
    """Every end of `card`'s paths from `origin`, sorted, made once (at most 20 cards x 196 fields)."""
    found = _ENDS.get((card, origin))
    if found is None:
        counts: tuple[int | None, ...] = (None,) if moves_zillo(card) else tuple(range(1, CATCHERS_PER_PLAYER + 1))
        ends = tuple(
            (target, masks, tuple(Move(card, origin, target, count) for count in counts))
            for target, masks in path_masks(card, origin)
        )
        region = 0
        for _, masks, _ in ends:
            for mask in masks:
                region |= mask
        found = _ENDS[card, origin] = (region, ends)
    return found


def _reached(covered: int, masks: tuple[int, ...]) -> bool:
    """Z-2: a path counts when every field of it lies on a board part."""
    for mask in masks:  # noqa: SIM110 (a plain loop: any() over a generator costs twice as much here)
        if covered & mask == mask:
            return True
    return False


def targets(layout: Layout, card: Card, origin: Cell) -> list[Cell]:
    """Z-2: where `card` takes a piece from `origin`, whatever stands on the way (pieces are jumped
    over, gaps are not), sorted."""
    covered = covered_bits(layout)
    return [target for target, masks, _ in _reach(card, origin)[1] if _reached(covered, masks)]


def card_moves(state: ZilloState, card: Card) -> tuple[Action, ...]:
    """Every move the player on turn could make with `card`, in a fixed order (seeded bots rely on it)."""
    if kind(card) == "shift":
        return shift_moves(state.layout, card)
    if moves_zillo(card):
        return _zillo_moves(state, card)
    return _catcher_moves(state, card)


def _may_land(state: ZilloState, move: Move) -> bool:
    """Whether `landing` allows `move`, the end of a card's path (so on the parts)."""
    return isinstance(state.landing(state.current_player, move.origin, move.target, move.count), Landing)


def _catcher_moves(state: ZilloState, card: Card) -> tuple[Action, ...]:
    position = state.position  # its own Catchers (`state.catchers` is a copy)
    player = position.current
    catchers = position.catchers
    covered = covered_bits(position.layout)
    moves: list[Action] = []
    extend = moves.extend
    for origin, stack in sorted(catchers.items()):
        if stack.player != player:
            continue
        region, ends = _reach(card, origin)
        everywhere = covered & region == region
        for target, masks, by_count in ends:
            # Z-2: one of the paths lies on board parts. `_reached`, written out: the call costs 2-3 %
            # of a random playout (paired rounds of the bench), and this is Zillo's hottest loop.
            if not everywhere:
                for mask in masks:
                    if covered & mask == mask:
                        break
                else:
                    continue
            allowed = by_count[: stack.count]
            occupant = catchers.get(target)
            if occupant is None or occupant.player == player:  # `captures_nothing`, for any count
                extend(allowed)
            else:
                extend(move for move in allowed if _may_land(state, move))
    return tuple(moves)


def _zillo_moves(state: ZilloState, card: Card) -> tuple[Action, ...]:
    position = state.position
    catchers = position.catchers
    covered = covered_bits(position.layout)
    region, ends = _reach(card, position.zillo)
    if covered & region == region:  # every end reached
        return tuple(move for target, _, (move,) in ends if target not in catchers or _may_land(state, move))
    moves: list[Action] = []
    append = moves.append
    for target, masks, (move,) in ends:
        for mask in masks:  # `_reached`, written out (as in `_catcher_moves`: a Wild card has 24 ends)
            if covered & mask == mask:
                if target not in catchers or _may_land(state, move):
                    append(move)
                break
    return tuple(moves)


def shift_moves(layout: Layout, card: Card) -> tuple[Action, ...]:
    """Z-3: every shift the layout allows, with `card` (kept by the layout: pieces do not matter),
    by part, then corner, then rotation."""

    def work_out() -> tuple[Action, ...]:
        found: list[Action] = []
        for part in PARTS:
            current = layout.placement(part)
            for corner in layout.shift_corners(part):
                found.extend(_shifts_to(card, part, current, corner))
        return tuple(found)

    return layout.remember(("shifts", card), work_out)


def _shifts_to(card: Card, part: int, current: Placement, corner: Cell) -> tuple[Shift, ...]:
    """The shifts of `card` that lay `part` (lying at `current`) at `corner`, made once."""
    key = (card, part, current.rotation, corner, corner == current.corner)
    found = _SHIFTS.get(key)
    if found is None:
        found = _SHIFTS[key] = tuple(Shift(card, part, turn, anchor) for turn, anchor in turns_at(current, corner))
    return found
