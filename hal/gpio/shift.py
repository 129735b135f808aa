"""Scanning digital sensors through a chain of 74HC165 parallel-in, serial-out shift registers.

A low pulse on SH/LD copies all inputs into the chain at once; then every rising CLK edge shifts it
one place towards the Pi. The first bit out is input H of chip 0 (the chip whose QH goes to the Pi),
then G .. A, then chip 1's H, and so on. Channel c of the board profile is input c % 8 (A = 0 .. H = 7)
of chip c // 8, so channels 0..7 are chip 0's A..H.
"""

from __future__ import annotations

from typing import Any

from hal.gpio.factory import PinSet
from hal.gpio.wiring import SHIFT_INPUTS, ShiftRegisterWiring
from hal.protocols import Readings


def shift_order(channels: int) -> list[int | None]:
    """The channel each clocked-out bit belongs to (None: an unused input of the last chip)."""
    chips = -(-channels // SHIFT_INPUTS)
    order: list[int | None] = []
    for bit in range(chips * SHIFT_INPUTS):
        channel = (bit // SHIFT_INPUTS) * SHIFT_INPUTS + (SHIFT_INPUTS - 1 - bit % SHIFT_INPUTS)
        order.append(channel if channel < channels else None)
    return order


class ShiftRegisterScanner:
    """A SensorSource reading every channel once per `scan()`."""

    def __init__(self, wiring: ShiftRegisterWiring, channels: int, factory: Any, board: str = "in use") -> None:
        wiring.check_channels(channels, board)
        self.wiring = wiring
        self._channels = channels
        self._pins = PinSet(factory)
        self._load = self._pins.output(wiring.load_pin, "shift register SH/LD", initial=True)  # high: shift mode
        self._clock = self._pins.output(wiring.clock_pin, "shift register CLK", initial=False)
        if wiring.clock_enable_pin is not None:
            self._pins.output(wiring.clock_enable_pin, "shift register CLK INH", initial=False)  # low: clock on
        # QH drives the line itself; the pull only decides what an unplugged chain reads: no magnets.
        self._data = self._pins.input(wiring.data_pin, "shift register QH (data)", pull_up=wiring.active_low)
        self._order = shift_order(channels)
        self._level = (1, 0) if wiring.active_low else (0, 1)

    @property
    def channels(self) -> int:
        return self._channels

    def scan(self) -> Readings:
        readings = [0] * self._channels
        level = self._level
        load, clock, data = self._load, self._clock, self._data
        load.state = 0  # latch every input into the chain
        load.state = 1
        for channel in self._order:
            if channel is not None:
                readings[channel] = level[bool(data.state)]
            clock.state = 1  # rising edge: the next bit appears on QH
            clock.state = 0
        return tuple(readings)

    def close(self) -> None:
        self._pins.close()

    def __enter__(self) -> ShiftRegisterScanner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
