"""A fake MicroPython `machine` module for running the firmware under CPython.

Pins read their input level from an attached circuit model (a multiplexer board or a shift-register
chain, see circuits.py) and report output writes to it, so the firmware's scanners drive the same
select lines, load and clock pulses as on the board.
"""

from __future__ import annotations

from typing import Protocol


class Circuit(Protocol):
    def written(self, pin: int, level: int) -> None: ...

    def level(self, pin: int) -> int | None: ...


_circuit: Circuit | None = None
pins: dict[int, Pin] = {}
resets = 0


def attach(circuit: Circuit | None) -> None:
    """Wire a circuit to the pins (None: nothing attached) and forget all pins made so far."""
    global _circuit
    _circuit = circuit
    pins.clear()


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id: int, mode: int = -1, pull: int | None = -1, *, value: int | None = None) -> None:
        self.id = id
        self.mode = mode
        self.pull = pull
        self._level = 0
        pins[id] = self
        if value is not None:
            self.value(value)

    def init(self, mode: int = -1, pull: int | None = -1, *, value: int | None = None) -> None:
        if mode != -1:
            self.mode = mode
        if pull != -1:
            self.pull = pull
        if value is not None:
            self.value(value)

    def value(self, level: int | None = None) -> int | None:
        if level is None:
            if self.mode == Pin.OUT:
                return self._level
            driven = _circuit.level(self.id) if _circuit is not None else None
            if driven is None:  # nothing drives the line: the pull resistor decides
                return 1 if self.pull == Pin.PULL_UP else 0
            return driven
        self._level = 1 if level else 0
        if self.mode == Pin.OUT and _circuit is not None:
            _circuit.written(self.id, self._level)
        return None

    __call__ = value


class WDT:
    def __init__(self, id: int = 0, timeout: int = 5000) -> None:
        self.timeout = timeout
        self.feeds = 0

    def feed(self) -> None:
        self.feeds += 1


def reset() -> None:
    global resets
    resets += 1
