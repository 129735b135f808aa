"""Serial backend: the RP2040 scanner board running firmware/ over USB serial.

One `SerialLink` owns the port; `SerialScanner` (a SensorSource) and `SerialPixels` (a PixelSink)
are views of it (hal/serial_devices.py), because sensors and LEDs share one USB cable. The frame codec is
`firmware.proto`, the very file the board runs: one source of truth for both ends.

The link never sleeps and its reads never block (a write the board does not take within 0.2 s
counts as an unplug). Every `scan()` polls it: it reads what has arrived, decodes
frames (resyncing at the next 0x00 after garbage), keeps the readings up to date from CHANGES and
FULL frames, watches sequence numbers (a gap asks for a FULL frame) and the heartbeat, and after
an unplug reopens the port by name with a growing back-off. Time comes from an injected clock
(milliseconds), so tests drive every timeout without waiting.

`scan()` returns None whenever the link cannot vouch for the readings: before the first FULL frame,
while (re)connecting, and between a lost frame and the FULL frame that repairs it. The tracker
treats None as a dropped scan and keeps its last stable picture, so nothing is committed on stale
evidence: had we returned the last known readings instead, a piece lifted during an unplug would
stay invisible while settle timers ran on a picture that is no longer true.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from firmware import proto
from hal.protocols import RGB, Readings

LinkState = Literal["connecting", "connected", "reconnecting", "error"]


class Transport(Protocol):
    """A byte port; pyserial's Serial opened with timeout=0 is one. Failures raise OSError."""

    def read(self, size: int) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


Opener = Callable[[], Transport]
Clock = Callable[[], int]


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


def pyserial_opener(port: str, baudrate: int = 115200, write_timeout: float = 0.2) -> Opener:
    """Opens `port` (e.g. /dev/ttyACM0 or the udev symlink /dev/tafel-scanner) with pyserial.

    Reads never block (timeout=0); a write that cannot finish within `write_timeout` seconds means
    the board stopped reading, which the link treats like an unplug. The baud rate is ignored by
    USB CDC ports but kept for real UARTs.
    """
    try:
        import serial  # pyserial, imported only when the serial backend is chosen
    except ImportError as error:
        raise RuntimeError("the serial backend needs pyserial: pip install 'tafel[pi]'") from error

    def open_port() -> Transport:
        opened: Transport = serial.Serial(port, baudrate, timeout=0, write_timeout=write_timeout, exclusive=True)
        return opened

    return open_port


@dataclass(frozen=True, slots=True)
class LinkStatus:
    """What the status LED shows: `state`, and in `detail` why (for logs and the screen)."""

    state: LinkState
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.state == "connected"

    def __str__(self) -> str:
        return f"{self.state}: {self.detail}" if self.detail else self.state


@dataclass(frozen=True, slots=True)
class ScannerInfo:
    """What the board said in its HELLO frame."""

    protocol: int
    channels: int
    led_count: int
    scan_hz: int
    debounce_ms: int
    sensor_model: str
    led_order: str
    firmware: str


@dataclass(frozen=True, slots=True)
class Heartbeat:
    uptime_ms: int
    scan_rate: int
    overruns: int
    rx_errors: int


@dataclass(slots=True)
class LinkStats:
    """Counters for diagnostics (`tafel` status output, tests)."""

    frames: int = 0
    bad_frames: int = 0
    gaps: int = 0
    full_requests: int = 0
    connects: int = 0
    drops: int = 0
    scanner_errors: int = 0
    last_scanner_error: str = ""


class SerialLink:
    """The host end of the link to the scanner board."""

    READ_CHUNK = 4096
    READ_CHUNKS_PER_POLL = 16

    def __init__(
        self,
        port: str | None = None,
        *,
        channels: int,
        led_count: int | None = None,
        sensor_model: str | None = None,
        colour_order: str | None = None,
        baud: int = 115200,
        opener: Opener | None = None,
        clock: Clock = monotonic_ms,
        heartbeat_timeout_ms: int = 1500,
        hello_timeout_ms: int = 2000,
        retry_ms: int = 300,
        backoff_min_ms: int = 100,
        backoff_max_ms: int = 5000,
    ) -> None:
        if not 0 < channels <= proto.MAX_CHANNELS:
            raise ValueError(f"channels {channels} is out of range 1..{proto.MAX_CHANNELS}")
        if sensor_model is not None and sensor_model not in proto.SENSOR_MODELS:
            raise ValueError(f"unknown sensor model {sensor_model!r} (models: {', '.join(proto.SENSOR_MODELS)})")
        if opener is None:
            if port is None:
                raise ValueError("a serial link needs a port name or an opener")
            opener = pyserial_opener(port, baud)
        self.port = port or "the scanner port"
        self.channels = channels
        self.led_count: int | None = None
        self.colour_order: str | None = None
        self.sensor_model = sensor_model
        self._opener = opener
        self._clock = clock
        self.heartbeat_timeout_ms = heartbeat_timeout_ms
        self.hello_timeout_ms = hello_timeout_ms
        self.retry_ms = retry_ms
        self.backoff_min_ms = backoff_min_ms
        self.backoff_max_ms = backoff_max_ms
        self.stats = LinkStats()
        self.rate_note = ""  # the scanner's E_RATE message: it scans slower than its configuration asks
        self.info: ScannerInfo | None = None
        self.heartbeat: Heartbeat | None = None
        self._transport: Transport | None = None
        self._deframer = proto.Deframer()
        self._status = LinkStatus("connecting", f"opening {self.port}")
        self._ever_connected = False
        self._failures = 0
        self._retry_at: int | None = None  # None: open at the next poll
        self._opened_at = 0
        self._hello_sent_at: int | None = None  # a REQUEST_HELLO is outstanding since then
        self._full_sent_at: int | None = None  # a REQUEST_FULL is outstanding since then
        self._awaiting_full = True
        self._last_rx = 0
        self._tx_seq = 0
        self._rx_seq: int | None = None  # the sequence number expected next from the board
        self._readings: list[int] = [0] * channels
        self._snapshot: Readings | None = None
        self._leds_wanted: tuple[RGB, ...] | None = None
        self._leds_shown: tuple[RGB, ...] | None = None  # what the board has; None = unknown
        self.expect_leds(led_count, colour_order)

    # --- public ----------------------------------------------------------------------------------
    @property
    def status(self) -> LinkStatus:
        return self._status

    @property
    def connected(self) -> bool:
        return self._status.ok

    @property
    def failures(self) -> int:
        """Attempts that failed since the link was last connected (0 while it comes up normally)."""
        return self._failures

    def expect_leds(self, count: int | None, colour_order: str | None = None) -> None:
        """The strip the board must drive: its length and byte order, checked against HELLO.
        None leaves a value unchecked (a link used only for sensors)."""
        if count is not None and not 0 < count <= proto.MAX_LEDS:
            raise ValueError(f"led_count {count} is out of range 1..{proto.MAX_LEDS}")
        if colour_order is not None and colour_order not in proto.LED_ORDERS:
            raise ValueError(f"unknown colour order {colour_order!r} (orders: {', '.join(proto.LED_ORDERS)})")
        if count is not None:
            self.led_count = count
        if colour_order is not None:
            self.colour_order = colour_order
        problem = self._mismatch(self.info) if self.info is not None else None
        if problem:
            self._drop(self._clock(), problem, error=True)

    def readings(self) -> Readings | None:
        """The current readings, or None when the link cannot vouch for them (see the module doc)."""
        if self._transport is None or self.info is None or self._awaiting_full:
            return None
        if self._snapshot is None:
            self._snapshot = tuple(self._readings)
        return self._snapshot

    def poll(self) -> None:
        """Do all pending work: (re)open, read and handle frames, retries and timeouts."""
        now = self._clock()
        if self._transport is None:
            if self._retry_at is not None and now < self._retry_at:
                return
            self._open(now)
            if self._transport is None:
                return
        self._receive(now)
        if self._transport is not None:
            self._check_timers(now)

    def show(self, colours: Sequence[RGB]) -> None:
        """Send a whole LED frame; only the changed range goes over the wire. While the link is
        down the frame is kept and sent in full once the board is back."""
        if self.led_count is None:
            raise ValueError("the LED count of this link is unknown: pass led_count or a SerialPixels size")
        if len(colours) != self.led_count:
            raise ValueError(f"LED frame has {len(colours)} colours; the strip has {self.led_count}")
        frame = tuple(colours)
        self._leds_wanted = frame
        if self._transport is not None and self.info is not None:
            self._send_leds()

    def close(self) -> None:
        """Release the port (at shutdown, or to let mpremote at the board); a later poll() reopens it."""
        if self._transport is not None:
            self._close_transport()
        self._status = LinkStatus("reconnecting" if self._ever_connected else "connecting", "closed")

    # --- connection ------------------------------------------------------------------------------
    def _open(self, now: int) -> None:
        try:
            self._transport = self._opener()
        except OSError as error:
            self._failed(now, f"cannot open {self.port}: {_reason(error)}")
            return
        self.stats.connects += 1
        self._deframer.reset()
        self._opened_at = now
        self._last_rx = now
        self.info = None
        self._rx_seq = None
        self._awaiting_full = True
        self._full_sent_at = None
        self._leds_shown = None
        state: LinkState = "reconnecting" if self._ever_connected else "connecting"
        if self._status.state != "error":
            self._status = LinkStatus(state, f"waiting for the scanner on {self.port}")
        self._write(b"\x00")  # ends whatever partial frame the board holds
        self._request_hello(now)

    def _failed(self, now: int, reason: str, error: bool = False) -> None:
        """The link is down: keep the reason, try again after a growing pause."""
        self._failures += 1
        delay = min(self.backoff_max_ms, self.backoff_min_ms * 2 ** min(self._failures - 1, 16))
        if error:
            delay = self.backoff_max_ms  # a configuration mismatch will not fix itself quickly
            self._status = LinkStatus("error", reason)
        else:
            self._status = LinkStatus("reconnecting" if self._ever_connected else "connecting", reason)
        self._retry_at = now + delay

    def _drop(self, now: int, reason: str, error: bool = False) -> None:
        self.stats.drops += 1
        self._close_transport()
        self._failed(now, reason, error)

    def _close_transport(self) -> None:
        transport, self._transport = self._transport, None
        self.info = None
        self._snapshot = None
        if transport is not None:
            with contextlib.suppress(OSError):  # already gone; nothing to release
                transport.close()

    def _write(self, data: bytes) -> bool:
        if self._transport is None:
            return False
        try:
            self._transport.write(data)
        except OSError as error:
            self._drop(self._clock(), f"write to {self.port} failed: {_reason(error)}")
            return False
        return True

    def _send(self, kind: int, payload: bytes = b"") -> bool:
        data = proto.encode_frame(kind, self._tx_seq, payload)
        self._tx_seq = proto.next_seq(self._tx_seq)
        return self._write(data)

    def _request_hello(self, now: int) -> None:
        self._hello_sent_at = now
        self._send(proto.REQUEST_HELLO)

    def _request_full(self, now: int) -> None:
        self._awaiting_full = True
        self._full_sent_at = now
        self.stats.full_requests += 1
        self._send(proto.REQUEST_FULL)

    def _check_timers(self, now: int) -> None:
        if self.info is None:
            if now - self._opened_at >= self.hello_timeout_ms:
                if self._status.state == "error":  # the board said what is wrong: keep its words
                    self._drop(now, self._status.detail, error=True)
                else:
                    waited = self.hello_timeout_ms
                    self._drop(now, f"no HELLO from {self.port} within {waited} ms (is the tafel firmware running?)")
            elif self._hello_sent_at is not None and now - self._hello_sent_at >= self.retry_ms:
                self._request_hello(now)
            return
        if now - self._last_rx >= self.heartbeat_timeout_ms:
            self._drop(now, f"no frame from the scanner for {now - self._last_rx} ms")
        elif self._awaiting_full and (self._full_sent_at is None or now - self._full_sent_at >= self.retry_ms):
            self._request_full(now)

    # --- frames in -------------------------------------------------------------------------------
    def _receive(self, now: int) -> None:
        for _ in range(self.READ_CHUNKS_PER_POLL):
            if self._transport is None:
                return
            try:
                data = self._transport.read(self.READ_CHUNK)
            except OSError as error:
                self._drop(now, f"read from {self.port} failed: {_reason(error)}")
                return
            if not data:
                return
            for item in self._deframer.feed(data):
                if self._transport is None:
                    return
                if isinstance(item, proto.Frame):
                    self._handle(now, item)
                else:
                    self._bad_frame(now)
            if len(data) < self.READ_CHUNK:
                return

    def _bad_frame(self, now: int) -> None:
        """A frame was lost to corruption: its content is unknown, so ask for everything."""
        self.stats.bad_frames += 1
        if self.info is not None:
            self._request_full(now)

    def _handle(self, now: int, frame: proto.Frame) -> None:
        self.stats.frames += 1
        self._last_rx = now
        kind = frame.kind
        if kind not in proto.TO_HOST:
            self._bad_frame(now)
            return
        gap = self._rx_seq is not None and frame.seq != self._rx_seq and kind != proto.HELLO
        self._rx_seq = proto.next_seq(frame.seq)
        if gap:
            self.stats.gaps += 1
            if self.info is not None:
                self._request_full(now)
        try:
            if kind == proto.HELLO:
                self._on_hello(now, frame.payload)
            elif kind == proto.ERROR:
                self._on_error(now, frame.payload)
            elif self.info is None:
                return  # frames from before our HELLO request was answered
            elif kind == proto.FULL:
                self._on_full(frame.payload)
            elif kind == proto.CHANGES:
                self._on_changes(frame.payload)
            elif kind == proto.HEARTBEAT:
                self.heartbeat = Heartbeat(*proto.unpack_heartbeat(frame.payload))
        except proto.ProtocolError:
            self._bad_frame(now)

    def _on_hello(self, now: int, payload: bytes) -> None:
        info = ScannerInfo(*proto.unpack_hello(payload))
        problem = self._mismatch(info)
        if problem:
            self._drop(now, problem, error=True)
            return
        solicited = self._hello_sent_at is not None
        self._hello_sent_at = None
        self.info = info
        self.rate_note = ""  # a new HELLO: any scan-rate note that matters follows it
        self._leds_shown = None  # a HELLO may mean the board restarted: its strip is blank
        if self._leds_wanted is not None:
            self._send_leds()
        if solicited:
            # The board sends a FULL frame right after a requested HELLO; ask again only if it is lost.
            self._awaiting_full = True
            self._full_sent_at = now
        else:
            self._request_full(now)

    def _mismatch(self, info: ScannerInfo) -> str | None:
        if info.protocol != proto.PROTOCOL_VERSION:
            return f"scanner speaks protocol {info.protocol}, this host {proto.PROTOCOL_VERSION} (update the firmware)"
        if info.channels != self.channels:
            return f"scanner reports {info.channels} channels; the board profile has {self.channels}"
        if self.led_count is not None and info.led_count != self.led_count:
            return f"scanner drives {info.led_count} LEDs; the board profile has {self.led_count}"
        if self.colour_order is not None and info.led_order != self.colour_order:
            return f"scanner sends LED colours as {info.led_order}; the board profile says {self.colour_order}"
        if self.sensor_model is not None and info.sensor_model != self.sensor_model:
            return (
                f"scanner reads {info.sensor_model} sensors; the board is configured for {self.sensor_model} "
                f'(with these sensors set sensor_model = "{info.sensor_model}" in [board] of the service '
                "configuration)"
            )
        return None

    def _on_full(self, payload: bytes) -> None:
        values = proto.unpack_full(payload)
        if len(values) != self.channels:
            raise proto.ProtocolError(f"FULL frame has {len(values)} channels, not {self.channels}")
        self._readings = list(values)
        self._snapshot = None
        self._awaiting_full = False
        self._full_sent_at = None
        if not self._status.ok:
            self._status = LinkStatus("connected", self._connected_detail())
            self._ever_connected = True
            self._failures = 0

    def _connected_detail(self) -> str:
        firmware = self.info.firmware if self.info else ""
        return "; ".join(part for part in (firmware, self.rate_note) if part)

    def _on_changes(self, payload: bytes) -> None:
        changes = proto.unpack_changes(payload)
        for channel, _ in changes:
            if channel >= self.channels:
                raise proto.ProtocolError(f"CHANGES names channel {channel}; the board has {self.channels}")
        for channel, value in changes:
            self._readings[channel] = value
        self._snapshot = None

    def _on_error(self, now: int, payload: bytes) -> None:
        code, message = proto.unpack_error(payload)
        self.stats.scanner_errors += 1
        name = proto.ERROR_NAMES.get(code, f"error {code}")
        self.stats.last_scanner_error = f"{name}: {message}"
        if code == proto.E_CONFIG:  # the board cannot scan until its configuration is fixed
            self._status = LinkStatus("error", f"scanner {name}: {message}")
            self.info = None
        elif code == proto.E_INTERNAL:  # the board restarts: wait for its HELLO
            self._status = LinkStatus("reconnecting", f"scanner {name}: {message}")
            self.info = None
            self._opened_at = now
            self._request_hello(now)
        elif code == proto.E_RATE:  # scanning works, slower than configured: say so while connected
            self.rate_note = f"scanner {name}: {message}"
            if self._status.ok:
                self._status = LinkStatus("connected", self._connected_detail())
        elif code in (proto.E_BAD_FRAME, proto.E_GAP):
            # Some of our frames were lost: the strip may be wrong, so send it whole again.
            self._leds_shown = None
            if self.info is not None and self._leds_wanted is not None:
                self._send_leds()

    # --- LEDs ------------------------------------------------------------------------------------
    def _send_leds(self) -> None:
        wanted, shown = self._leds_wanted, self._leds_shown
        if wanted is None:
            return
        if shown is None:
            first, last = 0, len(wanted) - 1
        else:
            changed = [index for index, (a, b) in enumerate(zip(wanted, shown, strict=True)) if a != b]
            if not changed:
                return
            first, last = changed[0], changed[-1]
        for start in range(first, last + 1, proto.LEDS_PER_FRAME):
            end = min(last + 1, start + proto.LEDS_PER_FRAME)
            if not self._send(proto.LEDS, proto.pack_leds(start, list(wanted[start:end]), show=end == last + 1)):
                return
        self._leds_shown = wanted


def _reason(error: OSError) -> str:
    """The plain cause ("No such file or directory"), without pyserial's restatement of the port."""
    inner = error.__context__ if isinstance(error.__context__, OSError) else error
    return inner.strerror or str(inner)
