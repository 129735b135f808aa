"""A tiny sd_notify(3) client: tells systemd that the service is ready, alive, busy or stopping.

systemd passes `$NOTIFY_SOCKET` (a path, or an abstract socket written with a leading `@`) to a
`Type=notify` service; each notification is one datagram of `KEY=VALUE` lines. With `WatchdogSec=`
it also passes `$WATCHDOG_USEC` (and `$WATCHDOG_PID`): the service must send `WATCHDOG=1` more often
than that, and sd_watchdog_enabled(3) recommends every half of it. No python-systemd needed.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping

STATE_CHANGE_WAIT = 2.0  # seconds READY=1 and STOPPING=1 may wait for room in systemd's queue


def notify_address(value: str | None) -> str | None:
    """The socket address in `$NOTIFY_SOCKET`, or None when it is unset or unusable."""
    if not value:
        return None
    if value.startswith("@"):
        return "\0" + value[1:]  # the abstract namespace
    if value.startswith("/"):
        return value
    return None  # sd_notify(3) accepts only absolute paths and abstract names


def watchdog_interval(environ: Mapping[str, str] | None = None, pid: int | None = None) -> float | None:
    """Seconds between watchdog pings (half of `$WATCHDOG_USEC`), or None when systemd asks for none.

    Like sd_watchdog_enabled(3), `$WATCHDOG_PID` (when set) must name this process: a child that
    inherited the environment must not ping for its parent.
    """
    environ = os.environ if environ is None else environ
    raw = environ.get("WATCHDOG_USEC")
    if not raw:
        return None
    try:
        usec = int(raw)
    except ValueError:
        return None
    if usec <= 0:
        return None
    owner = environ.get("WATCHDOG_PID")
    if owner:
        try:
            if int(owner) != (os.getpid() if pid is None else pid):
                return None
        except ValueError:
            return None
    return usec / 2 / 1_000_000


class Notifier:
    """Sends notifications to systemd; does nothing (and costs nothing) when not run by systemd."""

    def __init__(self, address: str | None = None, environ: Mapping[str, str] | None = None) -> None:
        environ = os.environ if environ is None else environ
        self.address = address if address is not None else notify_address(environ.get("NOTIFY_SOCKET"))
        self._socket: socket.socket | None = None
        self.last_error: OSError | None = None

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def notify(self, *lines: str, wait: float = 0.0) -> bool:
        """Send one datagram of `KEY=VALUE` lines; False if there is no socket or sending failed.

        A notification must never hang or stop the service: when systemd's queue is full the send
        waits at most `wait` seconds (0: not at all) and gives up. The error is kept in `last_error`
        for the caller to log.
        """
        if self.address is None:
            return False
        message = "\n".join(lines).encode("utf-8")
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._socket.settimeout(wait)
            self._socket.sendto(message, self.address)
        except OSError as error:
            self.last_error = error
            return False
        self.last_error = None
        return True

    # A lost WATCHDOG or STATUS is replaced by the next one; READY and STOPPING are worth a wait.
    def ready(self, status: str | None = None) -> bool:
        return self.notify("READY=1", *_status_lines(status), wait=STATE_CHANGE_WAIT)

    def watchdog(self) -> bool:
        return self.notify("WATCHDOG=1")

    def status(self, text: str, wait: float = 0.0) -> bool:
        """STATUS=...; a routine update is dropped when the queue is full, a state change may wait."""
        return self.notify(_status(text), wait=wait)

    def stopping(self, status: str | None = None) -> bool:
        return self.notify("STOPPING=1", *_status_lines(status), wait=STATE_CHANGE_WAIT)

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def _status(text: str) -> str:
    return "STATUS=" + " ".join(text.split())  # one line: a newline would start a new assignment


def _status_lines(text: str | None) -> tuple[str, ...]:
    return (_status(text),) if text else ()
