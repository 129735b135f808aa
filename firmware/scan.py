"""Sensor scanning and per-channel debounce for the scanner board.

The scanners take pin objects (machine.Pin on the board, fakes under CPython), so the same code runs
in the tests. Wiring is the same as the Raspberry Pi's GPIO path:

- 74HC4067 multiplexers: four select lines S0..S3 shared by all muxes (S0 is the lowest address
  bit), one signal pin per mux. Channel = mux * 16 + address. The addresses are visited in Gray-code
  order, so only one select line changes per step (16 pin writes per scan instead of 64).
- A chain of 74HC165 shift registers: /PL (SH/LD) low latches every input, then each rising edge of
  CLK shifts the chain by one bit towards the board's data pin (Q7 = QH of chip 0, the chip nearest
  the board). Channel = chip * 8 + input, with inputs D0..D7 (A..H) numbered 0..7; the bits arrive
  as chip 0's D7, D6 .. D0, then chip 1's D7, and so on.

Reed switches and digital hall sensors pull their line low when a magnet is there (`active_low`),
so a low level reads as 1.
"""

GRAY = tuple(address ^ (address >> 1) for address in range(16))
"""The 16 mux addresses, each differing from the one before (and the last from the first) in one bit."""


class MuxScanner:
    """74HC4067 multiplexers sharing four select lines."""

    def __init__(
        self,
        select_pins: list,
        signal_pins: list,
        channels: int,
        active_low: bool = True,
        settle_us: int = 10,
        sleep_us: object = None,
    ) -> None:
        """`settle_us`: wait after each select step, so the common line (behind a weak pull-up and
        the multiplexer's capacitance) settles: else the field read after an occupied one shows a
        stable phantom piece. `sleep_us` is the clock's microsecond wait (time.sleep_us)."""
        if len(select_pins) != 4:
            raise ValueError(f"a 74HC4067 needs 4 select pins, got {len(select_pins)}")
        if not signal_pins:
            raise ValueError("at least one mux signal pin is needed")
        if not 0 < channels <= 16 * len(signal_pins):
            raise ValueError(f"{channels} channels do not fit {len(signal_pins)} mux(es) of 16 channels")
        self.channels = channels
        self._settle_us = settle_us
        if sleep_us is None:
            import time

            sleep_us = getattr(time, "sleep_us", None) or (lambda us: time.sleep(us / 1_000_000))
        self._sleep_us = sleep_us
        self._selects = list(select_pins)
        for pin in self._selects:
            pin.value(0)
        self._address = 0
        self._invert = 1 if active_low else 0
        # For each select address in Gray-code order, the (channel, pin) pairs read while it is set.
        self._groups = []
        for address in GRAY:
            pairs = []
            for mux, pin in enumerate(signal_pins):
                channel = mux * 16 + address
                if channel < channels:
                    pairs.append((channel, pin))
            self._groups.append((address, pairs))

    def read(self, values: list) -> None:
        """Read every channel into `values` (a list of length `channels`)."""
        selects = self._selects
        invert = self._invert
        current = self._address
        for address, pairs in self._groups:
            if not pairs:
                continue
            changed = address ^ current
            for bit in range(4):
                if changed >> bit & 1:
                    selects[bit].value(address >> bit & 1)
            current = address
            if self._settle_us:
                self._sleep_us(self._settle_us)
            for channel, pin in pairs:
                values[channel] = pin.value() ^ invert
        self._address = current


class ShiftScanner:
    """A chain of 74HC165 parallel-in serial-out shift registers."""

    def __init__(
        self, load_pin: object, clock_pin: object, data_pin: object, channels: int, active_low: bool = True
    ) -> None:
        if channels <= 0:
            raise ValueError("at least one channel is needed")
        self.channels = channels
        # The channel of each bit clocked out (None for unused inputs of the last chip).
        chips = (channels + 7) // 8
        self._order = []
        for bit in range(chips * 8):
            channel = bit // 8 * 8 + 7 - bit % 8
            self._order.append(channel if channel < channels else None)
        self._load = load_pin
        self._clock = clock_pin
        self._data = data_pin
        self._invert = 1 if active_low else 0
        self._load.value(1)
        self._clock.value(0)

    def read(self, values: list) -> None:
        load, clock, data, invert = self._load, self._clock, self._data, self._invert
        load.value(0)  # latch all inputs
        load.value(1)
        for channel in self._order:
            if channel is not None:
                values[channel] = data.value() ^ invert
            clock.value(1)  # rising edge: the next bit appears on Q7
            clock.value(0)


def debounce_scans(debounce_ms: int, scan_hz: int) -> int:
    """How many consecutive equal scans make a reading stable: the first scan that saw the new
    value plus one for every scan period within `debounce_ms`."""
    return debounce_ms * scan_hz // 1000 + 1


class Debouncer:
    """Per-channel debounce at a fixed scan rate.

    A channel's stable value changes once a different raw value has been read in `scans`
    consecutive scans; any other value in between starts the count again. The first scan is taken
    as stable at once: the pieces were standing there before the board was switched on.
    """

    def __init__(self, channels: int, scans: int) -> None:
        if scans < 1:
            raise ValueError(f"debounce needs at least 1 scan, not {scans}")
        self.scans = scans
        self.stable = [0] * channels
        self._candidate = [0] * channels
        self._count = [0] * channels
        self._primed = False

    def update(self, raw: list) -> list:
        """Feed one scan; returns the channels whose stable value changed (in channel order)."""
        if not self._primed:
            self._primed = True
            self.stable = list(raw)
            self._candidate = list(raw)
            return []
        stable, candidate, count, scans = self.stable, self._candidate, self._count, self.scans
        changed = []
        for channel in range(len(stable)):
            value = raw[channel]
            if value == stable[channel]:
                count[channel] = 0
                continue
            if count[channel] and value == candidate[channel]:
                count[channel] += 1
            else:
                candidate[channel] = value
                count[channel] = 1
            if count[channel] >= scans:
                stable[channel] = value
                count[channel] = 0
                changed.append(channel)
        return changed
