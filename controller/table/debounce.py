"""The first stage of the tracker: from raw scans to stable readings, each dated.

A reading becomes stable once it has held for `debounce_ms`; its change is dated by the raw change
that started it (the first one, through any contact bounce), so the times the rest of the tracker
reasons with (which field emptied first, how fast a piece slid) are the times the hands acted, not
the times the debounce let them through. A dropped scan (None) is no evidence either way. The first
scan is taken as stable at once: the board was lying there before anyone looked.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from controller.table.evidence import Dating
from controller.table.knocks import Change
from hal.protocols import Readings


@dataclass
class Scan:
    """What one scan brought: the stable changes (dated), and the channels whose raw reading moved."""

    changes: list[Change] = field(default_factory=list)
    settled: list[int] = field(default_factory=list)  # channels that became stable (changed or not)
    touched: list[int] = field(default_factory=list)  # channels whose raw reading changed in this scan
    first: bool = False  # the first scan: every reading is stable at once


NOTHING = Scan()  # what an unchanged scan brings (shared, never changed: the hot path allocates nothing)


class Debouncer:
    """Per-channel debounce with the time each stable reading began (see the module docstring)."""

    def __init__(self, channels: int, debounce_ms: int) -> None:
        self.debounce_ms = debounce_ms
        self.raw = [0] * channels
        self.since = [0] * channels  # last raw change per channel
        self.stable = [0] * channels
        self.stable_since = [0] * channels  # when each channel's stable reading began (its raw change)
        self.stable_until = [0] * channels  # ... to the last raw change of that episode
        self.pending: set[int] = set()
        self.started = False
        self._left = [0] * channels  # when the raw reading first left the stable one, this episode
        self._back = [-(10**9)] * channels  # when it last came back to the stable one (a bounce)
        self._last: Readings | None = None
        self._seen = 0  # the last scan that came in
        self._earliest: dict[int, int] = {}  # channel -> the earliest its pending change may have been
        self.unsure: set[int] = set()  # channels whose stable reading was first seen after an outage
        # The end of the last outage (the scanner silent longer than the debounce): before it, any
        # field may have changed and changed back unseen.
        self.blind_until = -(10**9)
        self.blind_since = -(10**9)  # ... and its start (the last scan before it)
        self.dating = Dating(self.stable_since, self.stable_until, self.unsure)

    def feed(self, now: int, readings: Readings | None) -> Scan:
        """One scan (None: dropped); what it brought."""
        if readings is None:
            return NOTHING
        seen, self._seen = self._seen, now
        if now - seen > self.debounce_ms and self.started:
            self.blind_since, self.blind_until = seen, now
        if readings == self._last and not self.pending:
            return NOTHING
        scan = Scan()
        if readings != self._last:
            if len(readings) != len(self.raw):
                raise ValueError(f"scan has {len(readings)} channels; the board has {len(self.raw)}")
            if not self.started:
                self.started = True
                self.raw = list(readings)
                self.stable = list(readings)
                self._last = readings
                scan.first = True
                return scan
            raw, since, stable, pending = self.raw, self.since, self.stable, self.pending
            previous = self._last or ()
            left, back, debounce = self._left, self._back, self.debounce_ms
            for channel, value in enumerate(readings):
                if value != previous[channel]:
                    raw[channel] = value
                    since[channel] = now
                    scan.touched.append(channel)
                    if value != stable[channel]:
                        if channel not in pending and now - back[channel] > debounce:
                            left[channel] = now  # a new change, not the bounce of the last one
                            if now - seen > debounce:  # first seen after an outage: any time since
                                self._earliest[channel] = seen + 1
                            else:
                                self._earliest.pop(channel, None)
                        pending.add(channel)
                    else:
                        pending.discard(channel)
                        back[channel] = now
            self._last = readings
        if not self.pending:
            return scan
        scan.settled = [ch for ch in self.pending if now - self.since[ch] >= self.debounce_ms]
        for channel in scan.settled:
            self.pending.discard(channel)
            value = self.raw[channel]
            if value != self.stable[channel]:
                began = min(self._left[channel], self.since[channel])
                earliest = self._earliest.pop(channel, None)
                if earliest is None:
                    self.unsure.discard(channel)
                else:
                    self.unsure.add(channel)
                last = max(began, self.since[channel])
                scan.changes.append(
                    Change(
                        channel,
                        self.stable[channel],
                        value,
                        began,
                        self.stable_since[channel],
                        earliest,
                        last if last > began else None,
                    )
                )
                self.stable_since[channel] = began
                self.stable_until[channel] = last
            self.stable[channel] = value
        return scan

    def redate(self, channel: int, since: int) -> None:
        """Date `channel`'s stable reading from `since`: it reads again what it read then, and what
        came between was no hand's change there (a knocked piece that visited and went home)."""
        if since < self.stable_since[channel]:
            self.stable_since[channel] = self.stable_until[channel] = since

    def began_by(self, channel: int) -> int:
        """The earliest moment `channel`'s stable reading may have begun: its first raw change, or
        the start of the outage after which it was first seen changed."""
        since = self.stable_since[channel]
        return min(since, self.blind_since) if channel in self.unsure else since

    def silent_at(self, now: int) -> bool:
        """Whether the scanner has been silent longer than the debounce at `now`: the board cannot
        tell what changes meanwhile (a piece may be moving unseen)."""
        return self.started and now - self._seen > self.debounce_ms

    def next_settle(self) -> int | None:
        """When the earliest pending reading becomes stable, if any is pending."""
        if not self.pending:
            return None
        return min(self.since[ch] for ch in self.pending) + self.debounce_ms

    def moving(self, channels: Collection[int]) -> bool:
        """Whether any of `channels` is still changing (a raw reading not yet stable)."""
        return any(channel in channels for channel in self.pending)

    def last_change(self, channels: Collection[int]) -> int:
        return max(self.since[ch] for ch in channels)
