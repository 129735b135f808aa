"""Zodiac as one seat may imagine it: the cards it cannot see dealt anew (see `State.sample_unseen`)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from controller.games.unseen import Refill, reseeded, seats_of

if TYPE_CHECKING:
    from controller.games.zodiac.state import ZodiacState

UNKNOWN = "?"  # a card of a physical hand the controller has not seen


def sample_unseen(state: ZodiacState, player: int | frozenset[int], rng: random.Random) -> ZodiacState:
    """The other hands and the deck dealt anew from the cards among them; a hand shown to `player`
    (an offender's, to the player who chooses its penalty, ZO-E6) stays as it is."""
    data = state.to_json()
    if any(UNKNOWN in hand for hand in data["hands"]):  # physical cards: nothing to sample
        return state
    known = set(seats_of(player))
    for seat in seats_of(player):
        penalty = state.observation(seat).get("penalty") or {}
        if "shown" in penalty:
            known.add(penalty["offender"])
    hidden = [seat for seat in range(len(data["hands"])) if seat not in known]
    refill = Refill([card for seat in hidden for card in data["hands"][seat]] + data["deck"], rng)
    for seat in hidden:
        data["hands"][seat] = refill.take(len(data["hands"][seat]))
    data["deck"] = refill.take(len(data["deck"]))
    refill.check_used()
    data["rng"] = reseeded(rng)
    return state.game.state_from_json(data)
