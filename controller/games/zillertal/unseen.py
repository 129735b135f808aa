"""Zillertal as one seat may imagine it: the cards it cannot see dealt anew (see
`State.sample_unseen`)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from controller.games.records import replaced
from controller.games.unseen import Refill, reseeded, seats_of
from controller.games.zillertal.turns import successor

if TYPE_CHECKING:
    from controller.games.zillertal.state import ZillertalState

UNKNOWN = "?"  # a card of a physical hand the controller has not seen


def sample_unseen(state: ZillertalState, player: int | frozenset[int], rng: random.Random) -> ZillertalState:
    """The other hands, the deck and the unused Valley cards dealt anew from the cards among them;
    each contract pile shuffled (which contracts it holds is public, not their order): ZT-8.

    Built from the position directly (a search samples once per simulation); the Valley on the
    table is the same, so its view carries over."""
    t = state.position
    if any(UNKNOWN in hand for hand in t.hands):  # physical cards: nothing to sample
        return state
    seats = seats_of(player)
    hidden = [seat for seat in range(t.players) if seat not in seats]
    refill = Refill([card for seat in hidden for card in t.hands[seat]] + [*t.deck, *t.unused], rng)
    hands = list(t.hands)
    for seat in hidden:
        hands[seat] = tuple(refill.take(len(t.hands[seat])))
    deck = tuple(refill.take(len(t.deck)))
    unused = tuple(refill.take(len(t.unused)))
    refill.check_used()
    piles = []
    for pile in t.piles:
        order = sorted(pile)  # the true order never shows in a sample
        rng.shuffle(order)
        piles.append(tuple(order))
    table = replaced(
        t,
        hands=tuple(hands),
        deck=deck,
        unused=unused,
        piles=tuple(piles),
        rng=reseeded(rng),
    )
    return successor(state, table)
