"""Scanning digital sensors (reed switches, digital hall switches) through 74HC4067 multiplexers.

All multiplexers share the four select lines; each has its own common (SIG) pin on a Pi input. Channel
c of the board profile is input c % 16 of multiplexer c // 16.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hal.gpio.device import PinDevice
from hal.gpio.factory import PinSet
from hal.gpio.select import SelectLines, busy_wait
from hal.gpio.wiring import MUX_INPUTS, MuxWiring
from hal.protocols import Readings


class MuxScanner(PinDevice):
    """A SensorSource reading every channel once per `scan()`."""

    def __init__(
        self,
        wiring: MuxWiring,
        channels: int,
        factory: Any,
        board: str = "in use",
        wait: Callable[[float], None] = busy_wait,
    ) -> None:
        wiring.check_channels(channels, board)
        self.wiring = wiring
        self._channels = channels
        self._pins = PinSet(factory)
        select = [self._pins.output(pin, f"multiplexer select S{bit}") for bit, pin in enumerate(wiring.select_pins)]
        if wiring.enable_pin is not None:
            self._pins.output(wiring.enable_pin, "multiplexer enable", initial=False)  # E is active low
        signals = [
            self._pins.input(pin, f"multiplexer {index} signal", wiring.pull_up)
            for index, pin in enumerate(wiring.signal_pins)
        ]
        self._select = SelectLines(select, wiring.settle_us, wait)
        # For each address, the (channel, read) pairs to read; channels beyond the profile are skipped.
        self._reads = [
            [(m * MUX_INPUTS + address, pin) for m, pin in enumerate(signals) if m * MUX_INPUTS + address < channels]
            for address in range(MUX_INPUTS)
        ]
        self._level = (1, 0) if wiring.active_low else (0, 1)  # reading for a low / high pin

    @property
    def channels(self) -> int:
        return self._channels

    def scan(self) -> Readings:
        readings = [0] * self._channels
        level = self._level
        reads = self._reads
        for address in self._select.addresses():
            for channel, read in reads[address]:
                readings[channel] = level[read()]
        return tuple(readings)
