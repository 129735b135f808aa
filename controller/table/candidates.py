"""The candidate table of one game state: the readings the board should show, and for the legal
actions the evidence asks about, the readings each would change (its *mismatch*), its successor and
its footprint.

Matching is driven by the evidence. Each legal action names the fields it may change
(`State.action_reach`, cheap: no action is played for it), and the table keeps an index from sensor
channel to the actions that may change it. A settled board that differs from the game on channels C
can only be an action that reaches every channel of C, so only those few actions are played out and
compared; the rest are never evaluated. Actions with the same effect on the pieces
(`State.action_effect`: in Zillo the same move allowed by several cards) are weighed once, and each
evaluation is kept, so nothing is computed twice in a state. A game without `action_reach` has every
action weighed for every piece of evidence (its tables are small).
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable

from controller.games import Action, Cell, Occupancy, State
from controller.games.footprint import Footprint, footprint
from controller.table.board import BoardMap
from controller.table.tracker_types import Mismatch, unmasked

_ANYWHERE = None  # an action whose reach the game does not name: weighed for every piece of evidence


class CandidateTable:
    """Everything the tracker needs about one state, computed on first use: its expected readings,
    its legal actions with the channels each may change, and per action (when asked) its mismatch,
    successor and footprint."""

    __slots__ = (
        "_anywhere",
        "_by_channel",
        "_effect",
        "_effects",
        "_footprints",
        "_invisible",
        "_legal",
        "_matches",
        "_mismatch",
        "_occupancy_after",
        "_order",
        "_reach",
        "_successor",
        "_unseen",
        "board",
        "expected",
        "occupancy",
        "state",
    )

    def __init__(self, state: State, board: BoardMap) -> None:
        self.state = state
        self.board = board
        self.occupancy: Occupancy = state.occupancy()
        self.expected: tuple[int, ...] = board.expected(self.occupancy)
        self._legal: tuple[Action, ...] | None = None
        self._order: dict[Action, int] = {}
        self._reach: list[frozenset[int] | None] = []
        self._effect = state.action_effect
        self._effects: dict[Hashable, frozenset[int] | None] = {}  # effect -> its reach, in channels
        self._by_channel: dict[int, list[int]] = {}
        self._anywhere: list[int] = []
        # Keyed by effect: actions that move the same pieces the same way share them.
        self._mismatch: dict[Hashable, Mismatch] = {}
        self._occupancy_after: dict[Hashable, Occupancy] = {}
        self._footprints: dict[Hashable, Footprint] = {}
        self._unseen: dict[Hashable, bool] = {}
        self._successor: dict[Action, State] = {}
        self._matches: dict[tuple[Mismatch, frozenset[int]], list[Action]] = {}
        self._invisible: list[Action] | None = None

    # --- the legal actions and where they reach ----------------------------------------------------
    @property
    def actions(self) -> tuple[Action, ...]:
        """The legal actions, in the game's order (none once the game is over)."""
        if self._legal is None:
            self._index()
        assert self._legal is not None
        return self._legal

    def is_legal(self, action: Action) -> bool:
        if self._legal is None:
            self._index()
        return action in self._order

    def _index(self) -> None:
        """List the legal actions and index them by the channels they may change."""
        state = self.state
        legal = () if state.is_terminal() else tuple(state.legal_actions())
        channel_of = self.board.channel_of
        by_channel = self._by_channel
        effects = self._effects
        effect_of = self._effect
        for number, action in enumerate(legal):
            self._order[action] = number
            effect = effect_of(action)
            if effect in effects:
                channels = effects[effect]
            else:
                cells = state.action_reach(action)
                channels = None if cells is _ANYWHERE else frozenset(channel_of[c] for c in cells if c in channel_of)
                effects[effect] = channels
            self._reach.append(channels)
            if channels is _ANYWHERE:
                self._anywhere.append(number)
                continue
            for channel in channels:
                by_channel.setdefault(channel, []).append(number)
        self._legal = legal

    def reaching(self, channels: Collection[int]) -> list[Action]:
        """The actions that may change every one of `channels` (all actions for none), in legal order:
        the only ones whose mismatch can cover those channels."""
        legal = self.actions
        if not channels:
            return list(legal)
        lists = [self._by_channel.get(channel, ()) for channel in channels]
        fewest = min(lists, key=len)
        reach = self._reach
        wanted = frozenset(channels)
        numbers = [number for number in fewest if wanted <= reach[number]]  # type: ignore[operator]
        if self._anywhere:
            numbers = sorted(numbers + self._anywhere)
        return [legal[number] for number in numbers]

    def reaching_any(self, channels: Iterable[int]) -> list[Action]:
        """The actions that may change at least one of `channels`, in legal order."""
        legal = self.actions
        numbers = set(self._anywhere)
        for channel in channels:
            numbers.update(self._by_channel.get(channel, ()))
        return [legal[number] for number in sorted(numbers)]

    # --- per action, on first use --------------------------------------------------------------------
    def mismatch(self, action: Action) -> Mismatch:
        """The (channel, reading) pairs where the board after the legal `action` differs from now."""
        found = self._mismatch.get(self._effect(action))
        if found is None:
            found = self._evaluate(action)
        return found

    def _evaluate(self, action: Action) -> Mismatch:
        occupancy = self.occupancy
        after_occupancy = self.occupancy_after(action)
        board = self.board
        channel_of = board.channel_of
        model = board.model
        expected = self.expected
        pairs = []
        for cell in occupancy.keys() | after_occupancy.keys():
            pieces = after_occupancy.get(cell)
            if occupancy.get(cell) == pieces:
                continue
            channel = channel_of.get(cell)
            if channel is None:
                continue
            value = model([piece.magnet for piece in pieces or ()])
            if value != expected[channel]:
                pairs.append((channel, value))
        mismatch = frozenset(pairs)
        self._mismatch[self._effect(action)] = mismatch
        return mismatch

    def occupancy_after(self, action: Action) -> Occupancy:
        effect = self._effect(action)
        found = self._occupancy_after.get(effect)
        if found is None:
            successor = self._successor.get(action)
            found = successor.occupancy() if successor is not None else self.state.occupancy_after(action)
            self._occupancy_after[effect] = found
        return found

    def successor(self, action: Action) -> State:
        """The state after the legal `action`."""
        found = self._successor.get(action)
        if found is None:
            found = self.state.apply(action)
            self._successor[action] = found
        return found

    def footprint(self, action: Action) -> Footprint:
        """Which pieces the action moves."""
        effect = self._effect(action)
        found = self._footprints.get(effect)
        if found is None:
            found = footprint(self.occupancy, self.occupancy_after(action))
            self._footprints[effect] = found
        return found

    def unseen_placement(self, action: Action) -> bool:
        """Whether the action may put a piece where no sensor notices it arrive (see `Tracker`)."""
        effect = self._effect(action)
        found = self._unseen.get(effect)
        if found is None:
            found = self._has_unseen_placement(action)
            self._unseen[effect] = found
        return found

    def _has_unseen_placement(self, action: Action) -> bool:
        moves = self.footprint(action).moves
        origins = {move.origin for move in moves}
        arriving: dict[Cell, dict[Cell | None, list[int]]] = {}  # target -> origin -> magnets
        for move in moves:
            if move.target is not None and move.target not in origins:
                arriving.setdefault(move.target, {}).setdefault(move.origin, []).append(move.piece.magnet)
        model = self.board.model
        after = self.occupancy_after(action)
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

    # --- questions the evidence asks -----------------------------------------------------------------
    def matching(self, evidence: Mismatch, masked: Collection[int] = ()) -> list[Action]:
        """The actions whose mismatch is exactly `evidence` (a non-empty one), with the `masked`
        channels (stuck sensors) left out of both."""
        key = (evidence, frozenset(masked))
        found = self._matches.get(key)
        if found is None:
            reaching = self.reaching([channel for channel, _ in evidence])
            found = [action for action in reaching if unmasked(self.mismatch(action), masked) == evidence]
            self._matches[key] = found
        return found

    @property
    def invisible(self) -> list[Action]:
        """The actions no sensor sees (they must be declared). Weighs every action, once."""
        if self._invisible is None:
            self._invisible = [action for action in self.actions if not self.mismatch(action)]
        return self._invisible

    @property
    def evaluated(self) -> int:
        """How many effects have been weighed in this table."""
        return len(self._mismatch)


def chance_count(state: State) -> int:
    """How many hidden random events a state has seen (games with randomness say so)."""
    count = getattr(state, "chance_count", None)
    return count() if callable(count) else 0
