"""The confirm, undo and menu buttons, with our own debounce.

gpiozero's `bounce_time` is implemented by each pin factory differently (and RPi.GPIO's edge
detection fails on recent kernels), so the buttons are polled and debounced here instead: a level
counts once it has held for `debounce_ms`. The debounce is a pure function of the sampled levels and
their times, so tests drive it with synthetic samples and never sleep.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hal.gpio.device import PinDevice
from hal.gpio.factory import PinSet
from hal.gpio.wiring import ButtonWiring
from hal.protocols import InputEvent


@dataclass(frozen=True, slots=True)
class Debounce:
    """One button: the accepted level, and the raw level seen unchanged since `since` (ms)."""

    stable: bool
    raw: bool
    since: int


def debounce(state: Debounce | None, pressed: bool, now_ms: int, hold_ms: int) -> tuple[Debounce, bool]:
    """The next state after sampling `pressed` at `now_ms`, and whether that completed a press.

    The first sample is taken as the accepted level without an event, so a button held (or stuck)
    while the service starts does not fire until it is released and pressed again.
    """
    if state is None:
        return Debounce(pressed, pressed, now_ms), False
    if pressed != state.raw:
        state = Debounce(state.stable, pressed, now_ms)
    if state.raw != state.stable and now_ms - state.since >= hold_ms:
        return Debounce(state.raw, state.raw, state.since), state.raw
    return state, False


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class GpioButtons(PinDevice):
    """An InputSource: `poll()` samples every button and returns the presses it completed."""

    def __init__(self, wiring: ButtonWiring, factory: Any, clock: Callable[[], int] = monotonic_ms) -> None:
        self.wiring = wiring
        self._clock = clock
        self._pins = PinSet(factory)
        self._buttons = [
            (name, self._pins.input(gpio, f"{name} button", wiring.pull_up)) for name, gpio in wiring.pins().items()
        ]
        self._states: dict[str, Debounce | None] = {name: None for name, _ in self._buttons}

    def poll(self, now_ms: int | None = None) -> list[InputEvent]:
        now = self._clock() if now_ms is None else now_ms
        hold = self.wiring.debounce_ms
        active_low = self.wiring.active_low
        events: list[InputEvent] = []
        for name, read in self._buttons:
            pressed = bool(read()) != active_low
            self._states[name], fired = debounce(self._states[name], pressed, now, hold)
            if fired:
                events.append(InputEvent("button", name))
        return events
