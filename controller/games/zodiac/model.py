"""Zodiac's table (the value a state wraps), its turn phases and the checks of the game's options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.games import cards
from controller.games.cards import UNSEEN, Card, Hand, Pile
from controller.games.records import record
from controller.games.rng import SeededRandom
from controller.games.zodiac.cards import DECK_COUNTS, HAND_LIMIT, SIGN_SET, SIGNS, UP_LIMIT, card_name

MODES = ("referee", "table")


HANDS_MODES = ("dealt", "physical")


DEALT, PHYSICAL = HANDS_MODES


# Phases of a turn.
DEALER = "dealer"  # physical hands: the table names the dealer (ZO-E12)


OPEN = "open"  # physical hands: the table names the sign that starts the discard pile (ZO-E12)


TURN = "turn"  # nothing drawn yet: draw, take, or play an action card


DRAWN = "drawn"  # drew or took a card: rearrange, then discard or pass


PENALTY = "penalty"  # table mode: the next player picks the signs an offender loses


OVER = "over"


@dataclass(frozen=True, slots=True)
class Penalty:
    """ZO-4: an offender still owes `owed` signs, chosen by the player on turn; `lost` already paid."""

    offender: int
    owed: int
    lost: int = 0


@record()
class Position:
    """Everything on the table: the value a ZodiacState wraps."""

    players: int
    mode: str
    rearrange_before_draw: bool
    max_turns: int | None
    rng: SeededRandom
    deck: Pile
    discard: Pile
    hands: tuple[Hand, ...]
    up: tuple[Hand, ...]
    current: int
    phase: str
    dealer: int
    dealer_draws: tuple[tuple[int, Card], ...]
    fresh: Card | None = None  # an action card just drawn from the deck, playable at once (ZO-E3)
    moved_up: Hand = ()
    moved_down: Hand = ()
    skips: tuple[int, ...] = ()
    locked: bool = False
    penalty: Penalty | None = None
    turns: int = 0
    winner: int | None = None
    events: tuple[str, ...] = ()
    hands_mode: str = DEALT
    revealed: int = 0  # hidden cards shown so far (draws, shuffles, hands shown): no take-back across them


def hand_shown_to(t: Position, seat: int) -> int | None:
    """ZO-E6: the offender whose cards `seat` is shown (the player on turn, who chooses the penalty's
    signs), or None."""
    return t.penalty.offender if t.penalty is not None and seat == t.current else None


def _why_no_zodiac(t: Position, seat: int) -> str | None:
    """ZO-E15: why `seat`'s cards cannot be a Zodiac as far as the controller has seen them, or None.

    A Zodiac needs six distinct signs face up and six cards in the hand; the known hand cards must be
    other signs, and every sign still missing needs a copy the controller has not seen (that may be
    among the unseen hand cards)."""
    hand, up = t.hands[seat], t.up[seat]
    if len(hand) != HAND_LIMIT or len(up) != UP_LIMIT:
        return f"a Zodiac is {HAND_LIMIT} cards in the hand and {UP_LIMIT} face up, not {len(hand)} and {len(up)}"
    known = [c for c in hand if c != UNSEEN]
    shown = [*up, *known]
    if not set(shown) <= SIGN_SET:
        return "a Zodiac holds no action cards"
    if len(set(shown)) != len(shown):
        return "a Zodiac holds each sign once"
    seen = cards.count_by_id((*t.discard, *(c for u in t.up for c in u), *(c for h in t.hands for c in h)))
    gone = [sign for sign in SIGNS if sign not in shown and seen.get(sign, 0) >= DECK_COUNTS[sign]]
    if gone:
        return f"every copy of {', '.join(card_name(s) for s in gone)} has been seen elsewhere"
    return None


def _zodiac_possible(t: Position, seat: int) -> bool:
    return _why_no_zodiac(t, seat) is None


def _with_seat(items: tuple[Hand, ...], seat: int, value: Hand) -> tuple[Hand, ...]:
    return (*items[:seat], value, *items[seat + 1 :])


def _check_mode(value: Any) -> str:
    if value not in MODES:
        raise ValueError(f"mode must be 'referee' or 'table', not {value!r}")
    return str(value)


def _check_count(value: int, name: str) -> int:
    if value < 0:
        raise ValueError(f"field {name!r} must be >= 0, not {value}")
    return value


def _check_hands(value: Any) -> str:
    if value not in HANDS_MODES:
        raise ValueError(f"hands must be 'dealt' or 'physical', not {value!r}")
    return str(value)


def _check_bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, not {value!r}")
    return value


def _check_max_turns(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"max_turns must be a positive whole number or None, not {value!r}")
    return value
