"""Zodiac's cards: the twelve signs, the Sun and the Black Moon, their names, the deck and the hand limits."""

from __future__ import annotations

from controller.games.base import (
    NotationError,
)
from controller.games.cards import Card, Hand

FORMAT_VERSION = 1


SIGNS: tuple[Card, ...] = ("ari", "tau", "gem", "can", "leo", "vir", "lib", "sco", "sag", "cap", "aqu", "pis")


SUN: Card = "sun"


MOON: Card = "moon"


ACTION_CARDS: frozenset[Card] = frozenset((SUN, MOON))


SIGN_SET: frozenset[Card] = frozenset(SIGNS)


CARD_NAMES: dict[Card, str] = {
    "ari": "Aries",
    "tau": "Taurus",
    "gem": "Gemini",
    "can": "Cancer",
    "leo": "Leo",
    "vir": "Virgo",
    "lib": "Libra",
    "sco": "Scorpio",
    "sag": "Sagittarius",
    "cap": "Capricorn",
    "aqu": "Aquarius",
    "pis": "Pisces",
    SUN: "Sun",
    MOON: "Black Moon",
}


# Rule text: 100 cards, seven of each sign, eight Suns and eight Black Moons.
DECK_COUNTS: dict[Card, int] = {**{sign: 7 for sign in SIGNS}, SUN: 8, MOON: 8}


ALIASES: dict[str, Card] = {
    **{card: card for card in CARD_NAMES},
    **{name.lower().replace(" ", ""): card for card, name in CARD_NAMES.items()},
    "blackmoon": MOON,
    "bm": MOON,
}


DEAL = 6


HAND_LIMIT = 6


UP_LIMIT = 6


TOTAL_LIMIT = 12


def is_sign(card: Card) -> bool:
    return card in SIGN_SET


def card_name(card: Card) -> str:
    return CARD_NAMES.get(card, card)


def parse_card(text: str) -> Card:
    """A card id from its id or English name (`leo`, `Aries`, `black moon`)."""
    card = ALIASES.get(text.strip().lower().replace(" ", ""))
    if card is None:
        raise NotationError(f"{text!r} is not a Zodiac card (signs: {', '.join(SIGNS)}; sun; moon)")
    return card


def has_zodiac(hand: Hand, up: Hand) -> bool:
    """The winning set: six face down and six face up, all twelve signs, nothing else."""
    return len(hand) == HAND_LIMIT and len(up) == UP_LIMIT and set(hand) | set(up) == SIGN_SET


def over_limits(hand: Hand, up: Hand) -> bool:
    """Rule text: at most 6 in hand and 6 face up; 7 in hand or 13 in all at the end of a turn is too many."""
    return len(hand) > HAND_LIMIT or len(up) > UP_LIMIT or len(hand) + len(up) > TOTAL_LIMIT


class _CardOrder(dict[Card, int]):
    """Each card's place in the fixed order (signs, Sun, Black Moon); any other card (an unseen
    one) after them. Its `__getitem__` is a sort key that runs in C for the known cards."""

    def __missing__(self, card: Card) -> int:
        return len(self)


_ORDER = _CardOrder({card: index for index, card in enumerate((*SIGNS, SUN, MOON))})
_order = _ORDER.__getitem__


def _distinct(items: Hand) -> list[Card]:
    """The distinct cards of a hand in the fixed card order (signs, Sun, Black Moon)."""
    return sorted(set(items), key=_order)


def _distinct_signs(items: Hand) -> list[Card]:
    return [c for c in _distinct(items) if is_sign(c)]
