"""`tafel run` as on a Raspberry Pi 4, with the hardware simulated below the libraries.

    python tests/pi/run_as_pi.py CONFIG BUFSIZ_FILE REPORT

gpiozero, Blinka, neopixel_spi and pyserial run their real code; what is simulated is what a Pi's
kernel and circuits would answer: lgpio's C calls over a GPIO chip wired as the config's [gpio]
table says (sim/lgpio_standin.py, which also makes lgpio's notification pipe in the working
directory), the spidev driver under Blinka (sim/spidev_standin.py, spidev.bufsiz from BUFSIZ_FILE),
and Blinka's board detection (forced to a Pi 4). On exit it writes REPORT (JSON): the library calls
that reached the chip and the SPI transfers, so a test can see the scanner and the LEDs worked.
"""

from __future__ import annotations

import json
import os
import sys
import tomllib
from pathlib import Path

os.environ["BLINKA_FORCEBOARD"] = "RASPBERRY_PI_4B"
os.environ["BLINKA_FORCECHIP"] = "BCM2XXX"
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main(config_path: str, bufsiz_file: str, report_path: str) -> int:
    import hal.neopixel
    from controller.terminal.cli import main as tafel
    from hal.gpio.wiring import GpioConfig
    from sim.gpiochip import chip_for
    from sim.lgpio_standin import pi_libraries
    from sim.spidev_standin import SpidevKernel

    data = tomllib.loads(Path(config_path).read_text())
    gpio = GpioConfig.from_mapping(data["gpio"]) if "gpio" in data else None
    chip = chip_for(gpio.scanner if gpio is not None else None)
    devices = ({(0, 0), (0, 1)} if chip.spi_enabled else set()) | {(1, 0)}  # SPI1: dtoverlay=spi1-1cs
    kernel = SpidevKernel(devices, int(Path(bufsiz_file).read_text()))
    hal.neopixel.SPIDEV_BUFSIZ = Path(bufsiz_file)
    with pi_libraries(chip, "pi4"), kernel.installed():
        code = tafel(["run", "--config", config_path])
    report = {
        "exit": code,
        "calls": dict(chip.calls),
        # neopixel_spi sends a 0 bit as 0b11000000 and the reset gaps as 0: a dark frame has nothing else
        "spi_writes": [[bus, len(data), set(data) <= {0, 0b11000000}] for bus, _, data in kernel.writes],
        "lines_left_as_outputs": sorted(gpio for gpio, line in chip.lines.items() if line.output),
    }
    Path(report_path).write_text(json.dumps(report))
    return code


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
