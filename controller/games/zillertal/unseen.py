"""Zillertal as one seat may imagine it: the cards it cannot see dealt anew (see
`State.sample_unseen`)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from controller.games.unseen import Refill, reseeded, seats_of

if TYPE_CHECKING:
    from controller.games.zillertal.state import ZillertalState

UNKNOWN = "?"  # a card of a physical hand the controller has not seen


def sample_unseen(state: ZillertalState, player: int | frozenset[int], rng: random.Random) -> ZillertalState:
    """The other hands, the deck and the unused Valley cards dealt anew from the cards among them;
    each contract pile shuffled (which contracts it holds is public, not their order): ZT-8."""
    data = state.to_json()
    if any(UNKNOWN in hand for hand in data["hands"]):  # physical cards: nothing to sample
        return state
    seats = seats_of(player)
    hidden = [seat for seat in range(len(data["hands"])) if seat not in seats]
    refill = Refill([card for seat in hidden for card in data["hands"][seat]] + data["deck"] + data["unused"], rng)
    for seat in hidden:
        data["hands"][seat] = refill.take(len(data["hands"][seat]))
    data["deck"] = refill.take(len(data["deck"]))
    data["unused"] = refill.take(len(data["unused"]))
    refill.check_used()
    for pile in data["piles"]:
        pile.sort()  # the true order never shows in a sample
        rng.shuffle(pile)
    data["rng"] = reseeded(rng)
    return state.game.state_from_json(data)
