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
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main(config_path: str, bufsiz_file: str, report_path: str) -> int:
    import hal.neopixel
    from controller.terminal.cli import main as tafel
    from hal.gpio.wiring import GpioConfig
    from sim.gpiochip import chip_for
    from sim.lgpio_standin import pi_libraries
    from sim.spidev_standin import force_pi4_board, is_dark, pi_spidev

    force_pi4_board()
    data = tomllib.loads(Path(config_path).read_text())
    gpio = GpioConfig.from_mapping(data["gpio"]) if "gpio" in data else None
    chip = chip_for(gpio.scanner if gpio is not None else None)
    kernel = pi_spidev(spi0=chip.spi_enabled, bufsiz=int(Path(bufsiz_file).read_text()))
    hal.neopixel.SPIDEV_BUFSIZ = Path(bufsiz_file)
    with pi_libraries(chip, "pi4"), kernel.installed():
        code = tafel(["run", "--config", config_path])
    report = {
        "exit": code,
        "calls": dict(chip.calls),
        "spi_writes": [[bus, len(data), is_dark(data)] for bus, _, data in kernel.writes],
        "lines_left_as_outputs": sorted(gpio for gpio, line in chip.lines.items() if line.output),
    }
    Path(report_path).write_text(json.dumps(report))
    return code


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
