"""Limits that keep one page, or one address, from wearing out a Pi Zero or locking out the table
(docs/web.md, "What no page can do"): messages per second per page, pages per address, and the
table PIN's lock-out per address that relaxes with time.

Pure bookkeeping: the time is a parameter (seconds, monotonic), so the limits are tested without
waiting.
"""

from __future__ import annotations

import hmac
import ipaddress
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
ADDRESSES_KEPT = 1024  # guessing sources with a count of their own; beyond, the rest share one
IPV6_SOURCE_PREFIX = 64  # a device picks any address of its network's /64 (privacy addresses)
OTHERS = "other addresses"


def guessing_source(address: str) -> str:
    """Who a wrong PIN is counted against: the address a connection came from as the network gave
    it (never a header a page sends); an IPv4 address in IPv6's form is that IPv4 address, and an
    IPv6 address is its /64 network, from which one device may take any number of addresses."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, IPV6_SOURCE_PREFIX), strict=False))
    return str(parsed)


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
    doublings: int = 0  # waits in a row as of the last wrong PIN (each twice as long as the one before)
    locked_until: float = 0.0
    last_wrong: float = 0.0  # when the last wrong PIN came

    def doublings_now(self, now: float) -> int:
        """The doublings left: one is taken back for every `PIN_RELAX_S` without a wrong PIN."""
        return max(0, self.doublings - int((now - self.last_wrong) // PIN_RELAX_S))

    def wrong_pin(self, now: float) -> None:
        self.doublings = self.doublings_now(now)
        self.wrong += 1
        self.last_wrong = now
        if self.wrong >= PIN_TRIES:
            self.wrong = 0
            self.locked_until = now + PIN_WAIT_S * 2 ** min(self.doublings, PIN_MAX_DOUBLINGS)
            self.doublings += 1

    def forgettable(self, now: float) -> bool:
        """Nothing left to remember: no wait now or to come, and a quiet stretch since the last wrong PIN."""
        return self.doublings_now(now) == 0 and now >= self.locked_until and now - self.last_wrong >= PIN_RELAX_S


class PinGuard:
    """The table PIN, checked per guessing source (an address; an IPv6 device's /64): five wrong in
    a row make that source wait, each wait twice as long as the last (up to 16 minutes), relaxing
    one step per 10 quiet minutes. Other sources are never held up by one that guesses. A count is
    forgotten to make room only once it has nothing left to remember: a guesser with more addresses
    than are kept shares one count with every other address beyond them."""

    def __init__(self, pin: str) -> None:
        self._pin = pin.encode("utf-8")
        self._tries: OrderedDict[str, _Tries] = OrderedDict()

    def check(self, address: str, given: str, now: float) -> str | None:
        """None when `given` is the PIN and `address` may try now; otherwise why not, in words."""
        source = guessing_source(address)
        if source not in self._tries and OTHERS in self._tries:
            source = self._make_room(source, now)
        tries = self._tries.get(source)
        if tries is not None and now < tries.locked_until:
            who = "this device" if source != OTHERS else "more addresses than the board keeps apart"
            return f"too many wrong PINs from {who}: try again in {tries.locked_until - now:.0f} s"
        if hmac.compare_digest(given.strip().encode("utf-8"), self._pin):
            if source != OTHERS:
                self._tries.pop(source, None)
            return None
        if tries is None:
            source = self._make_room(source, now)
            tries = self._tries.setdefault(source, _Tries())
        self._tries.move_to_end(source)
        tries.wrong_pin(now)
        return "wrong table PIN (the board shows it on its LEDs when asked, and it is in the board's log)"

    def _make_room(self, source: str, now: float) -> str:
        """Where a source without a count of its own is counted: its own new count, after the oldest
        forgettable count is dropped if the table is full; else the count the other addresses share."""
        if len(self._tries) < ADDRESSES_KEPT:
            return source
        for kept, tries in self._tries.items():
            if kept != OTHERS and tries.forgettable(now):
                del self._tries[kept]
                return source
        return OTHERS
