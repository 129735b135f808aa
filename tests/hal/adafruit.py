"""Adafruit's CircuitPython NeoPixel stack replaced by fakes: Blinka's `board` and `busio`, `neopixel`
and `neopixel_spi` with a pixel buffer that records what reaches the strip, and the kernel's spidev
buffer size as on a Pi with the default 4096 bytes."""

from __future__ import annotations

import sys
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

import hal.neopixel

OFF = (0, 0, 0)


class FakePixels:
    """The part of adafruit_pixelbuf the sink uses. It turns what it is given into wire bytes the way
    the library does (byte order `pixel_order`, scaled by `brightness`) and records every show()."""

    instances: ClassVar[list[FakePixels]] = []
    fail_on_show: ClassVar[BaseException | None] = None

    def __init__(
        self,
        target: Any,
        n: int,
        *,
        bpp: int = 3,
        brightness: float = 1.0,
        auto_write: bool = True,
        pixel_order: str | None = None,
    ) -> None:
        self.target, self.n, self.brightness = target, n, brightness
        self.auto_write, self.pixel_order = auto_write, pixel_order or "GRB"
        self.buffer: list[tuple[int, ...]] = [OFF] * n
        self.shown: list[list[tuple[int, ...]]] = []
        self.deinited = False
        FakePixels.instances.append(self)

    def _wire(self, colour: Sequence[int]) -> tuple[int, ...]:
        return tuple(round(colour["RGB".index(letter)] * self.brightness) for letter in self.pixel_order)

    def __setitem__(self, index: slice, values: Sequence[Sequence[int]]) -> None:
        assert isinstance(index, slice), "the sink writes whole frames"
        for position, colour in zip(range(*index.indices(self.n)), values, strict=True):
            self.buffer[position] = self._wire(colour)
        if self.auto_write:
            self.show()

    def fill(self, colour: Sequence[int]) -> None:
        self.buffer = [self._wire(colour)] * self.n

    def show(self) -> None:
        if FakePixels.fail_on_show is not None:
            raise FakePixels.fail_on_show
        self.shown.append(list(self.buffer))

    def deinit(self) -> None:
        self.deinited = True


class FakeSPI:
    opened: ClassVar[list[tuple[Any, Any]]] = []
    fail: ClassVar[BaseException | None] = None

    def __init__(self, clock: Any, MOSI: Any = None, MISO: Any = None) -> None:
        if FakeSPI.fail is not None:
            raise FakeSPI.fail
        FakeSPI.opened.append((clock, MOSI))


def module(name: str, **attributes: Any) -> types.ModuleType:
    made = types.ModuleType(name)
    for key, value in attributes.items():
        setattr(made, key, value)
    return made


def install_adafruit(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The fake modules in sys.modules, fresh recorders, spidev.bufsiz 4096 (undone after the test)."""
    bufsiz = tmp_path / "bufsiz"
    bufsiz.write_text("4096\n")
    monkeypatch.setattr(hal.neopixel, "SPIDEV_BUFSIZ", bufsiz)
    monkeypatch.setenv("SPI_BUFSIZE", "")  # the sink may set it: restored after the test
    monkeypatch.delenv("SPI_BUFSIZE")
    FakePixels.instances, FakePixels.fail_on_show = [], None
    FakeSPI.opened, FakeSPI.fail = [], None
    pins = {f"D{n}": f"D{n}" for n in range(2, 28)}
    board = module("board", SCK="SCK", MOSI="MOSI", SCK_1="SCK_1", MOSI_1="MOSI_1", **pins)
    monkeypatch.setitem(sys.modules, "board", board)
    monkeypatch.setitem(sys.modules, "busio", module("busio", SPI=FakeSPI))
    monkeypatch.setitem(sys.modules, "neopixel", module("neopixel", NeoPixel=FakePixels, RGB="RGB", GRB="GRB"))
    monkeypatch.setitem(sys.modules, "neopixel_spi", module("neopixel_spi", NeoPixel_SPI=FakePixels, RGB="RGB"))
