"""Two limits of the real board: a scan rate the wiring cannot reach (the board measures its first
scans and scans as fast as it can, saying so), and the USB port (the firmware's UsbPort over a real
pipe, reading whole COBS runs instead of one byte per poll)."""

from __future__ import annotations

import os
import sys
import types
from types import ModuleType
from typing import Any

import pytest

from firmware import proto
from firmware.app import ScannerApp
from firmware.scan import debounce_scans
from tests.firmware.harness import MemoryPort, mux_circuit, settings


class MicroClock:
    """time.ticks_us of a board whose scans take `scan_us` each (the source advances it)."""

    def __init__(self, scan_us: int) -> None:
        self.now = 0
        self.scan_us = scan_us

    def __call__(self) -> int:
        return self.now


class TimedSource:
    def __init__(self, source: Any, clock: MicroClock) -> None:
        self.source = source
        self.clock = clock

    def read(self, into: list[int]) -> None:
        self.source.read(into)
        self.clock.now += self.clock.scan_us


def start(main: ModuleType, scan_us: int, scan_hz: int) -> tuple[ScannerApp, list[proto.Frame]]:
    cfg = settings(scan_hz=scan_hz)
    mux_circuit(cfg)
    port = MemoryPort()
    built = main.build(cfg, port)
    clock = MicroClock(scan_us)
    app = ScannerApp(TimedSource(built.source, clock), port, built.strip, cfg, clock_us=clock)
    app.step(0)
    return app, port.frames()


def test_a_reachable_rate_is_kept_silently(firmware_main: ModuleType) -> None:
    app, frames = start(firmware_main, scan_us=900, scan_hz=500)  # 0.9 ms of a 2 ms period
    assert [frame.kind for frame in frames] == [proto.HELLO, proto.FULL]
    assert app.scan_hz == 500


def test_an_unreachable_rate_drops_to_the_fastest_that_fits_and_says_so(firmware_main: ModuleType) -> None:
    app, frames = start(firmware_main, scan_us=1_500, scan_hz=1000)
    assert [frame.kind for frame in frames] == [proto.HELLO, proto.ERROR, proto.FULL]
    assert proto.unpack_hello(frames[0].payload)[3] == 250  # the HELLO announces the rate scanned at
    code, message = proto.unpack_error(frames[1].payload)
    assert code == proto.E_RATE and proto.ERROR_NAMES[code] == "scan rate"
    assert message == "scan_hz 1000: scans take 1500 us; using 250"
    assert app.scan_hz == 250 and app.debouncer.scans == debounce_scans(app.debounce_ms, 250)
    for now in range(1, 41):
        app.step(now)
    assert app.scans - 1 == 10  # one scan per 4 ms


def test_a_board_too_slow_for_any_rate_scans_at_the_slowest(firmware_main: ModuleType) -> None:
    app, frames = start(firmware_main, scan_us=7_000, scan_hz=200)
    message = proto.unpack_error(frames[1].payload)[1]
    assert app.scan_hz == 100 and message == "scan_hz 200: scans take 7000 us; 100 overruns"


class FakeMicropython(types.ModuleType):
    def __init__(self) -> None:
        super().__init__("micropython")
        self.interrupt_char = 3

    def kbd_intr(self, char: int) -> None:
        self.interrupt_char = char


class CountingReader:
    """stdin.buffer over a pipe, unbuffered as MicroPython's; counts the reads."""

    def __init__(self, descriptor: int) -> None:
        self.file = os.fdopen(descriptor, "rb", buffering=0)
        self.reads = 0
        self.sizes: list[int] = []

    def readinto(self, buffer: Any) -> int:
        self.reads += 1
        self.sizes.append(len(buffer))
        return self.file.readinto(buffer)

    def fileno(self) -> int:
        return self.file.fileno()


@pytest.fixture
def usb_port(firmware_main: ModuleType, monkeypatch: pytest.MonkeyPatch) -> Any:
    read_end, write_end = os.pipe()
    reader = CountingReader(read_end)
    stdin = types.SimpleNamespace(buffer=reader, fileno=reader.fileno)
    monkeypatch.setattr(sys, "stdin", stdin)
    micropython = FakeMicropython()
    monkeypatch.setitem(sys.modules, "micropython", micropython)
    port = firmware_main.UsbPort()
    assert micropython.interrupt_char == -1  # Ctrl-C may be a byte of a frame
    os.write(write_end, b"\x00")  # the link's first delimiter: from here on, frames are whole
    assert port.read() == b"\x00"
    reader.reads = 0
    reader.sizes.clear()
    yield port, reader, write_end
    port.close()
    assert micropython.interrupt_char == 3
    os.close(write_end)
    reader.file.close()


def test_a_lit_led_frame_arrives_in_a_few_reads_not_one_per_byte(usb_port: Any) -> None:
    port, reader, host = usb_port
    assert port.read() == b""  # nothing there: never blocks
    frame = proto.encode_frame(proto.LEDS, 0, proto.pack_leds(1, [(200, 100, 30)] * 201))
    os.write(host, frame)
    received = port.read()
    assert received == frame
    assert len(frame) > 600 and reader.reads == cobs_runs(frame) < 8  # a read per COBS run (<= 254 bytes)
    assert proto.Deframer().feed(received)[0].kind == proto.LEDS


def test_dark_leds_are_zero_bytes_read_one_run_each(usb_port: Any) -> None:
    port, reader, host = usb_port
    frame = proto.encode_frame(proto.LEDS, 0, proto.pack_leds(0, [(0, 0, 0)] * 201))
    os.write(host, frame)
    assert port.read() == frame
    assert reader.reads == cobs_runs(frame) > len(frame) - 5  # every zero is a run of its own


def cobs_runs(frame: bytes) -> int:
    """The runs of a COBS frame (code byte, data): UsbPort reads each with the byte after it."""
    index = runs = 0
    while frame[index]:
        runs += 1
        index += frame[index]
    return runs + 1  # the first code byte, read alone after poll


def test_before_the_first_delimiter_nothing_is_read_ahead(firmware_main: ModuleType, usb_port: Any) -> None:
    """A board that starts mid-frame, or a terminal echoing garbage before the host set it raw,
    must not block the board waiting for bytes that a stray "code byte" promised."""
    _, reader, host = usb_port
    fresh = firmware_main.UsbPort()
    os.write(host, b"\x7f\x10^@")  # would promise 127 bytes if taken for a code byte
    assert fresh.read() == b"\x7f\x10^@"
    assert reader.sizes == [1, 1, 1, 1]
    frame = proto.encode_frame(proto.REQUEST_HELLO, 0)
    os.write(host, frame + frame)
    assert fresh.read() == frame + frame
    assert reader.sizes[4 : 4 + len(frame)] == [1] * len(frame)  # byte by byte up to the first delimiter
    assert len(reader.sizes) < 4 + 2 * len(frame)  # then whole runs


def test_frames_split_by_the_budget_resume_mid_run(usb_port: Any) -> None:
    port, _, host = usb_port
    frames = b"".join(proto.encode_frame(proto.LEDS, seq, proto.pack_leds(0, [(seq, 7, 9)] * 300)) for seq in range(4))
    os.write(host, frames)
    received = b""
    while len(received) < len(frames):
        chunk = port.read()
        assert 0 < len(chunk) <= port.READ_BUDGET
        received += chunk
    assert received == frames
    assert [frame.payload for frame in proto.Deframer().feed(received)] == [
        proto.pack_leds(0, [(seq, 7, 9)] * 300) for seq in range(4)
    ]
