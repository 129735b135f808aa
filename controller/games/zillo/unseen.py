"""Zillo as one seat may imagine it: the cards it cannot see dealt anew (see `State.sample_unseen`)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from controller.games.records import replaced
from controller.games.unseen import Refill, reseeded, seats_of
from controller.games.zillo.model import Played

if TYPE_CHECKING:
    from controller.games.zillo.state import ZilloState


def sample_unseen(state: ZilloState, player: int | frozenset[int], rng: random.Random) -> ZilloState:
    """Other hands, the pile below a card turned up, and the cards others discarded face down (ZE-8),
    dealt from the cards `player` cannot place; the random state that decides the next shuffle drawn
    anew. What the seat sees is docs/games/zillo.md's "Hidden information".

    Built from the position directly (a search samples once per simulation), not through the saved
    form, whose every check a file needs and a sample, dealt from the state's own cards, does not."""
    t = state.position
    if t.hands is None or t.pile is None:  # physical cards: the engine knows no hand to sample
        return state
    seats = seats_of(player)
    unseen = set.intersection(*(set(state.unseen_by(seat)) for seat in seats))
    refill = Refill(unseen, rng)
    hands = tuple(hand if seat in seats else tuple(refill.take(len(hand))) for seat, hand in enumerate(t.hands))
    turned = state.face_up() is not None
    pile = (*refill.take(len(t.pile) - 1), t.pile[-1]) if turned else tuple(refill.take(len(t.pile)))
    played = tuple(
        entry if entry.shown or entry.player in seats else Played(entry.player, refill.take(1)[0], False)
        for entry in t.played
    )
    refill.check_used()
    table = replaced(t, hands=hands, pile=pile, played=played, rng=reseeded(rng))
    return type(state)(state.game, table)
