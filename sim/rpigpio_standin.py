"""The `RPi.GPIO` module's face over a SimGpioChip, for gpiozero's RPiGPIOFactory (the legacy pin
factory, `pin_factory = "rpigpio"`).

Constants, calls and errors as in RPi.GPIO 0.7: a channel must be set up before it is read or
written, and `add_event_detect` fails the way it does on current Raspberry Pi OS kernels ("Failed to
add edge detection"), so a backend that asks for edge detection fails here as it would on a Pi.
"""

from __future__ import annotations

import types
from typing import Any

from sim.gpiochip import ChipError, SimGpioChip

OUT, IN = 0, 1
SERIAL, SPI, I2C, HARD_PWM, UNKNOWN = 40, 41, 42, 43, -1
BOARD, BCM = 10, 11
PUD_OFF, PUD_DOWN, PUD_UP = 20, 21, 22
LOW, HIGH = 0, 1
RISING, FALLING, BOTH = 31, 32, 33

_PULLS = {PUD_OFF: "none", PUD_DOWN: "down", PUD_UP: "up"}


def make_rpi_package(chip: SimGpioChip, pi5: bool = False) -> types.ModuleType:
    """A package `RPi` whose `GPIO` module acts on `chip`. With `pi5` it fails as RPi.GPIO 0.7 does on
    a Raspberry Pi 5, whose GPIOs sit behind the RP1 chip where it cannot find them."""
    gpio = types.ModuleType("RPi.GPIO")
    for name, value in globals().items():
        if name.isupper() and isinstance(value, int):
            setattr(gpio, name, value)
    mode: list[int | None] = [None]

    def counted(name: str) -> None:
        chip.count(name)

    def setmode(value: int) -> None:
        counted("setmode")
        if pi5:
            raise RuntimeError("Cannot determine SOC peripheral base address")
        mode[0] = value

    def getmode() -> int | None:
        return mode[0]

    def setwarnings(flag: bool) -> None:
        counted("setwarnings")

    def setup(channel: int, direction: int, pull_up_down: int = PUD_OFF, initial: int = -1) -> None:
        counted("setup")
        if mode[0] is None:
            raise RuntimeError("Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) or GPIO.setmode(GPIO.BCM)")
        try:
            if direction == OUT:
                chip.claim_output(channel, initial if initial in (LOW, HIGH) else LOW)
            else:
                chip.claim_input(channel, _PULLS.get(pull_up_down, "none"))
        except ChipError as problem:  # /dev/gpiomem does not know the kernel's claims; the pin is gone
            raise RuntimeError(f"channel {channel}: {problem}") from None

    def gpio_function(channel: int) -> int:
        counted("gpio_function")
        line = chip.lines.get(channel)
        return IN if line is None or not line.output else OUT

    def input(channel: int) -> int:
        counted("input")
        if channel not in chip.lines:
            raise RuntimeError("You must setup() the GPIO channel first")
        return chip.read(channel)

    def output(channel: int, value: Any) -> None:
        counted("output")
        line = chip.lines.get(channel)
        if line is None or not line.output:
            raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
        chip.write(channel, 1 if value else 0)

    def cleanup(channel: int | None = None) -> None:
        counted("cleanup")
        for number in [channel] if channel is not None else list(chip.lines):
            chip.free(number)

    def add_event_detect(channel: int, edge: int, callback: Any = None, bouncetime: int = 0) -> None:
        counted("add_event_detect")
        raise RuntimeError("Failed to add edge detection")

    def remove_event_detect(channel: int) -> None:
        counted("remove_event_detect")

    class PWM:
        def __init__(self, channel: int, frequency: float) -> None:
            counted("PWM")

        def start(self, duty: float) -> None:
            pass

        def ChangeDutyCycle(self, duty: float) -> None:
            pass

        def ChangeFrequency(self, frequency: float) -> None:
            pass

        def stop(self) -> None:
            pass

    for function in (setmode, getmode, setwarnings, setup, gpio_function, input, output, cleanup,
                     add_event_detect, remove_event_detect):  # fmt: skip
        setattr(gpio, function.__name__, function)
    gpio.PWM = PWM  # type: ignore[attr-defined]
    package = types.ModuleType("RPi")
    package.__path__ = []  # a package, so `import RPi.GPIO` finds the submodule in sys.modules
    package.GPIO = gpio  # type: ignore[attr-defined]
    return package
