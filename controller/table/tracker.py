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
from dataclasses import replace

from controller.games import Action, Cell, State
from controller.games.footprint import Footprint
from controller.table import guidance
from controller.table.board import BoardMap
from controller.table.candidates import CandidateTable, chance_count
from controller.table.confirmation import Confirmation
from controller.table.corrections import Correction, CorrectionWindow, ThenMove
from controller.table.following import Choice, FollowingHands
from controller.table.tracker_inputs import TrackerInputs
from controller.table.tracker_types import (
    TAKEBACK,
    TAKEBACK_MODES,
    HintKind,
    Mismatch,
    Mode,
    SensorFault,
    TrackerConfig,
    TrackerOutput,
    unmasked,
)
from hal.protocols import InputEvent, Readings

TABLES_KEPT = 6  # candidate tables kept: the current state's, the one before, a few successors
# Wide effects a quiet scan weighs ahead (CandidateTable.weigh_ahead): a few, so no quiet scan waits
# long, and a position's are all weighed within a few hundred milliseconds, while the next player thinks.
WEIGHED_PER_QUIET_SCAN = 4

__all__ = ["TAKEBACK_MODES", "SensorFault", "Tracker", "TrackerConfig", "TrackerOutput"]


class Tracker(FollowingHands, TrackerInputs, guidance.TrackerHints):
    """Follows the game on the board, one scan at a time (see the module docstring)."""

    def __init__(
        self, board: BoardMap, state: State, config: TrackerConfig | None = None, history: Sequence[State] = ()
    ) -> None:
        self.board = board
        self.config = config or TrackerConfig()
        self._history: list[State] = list(history)
        self._state = state
        self._cache: dict[int, CandidateTable] = {}
        channels = board.channels
        self._raw = [0] * channels
        self._last_readings: Readings | None = None
        self._since = [0] * channels
        self._stable = [0] * channels
        self._pending: set[int] = set()
        self._started = False
        self._setup = True  # guide until the board first matches the game (set-up, or a resumed game)
        self._restore = False
        self._expected = self._table(state).expected
        self._mismatch: dict[int, int] = {}
        self._masked: dict[int, int] = {}  # stuck channels left out of the matching -> their reading
        self._mismatch_since = 0
        self._touched = 0  # last raw change on a field where the board differs from the game
        self._provisional: Action | str | None = None
        self._choice = Confirmation(self.config.preview_ms, self.config.confirm_grace_ms)
        self._correction: CorrectionWindow | None = None  # the last commit, while it may be corrected
        self._acknowledged: Action | None = None  # the last move the LEDs acknowledged in this state
        self._replaced = 0  # corrections in this step (commits taken back before the new ones)
        self._output: TrackerOutput | None = None
        self._deadline: int | None = None
        self._faults: tuple[SensorFault, ...] = ()
        self._transitions: list[tuple[State, Action, State]] = []
        self._vias: list[str] = []
        self.last_evaluated = False  # whether the last step did any work beyond the hot path
        self._prepared: State | None = None  # the position whose legal actions a quiet scan listed
        self._weighing: CandidateTable | None = None  # its table, while quiet scans weigh it ahead

    # --- public views --------------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self._state

    @property
    def history(self) -> tuple[State, ...]:
        return tuple(self._history)

    @property
    def stable_readings(self) -> tuple[int, ...]:
        return tuple(self._stable)

    @property
    def expected_readings(self) -> tuple[int, ...]:
        """What every channel reads when the board shows the current position."""
        return self._expected

    def expected_after(self, action: Action) -> tuple[int, ...]:
        cands = self._table(self._state)
        readings = list(cands.expected)
        for channel, value in cands.mismatch(action):
            readings[channel] = value
        return tuple(readings)

    def footprint_of(self, action: Action, state: State | None = None) -> Footprint:
        """Which pieces `action` moves in `state` (default: the current state)."""
        return self._table(state or self._state).footprint(action)

    def is_invisible(self, action: Action, state: State | None = None) -> bool:
        """Whether no sensor sees `action` in `state` (default: the current state)."""
        return not self._table(state or self._state).mismatch(action)

    # --- the step ------------------------------------------------------------------------------
    def step(self, now: int, readings: Readings | None, events: Iterable[InputEvent] = ()) -> TrackerOutput:
        """Feed one scan (None for a dropped scan) and any input events; get what to show and do.

        A dropped scan is no evidence either way: it neither confirms a pending reading nor lets a
        timer run out, so a single noisy scan followed by lost ones can never become a move.
        """
        events = tuple(events)
        if readings is None and not events and self._output is not None:
            return self._output
        changed = self._debounce(now, readings)
        if not changed and not events and self._output is not None and (self._deadline is None or now < self._deadline):
            self.last_evaluated = False
            if self._prepared is not self._state:
                self._prepare()
            elif self._weighing is not None and self._weighing.weigh_ahead(WEIGHED_PER_QUIET_SCAN):
                self._weighing = None
            return self._output  # the hot path: nothing new
        self.last_evaluated = True
        committed: list[Action] = []
        messages: list[str] = []
        took_back = 0
        for event in events:
            took_back += self._handle_event(now, event, committed, messages)
        return self._evaluate(now, committed, messages, took_back)

    def _prepare(self) -> None:
        """Once per position, on a quiet scan: list its legal actions and index them by the fields
        they reach; the quiet scans after it weigh its wide effects ahead, a few each. Nobody waits on a quiet
        scan, and the first piece lifted then finds its matching and hints mostly worked out (at
        worst it weighs only the actions that reach it), so its LEDs answer at once."""
        state = self._prepared = self._state
        self._weighing = None
        if not state.is_terminal():
            self._weighing = self._table(state)
            self._weighing.prepare()

    def _debounce(self, now: int, readings: Readings | None) -> bool:
        """Update the per-channel debounce; True if a stable reading changed."""
        if readings is None:
            return False  # nothing was seen, so nothing has held long enough
        if readings != self._last_readings:
            if len(readings) != len(self._raw):
                raise ValueError(f"scan has {len(readings)} channels; the board has {len(self._raw)}")
            if not self._started:
                # The first scan is taken as stable at once: the board was lying there before we looked.
                self._started = True
                self._raw = list(readings)
                self._stable = list(readings)
                self._last_readings = readings
                self._reset_mismatch(now)
                return True
            raw, since, stable, pending = self._raw, self._since, self._stable, self._pending
            previous = self._last_readings or ()
            mismatch = self._mismatch
            for channel, value in enumerate(readings):
                if value != previous[channel]:
                    raw[channel] = value
                    since[channel] = now
                    if channel in mismatch:
                        # A hand at a field of the move, even for less than the debounce time: the
                        # position is not settled yet.
                        self._touched = now
                    if value != stable[channel]:
                        pending.add(channel)
                    else:
                        pending.discard(channel)
            self._last_readings = readings
        if not self._pending:
            return False
        settled = [ch for ch in self._pending if now - self._since[ch] >= self.config.debounce_ms]
        if not settled:
            deadline = min(self._since[ch] for ch in self._pending) + self.config.debounce_ms
            self._deadline = deadline if self._deadline is None else min(self._deadline, deadline)
            return False
        for channel in settled:
            self._pending.discard(channel)
            value = self._raw[channel]
            self._stable[channel] = value
            if channel in self._masked:
                if value == self._masked[channel]:
                    continue
                del self._masked[channel]  # it changed: the sensor is alive again
            if value != self._expected[channel]:
                self._mismatch[channel] = value
            else:
                self._mismatch.pop(channel, None)
        # The position dates from its last raw change: the debounce time counts towards settling.
        self._mismatch_since = max(self._since[ch] for ch in settled)
        return True

    def _reset_mismatch(self, now: int) -> None:
        expected = self._expected
        masked = self._masked
        self._mismatch = {ch: v for ch, v in enumerate(self._stable) if v != expected[ch] and ch not in masked}
        self._mismatch_since = now

    # --- candidates ----------------------------------------------------------------------------
    def _table(self, state: State) -> CandidateTable:
        """The candidate table of `state` (it evaluates actions as the evidence asks for them).

        The few most recently used tables are kept: the current state's, the one before it (a
        take-back, a correction) and a successor or two (a fast reply, a move moved on). Older
        tables are dropped, so memory stays bounded over any game length.
        """
        cache = self._cache
        key = id(state)
        cached = cache.pop(key, None)
        if cached is None or cached.state is not state:
            cached = CandidateTable(state, self.board)
            while len(cache) >= TABLES_KEPT:
                # The least recently used goes; its state, if the history keeps it, forgets its legal
                # actions too, so a long game's history weighs only its positions.
                evicted = cache.pop(next(iter(cache)))
                if evicted.state is not self._state:
                    evicted.state.forget_derived()
        cache[key] = cached
        return cached

    def _takeback_mismatch(self) -> Mismatch | None:
        """The mismatch the previous position shows, if a take-back is allowed now."""
        if not self._history or self.config.takeback == "off":
            return None
        previous = self._history[-1]
        if chance_count(previous) != chance_count(self._state):
            return None  # never take back across a hidden random event
        expected = self._expected
        before = self._table(previous).expected
        masked = self._masked
        return frozenset((ch, v) for ch, v in enumerate(before) if v != expected[ch] and ch not in masked)

    def _matching(self, cands: CandidateTable, evidence: Mismatch) -> list[Action]:
        """The actions of `cands`' state that the evidence shows, masked (stuck) channels left out."""
        if not evidence:
            return []
        return cands.matching(evidence, self._masked)

    def _unmasked(self, mismatch: Mismatch) -> Mismatch:
        return unmasked(mismatch, self._masked)

    # --- commit and take-back ------------------------------------------------------------------
    def _accept(
        self, now: int, choice: Action | str | Correction, committed: list[Action], via: str = "confirm"
    ) -> int:
        if choice == TAKEBACK:
            self._take_back(now)
            return 1
        if isinstance(choice, Correction):
            self._correct(now, choice.action, committed)
            return 0
        if isinstance(choice, ThenMove):
            self._commit(now, choice.first, via)
            self._commit(now, choice.second, via)
            committed.extend((choice.first, choice.second))
            return 0
        self._commit(now, choice, via)
        committed.append(choice)
        return 0

    def _commit(self, now: int, action: Action, via: str = "sensors") -> None:
        before = self._state
        cands = self._table(before)
        after = cands.successor(action)
        self._transitions.append((before, action, after))
        self._vias.append(via)
        self._history.append(before)
        self._enter(now, after)
        if via in ("sensors", "correction"):
            # The fields of the moving piece (not where a captured piece was sent home): a lift
            # anywhere else means the next player has started.
            print_ = cands.footprint(action)
            moved = (print_.origins | print_.targets) - print_.returns
            channel_of = self.board.channel_of
            channels = frozenset(channel_of[cell] for cell in moved if cell in channel_of)
            revealed = chance_count(after) != chance_count(before)  # e.g. a hidden card played
            self._correction = CorrectionWindow(before, action, channels, revealed)

    def _take_back(self, now: int) -> None:
        previous = self._history.pop()
        self._enter(now, previous)

    def _correct(self, now: int, action: Action, committed: list[Action]) -> None:
        """Replace the last commit by `action` of the same player (see corrections.py)."""
        window = self._correction
        assert window is not None and self._history and self._history[-1] is window.before
        if self._transitions and self._transitions[-1][0] is window.before:
            self._transitions.pop()  # committed in this very step: it never reaches anyone
            self._vias.pop()
            committed.remove(window.action)
        else:
            self._replaced += 1
        self._take_back(now)
        self._commit(now, action, "correction")
        committed.append(action)

    def _enter(self, now: int, state: State) -> None:
        self._state = state
        self._expected = self._table(state).expected
        self._reset_mismatch(now)
        self._provisional = None
        self._choice.reset()
        self._correction = None
        self._acknowledged = None
        self._setup = False

    def restart(self, now: int, state: State) -> None:
        """A new game (the old one was abandoned): no history, guide the set-up."""
        self._history.clear()
        self._cache.clear()
        self._enter(now, state)
        self._setup = True
        self._output = None

    # --- evaluation ----------------------------------------------------------------------------
    def _evaluate(self, now: int, committed: list[Action], messages: list[str], took_back: int) -> TrackerOutput:
        self._deadline = None
        output = self._match(now, committed, took_back)
        if self._transitions:
            output = _with(output, transitions=tuple(self._transitions), commit_via=tuple(self._vias))
            self._transitions = []
            self._vias = []
        if self._replaced:
            output = _with(output, replaced=self._replaced)
            self._replaced = 0
        if self._pending:
            deadline = min(self._since[ch] for ch in self._pending) + self.config.debounce_ms
            self._deadline = deadline if self._deadline is None else min(self._deadline, deadline)
        if messages:
            output = _with(output, messages=tuple(messages))
        if self._masked:
            cells = self.board.cell_of_channel
            masked = tuple(
                SensorFault(ch, cells.get(ch), value, self._expected[ch]) for ch, value in sorted(self._masked.items())
            )
            output = _with(output, faults=tuple(dict.fromkeys(output.faults + masked)))
        self._output = (
            output
            if not (output.committed or output.took_back or output.messages)
            else _with(output, committed=(), transitions=(), commit_via=(), took_back=0, replaced=0, messages=())
        )
        return output

    def _set_deadline(self, when: int | None) -> None:
        if when is not None:
            self._deadline = when if self._deadline is None else min(self._deadline, when)

    def _match(self, now: int, committed: list[Action], took_back: int) -> TrackerOutput:
        state = self._state
        mismatch = frozenset(self._mismatch.items())
        base = {"state": state, "shown": state, "committed": tuple(committed), "took_back": took_back}
        if not self._started:
            return TrackerOutput(mode="idle", **base)
        choice = self._choice
        if not mismatch and choice.offer and not self._setup:
            choice.show_offer()
            previewed = choice.previewed(now, self._mismatch_since)
            self._set_deadline(choice.next_change(now, choice.offer_since))  # None: no rotation
            cands = self._table(state)
            return TrackerOutput(
                mode="confirm",
                hints=guidance.offer_hints(state, previewed, cands),
                candidates=choice.offer,
                previewed=previewed,
                **{**base, "shown": cands.successor(previewed)},
            )
        choice.offer = ()
        if not mismatch:
            self._provisional = None
            choice.asking = ()
            self._setup = False
            self._restore = False
            self._faults = ()
            return TrackerOutput(mode="idle", hints=self._card_hints(), **base)
        if self._setup or self._restore:
            # Set-up and an undo: guide at once towards the position the game is in.
            # A sensor that fails at power-up would otherwise hold set-up forever without a word.
            mode: Mode = "setup" if self._setup else "restore"
            faults = self._stuck(now, mismatch)
            return TrackerOutput(mode=mode, hints=self._guidance_to(frozenset()), faults=faults, **base)
        cands = self._table(state)
        actions: list[Choice] = list(choice.with_card(self._matching(cands, mismatch)))
        takeback = self._takeback_mismatch()
        if takeback is not None and mismatch == takeback:
            actions.append(TAKEBACK)
        if not actions:
            replied = self._fast_reply(mismatch, cands)
            if replied is not None:  # the last move, and the next player has started: commit it
                self._commit(now, replied)
                committed.append(replied)
                return self._match(now, committed, took_back)
            actions = list(self._asked_and_followed(mismatch, cands))  # the request stays
        corrections = [Correction(action) for action in self._corrections(mismatch)]
        if corrections and actions:
            actions.extend(corrections)  # a correction, or the next player's move: ask
        elif corrections:
            actions = list(corrections)
        elif len(actions) == 1 and actions[0] != TAKEBACK:
            actions.extend(self._moved_on(actions[0], cands))  # the last move moved on, or a new one?
        if (
            len(actions) == 1
            and not self._placement_unseen(actions[0], mismatch, cands)
            and not self._unseen_correction(actions[0])
        ):
            return self._single(now, actions[0], cands, committed, took_back, base)
        self._provisional = None
        if actions:
            choice.ask(actions)
            previewed = choice.previewed(now, self._mismatch_since)
            self._set_deadline(choice.next_change(now, self._mismatch_since))
            table = self._table_of(previewed, cands)
            hints = guidance.preview_hints(self._changed_cells(), self._shown_action(previewed), table)
            return TrackerOutput(
                mode="confirm",
                hints=hints,
                candidates=tuple(self._shown_action(a) for a in actions if a != TAKEBACK),
                previewed=None if previewed == TAKEBACK else self._shown_action(previewed),
                **{**base, "shown": self._successor_of(previewed, cands)},
            )
        choice.asking = ()
        return self._unmatched(now, mismatch, cands, base)

    def _single(
        self, now: int, choice: Action | str, cands: CandidateTable, committed: list[Action], took_back: int, base: dict
    ) -> TrackerOutput:
        self._choice.asking = ()
        if self._provisional != choice:
            self._provisional = choice
        quiet_since = max(self._mismatch_since, self._touched)
        due = quiet_since + self.config.settle_ms
        if choice == TAKEBACK:
            due = quiet_since + self.config.takeback_ms
            auto = self.config.takeback == "auto" and not self._capture_may_follow(cands)
            if auto and now >= due and not self._moving():
                self._take_back(now)
                return self._match(now, committed, took_back + 1)
            if auto:
                self._set_deadline(due)
            hints = {cell: "confirm" for cell in self._changed_cells()}
            return TrackerOutput(mode="takeback", hints=hints, **{**base, "shown": self._history[-1]})
        # No commit while a field of the move is still changing, nor before the board has been left
        # alone for the settle time: a piece touched down on its way is not a move.
        if not self._moving() and now >= due:
            self._accept(now, choice, committed, via="sensors")
            return self._match(now, committed, took_back)
        self._set_deadline(due)
        shown = self._shown_action(choice)
        table = self._table_of(choice, cands)
        if not isinstance(choice, Correction):
            self._acknowledged = shown
        print_ = table.footprint(shown)
        hints: dict[Cell, HintKind] = {cell: "destination" for cell in print_.targets}
        hints.update({cell: "capture" for cell in print_.captures})
        return TrackerOutput(
            mode="acknowledged", hints=hints, acknowledged=shown, **{**base, "shown": table.successor(shown)}
        )

    def _moving(self) -> bool:
        """Whether a field of the move is still changing (a flicker elsewhere does not count)."""
        return any(channel in self._mismatch for channel in self._pending)

    def _placement_unseen(self, choice: Action | str, mismatch: Mismatch, cands: CandidateTable) -> bool:
        """Whether the action puts a piece where no sensor notices it, so the board cannot tell a
        finished move from one still in the hand: then the player confirms instead of the board
        guessing.

        That is a piece put on a field whose pieces all stay and whose reading does not change (a
        Catcher sent home onto its own stack under a binary or signed sensor). A field that is
        emptied on the way (a Klotz capture) is seen when it fills again.
        """
        if choice == TAKEBACK:
            return False
        cands = self._table_of(choice, cands)
        choice = self._shown_action(choice)
        if self._masked:
            channel_of = self.board.channel_of
            print_ = cands.footprint(choice)
            if any(channel_of.get(cell) in self._masked for cell in print_.targets | print_.returns):
                return True  # a piece put on a field whose sensor is left out: nobody sees it arrive
        return cands.unseen_placement(choice)

    def _unmatched(self, now: int, mismatch: Mismatch, cands: CandidateTable, base: dict) -> TrackerOutput:
        self._provisional = None
        elapsed = now - self._mismatch_since
        faults = self._stuck(now, mismatch, cands)
        if elapsed >= self.config.guide_after_ms:
            return TrackerOutput(mode="guidance", hints=self._guidance_to(None), faults=faults, **base)
        self._set_deadline(self._mismatch_since + self.config.guide_after_ms)
        return TrackerOutput(mode="moving", hints=self._lifted_hints(cands), faults=faults, **base)

    def _stuck(self, now: int, mismatch: Mismatch, cands: CandidateTable | None = None) -> tuple[SensorFault, ...]:
        """A single wrong channel that holds for `stuck_after_ms` is reported as a sensor fault,
        unless (with `cands`, in play) it is a piece the player on turn may move, lifted."""
        if len(mismatch) != 1:
            return ()
        if now - self._mismatch_since < self.config.stuck_after_ms:
            self._set_deadline(self._mismatch_since + self.config.stuck_after_ms)
            return ()
        ((channel, value),) = tuple(mismatch)
        if cands is not None and self._liftable(channel, value, cands):
            return ()  # a piece of the player on turn held in the air, however long: not a fault
        fault = SensorFault(channel, self.board.cell_of_channel.get(channel), value, self._expected[channel])
        if self.config.mask_stuck:
            # Leave it out of the matching so the game can go on; it comes back when it changes.
            self._masked[channel] = value
            self._mismatch.pop(channel, None)
            self._set_deadline(now)  # match again at the next scan, without it
        return (fault,)

    def _changed_cells(self) -> list[Cell]:
        cells = self.board.cell_of_channel
        return [cells[ch] for ch in self._mismatch if ch in cells]


def _with(output: TrackerOutput, **changes) -> TrackerOutput:
    return replace(output, **changes)
