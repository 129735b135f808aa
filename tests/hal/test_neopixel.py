"""The NeoPixel sink against a fake pixel buffer standing in for Adafruit's libraries: the bytes that
reach the strip (colour order, brightness, current cap), one show() per frame, and clear errors when
the library, the board or the rights are missing."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

import hal.neopixel
from hal.errors import HardwareError, WiringError
from hal.gpio import GpioConfig
from hal.neopixel import (
    COLOUR_ORDERS,
    NeoPixelSink,
    NeoPixelWiring,
    frame_milliamps,
    level_table,
    wire_frame,
)
from hal.profile import BoardProfile
from hal.protocols import PixelSink
from tests.hal.adafruit import FakePixels, FakeSPI, install_adafruit

RED, GREEN, BLUE, WHITE, OFF = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0)


@pytest.fixture
def adafruit(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """Blinka's `board` and `busio`, `neopixel` and `neopixel_spi`, replaced by fakes; the kernel's
    spidev buffer size as on a Pi with the default 4096 bytes."""
    install_adafruit(monkeypatch, tmp_path)
    yield


def strip() -> FakePixels:
    assert len(FakePixels.instances) == 1
    return FakePixels.instances[0]


# --- what reaches the strip ------------------------------------------------------------------------


def test_colour_order_and_brightness_reach_the_wire(adafruit: None) -> None:
    sink = NeoPixelSink(3, "GRB", 0.5)
    assert isinstance(sink, PixelSink) and sink.size == 3
    sink.show([(255, 10, 0), (0, 0, 200), (40, 80, 120)])
    assert strip().shown == [[(5, 128, 0), (0, 0, 100), (40, 20, 60)]]


@pytest.mark.parametrize("order", COLOUR_ORDERS)
def test_every_colour_order(adafruit: None, order: str) -> None:
    sink = NeoPixelSink(1, order, 1.0)
    sink.show([(1, 2, 3)])
    by_letter = {"R": 1, "G": 2, "B": 3}
    assert strip().shown == [[tuple(by_letter[letter] for letter in order)]]


def test_one_show_per_frame_and_no_auto_write(adafruit: None) -> None:
    sink = NeoPixelSink(4, "GRB", 1.0)
    assert strip().auto_write is False
    sink.show([RED, GREEN, BLUE, OFF])
    sink.show([OFF, RED, GREEN, BLUE])
    assert strip().shown == [
        [(0, 255, 0), (255, 0, 0), (0, 0, 255), OFF],
        [OFF, (0, 255, 0), (255, 0, 0), (0, 0, 255)],
    ]
    assert sink.frames_shown == 2


def test_profile_sets_count_order_and_brightness(adafruit: None, hex61: BoardProfile) -> None:
    sink = NeoPixelSink.from_profile(hex61)
    assert (sink.size, sink.colour_order, sink.brightness) == (66, "GRB", 0.4)
    sink.show([WHITE] * 66)
    assert strip().shown[0] == [(102, 102, 102)] * 66  # 255 * 0.4


def test_spi_driver_is_the_default_on_spi0(adafruit: None) -> None:
    NeoPixelSink(2)
    assert FakeSPI.opened == [("SCK", "MOSI")]
    assert isinstance(strip().target, FakeSPI)


def test_spi_driver_on_spi1(adafruit: None) -> None:
    NeoPixelSink(2, wiring=NeoPixelWiring(spi_port=1))
    assert FakeSPI.opened == [("SCK_1", "MOSI_1")]


def test_pwm_driver_on_gpio18(adafruit: None) -> None:
    NeoPixelSink(2, wiring=NeoPixelWiring(driver="pwm", pin=18)).show([RED, RED])
    assert strip().target == "D18"
    assert FakeSPI.opened == []


def test_a_frame_leaves_in_one_spi_transfer(adafruit: None, monkeypatch: pytest.MonkeyPatch) -> None:
    NeoPixelSink(66)  # the hex board fits the default 4096 bytes
    assert os.environ["SPI_BUFSIZE"] == "4096"
    with pytest.raises(HardwareError) as raised:
        NeoPixelSink(201)
    assert str(raised.value) == (
        "opening the NeoPixel strip (spi driver, data on GPIO10 (pin 19)): 201 LEDs need 4952 bytes per SPI "
        "transfer, but the kernel's spidev.bufsiz is 4096; add spidev.bufsiz=32768 to /boot/firmware/cmdline.txt "
        "and reboot"
    )
    hal.neopixel.SPIDEV_BUFSIZ.write_text("32768\n")
    NeoPixelSink(201)
    assert os.environ["SPI_BUFSIZE"] == "32768"  # Adafruit's SPI layer then sends a frame in one piece


def test_frame_of_the_wrong_length_or_colour(adafruit: None) -> None:
    sink = NeoPixelSink(2)
    with pytest.raises(ValueError, match="a frame for this strip has 2 colours, not 3"):
        sink.show([RED, RED, RED])
    with pytest.raises(ValueError, match=r"LED 1: colour must be three whole numbers 0..255, not \(256, 0, 0\)"):
        sink.show([RED, (256, 0, 0)])
    assert strip().shown == []


def test_close_blanks_the_strip(adafruit: None) -> None:
    with NeoPixelSink(2, brightness=1.0) as sink:
        sink.show([WHITE, WHITE])
    assert strip().shown[-1] == [OFF, OFF]
    assert strip().deinited


def test_current_cap_dims_the_whole_frame(adafruit: None) -> None:
    sink = NeoPixelSink(10, "RGB", 1.0, NeoPixelWiring(max_milliamps=200))
    sink.show([WHITE] * 10)  # about 610 mA uncapped
    frame = strip().shown[0]
    assert frame_milliamps(frame) <= 200
    assert frame_milliamps(frame) > 190  # dimmed no more than needed
    assert len(set(frame)) == 1  # evenly


def test_current_cap_leaves_small_frames_alone() -> None:
    levels = level_table(1.0)
    assert wire_frame([RED, OFF], "RGB", levels, max_milliamps=100) == [RED, OFF]
    assert frame_milliamps([RED, OFF]) == pytest.approx(22.0)


# --- errors ----------------------------------------------------------------------------------------


class Refuse(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Makes `import <name>` raise `error`, as Blinka's `board` does on a machine it does not know."""

    def __init__(self, name: str, error: BaseException) -> None:
        self.name, self.error = name, error

    def find_spec(self, fullname: str, path: object, target: object = None) -> importlib.machinery.ModuleSpec | None:
        return importlib.machinery.ModuleSpec(fullname, self) if fullname == self.name else None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        raise self.error


def test_not_a_raspberry_pi(adafruit: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "board")
    monkeypatch.setattr(sys, "meta_path", [Refuse("board", NotImplementedError("Board not supported x86"))])
    with pytest.raises(HardwareError, match=r"NeoPixels need a Raspberry Pi.*simulated board"):
        NeoPixelSink(2)


def test_library_missing(adafruit: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "neopixel_spi", None)
    with pytest.raises(HardwareError, match=r"library is not installed.*tafel\[pi\].*neopixel-spi"):
        NeoPixelSink(2)


def test_pwm_driver_without_root_suggests_the_spi_driver(adafruit: None) -> None:
    sink = NeoPixelSink(2, wiring=NeoPixelWiring(driver="pwm"))
    FakePixels.fail_on_show = RuntimeError("NeoPixel support requires running with sudo, please try again!")
    with pytest.raises(HardwareError, match=r'/dev/mem: the pwm driver needs root.*driver = "spi".*spi group'):
        sink.show([RED, RED])


def test_spi_device_not_permitted(adafruit: None) -> None:
    FakeSPI.fail = PermissionError(13, "Permission denied", "/dev/spidev0.0")
    with pytest.raises(HardwareError, match=r"permission denied on /dev/spidev0.0.*spi group"):
        NeoPixelSink(2)


def test_spi_not_enabled(adafruit: None) -> None:
    FakeSPI.fail = FileNotFoundError(2, "No such file or directory", "/dev/spidev1.0")
    with pytest.raises(HardwareError, match=r"/dev/spidev1.0 is missing.*dtoverlay=spi1-1cs"):
        NeoPixelSink(2, wiring=NeoPixelWiring(spi_port=1))


# --- the [neopixel] table --------------------------------------------------------------------------


def test_wiring_from_mapping_and_claims() -> None:
    wiring = NeoPixelWiring.from_mapping({"driver": "spi", "max_milliamps": 4000}, "config.toml [neopixel]")
    assert wiring == NeoPixelWiring("spi", 0, 18, 4000)
    assert wiring.data_gpio == 10
    assert {claim.gpio for claim in wiring.claims()} == {7, 8, 9, 10, 11}
    assert {claim.gpio for claim in NeoPixelWiring(spi_port=1).claims()} == {18, 19, 20, 21}
    assert NeoPixelWiring(driver="pwm", pin=12).claims() == [(12, "NeoPixel data (PWM)", None, False)]
    assert NeoPixelWiring().has_dma and NeoPixelWiring(driver="pwm").has_dma
    assert not NeoPixelWiring(spi_port=1).has_dma  # the auxiliary SPI of a Pi 3, 4 and Zero 2 W


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"driver": "dma"}, r"\[neopixel\]: driver: must be one of 'spi', 'pwm', not 'dma'"),
        ({"spi_port": 2}, r"\[neopixel\]: spi_port: must be >= 0 and <= 1, not 2"),
        ({"driver": "pwm", "pin": 17}, r"\[neopixel\]: pin: the pwm driver can drive GPIO 12, 13, 18, 19, 21, not 17"),
        ({"max_milliamps": 0}, r"max_milliamps: must be >= 1, not 0"),
        ({"brightness": 0.5}, r"unknown key\(s\) brightness"),
    ],
)
def test_wiring_errors_name_the_key(data: dict, message: str) -> None:
    with pytest.raises(WiringError, match=message):
        NeoPixelWiring.from_mapping(data, "config.toml [neopixel]")


def test_spi_neopixels_and_the_adc_share_spi0_with_a_chip_select_each() -> None:
    def analog(chip_select: int) -> GpioConfig:
        inputs = [[chip_select, 0]]
        data = {"select_pins": [5, 6, 13, 26], "adc_inputs": inputs, "thresholds": [0.1]}
        return GpioConfig.from_mapping({"scanner": "analog", "analog": data}, "config.toml [gpio]")

    with pytest.raises(
        WiringError,
        match=r"GPIO8 \(pin 24\) is used twice: for SPI0 CE0 \(MCP3008 on chip select 0\) and for SPI0 CE0 "
        r"\(LED strip\); each device on SPI0 needs a chip select of its own",
    ):
        analog(0).check_pins(NeoPixelWiring(spi_port=0).claims())
    owners = analog(1).check_pins(NeoPixelWiring(spi_port=0).claims())  # CE1 for the ADC, CE0 gates the strip
    assert owners[8] == "SPI0 CE0 (LED strip)" and owners[7] == "SPI0 CE1 (MCP3008 on chip select 1)"
    analog(0).check_pins(NeoPixelWiring(spi_port=1).claims())  # SPI1 for the LEDs: no conflict either
