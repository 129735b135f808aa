"""Scanning digital sensors through a chain of 74HC165 parallel-in, serial-out shift registers.

A low pulse on SH/LD copies all inputs into the chain at once; then every rising CLK edge shifts it
one place towards the Pi. The first bit out is input H of chip 0 (the chip whose QH goes to the Pi),
then G .. A, then chip 1's H, and so on. Channel c of the board profile is input c % 8 (A = 0 .. H = 7)
of chip c // 8, so channels 0..7 are chip 0's A..H.

Over GPIO every bit costs three library calls (read QH, CLK up, CLK down): about 600 for the 200
inputs of the 14x14 board. Over SPI0 (`bus = "spi"`) the kernel clocks the whole chain in one
transfer, MSB first, so byte k holds chip k's inputs with input A in bit 0.
"""

from __future__ import annotations

from typing import Any

from hal.gpio.device import PinDevice
from hal.gpio.factory import PinSet, hardware_spi
from hal.gpio.wiring import SCANNER_CHIP_SELECT, SHIFT_INPUTS, ShiftRegisterWiring
from hal.protocols import Readings


def shift_order(channels: int) -> list[int | None]:
    """The channel each clocked-out bit belongs to (None: an unused input of the last chip)."""
    chips = -(-channels // SHIFT_INPUTS)
    order: list[int | None] = []
    for bit in range(chips * SHIFT_INPUTS):
        channel = (bit // SHIFT_INPUTS) * SHIFT_INPUTS + (SHIFT_INPUTS - 1 - bit % SHIFT_INPUTS)
        order.append(channel if channel < channels else None)
    return order


class ShiftRegisterScanner(PinDevice):
    """A SensorSource reading every channel once per `scan()`."""

    def __init__(self, wiring: ShiftRegisterWiring, channels: int, factory: Any, board: str = "in use") -> None:
        wiring.check_channels(channels, board)
        self.wiring = wiring
        self._channels = channels
        self._pins = PinSet(factory)
        self._load = self._pins.output(wiring.load_pin, "shift register SH/LD", initial=True)  # shift mode
        if wiring.clock_enable_pin is not None:
            self._pins.output(wiring.clock_enable_pin, "shift register CLK INH", initial=False)  # low: clock on
        self._order = shift_order(channels)
        self._level = (1, 0) if wiring.active_low else (0, 1)
        self._spi: Any = None
        if wiring.bus == "spi":
            self._spi = self._open_spi(factory)
            self._bytes = -(-channels // SHIFT_INPUTS)
            # Byte k of a transfer is chip k, input A..H in bits 0..7: the (channel, bit) pairs per byte.
            self._unpack = [
                [(k * SHIFT_INPUTS + bit, bit) for bit in range(SHIFT_INPUTS) if k * SHIFT_INPUTS + bit < channels]
                for k in range(self._bytes)
            ]
        else:
            self._clock = self._pins.output(wiring.clock_pin, "shift register CLK", initial=False)
            # QH drives the line itself; the pull only decides what an unplugged chain reads: no magnets.
            self._data = self._pins.input(wiring.data_pin, "shift register QH (data)", pull_up=wiring.active_low)

    def _open_spi(self, factory: Any) -> Any:
        purpose = "74HC165 chain on SPI0"

        def opener() -> Any:
            spi = factory.spi(port=0, device=SCANNER_CHIP_SELECT)
            try:
                spi.rate = self.wiring.spi_hz  # mode 0: QH is sampled on the rising edge that shifts it
            except Exception:
                spi.close()
                raise
            return spi

        return self._pins.device(purpose, lambda: hardware_spi(opener, purpose))

    @property
    def channels(self) -> int:
        return self._channels

    def scan(self) -> Readings:
        readings = [0] * self._channels
        level = self._level
        load = self._load
        load(0)  # latch every input into the chain
        load(1)
        if self._spi is not None:
            for byte, value in zip(self._unpack, self._spi.read(self._bytes), strict=True):
                for channel, bit in byte:
                    readings[channel] = level[(value >> bit) & 1]
            return tuple(readings)
        clock, data = self._clock, self._data
        for slot in self._order:
            if slot is not None:
                readings[slot] = level[data()]
            clock(1)  # rising edge: the next bit appears on QH
            clock(0)
        return tuple(readings)
