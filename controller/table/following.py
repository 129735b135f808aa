"""How the board follows real hands between and across moves: a fast reply, a correction, a piece
moved on at once, a capture that starts like a take-back, a piece held in the air.

These are the tracker's judgements where one player's move ends and the next one begins. They are a
mixin of `Tracker` (they read its evidence and candidate tables); docs/tracker.md explains each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.games import Action, State
from controller.table.candidates import CandidateTable
from controller.table.confirmation import Confirmation
from controller.table.corrections import Correction, CorrectionWindow, ThenMove
from controller.table.debounce import Debouncer
from controller.table.evidence import older_apart
from controller.table.knocks import SLIDE_MS
from controller.table.tracker_types import TAKEBACK, Mismatch, TrackerConfig

if TYPE_CHECKING:
    from collections.abc import Callable

Choice = Action | str | Correction | ThenMove  # what the board may ask about


class FollowingHands:
    """The tracker's rules for the seams between moves (mixed into `Tracker`)."""

    _ask_corrections: bool = False
    _choice: Confirmation
    _waiting: bool = False
    _provisional: Choice | None
    _acknowledged: Action | None
    _correction: CorrectionWindow | None
    _expected: tuple[int, ...]
    _debouncer: Debouncer
    config: TrackerConfig
    _board: Callable[[], list[int]]
    _set_deadline: Callable[[int | None], None]
    _now: int
    _masked: dict[int, int]
    _history: list[State]
    _state: State
    _table: Callable[[State], CandidateTable]
    _matching: Callable[[CandidateTable, Mismatch], list[Action]]
    _unmasked: Callable[[Mismatch], Mismatch]
    _takeback_mismatch: Callable[[], Mismatch | None]

    def _fast_reply(self, mismatch: Mismatch, cands: CandidateTable) -> Action | None:
        """The acknowledged move, when the board shows it plus the start of the next player's move
        on other fields, and no bigger move of this player could be under way."""
        acked = self._provisional
        if acked is None or isinstance(acked, str | Correction | ThenMove) or not cands.is_legal(acked):
            return None
        return acked if self._followed([acked], mismatch, cands) else None

    def _asked_and_followed(self, mismatch: Mismatch, cands: CandidateTable) -> list[Action]:
        """The moves a pending confirmation asks about, when the next player has started meanwhile:
        the request stays (the answer commits the move chosen, then the rest is matched)."""
        asked = [a for a in self._choice.asking if not isinstance(a, str | Correction | ThenMove)]
        if not asked or len(asked) != len(self._choice.asking) or any(not cands.is_legal(a) for a in asked):
            return []
        return asked if self._followed(asked, mismatch, cands) else []

    def _followed(self, moves: list[Action], mismatch: Mismatch, cands: CandidateTable) -> bool:
        """Whether the board shows `moves`' common evidence plus, on other fields, the start of a
        move of the next player, and no bigger move of this player could be under way."""
        own = {self._unmasked(cands.mismatch(move)) for move in moves}
        if len(own) != 1:
            return False
        (own_pairs,) = own
        if not own_pairs or not own_pairs < mismatch:
            return False
        extra = mismatch - own_pairs
        channels = {channel for channel, _ in own_pairs}
        if any(channel in channels for channel, _ in extra):
            return False  # a field of the move changed again: it is not finished
        since = self._debouncer.stable_since
        if min(since[channel] for channel, _ in extra) < max(since[channel] for channel in channels):
            return False  # the next player starts after the move is made, not before it
        if self._young(extra):
            self._waiting = True
            return False  # a lift that may yet be half of a knocked piece's slide: wait and see
        bigger = cands.reaching([channel for channel, _ in mismatch])  # only these can cover the evidence
        if any(other not in moves and self._unmasked(cands.mismatch(other)) >= mismatch for other in bigger):
            return False  # this player may be making a bigger move
        # The next player starts by lifting a piece: every other change takes a piece away from a
        # field that holds one (checked against the readings, so no table of the next position is
        # built inside this scan).
        expected = cands.expected
        return all(
            expected[channel] and (abs(value) < abs(expected[channel]) or value * expected[channel] < 0)
            for channel, value in extra
        )

    def _corrections(self, mismatch: Mismatch) -> list[Action]:
        """Other actions of the player who made the last commit that the board now shows instead."""
        window = self._correction
        if window is None or not mismatch:
            return []
        # A lone lift younger than a slide may still be half of a knocked piece's slide: not yet
        # the next player's start.
        young = self._young(mismatch)
        if window.next_player_started(mismatch - young, self._expected):
            self._correction = None
            return []
        before = self._table(window.before)
        evidence = self._evidence_against(before.expected)
        if not evidence:
            # The board shows the position before the commit: a move no sensor sees may have
            # replaced it (a Catcher moved on onto its own stack under a binary sensor). It moves the
            # same piece, so it reaches a field of the committed move (a piece lifted anywhere else
            # would have shown that the next player started).
            moved_on = before.reaching_any(window.channels)
            found = window.alternatives([action for action in moved_on if not before.mismatch(action)])
        else:
            found = window.alternatives(self._matching(before, evidence))
            # (Never the committed move's own fields: setting those aside would replace the move
            # by anything at all.)
            since = self._debouncer.stable_since
            old = older_apart(dict(evidence), since) - window.channels if not found else frozenset()
            if old:  # an old change on other fields (a failed sensor) is not part of the correction
                recent = frozenset(pair for pair in evidence if pair[0] not in old)
                apart = before.matching(recent, {*self._masked, *old})
                found = window.alternatives(
                    [action for action in apart if not any(channel in old for channel, _ in before.mismatch(action))]
                )
        # The next player's move may be under way (a piece sent home first): then a correction is
        # only asked about, never assumed. (Checked only when there is a correction: it is costly.)
        self._ask_corrections = bool(found) and self._may_begin_a_move(
            mismatch, self._table(self._state), sent_home=True
        )
        return found

    def _young(self, evidence: Mismatch) -> Mismatch:
        """The changes too recent to judge alone: a lift may be the first half of a knocked piece's
        slide until its other half had time to settle. The tracker looks again when they are old."""
        wait = SLIDE_MS + self.config.debounce_ms
        young = frozenset(pair for pair in evidence if self._now - self._debouncer.stable_since[pair[0]] < wait)
        if young:
            self._set_deadline(min(self._debouncer.stable_since[channel] for channel, _ in young) + wait)
        return young

    def _unseen_correction(self, choice: Choice) -> bool:
        """Whether `choice` is a correction that must be asked, never assumed: to a move no sensor
        sees, or one the next player's move may be beginning."""
        window = self._correction
        if not isinstance(choice, Correction) or window is None:
            return False
        return self._ask_corrections or not self._table(window.before).mismatch(choice.action)

    def _moved_on(self, action: Action, cands: CandidateTable) -> list[ThenMove]:
        """A move the board shows that could also be the last acknowledged move followed at once by
        the next player's (the piece moved on): both are candidates, never silently one of them."""
        acked = self._acknowledged
        if acked is None or acked == action or not cands.is_legal(acked):
            return []
        following = self._table(cands.successor(acked))
        evidence = self._evidence_against(following.expected)
        return [ThenMove(acked, second) for second in self._matching(following, evidence)]

    def _evidence_against(self, expected: tuple[int, ...]) -> Mismatch:
        masked = self._masked
        return frozenset((ch, v) for ch, v in enumerate(self._board()) if v != expected[ch] and ch not in masked)

    def _declared(self, asked: Choice, text: str) -> bool:
        """Whether `text` names the candidate `asked` (in the state it would be played in)."""
        table = self._table_of(asked, self._table(self._state))
        return table.state.action_to_str(self._shown_action(asked)) == text.strip()

    def _shown_action(self, choice: Choice) -> Action:
        if isinstance(choice, Correction):
            return choice.action
        if isinstance(choice, ThenMove):
            return choice.second
        return choice

    def _table_of(self, choice: Choice, cands: CandidateTable) -> CandidateTable:
        if isinstance(choice, Correction) and self._correction is not None:
            return self._table(self._correction.before)
        if isinstance(choice, ThenMove):
            return self._table(cands.successor(choice.first))
        return cands

    def _successor_of(self, choice: Choice, cands: CandidateTable) -> State:
        if choice == TAKEBACK:
            return self._history[-1]
        return self._table_of(choice, cands).successor(self._shown_action(choice))

    def _capture_may_follow(self, cands: CandidateTable) -> bool:
        """Whether the position before the last move is also the start of a move of the player on
        turn (a captured piece sent home first, its field empty until the capturing piece lands):
        then a take-back needs a confirm, or the next change."""
        takeback = self._takeback_mismatch()
        return takeback is not None and bool(takeback) and self._may_begin_a_move(takeback, cands)

    def _may_begin_a_move(self, evidence: Mismatch, cands: CandidateTable, sent_home: bool = False) -> bool:
        """Whether `evidence` (against `cands`' state) may be the first part of one of its moves:
        every change is part of the move, or empties a field the move fills again (a captured or
        displaced piece sent home first). With `sent_home`, only when the evidence is exactly that:
        pieces taken from fields the move lands on, put down where the move sends them home."""
        channel_of = self.board.channel_of  # type: ignore[attr-defined]
        expected = cands.expected
        emptied = {channel for channel, value in evidence if value == 0}
        # Every changed channel is part of the move or a field it fills: only actions reaching them all.
        for action in cands.reaching([channel for channel, _ in evidence]):
            move = self._unmasked(cands.mismatch(action))
            if move == evidence or not all(pair in move or pair[0] in emptied for pair in evidence):
                continue
            # A field empty now must be one the move fills (a sensor that cannot tell the arriving
            # piece from the one that left sees no change there at the end).
            print_ = cands.footprint(action)
            filled = {channel_of.get(cell) for cell in print_.targets}
            if not all(pair in move or pair[0] in filled for pair in evidence):
                continue
            if sent_home:
                homes = {channel_of.get(cell) for cell in print_.returns}
                placed = {ch for ch, value in evidence if abs(value) > abs(expected[ch])}
                if not placed or not placed <= homes:
                    continue
            return True
        return False

    def _liftable(self, channel: int, value: int, cands: CandidateTable) -> bool:
        """Whether the reading is a piece lifted off the field that some legal move takes away."""
        was = self._expected[channel]
        if not was or not (abs(value) < abs(was) or value * was < 0):
            return False
        return any((channel, value) in cands.mismatch(action) for action in cands.reaching([channel]))
