"""The backend factory: what it builds for each configuration, with the documented constructor
arguments, and how it cleans up when a device fails. Hardware modules are replaced by recorders."""

from __future__ import annotations

import os
import sys
import types
from pathlib import Path

import pytest

from controller.backends import BackendError, MergedInputs, NullPixels, from_config
from controller.config import load_config
from hal.protocols import InputEvent, InputSource, PixelSink, SensorSource
from tests.service.configs import EXAMPLES, sim_config, write

BUILT: list[tuple[str, dict]] = []
INSTANCES: list = []


def recorder(name: str, fail: bool = False) -> type:
    class Backend:
        def __init__(self, **kwargs) -> None:
            if fail:
                raise OSError(f"{name} is not connected")
            BUILT.append((name, kwargs))
            INSTANCES.append(self)
            self.kwargs = kwargs
            self.closed = 0
            self.channels = kwargs.get("channels", 0)
            self.size = kwargs.get("size", 0)

        def scan(self):
            return (0,) * self.channels

        def show(self, colours) -> None:
            return None

        def poll(self) -> list[InputEvent]:
            return []

        def close(self) -> None:
            self.closed += 1

    Backend.__name__ = name
    return Backend


@pytest.fixture
def hardware(monkeypatch: pytest.MonkeyPatch) -> types.SimpleNamespace:
    BUILT.clear()
    INSTANCES.clear()
    modules = {}
    for module, names in {
        "hal.gpio": ("MuxScanner", "ShiftRegisterScanner", "GpioButtons"),
        "hal.neopixel": ("NeoPixelSink",),
        "hal.serial": ("SerialScanner", "SerialPixels"),
    }.items():
        fake = types.ModuleType(module)
        for name in names:
            setattr(fake, name, recorder(name))
        monkeypatch.setitem(sys.modules, module, fake)
        modules[module] = fake
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "unset")
    return types.SimpleNamespace(**{key.split(".")[1]: value for key, value in modules.items()})


def test_gpio_mux_board_with_spi_leds_and_buttons(hardware) -> None:
    backends = from_config(load_config(EXAMPLES / "gpio-mux.toml"))
    assert [name for name, _ in BUILT] == ["MuxScanner", "NeoPixelSink", "GpioButtons"]
    assert BUILT[0][1] == {
        "channels": 196,
        "select_pins": (5, 6, 12, 13),
        "signal_pins": (2, 3, 4, 14, 15, 17, 18, 19, 22, 23, 24, 25, 26),
        "enable_pin": None,
        "active_low": True,
        "pull_up": True,
        "settle_us": 5,
    }
    assert BUILT[1][1] == {"size": 201, "pin": 10, "colour_order": "GRB", "brightness": 0.4}
    assert BUILT[2][1] == {"pins": {"confirm": 16, "undo": 20, "menu": 21}, "pull_up": True, "bounce_ms": 30}
    assert os.environ["GPIOZERO_PIN_FACTORY"] == "lgpio"
    assert backends.sim is None and isinstance(backends.sensors, SensorSource)
    assert isinstance(backends.pixels, PixelSink) and isinstance(backends.inputs, InputSource)
    assert backends.close() == [] and all(backend.closed == 1 for backend in backends.opened)


def test_gpio_shift_register_chain(hardware) -> None:
    from_config(load_config(EXAMPLES / "gpio-shift.toml"))
    assert BUILT[0] == (
        "ShiftRegisterScanner",
        {"channels": 196, "load_pin": 22, "clock_pin": 27, "data_pin": 17, "enable_pin": None, "active_low": True},
    )


def test_rp2040_drives_the_leds_over_its_own_link(hardware) -> None:
    backends = from_config(load_config(EXAMPLES / "rp2040.toml"))
    assert BUILT[0] == ("SerialScanner", {"port": "/dev/tafel-scanner", "baud": 115200, "channels": 196})
    assert BUILT[1][0] == "SerialPixels" and BUILT[1][1]["link"] is backends.sensors
    assert backends.close() == [] and backends.sensors.closed == 1


def test_the_simulated_board_with_gpio_buttons_merges_both_inputs(hardware, tmp_path: Path) -> None:
    text = sim_config() + '\n[buttons]\nbackend = "gpio"\nconfirm = 23\n\n[gpio]\npin_factory = "mock"\n'
    backends = from_config(load_config(write(tmp_path, text)))
    assert isinstance(backends.inputs, MergedInputs)
    backends.sim.inputs.push("button", "confirm")
    assert backends.inputs.poll() == [InputEvent("button", "confirm")]
    assert os.environ["GPIOZERO_PIN_FACTORY"] == "mock"
    assert backends.sim.pixels is backends.pixels  # the hands measure acknowledgements on it


def test_no_leds(tmp_path: Path) -> None:
    backends = from_config(
        load_config(write(tmp_path, sim_config().replace('backend = "sim"\n\n[sim]', 'backend = "none"\n\n[sim]')))
    )
    assert isinstance(backends.pixels, NullPixels) and backends.pixels.size == 201


def test_a_failing_device_closes_what_was_already_opened(hardware, monkeypatch) -> None:
    monkeypatch.setattr(hardware.neopixel, "NeoPixelSink", recorder("NeoPixelSink", fail=True))
    with pytest.raises(BackendError, match=r"^\[leds\] neopixel on GPIO 10: NeoPixelSink is not connected$"):
        from_config(load_config(EXAMPLES / "gpio-mux.toml"))
    assert [name for name, _ in BUILT] == ["MuxScanner"]
    assert INSTANCES[0].closed == 1


def test_a_backend_missing_from_its_module_is_named(hardware, monkeypatch) -> None:
    monkeypatch.delattr(hardware.serial, "SerialPixels")
    with pytest.raises(BackendError, match=r"needs hal\.serial\.SerialPixels, which this version of tafel lacks"):
        from_config(load_config(EXAMPLES / "rp2040.toml"))
