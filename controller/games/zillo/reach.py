"""Where Zillo's pieces may go: the fields a card takes a piece to from a field (Z-2, by bit masks),
what a landing leaves on the board, and captured Catchers sent home (ZE-1)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from controller.games.base import Cell
from controller.games.cards import Card
from controller.games.records import record
from controller.games.zillo.deck import CARD_ENDS
from controller.games.zillo.layout import AREA, PART_SIZE, Layout
from controller.games.zillo.model import Stack


def send_home(catchers: dict[Cell, Stack], stack: Stack, homes: Mapping[int, Cell]) -> list[tuple[int, Cell]]:
    """Put a captured `stack` back on its owner's start field, in place, and say who went where.

    Rule text: a third player's Catchers on the captured player's start field go home too. ZE-1: the
    rule is applied again to whoever stands on that start field (the mover's other Catchers included),
    so different players' Catchers never share a field. It ends: each step puts a stack on its own
    start field, where no one is ever displaced.
    """
    returned: list[tuple[int, Cell]] = []
    while True:
        home = homes[stack.player]
        returned.append((stack.player, home))
        there = catchers.get(home)
        if there is None:
            catchers[home] = stack
            return returned
        if there.player == stack.player:
            catchers[home] = Stack(stack.player, there.count + stack.count)
            return returned
        catchers[home] = stack
        stack = there


@record(eq=False)
class Landing:
    """The pieces after a Catcher or Zillo move, and whether the move caught the Zillo."""

    catchers: dict[Cell, Stack]
    zillo: Cell
    caught: bool


def captures_nothing(occupant: Stack | None, player: int, count: int | None) -> bool:
    """Whether a piece ending on a field that holds `occupant` captures nothing: an empty field, or
    the mover's own Catchers joined by Catchers (`count` of them; None is the Zillo, which may not)."""
    return occupant is None or (occupant.player == player and count is not None)


# Z-2 by bit masks: field (x, y) is bit (x + _PAD) + (y + _PAD) * _STRIDE, so a path's fields from
# any origin are one mask moved by the origin's bit, and no path of a card wraps round a row.
_PAD = max(abs(d) for ends in CARD_ENDS.values() for _, paths in ends for path in paths for cell in path for d in cell)
_STRIDE = AREA.width + 2 * _PAD


def _bits(cells: Iterable[Cell]) -> int:
    return sum(1 << ((x + _PAD) + (y + _PAD) * _STRIDE) for x, y in cells)


_END_MASKS: dict[Card, tuple[tuple[Cell, tuple[int, ...]], ...]] = {
    card: tuple((end, tuple(_bits(path) for path in paths)) for end, paths in ends) for card, ends in CARD_ENDS.items()
}
"""CARD_ENDS with each path as the mask of its fields seen from (0, 0)."""

_PART_BITS = _bits((dx, dy) for dx in range(PART_SIZE) for dy in range(PART_SIZE))


def _covered(layout: Layout) -> int:
    covered = 0
    for placement in layout.placements:
        x, y = placement.corner
        covered |= _PART_BITS << (x + y * _STRIDE)
    return covered


def covered_bits(layout: Layout) -> int:
    """The fields the parts cover, as a mask (each part is a square from its corner), kept by the layout."""
    return layout.remember("covered bits", lambda: _covered(layout))


def path_masks(card: Card, origin: Cell) -> tuple[tuple[Cell, tuple[int, ...]], ...]:
    """Z-2: the ends of `card`'s paths from `origin`, sorted, each with its paths as masks of board
    fields: a piece reaches an end when one of them lies within `covered_bits`."""
    x, y = origin
    shift = x + y * _STRIDE
    return tuple(((x + ex, y + ey), tuple(mask << shift for mask in masks)) for (ex, ey), masks in _END_MASKS[card])
