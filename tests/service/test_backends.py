"""The backend factory builds the real hardware backends from the configuration: the GPIO scanners and
buttons on gpiozero's MockFactory with virtual chips on its pins, the NeoPixel strip on fake Adafruit
modules, the RP2040 scanner's firmware on an in-memory cable; it closes what it opened when a later
device fails, and it names a missing library."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

import hal.neopixel
from controller.service.backends import BackendError, Backends, Devices, MergedInputs, NullPixels, from_config
from controller.service.config import Config, load_config
from hal.gpio import AnalogMuxScanner, GpioButtons, MuxScanner, MuxWiring, ShiftRegisterScanner
from hal.neopixel import NeoPixelSink
from hal.protocols import InputEvent, InputSource, PixelSink, SensorSource
from hal.serial_devices import SerialPixels, SerialScanner
from tests.firmware.harness import FakeClock
from tests.hal.adafruit import FakePixels, FakeSPI, install_adafruit
from tests.hal.virtual import VirtualAnalogBoard, VirtualMuxes, VirtualShiftChain
from tests.service.configs import EXAMPLES, sim_config, write
from tests.service.scanner import ScannerCable

RED, OFF = (255, 0, 0), (0, 0, 0)


@pytest.fixture
def factory(monkeypatch: pytest.MonkeyPatch) -> Iterator[MockFactory]:
    """A fresh MockFactory, also gpiozero's default (its software SPI bus opens pins through it)."""
    mock = MockFactory()
    monkeypatch.setattr(Device, "pin_factory", mock)
    yield mock
    mock.reset()


@pytest.fixture
def adafruit(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Fake Adafruit modules, on a Pi whose kernel allows the 201 LEDs' frame in one SPI transfer
    (spidev.bufsiz=32768, as wiring/square14.md says)."""
    install_adafruit(monkeypatch, tmp_path)
    hal.neopixel.SPIDEV_BUFSIZ.write_text("32768\n")


def strip() -> FakePixels:
    assert len(FakePixels.instances) == 1
    return FakePixels.instances[0]


def lit(readings: tuple[int, ...] | None) -> dict[int, int]:
    assert readings is not None
    return {channel: value for channel, value in enumerate(readings) if value}


def press(factory: MockFactory, inputs: InputSource, gpio: int, name: str) -> None:
    """A press of the button on `gpio`, held past its 30 ms debounce."""
    assert inputs.poll(0) == []  # type: ignore[call-arg]
    factory.pin(gpio).drive_low()
    assert inputs.poll(10) == []  # type: ignore[call-arg]
    assert inputs.poll(40) == [InputEvent("button", name)]  # type: ignore[call-arg]


# --- the Pi's own pins ----------------------------------------------------------------------------------


def test_the_shift_register_example(factory: MockFactory, adafruit: None) -> None:
    config = load_config(EXAMPLES / "gpio-shift.toml")
    chain = VirtualShiftChain(factory, 22, 27, 17, 25, clock_enable_pin=4)
    chain.magnets = {config.profile.channel_of("e4"), config.profile.channel_of("n14")}
    backends = from_config(config, Devices(pin_factory=factory))
    assert isinstance(backends.sensors, ShiftRegisterScanner) and isinstance(backends.sensors, SensorSource)
    assert lit(backends.sensors.scan()) == dict.fromkeys(chain.magnets, 1)
    assert isinstance(backends.pixels, NeoPixelSink) and FakeSPI.opened == [("SCK", "MOSI")]  # SPI0
    backends.pixels.show([RED] * 201)
    assert strip().shown[-1][0] == (0, 102, 0)  # GRB at the profile's brightness 0.4
    assert isinstance(backends.inputs, GpioButtons)
    press(factory, backends.inputs, 13, "menu")
    assert backends.device_status() is None and backends.sim is None
    assert backends.close() == []
    assert strip().deinited
    factory.pin(22).close()  # released: a new device may take it
    MuxScanner(MuxWiring((22, 27, 17, 4), (5, 6, 13)), 48, factory).close()


def test_the_multiplexer_example(factory: MockFactory, adafruit: None) -> None:
    config = load_config(EXAMPLES / "gpio-mux.toml")
    chips = VirtualMuxes(factory, (2, 3, 4, 17), (5, 6, 12, 13, 16, 18, 19, 20, 21, 22, 23, 24, 25))
    chips.magnets = {config.profile.channel_of(name) for name in ("a1", "g7", "n14")}
    backends = from_config(config, Devices(pin_factory=factory))
    assert isinstance(backends.sensors, MuxScanner)
    assert lit(backends.sensors.scan()) == dict.fromkeys(chips.magnets, 1)
    assert FakeSPI.opened == [("SCK", "MOSI")]  # the strip on SPI0
    press(factory, backends.inputs, 26, "confirm")
    assert backends.close() == []
    MuxScanner(MuxWiring((2, 3, 4, 17), (5, 6)), 32, factory).close()


def test_the_analog_example_reads_signed_sensors(factory: MockFactory, adafruit: None) -> None:
    config = load_config(EXAMPLES / "gpio-analog.toml")
    board = VirtualAnalogBoard(factory, (5, 6, 13, 26), ((1, 0), (1, 1), (1, 2), (1, 3)))  # the ADC on CE1
    profile = config.profile
    board.volts = {profile.channel_of("a3"): 0.65, profile.channel_of("b2"): 0.35, profile.channel_of("e5"): 0.55}
    backends = from_config(config, Devices(pin_factory=factory))
    assert isinstance(backends.sensors, AnalogMuxScanner)
    # A pawn (+1) raises the voltage, a stone (-1) lowers it; a weak stray field reads nothing.
    assert lit(backends.sensors.scan()) == {profile.channel_of("a3"): 1, profile.channel_of("b2"): -1}
    assert FakeSPI.opened == [("SCK", "MOSI")] and backends.pixels.size == 66  # the strip shares SPI0
    assert backends.close() == []


def test_an_analog_board_counts_with_a_count_model(factory: MockFactory, tmp_path: Path) -> None:
    inputs = ", ".join(
        f"[{chip}, {channel}]" for chip, channel in [*((0, c) for c in range(8)), *((1, c) for c in range(5))]
    )
    text = f"""
[game]
name = "zillo"

[board]
sensor_model = "count"

[sensors]
backend = "gpio"

[leds]
backend = "none"

[gpio]
scanner = "analog"

[gpio.analog]
select_pins = [5, 6, 13, 26]
adc_inputs = [{inputs}]
thresholds = [0.06, 0.14, 0.2]
"""
    config = load_config(write(tmp_path, text))
    board = VirtualAnalogBoard(factory, (5, 6, 13, 26), tuple((c // 8, c % 8) for c in range(13)))
    stacks = {"c12": 0.5 + 0.25, "f9": 0.5 - 0.1, "n14": 0.5 + 0.17}  # three, one and two Catchers
    board.volts = {config.profile.channel_of(name): volts for name, volts in stacks.items()}
    backends = from_config(config, Devices(pin_factory=factory))
    channel = config.profile.channel_of
    assert lit(backends.sensors.scan()) == {channel("c12"): 3, channel("f9"): 1, channel("n14"): 2}
    assert isinstance(backends.pixels, NullPixels) and backends.inputs is None
    backends.close()


def test_buttons_beside_the_simulated_board_merge_both_inputs(factory: MockFactory, tmp_path: Path) -> None:
    text = sim_config() + "\n[gpio.buttons]\nconfirm = 23\nundo = 24\n"
    backends = from_config(load_config(write(tmp_path, text)), Devices(pin_factory=factory))
    assert isinstance(backends.inputs, MergedInputs)
    buttons = backends.inputs.sources[1]
    assert isinstance(buttons, GpioButtons) and buttons.wiring.pins() == {"confirm": 23, "undo": 24}
    backends.sim.inputs.push("button", "confirm")
    assert backends.inputs.poll() == [InputEvent("button", "confirm")]
    assert backends.sim.pixels is backends.pixels  # the hands measure acknowledgements on it
    assert backends.close() == []


def test_the_configured_brightness_reaches_the_strip(adafruit: None, tmp_path: Path) -> None:
    text = sim_config().replace('[leds]\nbackend = "sim"', '[leds]\nbackend = "neopixel"\nbrightness = 0.2')
    backends = from_config(load_config(write(tmp_path, text + '\n[neopixel]\ndriver = "pwm"\n')))
    assert isinstance(backends.pixels, PixelSink) and FakeSPI.opened == []
    assert strip().target == "D18"  # the pwm driver's default data pin
    backends.pixels.show([RED] * 201)
    assert strip().shown[-1][0] == (0, 51, 0)
    backends.close()


def test_no_leds(tmp_path: Path) -> None:
    backends = from_config(
        load_config(write(tmp_path, sim_config().replace('backend = "sim"\n\n[sim]', 'backend = "none"\n\n[sim]')))
    )
    assert isinstance(backends.pixels, NullPixels) and backends.pixels.size == 201


def test_a_failing_strip_closes_the_pins_already_opened(factory: MockFactory, adafruit: None) -> None:
    FakeSPI.fail = FileNotFoundError(2, "No such file or directory", "/dev/spidev0.0")
    with pytest.raises(BackendError) as raised:
        from_config(load_config(EXAMPLES / "gpio-mux.toml"), Devices(pin_factory=factory))
    message = str(raised.value)
    assert message.startswith("[leds] neopixel: opening the NeoPixel strip (spi driver, data on GPIO10 (pin 19))")
    assert message.endswith("add dtparam=spi=on to /boot/firmware/config.txt and reboot")
    # The scanner's and the buttons' pins were released again.
    MuxScanner(MuxWiring((2, 3, 4, 17), (5, 6, 12, 13, 25, 26, 27, 14)), 128, factory).close()


def test_a_missing_pin_library_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    monkeypatch.setitem(sys.modules, "lgpio", None)  # as if lgpio were not installed
    with pytest.raises(BackendError, match=r"^\[gpio\] shift scanner and buttons: the lgpio library is not installed"):
        from_config(load_config(EXAMPLES / "gpio-shift.toml"))
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)


def test_a_backend_module_that_cannot_load_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "hal.gpio", None)
    with pytest.raises(BackendError, match=r"\[gpio\] mux scanner and buttons needs hal.gpio.open_gpio.*\[pi\] extra"):
        from_config(load_config(EXAMPLES / "gpio-mux.toml"))


# --- the RP2040 scanner ---------------------------------------------------------------------------------


def serial_backends(main: ModuleType, config: Config, factory: MockFactory | None = None, **board):
    clock = FakeClock(1000)
    cable = ScannerCable(main, clock, **board)
    backends = from_config(config, Devices(factory, cable.opener, clock))
    return backends, cable, clock


def run(backends: Backends, clock: FakeClock, ms: int) -> tuple[int, ...] | None:
    readings = None
    for _ in range(ms):
        clock.advance(1)
        readings = backends.sensors.scan()
    return readings


def test_the_rp2040_example_scans_and_lights_over_one_link(firmware_main: ModuleType, factory: MockFactory) -> None:
    config = load_config(EXAMPLES / "rp2040.toml")
    backends, cable, clock = serial_backends(firmware_main, config, factory)
    assert isinstance(backends.sensors, SerialScanner) and isinstance(backends.pixels, SerialPixels)
    assert backends.pixels.link is backends.sensors.link is backends.link  # LED frames share the USB link
    assert backends.device_status() == "connecting" and not backends.device_trouble()
    cable.magnet(config.profile.channel_of("e4"))
    readings = run(backends, clock, 60)
    assert backends.device_status() == "connected", backends.device_detail()
    assert not backends.device_trouble()
    assert lit(readings) == {config.profile.channel_of("e4"): 1}
    backends.pixels.show([RED] * 201)
    run(backends, clock, 5)
    assert cable.shown() == ((102, 0, 0),) * 201  # the profile's brightness; the board orders the bytes
    press(factory, backends.inputs, 23, "confirm")  # the buttons are on the Pi's pins
    assert backends.close() == []


def test_an_unplugged_scanner_reconnects_and_gets_the_frame_again(firmware_main: ModuleType, factory) -> None:
    config = load_config(EXAMPLES / "rp2040.toml")
    backends, cable, clock = serial_backends(firmware_main, config, factory)
    run(backends, clock, 60)
    backends.pixels.show([RED] * 201)
    run(backends, clock, 5)
    cable.unplug()
    assert run(backends, clock, 1) is None  # a dropped scan, not an exception
    assert backends.device_status() == "reconnecting" and backends.device_trouble()
    assert backends.device_detail().startswith("read from /dev/tafel-scanner failed")
    cable.app.strip.frames.clear()
    assert run(backends, clock, 1000) is None and backends.device_status() == "reconnecting"
    cable.plug()
    readings = run(backends, clock, 2000)
    assert backends.device_status() == "connected" and lit(readings) == {} and not backends.device_trouble()
    assert cable.shown() == ((102, 0, 0),) * 201  # the latest frame, sent again
    backends.close()


def test_a_scanner_that_reads_another_sensor_model_is_an_error(
    firmware_main: ModuleType, factory: MockFactory, tmp_path: Path
) -> None:
    text = (EXAMPLES / "rp2040.toml").read_text().replace("# sensor_model = ", "sensor_model = ")
    config = load_config(write(tmp_path, text.replace('"binary"', '"signed"')))
    backends, _, clock = serial_backends(firmware_main, config, factory)
    assert run(backends, clock, 100) is None
    assert backends.device_status() == "error" and backends.device_trouble()
    assert backends.device_detail() == (
        "scanner reads binary sensors; the board is configured for signed (with these sensors set "
        'sensor_model = "binary" in [board] of the service configuration)'
    )
    backends.close()


HEX_ON_RP2040 = """
[board]
profile = "hex61"
sensor_model = "binary"

[game]
name = "fillit"

[sensors]
backend = "serial"

[leds]
backend = "serial"
"""


def test_the_hex_board_runs_binary_on_the_rp2040(firmware_main: ModuleType, tmp_path: Path) -> None:
    config = load_config(write(tmp_path, HEX_ON_RP2040))
    assert config.profile.name == "hex61" and config.sensor_model == "binary"
    hex_board = {"channels": 64, "signal_pins": [6, 7, 8, 9], "led_count": 66}
    backends, cable, clock = serial_backends(firmware_main, config, None, **hex_board)
    cable.magnet(config.profile.channel_of("e5"))
    assert lit(run(backends, clock, 60)) == {config.profile.channel_of("e5"): 1}
    assert backends.device_status() == "connected"
    backends.close()
