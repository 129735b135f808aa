"""The firmware's scanners against circuit models of the chips, and the per-channel debounce."""

from __future__ import annotations

import pytest

from firmware.scan import Debouncer, MuxScanner, ShiftScanner, debounce_scans
from tests.firmware import fake_machine
from tests.firmware.circuits import MuxBoard, ShiftChain

Pin = fake_machine.Pin


def mux_scanner(channels: int, muxes: int) -> tuple[MuxScanner, MuxBoard]:
    board = MuxBoard([2, 3, 4, 5], [6 + mux for mux in range(muxes)])
    fake_machine.attach(board)
    selects = [Pin(pin, Pin.OUT, value=0) for pin in board.select_pins]
    signals = [Pin(pin, Pin.IN, Pin.PULL_UP) for pin in board.signal_pins]
    return MuxScanner(selects, signals, channels, sleep_us=lambda us: None), board


def test_mux_waits_for_the_common_line_after_each_select_step() -> None:
    board = MuxBoard([2, 3, 4, 5], [6])
    fake_machine.attach(board)
    selects = [Pin(pin, Pin.OUT, value=0) for pin in board.select_pins]
    signals = [Pin(pin, Pin.IN, Pin.PULL_UP) for pin in board.signal_pins]
    waits: list[tuple[int, int]] = []  # (microseconds, select writes so far)
    scanner = MuxScanner(selects, signals, 16, sleep_us=lambda us: waits.append((us, board.select_writes)))
    board.select_writes = 0
    scanner.read([0] * 16)
    assert len(waits) == 16 and {us for us, _ in waits} == {10}  # the default: 10 us, every address
    assert [writes for _, writes in waits] == sorted(writes for _, writes in waits)  # after each step


def test_mux_channel_is_mux_times_16_plus_address() -> None:
    scanner, board = mux_scanner(40, 3)
    board.magnet(0, 0)
    board.magnet(1, 5)
    board.magnet(2, 7)
    values = [9] * 40
    scanner.read(values)
    assert [channel for channel, value in enumerate(values) if value] == [0, 21, 39]
    assert set(values) == {0, 1}


def test_mux_steps_the_select_lines_in_gray_code() -> None:
    scanner, board = mux_scanner(32, 2)
    board.select_writes = 0
    values = [0] * 32
    for _ in range(3):
        scanner.read(values)
    # One select line per address step: 15 steps from address 0 in the first scan, then 16 per scan
    # (the last address, 8, is one step from the first, 0).
    assert board.select_writes == 15 + 16 + 16
    board.magnet(0, 13)
    board.magnet(1, 6)
    scanner.read(values)
    assert [channel for channel, value in enumerate(values) if value] == [13, 22]


def test_mux_skips_addresses_beyond_the_channel_count() -> None:
    scanner, board = mux_scanner(18, 2)  # mux 1 carries only channels 16 and 17
    board.magnet(1, 2)  # would be channel 18: not wired
    values = [0] * 18
    scanner.read(values)
    assert values == [0] * 18
    board.magnet(1, 1)
    scanner.read(values)
    assert values[17] == 1


def test_mux_active_high_wiring_reads_the_level_as_is() -> None:
    board = MuxBoard([2, 3, 4, 5], [6])
    fake_machine.attach(board)
    selects = [Pin(pin, Pin.OUT, value=0) for pin in board.select_pins]
    scanner = MuxScanner(selects, [Pin(6, Pin.IN)], 16, active_low=False)
    board.magnet(0, 3)
    values = [0] * 16
    scanner.read(values)
    assert values == [0 if channel == 3 else 1 for channel in range(16)]


def test_mux_rejects_impossible_wiring() -> None:
    pins = [Pin(n, Pin.OUT) for n in range(4)]
    with pytest.raises(ValueError, match="4 select pins"):
        MuxScanner(pins[:3], [Pin(6, Pin.IN)], 16)
    with pytest.raises(ValueError, match="do not fit 1 mux"):
        MuxScanner(pins, [Pin(6, Pin.IN)], 17)


def shift_scanner(channels: int) -> tuple[ShiftScanner, ShiftChain]:
    chain = ShiftChain(2, 3, 4, (channels + 7) // 8)
    fake_machine.attach(chain)
    scanner = ShiftScanner(Pin(2, Pin.OUT, value=1), Pin(3, Pin.OUT, value=0), Pin(4, Pin.IN), channels)
    return scanner, chain


def test_shift_chain_channel_of_chip_k_input_dj_is_8k_plus_j() -> None:
    scanner, chain = shift_scanner(24)
    chain.magnet(0, 7)
    chain.magnet(1, 2)
    chain.magnet(2, 0)
    values = [0] * 24
    scanner.read(values)
    assert [channel for channel, value in enumerate(values) if value] == [7, 10, 16]
    assert chain.loads == 1


def test_shift_chain_with_a_partly_used_last_chip() -> None:
    scanner, chain = shift_scanner(12)  # chip 1's inputs D4..D7 are not wired to fields
    chain.magnet(1, 3)
    chain.magnet(1, 6)  # would be channel 14: ignored
    values = [0] * 12
    scanner.read(values)
    assert [channel for channel, value in enumerate(values) if value] == [11]


def test_shift_chain_relatches_on_every_scan() -> None:
    scanner, chain = shift_scanner(16)
    values = [0] * 16
    chain.magnet(1, 1)
    scanner.read(values)
    assert values[9] == 1
    chain.magnet(1, 1, present=False)
    chain.magnet(0, 6)
    scanner.read(values)
    assert [channel for channel, value in enumerate(values) if value] == [6]


def test_debounce_scans_cover_the_whole_debounce_time() -> None:
    assert debounce_scans(20, 200) == 5  # seen at t, t+5, t+10, t+15, t+20
    assert debounce_scans(0, 1000) == 1
    assert debounce_scans(3, 200) == 1  # shorter than one scan period


def test_debouncer_takes_the_first_scan_as_stable() -> None:
    debouncer = Debouncer(3, 3)
    assert debouncer.update([1, 0, 1]) == []
    assert debouncer.stable == [1, 0, 1]


def test_debouncer_changes_after_n_equal_scans() -> None:
    debouncer = Debouncer(2, 3)
    debouncer.update([0, 0])
    assert debouncer.update([1, 0]) == []
    assert debouncer.update([1, 0]) == []
    assert debouncer.update([1, 0]) == [0]
    assert debouncer.stable == [1, 0]
    assert debouncer.update([1, 0]) == []


def test_debouncer_bounce_restarts_the_count() -> None:
    debouncer = Debouncer(1, 3)
    debouncer.update([0])
    for raw in ([1], [1], [0], [1], [1]):
        assert debouncer.update(raw) == []
    assert debouncer.update([1]) == [0]


def test_debouncer_new_value_during_count_restarts_with_that_value() -> None:
    debouncer = Debouncer(1, 2)  # a count sensor: 0 -> 1 -> 2
    debouncer.update([0])
    assert debouncer.update([1]) == []
    assert debouncer.update([2]) == []
    assert debouncer.update([2]) == [0]
    assert debouncer.stable == [2]


def test_debouncer_reports_channels_in_order() -> None:
    debouncer = Debouncer(4, 1)
    debouncer.update([0, 0, 0, 0])
    assert debouncer.update([1, 0, 1, 1]) == [0, 2, 3]


def test_debouncer_needs_at_least_one_scan() -> None:
    with pytest.raises(ValueError, match="at least 1 scan"):
        Debouncer(1, 0)
