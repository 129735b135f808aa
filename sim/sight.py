"""What the virtual hands know of a move without asking the tracker: which pieces it moves, and
whether any sensor sees it.

A person at the board knows the rules and sees the pieces; they do not read the tracker's tables.
The hands work the same way, from the rules engine and the board map, so the tracker builds its own
candidate tables inside its own steps, as on the real board, and `tafel bench` times them there.
"""

from __future__ import annotations

from collections import OrderedDict

from controller.games import Action, Occupancy, State
from controller.games.footprint import Footprint, footprint
from controller.table.board import BoardMap


class MoveSight:
    """Footprints and visibility of actions on one board, remembered for the latest few states (a
    move's hands look at the actions of the state it is played in)."""

    def __init__(self, board: BoardMap, keep: int = 4) -> None:
        self.board = board
        self._keep = keep
        # id of the state -> (the state, kept so its id cannot be reused; action -> (footprint, seen))
        self._known: OrderedDict[int, tuple[State, dict[Action, tuple[Footprint, bool]]]] = OrderedDict()

    def _look(self, state: State, action: Action) -> tuple[Footprint, bool]:
        entry = self._known.get(id(state))
        if entry is None or entry[0] is not state:
            entry = (state, {})
            self._known[id(state)] = entry
            if len(self._known) > self._keep:
                self._known.popitem(last=False)
        else:
            self._known.move_to_end(id(state))
        known = entry[1].get(action)
        if known is None:
            before = state.occupancy()
            after = state.apply(action).occupancy()
            known = entry[1][action] = (footprint(before, after), self._sensed(before, after))
        return known

    def _sensed(self, before: Occupancy, after: Occupancy) -> bool:
        """Whether some sensor reads differently after than before: on a field whose pieces changed."""
        board = self.board
        channel_of, reading = board.channel_of, board.reading
        for cell in before.keys() | after.keys():
            old, new = before.get(cell, ()), after.get(cell, ())
            if (
                old != new
                and cell in channel_of
                and reading([piece.magnet for piece in old]) != reading([piece.magnet for piece in new])
            ):
                return True
        return False

    def footprint(self, state: State, action: Action) -> Footprint:
        """Which pieces `action` moves in `state`."""
        return self._look(state, action)[0]

    def is_invisible(self, state: State, action: Action) -> bool:
        """Whether no sensor sees `action` in `state` (it must be declared)."""
        return not self._look(state, action)[1]
