"""The four select lines shared by all 74HC4067 multiplexers, stepped in Gray-code order.

In Gray-code order exactly one select line changes between consecutive addresses, so a scan costs 19
pin writes instead of 64, and the multiplexers never pass through an unrelated address on the way.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence

from hal.gpio.lines import Writer

GRAY: tuple[int, ...] = tuple(i ^ (i >> 1) for i in range(16))
"""The 16 multiplexer addresses, each differing from the one before in one bit."""


def busy_wait(seconds: float) -> None:
    """Wait a few microseconds: time.sleep() is far too coarse for settling a select line."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


class SelectLines:
    """Drives S0..S3; `addresses()` selects every address once per scan and yields it."""

    def __init__(
        self, writers: Sequence[Writer], settle_us: int = 0, wait: Callable[[float], None] = busy_wait
    ) -> None:
        if len(writers) != 4:
            raise ValueError(f"a 74HC4067 has 4 select lines, got {len(writers)}")
        self._writers = tuple(writers)  # one library call per write
        self._settle = settle_us / 1_000_000
        self._wait = wait

    def addresses(self) -> Iterator[int]:
        writers = self._writers
        previous: int | None = None
        for address in GRAY:
            if previous is None:
                # Write every line at the start of a scan: nothing else may have left them as we did.
                for bit, write in enumerate(writers):
                    write((address >> bit) & 1)
            else:
                bit = (address ^ previous).bit_length() - 1
                writers[bit]((address >> bit) & 1)
            previous = address
            if self._settle:
                self._wait(self._settle)
            yield address
