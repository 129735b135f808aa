"""The lines a scanner drives and reads hundreds of times per scan, claimed through the pin library
itself with that library's public calls, so that each read or write is one call.

gpiozero opens the board's other pins (buttons, SPI devices); through it every `pin.state = x`
first asks the pin's function, which costs lgpio a second kernel call (`gpio_get_mode` before each
`gpio_write`). A scan makes hundreds of writes, so a scanner's own lines are claimed directly:
- lgpio (every Pi): on a chip handle of their own (`gpiochip_open` of the factory's chip), with
  `gpio_claim_output`/`gpio_claim_input`, `gpio_write`/`gpio_read`, and `gpio_free` when closed;
- RPi.GPIO (older Pis): `setup`, `output`/`input` and `cleanup`, in the BCM numbering gpiozero's
  factory set;
- any other pin factory (gpiozero's MockFactory in tests): gpiozero devices, through `pin.state`.
The kernel still refuses a line that something else holds, and the error says so in words
(`hardware_error`).
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Callable
from typing import Any, Protocol

Writer = Callable[[int], object]
Reader = Callable[[], int]


class Lines(Protocol):
    """Claims lines for one device and gives them all back on `close`."""

    def output(self, gpio: int, initial: bool) -> Writer:
        """Claim `gpio` as an output driven to `initial` at once; `write(level)` drives it."""
        ...

    def input(self, gpio: int, pull_up: bool) -> Reader:
        """Claim `gpio` as an input with the internal pull-up (or pull-down); `read()` is 0 or 1."""
        ...

    def close(self) -> None: ...


class LgpioLines:
    """Lines on a handle of lgpio's own, on the chip gpiozero's factory uses."""

    def __init__(self, chip: int) -> None:
        import lgpio

        self._lgpio = lgpio
        self._chip = chip
        self._handle: int | None = None
        self._claimed: list[int] = []

    def _opened(self) -> int:
        if self._handle is None:
            self._handle = self._lgpio.gpiochip_open(self._chip)
        return self._handle

    def output(self, gpio: int, initial: bool) -> Writer:
        handle = self._opened()
        self._lgpio.gpio_claim_output(handle, gpio, int(initial))
        self._claimed.append(gpio)
        return functools.partial(self._lgpio.gpio_write, handle, gpio)

    def input(self, gpio: int, pull_up: bool) -> Reader:
        lgpio = self._lgpio
        handle = self._opened()
        lgpio.gpio_claim_input(handle, gpio, lgpio.SET_PULL_UP if pull_up else lgpio.SET_PULL_DOWN)
        self._claimed.append(gpio)
        return functools.partial(lgpio.gpio_read, handle, gpio)

    def close(self) -> None:
        handle, self._handle = self._handle, None
        if handle is None:
            return
        lgpio = self._lgpio
        while self._claimed:
            with contextlib.suppress(lgpio.error):
                lgpio.gpio_free(handle, self._claimed.pop())
        with contextlib.suppress(lgpio.error):
            lgpio.gpiochip_close(handle)


class RPiGPIOLines:
    """Lines set up through RPi.GPIO, numbered as gpiozero's factory set it (BCM)."""

    def __init__(self) -> None:
        import RPi.GPIO as GPIO

        self._gpio = GPIO
        self._claimed: list[int] = []

    def output(self, gpio: int, initial: bool) -> Writer:
        GPIO = self._gpio
        GPIO.setup(gpio, GPIO.OUT, initial=GPIO.HIGH if initial else GPIO.LOW)
        self._claimed.append(gpio)
        return functools.partial(GPIO.output, gpio)

    def input(self, gpio: int, pull_up: bool) -> Reader:
        GPIO = self._gpio
        GPIO.setup(gpio, GPIO.IN, pull_up_down=GPIO.PUD_UP if pull_up else GPIO.PUD_DOWN)
        self._claimed.append(gpio)
        return functools.partial(GPIO.input, gpio)

    def close(self) -> None:
        while self._claimed:
            with contextlib.suppress(RuntimeError):
                self._gpio.cleanup(self._claimed.pop())


class DeviceLines:
    """Lines as gpiozero devices, for any other pin factory (its mock pins in tests)."""

    def __init__(self, factory: Any) -> None:
        self._factory = factory
        self.devices: list[Any] = []

    def output(self, gpio: int, initial: bool) -> Writer:
        from gpiozero import DigitalOutputDevice

        device = DigitalOutputDevice(gpio, initial_value=initial, pin_factory=self._factory)
        self.devices.append(device)
        pin = device.pin

        def write(level: int) -> None:
            pin.state = level

        return write

    def input(self, gpio: int, pull_up: bool) -> Reader:
        """A plain `InputDevice`: the scan loop polls levels, so no edge detection is switched on
        (`DigitalInputDevice` would set edges='both' with a callback: with RPi.GPIO on current
        kernels that fails, with lgpio every select step would queue a Python callback)."""
        from gpiozero import InputDevice

        device = InputDevice(gpio, pull_up=pull_up, pin_factory=self._factory)
        self.devices.append(device)
        pin = device.pin
        return lambda: int(bool(pin.state))

    def close(self) -> None:
        while self.devices:
            self.devices.pop().close()


def lines_for(factory: Any) -> Lines:
    """The lines of the pin library behind gpiozero's `factory`. Its factory classes are public;
    their modules are imported already when such a factory exists, so none is imported here."""
    lgpio_factories = sys.modules.get("gpiozero.pins.lgpio")
    if lgpio_factories is not None and isinstance(factory, lgpio_factories.LGPIOFactory):
        return LgpioLines(factory.chip)
    rpigpio_factories = sys.modules.get("gpiozero.pins.rpigpio")
    if rpigpio_factories is not None and isinstance(factory, rpigpio_factories.RPiGPIOFactory):
        return RPiGPIOLines()
    return DeviceLines(factory)
