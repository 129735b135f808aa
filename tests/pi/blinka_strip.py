"""Open the LED strip through Blinka's real import chain on a forced Raspberry Pi 4 and print what
reached the kernel as JSON. Run as a separate process: Blinka detects the board once per process.

    python tests/pi/blinka_strip.py CASE BUFSIZ_FILE

CASE: "spi1" (LEDs on SPI1, the kernel has every device), "no-spi1" (the overlay is missing),
"no-gpiod" (the gpiod package is not installed). BUFSIZ_FILE plays
/sys/module/spidev/parameters/bufsiz.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main(case: str, bufsiz_file: str) -> None:
    import hal.neopixel
    from hal.errors import HardwareError
    from hal.neopixel import NeoPixelSink, NeoPixelWiring
    from sim.spidev_standin import force_pi4_board, pi_spidev

    force_pi4_board()
    if case == "no-gpiod":
        sys.modules["gpiod"] = None  # type: ignore[assignment]  # `import gpiod` raises ImportError
    bufsiz = int(Path(bufsiz_file).read_text())
    hal.neopixel.SPIDEV_BUFSIZ = Path(bufsiz_file)
    kernel = pi_spidev(spi1=case != "no-spi1", bufsiz=bufsiz)
    report: dict[str, object] = {}
    with kernel.installed():
        try:
            sink = NeoPixelSink(201, "GRB", 1.0, NeoPixelWiring(driver="spi", spi_port=1))
        except HardwareError as error:
            report["error"] = str(error)
        else:
            sink.show([(255, 0, 0)] + [(0, 0, 0)] * 199 + [(0, 0, 255)])
            sink.close()
    report["gpiod_imported"] = bool(sys.modules.get("gpiod"))
    report["writes"] = [[bus, device, data.hex()] for bus, device, data in kernel.writes]
    report["speeds"] = sorted(set(kernel.speeds))
    print(json.dumps(report))


if __name__ == "__main__":
    main(*sys.argv[1:])
