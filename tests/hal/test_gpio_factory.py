"""Choosing the pin factory: lgpio by default, RPi.GPIO where chosen, and a HardwareError that says
what to do when a library is missing, the machine is no Pi, or RPi.GPIO meets a Pi 5.

Both libraries are replaced by stand-ins at their own interface (sim/lgpio_standin.py,
sim/rpigpio_standin.py) over a simulated GPIO chip, so gpiozero's real pin factories run above them;
tests/hal/test_real_pin_libraries.py scans every wiring through them.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import os
import subprocess
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gpiozero.pins.local
import pytest
from gpiozero.exc import PinUnknownPi

from hal.errors import HardwareError, WiringError
from hal.gpio import MuxScanner, MuxWiring, make_pin_factory
from sim.gpiochip import SimGpioChip
from sim.lgpio_standin import pi_libraries


@pytest.fixture
def fresh_pin_modules(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """gpiozero's pin modules import their library once; drop them so each test imports anew."""
    for name in ("gpiozero.pins.rpigpio", "gpiozero.pins.lgpio"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    yield
    for name in ("gpiozero.pins.rpigpio", "gpiozero.pins.lgpio"):
        sys.modules.pop(name, None)


def test_rpigpio_is_selectable_and_scans_through_rpi_gpio() -> None:
    chip = SimGpioChip()
    chip.wire_muxes((5, 6, 13, 19), (17, 27), enable_pin=26)
    chip.magnets = set(range(16))  # multiplexer 0: every input sees a magnet; multiplexer 1: none
    with pi_libraries(chip, "pi3b", rpigpio=True):
        factory = make_pin_factory("rpigpio")
        assert type(factory).__name__ == "RPiGPIOFactory"
        scanner = MuxScanner(MuxWiring((5, 6, 13, 19), (17, 27), enable_pin=26), 32, factory)
        assert scanner.scan() == (1,) * 16 + (0,) * 16
        assert {pin: chip.lines[pin].output for pin in (5, 6, 13, 19, 26, 17, 27)} == {
            5: True, 6: True, 13: True, 19: True, 26: True, 17: False, 27: False
        }  # fmt: skip
        assert chip.lines[17].pull == "up" and chip.lines[27].pull == "up"
        assert chip.calls["add_event_detect"] == 0
        scanner.close()
        factory.close()


def test_rpigpio_missing_says_how_to_install(monkeypatch: pytest.MonkeyPatch, fresh_pin_modules: None) -> None:
    monkeypatch.setitem(sys.modules, "RPi", None)
    with pytest.raises(HardwareError, match=r"RPi.GPIO is not installed.*tafel\[legacy\].*lgpio.*works on every model"):
        make_pin_factory("rpigpio")


def test_rpigpio_on_a_pi_5_points_to_lgpio() -> None:
    with (
        pi_libraries(SimGpioChip(), "pi5", rpigpio=True),
        pytest.raises(HardwareError, match=r'fails on the Raspberry Pi 5: set pin_factory = "lgpio"'),
    ):
        make_pin_factory("rpigpio")


def test_lgpio_is_the_default() -> None:
    with pi_libraries(SimGpioChip()):
        factory = make_pin_factory()
        assert type(factory).__name__ == "LGPIOFactory"
        factory.close()


def test_lgpio_missing_says_how_to_install(monkeypatch: pytest.MonkeyPatch, fresh_pin_modules: None) -> None:
    monkeypatch.setitem(sys.modules, "lgpio", None)
    with pytest.raises(HardwareError, match=r"lgpio library is not installed.*tafel\[pi\].*python3-lgpio"):
        make_pin_factory("lgpio")


def test_lgpio_without_access_to_the_gpio_chip() -> None:
    chip = SimGpioChip()
    chip.accessible = False
    with pi_libraries(chip), pytest.raises(HardwareError, match=r"cannot open the GPIO chip.*gpio group"):
        make_pin_factory("lgpio")


def test_not_a_raspberry_pi(monkeypatch: pytest.MonkeyPatch, fresh_pin_modules: None) -> None:
    def no_revision() -> int:
        raise PinUnknownPi("unable to locate Pi revision in /proc/device-tree or /proc/cpuinfo")

    with pi_libraries(SimGpioChip()):
        monkeypatch.setattr(gpiozero.pins.local, "get_pi_revision", no_revision)
        with pytest.raises(HardwareError, match=r"this machine is not a Raspberry Pi.*simulated board"):
            make_pin_factory("lgpio")


def test_unknown_pin_factory() -> None:
    with pytest.raises(WiringError, match=r"pin_factory: must be one of 'lgpio', 'rpigpio', not 'pigpio'"):
        make_pin_factory("pigpio")


def test_backends_import_without_hardware_libraries() -> None:
    code = (
        "import sys, hal.gpio, hal.neopixel, hal.pins\n"
        "loaded = {'gpiozero', 'lgpio', 'RPi', 'neopixel', 'neopixel_spi', 'board', 'busio'} & set(sys.modules)\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[2])


class _LgpioThatNeedsAWritableDirectory(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """`import lgpio` as on a Pi: the module starts a helper thread that creates its notification
    pipe (.lgd-nfy0) in the current directory, and the import fails where that is not writable."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        return importlib.util.spec_from_loader(name, self) if name == "lgpio" else None

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        open(".lgd-nfy0", "w").close()


def test_lgpio_in_a_read_only_working_directory_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_pin_modules: None
) -> None:
    read_only = tmp_path / "root"
    read_only.mkdir()
    read_only.chmod(0o555)
    monkeypatch.delitem(sys.modules, "lgpio", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_LgpioThatNeedsAWritableDirectory(), *sys.meta_path])
    monkeypatch.chdir(read_only)
    if os.access(read_only, os.W_OK):  # root writes anywhere: make the directory vanish instead
        monkeypatch.chdir(tmp_path)
        read_only.chmod(0o755)
        gone = tmp_path / "gone"
        gone.mkdir()
        monkeypatch.chdir(gone)
        gone.rmdir()
    with pytest.raises(HardwareError, match=r"lgpio library could not start .* writable working directory"):
        make_pin_factory("lgpio")
    sys.modules.pop("lgpio", None)


def test_the_unit_gives_the_service_a_writable_working_directory() -> None:
    unit = (Path(__file__).resolve().parents[2] / "systemd" / "tafel.service").read_text()
    assert "RuntimeDirectory=tafel" in unit and "WorkingDirectory=/run/tafel" in unit


def test_scan_inputs_switch_on_no_edge_detection() -> None:
    """The scanners poll levels: an input must not ask the library for edge callbacks (RPi.GPIO's
    add_event_detect fails on current kernels; lgpio would queue a callback per select step)."""
    from gpiozero.pins.mock import MockFactory

    from hal.gpio.factory import PinSet
    from hal.gpio.lines import DeviceLines

    factory = MockFactory()
    pins = PinSet(factory)
    pins.input(17, "mux signal", pull_up=True)
    lines = pins.lines
    assert isinstance(lines, DeviceLines)  # mock pins are gpiozero devices
    (device,) = lines.devices
    assert device.pin.when_changed is None  # no callback: the library never queues an event
    assert type(device).__name__ == "InputDevice"  # DigitalInputDevice would set edges='both'
    pins.close()


def test_multiplexers_wait_for_the_common_line_by_default() -> None:
    from hal.gpio.wiring import AnalogMuxWiring, MuxWiring

    assert MuxWiring((5, 6, 13, 19), (17,)).settle_us == 10
    assert AnalogMuxWiring((5, 6, 13, 19), ((0, 0),), (0.1,)).settle_us == 10


def test_a_silent_fall_back_to_software_spi_is_refused_with_advice() -> None:
    import warnings

    from gpiozero.exc import SPISoftwareFallback

    from hal.gpio.factory import hardware_spi

    closed: list[bool] = []

    class Device:
        def close(self) -> None:
            closed.append(True)

    def opener() -> Device:  # what gpiozero does when /dev/spidev0.0 cannot be opened
        warnings.warn(SPISoftwareFallback("failed to initialize hardware SPI, falling back to software"), stacklevel=1)
        return Device()

    with pytest.raises(RuntimeError, match=r"hardware SPI could not be opened .*dtparam=spi=on.*spi group"):
        hardware_spi(opener, "MCP3008 on chip select 0")
    assert closed == [True]
    assert isinstance(hardware_spi(Device, "MCP3008"), Device)  # hardware SPI: no complaint
