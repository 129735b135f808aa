"""Circuit models behind the fake pins: 74HC4067 multiplexers and a 74HC165 chain, built from the
chips' behaviour rather than from the firmware's channel numbering, so the tests check the
documented wiring (firmware/scan.py) instead of restating it.

A sensor with a magnet pulls its line low; without one the line is pulled high.
"""

from __future__ import annotations


class MuxBoard:
    """74HC4067s: select lines S0..S3 shared; each signal pin shows input `address` of its mux."""

    def __init__(self, select_pins: list[int], signal_pins: list[int]) -> None:
        self.select_pins = list(select_pins)
        self.signal_pins = list(signal_pins)
        self.selects = {pin: 0 for pin in select_pins}
        self.low: set[tuple[int, int]] = set()  # (mux, input) pulled low by a magnet
        self.select_writes = 0

    def magnet(self, mux: int, address: int, present: bool = True) -> None:
        (self.low.add if present else self.low.discard)((mux, address))

    def written(self, pin: int, level: int) -> None:
        if pin in self.selects:
            self.selects[pin] = level
            self.select_writes += 1

    def level(self, pin: int) -> int | None:
        if pin not in self.signal_pins:
            return None
        address = sum(self.selects[select] << bit for bit, select in enumerate(self.select_pins))
        return 0 if (self.signal_pins.index(pin), address) in self.low else 1


class ShiftChain:
    """74HC165s in a chain: chip 0's Q7 goes to the board, chip k+1's Q7 feeds chip k's serial input.

    /PL low loads every chip's D0..D7 into its register; a rising CLK edge (with /PL high) moves every
    bit one place towards Q7 and takes the serial input into Q0. The last chip's serial input is tied
    high.
    """

    def __init__(self, load_pin: int, clock_pin: int, data_pin: int, chips: int) -> None:
        self.load_pin, self.clock_pin, self.data_pin = load_pin, clock_pin, data_pin
        self.low: set[tuple[int, int]] = set()  # (chip, input Dj) pulled low by a magnet
        self.registers = [[1] * 8 for _ in range(chips)]  # registers[chip][j] = Qj
        self._load = 1
        self._clock = 0
        self.loads = 0

    def magnet(self, chip: int, input_pin: int, present: bool = True) -> None:
        (self.low.add if present else self.low.discard)((chip, input_pin))

    def written(self, pin: int, level: int) -> None:
        if pin == self.load_pin:
            if level == 0:
                self.loads += 1
                self.registers = [
                    [0 if (chip, j) in self.low else 1 for j in range(8)] for chip in range(len(self.registers))
                ]
            self._load = level
        elif pin == self.clock_pin:
            if level == 1 and self._clock == 0 and self._load == 1:
                old = [list(register) for register in self.registers]
                for chip, register in enumerate(old):
                    serial_in = old[chip + 1][7] if chip + 1 < len(old) else 1
                    self.registers[chip] = [serial_in, *register[:7]]
            self._clock = level

    def level(self, pin: int) -> int | None:
        return self.registers[0][7] if pin == self.data_pin else None
