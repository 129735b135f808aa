"""Seeded randomness that lives inside a state: the same seed and draws always give the same game.

A `SeededRandom` is a value (seed + number of draws so far). Every draw returns the result and the
next value, so a state that holds one stays immutable and round-trips through JSON exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class SeededRandom:
    seed: int
    draws: int = 0

    def _generator(self) -> random.Random:
        # String seeds are hashed with SHA-512 by `random`, so this is stable across runs and
        # independent of PYTHONHASHSEED.
        return random.Random(f"tafel/{self.seed}/{self.draws}")

    def _next(self) -> SeededRandom:
        return SeededRandom(self.seed, self.draws + 1)

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], SeededRandom]:
        """A shuffled copy of `items` and the advanced random state."""
        order = list(items)
        self._generator().shuffle(order)
        return tuple(order), self._next()

    def below(self, n: int) -> tuple[int, SeededRandom]:
        """A uniform integer in `range(n)` and the advanced random state."""
        if n <= 0:
            raise ValueError(f"cannot draw below {n}")
        return self._generator().randrange(n), self._next()

    def choice(self, items: Sequence[T]) -> tuple[T, SeededRandom]:
        index, after = self.below(len(items))
        return items[index], after

    def to_json(self) -> dict[str, int]:
        return {"seed": self.seed, "draws": self.draws}

    @classmethod
    def from_json(cls, data: Any) -> SeededRandom:
        if not isinstance(data, dict) or not isinstance(data.get("seed"), int) or not isinstance(
            data.get("draws"), int
        ):
            raise ValueError(f"random state must be {{'seed': int, 'draws': int}}, got {data!r}")
        return cls(data["seed"], data["draws"])
