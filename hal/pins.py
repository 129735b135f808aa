"""The Raspberry Pi's 40-pin header: which GPIO sits on which physical pin, and who claims each GPIO.

Every Pi with a 40-pin header (from the Model B+ to the Pi 5 and the Zero 2 W) has the same layout.
GPIO numbers here are BCM numbers, the ones gpiozero, lgpio and the kernel use. GPIO 0 and 1 are on
the header but reserved for the HAT ID EEPROM, so the usable ones are GPIO 2 to 27.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from hal.errors import wiring_error

# Physical pin -> what is on it. Odd pins are the inner row (pin 1 is the square pad), even pins the
# outer row at the board edge.
HEADER: dict[int, str] = {
    1: "3V3", 2: "5V",
    3: "GPIO2", 4: "5V",
    5: "GPIO3", 6: "GND",
    7: "GPIO4", 8: "GPIO14",
    9: "GND", 10: "GPIO15",
    11: "GPIO17", 12: "GPIO18",
    13: "GPIO27", 14: "GND",
    15: "GPIO22", 16: "GPIO23",
    17: "3V3", 18: "GPIO24",
    19: "GPIO10", 20: "GND",
    21: "GPIO9", 22: "GPIO25",
    23: "GPIO11", 24: "GPIO8",
    25: "GND", 26: "GPIO7",
    27: "GPIO0", 28: "GPIO1",
    29: "GPIO5", 30: "GND",
    31: "GPIO6", 32: "GPIO12",
    33: "GPIO13", 34: "GND",
    35: "GPIO19", 36: "GPIO16",
    37: "GPIO26", 38: "GPIO20",
    39: "GND", 40: "GPIO21",
}  # fmt: skip

# BCM GPIO number -> physical header pin.
PHYSICAL: dict[int, int] = {int(name[4:]): pin for pin, name in HEADER.items() if name.startswith("GPIO")}

FIRST_GPIO, LAST_GPIO = 2, 27
RESERVED: dict[int, str] = {0: "ID_SD (HAT ID EEPROM)", 1: "ID_SC (HAT ID EEPROM)"}

# The kernel's SPI buses, with every pin the kernel claims when the bus is on (dtparam=spi=on for
# SPI0; dtoverlay=spi1-1cs for SPI1 with one chip select).
SPI0 = {"MOSI": 10, "SCLK": 11, "MISO": 9, "CE0": 8, "CE1": 7}
SPI1 = {"MOSI": 20, "SCLK": 21, "MISO": 19, "CE0": 18}
SPI_BUSES = {0: SPI0, 1: SPI1}
# Only SPI0 moves long transfers by DMA on the Pi 3, 4 and Zero 2 W (above 96 bytes); SPI1 is the
# auxiliary SPI there, refilled by interrupts, so a late interrupt latches an LED strip mid-frame.
DMA_SPI_PORTS = frozenset({0})
# On SPI0, CE0 gates the LED strip's level shifter (its output enable), so a scanner that shares the
# bus selects its chip with CE1: the strip hears only its own frames.
STRIP_CHIP_SELECT = 0


def check_gpio(value: object, where: str, key: str | None = None) -> int:
    """`value` as a usable GPIO number, or a WiringError (naming `where` and `key`) that says which
    numbers are usable."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise wiring_error(where, key, f"{value!r} is not a GPIO number (BCM numbering, {FIRST_GPIO}..{LAST_GPIO})")
    if value in RESERVED:
        raise wiring_error(where, key, f"GPIO {value} is {RESERVED[value]}; use GPIO {FIRST_GPIO}..{LAST_GPIO}")
    if not FIRST_GPIO <= value <= LAST_GPIO:
        raise wiring_error(
            where, key, f"GPIO {value} is not on the 40-pin header (BCM numbering: GPIO {FIRST_GPIO}..{LAST_GPIO})"
        )
    return value


def describe(gpio: int) -> str:
    """`GPIO17 (pin 11)`: how a GPIO is named in messages and docs."""
    return f"GPIO{gpio} (pin {PHYSICAL[gpio]})" if gpio in PHYSICAL else f"GPIO{gpio}"


class Claim(NamedTuple):
    """A GPIO and what it is used for, e.g. (17, "multiplexer 0 signal").

    A pin of an SPI bus names its `bus`: every device on that bus shares it. `selects` marks the chip
    select a device answers to, which no other device may use."""

    gpio: int
    purpose: str
    bus: str | None = None
    selects: bool = False


def spi_claims(port: int, chip_select: int, device: str) -> list[Claim]:
    """The pins the kernel takes for SPI bus `port`, shared with other devices on it, with `device`
    answering to `chip_select` (0 = CE0, 1 = CE1)."""
    bus = f"SPI{port}"
    pins = SPI_BUSES[port]
    return [
        Claim(gpio, f"{bus} {role} ({device})", bus, selects=role == f"CE{chip_select}") for role, gpio in pins.items()
    ]


def check_claims(claims: Iterable[Claim | tuple[int, str]], where: str) -> dict[int, str]:
    """Every GPIO used once (an SPI bus's pins once per bus, each chip select by one device): the
    map of GPIO -> use, or a WiringError naming both uses of a pin."""
    owner: dict[int, Claim] = {}
    for raw in claims:
        claim = Claim(*raw)
        first = owner.get(claim.gpio)
        if first is None:
            owner[claim.gpio] = claim
            continue
        shared_bus = claim.bus is not None and claim.bus == first.bus
        if not shared_bus or (claim.selects and first.selects):
            advice = f"; each device on {claim.bus} needs a chip select of its own" if shared_bus else ""
            raise wiring_error(
                where,
                None,
                f"{describe(claim.gpio)} is used twice: for {first.purpose} and for {claim.purpose}{advice}",
            )
        if claim.selects:
            owner[claim.gpio] = claim
    return {gpio: claim.purpose for gpio, claim in owner.items()}
