"""The import check (`tafel diagnose --imports`): each example configuration's backends name the
libraries they load, and a missing one is said in words with the package that provides it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from controller.service.config import load_config
from hal.libraries import BLINKA, GPIOZERO, LGPIO, NEOPIXEL_SPI, RPI_GPIO, SERIAL, SPIDEV, missing, needed
from tests.service.configs import ROOT

EXAMPLES = ROOT / "wiring" / "examples"


@pytest.mark.parametrize(
    ("example", "expected"),
    [
        ("sim", set()),
        ("gpio-mux", {"gpiozero", "lgpio", "sysv_ipc", "gpiod", "board", "neopixel_spi"}),
        ("gpio-shift", {"gpiozero", "lgpio", "sysv_ipc", "gpiod", "board", "neopixel_spi"}),
        ("gpio-analog", {"gpiozero", "lgpio", "sysv_ipc", "gpiod", "board", "neopixel_spi"}),
        ("rp2040", {"serial", "gpiozero", "lgpio"}),  # the scanner board over USB; the buttons on the Pi
    ],
)
def test_each_example_names_the_libraries_its_backends_load(example: str, expected: set[str]) -> None:
    assert {library.module for library in load_config(EXAMPLES / f"{example}.toml").libraries()} == expected


def test_the_legacy_pin_factory_needs_rpi_gpio_and_spidev_for_an_spi_scanner() -> None:
    legacy = needed("gpio", "sim", "none", "rpigpio", None, spi_scanner=True)
    assert legacy == [GPIOZERO, RPI_GPIO, SPIDEV] and RPI_GPIO.pip == "rpi-lgpio"
    assert needed("gpio", "sim", "none", "lgpio", None, spi_scanner=True) == [GPIOZERO, LGPIO]  # lgpio has SPI
    assert needed("serial", "serial", "none", "lgpio", None, spi_scanner=False) == [SERIAL]


def test_a_missing_library_is_named_with_its_purpose_and_package() -> None:
    def importer(module: str) -> object:
        if module == "lgpio":
            raise ImportError("No module named 'lgpio'", name="lgpio")
        if module == "board":
            raise RuntimeError("Adafruit-PlatformDetect cannot tell this board")  # Blinka off a Pi
        return object()

    problems = missing([GPIOZERO, LGPIO, BLINKA, NEOPIXEL_SPI], importer)
    assert problems == [
        "lgpio (gpiozero's pin library on every Pi) cannot be loaded: not installed; sudo apt install python3-lgpio",
        "board (Blinka, the LED strip's view of the Pi) does not load here: Adafruit-PlatformDetect cannot tell "
        "this board; reinstall tafel with its [pi] extra (sudo systemd/install.sh), which brings adafruit-blinka",
    ]


def test_the_command_says_what_is_there_and_exits_by_it() -> None:
    command = [sys.executable, "-m", "controller.terminal.cli", "diagnose", "--imports"]
    sim = subprocess.run(
        [*command, "--config", str(EXAMPLES / "sim.toml")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert sim.returncode == 0 and "loads no hardware library" in sim.stdout
    from controller.terminal.diagnose import check_imports

    def nothing(module: str) -> object:
        raise ImportError(f"No module named {module!r}", name=module)

    assert check_imports(load_config(EXAMPLES / "rp2040.toml"), nothing) == 1


def test_install_checks_the_libraries_at_the_end() -> None:
    out = subprocess.run(
        ["bash", str(ROOT / "systemd" / "install.sh"), "--dry-run", "--any-os", "--variant", "gpio-mux"],
        capture_output=True,
        text=True,
    ).stdout
    assert "would run: runuser -u tafel -- /opt/tafel/venv/bin/tafel diagnose --imports" in out
