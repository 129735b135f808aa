"""Card handling shared by the card-driven games (Zodiac, Zillertal, Zillo): piles, seeded shuffles,
dealing, drawing, recycling a discard pile, and the views that hide cards from other players.

Cards are short string ids. A pile is a tuple ordered bottom to top: `pile[-1]` is the top card,
the one drawn or shown next. Every function returns new tuples; nothing is mutated.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from controller.games.base import IllegalAction
from controller.games.rng import SeededRandom

Card = str
Pile = tuple[Card, ...]
Hand = tuple[Card, ...]


def shuffle(cards: Iterable[Card], rng: SeededRandom) -> tuple[Pile, SeededRandom]:
    """The cards in a seeded random order, and the advanced random state."""
    return rng.shuffled(tuple(cards))


def draw(pile: Pile, count: int = 1) -> tuple[tuple[Card, ...], Pile]:
    """Take `count` cards from the top; the first card returned is the former top card."""
    if count < 0:
        raise ValueError(f"cannot draw {count} cards")
    if count > len(pile):
        raise IllegalAction(f"cannot draw {count} card(s): the pile has {len(pile)}")
    if count == 0:
        return (), pile
    taken = tuple(reversed(pile[-count:]))
    return taken, pile[:-count]


def deal(pile: Pile, players: int, count: int) -> tuple[tuple[Hand, ...], Pile]:
    """Deal `count` cards to each of `players`, one at a time round the table starting at seat 0."""
    if players < 1:
        raise ValueError(f"cannot deal to {players} players")
    taken, rest = draw(pile, players * count)
    hands = tuple(tuple(taken[seat::players]) for seat in range(players))
    return hands, rest


def put_on_top(pile: Pile, *cards: Card) -> Pile:
    """The pile with `cards` laid on it in order (the last one ends on top)."""
    return (*pile, *cards)


def top(pile: Pile) -> Card | None:
    return pile[-1] if pile else None


def remove_card(hand: Sequence[Card], card: Card) -> Hand:
    """The hand without one copy of `card`; IllegalAction if the hand does not hold it."""
    items = list(hand)
    try:
        items.remove(card)
    except ValueError:
        raise IllegalAction(f"{card} is not in the hand") from None
    return tuple(items)


def recycle(discard: Pile, rng: SeededRandom, keep_top: int = 1) -> tuple[Pile, Pile, SeededRandom]:
    """Shuffle the discard pile, except its `keep_top` top cards, into a new deck.

    Returns (new deck, what stays on the discard pile, advanced random state).
    """
    keep_top = min(keep_top, len(discard))
    kept = discard[len(discard) - keep_top :]
    deck, rng = shuffle(discard[: len(discard) - keep_top], rng)
    return deck, kept, rng


def hidden(cards: Sequence[Card]) -> dict[str, Any]:
    """What another player sees of a hand or a face-down pile: how many cards, never which."""
    return {"count": len(cards)}


def count_by_id(cards: Iterable[Card]) -> dict[Card, int]:
    counts: dict[Card, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return counts
