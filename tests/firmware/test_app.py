"""The scanner loop under a fake clock: HELLO and FULL at start, debounced CHANGES, heartbeats,
periodic FULL frames, requests from the host, LED frames, and the errors it reports."""

from __future__ import annotations

from itertools import pairwise
from types import ModuleType
from typing import Any

import pytest

from firmware import proto
from firmware.app import TICKS_PERIOD, FaultReporter, ScannerApp, ticks_add, ticks_diff
from tests.firmware.circuits import MuxBoard
from tests.firmware.harness import MemoryPort, mux_circuit, settings


class Rig:
    """A scanner app on a fake mux board, stepped by hand."""

    def __init__(self, main: ModuleType, **overrides: Any) -> None:
        self.cfg = settings(**overrides)
        self.board: MuxBoard = mux_circuit(self.cfg)
        self.port = MemoryPort()
        self.app: ScannerApp = main.build(self.cfg, self.port)
        self.now = 0

    def run_until(self, end: int, every: int = 1) -> None:
        while self.now < end:
            self.now += every
            self.app.step(self.now)

    def start(self) -> list[proto.Frame]:
        self.app.step(self.now)
        return self.port.frames()


@pytest.fixture
def rig(firmware_main: ModuleType) -> Rig:
    return Rig(firmware_main)


def test_start_sends_hello_then_full(rig: Rig) -> None:
    rig.board.magnet(1, 0)  # channel 16 is occupied when the board starts
    hello, full = rig.start()
    assert hello.kind == proto.HELLO and full.kind == proto.FULL
    assert (hello.seq, full.seq) == (0, 1)
    protocol, channels, leds, scan_hz, debounce_ms, model, order, version = proto.unpack_hello(hello.payload)
    assert (protocol, channels, leds, scan_hz, debounce_ms) == (proto.PROTOCOL_VERSION, 20, 8, 200, 20)
    assert (model, order) == ("binary", "GRB")
    assert version.startswith("tafel-scanner")
    assert proto.unpack_full(full.payload) == tuple(1 if channel == 16 else 0 for channel in range(20))


def test_change_is_reported_once_it_held_for_the_debounce_time(rig: Rig) -> None:
    rig.start()
    rig.run_until(100)
    rig.port.frames()
    rig.board.magnet(0, 3)  # placed just before the scan at t=105
    rig.run_until(124)
    assert rig.port.frames(proto.CHANGES) == []
    rig.run_until(125)  # seen at 105, 110, 115, 120, 125: held for 20 ms
    (changes,) = rig.port.frames(proto.CHANGES)
    assert proto.unpack_changes(changes.payload) == [(3, 1)]


def test_bounce_shorter_than_the_debounce_time_is_never_reported(rig: Rig) -> None:
    rig.start()
    for _ in range(10):  # 10 ms on, 10 ms off: never 20 ms in one state
        rig.board.magnet(0, 4)
        rig.run_until(rig.now + 10)
        rig.board.magnet(0, 4, present=False)
        rig.run_until(rig.now + 10)
    assert rig.port.frames(proto.CHANGES) == []
    assert rig.app.debouncer.stable[4] == 0


def test_simultaneous_changes_share_one_frame(rig: Rig) -> None:
    rig.start()
    rig.board.magnet(0, 1)
    rig.board.magnet(1, 2)
    rig.run_until(30)
    (changes,) = rig.port.frames(proto.CHANGES)
    assert proto.unpack_changes(changes.payload) == [(1, 1), (18, 1)]
    rig.board.magnet(0, 1, present=False)
    rig.run_until(60)
    (changes,) = rig.port.frames(proto.CHANGES)
    assert proto.unpack_changes(changes.payload) == [(1, 0)]


def test_heartbeat_reports_uptime_scan_rate_and_counters(rig: Rig) -> None:
    rig.start()
    rig.run_until(1000)
    beats = [proto.unpack_heartbeat(frame.payload) for frame in rig.port.frames(proto.HEARTBEAT)]
    assert [beat[0] for beat in beats] == [250, 500, 750, 1000]
    assert all(rate == 200 and overruns == 0 and errors == 0 for _, rate, overruns, errors in beats)


def test_status_led_toggles_with_each_heartbeat(rig: Rig) -> None:
    from tests.firmware import fake_machine

    rig.start()
    status = fake_machine.pins[rig.cfg["status_pin"]]
    levels = []
    for end in (250, 500, 750):
        rig.run_until(end)
        levels.append(status.value())
    assert levels == [1, 0, 1]


def test_full_frame_is_repeated_at_its_interval(rig: Rig) -> None:
    rig.start()
    rig.run_until(10000, every=5)
    fulls = rig.port.frames(proto.FULL)
    assert len(fulls) == 2  # at 5000 and 10000


def test_sequence_numbers_count_every_frame_and_wrap(rig: Rig) -> None:
    rig.start()
    rig.run_until(80000, every=50)  # 320 heartbeats and 16 FULL frames
    seqs = [frame.seq for frame in rig.port.frames()]
    assert seqs[0] == 2
    assert all(b == (a + 1) % 256 for a, b in pairwise(seqs))
    assert len(seqs) > 256


def test_late_steps_keep_the_scan_grid_and_count_overruns(rig: Rig) -> None:
    rig.start()
    rig.run_until(100, every=5)
    scans = rig.app.scans
    rig.now = 123  # a long LED write: the slots at 105, 110, 115 and 120 came due meanwhile
    rig.app.step(rig.now)
    assert rig.app.scans == scans + 1  # one late scan takes their place; three were missed
    assert rig.app.overruns == 3
    rig.run_until(125)
    assert rig.app.scans == scans + 2


def test_request_full_is_answered_with_full(rig: Rig) -> None:
    rig.start()
    rig.port.send(proto.REQUEST_HELLO, 0)
    rig.run_until(1)
    rig.port.frames()
    rig.board.magnet(0, 9)
    rig.run_until(40)
    rig.port.frames()
    rig.port.send(proto.REQUEST_FULL, 1)
    rig.run_until(41)
    (full,) = rig.port.frames(proto.FULL)
    assert proto.unpack_full(full.payload)[9] == 1


def test_request_hello_is_answered_with_hello_and_full(rig: Rig) -> None:
    rig.start()
    rig.port.send(proto.REQUEST_HELLO, 77)
    rig.run_until(1)
    assert [frame.kind for frame in rig.port.frames()] == [proto.HELLO, proto.FULL]


def test_leds_frame_is_applied_in_the_strips_byte_order_and_shown(rig: Rig) -> None:
    rig.start()
    rig.port.send(proto.REQUEST_HELLO, 0)
    rig.port.send(proto.LEDS, 1, proto.pack_leds(2, [(10, 20, 30), (1, 2, 3)], show=False))
    rig.run_until(1)
    strip = rig.app.strip
    assert strip.frames == []
    assert bytes(strip.buf[6:12]) == bytes([20, 10, 30, 2, 1, 3])  # GRB
    rig.port.send(proto.LEDS, 2, proto.pack_leds(7, [(255, 0, 0)], show=True))
    rig.run_until(2)
    assert strip.frames == [((0, 0, 0),) * 2 + ((10, 20, 30), (1, 2, 3)) + ((0, 0, 0),) * 3 + ((255, 0, 0),)]
    assert rig.port.frames(proto.ERROR) == []


def test_leds_past_the_strip_are_refused_with_an_error(rig: Rig) -> None:
    rig.start()
    rig.port.send(proto.REQUEST_HELLO, 0)
    rig.port.send(proto.LEDS, 1, proto.pack_leds(6, [(1, 1, 1)] * 3))
    rig.run_until(1)
    (error,) = rig.port.frames(proto.ERROR)
    code, message = proto.unpack_error(error.payload)
    assert code == proto.E_BAD_PAYLOAD
    assert "past the strip of 8" in message
    assert rig.app.strip.frames == []


def test_garbage_from_the_host_is_reported_and_the_next_frame_still_works(rig: Rig) -> None:
    rig.start()
    rig.port.inbox.extend(b"\x13\x37garbage\x00")
    rig.port.send(proto.REQUEST_FULL, 5)
    rig.run_until(1)
    errors = rig.port.frames()
    assert [frame.kind for frame in errors] == [proto.ERROR, proto.FULL]
    assert proto.unpack_error(errors[0].payload)[0] == proto.E_BAD_FRAME
    assert rig.app.rx_errors == 1


def test_lost_host_frames_are_reported_as_a_gap(rig: Rig) -> None:
    rig.start()
    rig.port.send(proto.REQUEST_HELLO, 10)
    rig.port.send(proto.REQUEST_FULL, 11)
    rig.port.send(proto.REQUEST_FULL, 14)  # 12 and 13 never arrived
    rig.run_until(1)
    (error,) = rig.port.frames(proto.ERROR)
    assert proto.unpack_error(error.payload) == (proto.E_GAP, "expected host frame 12, got 14")


def test_frames_meant_for_the_host_are_refused(rig: Rig) -> None:
    rig.start()
    rig.port.send(proto.HEARTBEAT, 0, proto.pack_heartbeat(1, 2, 3, 4))
    rig.run_until(1)
    (error,) = rig.port.frames(proto.ERROR)
    assert proto.unpack_error(error.payload)[0] == proto.E_UNKNOWN_TYPE


def test_the_clock_may_wrap(firmware_main: ModuleType) -> None:
    rig = Rig(firmware_main)
    rig.now = TICKS_PERIOD - 50
    rig.start()
    rig.board.magnet(0, 2)
    end = rig.now + 100
    while rig.now < end:
        rig.now += 1
        rig.app.step(rig.now & (TICKS_PERIOD - 1))
    assert [proto.unpack_changes(f.payload) for f in rig.port.frames(proto.CHANGES)] == [[(2, 1)]]
    assert rig.app.uptime_ms == 100
    assert rig.app.overruns == 0


def test_ticks_helpers_match_micropython() -> None:
    assert ticks_diff(5, TICKS_PERIOD - 5) == 10
    assert ticks_diff(TICKS_PERIOD - 5, 5) == -10
    assert ticks_add(TICKS_PERIOD - 1, 2) == 1


def test_fault_reporter_repeats_its_error_and_answers_hello() -> None:
    port = MemoryPort()
    reporter = FaultReporter(port, proto.E_CONFIG, "select_pins must list 4 pins")
    reporter.step(0)
    reporter.step(500)
    port.send(proto.REQUEST_HELLO, 0)
    reporter.step(600)
    reporter.step(1600)
    frames = port.frames()
    assert [frame.seq for frame in frames] == [0, 1, 2]
    assert {proto.unpack_error(frame.payload) for frame in frames} == {(proto.E_CONFIG, "select_pins must list 4 pins")}
