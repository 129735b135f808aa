"""`tafel bench`'s GPIO section: what one scan of each GPIO backend costs, in library calls and time.

Every backend runs through gpiozero's real pin factories with the pin libraries replaced at their
C-call interface (sim/lgpio_standin.py), so the calls counted here are the calls a Pi makes. The
time is measured on this machine over the stand-in; the Pi figures are estimates: calls times an
assumed cost per library call, plus settle waits and SPI clocking. They have not been measured on a
Pi; docs/wiring (wiring/README.md) says so where it quotes them.
"""

from __future__ import annotations

import dataclasses
import time
import tomllib
from pathlib import Path
from typing import Any

from hal.gpio import open_gpio
from hal.gpio.wiring import AnalogMuxWiring, GpioConfig, MuxWiring, ShiftRegisterWiring
from hal.profile import load_profile
from sim.gpiochip import chip_for
from sim.lgpio_standin import pi_libraries
from sim.stats import percentile

EXAMPLES = Path(__file__).resolve().parents[2] / "wiring" / "examples"

# Assumed cost of one library call from Python on a Pi (the call, argument checks, and for lgpio the
# ioctl on /dev/gpiochip0; RPi.GPIO writes the SoC's registers through mmap, without a system call).
CALL_US = {
    "Pi 4": {"lgpio": 4.0, "rpigpio": 1.5},
    "Pi Zero 2 W": {"lgpio": 10.0, "rpigpio": 4.0},
}
SPI_TRANSFER_US = {"Pi 4": 15.0, "Pi Zero 2 W": 35.0}  # one spidev transfer's fixed cost (assumed)
ADC_SPI_HZ = 500_000  # gpiozero's lgpio hardware SPI opens at 500 kHz

SPI_CALLS = ("spi_read", "spi_write", "spi_xfer")


@dataclasses.dataclass(frozen=True)
class Variant:
    """One backend as a builder would wire it: an example config, possibly changed."""

    name: str
    example: str
    library: str = "lgpio"
    shift_bus: str | None = None  # "spi": the example's chain moved to SPI0


VARIANTS = (
    Variant("mux (13 x 74HC4067)", "gpio-mux"),
    Variant("mux (13 x 74HC4067)", "gpio-mux", "rpigpio"),
    Variant("shift over GPIO (25 x 74HC165)", "gpio-shift"),
    Variant("shift over GPIO (25 x 74HC165)", "gpio-shift", "rpigpio"),
    Variant("shift over SPI0 (25 x 74HC165)", "gpio-shift", shift_bus="spi"),
    Variant("analog (4 x 74HC4067, MCP3008)", "gpio-analog"),
)


def _config(variant: Variant) -> tuple[GpioConfig, str]:
    data = tomllib.loads((EXAMPLES / f"{variant.example}.toml").read_text())
    gpio = dict(data["gpio"])
    gpio["pin_factory"] = variant.library
    if variant.shift_bus == "spi":
        gpio["shift"] = {**gpio["shift"], "bus": "spi", "clock_pin": 11, "data_pin": 9}
    return GpioConfig.from_mapping(gpio), data["board"]["profile"]


def estimate_us(pi: str, library: str, calls: dict[str, int], scanner: Any) -> float:
    """The assumed time of one scan on `pi`: library calls, settle waits, SPI clocking."""
    total = sum(calls.values()) * CALL_US[pi][library]
    settle = getattr(scanner, "settle_us", 0)
    if isinstance(scanner, MuxWiring | AnalogMuxWiring):
        total += 16 * settle
    transfers = sum(calls.get(name, 0) for name in SPI_CALLS)
    total += transfers * SPI_TRANSFER_US[pi]
    if isinstance(scanner, ShiftRegisterWiring) and scanner.bus == "spi":
        total += scanner.chips * 8 / scanner.spi_hz * 1e6
    elif isinstance(scanner, AnalogMuxWiring):
        total += transfers * 24 / ADC_SPI_HZ * 1e6  # 3 bytes per MCP3008 read
    return total


def measure(variant: Variant, scans: int = 200) -> dict[str, Any]:
    """Calls per scan and time per scan of one backend on the stand-in, and the Pi estimates."""
    config, profile_name = _config(variant)
    profile = load_profile(profile_name)
    chip = chip_for(config.scanner)
    with pi_libraries(chip, "pi4", rpigpio=variant.library == "rpigpio"):
        board = open_gpio(config, profile)
        try:
            sensors = board.sensors
            assert sensors is not None  # the example wires a scanner
            sensors.scan()  # the first scan opens nothing more, but warms the caches
            chip.calls.clear()
            sensors.scan()
            calls = dict(chip.calls)
            times = []
            for _ in range(scans):
                started = time.perf_counter()
                sensors.scan()
                times.append((time.perf_counter() - started) * 1e6)
        finally:
            board.close()
    estimates = {pi: estimate_us(pi, variant.library, calls, config.scanner) for pi in CALL_US}
    return {
        "backend": variant.name,
        "library": variant.library,
        "example": variant.example + (" (bus = spi)" if variant.shift_bus else ""),
        "channels": profile.channels,
        "calls_per_scan": calls,
        "calls_total": sum(calls.values()),
        "standin_us_p50": round(percentile(times, 50), 1),
        "standin_us_p99": round(percentile(times, 99), 1),
        "estimate_us": {pi: round(value) for pi, value in estimates.items()},
        "estimate_max_hz": {pi: int(1e6 / value) for pi, value in estimates.items()},
    }


def run_gpio_bench(scans: int = 200) -> list[dict[str, Any]]:
    return [measure(variant, scans) for variant in VARIANTS]


def format_gpio_bench(rows: list[dict[str, Any]]) -> str:
    pis = list(CALL_US)
    lines = [
        "GPIO scan cost per backend (gpiozero's real pin factories over the library stand-in)",
        f"  {'backend':<32} {'library':<8} {'calls':>5}  {'here p50 us':>11}  "
        + "  ".join(f"{pi + ' est. us':>18}" for pi in pis),
    ]
    for row in rows:
        lines.append(
            f"  {row['backend']:<32} {row['library']:<8} {row['calls_total']:>5}  {row['standin_us_p50']:>11,.0f}  "
            + "  ".join(f"{row['estimate_us'][pi]:>9,} ({row['estimate_max_hz'][pi]:>4}/s)" for pi in pis)
        )
    lines.append(
        "  Pi figures are estimates (calls x an assumed cost per call, settle waits, SPI clocking), not "
        "measured on a Pi."
    )
    return "\n".join(lines)
