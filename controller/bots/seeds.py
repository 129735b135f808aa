"""Seeds for bots and games derived from one run seed, so a whole run replays from a single number
(the self-play summary, the physical harness and the service's bot seats all use these)."""

from __future__ import annotations


def game_seed(seed: int, index: int) -> int:
    """The seed of game number `index` in a run started with `seed`."""
    return seed * 100_003 + index


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in `seat` of a game played with `seed`."""
    return seed * 16 + seat
