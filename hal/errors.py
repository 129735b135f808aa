"""The two kinds of hardware trouble a maker meets, each with a message that says what to do.

`WiringError` is a configuration that cannot work (a pin used twice, a pin not on the header, too few
channels for the board profile); it names the configuration key. `HardwareError` is a device that is
missing, unreachable or not permitted at run time (no GPIO chip, no SPI device, no root for /dev/mem).
"""

from __future__ import annotations


class WiringError(ValueError):
    """A wiring configuration that cannot work; the message names the configuration key.

    `where` is the table (e.g. `[gpio.mux]`, possibly after a file name) and `key` the key in it, when
    known: a configuration loader uses them to point at the line of the file."""

    def __init__(self, message: str, where: str | None = None, key: str | None = None) -> None:
        super().__init__(message)
        self.where = where
        self.key = key


def wiring_error(where: str, key: str | None, message: str) -> WiringError:
    """`where: key: message` (or `where: message` without a key), remembering `where` and `key`."""
    text = f"{where}: {key}: {message}" if key is not None else f"{where}: {message}"
    return WiringError(text, where, key)


class HardwareError(RuntimeError):
    """A device that is missing, unreachable or not permitted; the message says how to fix it."""
