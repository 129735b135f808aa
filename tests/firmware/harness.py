"""Test harness for the firmware under CPython: a fake clock, an in-memory port, the fake
`machine` and `neopixel` modules installed for firmware/main.py, and small board configurations."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from firmware import config, proto
from tests.firmware import fake_machine, fake_neopixel
from tests.firmware.circuits import MuxBoard, ShiftChain


class FakeClock:
    """Milliseconds that move only when a test says so."""

    def __init__(self, now: int = 0) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> int:
        self.now += ms
        return self.now


class MemoryPort:
    """The board's end of a cable kept in memory: `inbox` is what the host sent, `outbox` what the
    board wrote."""

    def __init__(self) -> None:
        self.inbox = bytearray()
        self.outbox = bytearray()
        self._deframer = proto.Deframer()

    def read(self) -> bytes:
        data = bytes(self.inbox)
        self.inbox.clear()
        return data

    def write(self, data: bytes) -> None:
        self.outbox.extend(data)

    def send(self, kind: int, seq: int, payload: bytes = b"") -> None:
        self.inbox.extend(proto.encode_frame(kind, seq, payload))

    def received(self) -> list[Any]:
        """Everything the board wrote since the last call, decoded (Frames and ProtocolErrors)."""
        data = bytes(self.outbox)
        self.outbox.clear()
        return self._deframer.feed(data)

    def frames(self, kind: int | None = None) -> list[proto.Frame]:
        items = self.received()
        assert all(isinstance(item, proto.Frame) for item in items), items
        return [item for item in items if kind is None or item.kind == kind]


def settings(**overrides: Any) -> dict[str, Any]:
    """A small mux board (20 channels on two muxes, 8 LEDs) unless overridden."""
    base: dict[str, Any] = {
        "channels": 20,
        "signal_pins": [6, 7],
        "led_count": 8,
        "scan_hz": 200,
        "debounce_ms": 20,
        "heartbeat_ms": 250,
        "full_ms": 5000,
    }
    base.update(overrides)
    return config.load(base)


def mux_circuit(cfg: dict[str, Any]) -> MuxBoard:
    board = MuxBoard(cfg["select_pins"], cfg["signal_pins"])
    fake_machine.attach(board)
    return board


def shift_circuit(cfg: dict[str, Any]) -> ShiftChain:
    chain = ShiftChain(cfg["load_pin"], cfg["clock_pin"], cfg["data_pin"], (cfg["channels"] + 7) // 8)
    fake_machine.attach(chain)
    return chain


@pytest.fixture
def firmware_main(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """firmware/main.py imported with the fake `machine` and `neopixel` modules in place."""
    monkeypatch.setitem(sys.modules, "machine", fake_machine)
    monkeypatch.setitem(sys.modules, "neopixel", fake_neopixel)
    monkeypatch.delitem(sys.modules, "firmware.main", raising=False)
    module = importlib.import_module("firmware.main")
    yield module
    fake_machine.attach(None)
    sys.modules.pop("firmware.main", None)
