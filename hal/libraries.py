"""The Python libraries the hardware backends load, and where each comes from on Raspberry Pi OS:
one table for the import check (`tafel diagnose --imports`, run by install.sh at the end) so that a
missing piece is named in words before the service needs it, not as an ImportError at start.

Each library names the module that is imported, what it is for, and the package that provides it:
the Raspberry Pi OS (apt) package where there is one (installed by install.sh, nothing to compile),
else the PyPI distribution of the `[pi]` extra (pure Python, or wheels for the Pi).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Library:
    module: str  # what is imported
    purpose: str  # what it does for the board, in words
    apt: str | None  # the Raspberry Pi OS package that provides it, if any
    pip: str  # the PyPI distribution

    @property
    def install(self) -> str:
        """How to install it, in the words of the system that provides it."""
        if self.apt is not None:
            return f"sudo apt install {self.apt}"
        return f"reinstall tafel with its [pi] extra (sudo systemd/install.sh), which brings {self.pip}"


GPIOZERO = Library("gpiozero", "the Pi's GPIO pins (scanner, buttons)", "python3-gpiozero", "gpiozero")
LGPIO = Library("lgpio", "gpiozero's pin library on every Pi", "python3-lgpio", "lgpio")
RPI_GPIO = Library("RPi.GPIO", "the legacy pin factory (rpigpio)", "python3-rpi-lgpio", "rpi-lgpio")
SPIDEV = Library("spidev", "hardware SPI with the legacy pin factory", "python3-spidev", "spidev")
SERIAL = Library("serial", "the USB link to the RP2040 scanner board", "python3-serial", "pyserial")
GPIOD = Library("gpiod", "Blinka's access to the GPIO chip", "python3-libgpiod", "gpiod")
SYSV_IPC = Library("sysv_ipc", "Blinka's shared memory", "python3-sysv-ipc", "sysv_ipc")
BLINKA = Library("board", "Blinka, the LED strip's view of the Pi", None, "adafruit-blinka")
NEOPIXEL_SPI = Library("neopixel_spi", "the LED strip over SPI", None, "adafruit-circuitpython-neopixel-spi")
NEOPIXEL_PWM = Library("neopixel", "the LED strip on a PWM pin", None, "adafruit-circuitpython-neopixel")


def needed(
    sensors: str, leds: str, buttons: str, pin_factory: str, neopixel_driver: str | None, spi_scanner: bool
) -> list[Library]:
    """The libraries a board with these backends loads: `sensors` (sim, gpio, serial), `leds` (sim,
    neopixel, serial), `buttons` (gpio, none), the GPIO `pin_factory`, the strip's driver (spi, pwm)
    and whether the scanner reads over SPI (MCP3008s, or a shift chain on the SPI bus)."""
    found: list[Library] = []
    if "gpio" in (sensors, buttons):
        found += [GPIOZERO, LGPIO] if pin_factory == "lgpio" else [GPIOZERO, RPI_GPIO]
        if sensors == "gpio" and spi_scanner and pin_factory != "lgpio":
            found.append(SPIDEV)
    if sensors == "serial":
        found.append(SERIAL)
    if leds == "neopixel":
        found += [SYSV_IPC, GPIOD, BLINKA, NEOPIXEL_SPI if neopixel_driver == "spi" else NEOPIXEL_PWM]
    return list(dict.fromkeys(found))


def missing(libraries: Iterable[Library], importer: Callable[[str], Any] = importlib.import_module) -> list[str]:
    """What cannot be loaded of `libraries`, one sentence each: which module, what it is for, why it
    failed, and how to install it. Empty when all load."""
    problems = []
    for library in libraries:
        try:
            importer(library.module)
        except ImportError as error:
            why = "not installed" if error.name == library.module else f"{error}"
            problems.append(f"{library.module} ({library.purpose}) cannot be loaded: {why}; {library.install}")
        except Exception as error:  # a library that refuses this machine (Blinka off a Pi) says so
            problems.append(f"{library.module} ({library.purpose}) does not load here: {error}; {library.install}")
    return problems
