"""The candidate table of one game state: the readings the board should show, and for every legal
action the readings it would change (its *mismatch*), its successor and its footprint.

Matching a settled board is then one dictionary look-up. The table is built in small slices on
quiet scans after a commit and finished the moment a match needs it.
"""

from __future__ import annotations

from controller.games import Action, Cell, Occupancy, State
from controller.games.footprint import Footprint, footprint
from controller.table.board import BoardMap
from controller.table.tracker_types import Mismatch


class CandidateTable:
    """Everything the tracker needs about one state: its expected readings at once, and every legal
    action's mismatch, successor and (on first use) footprint.

    The per-action part is built in small slices (`advance`) on quiet scans after a commit, and
    finished (`complete`) the moment a match needs it, so no single scan pays for all of it.
    """

    def __init__(self, state: State, board: BoardMap) -> None:
        self.state = state
        self.board = board
        self.occupancy: Occupancy = state.occupancy()
        self.expected: tuple[int, ...] = board.expected(self.occupancy)
        self.by_mismatch: dict[Mismatch, list[Action]] = {}
        self.mismatch_of: dict[Action, Mismatch] = {}
        self.successor: dict[Action, State] = {}
        self.invisible: list[Action] = []  # actions no sensor can see: they must be declared
        self.footprints: dict[Action, Footprint] = {}
        self.unseen: dict[Action, bool] = {}
        self.masked_index: dict[frozenset[int], dict[Mismatch, list[Action]]] = {}
        self._todo: list[Action] | None = None
        self._next = 0

    @property
    def done(self) -> bool:
        return self._todo is not None and self._next >= len(self._todo)

    def advance(self, budget: int) -> None:
        """Process up to `budget` more actions (listing the legal actions counts as one)."""
        if self._todo is None:
            self._todo = [] if self.state.is_terminal() else list(self.state.legal_actions())
            budget -= 1
        todo = self._todo
        end = min(len(todo), self._next + max(budget, 0))
        while self._next < end:
            self._add(todo[self._next])
            self._next += 1

    def complete(self) -> CandidateTable:
        if not self.done:
            self.advance(1 << 30)
        return self

    def _add(self, action: Action) -> None:
        after = self.state.apply(action)
        occupancy = self.occupancy
        after_occupancy = after.occupancy()
        board = self.board
        expected = self.expected
        pairs = []
        for cell in occupancy.keys() | after_occupancy.keys():
            pieces = after_occupancy.get(cell)
            if occupancy.get(cell) == pieces:
                continue
            channel = board.channel_of.get(cell)
            if channel is None:
                continue
            value = board.model([piece.magnet for piece in pieces or ()])
            if value != expected[channel]:
                pairs.append((channel, value))
        mismatch = frozenset(pairs)
        self.successor[action] = after
        self.mismatch_of[action] = mismatch
        if mismatch:
            self.by_mismatch.setdefault(mismatch, []).append(action)
        else:
            self.invisible.append(action)

    def unseen_placement(self, action: Action) -> bool:
        """Whether the action may put a piece where no sensor notices it arrive (see `Tracker`)."""
        found = self.unseen.get(action)
        if found is None:
            found = self._has_unseen_placement(action)
            self.unseen[action] = found
        return found

    def _has_unseen_placement(self, action: Action) -> bool:
        moves = self.footprint(action).moves
        origins = {move.origin for move in moves}
        arriving: dict[Cell, dict[Cell | None, list[int]]] = {}  # target -> origin -> magnets
        for move in moves:
            if move.target is not None and move.target not in origins:
                arriving.setdefault(move.target, {}).setdefault(move.origin, []).append(move.piece.magnet)
        model = self.board.model
        after = self.successor[action].occupancy()
        for target, groups in arriving.items():
            staying = [piece.magnet for piece in self.occupancy.get(target, ())]
            if not staying and len(groups) < 2:
                continue  # one group onto an empty field: its arrival is always seen
            final = [piece.magnet for piece in after.get(target, ())]
            reading = model(final)
            for magnets in groups.values():
                rest = list(final)
                for magnet in magnets:
                    rest.remove(magnet)
                if model(rest) == reading:
                    return True  # this group could be the last one down, and nobody would see it
        return False

    def footprint(self, action: Action) -> Footprint:
        """Which pieces the action moves (computed on first use: only hints need it)."""
        found = self.footprints.get(action)
        if found is None:
            found = footprint(self.occupancy, self.successor[action].occupancy())
            self.footprints[action] = found
        return found


def chance_count(state: State) -> int:
    """How many hidden random events a state has seen (games with randomness say so)."""
    count = getattr(state, "chance_count", None)
    return count() if callable(count) else 0
