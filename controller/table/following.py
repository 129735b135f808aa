"""How the board follows real hands between and across moves: a fast reply, a correction, a piece
moved on at once, a capture that starts like a take-back, a piece held in the air.

These are the tracker's judgements where one player's move ends and the next one begins: `Seams`, a
part of the tracker that reads its evidence and candidate tables through `SeamsEvidence`;
docs/tracker.md explains each.
"""

from __future__ import annotations

from typing import Protocol

from controller.games import Action, State
from controller.table.board import BoardMap
from controller.table.candidates import CandidateTable
from controller.table.confirmation import Confirmation
from controller.table.corrections import Correction, CorrectionWindow, ThenMove
from controller.table.decisions import Choice
from controller.table.evidence import SLIDE_MS, came, either_held, in_order, left, older_apart
from controller.table.explanations import Scene, at_the_seam, in_turn, knock_beside_a_move, set_apart
from controller.table.observed import Observed
from controller.table.tracker_types import TAKEBACK, Mismatch, TrackerConfig, differences

REACH_MS = 700  # a fast reply starts up to this long after the last placement, or this long before it
# A hand that let go of its piece on the way may rest this long before it goes on (people let go for
# 0.3-0.8 s, fumbling ones for up to 1.5 s): a lift of that piece this soon may still be its own hand's.
LET_GO_MS = 1_500


class SeamsEvidence(Protocol):
    """What the seams read of the tracker: its evidence, position and candidate tables."""

    config: TrackerConfig
    board: BoardMap
    _choice: Confirmation
    observed: Observed
    _now: int
    _history: list[State]
    _state: State

    def _set_deadline(self, when: int | None) -> None: ...
    def candidates_of(self, state: State) -> CandidateTable: ...
    def _takeback_mismatch(self) -> Mismatch | None: ...
    def _scene(self) -> Scene: ...


class Seams:
    """The tracker's rules for the seams between moves, as a part of it. It owns what it remembers
    between scans (the one explanation shown, the move acknowledged in this position, the last commit
    while it may be corrected) and reads the evidence through `SeamsEvidence`."""

    def __init__(self, evidence: SeamsEvidence) -> None:
        self.e = evidence
        self.provisional: Choice | None = None  # the one explanation shown (acknowledged or offered)
        self.acknowledged: Action | None = None  # the last move the LEDs acknowledged in this position
        self.acknowledged_at: int | None = None  # when it was first shown: its piece had landed by then
        # The last correction the LEDs acknowledged in this position (alone, or followed by the next
        # player's move): like `acknowledged`, a board that showed something unexplained since (a
        # piece let go on the way) does not make it forgotten.
        self.corrected: Correction | None = None
        self.corrected_at: int | None = None  # when it was first shown: its piece had landed by then
        self.correction: CorrectionWindow | None = None  # the last commit, while it may be corrected
        self.ask_corrections = False  # a correction found may be the next player's move: ask
        self.waiting = False  # the last judgement waits for a young change to grow old
        self.slid: dict[int, int] = {}  # channel -> when a piece slid off it, since the last commit
        # `unseen_now`'s last answer, asked again each scan while a correction waits to settle.
        self._unseen_now: tuple[CorrectionWindow, Action, State, frozenset[int], bool] | None = None

    def enter(self) -> None:
        """A new position: nothing shown, acknowledged or open to correction in it yet."""
        self.provisional = None
        self.correction = None
        self.acknowledge(None)
        self.corrected = None
        self.slid = {}

    def show_correction(self, correction: Correction) -> None:
        """The LEDs show `correction` as the last move corrected."""
        if correction != self.corrected:
            self.corrected, self.corrected_at = correction, self.e._now

    def acknowledge(self, move: Action | None) -> None:
        """The LEDs show `move` as the move of this position (None: no move is shown any more)."""
        if move != self.acknowledged:
            self.acknowledged, self.acknowledged_at = move, None if move is None else self.e._now

    def corrected_fields(self) -> frozenset[int]:
        """The fields of the correction the LEDs showed in this position, if any (its, the replaced move's)."""
        if self.corrected is None or self.correction is None:
            return frozenset()
        return self.e.candidates_of(self.correction.before).channels(self.corrected.action) | self.correction.channels

    def made_at(self, action: Action, now: int, changed: frozenset[int]) -> int:
        """When `action`, taken now, was made: when the board first showed it, if it did; else
        when the last of the readings it changes (`changed`) settled as it has them (a move asked
        and answered later: a reply made meanwhile came after it); else now (one no sensor sees)."""
        if self.acknowledged == action and self.acknowledged_at is not None:
            return self.acknowledged_at
        since = self.e.observed.debouncer.dating.since
        return min(now, max((since[channel] for channel in changed), default=now))

    def fast_reply(self, mismatch: Mismatch, candidates: CandidateTable) -> Action | Correction | None:
        """The acknowledged move, when the board shows it plus the start of the next player's move
        on other fields, no bigger move of this player could be under way, and the move's own fields
        have been still for the settle time (`still`). The same for an acknowledged correction."""
        acked = self.provisional
        if (
            acked is None
            or isinstance(acked, str | ThenMove)
            or (isinstance(acked, Correction) and not self.correction)
        ):
            return None
        table, action = self.table_of(acked, candidates), self.shown_action(acked)
        if not table.is_legal(action):
            return None
        settles = self.settles_at(acked, candidates)
        if settles > self.e._now:  # a slide the hand on its way may yet prove a knock: wait
            self.waiting = True
            self.e._set_deadline(settles)
            return None
        if not self.still(table.channels(action)):
            return None
        evidence = self.evidence_against(table.expected) if isinstance(acked, Correction) else mismatch
        return acked if self.followed([action], evidence, table) else None

    def still(self, channels: frozenset[int]) -> bool:
        """Whether the fields of a move have been still for the settle time (no raw change, however
        brief): the next player starting elsewhere does not show that the mover's hand has left the
        piece (it may graze its field and carry it back), nor is every lift elsewhere a hand (a
        sensor that drops out reads as one). Else wait until they have been (`waiting`)."""
        last_change = self.e.observed.debouncer.since
        due = max((last_change[channel] for channel in channels), default=0) + self.e.config.settle_ms
        if due <= self.e._now:
            return True
        self.waiting = True
        self.e._set_deadline(due)
        return False

    def reached_early(self, mismatch: Mismatch, candidates: CandidateTable) -> Action | None:
        """When nothing else explains the board: the one move it shows beside a lift on other fields
        that began while that move's piece was on its way, at most REACH_MS before it landed: the
        next player reaching for a piece early. Not a finished move yet (nothing shows the piece
        let go), so it is shown only: the reply landing makes both moves one explanation
        (`then_next`), the piece put back leaves the move alone. A reply that has not come by the
        time guidance is due is no reply: the board guides (a piece knocked off, say)."""
        guide_at = self.e.observed.since + self.e.config.guide_after_ms
        if self.e._now >= guide_at:
            return None
        expected = candidates.expected
        since = self.e.observed.debouncer.stable_since
        latest = max((since[channel] for channel, _ in mismatch), default=0)
        found: set[Action] = set()
        for pair in mismatch if len(mismatch) > 2 else ():
            if left(expected[pair[0]], pair[1]) and since[pair[0]] >= latest - REACH_MS:
                found.update(self.e.observed.matching(candidates, mismatch - {pair}))
        if len(found) != 1:
            return None
        (move,) = found
        if self.acknowledged not in (None, move) or not self.followed([move], mismatch, candidates, early=True):
            return None  # (a move shown before in this position stands: then_next reads after it)
        self.e._set_deadline(guide_at)
        return move

    def settles_at(self, choice: Choice, candidates: CandidateTable) -> int:
        """The earliest the one explanation may be taken: a slide read as a move waits until no
        hand can land beside it any more as the one that knocked it (knocks.DOUBT_MS); else 0."""
        if choice == TAKEBACK:
            return 0
        table = self.table_of(choice, candidates)
        return self.e.observed.knocks.settles_at(table.channels(self.shown_action(choice)))

    def asked_and_followed(self, mismatch: Mismatch, candidates: CandidateTable) -> list[Action]:
        """The moves a pending confirmation asks about, when the next player has started meanwhile:
        the request stays (the answer commits the move chosen, then the rest is matched)."""
        asked = [a for a in self.e._choice.asking if not isinstance(a, str | Correction | ThenMove)]
        if not asked or len(asked) != len(self.e._choice.asking) or any(not candidates.is_legal(a) for a in asked):
            return []
        return asked if self.followed(asked, mismatch, candidates) else []

    def followed(
        self, moves: list[Action], mismatch: Mismatch, candidates: CandidateTable, early: bool = False
    ) -> bool:
        """Whether the board shows `moves`' common evidence plus, on other fields, the start of a
        move of the next player, and no bigger move of this player could be under way. `early`: a
        start while the move's piece was still on its way counts too (not before the move began)."""
        own = {self.e.observed.unmasked(candidates.mismatch(move)) for move in moves}
        if len(own) != 1:
            return False
        (own_pairs,) = own
        if not own_pairs or not own_pairs < mismatch:
            return False
        extra = mismatch - own_pairs
        channels = {channel for channel, _ in own_pairs}
        touched = channels.union(*(candidates.channels(move) for move in moves))  # a capture's target too
        if any(channel in touched for channel, _ in extra):
            return False  # a field of the move changed again: it is not finished
        since = self.e.observed.debouncer.stable_since
        made = (min if early else max)(since[channel] for channel in channels)
        if min(since[channel] for channel, _ in extra) < made:
            return False  # the next player starts after the move is made (or begun), not before it
        if self.young(extra):
            self.waiting = True
            return False  # a lift that may yet be half of a knocked piece's slide: wait and see
        bigger = candidates.reaching([channel for channel, _ in mismatch])  # only these can cover the evidence
        if any(
            other not in moves and self.e.observed.unmasked(candidates.mismatch(other)) >= mismatch for other in bigger
        ):
            return False  # this player may be making a bigger move
        # The next player starts by lifting a piece: every other change takes a piece away from a
        # field that holds one (checked against the readings, so no table of the next position is
        # built inside this scan).
        expected = candidates.expected
        return all(left(expected[channel], value) for channel, value in extra)

    def corrected_then_next(self, scene: Scene) -> list[ThenMove]:
        """The correction acknowledged a moment ago, then a whole move of the next player after it:
        the next player answered the correction before it had settled (`then_next` for a move)."""
        shown = self.corrected
        if shown is None or self.correction is None:
            return []
        following = self.e.candidates_of(self.corrected_position(shown))
        evidence = self.evidence_against(following.expected)
        if not evidence:
            return []
        matches = self.e.observed.matching(following, evidence)
        seconds = in_turn(self.e.observed.expected, following, matches, scene, self.corrected_at)
        return [ThenMove(shown, second) for second in seconds]

    def last_move_read_again(self, mismatch: Mismatch, scene: Scene) -> list[Choice]:
        """The last move read otherwise: a reading shown before a correction, then the next player's
        move (the next player's start rules out corrections, not these); then the corrections of it."""
        earlier: list[Choice] = list(self.earlier_then_next(scene))
        corrections: list[Choice] = [Correction(action) for action in self.corrections(mismatch)]
        if not corrections and (window := self.correction) is not None:  # the next player reached early?
            corrections = [*at_the_seam(window, mismatch, scene, self.e.candidates_of, self.evidence_against)]
        return earlier + corrections

    def earlier_then_next(self, scene: Scene) -> list[ThenMove]:
        """A reading of the last move the board showed before a correction replaced it, then a whole
        move of the next player from there: the piece the correction took as moved on may have been
        the next player's, let go on the way (corrections.py)."""
        window = self.correction
        if window is None or not window.earlier:
            return []
        start = self.e.candidates_of(window.before).expected
        found: list[ThenMove] = []
        for shown in window.earlier:
            if shown.action == window.action:
                continue
            following = self.e.candidates_of(self.corrected_position(Correction(shown.action)))
            evidence = self.evidence_against(following.expected)
            if evidence:
                seconds = self.e.observed.matching(following, evidence)
                found.extend(
                    ThenMove(Correction(shown.action), second)
                    for second in in_turn(start, following, seconds, scene, shown.made_at)
                )
        return found

    def corrected_position(self, correction: Correction) -> State:
        """The position after `correction` replaces the last commit (the correction window's)."""
        window = self.correction
        assert window is not None
        return self.e.candidates_of(window.before).successor(correction.action)

    def card_started(self, mismatch: Mismatch) -> bool:
        """Whether a card shown for the move of this position marks the next player's start for the
        board now: shown before every change the board shows (one that may have been on the board
        when the card came, a scanner outage hiding when, is no part of the card's move, Z-6: the card
        comes first, and the changes may be the last mover's hand going on)."""
        return self.e._choice.card_first(self.e.observed.debouncer.began_by, (ch for ch, _ in mismatch))

    def corrections(self, mismatch: Mismatch) -> list[Action]:
        """Other actions of the player who made the last commit that the board now shows instead
        (none while the next player has started)."""
        window = self.correction
        if window is None or not mismatch:
            return []
        # A lone lift younger than a slide may still be half of a knocked piece's slide: not yet
        # the next player's start. (A young field that gained a piece is judged at once: it only
        # tells when the rest of the evidence was made, and a lift before it is the next player's.)
        expected = self.e.observed.expected
        young = {pair for pair in self.young(mismatch) if not came(expected[pair[0]], pair[1])}
        # Nor is a piece that slid one field (the last mover's hand may have bumped it), however long
        # it lies there: the field it left is judged by the change it made then.
        since = self.e.observed.debouncer.stable_since
        self.slid.update({channel: since[channel] for channel in self.e.observed.knocks.slid_from()})
        if not any(channel in window.channels for channel, _ in mismatch):
            # A correction moves the committed move's piece on (or back): a board that differs only
            # on other fields shows none. (So the next player's move, while the window stays open,
            # costs no search for one.)
            return []
        slid = {channel for channel, at in self.slid.items() if since[channel] == at}
        # A card shown for a move of this position (Z-6: the reader takes only the player on turn's)
        # is the next player starting as surely as a lift elsewhere.
        shown = self.card_started(mismatch)
        judged = frozenset(pair for pair in mismatch - young if pair[0] not in slid)
        started = shown or window.next_player_started(judged, expected, since)
        before = self.e.candidates_of(window.before)
        found = [] if shown else self._moved_on(window, before, mismatch)
        if started and found:
            # Unless the pieces lifted elsewhere are ones the moved-on piece takes (a capture: sent
            # home), in a correction that explains the whole board.
            elsewhere = {ch for ch, value in judged if ch not in window.channels and left(expected[ch], value)}
            started = not any(elsewhere <= self._taken_by(before, action) for action in found)
        if started:
            # No correction while the next player's hand is at it; the window stays open all the
            # same, until the next commit: a piece they lifted and put back on its field made no
            # move, and the mover may still correct theirs (corrections.py).
            return []
        # The next player's move may be under way (a piece sent home first): then a correction is
        # only asked about, never assumed. (Checked only when there is a correction: it is costly.)
        self.ask_corrections = bool(found) and self.may_begin_a_move(
            mismatch, self.e.candidates_of(self.e._state), sent_home=True
        )
        return found

    def _taken_by(self, table: CandidateTable, action: Action) -> set[int | None]:
        """The channels of the fields where `action` (in `table`) takes a piece."""
        return {self.e.board.channel_of.get(cell) for cell in table.footprint(action).captures}

    def _moved_on(self, window: CorrectionWindow, before: CandidateTable, mismatch: Mismatch) -> list[Action]:
        """The same player's other actions of the position before the commit (`before`) that the
        board shows instead: the committed move's piece moved on."""
        evidence = self.evidence_against(before.expected)
        if not evidence:
            # The board shows the position before the commit: a move no sensor sees may have
            # replaced it (a Catcher moved on onto its own stack under a binary sensor). It moves the
            # same piece, so it reaches a field of the committed move (a piece lifted anywhere else
            # would have shown that the next player started).
            moved_on = before.reaching_any(window.channels)
            found = window.alternatives([action for action in moved_on if not before.mismatch(action)])
        else:
            found = window.alternatives(self.e.observed.matching(before, evidence))
            # (Never the committed move's own fields: setting those aside would replace the move
            # by anything at all.)
            if not found:
                # An old change on other fields (a failed sensor), or a piece that came where no lift
                # pairs with it (a sensor sticking as the piece moved on lands), is not part of the
                # correction either (explanations.set_apart).
                debouncer = self.e.observed.debouncer
                old = older_apart(dict(evidence), debouncer.stable_since, debouncer.began_by) - window.channels
                apart = set_apart(evidence, old, before, self.e.observed.masked, window.channels)
                found = window.alternatives(apart)
        # A move that leaves every sensor as the committed one does is nothing the board shows instead
        # (the same Catcher moved under another card): no evidence of a correction.
        committed = before.mismatch(window.action)
        found = [action for action in found if before.mismatch(action) != committed]
        # The piece moved on from the committed move's fields landed where it could: not before it
        # left, and not sooner than a hand carries it (evidence.py).
        dating = self.e.observed.debouncer.dating
        if found and not in_order(mismatch, self.e.observed.expected, dating, self.e.observed.knocks.beside):
            return []
        return found

    def young(self, evidence: Mismatch) -> Mismatch:
        """The changes too recent to judge alone: a lift may be the first half of a knocked piece's
        slide until its other half had time to settle. The tracker looks again when they are old."""
        wait = SLIDE_MS + self.e.config.debounce_ms
        young = frozenset(
            pair for pair in evidence if self.e._now - self.e.observed.debouncer.stable_since[pair[0]] < wait
        )
        if young:
            self.e._set_deadline(min(self.e.observed.debouncer.stable_since[channel] for channel, _ in young) + wait)
        return young

    def must_ask(self, choice: Choice, candidates: CandidateTable) -> bool:
        """Whether the one explanation the board has must still be asked, never taken alone, because
        the board cannot tell it from something else that leaves the same readings:
        - a move on a field whose sensor is left out: nobody sees the piece arrive or leave there
          (a piece knocked off it looks the same);
        - a piece put where no sensor notices it arrive (a Catcher sent home onto its own stack
          under a binary or signed sensor): a finished move or one still in the hand; a field
          emptied on the way (a Klotz capture) is seen when it fills again;
        - a move no sensor sees a piece leave (one Catcher off a stack under a presence sensor): a
          sensor sticking on where it lands shows the same;
        - a slide that the hand putting a piece down beside it a moment ago may have knocked
          (knocks.DOUBT_MS): a late knock or the next player's move; putting it back answers;
        - a correction to a move no sensor sees, or one the next player's move may be beginning;
        - the next player's move of the piece the last move put down, lifted so soon after it landed
          that the last mover's hand may be carrying it on (`last_hand_may_hold`);
        - a move the card shown does not play: the card shown or the move made was not the one meant.
        """
        if choice == TAKEBACK:
            return False
        if not isinstance(choice, str | Correction | ThenMove) and not self.e._choice.plays_shown(
            self.e._state, choice
        ):
            return True
        if self.unseen_correction(choice) or self.last_hand_may_hold(choice, candidates):
            return True
        first = choice.first if isinstance(choice, ThenMove) else None
        if isinstance(first, Correction) and self.unseen_correction(first):
            return True  # a correction asked alone is asked with the next player's move after it
        if first is not None and not isinstance(first, Correction) and self.must_ask(first, candidates):
            return True  # what makes a move asked alone makes it asked with the next one after it
        if first is not None:
            evidence = frozenset(self.e.observed.mismatch.items())
            if knock_beside_a_move(evidence, candidates, self.e._scene()):
                return True  # or one move, beside a piece that slid (a knock on the mover's way)
        table = self.table_of(choice, candidates)
        action = self.shown_action(choice)
        channels = table.channels(action)
        if isinstance(choice, Correction) and self.correction is not None:
            channels |= self.correction.channels  # a correction undoes the move taken on its fields too
        observed = self.e.observed
        if channels & observed.masked.keys() or observed.knocks.doubts(channels):
            return True
        expected = table.expected
        evidence = table.mismatch(action)
        if evidence and not any(left(expected[channel], value) for channel, value in evidence):
            return True  # no sensor sees a piece leave
        if table is candidates and either_held(
            observed.unmasked(frozenset(observed.mismatch.items())), evidence, expected, observed.debouncer.dating
        ):
            return True  # a piece held long, and another lifted before it landed: which landed?
        return table.unseen_placement(action)

    def last_hand_may_hold(self, choice: Choice, candidates: CandidateTable) -> bool:
        """Whether `choice` holds a move of the next seat that lifts only pieces the move before it put
        down, within LET_GO_MS of their landing (at once, when both are read together). A hand that
        let go on the way goes on that soon, and a reply may start as soon: until the pieces
        land where a correction puts them, the two look the same (pieces any seat may move: the
        Zillo, moved by Zillo and Wild cards alike; Catchers on a part turned)."""
        window = self.correction
        # A card shown for the move of this position is the next player's (Z-6): they have started.
        card_shown = self.card_started(frozenset(self.e.observed.mismatch.items()))
        if isinstance(choice, ThenMove):
            first, table = choice.first, self.table_of(choice, candidates)
            if not isinstance(first, Correction):
                landed_at = self.acknowledged_at if first == self.acknowledged else None
                return self._moves_on(candidates, first, table, choice.second, landed_at)
            if window is None:  # (the board's earlier reading of the last move, then the card's move: asked)
                return False
            before = self.e.candidates_of(window.before)
            return self._moves_on(before, first.action, table, choice.second, None)
        if window is None or card_shown or isinstance(choice, str | Correction):
            return False
        return self._moves_on(self.e.candidates_of(window.before), window.action, candidates, choice, window.made_at)

    def _moves_on(
        self, first_table: CandidateTable, first: Action, table: CandidateTable, second: Action, landed_at: int | None
    ) -> bool:
        """Whether `second` (played in `table`) lifts only pieces `first` (played in `first_table`)
        put down, within LET_GO_MS of `landed_at` (None: at once), and is another seat's."""
        if first_table.state.current_player == table.state.current_player:
            return False  # the same seat's next part (Fillit's pawn after its stone): one hand either way
        channel_of = self.e.board.channel_of
        landed = {channel_of.get(cell) for cell in first_table.footprint(first).targets}
        lifted = [channel for cell in table.footprint(second).origins if (channel := channel_of.get(cell)) is not None]
        if not lifted or not landed.issuperset(lifted):
            return False
        since = self.e.observed.debouncer.dating.since
        began = min(since[channel] for channel in lifted)
        if self.e._choice.kept_card_first(first_table.state, table.state.action_card(second), began):
            return False  # the next player's card, kept, came before the lift: they had started (Z-6)
        return landed_at is None or began - landed_at <= LET_GO_MS

    def unseen_correction(self, choice: Choice) -> bool:
        """Whether `choice` is a correction that must be asked, never assumed: to a move no sensor
        sees, or one the next player's move may be beginning."""
        window = self.correction
        if not isinstance(choice, Correction) or window is None:
            return False
        before = self.e.candidates_of(window.before)
        return self.ask_corrections or not before.mismatch(choice.action) or self.unseen_now(window, choice.action)

    def unseen_now(self, window: CorrectionWindow, action: Action) -> bool:
        """Whether replacing the committed move by `action` would change the pieces on a field whose
        reading stays as it is now: a placement (or a removal) no sensor sees, judged against the
        position the board is in, not the one before the commit. (A Catcher moved on onto its own
        stack under a signed sensor: the evidence is only the field it left, which the next
        player's capture, sending that piece home unseen, would show just the same.)"""
        state, masked = self.e._state, frozenset(self.e.observed.masked)
        if self._unseen_now is not None:
            # States and windows by identity: comparing them by value compares whole positions.
            seen_window, seen_action, seen_state, seen_masked, answer = self._unseen_now
            if seen_window is window and seen_state is state and seen_action == action and seen_masked == masked:
                return answer
        found = self._changes_unseen(window, action)
        self._unseen_now = (window, action, state, masked, found)
        return found

    def _changes_unseen(self, window: CorrectionWindow, action: Action) -> bool:
        before = self.e.candidates_of(window.before)
        start = window.before.occupancy()
        corrected = window.before.occupancy_changes(action)
        committed = window.before.occupancy_changes(window.action)
        now = self.e._state.occupancy()
        readings = dict(before.mismatch(action))  # what the correction's fields would read
        expected_now = self.e.observed.expected
        channel_of = self.e.board.channel_of
        for cell in {*corrected, *committed}:
            channel = channel_of.get(cell)
            if channel is None or channel in self.e.observed.masked:
                continue
            pieces = corrected.get(cell, start.get(cell, ()))
            if pieces != now.get(cell, ()) and readings.get(channel, before.expected[channel]) == expected_now[channel]:
                return True
        return False

    def evidence_against(self, expected: tuple[int, ...]) -> Mismatch:
        return differences(self.e.observed.board_readings(), expected, self.e.observed.masked)

    def declared(self, asked: Choice, text: str, seat: int | None) -> bool:
        """Whether `text` names the candidate `asked` (in the state it would be played in), as the
        move of `seat` where the declaration says whose word it is."""
        table = self.table_of(asked, self.e.candidates_of(self.e._state))
        if seat is not None and table.state.current_player != seat:
            return False
        return table.state.action_to_str(self.shown_action(asked)) == text.strip()

    def shown_action(self, choice: Choice) -> Action:
        if isinstance(choice, Correction):
            return choice.action
        if isinstance(choice, ThenMove):
            return choice.second
        return choice

    def table_of(self, choice: Choice, candidates: CandidateTable) -> CandidateTable:
        if isinstance(choice, Correction) and self.correction is not None:
            return self.e.candidates_of(self.correction.before)
        if isinstance(choice, ThenMove):
            first = choice.first
            if isinstance(first, Correction):
                return self.e.candidates_of(self.corrected_position(first))
            return self.e.candidates_of(candidates.successor(first))
        return candidates

    def played_in(self, choices: list[Choice], candidates: CandidateTable) -> dict[Action, State]:
        """The state each of `choices` is played in, where that is not `candidates`' (the position now):
        what a screen needs to name a correction or the next player's reply."""
        found: dict[Action, State] = {}
        for choice in choices:
            table = self.table_of(choice, candidates)
            if table is not candidates:
                found[self.shown_action(choice)] = table.state
        return found

    def successor_of(self, choice: Choice, candidates: CandidateTable) -> State:
        if choice == TAKEBACK:
            return self.e._history[-1]
        return self.table_of(choice, candidates).successor(self.shown_action(choice))

    def capture_may_follow(self, candidates: CandidateTable) -> bool:
        """Whether the position before the last move is also the start of a move of the player on
        turn (a captured piece sent home first, its field empty until the capturing piece lands):
        then a take-back needs a confirm, or the next change."""
        takeback = self.e._takeback_mismatch()
        return takeback is not None and bool(takeback) and self.may_begin_a_move(takeback, candidates)

    def may_begin_a_move(self, evidence: Mismatch, candidates: CandidateTable, sent_home: bool = False) -> bool:
        """Whether `evidence` (against `candidates`' state) may be the first part of one of its moves:
        every change is part of the move, or empties a field the move fills again (a captured or
        displaced piece sent home first). With `sent_home`, only when the evidence is exactly that:
        pieces taken from fields the move lands on, put down where the move sends them home."""
        channel_of = self.e.board.channel_of
        expected = candidates.expected
        emptied = {channel for channel, value in evidence if value == 0}
        # Every changed channel is part of the move or a field it fills: only actions reaching them all.
        for action in candidates.reaching([channel for channel, _ in evidence]):
            move = self.e.observed.unmasked(candidates.mismatch(action))
            if move == evidence or not all(pair in move or pair[0] in emptied for pair in evidence):
                continue
            # A field empty now must be one the move fills (a sensor that cannot tell the arriving
            # piece from the one that left sees no change there at the end).
            footprint = candidates.footprint(action)
            filled = {channel_of.get(cell) for cell in footprint.targets}
            if not all(pair in move or pair[0] in filled for pair in evidence):
                continue
            if sent_home:
                homes = {channel_of.get(cell) for cell in footprint.returns}
                placed = {ch for ch, value in evidence if abs(value) > abs(expected[ch])}
                if not placed or not placed <= homes:
                    continue
            return True
        return False

    def in_two_hands(self, channels: frozenset[int], candidates: CandidateTable) -> bool:
        """Whether hands can have changed `channels` at one moment (health.py). A piece slid (or
        bumped) one field empties one and fills the one beside it; the rest, two hands: each lifts
        or puts down on one field, or (at most one of them) on the fields of one legal move
        together, such as a Zillo part carried with its pieces."""
        observed = self.e.observed
        expected, readings, beside = observed.expected, observed.mismatch, observed.knocks.beside
        rest = set(channels)
        for gone in sorted(channel for channel in channels if left(expected[channel], readings[channel])):
            landing = next(
                (c for c in sorted(rest) if c != gone and beside(gone, c) and came(expected[c], readings[c])), None
            )
            if landing is not None and gone in rest:  # (a signed field that flipped both left and came)
                rest -= {gone, landing}
        if len(rest) <= 2:
            return True
        return any(len(rest - candidates.channels(action)) <= 1 for action in candidates.reaching_any(rest))

    def liftable(self, channel: int, value: int, candidates: CandidateTable) -> bool:
        """Whether the reading is a piece lifted off the field that some legal move takes away, or
        that the last move filled while it may still be corrected (its player moving it on)."""
        was = self.e.observed.expected[channel]
        if not left(was, value):
            return False
        if self.correction is not None and channel in self.correction.channels:
            return True
        return any((channel, value) in candidates.mismatch(action) for action in candidates.reaching([channel]))
