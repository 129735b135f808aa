"""Limits that keep one page, or one address, from wearing out a Pi Zero or locking out the table
(docs/web.md, "What no page can do"): messages per second per page, pages per address, and the
table PIN's lock-out per address that relaxes with time.

Pure bookkeeping: the time is a parameter (seconds, monotonic), so the limits are tested without
waiting.
"""

from __future__ import annotations

import hmac
from collections import OrderedDict
from dataclasses import dataclass

MESSAGES_PER_S = 20.0
MESSAGE_BURST = 40.0
REFUSALS_BEFORE_CLOSE = 40  # messages refused for flooding in a row: the page is closed
PAGES_PER_ADDRESS = 16
PIN_TRIES = 5  # wrong PINs in a row from one address before it waits
PIN_WAIT_S = 30.0
PIN_MAX_DOUBLINGS = 5  # 30 s, 60 s, ... 16 min at most
PIN_RELAX_S = 600.0  # every 10 minutes without a wrong PIN halve the next wait again
ADDRESSES_KEPT = 1024


class MessageRate:
    """A token bucket per page: `MESSAGES_PER_S` on average, bursts of `MESSAGE_BURST`."""

    def __init__(self, now: float) -> None:
        self._tokens = MESSAGE_BURST
        self._at = now
        self.refused_in_a_row = 0

    def allow(self, now: float) -> bool:
        self._tokens = min(MESSAGE_BURST, self._tokens + (now - self._at) * MESSAGES_PER_S)
        self._at = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            self.refused_in_a_row = 0
            return True
        self.refused_in_a_row += 1
        return False

    @property
    def abusive(self) -> bool:
        """The page went on sending long after being told to slow down."""
        return self.refused_in_a_row >= REFUSALS_BEFORE_CLOSE


class PageCount:
    """Open pages per address."""

    def __init__(self) -> None:
        self._open: dict[str, int] = {}

    def open(self, address: str) -> bool:
        """Count one more page from `address`; False (not counted) when it has too many."""
        count = self._open.get(address, 0)
        if count >= PAGES_PER_ADDRESS:
            return False
        self._open[address] = count + 1
        return True

    def close(self, address: str) -> None:
        count = self._open.get(address, 0) - 1
        if count > 0:
            self._open[address] = count
        else:
            self._open.pop(address, None)


@dataclass
class _Tries:
    wrong: int = 0  # wrong PINs in a row since the last wait
    doublings: int = 0  # how many waits in a row (each twice as long as the one before)
    locked_until: float = 0.0
    last_wrong: float = 0.0


class PinGuard:
    """The table PIN, checked per address: five wrong in a row make that address wait, each wait
    twice as long as the last (up to 16 minutes), relaxing one step per 10 quiet minutes. Other
    addresses are never held up by one that guesses."""

    def __init__(self, pin: str) -> None:
        self._pin = pin.encode("utf-8")
        self._tries: OrderedDict[str, _Tries] = OrderedDict()

    def check(self, address: str, given: str, now: float) -> str | None:
        """None when `given` is the PIN and `address` may try now; otherwise why not, in words."""
        tries = self._tries.get(address)
        if tries is not None:
            if now < tries.locked_until:
                return f"too many wrong PINs from this device: try again in {tries.locked_until - now:.0f} s"
            quiet = int((now - tries.last_wrong) // PIN_RELAX_S)
            if quiet > 0:  # each quiet stretch relaxes once
                tries.doublings = max(0, tries.doublings - quiet)
                tries.last_wrong += quiet * PIN_RELAX_S
        if hmac.compare_digest(given.strip().encode("utf-8"), self._pin):
            self._tries.pop(address, None)
            return None
        if tries is None:
            tries = self._tries[address] = _Tries()
            while len(self._tries) > ADDRESSES_KEPT:
                self._tries.popitem(last=False)
        self._tries.move_to_end(address)
        tries.wrong += 1
        tries.last_wrong = now
        if tries.wrong >= PIN_TRIES:
            tries.wrong = 0
            tries.locked_until = now + PIN_WAIT_S * 2 ** min(tries.doublings, PIN_MAX_DOUBLINGS)
            tries.doublings += 1
        return "wrong table PIN (the board shows it on its LEDs when asked, and it is in the board's log)"
