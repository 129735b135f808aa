"""Reading and writing a pin in a scan loop with one library call.

gpiozero opens, configures and closes the pins; but each `pin.state = x` through it checks the pin's
function first, which costs lgpio a second kernel call (`gpio_get_mode` before every `gpio_write`).
A scan makes hundreds of these, so the scanners take a direct reader and writer from here: for the
lgpio and RPi.GPIO pins of gpiozero they call the library's own read/write with the pin's handle and
number, exactly the call gpiozero itself ends with; for any other pin (gpiozero's mock pins in tests)
they go through `pin.state`.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

Writer = Callable[[int], object]
Reader = Callable[[], int]


def _direct(pin: Any, lgpio_call: str, rpigpio_call: str) -> Callable[..., Any] | None:
    """The pin library's own call for `pin` with its handle and number bound (lgpio's
    `lgpio_call(handle, number, ...)`, RPi.GPIO's `rpigpio_call(number, ...)`), or None for a pin of
    any other kind. The library is the one gpiozero's pin module bound at import."""
    kind = type(pin).__name__
    number = getattr(pin, "_number", None)
    module = sys.modules.get(type(pin).__module__)
    if number is None or module is None:
        return None
    if kind == "LGPIOPin":
        lgpio = getattr(module, "lgpio", None)
        handle = getattr(pin.factory, "_handle", None)
        if lgpio is not None and handle is not None:
            return functools.partial(getattr(lgpio, lgpio_call), handle, number)
    if kind == "RPiGPIOPin":
        gpio = getattr(module, "GPIO", None)
        if gpio is not None:
            return functools.partial(getattr(gpio, rpigpio_call), number)
    return None


def writer(pin: Any) -> Writer:
    """`write(level)` for an output pin opened by gpiozero."""
    direct = _direct(pin, "gpio_write", "output")
    if direct is not None:
        return direct

    def write(level: int) -> None:
        pin.state = level

    return write


def reader(pin: Any) -> Reader:
    """`read() -> 0 or 1` for an input pin opened by gpiozero."""
    direct = _direct(pin, "gpio_read", "input")
    return direct if direct is not None else lambda: int(bool(pin.state))
