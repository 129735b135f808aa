"""Move inference: from debounced sensor readings to committed game actions (docs/tracker.md).

The tracker is a deterministic state machine: `step(now_ms, readings, events)` is its only input and
a `TrackerOutput` its only output. It never sleeps, never reads a clock and never changes the game
on evidence that is not an exact match of a whole position.

Positions are compared as *mismatches*: the set of (channel, reading) pairs where a position differs
from the current expectation. Each legal action's mismatch is computed once per state (the candidate
table, candidates.py), so matching a stable board is one dictionary look-up. Choosing among
candidates is confirmation.py's; the hints that guide the players are guidance.py's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from controller.games import Action, Cell, State
from controller.games.footprint import Footprint
from controller.games.seats import seat_name
from controller.table import guidance
from controller.table.board import BoardMap
from controller.table.candidates import CandidateTable
from controller.table.confirmation import CardAhead, Confirmation
from controller.table.corrections import Correction, CorrectionWindow, Reading, ThenMove, reveals
from controller.table.decisions import (
    Acknowledge,
    Ask,
    Choice,
    Commit,
    Decision,
    Guide,
    Idle,
    OfferTakeBack,
    Shown,
    TakeBack,
    display,
)
from controller.table.evidence import arrives
from controller.table.explanations import Scene, apart, fresh, ordered, sensed_in_turn, taken_back, then_next, two_moves
from controller.table.following import Seams
from controller.table.inputs import Board, Inputs, Outcome
from controller.table.observed import Observed
from controller.table.tables import TableCache
from controller.table.tracker_types import (
    NOTHING_HAPPENED,
    TAKEBACK,
    TAKEBACK_MODES,
    Happened,
    HintKind,
    Mismatch,
    SensorFault,
    TrackerConfig,
    TrackerOutput,
)
from controller.table.unseen_hands import hands_unseen
from hal.protocols import InputEvent, Readings

MOVES_PER_SCAN = 8  # commits and take-backs one scan may carry out (two moves at most in practice)

__all__ = ["TAKEBACK_MODES", "SensorFault", "Tracker", "TrackerConfig", "TrackerOutput"]


class Tracker:
    """Follows the game on the board, one scan at a time (see the module docstring)."""

    def __init__(
        self, board: BoardMap, state: State, config: TrackerConfig | None = None, history: Sequence[State] = ()
    ) -> None:
        self.board = board
        self.config = config or TrackerConfig()
        self._history: list[State] = list(history)
        self._state = state
        self._tables = TableCache(board)
        self._setup = True  # guide until the board first matches the game (set-up, or a resumed game)
        self._restore = False
        self._remote = False  # guide to a position another board's move made (follow)
        # The seats whose moves are made on this board; None: all. While another board's seat is to move
        # (docs/remote.md, rule 6) changes are guided back until its move arrives (`follow`).
        self.seats_here: frozenset[int] | None = None
        (first := self.candidates_of(state)).prepare()  # before the first scan: a card may be shown at once
        self.observed = Observed(board, self.config, first.expected)  # readings to evidence
        self._choice = Confirmation(self.config.preview_ms, self.config.confirm_grace_ms)
        self._inputs = Inputs(self._choice)
        self._seams = Seams(self)  # fast replies, corrections, the move shown: the seams between moves
        self._replaced = 0  # corrections in this step (commits taken back before the new ones)
        self._output: TrackerOutput | None = None
        self._deadline: int | None = None
        self._transitions: list[tuple[State, Action, State]] = []
        self._vias: list[str] = []
        self.last_evaluated = False  # whether the last step did any work beyond the hot path
        self.last_worked_ahead = False  # whether the last (quiet) step worked ahead (TableCache.work_ahead)
        self._now = 0  # the time of the step being made
        self._last_commit: tuple[State, Action] | None = None  # the move that stands last, and its state

    # --- public views --------------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self._state

    @property
    def history(self) -> tuple[State, ...]:
        return tuple(self._history)

    @property
    def stable_readings(self) -> tuple[int, ...]:
        return tuple(self.observed.debouncer.stable)

    @property
    def expected_readings(self) -> tuple[int, ...]:
        """What every channel reads when the board shows the current position."""
        return self.observed.expected

    def footprint_of(self, action: Action, state: State | None = None) -> Footprint:
        """Which pieces `action` moves in `state` (default: the current state)."""
        return self.candidates_of(state or self._state).footprint(action)

    def is_invisible(self, action: Action, state: State | None = None) -> bool:
        """Whether no sensor sees `action` in `state` (default: the current state)."""
        return not self.candidates_of(state or self._state).mismatch(action)

    # --- the step ------------------------------------------------------------------------------
    def step(self, now: int, readings: Readings | None, events: Iterable[InputEvent] = ()) -> TrackerOutput:
        """Feed one scan (None for a dropped scan) and any input events; get what to show and do.

        A dropped scan is no evidence either way: it neither confirms a pending reading nor lets a
        timer run out, so a single noisy scan followed by lost ones can never become a move.
        """
        events = self._inputs.with_card_ahead(tuple(events), self._state, self._tables.indexed)  # a card kept
        self._now = now
        if readings is None and not events and self._output is not None:
            return self._output
        changed = self.observed.feed(now, readings)
        if not changed:
            self._set_deadline(self.observed.debouncer.next_settle())
        if not changed and not events and self._output is not None and (self._deadline is None or now < self._deadline):
            self.last_evaluated = False
            # A little of the next changed scan's work, for the position the LEDs show: a move
            # acknowledged or asked about leads there, and the next player may start at once.
            self.last_worked_ahead = self._tables.work_ahead(self._output.display.shown, self._state)
            return self._output  # the hot path: nothing new
        self.last_evaluated = True
        self.last_worked_ahead = False
        committed: list[Action] = []
        messages: list[str] = []
        took_back = 0
        for event in events:
            if self._held():
                messages.append(f"{seat_name(self._state, self._state.current_player)} moves on another board")
                continue
            took_back += self._carry_out(now, self._inputs.handle(event, self._board_now(now)), committed, messages)
        return self._evaluate(now, committed, messages, took_back)

    def _board_now(self, now: int) -> Board:
        """What an input may read of the evidence and the position now (inputs.py)."""
        return Board(
            now,
            self._state,
            self._history[-1] if self._history else None,
            self._last_commit,
            dict(self.observed.mismatch),
            self.observed.since,
            self._seams.provisional,
            dict(self.observed.masked),
            tuple(self.observed.debouncer.stable),
            self.candidates_of,
            self.observed.unmasked,
            self._seams.evidence_against,
            self._seams.declared,
            self._field_name,
            self._seams.acknowledged,
            self.observed.debouncer.silent_at(now)
            or bool(self.observed.debouncer.pending or self.observed.as_sensed()),
        )

    def plays_here(self, seat: int) -> bool:
        """Whether `seat`'s moves are made on this board now (`seats_here`)."""
        return self.seats_here is None or seat in self.seats_here

    def _held(self) -> bool:
        state = self._state
        return not state.is_terminal() and not self.plays_here(state.current_player)

    def _field_name(self, channel: int) -> str:
        cell = self.board.cell_of_channel.get(channel)
        return self._state.game.format_cell(cell) if cell is not None else f"sensor channel {channel}"

    def _carry_out(self, now: int, outcome: Outcome, committed: list[Action], messages: list[str]) -> int:
        """Do what an input asks; how many moves it took back."""
        if outcome.message is not None:
            messages.append(outcome.message)
        for channel, reading in outcome.missed.items():
            self.observed.masked[channel] = reading  # its sensor missed the declared move: left out until it changes
            self.observed.mismatch.pop(channel, None)
        if outcome.window is not None:
            self._seams.correction = outcome.window
        took_back = 0
        if isinstance(outcome.decision, Commit):
            self._accept(now, outcome.decision.choice, committed, outcome.decision.via)
        elif isinstance(outcome.decision, TakeBack):
            self._take_back(now)
            took_back = 1
        if outcome.restore:
            self._restore = True
        return took_back

    # --- candidates ----------------------------------------------------------------------------
    def candidates_of(self, state: State) -> CandidateTable:
        """The candidate table of `state` (tables.py keeps the few most recently used)."""
        return self._tables.table(state, self._state)

    def _takeback_mismatch(self) -> Mismatch | None:
        """The mismatch the previous position shows, if a take-back is allowed now."""
        if not self._history or self.config.takeback == "off" or self.seats_here is not None:
            # In a game across boards a take-back is a request to the others (docs/remote.md, rule 8).
            return None
        previous = self._history[-1]
        if previous.chance_count() != self._state.chance_count():
            return None  # never take back across a hidden random event
        expected = self.observed.expected
        before = self.candidates_of(previous).expected
        masked = self.observed.masked
        return frozenset((ch, v) for ch, v in enumerate(before) if v != expected[ch] and ch not in masked)

    def _scene(self) -> Scene:
        """The evidence now, as the explanations need it (explanations.py)."""
        seams = self._seams
        return self.observed.scene(
            seams.acknowledged, seams.acknowledged_at, self._choice.asked_here, seams.corrected_fields()
        )

    # --- commit and take-back ------------------------------------------------------------------
    def _accept(
        self, now: int, choice: Action | str | Correction, committed: list[Action], via: str = "confirm"
    ) -> int:
        if choice == TAKEBACK:
            self._take_back(now)
            return 1
        if isinstance(choice, Correction):
            self._correct(now, choice.action, committed, via)
            return 0
        if isinstance(choice, ThenMove):
            if isinstance(choice.first, Correction):
                self._correct(now, choice.first.action, committed, via)
            else:
                self._commit(now, choice.first, via)
                committed.append(choice.first)
            self._commit(now, choice.second, via)
            committed.append(choice.second)
            return 0
        self._commit(now, choice, via)
        committed.append(choice)
        return 0

    def _commit(self, now: int, action: Action, via: str = "sensors", earlier: tuple[Reading, ...] = ()) -> None:
        """Take `action`; `earlier`: the readings of it shown before, each replaced by a correction."""
        before = self._state
        shown = self._choice.card_played(before, action)
        candidates = self.candidates_of(before)
        after = candidates.successor(action)
        self._transitions.append((before, action, after))
        self._vias.append(via)
        self._history.append(before)
        changed = frozenset(channel for channel, _ in candidates.mismatch(action))
        made_at = self._seams.made_at(action, now, changed)
        self.observed.committed(made_at, candidates.channels(action), changed, now)
        self._enter(now, after, moved_from=before)
        self._last_commit = (before, action)
        if via in ("sensors", "correction"):
            # The fields of the moving piece (not where a captured piece was sent home): a lift
            # anywhere else means the next player has started.
            footprint = candidates.footprint(action)
            moved = (footprint.origins | footprint.targets) - footprint.returns
            channel_of = self.board.channel_of
            channels = frozenset(channel_of[cell] for cell in moved if cell in channel_of)
            revealed = reveals(before, after, action, candidates.actions, shown)
            self._seams.correction = CorrectionWindow(before, action, channels, revealed, earlier, made_at)

    def _take_back(self, now: int) -> None:
        previous = self._history.pop()
        self._enter(now, previous)
        self.observed.health.taken_back()
        self._last_commit = None

    def _correct(self, now: int, action: Action, committed: list[Action], via: str = "correction") -> None:
        """Replace the last commit by `action` of the same player (see corrections.py); a move the
        person declared is not replaced by a reading of the sensors again (as a declared move)."""
        window = self._seams.correction
        assert window is not None and self._history and self._history[-1] is window.before
        unseen = bool(self._transitions) and self._transitions[-1][0] is window.before
        if unseen:  # committed in this very step: it never reaches anyone
            self._transitions.pop()
            self._vias.pop()
            committed.remove(window.action)
        else:
            self._replaced += 1
        # A card shown since the commit is the next player's (Z-6): kept for their move after this one.
        choice = self._choice
        card, at, ahead = choice.card, choice.card_at, choice.card_ahead
        self._take_back(now)
        choice.card_ahead = CardAhead(card, None, window.before, at) if card is not None else ahead
        self._commit(now, action, "correction", window.readings(shown=not unseen))
        committed.append(action)
        if via == "declare":
            self._seams.correction = None

    def _enter(self, now: int, state: State, moved_from: State | None = None) -> None:
        """Go to `state`; `moved_from`: by a move taken there (a card kept for the next move waits for it)."""
        self._state = state
        self.observed.expect(now, self.candidates_of(state).expected)
        self._choice.reset(moved_from)
        self._seams.enter()
        self._setup = False
        self.observed.knocks.unseen_hands = frozenset()

    def follow(self, now: int, state: State, history: Sequence[State]) -> None:
        """The game moved on elsewhere (another board's move, or the host's word on this board's
        own, docs/remote.md): `state` is the position now, `history` the states before it. The LEDs
        guide the pieces there at once; nothing is committed until the board shows it."""
        self._history = list(history)
        self.observed.knocks.forget()
        self.observed.health.taken_back()  # a field the move elsewhere changes has not outlived it: no fault
        moved = state.occupancy() != self._state.occupancy()
        self._enter(now, state)
        self._remote = moved
        self._last_commit = None
        self._output = None

    def restart(self, now: int, state: State) -> None:
        """A new game (the old one was abandoned): no history, guide the set-up."""
        self._history.clear()
        self._tables.clear()
        self.observed.knocks.forget()
        self.observed.health.taken_back()
        self._enter(now, state)
        self._setup = True
        self._output = None

    # --- evaluation ----------------------------------------------------------------------------
    def _evaluate(self, now: int, committed: list[Action], messages: list[str], took_back: int) -> TrackerOutput:
        """Decide, carry out what changes the game, and decide again, until the board shows
        something (decisions.py); then say what to show and what happened."""
        self._deadline = None
        if self.observed.knocks.expire(now):
            self.observed.reset(now)  # a knocked piece left lying: read the board as it is
        decision = self._decide(now)
        for _ in range(MOVES_PER_SCAN):
            if isinstance(decision, Commit):
                self._accept(now, decision.choice, committed, decision.via)
            elif isinstance(decision, TakeBack):
                self._take_back(now)
                took_back += 1
            else:
                break
            decision = self._decide(now)
        shown = decision if not isinstance(decision, Commit | TakeBack) else Guide("moving")
        # Kept while the move is under way (it may show as moving a moment), until the game moves on.
        if self.observed.masked:
            self.observed.knocks.unseen_hands |= hands_unseen(
                shown, self._state, self.candidates_of, self.board.channel_of, self.observed.masked
            )
        output = self._output_of(shown, committed, took_back, messages)
        self._set_deadline(self.observed.knocks.next_expiry)
        self._set_deadline(self.observed.debouncer.next_settle())
        self._output = output if not output.happened else TrackerOutput(output.display)
        return output

    def _output_of(
        self, decision: Shown, committed: list[Action], took_back: int, messages: list[str]
    ) -> TrackerOutput:
        """The tracker's report of this scan: what the board shows (`decision`) and what happened."""
        state = self._state
        hints: dict[Cell, HintKind] = dict(decision.hints)
        if self.observed.knocks.knocks:
            # A knocked piece: the game goes on as if it stood where it did; the LEDs ask for it back.
            hints.update(self.observed.knocks.hints())
        faults = decision.faults if isinstance(decision, Guide) else ()
        if self.observed.masked:
            faults = tuple(dict.fromkeys(faults + self.observed.masked_faults()))
        happened = Happened(
            tuple(committed), tuple(self._transitions), tuple(self._vias), took_back, self._replaced, tuple(messages)
        )
        self._transitions, self._vias, self._replaced = [], [], 0
        shown = display(decision, state, hints, faults)
        previous = self._output.display if self._output is not None else None
        if previous is not None and shown.same_as(previous):
            shown = previous  # the same picture: the same object, so consumers can skip it
        return TrackerOutput(shown, happened if happened else NOTHING_HAPPENED)

    def _set_deadline(self, when: int | None) -> None:
        if when is not None:
            self._deadline = when if self._deadline is None else min(self._deadline, when)

    def _decide(self, now: int) -> Decision:
        """The one decision the evidence supports now (docs/tracker.md, "The evidence model")."""
        state = self._state
        mismatch = frozenset(self.observed.mismatch.items())
        if not self.observed.debouncer.started:
            return Idle()
        choice = self._choice
        if not mismatch and choice.offer and not self._setup:
            choice.show_offer()
            previewed = choice.previewed(now, self.observed.since)
            self._set_deadline(choice.next_change(now, choice.offer_since))  # None: no rotation
            candidates = self.candidates_of(state)
            offered = tuple(action for action in choice.offer if not isinstance(action, str))
            return Ask(
                offered, previewed, candidates.successor(previewed), guidance.offer_hints(state, previewed, candidates)
            )
        choice.offer = ()
        if not mismatch:
            self._seams.provisional = None
            self._seams.acknowledge(None)  # the move shown is undone: the board shows the position
            choice.asking = choice.asked_here = ()  # (so is every move asked about: none was made)
            self._setup = False
            self._restore = self._remote = False
            return Idle(guidance.card_hints(self.candidates_of(state), choice.card) if choice.card else {})
        if self._remote:  # a move made on another board, to be made here, lit in the mover's colour
            mover = self._history[-1].current_player if self._history else None
            return Guide("remote", self._guidance_to(frozenset()), self._stuck(now), mover)
        if self._held():  # another board's seat is to move: only this board's last move may still change
            mine: list[Choice] = [Correction(action) for action in self._seams.corrections(mismatch)]
            candidates = self.candidates_of(state)
            if len(mine) == 1 and not self._seams.must_ask(mine[0], candidates):
                return self._single(now, mine[0], candidates)
            if mine:  # as anywhere: a correction the readings cannot tell from something else is asked
                return self._ask(now, mine, candidates)
            return Guide("restore", self._guidance_to(frozenset()), self._stuck(now))
        if self._setup or self._restore:
            # Set-up and an undo: guide at once to the game's position (and name a sensor failed at power-up).
            faults = self._stuck(now)
            return Guide("setup" if self._setup else "restore", self._guidance_to(frozenset()), faults)
        candidates = self.candidates_of(state)
        scene = self._scene()
        actions: list[Choice] = list(
            choice.with_card(
                state,
                ordered(fresh(self.observed.matching(candidates, mismatch), candidates, scene), candidates, scene),
            )
        )
        takeback = self._takeback_mismatch()  # the position before the last move: carried back as any move is
        if mismatch == takeback and taken_back(candidates, self.candidates_of(self._history[-1]), scene):
            actions.append(TAKEBACK)
        if not actions:
            self._seams.waiting = False
            replied = self._seams.fast_reply(mismatch, candidates)
            if replied is not None:  # the last move, and the next player has started: commit it
                return Commit(replied)
            if self._seams.waiting and self._seams.provisional is not None:
                # The next player may have started, or a piece was knocked: a moment tells.
                return self._acknowledge(self._seams.provisional, candidates)
            actions = list(self._seams.asked_and_followed(mismatch, candidates))  # the request stays
        if not actions:
            # The correction shown, then the next player's move, explains the whole board: nothing
            # of it is set apart as an old change (the correction is a move of its own).
            actions = list(self._seams.corrected_then_next(scene))
        if not actions:
            actions = list(choice.with_card(state, apart(mismatch, candidates, scene)))
        if not actions:
            following = then_next(candidates, scene, self.candidates_of, self._seams.evidence_against)
            actions = list(choice.kept_card_plays(state, following, self._next_card) or following)
        if not actions:
            actions = list(two_moves(mismatch, candidates, scene, self.candidates_of, self._seams.evidence_against))
        if not actions and self.observed.knocks.knocks:  # read as the sensors have it, asked (knocks.doubts)
            sensed = self.observed.matching(candidates, self.observed.as_sensed())
            actions = list(choice.with_card(state, ordered(sensed, candidates, scene))) or list(
                sensed_in_turn(self.observed.debouncer.stable, candidates, scene, self.candidates_of)
            )
        if not actions and choice.card is not None:  # no move of the card shown fits: asked once settled
            due = max(self.observed.since, self.observed.touched) + self.config.settle_ms
            if now < due:  # (a partial board on the way fits moves of other cards: no reading yet)
                self._set_deadline(due)
            else:
                found = fresh(self.observed.matching(candidates, mismatch), candidates, scene)
                actions = list(ordered(found, candidates, scene))
        corrections = self._seams.last_move_read_again(mismatch, scene)
        if corrections and actions:
            actions.extend(corrections)  # a correction, or the next player's move: ask
        elif corrections:
            actions = corrections
        elif (
            len(actions) == 1
            and actions[0] not in (TAKEBACK, self._seams.acknowledged)
            and not isinstance(actions[0], ThenMove)
        ):
            # The move the board shows could also be the move acknowledged a moment ago followed at
            # once by the next player's (the piece moved on): both are candidates, never one silently;
            # unless the next player's card, kept, came before the piece moved on (Z-6: they started).
            following = then_next(candidates, scene, self.candidates_of, self._seams.evidence_against)
            kept = choice.kept_card_plays(state, following, self._next_card)
            actions = list(kept) if kept else [*actions, *following]
        actions = list(dict.fromkeys(actions))  # one reading found two ways is one candidate
        if len(actions) == 1 and not self._seams.must_ask(actions[0], candidates):
            return self._single(now, actions[0], candidates)
        if actions:
            return self._ask(now, actions, candidates)
        self._seams.provisional = None
        choice.asking = ()
        reached = self._seams.reached_early(mismatch, candidates)  # the last reading before none
        return self._acknowledge(reached, candidates) if reached is not None else self._unmatched(now, candidates)

    def _next_card(self, then: ThenMove) -> tuple[str | None, int]:
        """The card `then`'s next move plays, and when the first change it makes began."""
        after = self.candidates_of(self._seams.successor_of(then.first, self.candidates_of(self._state)))
        began = [self.observed.debouncer.began_by(ch) for ch, _ in self._seams.evidence_against(after.expected)]
        return after.state.action_card(then.second), min(began, default=self._now)

    def _ask(self, now: int, actions: list[Choice], candidates: CandidateTable) -> Ask:
        """Ask which of `actions` was made (the first previewed, the others in turn)."""
        self._seams.provisional = None
        choice = self._choice
        choice.ask(actions)
        previewed = choice.previewed(now, self.observed.since)
        self._set_deadline(choice.next_change(now, self.observed.since))
        table = self._seams.table_of(previewed, candidates)
        hints = guidance.preview_hints(self.observed.changed_cells(), self._seams.shown_action(previewed), table)
        asked = [a for a in actions if a != TAKEBACK]
        return Ask(
            tuple(self._seams.shown_action(a) for a in asked),
            None if previewed == TAKEBACK else self._seams.shown_action(previewed),
            self._seams.successor_of(previewed, candidates),
            hints,
            self._seams.played_in(asked, candidates),
        )

    def _single(self, now: int, choice: Choice, candidates: CandidateTable) -> Decision:
        """The one explanation: taken once the board has settled, shown until then."""
        self._choice.asking = ()
        if self._seams.provisional != choice:
            self._seams.provisional = choice
        quiet_since = max(self.observed.since, self.observed.touched)
        due = max(quiet_since + self.config.settle_ms, self._seams.settles_at(choice, candidates))
        if choice == TAKEBACK:
            due = quiet_since + self.config.takeback_ms
            # Only a board where a piece was put back shows a take-back for sure (the last move's piece
            # only lifted off again may be in the hand of a player looking at it), and only while no
            # card was shown for the next move (Z-6: the next player has started).
            expected = self.observed.expected
            put_back = any(arrives(channel, reading, expected) for channel, reading in self.observed.mismatch.items())
            auto = self.config.takeback == "auto" and put_back and self._choice.card is None
            auto &= not self._seams.capture_may_follow(candidates) and not self.observed.knocks.knocks
            if auto and now >= due and not self.observed.moving():
                return TakeBack()
            if auto:
                self._set_deadline(due)
            return OfferTakeBack(self._history[-1], {cell: "confirm" for cell in self.observed.changed_cells()})
        # No commit while a field of the move is still changing, nor before the board has been left
        # alone for the settle time: a piece touched down on its way is not a move.
        if not self.observed.moving() and now >= due and not isinstance(choice, str):
            return Commit(choice)
        self._set_deadline(due)
        return self._acknowledge(choice, candidates)

    def _acknowledge(self, choice: Choice, candidates: CandidateTable) -> Acknowledge:
        """Show `choice` as the move the board takes (green where it goes, red where it captures)."""
        shown = self._seams.shown_action(choice)
        table = self._seams.table_of(choice, candidates)
        first = choice.first if isinstance(choice, ThenMove) else choice
        if isinstance(first, Correction):
            self._seams.show_correction(first)
        elif isinstance(choice, ThenMove):
            self._seams.acknowledge(choice.first)  # the move of this position; the next comes after it
        else:
            self._seams.acknowledge(shown)
        hints = guidance.made_hints(table.footprint(shown))
        return Acknowledge(shown, table.successor(shown), hints, self._seams.played_in([choice], candidates))

    def _unmatched(self, now: int, candidates: CandidateTable) -> Guide:
        self._seams.provisional = None
        elapsed = now - self.observed.since
        faults = self._stuck(now, candidates)
        if elapsed >= self.config.guide_after_ms:
            return Guide("guidance", self._guidance_to(None), faults)
        self._set_deadline(self.observed.since + self.config.guide_after_ms)
        hints = guidance.lifted_hints(
            self.observed.mismatch, self.observed.expected, self.board, self._state, candidates, self._choice.card
        )
        return Guide("moving", hints, faults)

    def _stuck(self, now: int, candidates: CandidateTable | None = None) -> tuple[SensorFault, ...]:
        """The sensor faults the evidence shows; a piece that may be lifted for the move under way
        is never one."""
        if candidates is None:
            return self.observed.faults(now, None, self._set_deadline)
        return self.observed.faults(
            now,
            lambda channel, value: self._seams.liftable(channel, value, candidates),
            self._set_deadline,
            lambda channels: self._seams.in_two_hands(channels, candidates),
        )

    # --- hints ---------------------------------------------------------------------------------
    def _guidance_to(self, target: Mismatch | None) -> dict[Cell, HintKind]:
        """Which fields to clear and fill to reach `target`, or (None) the nearest legal position."""
        if target is not None:
            return guidance.guide(self.observed.mismatch, target, self.observed.expected, self.board)
        candidates, takeback, observed = self.candidates_of(self._state), self._takeback_mismatch(), self.observed
        return guidance.guide(
            observed.mismatch, None, observed.expected, self.board, candidates, observed.unmasked, takeback
        )
