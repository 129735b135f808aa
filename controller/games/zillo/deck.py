"""Zillo's 24 cards and the move each card allows (Z-2).

A Catcher or Zillo card moves exactly 3 fields: `k` in a first direction `d1`, then `3 - k` in a turn
direction `d2` at right angles (`k = 3` is straight; at most one turn). A Wild card moves the Zillo
1, 2 or 3 fields in any orthogonal directions, never entering a field twice (its start field
included). A Shift card moves a board part (Z-3, see layout.py). Directions are board-fixed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from controller.games.base import Cell
from controller.games.cards import Card
from controller.games.grid import DIRECTION_NAMES, ORTHOGONAL, Path, bent_paths, step

MOVE_LENGTH = 3
WILD_MAX = 3

CATCHER_CARDS: tuple[Card, ...] = (
    "C-N",
    "C-E",
    "C-S",
    "C-W",  # straight
    "C-NE",
    "C-ES",
    "C-SW",
    "C-WN",  # bend right
    "C-NW",
    "C-EN",
    "C-SE",
    "C-WS",  # bend left
)
ZILLO_CARDS: tuple[Card, ...] = ("Z-N", "Z-E", "Z-S", "Z-W")
WILD_CARDS: tuple[Card, ...] = ("W-1", "W-2", "W-3", "W-4")
SHIFT_CARDS: tuple[Card, ...] = ("S-1", "S-2", "S-3", "S-4")
CARDS: tuple[Card, ...] = CATCHER_CARDS + ZILLO_CARDS + WILD_CARDS + SHIFT_CARDS
CARD_INDEX: dict[Card, int] = {card: index for index, card in enumerate(CARDS)}

# Rule text: 4 players 6 cards each, 3 players 8 each, 2 players 8 each; the rest is the pile.
DEAL: dict[int, int] = {2: 8, 3: 8, 4: 6}

KIND_OF_PREFIX = {"C": "catcher", "Z": "zillo", "W": "wild", "S": "shift"}


def kind(card: Card) -> str:
    """ "catcher", "zillo", "wild" or "shift"."""
    return KIND_OF_PREFIX[card[0]]


def moves_zillo(card: Card) -> bool:
    return card[0] in "ZW"


def describe(card: Card) -> str:
    """The card in words, for error messages."""
    directions = [name for name in card[2:] if name in DIRECTION_NAMES]
    words = {"N": "north", "E": "east", "S": "south", "W": "west"}
    match kind(card):
        case "catcher" if len(directions) == 1:
            return f"Catcher card {card} (3 fields {words[directions[0]]})"
        case "catcher":
            first, turn = (words[d] for d in directions)
            return f"Catcher card {card} (3 fields {first}, or {first} then {turn})"
        case "zillo":
            return f"Zillo card {card} (Zillo 3 fields {words[directions[0]]}, may turn once to either side)"
        case "wild":
            return f"Wild card {card} (Zillo 1 to 3 fields, any directions)"
        case _:
            return f"Shift card {card}"


def card_paths(
    card: Card,
    start: Cell,
    can_pass: Callable[[Cell], bool],
    can_stop: Callable[[Cell], bool],
) -> Iterator[Path]:
    """Every path the card allows from `start` (Z-2); `can_pass` says which fields a piece may cross
    (jumping over pieces is allowed, gaps are not), `can_stop` where it may end."""
    match kind(card):
        case "catcher":
            first = DIRECTION_NAMES[card[2]]
            if len(card) == 3:
                return bent_paths(start, MOVE_LENGTH, can_pass, can_stop, first=(first,), max_turns=0)
            turn = DIRECTION_NAMES[card[3]]
            return bent_paths(start, MOVE_LENGTH, can_pass, can_stop, first=(first,), second=lambda _d: (turn,))
        case "zillo":
            return bent_paths(start, MOVE_LENGTH, can_pass, can_stop, first=(DIRECTION_NAMES[card[2]],))
        case "wild":
            return wild_paths(start, can_pass, can_stop)
        case _:
            raise ValueError(f"{card} moves a board part, not a piece")


def wild_paths(start: Cell, can_pass: Callable[[Cell], bool], can_stop: Callable[[Cell], bool]) -> Iterator[Path]:
    """Z-2 Wild: 1 to 3 orthogonal steps in any directions, never entering a field twice."""

    def extend(path: tuple[Cell, ...], here: Cell) -> Iterator[Path]:
        for direction in ORTHOGONAL:
            cell = step(here, direction)
            if cell == start or cell in path or not can_pass(cell):
                continue
            longer = (*path, cell)
            if can_stop(cell):
                yield longer
            if len(longer) < WILD_MAX:
                yield from extend(longer, cell)

    return extend((), start)


def _relative_paths(card: Card) -> tuple[Path, ...]:
    return tuple(card_paths(card, (0, 0), lambda _c: True, lambda _c: True))


RELATIVE_PATHS: dict[Card, tuple[Path, ...]] = {
    card: _relative_paths(card) for card in CATCHER_CARDS + ZILLO_CARDS + WILD_CARDS
}
"""Each piece-moving card's paths from (0, 0) on an open board: a cheap lookup for bots and hints."""


def _ends_of(card: Card) -> tuple[tuple[Cell, tuple[Path, ...]], ...]:
    ends: dict[Cell, list[Path]] = {}
    for path in RELATIVE_PATHS[card]:
        ends.setdefault(path[-1], []).append(path)
    return tuple((end, tuple(paths)) for end, paths in sorted(ends.items()))


CARD_ENDS: dict[Card, tuple[tuple[Cell, tuple[Path, ...]], ...]] = {card: _ends_of(card) for card in RELATIVE_PATHS}
"""RELATIVE_PATHS by end offset, sorted: a piece reaches an end when every field of one of the paths
there lies on a board part (pieces are jumped over, gaps are not: Z-2)."""


def _catcher_paths_by_end() -> dict[Cell, tuple[tuple[Card, Path], ...]]:
    found: dict[Cell, tuple[tuple[Card, Path], ...]] = {}
    for card in CATCHER_CARDS:
        for path in RELATIVE_PATHS[card]:
            found[path[-1]] = (*found.get(path[-1], ()), (card, path))
    return found


CATCHER_PATHS_TO = _catcher_paths_by_end()
"""For each offset a Catcher card can cover, the (card, relative path) pairs that end there."""
