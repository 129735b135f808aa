"""Choosing gpiozero's pin factory, opening pins, and turning library errors into advice.

lgpio is the default pin factory: it talks to the kernel's /dev/gpiochip devices and works on every
Pi model, the Pi 5 included. RPi.GPIO can be chosen on older Pis; it does not work on the Pi 5 (it
cannot find the SoC's peripheral base address there) and its edge detection fails on recent kernels.
tafel only polls pin levels, so it never needs edge detection, but lgpio is still the safer choice.

gpiozero and the pin libraries are imported here, lazily, so the rest of the project imports on any
machine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from hal.errors import HardwareError, WiringError
from hal.gpio.lines import Lines, Reader, Writer, lines_for
from hal.gpio.wiring import PIN_FACTORIES
from hal.pins import describe

INSTALL_PI = "pip install 'tafel[pi]'"
_Line = TypeVar("_Line", Reader, Writer)


def hardware_error(error: BaseException, doing: str) -> HardwareError:
    """A HardwareError for `error` that happened while `doing`, with the likely fix."""
    text = str(error) or type(error).__name__
    lowered = text.lower()
    try:
        from gpiozero.exc import GPIOPinInUse, PinUnknownPi
    except ImportError:  # gpiozero missing: nothing of it can have raised
        GPIOPinInUse = PinUnknownPi = ()
    if isinstance(error, PinUnknownPi):
        return HardwareError(
            f"{doing}: this machine is not a Raspberry Pi ({text}); on other machines use the simulated board"
        )
    if "soc peripheral base address" in lowered:
        return HardwareError(
            f"{doing}: RPi.GPIO does not work on this Pi ({text}). RPi.GPIO fails on the Raspberry Pi 5: "
            'set pin_factory = "lgpio" in the [gpio] table'
        )
    if isinstance(error, GPIOPinInUse) or "busy" in lowered:
        return HardwareError(
            f"{doing}: the pin is already in use ({text}), by another part of the wiring, another program, "
            "or a kernel driver enabled in /boot/firmware/config.txt (SPI, I2C, UART, 1-Wire)"
        )
    if isinstance(error, PermissionError) or "permission" in lowered or "not permitted" in lowered:
        return HardwareError(
            f"{doing}: permission denied ({text}); add the user to the gpio group "
            "(sudo usermod -aG gpio USER) and log in again"
        )
    if "gpiochip" in lowered:
        return HardwareError(
            f"{doing}: cannot open the GPIO chip ({text}); is this a Raspberry Pi, and is the user in the gpio group?"
        )
    return HardwareError(f"{doing}: {text}")


def make_pin_factory(name: str = "lgpio") -> Any:
    """A gpiozero pin factory: "lgpio" (every Pi) or "rpigpio" (older Pis only)."""
    if name not in PIN_FACTORIES:
        raise WiringError(
            f"[gpio] pin_factory: must be one of {', '.join(repr(p) for p in PIN_FACTORIES)}, not {name!r}"
        )
    doing = f"opening the {name} pin factory"
    try:
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory as factory_class
        else:
            from gpiozero.pins.rpigpio import RPiGPIOFactory as factory_class
    except ImportError as error:
        raise _missing(name, error) from error
    except RuntimeError as error:  # RPi.GPIO refuses at import on the Pi 5
        raise hardware_error(error, doing) from error
    except OSError as error:
        raise _unwritable_cwd(name, error) from error
    try:
        return factory_class()
    except Exception as error:
        raise hardware_error(error, doing) from error


def _unwritable_cwd(name: str, error: OSError) -> HardwareError:
    """`import lgpio` starts a helper that creates its notification pipe (.lgd-nfy*) in the current
    directory: a read-only one (the service's / under ProtectSystem=strict) fails the import."""
    import os

    try:
        where = os.getcwd()
    except OSError:  # the directory is gone
        where = "the current directory"
    return HardwareError(
        f"the {name} library could not start ({error.strerror or error}): it needs a writable working "
        f"directory for its notification pipe, and {where} is not. Run tafel from a writable directory; "
        "the systemd unit sets WorkingDirectory=/run/tafel for this"
    )


def _missing(name: str, error: ImportError) -> HardwareError:
    module = error.name or str(error)
    if module.startswith("gpiozero"):
        return HardwareError(f"gpiozero is not installed: {INSTALL_PI}")
    if name == "lgpio":
        return HardwareError(
            f"the lgpio library is not installed ({error}): {INSTALL_PI}, or on Raspberry Pi OS "
            "sudo apt install python3-lgpio"
        )
    return HardwareError(
        f"RPi.GPIO is not installed ({error}): pip install 'tafel[legacy]'. It only works on Pis before the "
        'Pi 5; pin_factory = "lgpio" works on every model'
    )


def hardware_spi(opener: Any, purpose: str) -> Any:
    """Open an SPI device, refusing gpiozero's silent software fallback: bit-banged SPI takes about
    0.2 s per analog scan, far too slow to follow a game, and means the SPI bus is not usable."""
    import warnings

    from gpiozero.exc import SPISoftwareFallback

    device = failure = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SPISoftwareFallback)
        try:
            device = opener()
        except Exception as error:  # the software bus may refuse a setting the hardware one takes
            failure = error
    fallback = [w for w in caught if issubclass(w.category, SPISoftwareFallback)]
    if failure is not None and not fallback:
        raise failure
    if fallback:
        if device is not None:
            device.close()
        raise RuntimeError(
            f"hardware SPI could not be opened for the {purpose} ({fallback[0].message}); gpiozero would fall "
            "back to software SPI, far too slow for scanning. Switch SPI on (dtparam=spi=on in "
            "/boot/firmware/config.txt, or sudo raspi-config nonint do_spi 0), reboot, and make sure the "
            "user is in the spi group"
        )
    return device


class PinSet:
    """The pins one device opened, so that they are all closed together (also when opening a later
    one fails): its scan lines (`hal.gpio.lines`, one library call per read or write) and any other
    gpiozero device (an SPI chip)."""

    def __init__(self, factory: Any) -> None:
        self.factory = factory
        self.devices: list[Any] = []
        self._lines: Lines | None = None

    @property
    def lines(self) -> Lines:
        """The lines of the factory's pin library, claimed on first use."""
        if self._lines is None:
            self._lines = lines_for(self.factory)
        return self._lines

    def output(self, gpio: int, purpose: str, initial: bool = False) -> Writer:
        """An output line driven to `initial` at once; returns its `write(level)`."""
        return self._open(gpio, purpose, lambda: self.lines.output(gpio, initial))

    def input(self, gpio: int, purpose: str, pull_up: bool) -> Reader:
        """An input line with the internal pull-up (or pull-down), polled (no edge detection);
        returns its `read()`, 0 or 1."""
        return self._open(gpio, purpose, lambda: self.lines.input(gpio, pull_up))

    def device(self, purpose: str, opener: Any) -> Any:
        """Any other gpiozero device (an MCP3008), opened by `opener()`; returns the device."""
        try:
            device = opener()
        except Exception as error:
            self.close()
            raise hardware_error(error, f"cannot open the {purpose}") from error
        self.devices.append(device)
        return device

    def _open(self, gpio: int, purpose: str, opener: Callable[[], _Line]) -> _Line:
        try:
            return opener()
        except Exception as error:
            self.close()
            raise hardware_error(error, f"cannot set up {describe(gpio)} as {purpose}") from error

    def close(self) -> None:
        while self.devices:
            self.devices.pop().close()
        if self._lines is not None:
            self._lines.close()
