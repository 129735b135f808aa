"""Zillo's data: the values a state is made of, the seats and the option checks.

Kept apart from the rules (state.py) so that saving and loading (serial.py) can use them too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.games.base import Cell
from controller.games.cards import Card, Hand, Pile
from controller.games.records import record
from controller.games.rng import SeededRandom
from controller.games.zillo.layout import Layout

FORMAT_VERSION = 1
CATCHERS_PER_PLAYER = 3
MATCH_POINTS = 4  # rule text: "ZILLO MASTER is: who reaches 4 points!"
CATCHER_MAGNET = 1
ZILLO_MAGNET = -1  # zillo.md, physical notes: the Zillo faces the sensor with the other pole

# Z-1: seat colours per player count, in turn order (2 players sit diagonally opposite).
SEATS: dict[int, tuple[str, ...]] = {
    2: ("red", "yellow"),
    3: ("red", "blue", "yellow"),
    4: ("red", "blue", "yellow", "green"),
}
DEALT = "dealt"
PHYSICAL = "physical"
HANDS_MODES = (DEALT, PHYSICAL)
HANDS = "hands"  # players play cards from their hands
TOP = "top"  # rule text: all hands used up, each player plays the top card of the pile
PHASES = (HANDS, TOP)


@record()
class Stack:
    """One player's Catchers on one field: they move 1, 2 or all together as one piece."""

    player: int
    count: int


@record()
class Played:
    """A card played (or discarded) since the pile was last shuffled; `shown` unless it was discarded
    face down from a hand (Z-4)."""

    player: int
    card: Card
    shown: bool


@dataclass(frozen=True, slots=True)
class Catch:
    """Who caught the Zillo in this game and the points it scored."""

    player: int
    points: int


@record(eq=False)
class Position:
    """Everything a Zillo state holds. Never mutated: successors are made with `records.replaced`."""

    players: int
    hands_mode: str
    match: bool
    max_turns: int | None
    layout: Layout
    catchers: Mapping[Cell, Stack]
    zillo: Cell
    hands: tuple[Hand, ...] | None  # None in physical mode (Z-6): the controller does not know them
    hand_sizes: tuple[int, ...]
    pile: Pile | None  # bottom to top; None in physical mode
    pile_count: int
    played: tuple[Played, ...]
    phase: str
    current: int
    start_player: int
    turn: int  # cards played or discarded in this game (max_turns counts these)
    ply: int  # actions in the whole state sequence, `new-game` included
    game_number: int
    scores: tuple[int, ...]
    caught: Catch | None
    winner: int | None
    rng: SeededRandom


def check_choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return str(value)


def check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, not {value!r}")
    return value


def check_max_turns(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"max_turns must be a positive whole number or None, not {value!r}")
    return value
