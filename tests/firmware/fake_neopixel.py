"""A fake MicroPython `neopixel` module: the same buffer layout as the real NeoPixel class (bytes
in the strip's order, via ORDER), with every write() recorded."""

from __future__ import annotations

from typing import Any

RGB = tuple[int, int, int]


class NeoPixel:
    ORDER: tuple[int, ...] = (1, 0, 2, 3)  # MicroPython's default: GRB

    def __init__(self, pin: Any, n: int, bpp: int = 3, timing: int = 1) -> None:
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.frames: list[tuple[RGB, ...]] = []

    def __len__(self) -> int:
        return self.n

    def __setitem__(self, index: int, colour: RGB) -> None:
        offset = index * self.bpp
        for component in range(self.bpp):
            self.buf[offset + self.ORDER[component]] = colour[component]

    def __getitem__(self, index: int) -> RGB:
        offset = index * self.bpp
        red, green, blue = (self.buf[offset + self.ORDER[component]] for component in range(3))
        return (red, green, blue)

    def write(self) -> None:
        self.frames.append(tuple(self[index] for index in range(self.n)))
