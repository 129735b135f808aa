"""The candidate tables the tracker keeps: the few most recently used.

A table evaluates a position's actions as the evidence asks for them (candidates.py). The tracker
needs the current position's, the one before it (a take-back, a correction) and a successor or two
(a fast reply, a move moved on); older tables are dropped, and the state of a dropped table forgets
its legal actions (`State.forget_derived`), so memory stays bounded over any game length and a long
game's history weighs only its positions.
"""

from __future__ import annotations

from controller.games import State
from controller.table.board import BoardMap
from controller.table.candidates import CandidateTable

TABLES_KEPT = 6


class TableCache:
    """The most recently used candidate tables, by state."""

    def __init__(self, board: BoardMap, kept: int = TABLES_KEPT) -> None:
        self.board = board
        self.kept = kept
        self._tables: dict[int, CandidateTable] = {}

    def table(self, state: State, current: State) -> CandidateTable:
        """The table of `state` (made if need be); `current` is the game's position, whose state
        never forgets its legal actions."""
        key = id(state)
        cached = self._tables.pop(key, None)
        if cached is None or cached.state is not state:
            cached = CandidateTable(state, self.board)
            while len(self._tables) >= self.kept:
                evicted = self._tables.pop(next(iter(self._tables)))  # the least recently used
                if evicted.state is not current:
                    evicted.state.forget_derived()
        self._tables[key] = cached
        return cached

    def clear(self) -> None:
        self._tables.clear()
