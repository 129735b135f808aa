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
# Effects a quiet scan weighs ahead (CandidateTable.weigh_ahead): a few, so no quiet scan waits long, and
# a position's are all weighed within a few hundred milliseconds, while the last move settles.
WEIGHED_PER_QUIET_SCAN = 6


class TableCache:
    """The most recently used candidate tables, by state."""

    def __init__(self, board: BoardMap, kept: int = TABLES_KEPT) -> None:
        self.board = board
        self.kept = kept
        self._tables: dict[int, CandidateTable] = {}
        self._prepared: State | None = None  # the position quiet scans work for (`work_ahead`)
        self._weighing: CandidateTable | None = None  # its table, while quiet scans weigh it ahead

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

    def indexed(self, state: State) -> bool:
        """Whether the table of `state` has listed its legal actions."""
        cached = self._tables.get(id(state))
        return cached is not None and cached.state is state and cached.indexed

    def work_ahead(self, shown: State, current: State) -> bool:
        """On a quiet scan, a little of the work the next changed scans may need, for `shown` (the
        position the LEDs show; `current` is the game's); whether there was any left. The first
        quiet scan in a position lists its legal actions and indexes them by the fields they reach,
        the ones after it weigh its effects, a few each. Nobody waits on a quiet scan, and the first
        piece lifted or card shown then finds its matching and hints worked out (at worst it weighs
        only the actions that reach it), so its LEDs answer at once."""
        if self._prepared is not shown:
            self._prepared = shown
            self._weighing = None
            if not shown.is_terminal():
                self._weighing = self.table(shown, current)
                self._weighing.prepare()
            return True
        if self._weighing is None:
            return False
        if self._weighing.weigh_ahead(WEIGHED_PER_QUIET_SCAN):
            self._weighing = None
        return True

    def clear(self) -> None:
        self._tables.clear()
