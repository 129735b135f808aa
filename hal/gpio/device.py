"""The lifecycle every GPIO device of the board shares, written once (as gpiozero's `Device`): a
device owns the pins it opened, as a `PinSet`, and gives them back on `close` or at the end of a
`with` block, whatever the device does with them in between."""

from __future__ import annotations

from typing import Self

from hal.gpio.factory import PinSet


class PinDevice:
    """A scanner or the buttons: something that opened pins and must give them back."""

    _pins: PinSet

    def close(self) -> None:
        self._pins.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
