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


def _library(pin: Any, name: str) -> Any:
    """The pin library gpiozero's pin module bound at import (`lgpio` or `GPIO`), if any."""
    module = sys.modules.get(type(pin).__module__)
    return getattr(module, name, None)


def writer(pin: Any) -> Writer:
    """`write(level)` for an output pin opened by gpiozero."""
    kind = type(pin).__name__
    number = getattr(pin, "_number", None)
    if kind == "LGPIOPin" and number is not None:
        lgpio = _library(pin, "lgpio")
        handle = getattr(pin.factory, "_handle", None)
        if lgpio is not None and handle is not None:
            return functools.partial(lgpio.gpio_write, handle, number)
    if kind == "RPiGPIOPin" and number is not None:
        gpio = _library(pin, "GPIO")
        if gpio is not None:
            return functools.partial(gpio.output, number)

    def write(level: int) -> None:
        pin.state = level

    return write


def reader(pin: Any) -> Reader:
    """`read() -> 0 or 1` for an input pin opened by gpiozero."""
    kind = type(pin).__name__
    number = getattr(pin, "_number", None)
    if kind == "LGPIOPin" and number is not None:
        lgpio = _library(pin, "lgpio")
        handle = getattr(pin.factory, "_handle", None)
        if lgpio is not None and handle is not None:
            return functools.partial(lgpio.gpio_read, handle, number)
    if kind == "RPiGPIOPin" and number is not None:
        gpio = _library(pin, "GPIO")
        if gpio is not None:
            return functools.partial(gpio.input, number)
    return lambda: int(bool(pin.state))
