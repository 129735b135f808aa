"""The two kinds of hardware trouble a maker meets, each with a message that says what to do.

`WiringError` is a configuration that cannot work (a pin used twice, a pin not on the header, too few
channels for the board profile); it names the configuration key. `HardwareError` is a device that is
missing, unreachable or not permitted at run time (no GPIO chip, no SPI device, no root for /dev/mem).
"""

from __future__ import annotations


class WiringError(ValueError):
    """A wiring configuration that cannot work; the message names the configuration key."""


class HardwareError(RuntimeError):
    """A device that is missing, unreachable or not permitted; the message says how to fix it."""
