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

from controller.games import Action, Cell, Occupancy, Piece, State
from controller.games.base import changed_fields
from controller.games.footprint import Footprint, footprint
from controller.table.board import BoardMap
from controller.table.tracker_types import HintKind, Mismatch, unmasked

_ANYWHERE = None  # an action whose reach the game does not name: weighed for every piece of evidence
NARROW_REACH = 3  # fields a narrow effect may reach: a move's two and the home of a piece it takes


class CandidateTable:
    """Everything the tracker needs about one state, computed on first use: its expected readings,
    its legal actions with the channels each may change, and per action (when asked) its mismatch,
    successor and footprint."""

    __slots__ = (
        "_anywhere",
        "_by_card",
        "_by_channel",
        "_changes",
        "_effect",
        "_effects",
        "_footprints",
        "_hidden",
        "_invisible",
        "_legal",
        "_matches",
        "_members",
        "_mismatch",
        "_order",
        "_reach",
        "_slot_of",
        "_successor",
        "_unseen",
        "_unweighed",
        "board",
        "expected",
        "lift_hints",
        "occupancy",
        "state",
    )

    def __init__(self, state: State, board: BoardMap) -> None:
        self.state = state
        self.board = board
        self.occupancy: Occupancy = state.occupancy()
        self.expected: tuple[int, ...] = board.expected(self.occupancy)
        self._legal: tuple[Action, ...] | None = None
        self._order: frozenset[Action] | None = None
        self._effect = state.action_effect
        # The index is by effect (actions with one effect reach the same fields): its number, the
        # channels it may change and its actions' numbers in legal order.
        self._effects: dict[Hashable, int] = {}
        self._reach: list[frozenset[int] | None] = []
        self._members: list[list[int]] = []
        self._by_channel: dict[int, list[int]] = {}  # channel -> effects that may change it
        self._anywhere: list[int] = []  # effects whose reach the game does not name
        self._by_card: dict[str | None, set[int]] = {}  # card -> the numbers of the actions that play it
        # Each legal action's effect number, by the action's identity (see `_slot`).
        self._slot_of: dict[int, int] = {}
        # Keyed by effect (`_slot`): actions that move the same pieces the same way share them.
        self._mismatch: dict[Hashable, Mismatch] = {}
        self._changes: dict[Hashable, Occupancy] = {}
        self._footprints: dict[Hashable, Footprint] = {}
        self._unseen: dict[Hashable, bool] = {}
        self._successor: dict[Action, State] = {}
        self._matches: dict[tuple[Mismatch, frozenset[int]], list[Action]] = {}
        self._invisible: list[Action] | None = None
        self._hidden: dict[frozenset[int], list[Action]] = {}  # masked channels -> the actions they hide
        self._unweighed: list[int] | None = None  # effects `weigh_ahead` has still to weigh, last first
        # What the LEDs show for one lifted field (channel, its reading, the card shown), once worked
        # out (guidance.lifted_hints): a piece in the air stays lifted over many changed scans.
        self.lift_hints: dict[tuple[int, int, str | None], dict[Cell, HintKind]] = {}

    # --- the legal actions and where they reach ----------------------------------------------------
    @property
    def actions(self) -> tuple[Action, ...]:
        """The legal actions, in the game's order (none once the game is over)."""
        if self._legal is None:
            self._index()
        assert self._legal is not None
        return self._legal

    @property
    def indexed(self) -> bool:
        """Whether the legal actions are listed and indexed (`prepare`)."""
        return self._legal is not None

    def prepare(self) -> None:
        """List the legal actions and index them now, rather than when first asked."""
        if self._legal is None:
            self._index()

    def weigh_ahead(self, count: int) -> bool:
        """Weigh up to `count` more effects (mismatch and footprint) before anyone asks, widest
        first; True once all are weighed. Quiet scans call it, a few effects each, so that the
        changed scans find their answers ready. An effect that reaches many fields (a Zillo shift
        carries every piece of its part) costs as much to weigh as several moves, and a lifted piece
        may be reached by dozens of them: those are weighed. Narrow ones (a move's two fields and a
        home) are weighed only where actions play cards: a card shown lights all its moves at once,
        while a lift asks about the few that reach its field, and most are never asked about.
        Effects whose reach the game does not name (a handful of actions) are weighed when asked."""
        pending = self._unweighed
        if pending is None:
            if self._legal is None:
                self._index()
            reach = self._reach
            fewest = 1 if self.cards else NARROW_REACH + 1  # the fields an effect weighed ahead reaches
            chosen = [effect for effect, channels in enumerate(reach) if channels and len(channels) >= fewest]
            # Last first: the narrowest at the front, and of one width the later in legal order.
            pending = self._unweighed = sorted(chosen, key=lambda effect: (len(reach[effect] or ()), -effect))
        legal, members = self._legal, self._members
        assert legal is not None
        for _ in range(min(count, len(pending))):
            action = legal[members[pending.pop()][0]]
            self.mismatch(action)
            self.footprint(action)
        return not pending

    def is_legal(self, action: Action) -> bool:
        if self._order is None:
            self._order = frozenset(self.actions)
        return action in self._order

    def _index(self) -> None:
        """List the legal actions and index their effects by the channels they may change."""
        state = self.state
        legal = () if state.is_terminal() else tuple(state.legal_actions())
        channel_of = self.board.channel_of
        by_channel = self._by_channel
        effects = self._effects
        members = self._members
        slot_of = self._slot_of
        effect_of = self._effect
        card_of = state.action_card
        by_card = self._by_card
        for number, action in enumerate(legal):
            by_card.setdefault(card_of(action), set()).add(number)
            effect = effect_of(action)
            known = effects.get(effect)
            if known is not None:
                members[known].append(number)
                slot_of[id(action)] = known
                continue
            known = effects[effect] = slot_of[id(action)] = len(members)
            members.append([number])
            cells = state.action_reach(action)
            if cells is _ANYWHERE:
                self._reach.append(None)
                self._anywhere.append(known)
                continue
            channels = frozenset(channel_of[c] for c in cells if c in channel_of)
            self._reach.append(channels)
            for channel in channels:
                by_channel.setdefault(channel, []).append(known)
        self._legal = legal

    @property
    def cards(self) -> frozenset[str]:
        """The cards the legal actions play (`State.action_card`; none in a game without cards)."""
        if self._legal is None:
            self._index()
        return frozenset(card for card in self._by_card if card is not None)

    def card_actions(self, card: str) -> tuple[Action, ...]:
        """The legal actions that play `card`, in legal order."""
        legal = self.actions
        return tuple(legal[number] for number in sorted(self._by_card.get(card, ())))

    def reaching(self, channels: Collection[int]) -> list[Action]:
        """The actions that may change every one of `channels` (all actions for none), in legal order:
        the only ones whose mismatch can cover those channels."""
        if not channels:
            return list(self.actions)
        return self._in_legal_order(self._reaching_effects(channels))

    def reaching_groups(self, channels: Collection[int], card: str | None = None) -> list[list[Action]]:
        """`reaching` (only the actions that play `card`, when one is named), as groups of actions
        with one effect: each group weighs as one. Groups come in the legal order of their first
        action."""
        legal = self.actions
        members = self._members
        effects = self._reaching_effects(channels) if channels else range(len(members))
        groups = (members[effect] for effect in effects)
        if card is not None:
            playing = self._by_card.get(card, set())
            groups = ([number for number in group if number in playing] for group in groups)
        return [[legal[number] for number in group] for group in sorted(group for group in groups if group)]

    def _reaching_effects(self, channels: Collection[int]) -> list[int]:
        if self._legal is None:
            self._index()
        fewest = min((self._by_channel.get(channel, ()) for channel in channels), key=len)
        reach = self._reach
        wanted = frozenset(channels)
        return [effect for effect in fewest if wanted <= reach[effect]] + self._anywhere  # type: ignore[operator]

    def reaching_any(self, channels: Iterable[int]) -> list[Action]:
        """The actions that may change at least one of `channels`, in legal order."""
        if self._legal is None:
            self._index()
        found = set(self._anywhere)
        for channel in channels:
            found.update(self._by_channel.get(channel, ()))
        return self._in_legal_order(found)

    def _slot(self, action: Action) -> Hashable:
        """The key an action's evaluations are kept under: its effect's number in the index. A legal
        action of the list is found by identity (the list keeps it alive, so its id stays its own),
        sparing the game's `action_effect` at every question; an equal action from elsewhere by its
        effect."""
        if self._legal is None:
            self._index()
        slot = self._slot_of.get(id(action))
        if slot is None:
            effect = self._effect(action)
            slot = self._effects.get(effect)
            if slot is None:
                return effect  # a new effect: its own key until indexed
        return slot

    def _in_legal_order(self, effects: Iterable[int]) -> list[Action]:
        legal = self._legal
        assert legal is not None
        members = self._members
        return [legal[number] for number in sorted(number for effect in effects for number in members[effect])]

    # --- per action, on first use --------------------------------------------------------------------
    def mismatch(self, action: Action) -> Mismatch:
        """The (channel, reading) pairs where the board after the legal `action` differs from now."""
        slot = self._slot(action)
        found = self._mismatch.get(slot)
        if found is None:
            found = self._evaluate(action, slot)
        return found

    def _evaluate(self, action: Action, slot: Hashable) -> Mismatch:
        occupancy = self.occupancy
        board = self.board
        channel_of = board.channel_of
        model = board.model
        expected = self.expected
        pairs = []
        for cell, pieces in self._changes_of(action, slot).items():
            if occupancy.get(cell, ()) == pieces:
                continue
            channel = channel_of.get(cell)
            if channel is None:
                continue
            value = model([piece.magnet for piece in pieces])
            if value != expected[channel]:
                pairs.append((channel, value))
        mismatch = frozenset(pairs)
        self._mismatch[slot] = mismatch
        return mismatch

    def changes(self, action: Action) -> Occupancy:
        """What stands after the legal `action` on the fields it changes (`()`: emptied); kept per
        effect instead of the whole board after it."""
        return self._changes_of(action, self._slot(action))

    def _changes_of(self, action: Action, slot: Hashable) -> Occupancy:
        found = self._changes.get(slot)
        if found is None:
            successor = self._successor.get(action)
            if successor is not None:
                found = changed_fields(self.occupancy, successor.occupancy())
            else:  # the game names them (most without building the board after the action)
                found = self.state.occupancy_changes(action)
            self._changes[slot] = found
        return found

    def pieces_after(self, action: Action, cell: Cell) -> tuple[Piece, ...]:
        """What stands on `cell` after the legal `action`."""
        changes = self.changes(action)
        return changes[cell] if cell in changes else self.occupancy.get(cell, ())

    def successor(self, action: Action) -> State:
        """The state after the legal `action`."""
        found = self._successor.get(action)
        if found is None:
            found = self.state.apply(action)
            self._successor[action] = found
        return found

    def footprint(self, action: Action) -> Footprint:
        """Which pieces the action moves."""
        slot = self._slot(action)
        found = self._footprints.get(slot)
        if found is None:
            changes = self._changes_of(action, slot)
            occupancy = self.occupancy
            before = {cell: occupancy[cell] for cell in changes if cell in occupancy}
            found = footprint(before, changes)
            self._footprints[slot] = found
        return found

    def channels(self, action: Action) -> frozenset[int]:
        """The channels of every field the action moves a piece off or onto (captured pieces' homes
        included), whether or not its reading changes there: a Klotz capture's target reads full
        before and after it, yet the move is not made while it reads empty."""
        channel_of = self.board.channel_of
        return frozenset(channel_of[cell] for cell in self.footprint(action).changed if cell in channel_of)

    def unseen_placement(self, action: Action) -> bool:
        """Whether the action may put a piece where no sensor notices it arrive (see `Tracker`)."""
        slot = self._slot(action)
        found = self._unseen.get(slot)
        if found is None:
            found = self._has_unseen_placement(action)
            self._unseen[slot] = found
        return found

    def _has_unseen_placement(self, action: Action) -> bool:
        moves = self.footprint(action).moves
        origins = {move.origin for move in moves}
        arriving: dict[Cell, dict[Cell | None, list[int]]] = {}  # target -> origin -> magnets
        for move in moves:
            if move.target is not None and move.target not in origins:
                arriving.setdefault(move.target, {}).setdefault(move.origin, []).append(move.piece.magnet)
        model = self.board.model
        for target, groups in arriving.items():
            staying = [piece.magnet for piece in self.occupancy.get(target, ())]
            if not staying and len(groups) < 2:
                continue  # one group onto an empty field: its arrival is always seen
            final = [piece.magnet for piece in self.pieces_after(action, target)]
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
            legal, members = self.actions, self._members
            shown = [
                effect
                for effect in self._reaching_effects([channel for channel, _ in evidence])
                if unmasked(self.mismatch(legal[members[effect][0]]), masked) == evidence  # one weighs for all
            ]
            found = self._in_legal_order(shown)
            self._matches[key] = found
        return found

    @property
    def invisible(self) -> list[Action]:
        """The actions no sensor sees (they must be declared). Weighs every action, once."""
        if self._invisible is None:
            self._invisible = [action for action in self.actions if not self.mismatch(action)]
        return self._invisible

    def hidden(self, masked: Collection[int]) -> list[Action]:
        """The actions no trusted sensor sees: every field whose reading they change is one of the
        `masked` channels (failed sensors). Weighs every action, once per set of failed sensors."""
        key = frozenset(masked)
        found = self._hidden.get(key)
        if found is None:
            found = self._hidden[key] = [action for action in self.actions if not unmasked(self.mismatch(action), key)]
        return found

    @property
    def evaluated(self) -> int:
        """How many effects have been weighed in this table."""
        return len(self._mismatch)
