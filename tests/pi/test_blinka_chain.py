"""The LED strip through Blinka's real import chain on a forced Raspberry Pi 4: `import board` on a
Pi imports gpiod, busio.SPI opens /dev/spidevB.D through Adafruit_PureIO, and neopixel_spi writes
each frame with SPI_IOC_MESSAGE. Only the kernel's spidev driver is simulated (sim/spidev_standin.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hal.neopixel import spi_frame_bytes
from sim.spidev_standin import is_dark, neopixel_levels

pytest.importorskip("adafruit_blinka", reason="Blinka is installed with the dev extras")
pytest.importorskip("neopixel_spi", reason="neopixel_spi is installed with the dev extras")

DRIVER = Path(__file__).with_name("blinka_strip.py")


def run(case: str, bufsiz: int, tmp_path: Path) -> dict:
    sysfs = tmp_path / "bufsiz"
    sysfs.write_text(f"{bufsiz}\n")
    done = subprocess.run([sys.executable, str(DRIVER), case, str(sysfs)], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_whole_frame_leaves_in_one_transfer_on_spi1(tmp_path: Path) -> None:
    report = run("spi1", 32768, tmp_path)
    assert "error" not in report
    assert report["gpiod_imported"], "Blinka imports gpiod on every Pi: the pi extra must install it"
    frames = [bytes.fromhex(data) for bus, _, data in report["writes"]]
    assert {bus for bus, _, _ in report["writes"]} == {1}
    assert all(len(frame) == spi_frame_bytes(201) for frame in frames)  # never split: the strip would latch half
    assert report["speeds"] == [6_400_000]
    shown = neopixel_levels(frames[0])
    assert shown[:3] == [0, 255, 0]  # GRB on the wire: the first LED red
    assert shown[600:603] == [0, 0, 255]  # the last LED blue
    assert is_dark(frames[-1])  # closing switches every LED off


def test_the_kernels_default_bufsiz_is_refused_with_the_cmdline_fix(tmp_path: Path) -> None:
    report = run("spi1", 4096, tmp_path)
    assert "spidev.bufsiz=32768 to /boot/firmware/cmdline.txt" in report["error"]
    assert report["writes"] == []


def test_a_missing_spi1_overlay_says_which_line_to_add(tmp_path: Path) -> None:
    report = run("no-spi1", 32768, tmp_path)
    assert "/dev/spidev1.0 is missing" in report["error"] and "dtoverlay=spi1-1cs" in report["error"]


def test_without_gpiod_the_strip_says_what_to_install(tmp_path: Path) -> None:
    report = run("no-gpiod", 32768, tmp_path)
    assert "needs the gpiod package" in report["error"] and "tafel[pi]" in report["error"]
    assert "Traceback" not in report["error"]
