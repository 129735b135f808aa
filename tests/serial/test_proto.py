"""The frame codec shared by host and board: COBS, CRC-16/CCITT-FALSE, frames, payloads, limits,
and the deframer's resync after garbage, truncation and corruption."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from firmware import proto
from hal.profile import COLOUR_ORDERS
from hal.sensors import MODEL_NAMES

FAST = settings(max_examples=60, deadline=None)
# Corruption tests assert that the CRC catches every damaged frame; run them on a fixed sequence of
# examples so a run never depends on the luck of the draw.
FIXED = settings(max_examples=60, deadline=None, derandomize=True)

payloads = st.binary(max_size=proto.MAX_PAYLOAD)
kinds = st.sampled_from(proto.TO_HOST + proto.TO_SCANNER)
seqs = st.integers(0, 255)
values = st.integers(-128, 127)
colours = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))


# --- CRC and COBS -------------------------------------------------------------------------------


def test_crc16_ccitt_false_check_value() -> None:
    assert proto.crc16(b"123456789") == 0x29B1
    assert proto.crc16(b"") == 0xFFFF


# Vectors from the COBS paper's examples (Cheshire and Baker) as listed on Wikipedia.
COBS_VECTORS = [
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x00\x11\x00", b"\x01\x02\x11\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255))),
    (bytes(range(0, 255)), b"\x01\xff" + bytes(range(1, 255))),
    (bytes(range(1, 256)), b"\xff" + bytes(range(1, 255)) + b"\x02\xff"),
    (bytes(range(2, 256)) + b"\x00", b"\xff" + bytes(range(2, 256)) + b"\x01\x01"),
    (bytes(range(3, 256)) + b"\x00\x01", b"\xfe" + bytes(range(3, 256)) + b"\x02\x01"),
]


@pytest.mark.parametrize(("raw", "encoded"), COBS_VECTORS)
def test_cobs_known_vectors(raw: bytes, encoded: bytes) -> None:
    assert proto.cobs_encode(raw) == encoded
    assert proto.cobs_decode(encoded) == raw


@FAST
@given(st.binary(max_size=1200))
@example(b"\x01" * 254)
@example(b"\x01" * 508 + b"\x00")
def test_cobs_round_trip_without_zeros(data: bytes) -> None:
    encoded = proto.cobs_encode(data)
    assert b"\x00" not in encoded
    assert len(encoded) <= len(data) + len(data) // 254 + 1
    assert proto.cobs_decode(encoded) == data


def test_cobs_rejects_zero_bytes_and_blocks_past_the_end() -> None:
    with pytest.raises(proto.ProtocolError, match="zero byte"):
        proto.cobs_decode(b"\x03\x11\x00")
    with pytest.raises(proto.ProtocolError, match="zero byte"):
        proto.cobs_decode(b"\x02\x11\x00\x01")
    with pytest.raises(proto.ProtocolError, match="truncated"):
        proto.cobs_decode(b"\x05\x11\x22")


# --- frames -------------------------------------------------------------------------------------


@FAST
@given(kinds, seqs, payloads)
@example(proto.LEDS, 255, b"\x00" * proto.MAX_PAYLOAD)
@example(proto.HELLO, 0, b"")
def test_frame_round_trip(kind: int, seq: int, payload: bytes) -> None:
    wire = proto.encode_frame(kind, seq, payload)
    assert wire.endswith(b"\x00") and b"\x00" not in wire[:-1]
    assert len(wire) <= proto.MAX_ENCODED + 1
    assert proto.Deframer().feed(wire) == [proto.Frame(kind, seq, payload)]


@FAST
@given(st.lists(st.tuples(kinds, seqs, st.binary(max_size=40)), max_size=8), st.integers(1, 17))
def test_frame_stream_round_trip_in_any_chunking(frames: list[tuple[int, int, bytes]], chunk: int) -> None:
    stream = b"".join(proto.encode_frame(*frame) for frame in frames)
    deframer = proto.Deframer()
    decoded = []
    for start in range(0, len(stream), chunk):
        decoded.extend(deframer.feed(stream[start : start + chunk]))
    assert decoded == [proto.Frame(*frame) for frame in frames]
    assert deframer.pending == 0


def test_frame_payload_limit() -> None:
    proto.encode_frame(proto.LEDS, 0, bytes(proto.MAX_PAYLOAD))
    with pytest.raises(proto.ProtocolError, match="exceeds MAX_PAYLOAD 1024"):
        proto.encode_frame(proto.LEDS, 0, bytes(proto.MAX_PAYLOAD + 1))


def test_decode_rejects_short_and_corrupted_frames() -> None:
    with pytest.raises(proto.ProtocolError, match="too short"):
        proto.decode_frame(proto.cobs_encode(b"\x01\x02\x03"))
    wire = bytearray(proto.encode_frame(proto.FULL, 3, b"\x01\x00\x01"))
    wire[2] ^= 0x40
    with pytest.raises(proto.ProtocolError, match="CRC mismatch"):
        proto.decode_frame(bytes(wire[:-1]))


def test_two_delimiters_in_a_row_are_a_silent_flush() -> None:
    assert proto.Deframer().feed(b"\x00\x00\x00") == []


# --- resync -------------------------------------------------------------------------------------

GOOD = proto.Frame(proto.CHANGES, 42, proto.pack_changes([(7, 1)]))


def good_wire() -> bytes:
    return proto.encode_frame(GOOD.kind, GOOD.seq, GOOD.payload)


@FIXED
@given(st.binary(min_size=1, max_size=300))
def test_garbage_then_delimiter_costs_only_the_garbage(garbage: bytes) -> None:
    results = proto.Deframer().feed(garbage + b"\x00" + good_wire())
    assert results[-1] == GOOD
    assert all(isinstance(item, proto.ProtocolError) for item in results[:-1])


def test_garbage_longer_than_any_frame_is_dropped_without_buffering() -> None:
    deframer = proto.Deframer()
    assert deframer.feed(b"\xaa" * (proto.MAX_ENCODED * 3)) == []
    assert deframer.pending == 0
    results = deframer.feed(b"\x00" + good_wire())
    assert len(results) == 2
    assert isinstance(results[0], proto.ProtocolError) and "longer than" in str(results[0])
    assert results[1] == GOOD


@FIXED
@given(st.data())
def test_any_single_bit_error_is_caught_and_the_next_frame_survives(data: st.DataObject) -> None:
    wire = bytearray(proto.encode_frame(proto.FULL, 9, proto.pack_full([1, 0, -1, 2, 0, 1])))
    index = data.draw(st.integers(0, len(wire) - 2), label="byte")  # not the delimiter
    wire[index] ^= 1 << data.draw(st.integers(0, 7), label="bit")
    results = proto.Deframer().feed(bytes(wire) + good_wire())
    assert results[-1] == GOOD
    assert results[:-1] and all(isinstance(item, proto.ProtocolError) for item in results[:-1])


@FIXED
@given(st.integers(1, 8))
def test_truncated_frame_then_flush_resyncs(keep: int) -> None:
    wire = proto.encode_frame(proto.FULL, 9, proto.pack_full([1, 0, 1, 0, 1, 0]))
    deframer = proto.Deframer()
    assert deframer.feed(wire[:keep]) == []
    assert deframer.pending == keep
    results = deframer.feed(b"\x00" + good_wire())  # a sender starting afresh flushes first
    assert len(results) == 2 and isinstance(results[0], proto.ProtocolError)
    assert results[1] == GOOD


def test_truncated_frame_without_flush_takes_the_next_frame_with_it() -> None:
    wire = proto.encode_frame(proto.FULL, 9, proto.pack_full([1, 0, 1]))
    later = proto.encode_frame(proto.HEARTBEAT, 44, proto.pack_heartbeat(1, 200, 0, 0))
    results = proto.Deframer().feed(wire[:4] + good_wire() + later)
    assert len(results) == 2 and isinstance(results[0], proto.ProtocolError)
    assert results[1] == proto.Frame(proto.HEARTBEAT, 44, proto.pack_heartbeat(1, 200, 0, 0))


# --- payloads -----------------------------------------------------------------------------------


def test_names_match_hal() -> None:
    assert proto.SENSOR_MODELS == MODEL_NAMES
    assert proto.LED_ORDERS == COLOUR_ORDERS


@FAST
@given(
    st.integers(0, proto.MAX_CHANNELS),
    st.integers(0, proto.MAX_LEDS),
    st.integers(0, 65535),
    st.integers(0, 65535),
    st.sampled_from(proto.SENSOR_MODELS),
    st.sampled_from(proto.LED_ORDERS),
    st.text(max_size=12),
)
def test_hello_round_trip(
    channels: int, leds: int, hz: int, debounce: int, model: str, order: str, version: str
) -> None:
    payload = proto.pack_hello(channels, leds, hz, debounce, model, order, version)
    assert proto.unpack_hello(payload) == (
        proto.PROTOCOL_VERSION,
        channels,
        leds,
        hz,
        debounce,
        model,
        order,
        version,
    )


@FAST
@given(st.text(min_size=proto.MAX_TEXT))
def test_long_texts_are_cut_between_characters(text: str) -> None:
    _, message = proto.unpack_error(proto.pack_error(proto.E_INTERNAL, text))
    assert text.startswith(message)
    assert proto.MAX_TEXT - 3 <= len(message.encode()) <= proto.MAX_TEXT


@FAST
@given(st.lists(values, max_size=proto.MAX_CHANNELS))
def test_full_round_trip(readings: list[int]) -> None:
    assert proto.unpack_full(proto.pack_full(readings)) == tuple(readings)


@FAST
@given(st.lists(st.tuples(st.integers(0, proto.MAX_CHANNELS - 1), values), max_size=proto.MAX_CHANGES))
def test_changes_round_trip(changes: list[tuple[int, int]]) -> None:
    assert proto.unpack_changes(proto.pack_changes(changes)) == changes


@FAST
@given(st.integers(0, 2**32 - 1), st.integers(0, 65535), st.integers(0, 65535), st.integers(0, 65535))
def test_heartbeat_round_trip(uptime: int, rate: int, overruns: int, errors: int) -> None:
    assert proto.unpack_heartbeat(proto.pack_heartbeat(uptime, rate, overruns, errors)) == (
        uptime,
        rate,
        overruns,
        errors,
    )


def test_heartbeat_counters_saturate() -> None:
    assert proto.unpack_heartbeat(proto.pack_heartbeat(2**32 + 5, 70000, 70000, 1)) == (5, 65535, 65535, 1)


@FAST
@given(
    st.integers(0, proto.MAX_LEDS - proto.LEDS_PER_FRAME),
    st.lists(colours, max_size=proto.LEDS_PER_FRAME),
    st.booleans(),
)
def test_leds_round_trip(start: int, leds: list[tuple[int, int, int]], show: bool) -> None:
    payload = proto.pack_leds(start, leds, show)
    assert len(payload) <= proto.MAX_PAYLOAD
    assert proto.unpack_leds(payload) == (show, start, leds)


def test_error_round_trip_and_text_limit() -> None:
    assert proto.unpack_error(proto.pack_error(proto.E_GAP, "lost")) == (proto.E_GAP, "lost")
    assert len(proto.unpack_error(proto.pack_error(proto.E_CONFIG, "x" * 200))[1]) == proto.MAX_TEXT


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: proto.pack_full([0] * (proto.MAX_CHANNELS + 1)), "channel count 513 is out of range 0..512"),
        (lambda: proto.pack_full([0, 128]), "channel 1: reading 128 does not fit a signed byte"),
        (lambda: proto.pack_changes([(512, 1)]), "channel 512 is out of range 0..511"),
        (lambda: proto.pack_changes([(0, 1)] * (proto.MAX_CHANGES + 1)), "exceed MAX_CHANGES 341"),
        (lambda: proto.unpack_changes(b"\x00\x01"), "not a multiple of 3"),
        (lambda: proto.unpack_changes(b"\x02\x00\x01"), "channel 512 is out of range"),
        (lambda: proto.pack_leds(0, [(0, 0, 0)] * (proto.LEDS_PER_FRAME + 1)), "exceed LEDS_PER_FRAME 340"),
        (lambda: proto.pack_leds(1020, [(0, 0, 0)] * 5), "LEDs 1020..1024 are out of range 0..1023"),
        (lambda: proto.pack_leds(0, [(0, 256, 0)]), "LED 0: colour \\(0, 256, 0\\) is not 0..255"),
        (lambda: proto.pack_leds(0, [(0, 0)]), "is not \\(r, g, b\\)"),
        (lambda: proto.unpack_leds(b"\x01\x00"), "is not 3 \\+ 3 per LED"),
        (lambda: proto.unpack_leds(b"\x01\x03\xff" + b"\x00" * 6), "LEDs 1023..1024 are out of range"),
        (lambda: proto.pack_hello(600, 10, 200, 20, "binary", "GRB", "v"), "channel count 600"),
        (lambda: proto.pack_hello(10, 2000, 200, 20, "binary", "GRB", "v"), "LED count 2000"),
        (lambda: proto.pack_hello(10, 10, 200, 20, "analog", "GRB", "v"), "unknown sensor model 'analog'"),
        (lambda: proto.pack_hello(10, 10, 200, 20, "binary", "RGBW", "v"), "unknown LED order 'RGBW'"),
        (lambda: proto.unpack_hello(b"\x01\x00"), "HELLO payload of 2 bytes is shorter than 11"),
        (lambda: proto.unpack_hello(proto.pack_hello(1, 1, 1, 1, "binary", "RGB", "") + b"\xff"), "not UTF-8"),
        (lambda: proto.unpack_heartbeat(b"\x00" * 9), "HEARTBEAT payload must be 10 bytes"),
        (lambda: proto.unpack_error(b""), "ERROR payload is empty"),
    ],
)
def test_limits_and_malformed_payloads_are_clear_errors(call: Callable[[], object], message: str) -> None:
    with pytest.raises(proto.ProtocolError, match=message):
        call()
