"""The `lgpio` module's face over a SimGpioChip: the same functions, arguments, flag values and
errors as lgpio 0.2 (the C library's Python binding), so gpiozero's real LGPIOFactory runs on it.

`pi_libraries(chip)` installs it as `lgpio` and makes gpiozero believe it runs on a given Pi model
(gpiozero reads the revision from /proc otherwise); everything above — gpiozero's pins, SPI classes
and devices, tafel's scanners — is the code a Pi runs. Each call is counted on the chip.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.util
import os
import sys
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from sim.gpiochip import ChipError, SimGpioChip

# Revision codes (from the Pi's OTP, as /proc/cpuinfo shows them).
PI_REVISIONS = {"pi4": 0xC03114, "zero2w": 0x902120, "pi3b": 0xA02082, "pi5": 0xC04170}

# lgpio's flag values (lgpio.py of lg 0.2).
SET_ACTIVE_LOW, SET_OPEN_DRAIN, SET_OPEN_SOURCE = 4, 8, 16
SET_PULL_UP, SET_PULL_DOWN, SET_PULL_NONE = 32, 64, 128
SET_BIAS_PULL_UP, SET_BIAS_PULL_DOWN, SET_BIAS_DISABLE = SET_PULL_UP, SET_PULL_DOWN, SET_PULL_NONE
RISING_EDGE, FALLING_EDGE, BOTH_EDGES = 1, 2, 3
# gpio_get_mode bits (the kernel's line info as lgpio reports it).
MODE_KERNEL, MODE_OUT = 1 << 0, 1 << 1
MODE_PULL_UP, MODE_PULL_DOWN, MODE_BIAS_DISABLE = 1 << 5, 1 << 6, 1 << 7
MODE_LG_INPUT, MODE_LG_OUTPUT, MODE_LG_ALERT = 1 << 8, 1 << 9, 1 << 10

FIRST_HANDLE = 1  # lgpio numbers the chip handles it opens from here on

T = TypeVar("T")


def _done(effect: Callable[[], None]) -> Callable[[], int]:
    """A chip method that returns nothing, as an lgpio call that returns its status (0: done)."""

    def status() -> int:
        effect()
        return 0

    return status


class error(Exception):
    """lgpio.error: what every failing call raises."""


def make_lgpio(chip: SimGpioChip) -> types.ModuleType:
    """A module with lgpio's interface, acting on `chip`."""
    module = types.ModuleType("lgpio")
    module.__doc__ = "Stand-in for lgpio over a simulated GPIO chip (tafel sim/lgpio_standin.py)."
    for name, value in globals().items():
        if name.isupper() and isinstance(value, int) and not name.startswith(("MODE_", "CHIP_")):
            setattr(module, name, value)
    module.error = error  # type: ignore[attr-defined]

    def call(name: str, action: Callable[..., T], *args: Any) -> T:
        chip.count(name)
        try:
            return action(*args)
        except ChipError as problem:
            raise error(str(problem)) from None

    def pull_of(flags: int) -> str:
        if flags & SET_PULL_UP:
            return "up"
        if flags & SET_PULL_DOWN:
            return "down"
        return "none"

    handles: set[int] = set()
    opened = [FIRST_HANDLE - 1]

    def check_handle(handle: int) -> None:
        if handle not in handles:
            raise ChipError("unknown handle")

    def owned(handle: int, gpio: int) -> None:
        check_handle(handle)
        if chip.line(gpio).owner != handle:
            raise ChipError("GPIO not allocated")  # another handle requested it

    def gpiochip_open(number: int) -> int:
        def open_chip() -> int:
            if number not in (0, 4) or not chip.accessible:
                raise ChipError("can not open gpiochip")
            opened[0] += 1
            handles.add(opened[0])
            return opened[0]

        return call("gpiochip_open", open_chip)

    def gpiochip_close(handle: int) -> int:
        def close_chip() -> None:
            handles.discard(handle)
            for gpio in [gpio for gpio, line in chip.lines.items() if line.owner == handle]:
                chip.free(gpio, handle)  # the kernel releases a closed handle's lines

        return call("gpiochip_close", _done(close_chip))

    def gpio_claim_input(handle: int, gpio: int, lFlags: int = 0) -> int:
        def claim() -> int:
            check_handle(handle)
            chip.claim_input(gpio, pull_of(lFlags), handle)
            return 0

        return call("gpio_claim_input", claim)

    def gpio_claim_output(handle: int, gpio: int, level: int = 0, lFlags: int = 0) -> int:
        def claim() -> int:
            check_handle(handle)
            chip.claim_output(gpio, level, handle)
            return 0

        return call("gpio_claim_output", claim)

    def gpio_free(handle: int, gpio: int) -> int:
        return call("gpio_free", _done(lambda: chip.free(gpio, handle)))

    def gpio_read(handle: int, gpio: int) -> int:
        def read() -> int:
            owned(handle, gpio)
            return chip.read(gpio)

        return call("gpio_read", read)

    def gpio_write(handle: int, gpio: int, level: int) -> int:
        def write() -> None:
            owned(handle, gpio)
            chip.write(gpio, level)

        return call("gpio_write", _done(write))

    def gpio_get_mode(handle: int, gpio: int) -> int:
        def mode() -> int:
            line = chip.line(gpio)
            bits = MODE_KERNEL
            bits |= MODE_OUT | MODE_LG_OUTPUT if line.output else MODE_LG_INPUT
            bits |= {"up": MODE_PULL_UP, "down": MODE_PULL_DOWN}.get(line.pull, MODE_BIAS_DISABLE)
            if line.alert:
                bits |= MODE_LG_ALERT
            return bits

        return call("gpio_get_mode", mode)

    def gpio_claim_alert(handle: int, gpio: int, eFlags: int, lFlags: int = 0, notify_handle: int | None = None) -> int:
        def claim() -> int:
            check_handle(handle)
            chip.claim_input(gpio, pull_of(lFlags), handle)
            chip.lines[gpio].alert = True
            return 0

        return call("gpio_claim_alert", claim)

    class Callback:
        def __init__(self, handle: int, gpio: int, edge: int, func: Any) -> None:
            chip.count("callback")
            self.gpio = gpio

        def cancel(self) -> None:
            chip.count("callback_cancel")

    def gpio_set_debounce_micros(handle: int, gpio: int, debounce_micros: int) -> int:
        return call("gpio_set_debounce_micros", lambda: 0)

    def tx_pwm(handle: int, gpio: int, freq: float, duty: float, offset: int = 0, cycles: int = 0) -> int:
        return call("tx_pwm", lambda: 0)

    def spi_open(spiDev: int, spiChan: int, baud: int, spiFlags: int = 0) -> int:
        return call("spi_open", chip.spi_open, spiDev, spiChan)

    def spi_close(handle: int) -> int:
        return call("spi_close", _done(lambda: chip.spi_close(handle)))

    def spi_read(handle: int, count: int) -> tuple[int, bytearray]:
        data = call("spi_read", chip.spi_transfer, handle, bytes(count))
        return len(data), bytearray(data)

    def spi_write(handle: int, data: Any) -> int:
        return call("spi_write", lambda: len(chip.spi_transfer(handle, bytes(data))))

    def spi_xfer(handle: int, data: Any) -> tuple[int, bytearray]:
        reply = call("spi_xfer", chip.spi_transfer, handle, bytes(data))
        return len(reply), bytearray(reply)

    for function in (
        gpiochip_open, gpiochip_close, gpio_claim_input, gpio_claim_output, gpio_free, gpio_read, gpio_write,
        gpio_get_mode, gpio_claim_alert, gpio_set_debounce_micros, tx_pwm, spi_open, spi_close, spi_read,
        spi_write, spi_xfer,
    ):  # fmt: skip
        setattr(module, function.__name__, function)
    module.callback = Callback  # type: ignore[attr-defined]
    return module


@contextmanager
def pi_libraries(chip: SimGpioChip, model: str = "pi4", rpigpio: bool = False) -> Iterator[SimGpioChip]:
    """Within the block, `import lgpio` (and with `rpigpio`, `import RPi.GPIO`) gives the stand-ins
    over `chip`, and gpiozero reads the revision of Pi `model`. Restores everything afterwards."""
    import gpiozero.pins.local

    saved = {name: sys.modules.get(name) for name in ("lgpio", "RPi", "RPi.GPIO", *_PIN_MODULES)}
    revision = gpiozero.pins.local.get_pi_revision
    for name in ("lgpio", *_PIN_MODULES):  # they bind their library at import: import them anew
        sys.modules.pop(name, None)
    finder = _LgpioFinder(chip)
    sys.meta_path.insert(0, finder)
    if rpigpio:
        from sim.rpigpio_standin import make_rpi_package

        package = make_rpi_package(chip, pi5=model == "pi5")
        sys.modules["RPi"], sys.modules["RPi.GPIO"] = package, package.GPIO
    gpiozero.pins.local.get_pi_revision = lambda: PI_REVISIONS[model]
    try:
        yield chip
    finally:
        sys.meta_path.remove(finder)
        finder.close_pipe()
        gpiozero.pins.local.get_pi_revision = revision
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


_PIN_MODULES = ("gpiozero.pins.lgpio", "gpiozero.pins.rpigpio")


class _LgpioFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """`import lgpio` as on a Pi: the import starts lgpio's notification thread, which makes a FIFO
    named .lgd-nfy0 in the current directory and opens it, so the import fails (FileNotFoundError)
    where the directory is not writable, as the service's / is under ProtectSystem=strict."""

    PIPE = ".lgd-nfy0"

    def __init__(self, chip: SimGpioChip) -> None:
        self.chip = chip
        self.pipe: tuple[int, str] | None = None

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        return importlib.util.spec_from_loader(name, self) if name == "lgpio" else None

    def create_module(self, spec: Any) -> types.ModuleType:
        return make_lgpio(self.chip)

    def exec_module(self, module: types.ModuleType) -> None:
        path = os.path.abspath(self.PIPE)
        with contextlib.suppress(OSError):  # the C library ignores this failure; the open below fails
            os.mkfifo(path)
        self.pipe = (os.open(path, os.O_RDONLY | os.O_NONBLOCK), path)

    def close_pipe(self) -> None:
        if self.pipe is not None:
            descriptor, path = self.pipe
            os.close(descriptor)
            with contextlib.suppress(OSError):
                os.unlink(path)
            self.pipe = None
