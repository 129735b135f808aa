"""One board's connection to the broker (docs/remote.md). paho-mqtt's network thread does all the
I/O and reconnects by itself; what arrives waits in a queue the scan loop drains between two scans,
so a slow broker or a dead link never holds up the board. A message that does not parse is reported
in words and dropped here; the board never sees it."""

from __future__ import annotations

import collections
import contextlib
import logging
import queue
import socket
import ssl
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from controller.remote import topics
from controller.remote.host import Send
from controller.remote.messages import Message, MessageError, Presence, decode, encode

QOS = 1  # at least once: a repeat changes nothing (docs/remote.md, rule 4), a loss would
PROBE_S = 3.0  # how long the look at a broker the board cannot reach may take
# A connection the broker ends this soon, this many times in a row, is taken over each time by a
# client of the same name: another board configured with this board's name.
QUICK_DROP_S = 5.0
QUICK_DROPS = 3
KEEPALIVE_S = 15  # a vanished board is declared offline (its last will) within 1.5 keep-alives
HELD = 1000  # messages a board holds while its link is down (the oldest go first: a greeting repeats them)


@dataclass(frozen=True)
class BrokerSettings:
    """Where the broker is and who this board is on it (`[remote]` in the configuration)."""

    board: str
    host: str = "localhost"
    port: int = 1883
    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca_file: str | None = None  # a club's own certificate authority; None: the system's
    keepalive_s: int = KEEPALIVE_S


@dataclass(frozen=True)
class RemoteGame:
    """A game played with other boards (`[remote]` game, host and seats in the configuration): its
    id, the board that hosts it and the board that owns each seat."""

    game: str
    host: str
    seats: tuple[str, ...]


@dataclass(frozen=True)
class Incoming:
    """A checked message from `sender` (the topic's sender part), on topic `address`."""

    address: topics.Address
    message: Message

    @property
    def sender(self) -> str:
        return self.address.sender or self.address.board


@dataclass(frozen=True)
class LinkState:
    """The link came up (`up`) or went down: on coming up a board says hello again."""

    up: bool
    reason: str = ""


Event = Incoming | LinkState


class Link:
    """A board's MQTT client: subscribes to its inbox, `follow` (presence, records) and keeps its
    own presence retained, with a last will that says offline."""

    def __init__(self, settings: BrokerSettings, follow: Sequence[str] = (), log: logging.Logger | None = None) -> None:
        import paho.mqtt.client as mqtt  # lazily: the rest of the board runs without it
        from paho.mqtt.enums import CallbackAPIVersion

        self.settings = settings
        self.log = log or logging.getLogger("tafel.remote")
        self._follow = tuple(follow)
        self._events: queue.SimpleQueue[Event] = queue.SimpleQueue()
        self.connected = False
        self.problems = 0  # messages dropped as malformed or misaddressed
        client = self._client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"tafel-{settings.board}",
            clean_session=False,  # the broker keeps this board's messages while it is away
            reconnect_on_failure=True,
        )
        if settings.username is not None:
            client.username_pw_set(settings.username, settings.password)
        if settings.tls:
            client.tls_set(ca_certs=settings.ca_file)
        client.reconnect_delay_set(1, 8)
        # paho's own cap sits above the hold: the hold's flush on connecting must fit whole beside
        # what paho still has in flight, or paho would drop a held message without a word
        client.max_queued_messages_set(2 * HELD)
        offline = encode(Presence(False, settings.board))
        client.will_set(topics.presence(settings.board), offline, qos=QOS, retain=True)
        client.on_connect = self._connected
        client.on_connect_fail = self._connect_failed
        client.on_disconnect = self._disconnected
        self._unreachable = ""  # the last reason said for not reaching the broker
        self._connected_at = 0.0
        self._quick_drops = 0  # connections in a row the broker ended within QUICK_DROP_S
        # What the board says while it is not connected and subscribed waits here: said earlier, an
        # answer could come before the board listens, and the broker would drop it (docs/remote.md,
        # "Delivery").
        self._held: collections.deque[tuple[str, bytes, bool]] = collections.deque(maxlen=HELD)
        self._dropping = False  # the hold is full and the oldest messages go
        self._speaking = threading.Lock()
        client.on_message = self._message

    def start(self) -> None:
        """Connect in the background: the board plays on while the broker is out of reach."""
        self._client.connect_async(self.settings.host, self.settings.port, self.settings.keepalive_s)
        self._client.loop_start()

    def close(self) -> None:
        """Say offline and leave (a clean stop; a crash leaves the last will to say it)."""
        if self.connected:
            info = self._client.publish(
                topics.presence(self.settings.board), encode(Presence(False, self.settings.board)), QOS, retain=True
            )
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(1.0)
        self._client.disconnect()
        self._client.loop_stop()

    def send(self, send: Send, host_of: str | None = None) -> None:
        """Queue one message: to a board's inbox, or (`to` None) game `host_of`'s public record."""
        if send.to is None:
            assert host_of is not None
            topic, retain = topics.record(self.settings.board, host_of), True
        else:
            topic, retain = topics.inbox(send.to, self.settings.board), False
        self.publish(topic, send.message, retain)

    def send_to(self, board: str, message: Message) -> None:
        """One message to `board`'s inbox."""
        self.publish(topics.inbox(board, self.settings.board), message)

    def publish(self, topic: str, message: Message, retain: bool = False) -> None:
        """Send `message` once this board listens: at once while connected, else on connecting."""
        with self._speaking:
            if not self.connected:
                if len(self._held) == HELD and not self._dropping:
                    self._dropping = True  # said once per time away: the greeting on return repeats what matters
                    self.log.warning(
                        "board %s: its broker has been away for %d messages; the oldest are dropped",
                        self.settings.board,
                        HELD,
                    )
                self._held.append((topic, encode(message), retain))
                return
            self._client.publish(topic, encode(message), QOS, retain=retain)

    def drain(self) -> list[Event]:
        """Everything that arrived since the last call, oldest first (never waits)."""
        events = []
        while True:
            try:
                events.append(self._events.get_nowait())
            except queue.Empty:
                return events

    # --- paho's thread ----------------------------------------------------------------------------------
    def _connected(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any = None) -> None:
        if reason.is_failure:
            self._events.put(LinkState(False, f"the broker refused board {self.settings.board}: {reason}"))
            return
        sock = client.socket()
        if sock is not None:  # a move, its acknowledgement and the answer are small packets in a row:
            with contextlib.suppress(OSError):  # Nagle's wait for the broker's delayed ACK would add 40 ms
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        wanted = [topics.my_inbox(self.settings.board), *self._follow]
        client.subscribe([(topic, QOS) for topic in wanted])
        board = self.settings.board
        client.publish(topics.presence(board), encode(Presence(True, board)), QOS, retain=True)
        self._unreachable = ""
        self._connected_at = time.monotonic()
        with self._speaking:  # what the board said while away leaves after its subscriptions
            while self._held:
                topic, payload, retain = self._held.popleft()
                client.publish(topic, payload, QOS, retain=retain)
            self.connected = True
            self._dropping = False
        self._events.put(LinkState(True))

    def _connect_failed(self, client: Any, userdata: Any) -> None:
        """The MQTT client could not connect and will try again: say why, in words, once per reason
        (paho does not say, so the board looks itself)."""
        reason = unreachable_reason(self.settings)
        if reason != self._unreachable:
            self._unreachable = reason
            self.log.warning("board %s cannot reach its broker: %s", self.settings.board, reason)
            self._events.put(LinkState(False, f"board {self.settings.board} cannot reach its broker: {reason}"))

    def _disconnected(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any = None) -> None:
        with self._speaking:
            was = self.connected
            self.connected = False
        if not was:
            return
        self._events.put(LinkState(False, f"the link to the broker dropped ({reason}); reconnecting"))
        quick = time.monotonic() - self._connected_at < QUICK_DROP_S
        self._quick_drops = self._quick_drops + 1 if quick else 0
        if self._quick_drops == QUICK_DROPS:
            board = self.settings.board
            said = (
                f"the broker ends board {board}'s connection moments after each connect: another board may be "
                f"connected under the name {board!r} (every board needs a name of its own in [remote] board)"
            )
            self.log.warning("%s", said)
            self._events.put(LinkState(False, said))

    def _message(self, client: Any, userdata: Any, raw: Any) -> None:
        address = topics.parse(raw.topic)
        if address is None:
            self._dropped(f"a message on {raw.topic[:80]!r}, which is none of tafel's topics")
            return
        if address.kind == "inbox" and address.board != self.settings.board:
            self._dropped(f"a message for board {address.board} reached board {self.settings.board}")
            return
        try:
            message = decode(raw.payload)
        except MessageError as error:
            self._dropped(f"a message from {address.sender or address.board} was ignored: {error}")
            return
        self._events.put(Incoming(address, message))

    def _dropped(self, why: str) -> None:
        self.problems += 1
        self.log.warning("%s", why)


def unreachable_reason(settings: BrokerSettings) -> str:
    """Why a board cannot reach its broker, in words: what a connection like the MQTT client's meets
    (no such machine, nothing listening, a certificate it does not trust, ...)."""
    where = f"{settings.host}:{settings.port}"
    try:
        with socket.create_connection((settings.host, settings.port), timeout=PROBE_S) as raw:
            if not settings.tls:
                return f"{where} takes connections but did not answer as an MQTT broker"
            context = ssl.create_default_context(cafile=settings.ca_file)
            with context.wrap_socket(raw, server_hostname=settings.host):
                return f"{where} speaks TLS but did not answer as an MQTT broker"
    except ssl.SSLCertVerificationError as error:
        trusted = f"the certificate authority in {settings.ca_file}" if settings.ca_file else "the system's authorities"
        return f"the broker's certificate is not trusted by {trusted} ({error.verify_message}): check [remote] ca_file"
    except ssl.SSLError as error:
        return f"TLS with {where} failed ({error.reason or error}): is the broker's port a TLS listener?"
    except socket.gaierror:
        return f"no machine called {settings.host} is known here: check [remote] broker"
    except ConnectionRefusedError:
        return f"nothing listens on {where}: is the broker running, and is the port right?"
    except OSError as error:
        return f"{where} cannot be reached ({error.strerror or error})"
