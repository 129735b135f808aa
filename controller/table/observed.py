"""What the board shows against the game's position: the first stages of the tracker's pipeline.

Readings go through the debouncer (stable changes with their times), the sensor health (which
channels are trusted) and the knock watch (a knocked piece counts where it stood until it is back);
what is left is the *mismatch*: the (channel, reading) pairs where the trusted, settled board differs
from the position the game is in. The matcher and the decisions (tracker.py) read only this.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from controller.games import Action, Cell
from controller.table.board import BoardMap
from controller.table.candidates import CandidateTable
from controller.table.debounce import Debouncer
from controller.table.explanations import Scene
from controller.table.health import SensorHealth, Timing
from controller.table.knocks import KnockWatch, neighbours_on
from controller.table.tracker_types import Mismatch, SensorFault, TrackerConfig, unmasked
from hal.protocols import Readings

Liftable = Callable[[int, int], bool]
"""Whether a channel's reading may be a piece lifted for the move under way (never a fault then)."""


class Observed:
    """The settled, trusted evidence against the expected readings, kept up to date scan by scan."""

    def __init__(self, board: BoardMap, config: TrackerConfig, expected: tuple[int, ...]) -> None:
        self.board = board
        self.debouncer = Debouncer(board.channels, config.debounce_ms)
        self.health = SensorHealth(config.stuck_after_ms, config.mask_stuck)
        self.masked = self.health.masked  # failed channels left out of the matching -> their reading
        self.knocks = KnockWatch(board.cell_of_channel, neighbours_on(board), config.debounce_ms)
        self.expected = expected  # what every channel reads when the board shows the position
        self.mismatch: dict[int, int] = {}
        self.since = 0  # when the mismatch last changed (its last raw change)
        self.touched = 0  # the last raw change on a field where the board differs from the game

    def feed(self, now: int, readings: Readings | None) -> bool:
        """Take one scan (None: dropped); True if a stable reading changed, and the evidence was
        brought up to date (knocks recognised, failed sensors left out, the mismatch recomputed)."""
        scan = self.debouncer.feed(now, readings)
        if scan.first:
            self.reset(now)
            return True
        mismatch = self.mismatch
        if any(channel in mismatch for channel in scan.touched):
            # A hand at a field of the move, even for less than the debounce time: the position is
            # not settled yet.
            self.touched = now
        if not scan.settled:
            return False
        health = self.health
        stable = self.debouncer.stable
        for channel in health.calmed(now):  # held one reading a while: judged as any other again
            if stable[channel] == self.expected[channel]:
                self.masked.pop(channel, None)
            elif channel in self.masked:
                self.masked[channel] = stable[channel]
        for channel in health.chatters(scan.changes):
            mismatch.pop(channel, None)  # a sensor that chatters: left out, and reported
        chattering = health.chattering
        changes = [change for change in scan.changes if change.channel not in chattering]
        for channel in health.impossible(changes, self.debouncer.stable_since):
            mismatch.pop(channel, None)  # a sensor that lies: left out, and reported
        knocked_before = set(self.knocks.overrides)
        self.knocks.observe(changes, now)
        for channel, since in self.knocks.take_redated().items():
            self.debouncer.redate(channel, since)
        overrides = self.knocks.overrides
        for channel in {*scan.settled, *knocked_before, *overrides}:
            value = overrides.get(channel, stable[channel])
            if channel in self.masked:
                if value == self.masked[channel] or channel in chattering:
                    continue
                del self.masked[channel]  # it changed: the sensor is alive again
            if value != self.expected[channel]:
                mismatch[channel] = value
            else:
                mismatch.pop(channel, None)
        # The position dates from its last raw change: the debounce time counts towards settling.
        # A chattering sensor's changes are no hand's.
        moved = [channel for channel in scan.settled if channel not in chattering]
        if moved:
            self.since = self.debouncer.last_change(moved)
        return True

    def board_readings(self) -> list[int]:
        """The stable readings as the matching sees them: a knocked piece counts where it stood
        until it is back."""
        board = list(self.debouncer.stable)
        for channel, value in self.knocks.overrides.items():
            board[channel] = value
        return board

    def changed_cells(self) -> list[Cell]:
        """The fields where the board differs from the position."""
        cells = self.board.cell_of_channel
        return [cells[channel] for channel in self.mismatch if channel in cells]

    def as_sensed(self) -> Mismatch:
        """The mismatch as the sensors read it, no knock undone (where the board read a knock, the
        same readings may be a move)."""
        return frozenset(self._differences(self.debouncer.stable).items())

    def _differences(self, readings: Sequence[int]) -> dict[int, int]:
        """Channel -> reading, where `readings` differ from the position (failed channels left out)."""
        expected, masked = self.expected, self.masked
        return {ch: v for ch, v in enumerate(readings) if v != expected[ch] and ch not in masked}

    def reset(self, now: int) -> None:
        """Compare the whole board with the expected readings again (a new position, a first scan)."""
        self.mismatch = self._differences(self.board_readings())
        self.since = now

    def committed(self, made: int, fields: frozenset[int], changed: frozenset[int], now: int | None = None) -> None:
        """The game took a move made at `made` on `fields` (`changed`: those whose reading it
        changes), at `now`: a knock there is over, faults are judged against the move from now on,
        and its fields no sensor saw a hand at this turn are where one was, unseen."""
        knocks, since = self.knocks, self.debouncer.stable_since
        unseen = frozenset(channel for channel in fields - changed if since[channel] <= knocks.turn_began)
        knocks.moved(fields, unseen, now)
        self.health.committed(made, changed)

    def expect(self, now: int, expected: tuple[int, ...]) -> None:
        """The game is in a new position: its readings are what the board should show now."""
        self.expected = expected
        self.reset(now)

    def unmasked(self, mismatch: Mismatch) -> Mismatch:
        return unmasked(mismatch, self.masked)

    def matching(self, candidates: CandidateTable, evidence: Mismatch) -> list[Action]:
        """The actions of `candidates`' state that the evidence shows, failed channels left out."""
        if not evidence:
            return []
        return list(candidates.matching(evidence, self.masked))

    def scene(
        self,
        acknowledged: Action | None,
        acknowledged_at: int | None,
        asked: tuple[Action | str, ...],
        corrected: frozenset[int],
    ) -> Scene:
        """The evidence now as the explanations read it (explanations.py), with what the board has
        shown of it: the move acknowledged and when, the moves asked about, a correction's fields."""
        moved, debouncer = self.health.moved, self.debouncer
        return Scene(
            self.mismatch,
            self.expected,
            debouncer.dating,
            self.masked,
            acknowledged,
            moved[0] if moved is not None else None,
            self.knocks.beside,
            acknowledged_at,
            asked,
            debouncer.blind_until,
            corrected,
            debouncer.began_by,
        )

    def moving(self) -> bool:
        """Whether a field of the move is still changing (a flicker elsewhere does not count)."""
        return any(channel in self.mismatch for channel in self.debouncer.pending)

    def faults(
        self,
        now: int,
        liftable: Liftable | None,
        set_deadline: Callable[[int | None], None],
        in_hands: Callable[[frozenset[int]], bool] | None = None,
    ) -> tuple[SensorFault, ...]:
        """The sensor faults the evidence shows (health.py); a failed channel leaves the matching at
        once, so the game goes on without it."""
        timing = Timing(now, self.since, self.debouncer.stable_since, self.debouncer.unsure)
        mismatch = frozenset(self.mismatch.items())
        cells = self.board.cell_of_channel
        faults = self.health.judge(mismatch, timing, self.expected, cells, liftable, set_deadline, in_hands)
        if faults and self.health.mask:
            for fault in faults:
                self.mismatch.pop(fault.channel, None)
            set_deadline(now)  # match again at the next scan, without it
        return faults

    def masked_faults(self) -> tuple[SensorFault, ...]:
        """Every channel left out now, as faults to report."""
        cells = self.board.cell_of_channel
        return tuple(
            SensorFault(ch, cells.get(ch), value, self.expected[ch]) for ch, value in sorted(self.masked.items())
        )
