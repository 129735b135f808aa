"""Card handling shared by the card-driven games (Zodiac, Zillertal, Zillo): piles, seeded shuffles,
dealing, drawing, recycling a discard pile, and the views that hide cards from other players.

Cards are short string ids. A pile is a tuple ordered bottom to top: `pile[-1]` is the top card,
the one drawn or shown next. Every function returns new tuples; nothing is mutated.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

from controller.games.base import IllegalAction
from controller.games.rng import SeededRandom

Card = str
Pile = tuple[Card, ...]
Hand = tuple[Card, ...]

UNSEEN: Card = "?"
"""A card nobody has shown the controller: at a physical table hands and the deck hold real cards the
controller only counts, so they are kept as this placeholder until a card is declared."""


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


def take_card(hand: Sequence[Card], card: Card) -> Hand:
    """The hand after `card` leaves it: a known copy if the hand holds one, else one unseen card
    (physical hands: the controller learns the card only as it is played)."""
    if card in hand or UNSEEN not in hand:
        return remove_card(hand, card)
    return remove_card(hand, UNSEEN)


def build_deck(counts: Mapping[Card, int]) -> Pile:
    """A deck in a fixed (unshuffled) order: every card id repeated as often as `counts` says."""
    deck: list[Card] = []
    for card, copies in counts.items():
        if copies < 0:
            raise ValueError(f"cannot have {copies} copies of {card}")
        deck.extend([card] * copies)
    return tuple(deck)


def put_under(pile: Pile, *cards: Card) -> Pile:
    """The pile with `cards` slid under it (the first one ends at the very bottom)."""
    return (*cards, *pile)


def refill(hand: Hand, pile: Pile, size: int) -> tuple[Hand, Pile]:
    """Draw from the top until the hand holds `size` cards or the pile is empty."""
    wanted = max(0, min(size - len(hand), len(pile)))
    taken, rest = draw(pile, wanted)
    return (*hand, *taken), rest


def draw_until(pile: Pile, accept: Callable[[Card], bool]) -> tuple[Card | None, Pile, Pile]:
    """Turn up cards from the top until one is accepted.

    Returns (the accepted card or None if the pile ran out, the cards turned up before it in the order
    they were turned, the rest of the pile).
    """
    turned: list[Card] = []
    rest = pile
    while rest:
        card, rest = rest[-1], rest[:-1]
        if accept(card):
            return card, tuple(turned), rest
        turned.append(card)
    return None, tuple(turned), rest


def remove_cards(hand: Sequence[Card], cards: Iterable[Card]) -> Hand:
    """The hand without one copy of each of `cards` (repeat an id to remove several copies)."""
    result = tuple(hand)
    for card in cards:
        result = remove_card(result, card)
    return result


def multiset_contains(cards: Sequence[Card], wanted: Iterable[Card]) -> bool:
    """Whether `cards` holds every card of `wanted`, counting copies."""
    have = count_by_id(cards)
    return all(have.get(card, 0) >= copies for card, copies in count_by_id(wanted).items())


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


def seat_views(hands: Sequence[Sequence[Card]], viewer: int | None) -> list[Any]:
    """Every seat's hand as `viewer` sees it: their own as a list of cards, the others as counts.

    `viewer=None` is a spectator who sees no hand at all.
    """
    return [list(hand) if seat == viewer else hidden(hand) for seat, hand in enumerate(hands)]


def pile_from_json(value: Any, where: str, known: Collection[Card] | None = None) -> Pile:
    """A pile read back from JSON (a list of card ids); ValueError naming `where` if it is not one."""
    if not isinstance(value, list) or not all(isinstance(card, str) for card in value):
        raise ValueError(f"{where} must be a list of card ids, got {value!r}")
    if known is not None:
        unknown = sorted({card for card in value if card not in known})
        if unknown:
            raise ValueError(f"{where} holds unknown card(s): {', '.join(unknown)}")
    return tuple(value)


def check_card_counts(expected: Mapping[Card, int], found: Iterable[Card], what: str) -> None:
    """Raise ValueError unless `found` holds exactly the cards of `expected` (every card once, somewhere)."""
    have = count_by_id(found)
    missing = {c: n - have.get(c, 0) for c, n in expected.items() if have.get(c, 0) < n}
    extra = {c: n - expected.get(c, 0) for c, n in have.items() if n > expected.get(c, 0)}
    if missing or extra:
        parts = []
        if missing:
            parts.append("missing " + ", ".join(f"{n}x {c}" for c, n in sorted(missing.items())))
        if extra:
            parts.append("too many " + ", ".join(f"{n}x {c}" for c, n in sorted(extra.items())))
        raise ValueError(f"{what}: the cards do not add up to the deck ({'; '.join(parts)})")


def check_partly_known_counts(expected: Mapping[Card, int], found: Iterable[Card], what: str) -> None:
    """Like `check_card_counts` for a physical table: unseen cards stand for any card, so the known ones
    may not exceed their copies and all of them together must make up the deck."""
    have = count_by_id(found)
    unseen = have.pop(UNSEEN, 0)
    extra = {c: n - expected.get(c, 0) for c, n in have.items() if n > expected.get(c, 0)}
    if extra:
        shown = ", ".join(f"{n}x {c}" for c, n in sorted(extra.items()))
        raise ValueError(f"{what}: the cards do not add up to the deck (too many {shown})")
    total, deck = sum(have.values()) + unseen, sum(expected.values())
    if total != deck:
        raise ValueError(f"{what}: {total} cards in all (known and unseen), the deck has {deck}")


def count_by_id(cards: Iterable[Card]) -> dict[Card, int]:
    counts: dict[Card, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return counts
