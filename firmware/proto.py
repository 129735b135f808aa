"""The tafel serial protocol: COBS framing, CRC-16/CCITT-FALSE, frame types, payloads and limits.

This file is the single source of truth for both ends of the link: the scanner board runs it under
MicroPython (copied as /firmware/proto.py) and the host imports it as `firmware.proto` from
hal/serial.py. It therefore sticks to what MicroPython offers: no dataclasses, no typing, no
`match`, `struct` for binary fields. firmware/PROTOCOL.md describes the wire format in prose.
"""

import struct

PROTOCOL_VERSION = 1

# Frame types, scanner -> host (high bit clear).
HELLO = 0x01
FULL = 0x02
CHANGES = 0x03
HEARTBEAT = 0x04
ERROR = 0x05
# Frame types, host -> scanner (high bit set).
REQUEST_HELLO = 0x81
REQUEST_FULL = 0x82
LEDS = 0x83

TO_HOST = (HELLO, FULL, CHANGES, HEARTBEAT, ERROR)
TO_SCANNER = (REQUEST_HELLO, REQUEST_FULL, LEDS)
TYPE_NAMES = {
    HELLO: "HELLO",
    FULL: "FULL",
    CHANGES: "CHANGES",
    HEARTBEAT: "HEARTBEAT",
    ERROR: "ERROR",
    REQUEST_HELLO: "REQUEST_HELLO",
    REQUEST_FULL: "REQUEST_FULL",
    LEDS: "LEDS",
}

# ERROR frame codes.
E_BAD_FRAME = 1  # a frame from the host failed COBS, CRC or length checks
E_GAP = 2  # frames from the host were lost (sequence gap)
E_BAD_PAYLOAD = 3  # a well-formed frame asked for something impossible (e.g. LEDs past the strip)
E_UNKNOWN_TYPE = 4  # a frame type the scanner does not handle
E_CONFIG = 5  # the scanner's own configuration is invalid; the text says what to fix
E_INTERNAL = 6  # an unexpected exception in the firmware; the board restarts
E_RATE = 7  # the configured scan rate is out of reach; the board scans at the rate its HELLO gives
ERROR_NAMES = {
    E_BAD_FRAME: "bad frame",
    E_GAP: "lost frames",
    E_BAD_PAYLOAD: "bad payload",
    E_UNKNOWN_TYPE: "unknown frame type",
    E_CONFIG: "configuration",
    E_INTERNAL: "internal error",
    E_RATE: "scan rate",
}

# What the readings mean; the same names as hal.sensors.MODEL_NAMES, sent as an index in HELLO.
SENSOR_MODELS = ("binary", "count", "signed", "signed_count")
# The byte order of the board's LED strip (the profile's colour_order), sent as an index in HELLO.
LED_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")

# Limits. Every encoder and decoder enforces them and says which one was broken.
MAX_PAYLOAD = 1024  # bytes of payload in one frame
MAX_CHANNELS = 512  # sensor channels (a FULL frame carries one byte per channel)
MAX_LEDS = 1024  # LEDs on the strip
MAX_TEXT = 48  # bytes of text in HELLO (firmware version) and ERROR (message)
HEADER_SIZE = 2  # type, sequence number
CRC_SIZE = 2
MAX_RAW = HEADER_SIZE + MAX_PAYLOAD + CRC_SIZE
MAX_ENCODED = MAX_RAW + MAX_RAW // 254 + 1  # COBS adds at most one byte per 254, plus one
CHANGE_SIZE = 3  # channel (u16), value (i8)
MAX_CHANGES = MAX_PAYLOAD // CHANGE_SIZE  # changes in one CHANGES frame; more go as a FULL frame
LEDS_HEADER = 3  # flags (u8), first LED (u16)
LEDS_PER_FRAME = (MAX_PAYLOAD - LEDS_HEADER) // 3  # LEDs in one LEDS frame; hosts split longer ranges
FLAG_SHOW = 0x01  # LEDS flag: write the strip after applying this frame

_HELLO_FORMAT = ">BHHHHBB"  # protocol, channels, leds, scan_hz, debounce_ms, sensor model, LED order
_HELLO_SIZE = struct.calcsize(_HELLO_FORMAT)
_HEARTBEAT_FORMAT = ">IHHH"  # uptime ms, scans in the last second, overrun scans, receive errors
_HEARTBEAT_SIZE = struct.calcsize(_HEARTBEAT_FORMAT)


class ProtocolError(ValueError):
    """A frame or payload that breaks the protocol; the message says how."""


# --- CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final xor -----


def _crc_table() -> tuple:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_CRC_TABLE = _crc_table()


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE of `data` (check value: crc16(b"123456789") == 0x29B1)."""
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


# --- COBS: no zero byte inside an encoded frame, so 0x00 delimits frames --------------------------


def cobs_encode(data: bytes) -> bytes:
    """COBS-encode `data` (the result contains no zero byte; the delimiter is not added)."""
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    last = len(data) - 1
    for index, byte in enumerate(data):
        if byte:
            out.append(byte)
            code += 1
            if code < 0xFF or index == last:
                continue
        # A zero, or a full block of 254 non-zero bytes with more to come: close the block.
        out[code_at] = code
        code_at = len(out)
        out.append(0)
        code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Undo cobs_encode; a zero byte or a block running past the end is a ProtocolError."""
    out = bytearray()
    index = 0
    size = len(data)
    while index < size:
        code = data[index]
        if code == 0:
            raise ProtocolError("COBS: zero byte inside a frame")
        end = index + code
        if end > size:
            raise ProtocolError("COBS: block runs past the end of the frame (truncated)")
        block = data[index + 1 : end]
        if b"\x00" in block:
            raise ProtocolError("COBS: zero byte inside a frame")
        out.extend(block)
        index = end
        if code < 0xFF and index < size:
            out.append(0)
    return bytes(out)


# --- frames -----------------------------------------------------------------------------------


class Frame:
    """One decoded frame: type, sequence number (0..255, wrapping) and payload bytes."""

    def __init__(self, kind: int, seq: int, payload: bytes = b"") -> None:
        self.kind = kind
        self.seq = seq
        self.payload = bytes(payload)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Frame)
            and self.kind == other.kind
            and self.seq == other.seq
            and self.payload == other.payload
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.seq, self.payload))

    def __repr__(self) -> str:
        name = TYPE_NAMES.get(self.kind, hex(self.kind))
        return f"Frame({name}, seq={self.seq}, {len(self.payload)} bytes)"


def encode_frame(kind: int, seq: int, payload: bytes = b"") -> bytes:
    """The bytes on the wire for one frame: COBS(type, seq, payload, CRC) followed by 0x00."""
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError(f"payload of {len(payload)} bytes exceeds MAX_PAYLOAD {MAX_PAYLOAD}")
    if not 0 <= kind <= 0xFF:
        raise ProtocolError(f"frame type {kind} is not a byte")
    raw = bytearray((kind, seq & 0xFF))
    raw.extend(payload)
    raw.extend(struct.pack(">H", crc16(raw)))
    return cobs_encode(raw) + b"\x00"


def decode_frame(block: bytes) -> Frame:
    """Decode one delimited block (without its 0x00) into a Frame, or raise ProtocolError."""
    if len(block) > MAX_ENCODED:
        raise ProtocolError(f"frame of {len(block)} bytes exceeds {MAX_ENCODED}")
    raw = cobs_decode(block)
    if len(raw) < HEADER_SIZE + CRC_SIZE:
        raise ProtocolError(f"frame of {len(raw)} bytes is too short (truncated)")
    body = raw[:-CRC_SIZE]
    expected = struct.unpack(">H", raw[-CRC_SIZE:])[0]
    if crc16(body) != expected:
        raise ProtocolError("CRC mismatch (corrupted frame)")
    return Frame(body[0], body[1], body[HEADER_SIZE:])


class Deframer:
    """Splits a byte stream at 0x00 delimiters and decodes each block.

    `feed` returns, in order, a Frame for every good block and a ProtocolError for every bad one.
    Garbage, truncated or corrupted frames cost only the bytes up to the next delimiter: decoding
    resumes with the frame after it. Blocks longer than any legal frame are dropped without being
    buffered, so garbage cannot exhaust memory.
    """

    def __init__(self, limit: int = MAX_ENCODED) -> None:
        self._limit = limit
        self._buffer = bytearray()
        self._overflow = False

    @property
    def pending(self) -> int:
        """Bytes received since the last delimiter."""
        return len(self._buffer)

    def reset(self) -> None:
        self._buffer = bytearray()
        self._overflow = False

    def feed(self, data: bytes) -> list:
        results = []
        start = 0
        size = len(data)
        while start < size:
            end = data.find(b"\x00", start)
            if end < 0:
                self._collect(data[start:])
                break
            self._collect(data[start:end])
            if self._overflow:
                results.append(ProtocolError(f"frame longer than {self._limit} bytes dropped"))
            elif self._buffer:
                try:
                    results.append(decode_frame(bytes(self._buffer)))
                except ProtocolError as error:
                    results.append(error)
            # An empty block (two delimiters in a row) is a deliberate flush, not an error.
            self._buffer = bytearray()
            self._overflow = False
            start = end + 1
        return results

    def _collect(self, chunk: bytes) -> None:
        if self._overflow or not chunk:
            return
        if len(self._buffer) + len(chunk) > self._limit:
            self._overflow = True
            self._buffer = bytearray()
        else:
            self._buffer.extend(chunk)


def next_seq(seq: int) -> int:
    return (seq + 1) & 0xFF


# --- payloads ---------------------------------------------------------------------------------


def _text(text: str) -> bytes:
    """UTF-8, cut to MAX_TEXT bytes without splitting a character."""
    data = text.encode()
    if len(data) <= MAX_TEXT:
        return data
    end = MAX_TEXT
    while end > 0 and (data[end] & 0xC0) == 0x80:  # data[end] continues a character: cut before it
        end -= 1
    return data[:end]


def _decode_text(data: bytes) -> str:
    try:
        return bytes(data).decode()
    except UnicodeError:
        raise ProtocolError("text field is not UTF-8") from None


def _check_count(name: str, value: int, limit: int) -> None:
    if not 0 <= value <= limit:
        raise ProtocolError(f"{name} {value} is out of range 0..{limit}")


def pack_hello(
    channels: int, leds: int, scan_hz: int, debounce_ms: int, sensor_model: str, led_order: str, firmware: str
) -> bytes:
    _check_count("channel count", channels, MAX_CHANNELS)
    _check_count("LED count", leds, MAX_LEDS)
    if sensor_model not in SENSOR_MODELS:
        raise ProtocolError(f"unknown sensor model {sensor_model!r}")
    if led_order not in LED_ORDERS:
        raise ProtocolError(f"unknown LED order {led_order!r}")
    head = struct.pack(
        _HELLO_FORMAT,
        PROTOCOL_VERSION,
        channels,
        leds,
        scan_hz,
        debounce_ms,
        SENSOR_MODELS.index(sensor_model),
        LED_ORDERS.index(led_order),
    )
    return head + _text(firmware)


def unpack_hello(payload: bytes) -> tuple:
    """(protocol, channels, leds, scan_hz, debounce_ms, sensor_model, led_order, firmware)."""
    if len(payload) < _HELLO_SIZE:
        raise ProtocolError(f"HELLO payload of {len(payload)} bytes is shorter than {_HELLO_SIZE}")
    fields = struct.unpack(_HELLO_FORMAT, payload[:_HELLO_SIZE])
    protocol, channels, leds, scan_hz, debounce_ms, model, order = fields
    _check_count("channel count", channels, MAX_CHANNELS)
    _check_count("LED count", leds, MAX_LEDS)
    if model >= len(SENSOR_MODELS):
        raise ProtocolError(f"unknown sensor model index {model}")
    if order >= len(LED_ORDERS):
        raise ProtocolError(f"unknown LED order index {order}")
    firmware = _decode_text(payload[_HELLO_SIZE:])
    return protocol, channels, leds, scan_hz, debounce_ms, SENSOR_MODELS[model], LED_ORDERS[order], firmware


def _value_byte(channel: int, value: int) -> int:
    if not -128 <= value <= 127:
        raise ProtocolError(f"channel {channel}: reading {value} does not fit a signed byte")
    return value & 0xFF


def _signed(byte: int) -> int:
    return byte - 256 if byte > 127 else byte


def pack_full(values: list) -> bytes:
    """All readings, one signed byte per channel in channel order."""
    _check_count("channel count", len(values), MAX_CHANNELS)
    out = bytearray(len(values))
    for channel, value in enumerate(values):
        out[channel] = _value_byte(channel, value)
    return bytes(out)


def unpack_full(payload: bytes) -> tuple:
    _check_count("channel count", len(payload), MAX_CHANNELS)
    return tuple(_signed(byte) for byte in payload)


def pack_changes(changes: list) -> bytes:
    """(channel, value) pairs; at most MAX_CHANGES of them."""
    if len(changes) > MAX_CHANGES:
        raise ProtocolError(f"{len(changes)} changes exceed MAX_CHANGES {MAX_CHANGES} (send FULL)")
    out = bytearray()
    for channel, value in changes:
        if not 0 <= channel < MAX_CHANNELS:
            raise ProtocolError(f"channel {channel} is out of range 0..{MAX_CHANNELS - 1}")
        out.extend(struct.pack(">HB", channel, _value_byte(channel, value)))
    return bytes(out)


def unpack_changes(payload: bytes) -> list:
    if len(payload) % CHANGE_SIZE:
        raise ProtocolError(f"CHANGES payload of {len(payload)} bytes is not a multiple of 3")
    changes = []
    for offset in range(0, len(payload), CHANGE_SIZE):
        channel, byte = struct.unpack(">HB", payload[offset : offset + CHANGE_SIZE])
        if channel >= MAX_CHANNELS:
            raise ProtocolError(f"channel {channel} is out of range 0..{MAX_CHANNELS - 1}")
        changes.append((channel, _signed(byte)))
    return changes


def pack_heartbeat(uptime_ms: int, scan_rate: int, overruns: int, rx_errors: int) -> bytes:
    """Counters saturate at 65535 rather than wrap, so a large number never looks small."""
    return struct.pack(
        _HEARTBEAT_FORMAT,
        uptime_ms & 0xFFFFFFFF,
        min(scan_rate, 0xFFFF),
        min(overruns, 0xFFFF),
        min(rx_errors, 0xFFFF),
    )


def unpack_heartbeat(payload: bytes) -> tuple:
    """(uptime_ms, scan_rate, overruns, rx_errors)."""
    if len(payload) != _HEARTBEAT_SIZE:
        raise ProtocolError(f"HEARTBEAT payload must be {_HEARTBEAT_SIZE} bytes, not {len(payload)}")
    return struct.unpack(_HEARTBEAT_FORMAT, payload)


def pack_error(code: int, message: str) -> bytes:
    if not 0 < code <= 0xFF:
        raise ProtocolError(f"error code {code} is not a byte")
    return bytes((code,)) + _text(message)


def unpack_error(payload: bytes) -> tuple:
    """(code, message)."""
    if not payload:
        raise ProtocolError("ERROR payload is empty")
    return payload[0], _decode_text(payload[1:])


def pack_leds(start: int, colours: list, show: bool = True) -> bytes:
    """A range of LED colours from `start`; `show` writes the strip once it is applied."""
    count = len(colours)
    if count > LEDS_PER_FRAME:
        raise ProtocolError(f"{count} LEDs exceed LEDS_PER_FRAME {LEDS_PER_FRAME} (split the range)")
    if start < 0 or start + count > MAX_LEDS:
        raise ProtocolError(f"LEDs {start}..{start + count - 1} are out of range 0..{MAX_LEDS - 1}")
    out = bytearray(struct.pack(">BH", FLAG_SHOW if show else 0, start))
    for index, colour in enumerate(colours):
        if len(colour) != 3:
            raise ProtocolError(f"LED {start + index}: colour {colour!r} is not (r, g, b)")
        for component in colour:
            if not 0 <= component <= 255:
                raise ProtocolError(f"LED {start + index}: colour {colour!r} is not 0..255")
        out.extend(bytes(colour))
    return bytes(out)


def unpack_leds(payload: bytes) -> tuple:
    """(show, start, colours) with colours a list of (r, g, b) tuples."""
    if len(payload) < LEDS_HEADER or (len(payload) - LEDS_HEADER) % 3:
        raise ProtocolError(f"LEDS payload of {len(payload)} bytes is not 3 + 3 per LED")
    flags, start = struct.unpack(">BH", payload[:LEDS_HEADER])
    count = (len(payload) - LEDS_HEADER) // 3
    if start + count > MAX_LEDS:
        raise ProtocolError(f"LEDs {start}..{start + count - 1} are out of range 0..{MAX_LEDS - 1}")
    colours = []
    for offset in range(LEDS_HEADER, len(payload), 3):
        colours.append((payload[offset], payload[offset + 1], payload[offset + 2]))
    return bool(flags & FLAG_SHOW), start, colours
