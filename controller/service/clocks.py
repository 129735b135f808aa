"""Board time for the service loop (docs/service.md): the wall clock on a real board, one period
per scan on the simulated board. The loop alone reads the clock and sleeps."""

from __future__ import annotations

from collections.abc import Callable


class RealClock:
    """Board time is wall-clock (monotonic) time: one scan per period, missed scans are not made up."""

    def __init__(self, period_ms: float, monotonic: Callable[[], float], sleep: Callable[[float], None]) -> None:
        self._period = period_ms / 1000
        self._monotonic = monotonic
        self._sleep = sleep
        self._t0: float | None = None
        self._next = 0.0
        self._last = 0

    def tick(self) -> int:
        """Wait until the next scan is due; its board time in milliseconds."""
        if self._t0 is None:
            self._t0 = self._next = self._monotonic()
        else:
            delay = self._next - self._monotonic()
            if delay > 0:
                self._sleep(delay)
        now = self._monotonic()
        self._next += self._period
        if self._next < now:  # more than a period late: the missed scans are lost, not owed
            self._next = now + self._period
        self._last = max(self._last, round((now - self._t0) * 1000))
        return self._last


class VirtualClock:
    """Board time of the simulated board: exactly one period per scan (so a seeded game replays the
    same on any machine), paced to run `speed` times as fast as the wall clock; 0 = no waiting."""

    def __init__(
        self, period_ms: float, speed: float, monotonic: Callable[[], float], sleep: Callable[[float], None]
    ) -> None:
        self._period = period_ms
        self._monotonic = monotonic
        self._sleep = sleep
        self._scans = 0
        self._t0 = 0.0
        self.speed = speed

    def set_speed(self, speed: float) -> None:
        """Change the pace from the next scan on, without a jump in board time."""
        if self._scans and speed > 0:  # the last scan was now; the next one follows a period later
            self._t0 = self._monotonic() - (self._scans - 1) * self._period / 1000 / speed
        self.speed = speed

    def tick(self) -> int:
        if self._scans == 0:
            self._t0 = self._monotonic()
        board_ms = self._scans * self._period
        self._scans += 1
        if self.speed > 0:
            delay = self._t0 + board_ms / 1000 / self.speed - self._monotonic()
            if delay > 0:
                self._sleep(delay)
        return round(board_ms)


# --- the service --------------------------------------------------------------------------------------
