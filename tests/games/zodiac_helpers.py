"""Building Zodiac positions for tests: name the cards that matter, the deck gets the rest."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from controller.games.rng import SeededRandom
from controller.games.zodiac import DECK_COUNTS, SIGNS, TURN, Table, Zodiac, ZodiacState

GAME = Zodiac()
ORDER = {card: i for i, card in enumerate((*SIGNS, "sun", "moon"))}


def position(
    hands: Sequence[Sequence[str]],
    up: Sequence[Sequence[str]] | None = None,
    discard: Sequence[str] = ("leo",),
    deck_top: Sequence[str] = (),
    deck_size: int | None = None,
    current: int = 0,
    phase: str = TURN,
    mode: str = "referee",
    **changes: Any,
) -> ZodiacState:
    """A position with these hands, face-up cards and discard pile (bottom to top).

    `deck_top` are the next cards drawn, first one first; the rest of the 100 cards lie under them
    (or, with `deck_size`, only that many cards stay in the deck and the others go under the discard
    pile's bottom card, so that every card is still somewhere).
    """
    players = len(hands)
    up = up if up is not None else [()] * players
    named = Counter(c for h in hands for c in h) + Counter(c for u in up for c in u)
    named += Counter(discard) + Counter(deck_top)
    rest = Counter(DECK_COUNTS)
    rest.subtract(named)
    assert all(n >= 0 for n in rest.values()), f"too many copies named: {-rest}"
    others = sorted(rest.elements(), key=lambda c: ORDER[c])
    discard = tuple(discard)
    if deck_size is not None:
        keep = deck_size - len(deck_top)
        discard = (*others[keep:], *discard)
        others = others[:keep]
    deck = (*others, *reversed(deck_top))
    table = Table(
        players=players,
        mode=mode,
        rearrange_before_draw=changes.pop("rearrange_before_draw", False),
        max_turns=changes.pop("max_turns", 1000),
        rng=SeededRandom(0),
        deck=deck,
        discard=discard,
        hands=tuple(tuple(h) for h in hands),
        up=tuple(tuple(u) for u in up),
        current=current,
        phase=phase,
        dealer=(current - 1) % players,
        dealer_draws=(),
        skips=changes.pop("skips", (0,) * players),
        **changes,
    )
    return ZodiacState(GAME, table)


def play(state: ZodiacState, *moves: str) -> ZodiacState:
    for text in moves:
        state = state.apply(state.parse_action(text))
    return state


def legal(state: ZodiacState) -> set[str]:
    return set(state.legal_action_strings())


# A complete Zodiac split six and six, and the same minus one sign.
HIDDEN_SIX = ("ari", "tau", "gem", "can", "leo", "vir")
SHOWN_SIX = ("lib", "sco", "sag", "cap", "aqu", "pis")
