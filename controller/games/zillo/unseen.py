"""Zillo as one seat may imagine it: the cards it cannot see dealt anew (see `State.sample_unseen`)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from controller.games.unseen import Refill, reseeded, seats_of

if TYPE_CHECKING:
    from controller.games.zillo.state import ZilloState


def sample_unseen(state: ZilloState, player: int | frozenset[int], rng: random.Random) -> ZilloState:
    """Other hands, the pile below a card turned up, and the cards others discarded face down (ZE-8),
    dealt from the cards `player` cannot place; the random state that decides the next shuffle drawn
    anew. What the seat sees is docs/games/zillo.md's "Hidden information"."""
    data = state.to_json()
    if data.get("hands") is None:  # physical cards: the engine knows no hand to sample
        return state
    seats = seats_of(player)
    unseen = set.intersection(*(set(state.unseen_by(seat)) for seat in seats))
    refill = Refill(unseen, rng)
    data["hands"] = [hand if seat in seats else refill.take(len(hand)) for seat, hand in enumerate(data["hands"])]
    pile = data["pile"]
    turned = state.face_up() is not None
    data["pile"] = refill.take(len(pile) - 1) + pile[-1:] if turned else refill.take(len(pile))
    for entry in data["played"]:
        if not entry["shown"] and entry["player"] not in seats:
            entry["card"] = refill.take(1)[0]
    refill.check_used()
    data["random"] = reseeded(rng).to_json()
    return state.game.state_from_json(data)
