"""Dealing what a seat cannot see anew, for the games with hidden cards (`State.sample_unseen`)."""

from __future__ import annotations

import random
from collections.abc import Iterable

from controller.games.rng import SeededRandom


class Refill:
    """The cards a seat cannot see, shuffled, handed out place by place; every one must be used, so a
    sample holds exactly the cards of the real state."""

    def __init__(self, cards: Iterable[str], rng: random.Random) -> None:
        self._cards = sorted(cards)  # where each card really is never shows in a sample
        rng.shuffle(self._cards)

    def take(self, count: int) -> list[str]:
        if count > len(self._cards):
            raise ValueError(f"hidden cards do not add up: {count} wanted, {len(self._cards)} left")
        taken, self._cards = self._cards[:count], self._cards[count:]
        return taken

    def check_used(self) -> None:
        if self._cards:
            raise ValueError(f"hidden cards do not add up: {len(self._cards)} left over")


def seats_of(player: int | frozenset[int]) -> frozenset[int]:
    """The seats a sample is for: one seat, or several seen together (one board's seats)."""
    return frozenset((player,)) if isinstance(player, int) else player


def reseeded(rng: random.Random) -> SeededRandom:
    """A random state drawn anew: future shuffles are as unknown to the seat as the cards."""
    return SeededRandom(rng.randrange(2**31))
