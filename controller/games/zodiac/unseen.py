"""Zodiac as one seat may imagine it: the cards it cannot see dealt anew (see `State.sample_unseen`)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from controller.games.records import replaced
from controller.games.unseen import Refill, reseeded, seats_of
from controller.games.zodiac.model import hand_shown_to

if TYPE_CHECKING:
    from controller.games.zodiac.state import ZodiacState

UNKNOWN = "?"  # a card of a physical hand the controller has not seen


def sample_unseen(state: ZodiacState, player: int | frozenset[int], rng: random.Random) -> ZodiacState:
    """The other hands and the deck dealt anew from the cards among them; a hand shown to `player`
    (an offender's, to the player who chooses its penalty, ZO-E6) stays as it is. The card just
    drawn is seen by its drawer alone (docs/games/zodiac.md, "What each player sees"): where the
    player on turn is dealt anew, the sample has no action card just drawn to play at once (ZO-E3;
    its hand may still hold one), as the real state would be had a sign been drawn, and the cards
    moved down into that hand this turn (ZO-5), which the table saw, stay in it. Built from the
    position directly: a search samples once per simulation."""
    t = state.position
    if any(UNKNOWN in hand for hand in t.hands):  # physical cards: nothing to sample
        return state
    known = set(seats_of(player))
    for seat in seats_of(player):
        shown = hand_shown_to(t, seat)
        if shown is not None:
            known.add(shown)
    hidden = [seat for seat in range(t.players) if seat not in known]
    seen_in_hand = {seat: list(t.moved_down) if seat == t.current else [] for seat in hidden}
    pool = [card for seat in hidden for card in t.hands[seat]] + list(t.deck)
    for cards in seen_in_hand.values():
        for card in cards:
            pool.remove(card)
    refill = Refill(pool, rng)
    hands = list(t.hands)
    for seat in hidden:
        kept = seen_in_hand[seat]
        hands[seat] = (*kept, *refill.take(len(t.hands[seat]) - len(kept)))
    fresh = None if t.current in hidden else t.fresh
    deck = tuple(refill.take(len(t.deck)))
    refill.check_used()
    table = replaced(t, hands=tuple(hands), deck=deck, fresh=fresh, rng=reseeded(rng))
    return type(state)(state.game, table)
